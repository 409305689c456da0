// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reference.c - the reference work timed beside every batch (see
 * reference.h). Plain C, the same on every architecture: what matters is
 * that it is the same work in every run on a machine, not what it costs.
 */
#include <math.h>
#include <stddef.h>

#include "clock.h"
#include "reference.h"

/*
 * The work: a chain of calls and returns, three deep (seven calls an
 * iteration), each doing a multiply-add. No system call, no kernel code,
 * no instruction of one architecture: plain C, the same on every one.
 *
 * Why calls: a system call and a vDSO call are calls and returns too (into
 * the kernel's entry, through its return thunks, back), and what slows
 * them on a shared machine (the other hardware thread of the core
 * competing for the return predictor and the front end, another tenant's
 * code evicting the branch history) slows a call chain as well. Measured
 * on a shared 2-vCPU AMD EPYC guest (Zen 3, Safe RET), over 150-240 s of
 * 1 ms batches of getppid() and vDSO clock_gettime() interleaved with each
 * candidate, 10-second windows, five sessions quiet and one under 2x
 * oversubscription: a system call moved by 7.9-12.7% (SD) and this chain
 * left 0.70-3.3% of it unexplained, where the previous reference (a
 * multiply-add and a table load behind an instruction barrier) left
 * 2.9-7.4%; vDSO clock_gettime moved by 1.9-3.3% and the chain left
 * 0.58-1.34% (the previous one 1.0-1.6%). The slope of a system call on
 * the chain was 1.1-1.7; on the previous reference it was 2-9.
 */
static volatile uint32_t sink;

static __attribute__((noinline)) uint32_t ref_leaf(uint32_t x)
{
	/* opaque to the compiler: the call stays a call */
	__asm__ volatile("" : "+r"(x));
	return x * 1103515245u + 12345u;
}

static __attribute__((noinline)) uint32_t ref_mid(uint32_t x)
{
	return ref_leaf(x) + ref_leaf(x ^ 1u);
}

static __attribute__((noinline)) uint32_t ref_top(uint32_t x)
{
	return ref_mid(x) + ref_mid(x + 7u);
}

void ukb_ref_run(uint64_t iters)
{
	uint32_t s = 0;

	for (uint64_t i = 0; i < iters; i++)
		s += ref_top(s);
	sink = s;
}

uint64_t ukb_ref_calibrate(double target_ns)
{
	uint64_t n = 64, best = UINT64_MAX;

	/* grow to the target, then keep the fastest of a few tries */
	for (;;) {
		uint64_t t0 = ukb_now_ns(), t;

		ukb_ref_run(n);
		t = ukb_now_ns() - t0;
		if ((double)t >= target_ns / 4 || n >= (1ull << 32))
			break;
		n *= 4;
	}
	for (int i = 0; i < 5; i++) {
		uint64_t t0 = ukb_now_ns(), t;

		ukb_ref_run(n);
		t = ukb_now_ns() - t0;
		if (t && t < best)
			best = t;
	}
	if (best == UINT64_MAX)
		return n;
	return (uint64_t)ceil((double)n * target_ns / (double)best);
}
