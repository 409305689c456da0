/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run-profile.h - `run --profile PATTERN`: after the measurement, each
 * measured path that PATTERN matches runs its loop again in this process
 * for a while under a sampling perf event; where the time went (vDSO
 * symbols and instructions, the kernel, ukbench and the C library) is
 * printed and kept with the path's result.
 */
#ifndef UKB_CLI_RUN_PROFILE_H
#define UKB_CLI_RUN_PROFILE_H

#include <signal.h>
#include <stdio.h>

#include "plan.h"
#include "record.h"

/* samples per second: perf record's default */
#define RUN_PROFILE_HZ 4000

/*
 * Profiles the cases of @plan matching @pattern whose result in @run was
 * measured, for @seconds each; prints to @out (NULL: nothing) and sets
 * each result's profile. Where sampling cannot be done, says why once on
 * stderr and returns 0 (the measurement stands); -1 on ENOMEM.
 */
int run_profiles(const struct run_plan *plan, const char *pattern, double seconds,
		 struct rec_run *run, FILE *out, volatile sig_atomic_t *stop);

#endif
