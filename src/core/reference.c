// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reference.c - the reference work timed beside every batch (see
 * reference.h). Plain C but for one instruction barrier: what matters is
 * that it is the same work in every run on a machine, not what it costs.
 */
#include <math.h>
#include <stddef.h>

#include "clock.h"
#include "reference.h"

/*
 * The work: a chain of calls and returns, three deep (seven calls an
 * iteration), each doing a multiply-add (UKB_REF_CALLS); for the paths
 * that call the vDSO, the same chain whose every leaf also waits at the
 * architecture's instruction barrier and loads from a 4 KiB table
 * (UKB_REF_CALLS_BARRIER). No system call, no kernel code.
 *
 * Why calls: a system call and a vDSO call are calls and returns too (into
 * the kernel's entry, through its return thunks, back), and what slows
 * them on a shared machine (the other hardware thread of the core
 * competing for the return predictor and the front end, another tenant's
 * code evicting the branch history) slows a call chain as well. Why a
 * barrier for the vDSO: its clock reads are ordered (lfence; rdtsc on x86,
 * isb on arm64), and a reference that waits as they wait moves as they do.
 *
 * Measured on a shared 2-vCPU AMD EPYC guest (Zen 3, Safe RET), over
 * 150-240 s of 1 ms batches of getppid() and vDSO clock_gettime()
 * interleaved with each candidate, 10-second windows, four sessions quiet
 * and one under 2x oversubscription: a system call moved by 7.9-12.7%
 * (SD), the plain chain left 0.70-3.3% of it unexplained, the previous
 * reference (one multiply-add and table load behind the barrier, no
 * calls) 2.9-7.4%, the chain with the barrier in its leaves 4.4-5.2%;
 * vDSO clock_gettime moved by 1.9-3.3%, the chain with the barrier left
 * 0.42-0.71%, the plain chain 0.58-1.34%, the previous reference
 * 1.0-1.6% (four of the sessions). tools/ref-drift.c (make ref-drift)
 * measures the three on the machine at hand.
 */
static volatile uint32_t sink;
/* 4 KiB: in the first-level data cache of every CPU ukbench runs on */
static volatile uint32_t table[1024];

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

static __attribute__((noinline)) uint32_t bar_leaf(uint32_t x)
{
	uint32_t y = x * 1103515245u + 12345u;

	ukb_ref_barrier();
	return y + table[(y >> 8) & 1023];
}

static __attribute__((noinline)) uint32_t bar_mid(uint32_t x)
{
	return bar_leaf(x) + bar_leaf(x ^ 1u);
}

static __attribute__((noinline)) uint32_t bar_top(uint32_t x)
{
	return bar_mid(x) + bar_mid(x + 7u);
}

void ukb_ref_run(enum ukb_ref_work w, uint64_t iters)
{
	uint32_t s = 0;

	if (w == UKB_REF_CALLS_BARRIER)
		for (uint64_t i = 0; i < iters; i++)
			s += bar_top(s);
	else
		for (uint64_t i = 0; i < iters; i++)
			s += ref_top(s);
	sink = s;
}

uint64_t ukb_ref_calibrate(enum ukb_ref_work w, double target_ns)
{
	uint64_t n = 64, best = UINT64_MAX;

	/* grow to the target, then keep the fastest of a few tries */
	for (;;) {
		uint64_t t0 = ukb_now_ns(), t;

		ukb_ref_run(w, n);
		t = ukb_now_ns() - t0;
		if ((double)t >= target_ns / 4 || n >= (1ull << 32))
			break;
		n *= 4;
	}
	for (int i = 0; i < 5; i++) {
		uint64_t t0 = ukb_now_ns(), t;

		ukb_ref_run(w, n);
		t = ukb_now_ns() - t0;
		if (t && t < best)
			best = t;
	}
	if (best == UINT64_MAX)
		return n;
	return (uint64_t)ceil((double)n * target_ns / (double)best);
}
