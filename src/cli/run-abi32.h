/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run-abi32.h - measuring through the 32-bit ABI with ukbench-abi32.
 */
#ifndef UKB_CLI_RUN_ABI32_H
#define UKB_CLI_RUN_ABI32_H

#include "cli.h"
#include "measure.h"
#include "record.h"

/* The helper's path (beside this ukbench) into @path; 0, or -1 if absent. */
int abi32_helper(char *path, size_t len);

/*
 * Measures @cases through the helper and appends their results to @run,
 * paths suffixed "@32". 0, -ENOENT (no helper), -ECHILD (it failed).
 */
int run_abi32(const struct ukb_measure_opts *m, const struct ukb_case *cases, size_t n,
	      struct rec_run *run);

#endif
