/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner.h - the ways a plan is measured, and the one interface they share.
 *
 *   run_inproc   in this process, case after case;
 *   run_procs    in fresh processes of a worker, each measuring every
 *                case, merged: samples pooled, each process's mean kept
 *                (the CI is then over the process means);
 *   the 32-bit ABI is run_procs with the 32-bit helper as the worker.
 *
 * Every runner appends the same result records to a run, and the workers
 * answer in the one serialised form of a run (the run JSON). Runners
 * never print: errors come back in @err, results through ctl->on_result.
 */
#ifndef UKB_RUN_RUNNER_H
#define UKB_RUN_RUNNER_H

#include <signal.h>
#include <stddef.h>

#include "plan.h"
#include "record.h"

struct run_ctl {
	volatile sig_atomic_t *stop; /* set asynchronously: stop soon */
	/*
	 * A result was appended to the run (run->results[index]); the front
	 * end may complete it (the floor its history knows) and show it. May
	 * be NULL.
	 */
	void (*on_result)(void *arg, struct rec_run *run, size_t index);
	/* within a path, after every sample (in this process only); may be NULL */
	void (*progress)(void *arg, const struct ukb_result *r);
	/* case @i of @n begins (in this process), or process @i of @n starts */
	void (*begin)(void *arg, size_t i, size_t n);
	void *arg;
	/*
	 * While a runner waits for a worker's answer: called at least once
	 * a second, so that progress moves. May be NULL.
	 */
	void (*tick)(void *arg);
};

/* A worker program: how to start it, and what to add to its path names. */
struct worker {
	const char *exe;	  /* the file to execute */
	const char *const *argv0; /* its leading arguments ("ukbench", "worker") */
	size_t nargv0;
	const char *suffix; /* "" or "@32", appended to every path name */
	const char *detail; /* replaces each result's detail, or NULL */
};

/*
 * Measures one case with @m (its parameters set from the case) and
 * appends the result to @run: the step every runner is made of. 0, or
 * -ENOMEM (nothing appended).
 */
int run_case(const struct ukb_case *c, struct ukb_measure_opts *m, const struct ukb_clock_info *clk,
	     struct rec_run *run);

/* Measures @p here, appending to @run. 0, or -ENOMEM. */
int run_inproc(const struct run_plan *p, struct rec_run *run, const struct run_ctl *ctl);

/*
 * Measures @p in max(1, p->procs) fresh processes of @w, one after
 * another, appending the merged results to @run. A worker that cannot be
 * executed at all (ENOEXEC: a kernel that does not run its format) gives
 * every case a row that says so. 0; 1 when interrupted; -1 with @err.
 */
int run_procs(const struct run_plan *p, const struct worker *w, struct rec_run *run,
	      const struct run_ctl *ctl, char *err, size_t errlen);

/*
 * The signals that stop a measurement: SIGINT, SIGTERM and SIGHUP, all
 * caught by @fn, without SA_RESTART, so that a blocking read returns and
 * the stop is seen at once. Every command that measures uses this one list.
 */
void run_catch_stops(void (*fn)(int sig));

/* The 32-bit helper beside this program (or $UKBENCH_ABI32); 0, or -1. */
int abi32_helper(char *path, size_t len);

/*
 * A guest program of `ukbench vm` beside this one: @name "ukbench-guest"
 * (or $UKBENCH_GUEST) for this machine, "ukbench-guest-aarch64" for
 * another. 0, or -1 with its path in @path all the same.
 */
int guest_helper(const char *name, char *path, size_t len);

/*
 * The worker's side: reads a plan from @argv (after its leading
 * arguments), measures it and writes the run JSON to standard output.
 * Exit status: 0, 2 for a bad plan, 128 + signal when interrupted (what
 * was measured is still written, marked interrupted).
 */
int worker_main(int argc, char **argv);

/*
 * worker_main(), and with @describe a run of its own: this machine's
 * environment, the settings and the clock recorded in it, as a run of
 * `ukbench run` has them (a guest's worker, ukbench-guest).
 */
int worker_run(int argc, char **argv, int describe);

#endif
