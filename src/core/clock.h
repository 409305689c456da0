/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clock.h - the clock that times batches.
 *
 * Batches are timed with CLOCK_MONOTONIC_RAW: it is not slewed by NTP, so a
 * batch that straddles an adjustment is not stretched or shrunk, and it is
 * served by the vDSO on every architecture that has one. It is read once
 * before and once after a batch, never inside it.
 */
#ifndef UKB_CORE_CLOCK_H
#define UKB_CORE_CLOCK_H

#include <stdint.h>
#include <time.h>

#define UKB_CLOCK CLOCK_MONOTONIC_RAW

static inline uint64_t ukb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(UKB_CLOCK, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct ukb_clock_info {
	double resolution_ns; /* clock_getres() of UKB_CLOCK */
	double read_cost_ns;  /* median cost of one read, measured */
};

/* Measures the timing clock's resolution and cost. Returns 0 or -errno. */
int ukb_clock_probe(struct ukb_clock_info *info);

#endif
