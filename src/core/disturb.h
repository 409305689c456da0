/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * disturb.h - did the measuring thread run throughout a batch?
 *
 * A wall-clock batch on a busy machine includes the time its thread was not
 * running: preempted by another task, or its virtual CPU stolen by the
 * hypervisor. Under 2x oversubscription that is more than half of every
 * plain loop's time, and no per-call figure survives it. Most 1 ms batches
 * still run undisturbed, so the sampler reads, around each batch and
 * outside the timed region, what says whether this one did:
 *
 *  - the thread's context switches (getrusage(RUSAGE_THREAD)): any switch,
 *    voluntary or not, means the thread stopped running inside the batch;
 *  - the thread's CPU time (CLOCK_THREAD_CPUTIME_ID): the scheduler's own
 *    account of the time it ran, which leaves out time spent waiting on a
 *    run queue and, where the kernel accounts steal time
 *    (CONFIG_PARAVIRT_TIME_ACCOUNTING), time the hypervisor took the CPU
 *    away. Wall time beyond CPU time is time the thread did not run.
 *
 * Threaded benchmarks (UKB_THREADED) are judged by the involuntary switches
 * of every thread of the process; their CPU time is the sum over threads
 * and says nothing about one batch's wall time.
 *
 * The sampler keeps every batch with its mark; the statistics leave the
 * disturbed ones out (record.h says when), and the thread's CPU time per
 * call is reported beside the wall time.
 */
#ifndef UKB_CORE_DISTURB_H
#define UKB_CORE_DISTURB_H

#include <stdint.h>

/* Why a batch is counted as disturbed; 0: the thread ran throughout. */
enum ukb_disturbance {
	UKB_DIST_SWITCHED = 1 << 0, /* the thread was switched out */
	UKB_DIST_OFFCPU = 1 << 1,   /* wall time exceeded CPU time: not running */
};

/*
 * Wall time beyond CPU time that marks a batch: the larger of these. The
 * absolute part is well above the cost of the clock reads around a batch
 * (which make CPU time exceed wall time, not the reverse); the relative
 * part bounds what an unmarked gap can add to a batch to 0.5%.
 */
#define UKB_DIST_GAP_NS	 5000.0
#define UKB_DIST_GAP_REL 0.005

/* How batches are judged in this process, from ukb_disturb_probe(). */
struct ukb_disturb {
	int threaded; /* judge the whole process (UKB_THREADED benchmarks) */
	int have_cpu; /* the thread CPU clock is readable and fine-grained */
	int have_rusage;
	double cpu_step_ns; /* the CPU clock's smallest step seen; 0: unknown */
};

/*
 * Is a thread CPU clock whose smallest step seen over a few changes was
 * @step_ns fine enough to judge a batch by, @still of the reads between
 * them having returned the time before? A clock that stands still between
 * reads advances in steps of its own (scheduler ticks, milliseconds); one
 * that advances at every read is finer than a read takes.
 */
int ukb_cpu_clock_fine(double step_ns, unsigned still);

/* What is read before and after a batch. */
struct ukb_mark {
	uint64_t cpu_ns; /* thread (or process) CPU time; 0 when not read */
	long switches;	 /* context switches counted for the batch's judge */
};

/*
 * Probes what this process can read: the thread CPU clock (and whether it
 * advances in steps fine enough to judge a 1 ms batch: some architectures
 * account CPU time in ticks) and getrusage(RUSAGE_THREAD). Never fails: a
 * signal that cannot be read is left out, and the marks say less.
 */
void ukb_disturb_probe(struct ukb_disturb *d, int threaded);

/* Reads a mark (two system calls at most). */
void ukb_mark_read(const struct ukb_disturb *d, struct ukb_mark *m);

/*
 * Judges a batch of @wall_ns between marks @a and @b: a mask of enum
 * ukb_disturbance. *@cpu_ns gets the CPU time between the marks, or -1
 * when it is not known.
 */
unsigned ukb_disturbed(const struct ukb_disturb *d, const struct ukb_mark *a,
		       const struct ukb_mark *b, uint64_t wall_ns, double *cpu_ns);

#endif
