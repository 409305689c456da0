/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * busy.h - when a run was measured on a busy machine: the rule the floors
 * (learn.h), compare's notes and calibrate share.
 */
#ifndef UKB_COMPARE_BUSY_H
#define UKB_COMPARE_BUSY_H

#include <math.h>

/*
 * The share of its batches' wall time a path's thread waited
 * (rec_waited_share()), else the share of disturbed batches where its CPU
 * time is not known, or the load per CPU, from which a machine was busy.
 * The shares are measured during the run; the load average trails by a
 * minute and counts ukbench's own processes, so only a heavy one counts.
 * The share waited tells the conditions apart where the share disturbed
 * does not (docs/validation.md).
 */
#define CMP_BUSY_LOAD	   1.0
#define CMP_BUSY_WAITED	   0.07
#define CMP_BUSY_DISTURBED 0.05

/*
 * Busy while measuring, by what the path saw during its run: the share
 * waited, else the share disturbed (the load average trails by a minute:
 * it reads busy for a while after a heavy job ends).
 */
static inline int cmp_busy_during(double waited, double disturbed)
{
	if (isfinite(waited))
		return waited >= CMP_BUSY_WAITED;
	return isfinite(disturbed) && disturbed >= CMP_BUSY_DISTURBED;
}

/* Busy by the load per CPU, or by the shares (cmp_busy_during()). */
static inline int cmp_busy(double load, double waited, double disturbed)
{
	return (isfinite(load) && load >= CMP_BUSY_LOAD) || cmp_busy_during(waited, disturbed);
}

#endif
