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

/* 4 KiB: in the first-level data cache of every CPU ukbench runs on */
static volatile uint32_t table[1024];

/*
 * An instruction that waits for the work before it to complete: the paths
 * measured cross such points (the vDSO's ordered clock reads, the kernel's
 * entry and exit), and a reference that crosses them too moves with the
 * machine as they do. Measured on a shared 2-vCPU x86 guest, over 50 fresh
 * processes each: with lfence in the loop, the reference left 0.75-1.9% of
 * the spread of vDSO clock_gettime and of a system call unexplained (of
 * 2.5-10%), without it 1.8-4.2%.
 */
static inline void ref_barrier(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("lfence" ::: "memory");
#elif defined(__aarch64__)
	__asm__ volatile("isb" ::: "memory");
#elif defined(__powerpc__) || defined(__powerpc64__)
	__asm__ volatile("isync" ::: "memory");
#elif defined(__riscv)
	__asm__ volatile("fence" ::: "memory");
#elif defined(__s390x__) || defined(__s390__)
	__asm__ volatile("bcr 15,0" ::: "memory");
#else
	__asm__ volatile("" ::: "memory");
#endif
}

void ukb_ref_run(uint64_t iters)
{
	uint32_t x = 1, s = 0;

	for (uint64_t i = 0; i < iters; i++) {
		x = x * 1103515245u + 12345u;
		ref_barrier();
		s += table[(x >> 8) & 1023];
	}
	table[0] = s;
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
