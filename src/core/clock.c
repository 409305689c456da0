// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clock.c - resolution and cost of the batch clock.
 *
 * The batch length is derived from these two figures: a batch must be long
 * against both, so that neither the granularity of the clock nor the two
 * reads around a batch weigh in the per-call figure.
 */
#include <errno.h>
#include <stdlib.h>

#include "clock.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int ukb_clock_probe(struct ukb_clock_info *info)
{
	enum { ROUNDS = 15, READS = 1000 };
	uint64_t cost[ROUNDS];
	struct timespec res;

	if (clock_getres(UKB_CLOCK, &res))
		return -errno;
	info->resolution_ns = (double)res.tv_sec * 1e9 + (double)res.tv_nsec;

	/* The median of several rounds: one round may take an interrupt. */
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t t0 = ukb_now_ns(), t1;

		for (int i = 0; i < READS; i++)
			(void)ukb_now_ns();
		t1 = ukb_now_ns();
		cost[r] = t1 - t0;
	}
	qsort(cost, ROUNDS, sizeof(cost[0]), cmp_u64);
	info->read_cost_ns = (double)cost[ROUNDS / 2] / READS;
	return 0;
}
