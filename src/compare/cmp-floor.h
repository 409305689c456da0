/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmp-floor.h - which floor a path gets, and why: the host's stored runs
 * read through the store and learned from (learn.h), for run (its own
 * interval), compare, report and calibrate alike.
 *
 * The floor is how much a path's mean moves between runs of the same
 * thing beyond what the processes of one run show, which no single run can
 * see of itself and every interval between runs must hold. It is learned
 * from runs known to measure the same thing (learn.h says which), never
 * from the runs being compared; a host that has taught nothing yet gets
 * the prior, and every output says which it was.
 */
#ifndef UKB_COMPARE_CMP_FLOOR_H
#define UKB_COMPARE_CMP_FLOOR_H

#include "learn.h"
#include "record.h"
#include "series-load.h"
#include "store.h"

/* The newest runs of a path a floor is learned from. */
#define FLOOR_RUNS 200

enum floor_source {
	FLOOR_NONE,    /* none: --no-floor, or not replicated */
	FLOOR_GIVEN,   /* --floor */
	FLOOR_PRIOR,   /* assumed: the host's runs taught none yet */
	FLOOR_LEARNED, /* from the host's runs */
};

/* One path's floor and where it came from. */
struct floor_pick {
	struct learn_model m;
	enum floor_source source;
	int busy;	 /* the path was measured busy */
	char error[256]; /* why the stored runs could not be read ("": none) */
};

/*
 * What the stored runs of @run's host teach of path @r, leaving out the
 * runs @exclude[0..nex) (those being compared). @st may be NULL (the prior
 * alone). A store that cannot be read leaves its message in out->error,
 * for the caller to print, and the prior.
 */
void floor_pick(struct store *st, const struct rec_run *run, const struct rec_result *r,
		const int64_t *exclude, size_t nex, struct floor_pick *out);

/* Sets r->fl from @p: the floors, the slope, the machine's usual speed. */
void floor_apply(const struct floor_pick *p, struct rec_result *r);

/*
 * The relative SD of @r's process means, within each run where runs were
 * pooled (NAN: fewer than two processes): what learn_scale() weighs.
 */
double floor_spread(const struct rec_result *r);

/* The same of the references beside @r's processes (NAN: not known). */
double floor_ref_spread(const struct rec_result *r);

/*
 * Widens r->fl to at least the prior's floor @prior, for @why (REC_WIDE_*):
 * the run was measured in conditions its floor was not learned in.
 */
void floor_widen(struct rec_result *r, double prior, int why);

/*
 * Was @run measured while the machine ran away from its usual speed
 * (learn_other_state()), by any of its paths' references against the
 * host's (r->fl, set)? The farthest into *@most (log) and *@at.
 */
int floor_run_state(const struct rec_run *run, double *most, const struct rec_result **at);

/*
 * @run's disorder (r->fl set): the median over its paths of their scales,
 * where LEARN_STATE_PATHS or more are known, but no more than the median
 * of the references' (learn_scale() of the references' spread); 0: none
 * known.
 */
double floor_run_disorder(const struct rec_run *run);

/*
 * The note a run made in another state of the machine carries (its results'
 * r->fl set): its reference far from the host's usual level
 * (floor_run_state()), or its processes spreading LEARN_DISORDER times as
 * much as the path's usually do or more. 1 with the note in @buf, 0 and ""
 * when neither.
 */
int floor_state_note(const struct rec_run *run, char *buf, size_t len);

/*
 * Sets r->fl of every result of @run from the store, leaving @run itself
 * out of what is learned; the first store error in @err ("": none).
 */
void floor_learn_run(struct store *st, struct rec_run *run, char *err, size_t len);

/*
 * The change points of every series of @set found again against the host's
 * runs (series_restep()): the runs made in another state of the machine
 * (the reference far from its usual level, or processes spreading
 * LEARN_DISORDER times as much as usual) marked and left out, and a step
 * kept only where the series at one speed of the machine has it too.
 * Only the newest FLOOR_RUNS runs of a path are judged. 0, or -1 with @err.
 */
int floor_series(struct store *st, struct series_set *set, const struct series_opts *o, char *err,
		 size_t len);

/*
 * A run's own interval: sets r->floor_rel, floor_df and state_rel from
 * r->fl, and the statistics again. Where the path's slope and the host's
 * usual speed are known, the floor at one speed of the machine and, as
 * state_rel, the slope times how far the run's reference lay from the
 * host's usual level: the interval holds the run's mean and the mean it
 * would have had at the machine's usual speed. Else the floor as measured,
 * which holds the states the host's runs have shown; in the host's first
 * runs (fewer than LEARN_USUAL_MIN), as state_rel, how far the run's
 * reference lay from theirs, at a slope of 1. *@offset gets how far
 * (log) the run's reference lay from the usual level (NAN: not known).
 */
void floor_of_run(struct rec_result *r, double *offset);

/* The log mean of @r's references, NAN when not known for every process. */
double floor_ref_log(const struct rec_result *r);

/*
 * A run's own conditions: busy when its load or the share of time its paths
 * waited (their mean; else its disturbed share) says so (store.h).
 */
int run_busy(const struct rec_run *run, double *load, double *waited, double *disturbed);

/* What a comparison uses, for both of its runs. */
struct floor_choice {
	double pct; /* --floor, in %; < 0: not given */
	int none;   /* --no-floor */
	/* out: what the header says */
	size_t paths[FLOOR_LEARNED + 1]; /* results of both runs, by source */
	double lo, hi;			 /* the floors used, smallest and largest */
	size_t runs, groups;		 /* the most a path learned from */
	size_t boots;			 /* results whose side pools boots (no floor added) */
	/* results measured busy whose floor came from quiet runs only (REC_WIDE_BUSY) */
	size_t wide_busy;
	char error[256]; /* the first store error met ("": none) */
};

/*
 * Sets what every result of @a and @b learned (r->fl), as the options of
 * @fc say, else from the store without the runs compared, and fills @fc's
 * description. @st may be NULL; fc->error says when it failed.
 */
void cmp_choose_floor(struct floor_choice *fc, struct store *st, struct rec_run *a,
		      struct rec_run *b);

/* The floors chosen, in a phrase: "0.80% to 2.10% a run (learned from ...)". */
void cmp_floor_describe(const struct floor_choice *fc, char *buf, size_t len);

#endif
