// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * affinity.c - CPU pinning through sched_setaffinity().
 *
 * Pinning removes migrations from the samples and lets a developer measure
 * the CPU a change concerns (a big or a little core, an isolated one).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>

#include "affinity.h"

int ukb_pin_cpu(unsigned cpu)
{
	cpu_set_t set;

	if (cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -errno;
	return 0;
}
