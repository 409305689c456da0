// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * harness.c - the harness measuring itself.
 *
 * harness.empty runs the timing loop with nothing in it but a compiler
 * barrier (an empty asm with a memory clobber, so the loop is not folded
 * away, on every architecture and without emitting an instruction). Its
 * per-iteration figure is the loop's own share in every other result: the
 * counter increment, the compare and the branch, and the two clock reads
 * amortized over the batch.
 */
#include "ukbench.h"

static int empty_run(struct ukb_ctx *c, uint64_t n)
{
	(void)c;
	for (uint64_t i = 0; i < n; i++)
		__asm__ __volatile__("" ::: "memory");
	return 0;
}

static const struct ukb_path harness_empty_paths[] = {
	{ .name = "loop", .run = empty_run, .detail = "empty loop body" },
	{ NULL },
};

const struct ukb_bench ukb_bench_harness_empty = {
	.name = "harness.empty",
	.summary = "an empty loop: the harness's own cost per iteration",
	.unit = "iteration",
	.flags = UKB_DEFAULT,
	.paths = harness_empty_paths,
};
