/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * comparison.h - one run against a base, path by path: the figures, the
 * change with its interval, the minimum detectable effect, p-values and a
 * verdict, all from one method (compare.h). Shared by `compare`,
 * `run --baseline`, `exec` with several commands and `calibrate`.
 *
 * The observations are per-process means. A path measured in one process
 * on either side is compared on its batches, which cannot show how much
 * another process would differ: its verdict is "unreplicated", never
 * improved or regressed, and automation reads it as "cannot tell".
 */
#ifndef UKB_COMPARE_COMPARISON_H
#define UKB_COMPARE_COMPARISON_H

#include <stddef.h>

#include "twosample.h"
#include "record.h"

/*
 * A reference more than this many SDs of the stored runs' from their level
 * lies beyond the speeds of the machine the slope was learned at.
 */
#define CMP_SEEN_SDS 3.0

/*
 * A side pooled from runs of one boot carries the floor once a run; where
 * its runs' means spread more than their processes and the floor allow,
 * beyond chance at this level (an F test), it is judged by their own
 * spread instead (comparison.c).
 */
#define CMP_SPREAD_ALPHA 0.10

/* What the runs pooled on one side showed of themselves (compare_row()). */
struct cmp_spread {
	size_t runs;	/* runs pooled with their processes; 0: one run, not looked at */
	double sd;	/* SD of their log means */
	double allowed; /* the SD their processes and the floor allow a run's log mean */
	int judged;	/* they spread beyond it: the side is judged by their spread */
	double var;	/* judged: the variance of the side's log mean beyond its processes' */
	double df;	/* ... on runs - 1 degrees of freedom */
};

struct cmp_opts {
	double alpha;	  /* significance level, 0.05 */
	double threshold; /* noise threshold as a fraction, 0.01 */
	double floor;	  /* between-run relative SD of a side with none of its own, or 0 */
	int raw;	  /* compare the measured means, not at the reference's speed */
	int force;	  /* compare paths whose settings differ (they are marked) */
	double limit;	  /* regression limit as a fraction (--fail-on-regression); < 0: none */
};

/* What automation is told about a path, against the limit. */
enum cmp_outcome {
	CMP_NOT_REGRESSED, /* the interval excludes a regression of the limit */
	CMP_REGRESSED,	   /* significantly slower, by more than the limit */
	CMP_CANNOT_TELL,   /* neither: the limit is within this machine's noise */
};

struct cmp_row {
	const struct rec_result *a, *b; /* either NULL: missing in that run */
	int ok;				/* both measured: the figures below hold */
	/*
	 * The two sides were measured with other settings (parameters,
	 * threads, bytes a call, the command of exec): not the same thing,
	 * so not compared unless the caller forces it, and marked then.
	 */
	int differ;
	int replicated; /* both sides have two process means or more */
	/*
	 * a side measured busy whose floor came from no busy run
	 * (rec_result.floor_unfit): its interval may be too narrow, and no
	 * verdict of a change is given
	 */
	int unfit;
	/*
	 * The change compared: at one speed of the machine where both sides
	 * timed the reference (@adjusted: each process's mean over its
	 * reference's), else of the measured means. Its means are the
	 * measured ones either way.
	 */
	struct ukb_cmp c;
	/* the same without the floor: what the processes alone say */
	struct ukb_cmp c0;
	struct ukb_cmp raw; /* of the measured means, floor included */
	struct ukb_cmp ref; /* of the reference: how the machine itself moved */
	int adjusted;
	double beta;  /* the path's sensitivity to the reference, as learned */
	double floor; /* the floor in c's interval, both sides together (relative SD) */
	/*
	 * how much (log) of the machine's move between the sides lies beyond
	 * its speeds the slope was learned at (comparison.c); 0: none
	 */
	double beyond;
	/* the runs pooled on each side (base, other), on the scale compared */
	struct cmp_spread spread[2];
	enum ukb_verdict verdict;
	enum cmp_outcome outcome;
};

/*
 * Does the row's verdict claim what it says: both sides replicated, and
 * no side measured busy without a floor of busy runs (improved and
 * regressed are then marked and coloured as such)?
 */
static inline int cmp_claims(const struct cmp_row *r)
{
	return r->replicated && !r->unfit;
}

/*
 * Pairs every path of @a with the same path of @b (in @a's order, then
 * @b's paths that @a lacks) and compares them. The caller frees *@rows.
 * Returns the number of paths measured in both.
 */
size_t compare_runs(const struct rec_run *a, const struct rec_run *b, const struct cmp_opts *o,
		    struct cmp_row **rows, size_t *n);

/*
 * Keeps the rows of @rows[0..n) whose path matches one of @pats (NAME[/PATH]
 * patterns, as run takes them; none: every row), in order. The count kept.
 */
size_t cmp_keep_matching(struct cmp_row *rows, size_t n, char **pats, int npats);

/* Compares row->b with row->a (both set, or the row stays not ok). */
void compare_row(struct cmp_row *row, const struct cmp_opts *o);

/*
 * How a run was replicated, as a side is described: "5 processes", "3
 * boots" (pooled with --all), "1 process".
 */
void cmp_replication(const struct rec_run *r, char *buf, size_t len);

/* Why a row was not compared: "only in the other run", "base not measured", ... */
const char *cmp_why_not(const struct cmp_row *r);

/*
 * Were @a and @b measured the same way (parameters, threads, bytes a call,
 * exec's command): what makes two figures one thing. Either NULL: yes.
 */
int cmp_same_settings(const struct rec_result *a, const struct rec_result *b);

/*
 * What differs between the settings of a row's sides, in a phrase
 * ("groups=1 loops=20 against groups=4 loops=20"); "" when nothing does.
 */
void cmp_settings_diff(const struct cmp_row *r, char *buf, size_t len);

/*
 * The note the table carries when a side of rows of @rows[0..n) was judged
 * by its runs' own spread (struct cmp_spread); 0 and "" when none was.
 * @da, @db: how the sides are named.
 */
int cmp_spread_note(const struct cmp_row *rows, size_t n, const char *da, const char *db, char *buf,
		    size_t len);

/*
 * The warning every output carries when rows of @rows[0..n) were measured
 * with other settings on each side (compared only with @force); 0 and ""
 * when none was.
 */
int cmp_settings_note(const struct cmp_row *rows, size_t n, int force, char *buf, size_t len);

/*
 * The note for the rows taken at one speed of the machine although it
 * moved between the runs beyond its speeds the slope was learned at
 * (cmp_row.beyond), in @buf; 1 when there is one, else 0 and "".
 */
int cmp_beyond_note(const struct cmp_row *rows, size_t n, char *buf, size_t len);

/* The verdict as printed: "regressed", ..., "unreplicated" or "no busy floor". */
const char *cmp_verdict_name(const struct cmp_row *r);

/* The exit status automation gets for these rows: 0, 1 or 125. */
int cmp_exit_status(const struct cmp_row *rows, size_t n);

#endif
