/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * learn.h - what a host's stored runs teach of one path: how far a run's
 * mean moves between runs beyond what its own processes show (the floor),
 * how the path moves with the reference timed beside its batches (the
 * slope), and how fast the machine usually runs (the reference's level).
 *
 * Every run carries its reference, which moves with the machine only (it
 * is user-space work, the same in every run of one build), so the
 * reference's level and spread are learned from every run of the host,
 * whatever its label. The floor and the slope need runs known to measure
 * the same thing: the runs of one label given twice or more on one kernel
 * build, boot and ukbench build, in one setting of the path (cmp-floor.c
 * groups them); calibrate's runs are such a label. A run whose label is
 * given once, or that has none, teaches neither: users change things
 * between labels within one boot (a seccomp filter, a tracer, a sysctl, a
 * library), and a floor learned across them held those changes (a store
 * of before/after pairs made it grow from 0.8% to 11.6%). Within a group
 * the floor is read from neighbouring runs (successive differences), and
 * a difference far beyond the others is left out, so that a label given
 * again after a change moves it little. Runs of several states of the
 * machine enter as they come, so the floor holds every state the host
 * has shown, not one quiet stretch.
 *
 * A host that has shown nothing yet gets a prior: a floor of
 * LEARN_PRIOR_FLOOR a run, worth LEARN_PRIOR_DF degrees of freedom, which
 * the learned one outweighs as runs accumulate (a moderated variance, as
 * limma's empirical Bayes takes one).
 *
 * A run whose processes spread more than the path's usually do on this
 * host was made in a disordered state of the machine, and moves between
 * runs by more too: each run's floor is the host's floor times its
 * disorder, its processes' relative SD over the host's usual (the median
 * of its runs'), at least 1 (learn_scale()), and the floor is learned from
 * runs so weighed. What a disordered state adds is shared by the runs of a
 * side made in it (comparison.c): it does not average out over them. Measured over 20 runs of six
 * paths on a cloud guest, the three whose processes spread 2-6 times as much as usual were those
 * 1.5-3.9% slower on every path.
 *
 * The slope is used where it pays: where taking the reference out leaves
 * less than LEARN_SLOPE_PAYS of the floor as measured. Where it leaves more
 * (a system call that follows its reference at a slope of 0.15), comparing
 * at one speed of the machine would widen intervals by the reference's
 * moves for nothing, and the path is compared as measured.
 */
#ifndef UKB_COMPARE_LEARN_H
#define UKB_COMPARE_LEARN_H

#include <stddef.h>
#include <stdint.h>

/*
 * The floor assumed of a path no run of the host has taught: the run-to-run
 * SD of a run's mean beyond its processes, on the scale compared, and how
 * many degrees of freedom it is worth. A floor relative to the spread of
 * the path's processes was tried and left: narrower intervals for the vDSO
 * paths, and false alarms near 5% (docs/validation.md).
 */
#define LEARN_PRIOR_FLOOR 0.015
#define LEARN_PRIOR_DF	  2.0

#define LEARN_SLOPE_PAYS 0.9

/*
 * Groups differ in how much of the machine's states their runs met: runs
 * made one after another within minutes (calibrate's, a label's) move less
 * among themselves than runs spread over an hour. Pooled, many runs of the
 * first would hide the second, so the floor learned is the pooled one or
 * the largest of a group of LEARN_GROUP_DF differences or more,
 * whichever is larger (docs/validation.md).
 */
#define LEARN_GROUP_DF 5

/*
 * A difference between neighbouring runs of a group beyond LEARN_CLIP
 * robust SDs of them all is a change, not noise, where LEARN_CLIP_MIN
 * differences or more tell what noise is.
 */
#define LEARN_CLIP     4.0
#define LEARN_CLIP_MIN 5

/* The slope is held to [0, LEARN_MAX_BETA]: a machine that slows never speeds a path. */
#define LEARN_MAX_BETA 3.0

/*
 * A run whose reference lies more than this many of the host's SDs from its
 * usual level, and by more than LEARN_STATE_MIN, was made in another state
 * of the machine (said under its table and in compare's header).
 */
#define LEARN_STATE_SDS 3.0
#define LEARN_STATE_MIN 0.02

/* Processes spreading this many times as much as usual: another state of the machine. */
#define LEARN_DISORDER 2.0

/*
 * The paths a run's processes must spread more on, the median of them,
 * before the machine is taken to have been in another state: one path's
 * spread may be the path's own change.
 */
#define LEARN_STATE_PATHS 3

/* The runs of the host it takes to know its usual speed and spread. */
#define LEARN_USUAL_MIN 5

/* The newest runs of the host the reference's level is learned from. */
#define LEARN_LEVEL_RUNS 40

/* One run of a path, as it is learned from. */
struct learn_run {
	int64_t id;
	size_t group;	/* runs of one group measure the same thing */
	int busy;	/* made on a busy machine */
	double y, w;	/* log of the mean of its process means; the variance of it they show */
	double spread;	/* the relative SD of its process means */
	double xspread; /* the same of the references beside them (0: not known) */
	/* the same of the reference beside them (x NAN: not known), and their covariance */
	double x, wx, wxy;
};

/*
 * @r from its process means @m and references @ref (NULL, or NAN where not
 * known), @n of each: 0, or -1 when it cannot be learned from (fewer than
 * two processes, a mean that is not positive).
 */
int learn_run_of(const double *m, const double *ref, size_t n, struct learn_run *r);

/* A floor, as learned or assumed. */
struct learn_floor {
	double sd; /* relative SD of a run's mean beyond its processes */
	double df; /* its degrees of freedom (the prior's included) */
	/* what the runs alone gave, and on how many degrees of freedom (0: none) */
	double learned, learned_df;
};

/* What a host's runs teach of a path. */
struct learn_model {
	double prior;		/* the floor assumed: LEARN_PRIOR_FLOOR */
	struct learn_floor raw; /* of the means as measured */
	/* at one speed of the machine: of log mean - beta log reference */
	struct learn_floor adj;
	double beta, se_beta; /* the slope; 0: not learned, or it does not pay */
	int slope_judged;    /* enough runs with the reference to judge it (beta means something) */
	size_t runs, groups; /* the runs in groups of two or more, and those groups */
	size_t busy, quiet;  /* of those runs, made busy and quiet */
	/* the path's usual relative SD of process means on this host; 0: not known */
	double usual_spread;
	/* the same of the references beside them; 0: not known */
	double usual_ref_spread;
	/* the machine's usual speed: median and robust SD of the references' log means */
	double ref_level, ref_sd;
	size_t ref_runs; /* 0: not known */
};

/*
 * Learns @m from @runs[0..n) (the newest first), leaving out those whose id
 * is in @exclude[0..nex) (the runs being compared never teach their own
 * floor). Every member is set; nothing learned leaves the prior.
 */
void learn_model(const struct learn_run *runs, size_t n, const int64_t *exclude, size_t nex,
		 struct learn_model *m);

/*
 * How much a run whose processes' relative SD is @spread moves beyond the
 * host's floor: its spread over the usual, at least 1; 1 where the usual
 * is not known.
 */
double learn_scale(const struct learn_model *m, double spread);

/*
 * The floor @f moderated by @k runs of one side whose own spread beyond
 * their processes is @s2 (a variance, on k - 1 degrees of freedom): the
 * variance of one run, into *@df its degrees of freedom.
 */
double learn_moderate(const struct learn_floor *f, double s2, size_t k, double *df);

/*
 * How far (log) a run whose reference's log mean is @x lies from the
 * machine's usual speed in @m: NAN when the level is not known.
 */
double learn_offset(const struct learn_model *m, double x);

/* Is a run at offset @d (learn_offset()) in another state of the machine? */
int learn_other_state(const struct learn_model *m, double d);

#endif
