/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan.h - what a runner is asked to measure, and its one codec between
 * processes.
 *
 * A plan is the measuring settings, the options the variants are made
 * from, and the cases in the order to measure them. A child (a fresh
 * process of `run --processes`, or the 32-bit helper) gets the plan as its
 * argument vector, one "key=value" per item, "case=NAME/PATH" per case,
 * makes its cases with the same selection code from the same options,
 * and answers in the run JSON (record.h). Every number is read strictly:
 * the whole string, in range, or the plan is refused.
 */
#ifndef UKB_RUN_PLAN_H
#define UKB_RUN_PLAN_H

#include <stddef.h>

#include "counters.h"
#include "measure.h"
#include "select.h"

struct run_plan {
	/*
	 * m.events points into the @events of the plan that was parsed or set
	 * up first: a copy of a plan keeps pointing there, so the first must
	 * outlive its copies.
	 */
	struct ukb_measure_opts m;
	struct ukb_event events[UKB_MAX_COUNTERS];
	struct select_opts sel;
	unsigned procs; /* fresh processes per path; 0 or 1: this one */
	/*
	 * A worker measures its cases in an order shuffled by this seed (0:
	 * in order), so that each process takes the paths in another order
	 * and drift over time hits every path alike.
	 */
	unsigned long seed;
	const struct ukb_case *cases;
	size_t ncases;
	/* the plug-ins a worker loads before it makes its cases, ':'-joined; NULL: none */
	const char *plugins;
};

/*
 * The default measuring budget of a path when @n paths are selected: a
 * run of about PLAN_RUN_SECONDS whatever is selected, each path between
 * PLAN_PATH_MIN_S and PLAN_PATH_MAX_S. The default suite (about 90 paths)
 * gets the least; a comparison of two paths, which needs the most, the
 * most.
 */
#define PLAN_RUN_SECONDS 36.0
#define PLAN_PATH_MIN_S	 0.4
#define PLAN_PATH_MAX_S	 5.0
double plan_default_budget(size_t n);

/*
 * Makes @p choose its processes per path (procs 0, alloc.h): many short
 * ones, each warmed briefly, each needing few samples unless @min_given.
 * p->m.budget_s stays the path's whole budget.
 */
void plan_choose_processes(struct run_plan *p, int min_given);

/* The plan as an argument vector after @nprefix leading entries, NULL
 * ended. The caller frees it with plan_argv_free(). NULL on ENOMEM. */
char **plan_argv(const struct run_plan *p, const char *const *prefix, size_t nprefix);
void plan_argv_free(char **argv);

/*
 * Reads a plan from @argv[0..argc) into @p, the case specs into @specs
 * (pointers into argv; @nspecs of them; the caller frees the array).
 * @sizes gets the --size list (caller frees). 0, or -1 with @err.
 */
int plan_parse(int argc, char **argv, struct run_plan *p, const char ***specs, size_t *nspecs,
	       long **sizes, char *err, size_t errlen);

#endif
