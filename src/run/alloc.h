/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * alloc.h - how many fresh processes a path gets, how long each measures
 * it, and when it has enough.
 *
 * A path's figure is the mean of its process means. Its variance is
 *   sigma_b^2 / n + sigma_w^2 / (n t)
 * for n processes measuring it t seconds each, sigma_b^2 the variance
 * between processes (placement, layout, the moment) and sigma_w^2 that of
 * one process's mean over one second of batches. Each process also costs
 * c seconds that measure nothing (starting, calibrating, warming up). For a
 * budget B = n (t + c), the variance is least at
 *   t* = sqrt(c sigma_w^2 / sigma_b^2)
 * (Kalibera and Jones, "Rigorous benchmarking in reasonable time", 2013):
 * where processes differ by much more than their batches, many short
 * processes; where they agree, few long ones. A run measures a few pilot
 * processes, estimates the three figures from them, and gives every
 * further process t* of each path.
 *
 * A path is done, after the pilots, when its budget is spent, or when the
 * 95% interval of its log process means is within the precision target
 * after a minimum count of processes: a rule on their spread alone, which is independent of
 * their mean for normal data, so that stopping does not bias the mean
 * (tests/validation/stopping-sim.c shows it).
 */
#ifndef UKB_RUN_ALLOC_H
#define UKB_RUN_ALLOC_H

#include <stddef.h>

/* Pilot processes, and the least a figure is made of. */
#define ALLOC_PILOT	4
#define ALLOC_MIN_PROCS 6
/* The time a process measures a path: the pilot's, and the bounds of t*. */
#define ALLOC_T_MIN 0.010
#define ALLOC_T_MAX 0.250

/* Log values of the processes so far, and their own noise. */
struct alloc_series {
	double sum, sumsq;
	size_t n;
	double r2, r2t; /* sums of (SE / mean)^2, and of it times the time measured */
};

/* What the processes so far showed of one path. */
struct alloc_path {
	struct alloc_series mean; /* the process means: when a figure has enough */
	/*
	 * The means over the reference's (reference.h): what compare takes,
	 * with the machine's drift out; what the time per process is chosen
	 * for. Empty where no reference was timed (then the means serve).
	 */
	struct alloc_series adjusted;
	double spent_s; /* measuring and overhead charged to it */
	int done;
};

/*
 * Adds a process: its mean and the SE of that mean, its reference's mean
 * and SE (NAN when not timed), the time it measured.
 */
void alloc_add(struct alloc_path *a, double mean, double se, double ref, double ref_se,
	       double measure_s);

/*
 * t* for the paths @a[0..n) (the median of theirs), given @overhead_s per
 * path and process; within [ALLOC_T_MIN, @max_s].
 */
double alloc_process_time(const struct alloc_path *a, size_t n, double overhead_s, double max_s);

/*
 * Whether @a has enough: its budget spent, or the relative 95% CI of its
 * process means within @precision after ALLOC_MIN_PROCS processes.
 */
int alloc_enough(const struct alloc_path *a, double precision, double budget_s);

#endif
