/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reference.h - a fixed piece of user-space work timed beside every batch,
 * to say how fast the machine itself ran at that moment.
 *
 * On a shared machine the speed of the same code moves by 10% and more
 * over seconds: the other hardware thread of the core is busy or idle,
 * the frequency steps. Every path measured moves with it, so two runs made
 * a minute apart differ by more than most patches change, and no number of
 * batches or processes inside one run can see it. The reference is a short
 * loop of calls and returns (reference.c says why, and what it was
 * measured to explain), timed right after each batch of the path, outside
 * the path's timed region. It touches no system call and no
 * kernel code, so a kernel change leaves it alone; and it slows and speeds
 * with the machine as the paths do (reference.c has the figures). compare
 * uses it to take the machine's own drift out of a change (comparison.h),
 * learning from repeated runs how much each path moves with it, and says so.
 */
#ifndef UKB_CORE_REFERENCE_H
#define UKB_CORE_REFERENCE_H

#include <stdint.h>

/*
 * The three works (reference.c says why): a chain of calls and returns,
 * for every path but those below; for the paths that make a system call,
 * the same chain followed by a short loop of dependent additions; for
 * those that call the vDSO, the chain with an instruction barrier and a
 * table load in each leaf.
 */
enum ukb_ref_work {
	UKB_REF_CALLS,
	UKB_REF_CALLS_BARRIER,
	UKB_REF_CALLS_LOOP,
	UKB_REF_NWORKS,
};

/*
 * What the reference work is, recorded with every run: two runs whose
 * references did other work are compared as measured, and a path's slope
 * is learned only from runs of one kind. Runs that record none timed the
 * previous work (UKB_REF_KIND_BEFORE).
 */
#define UKB_REF_KIND	    "calls3,syscall:calls3-loop40,vdso:calls3-barrier"
#define UKB_REF_KIND_BEFORE "barrier"

/*
 * What a run records: UKB_REF_KIND and a digest of the work's machine code
 * as this binary holds it (its displacements to the data it loads among
 * it), with where each function lies in its 64-byte line
 * ("calls3,syscall:calls3-loop40,vdso:calls3-barrier@1a2b3c4d"): two
 * builds whose reference code or its placement differ time different
 * work, and are compared as measured.
 */
const char *ukb_ref_kind(void);

/* Length of a reference batch: a quarter of a 1 ms path batch. */
#define UKB_REF_BATCH_NS 250000.0

/*
 * An instruction that waits for the work before it to complete: the
 * barrier in the leaves of UKB_REF_CALLS_BARRIER (and in the previous
 * reference, which tests/validation/ref-drift.c times beside the two).
 */
static inline void ukb_ref_barrier(void)
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

/* Runs @iters iterations of the reference work @w. */
void ukb_ref_run(enum ukb_ref_work w, uint64_t iters);

/* Iterations of the reference work @w that last about @target_ns here. */
uint64_t ukb_ref_calibrate(enum ukb_ref_work w, double target_ns);

#endif
