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

#include "record.h"
#include "twosample.h"

struct cmp_opts {
	double alpha;	  /* significance level, 0.05 */
	double threshold; /* noise threshold as a fraction, 0.01 */
	double floor;	  /* between-run relative SD of a side with none of its own, or 0 */
	int raw;	  /* compare the measured means, not at the reference's speed */
	int force;	  /* compare paths whose settings differ (they are marked) */
	double limit;	  /* regression limit as a fraction (--fail-on-regression); < 0: none */
	int paired;	  /* pair the runs of sides that alternated (--paired) */
	int pair;	  /* the sides alternated (cmp_alternated()): compare_runs() sets it */
};

/*
 * What every command compares with unless told: alpha 0.05, 1%, no limit.
 * Declared once: the options' defaults are these, as text (CMP_DEF_TEXT,
 * measure.h's UKB_DEF_TEXT).
 */
#define CMP_ALPHA_DEF	  0.05
#define CMP_THRESHOLD_PCT 1
#define CMP_DEF_TEXT(x)	  UKB_DEF_TEXT(x)

static inline struct cmp_opts cmp_defaults(void)
{
	return (struct cmp_opts){ .alpha = CMP_ALPHA_DEF,
				  .threshold = CMP_THRESHOLD_PCT / 100.0,
				  .limit = -1 };
}

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
	 * The change: other/base - 1 of the figures printed beside it, always.
	 * Its interval, p and verdict: where the path's slope on the reference
	 * is known (@adjusted) and the reference moved between the sides no
	 * further than between the host's runs, those of the change at one
	 * speed of the machine (each process's mean over its reference's to
	 * the power of the slope), with the floor at one speed, the interval
	 * widened to hold the change as measured. Where the reference moved
	 * further (@ref_moved: a kernel change can move it) or its spread is
	 * not known yet, the hull of the interval of the change as measured
	 * and of the change at one speed: a change is called only where it
	 * stands both ways, so no verdict rests on taking the machine's move
	 * out (an intersection-union test: p is the larger p). Else the
	 * interval of the change as measured, with the floor as measured.
	 */
	struct ukb_cmp c;
	struct ukb_cmp c0;  /* the same without the floor: what the processes alone say */
	struct ukb_cmp raw; /* as measured, alone */
	struct ukb_cmp adj; /* at one speed of the machine (@adjusted only) */
	struct ukb_cmp ref; /* of the reference: how the machine itself moved */
	int adjusted;
	double beta;  /* the path's slope on the reference, as learned */
	double floor; /* the floor in c's interval, both sides together (relative SD) */
	/*
	 * each side's reference against the machine's usual speed (log; NAN:
	 * not known), and whether the reference moved between the sides beyond
	 * how far it moves between this host's runs
	 */
	double state[2];
	int ref_moved;
	/*
	 * a side was measured in another state of the machine than the other
	 * (its run's processes spreading LEARN_DISORDER times as much as
	 * usual, or its reference far from the usual where the path follows
	 * it): how far that state moved the path is not known, and no verdict
	 * of a change is given ("other state")
	 */
	int other_state;
	size_t runs[2]; /* the runs pooled on each side */
	/*
	 * the sides alternated in time (A B A B ...) and each run was set
	 * against its neighbour of the other side: the machine's slow drift
	 * cancels in their differences, whose spread moderates the floor
	 */
	int paired;
	enum ukb_verdict verdict;
	enum cmp_outcome outcome;
};

/*
 * Does the row's verdict claim what it says: both sides replicated, neither
 * made in another state of the machine (improved and regressed are then
 * marked and coloured as such)?
 */
static inline int cmp_claims(const struct cmp_row *r)
{
	return r->replicated && !r->other_state;
}

/* Does the row call a change: improved or regressed, and claimed (cmp_claims())? */
static inline int cmp_called(const struct cmp_row *r)
{
	return cmp_claims(r) && (r->verdict == UKB_IMPROVED || r->verdict == UKB_REGRESSED);
}

/*
 * Pairs every path of @a with the same path of @b (in @a's order, then
 * @b's paths that @a lacks) and compares them. The caller frees *@rows.
 * Returns the number of paths measured in both.
 */
size_t compare_runs(const struct rec_run *a, const struct rec_run *b, const struct cmp_opts *o,
		    struct cmp_row **rows, size_t *n);

/*
 * Did the runs pooled into @a and @b alternate in time: as many a side,
 * two or more, their start times strictly interleaved (A B A B ..., or
 * B A B A ...)? Then the i-th newest run of each side are neighbours.
 */
int cmp_alternated(const struct rec_run *a, const struct rec_run *b);

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
 * The note for the rows of @rows[0..n) one of whose sides was measured in
 * another state of the machine than its usual one (cmp_row.state,
 * learn_other_state()): the farthest, named by @da or @db. 0 and "" when none.
 */
int cmp_state_note(const struct cmp_row *rows, size_t n, const char *da, const char *db, char *buf,
		   size_t len);

/*
 * The note for the rows whose reference moved between the sides beyond its
 * run-to-run spread on this host (cmp_row.ref_moved). 0 and "" when none.
 */
int cmp_ref_note(const struct cmp_row *rows, size_t n, char *buf, size_t len);

/*
 * The warning every output carries when rows of @rows[0..n) were measured
 * with other settings on each side (compared only with @force); 0 and ""
 * when none was.
 */
int cmp_settings_note(const struct cmp_row *rows, size_t n, int force, char *buf, size_t len);

/*
 * The note for the rows one of whose sides was made in another state of
 * the machine (cmp_row.other_state): 0 and "" when none.
 */
int cmp_other_note(const struct cmp_row *rows, size_t n, char *buf, size_t len);

/*
 * The note for the rows whose runs cannot bound the change (UKB_CANNOT_TELL):
 * the largest MDE among them, and what narrows it. 0 and "" when none.
 */
int cmp_tell_note(const struct cmp_row *rows, size_t n, char *buf, size_t len);

/* The verdict as printed: "regressed", ..., "cannot tell", "unreplicated" or "other state". */
const char *cmp_verdict_name(const struct cmp_row *r);

/*
 * The geometric mean of other/base over the rows compared, with an
 * interval (the rows' own, at @alpha) that assumes the paths move together (the widest: a run's
 * state moves every path at once): "geometric mean of other/base over N
 * paths: R (+C%), 95% CI [L%, H%] if they move together". 0 and "" when
 * no row was compared.
 */
size_t cmp_geomean_text(const struct cmp_row *rows, size_t n, double alpha, char *buf, size_t len);

/* The exit status automation gets for these rows: 0, 1 or 125. */
int cmp_exit_status(const struct cmp_row *rows, size_t n);

#endif
