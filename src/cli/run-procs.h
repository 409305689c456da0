/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run-procs.h - repeating a run in fresh processes (`run --runs N`).
 */
#ifndef UKB_CLI_RUN_PROCS_H
#define UKB_CLI_RUN_PROCS_H

#include <signal.h>

#include "cli.h"
#include "measure.h"
#include "record.h"

/*
 * Runs @patterns (none: the default suite) with settings @m in @nproc
 * fresh processes of this program, one after the other, and merges their
 * results into @run (begun by the caller). Stops early when *@stop is set.
 * Returns 0, or -1 with the error printed.
 */
int run_in_processes(const struct ukb_measure_opts *m, const struct select_opts *sel,
		     char **patterns, int npatterns, unsigned nproc, struct rec_run *run,
		     volatile sig_atomic_t *stop, int progress);

#endif
