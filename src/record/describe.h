/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * describe.h - the descriptions kept with every run, as JSON text: the
 * environment, the measuring settings, the timing clock and the vDSO.
 * Libc only. Each returns a new string (the caller frees), NULL on ENOMEM.
 */
#ifndef UKB_RECORD_DESCRIBE_H
#define UKB_RECORD_DESCRIBE_H

#include "clock.h"
#include "env.h"
#include "measure.h"
#include "record.h"

char *describe_env(const struct ukb_env *env);
/* @procs: fresh processes per path (1: this one) */
char *describe_settings(const struct ukb_measure_opts *o, unsigned procs);
char *describe_clock(const struct ukb_clock_info *clk);
char *describe_vdso(void);

/* All four into @run, for a run measured here; 0 or -ENOMEM. */
int describe_run(struct rec_run *run, const struct ukb_env *env, const struct ukb_measure_opts *o,
		 unsigned procs, const struct ukb_clock_info *clk);

#endif
