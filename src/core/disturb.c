// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * disturb.c - marks around a batch, and the judgement whether the thread
 * ran throughout it (see disturb.h).
 *
 * The marks cost two or four system calls per batch (a few hundred
 * nanoseconds to a few microseconds against a batch of 1 ms or more),
 * all outside the timed region: they move the per-call figure by
 * nothing, only how many batches fit in the budget.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <sys/resource.h>
#include <time.h>

#include "disturb.h"

static int cpu_clock(const struct ukb_disturb *d, uint64_t *ns)
{
	struct timespec ts;

	if (clock_gettime(d->threaded ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID, &ts))
		return -1;
	*ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return 0;
}

static int switches(const struct ukb_disturb *d, long *n)
{
	struct rusage ru;

	if (getrusage(d->threaded ? RUSAGE_SELF : RUSAGE_THREAD, &ru))
		return -1;
	/*
	 * One thread: every switch, voluntary or not, stops it. Threads that
	 * wait for each other switch voluntarily by design: there only a
	 * preemption counts.
	 */
	*n = ru.ru_nivcsw + (d->threaded ? 0 : ru.ru_nvcsw);
	return 0;
}

void ukb_disturb_probe(struct ukb_disturb *d, int threaded)
{
	uint64_t first, now, step = 0;
	unsigned still = 0;
	long n;

	d->threaded = threaded;
	d->have_rusage = !switches(d, &n);
	d->have_cpu = 0;
	d->cpu_step_ns = 0;
	if (threaded || cpu_clock(d, &first))
		return;
	/*
	 * The smallest step of the CPU clock over a few changes: where CPU
	 * time is accounted in scheduler ticks it advances by milliseconds
	 * at a time, and the gap between wall and CPU time of one batch
	 * would be that step's noise. Spinning here costs at most ~20 us on
	 * a fine-grained clock.
	 */
	for (int changes = 0, spins = 0; changes < 8 && spins < 1000000; spins++) {
		if (cpu_clock(d, &now))
			return;
		if (now != first) {
			if (!step || now - first < step)
				step = now - first;
			first = now;
			changes++;
		} else {
			still++;
		}
	}
	d->cpu_step_ns = (double)step;
	d->have_cpu = ukb_cpu_clock_fine((double)step, still);
}

int ukb_cpu_clock_fine(double step_ns, unsigned still)
{
	if (!(step_ns > 0))
		return 0;
	/*
	 * Advancing at every read, the clock is finer than a read takes, and
	 * the step seen is that read's cost: under PVM, where reading the
	 * thread's CPU clock is a system call, 1.4 us a read on an AMD EPYC
	 * guest, whose clock counts nanoseconds.
	 */
	if (!still)
		return step_ns < UKB_DIST_GAP_NS;
	/* else fine enough when one step is well below the gap that marks a batch */
	return step_ns < UKB_DIST_GAP_NS / 5;
}

void ukb_mark_read(const struct ukb_disturb *d, struct ukb_mark *m)
{
	m->cpu_ns = 0;
	m->switches = 0;
	if (d->have_rusage && switches(d, &m->switches))
		m->switches = 0;
	if ((d->have_cpu || d->threaded) && cpu_clock(d, &m->cpu_ns))
		m->cpu_ns = 0;
}

unsigned ukb_disturbed(const struct ukb_disturb *d, const struct ukb_mark *a,
		       const struct ukb_mark *b, uint64_t wall_ns, double *cpu_ns)
{
	unsigned why = 0;
	double gap, limit;

	*cpu_ns = -1;
	if (d->have_rusage && b->switches != a->switches)
		why |= UKB_DIST_SWITCHED;
	if (a->cpu_ns && b->cpu_ns >= a->cpu_ns)
		*cpu_ns = (double)(b->cpu_ns - a->cpu_ns);
	if (d->have_cpu && *cpu_ns >= 0) {
		gap = (double)wall_ns - *cpu_ns;
		limit = UKB_DIST_GAP_REL * (double)wall_ns;
		if (limit < UKB_DIST_GAP_NS)
			limit = UKB_DIST_GAP_NS;
		if (gap > limit)
			why |= UKB_DIST_OFFCPU;
	}
	return why;
}
