// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lab.c - workloads of known cost, for calibrating the comparison.
 *
 * lab.spin runs a chain of dependent multiply-adds (a linear congruential
 * step) whose length is the variant's argument: 1000 steps for "base",
 * 1010, 1020, 1050 and 1100 for the variants slowed by exactly 1%, 2%, 5%
 * and 10% of work. The chain cannot be overlapped or removed by the compiler (the
 * value goes through an empty asm), so its time is proportional to its
 * length: `ukbench calibrate` uses it to show which change sizes this
 * machine can tell from noise.
 */
#include <stdint.h>

#include "ukbench.h"

static const struct ukb_variant spin_variants[] = {
	{ .name = "base", .arg = 1000 },   { .name = "slow1", .arg = 1010 },
	{ .name = "slow2", .arg = 1020 },  { .name = "slow5", .arg = 1050 },
	{ .name = "slow10", .arg = 1100 }, { NULL },
};

static int spin_run(struct ukb_ctx *c, uint64_t n)
{
	uint64_t x = 1;
	long steps = c->arg;

	for (uint64_t i = 0; i < n; i++)
		for (long k = 0; k < steps; k++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			__asm__ __volatile__("" : "+r"(x));
		}
	return 0;
}

static const struct ukb_path lab_spin_paths[] = {
	{ .name = "loop", .run = spin_run, .detail = "chain of dependent multiply-adds" },
	{ NULL },
};

const struct ukb_bench ukb_bench_lab_spin = {
	.name = "lab.spin",
	.summary =
	    "a chain of 1000 dependent multiply-adds, and the same slowed by 1%, 2%, 5%, 10%",
	.variants = spin_variants,
	.paths = lab_spin_paths,
};
