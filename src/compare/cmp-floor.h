/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmp-floor.h - the floor: how much a path's mean moves between runs of
 * the same thing beyond what the processes of one run show, which no
 * single run can see of itself and every interval between runs must hold.
 *
 * It is learned only from runs known to measure the same thing: repeated
 * runs of one label (each against its own label's mean, so that a change
 * between labels never enters), or the A/A runs `calibrate` makes. Never
 * from the runs being compared. Each floor says where it came from, when,
 * and under what load, since a floor measured on a busy machine is larger
 * than a quiet one's.
 *
 * Used by run (its own interval), compare and report.
 */
#ifndef UKB_COMPARE_CMP_FLOOR_H
#define UKB_COMPARE_CMP_FLOOR_H

#include "record.h"
#include "store.h"

enum floor_source {
	FLOOR_NONE,	 /* not known */
	FLOOR_GIVEN,	 /* --floor, --no-floor */
	FLOOR_LABELS,	 /* repeated runs of a label */
	FLOOR_CALIBRATE, /* the host's calibration */
};

/* One path's floor and its provenance. */
struct floor_pick {
	double floor;
	double adjusted; /* of the mean at one speed of the machine, as compare takes it */
	double beta;	 /* the path's sensitivity to the reference; 0: not known */
	double se_beta, tau;
	double df; /* degrees of freedom of the floor compared; 0: given, exact */
	/*
	 * learned from runs made in other conditions than the run's, busy or
	 * quiet (too few of its own): their speed of the machine is not its
	 */
	int other_cond;
	enum floor_source source;
	struct store_floor_est est; /* FLOOR_LABELS */
	struct store_floor_est adj; /* FLOOR_LABELS: the same with the reference taken out */
	struct store_floor cal;	    /* FLOOR_CALIBRATE */
	char error[256];	    /* why the stored runs could not be read ("": none) */
};

/*
 * The floor of path @r of @run: from the stored repeated runs of a label
 * on its host and kernel (leaving out @exclude[0..nex)), else the host's
 * calibration, else none. @st may be NULL. A store that cannot be read
 * leaves its message in out->error, for the caller to print.
 */
void floor_pick(struct store *st, const struct rec_run *run, const struct rec_result *r,
		const int64_t *exclude, size_t nex, struct floor_pick *out);

/*
 * The floor the interval of path @r of a run includes: how far the run's
 * mean may lie from the path's mean over the host's runs, beyond what its
 * processes show. The floor measured, unless the path's slope on the
 * reference is learned and the store knows how fast the machine ran in
 * the newest runs of the path (at least three): then the floor at one speed
 * of the machine and how far this run's reference says the machine's speed
 * was from theirs,
 *
 *	floor_adj^2 + beta^2 (d^2 + sd^2 / n) + se_beta^2 d^2,
 *
 * d the log of this run's reference mean over their level (sd their SD,
 * n their number): a run made while the machine ran 4% fast gets an
 * interval that holds the 4% times the slope, one made at the machine's
 * usual speed one narrower than the floor measured, which holds every
 * speed the machine had. Only where the floor was learned from runs made
 * as @r was, busy or quiet: the other work of a busy machine slows the
 * reference by more than most paths (under 2x oversubscription here the
 * reference by 15%, the system call by 4%), so a busy run's speed set
 * against quiet runs' says little of its path. *@offset gets d, NAN when
 * not used.
 */
double floor_of_run(const struct floor_pick *p, const struct rec_result *r, double *offset);

/* Was it measured on a busy machine? */
int floor_pick_busy(const struct floor_pick *p);

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
	size_t paths[FLOOR_CALIBRATE + 1]; /* results of both runs, by source */
	double lo, hi;			   /* the floors used, smallest and largest */
	int busy_floor, busy_runs;	   /* a floor measured busy; a run made busy */
	size_t unfit;	 /* results measured busy whose floor came from no busy run */
	char from[256];	 /* where they came from, in a line */
	char error[256]; /* the first store error met ("": none) */
};

/*
 * Sets the floor of every result of @a and @b (floor_rel), as the options
 * of @fc say, else from the store without the runs compared, and fills
 * @fc's description. @st may be NULL; fc->error says when it failed.
 */
void cmp_choose_floor(struct floor_choice *fc, struct store *st, struct rec_run *a,
		      struct rec_run *b);

/* The floors chosen, in a phrase: "0.80% to 2.10% a side (from ...)", or "none known (...)". */
void cmp_floor_describe(const struct floor_choice *fc, char *buf, size_t len);

#endif
