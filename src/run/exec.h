/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exec.h - the runner of `ukbench exec`: any command, run once at a time,
 * with wall, user and system time, peak memory, exit status and perf
 * counters; and the record such runs make.
 */
#ifndef UKB_RUN_EXEC_H
#define UKB_RUN_EXEC_H

#include <signal.h>
#include <stddef.h>

#include "counters.h"
#include "record.h"

/* What to run. */
struct exec_plan {
	char **cmd;	     /* argv of the command, NULL ended */
	const char *cmdline; /* the same as one line, for the record */
	double timeout_s;    /* 0: none */
	const struct ukb_event *ev;
	unsigned nev;
	const char *name; /* the result's name; NULL: "exec." and the command's name */
	/* called at least once a second while the command runs (progress); may be NULL */
	void (*tick)(void *arg);
	void *tick_arg;
};

/* What one run of the command gave. */
struct exec_run {
	double wall_ns, user_ns, sys_ns, maxrss_kb;
	int status; /* as from waitpid */
	int timed_out;
	int exec_errno; /* the command could not be started */
	struct ukb_reading rd[UKB_MAX_COUNTERS];
	struct ukb_counters ctr;
};

/* The figures of a run: wall, user, sys, max RSS, then counter k. */
enum exec_metric { EXEC_WALL, EXEC_USER, EXEC_SYS, EXEC_RSS, EXEC_NMETRICS };

/*
 * Runs the command once, in its own process group, released only once
 * the counters are open on it; on timeout the group gets SIGTERM, then
 * SIGKILL; whatever it left running goes with it.
 */
void exec_once(const struct exec_plan *p, struct exec_run *r);

/*
 * For a signal handler: forwards @sig to the running command's group and
 * sets exec_stop.
 */
void exec_forward(int sig);
extern volatile sig_atomic_t exec_stop;

/* Metric @m of @n runs into @x (NAN where a counter could not count). */
void exec_values(const struct exec_run *runs, size_t n, unsigned m, double *x);

/*
 * The record of @n runs: one result "exec.<command>", path "wall", one
 * sample per run, the other metrics and the counters as its counters.
 * @failed: status UKB_ERROR with @reason. 0 or -ENOMEM.
 */
int exec_record(const struct exec_plan *p, const struct exec_run *runs, size_t n, int failed,
		const char *reason, struct rec_run *rec);

#endif
