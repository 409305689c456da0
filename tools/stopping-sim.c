// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stopping-sim.c - what the stopping rule and the unit of replication do
 * to a figure, by simulation: `make stopping-sim` prints the bias of the
 * mean and the coverage of its 95% CI for
 *
 *   old  one process, batches checked from the 10th on, stop at the first
 *        whose CI is within 1% (or 1000 batches);
 *   time one process, a fixed 200 batches (0.2 s of 1 ms batches), CI over
 *        the batches;
 *   proc five processes of 30 batches each (0.15 s), CI over the five
 *        process means (t with 4 degrees of freedom): what `run` does.
 *
 * A batch costs 1 (plus 0.5% noise); with probability q it was preempted
 * and costs 1.5 to 4 times as much. Each process has its own offset,
 * N(0, sd_between), as layout and placement give a real one. The truth is
 * the expected cost of a batch over processes. Coverage is the share of
 * runs whose CI holds the truth.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

static uint64_t rng = 88172645463325252ull;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static double gauss(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2 * log(u + 1e-300)) * cos(2 * M_PI * v);
}

/* One batch of a process whose offset is @off. */
static double batch(double q, double off)
{
	double x = (1 + off) * (1 + 0.005 * gauss());

	if (uniform() < q)
		x *= 1.5 + 2.5 * uniform();
	return x;
}

struct tally {
	double sum_est, hits;
	int n;
};

static void add(struct tally *t, double est, double lo, double hi, double truth)
{
	t->sum_est += est;
	t->hits += lo <= truth && truth <= hi;
	t->n++;
}

static void one_process(double q, double off, int fixed, double *mean, double *ci)
{
	struct ukb_running run = { 0 };
	double x[1000];
	struct ukb_stats st;
	int n = 0;

	for (; n < 1000; n++) {
		x[n] = batch(q, off);
		ukb_running_add(&run, x[n]);
		if (fixed ? n + 1 >= fixed : n + 1 >= 10 && ukb_running_ci95_rel(&run) <= 0.01)
			break;
	}
	ukb_stats_compute(x, (size_t)(n < 1000 ? n + 1 : n), &st);
	*mean = st.mean;
	*ci = st.ci95;
}

int main(void)
{
	static const double qs[] = { 0.0, 0.02, 0.05 }, sds[] = { 0.0, 0.01, 0.03 };
	const int runs = 4000;

	printf("%5s %6s  %-26s %-26s %-26s\n", "q", "sd_b", "old: bias, coverage",
	       "fixed time: bias, coverage", "5 processes: bias, coverage");
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		for (size_t j = 0; j < sizeof(sds) / sizeof(sds[0]); j++) {
			double q = qs[i], sd = sds[j];
			/* E[batch] = 1 + q * (E[factor] - 1), factor uniform on [1.5, 4] */
			double truth = 1 + q * 1.75;
			struct tally old = { 0 }, fixed = { 0 }, procs = { 0 };

			for (int r = 0; r < runs; r++) {
				double m, c, pm[5];
				struct ukb_stats st;

				one_process(q, sd * gauss(), 0, &m, &c);
				add(&old, m, m - c, m + c, truth);
				one_process(q, sd * gauss(), 200, &m, &c);
				add(&fixed, m, m - c, m + c, truth);
				for (int k = 0; k < 5; k++)
					one_process(q, sd * gauss(), 30, &pm[k], &c);
				ukb_stats_compute(pm, 5, &st);
				add(&procs, st.mean, st.mean - st.ci95, st.mean + st.ci95, truth);
			}
			printf(
			    "%5.2f %6.3f  %+7.2f%%, %5.1f%%           %+7.2f%%, %5.1f%%           "
			    "%+7.2f%%, %5.1f%%\n",
			    q, sd, 100 * (old.sum_est / old.n / truth - 1), 100 * old.hits / old.n,
			    100 * (fixed.sum_est / fixed.n / truth - 1), 100 * fixed.hits / fixed.n,
			    100 * (procs.sum_est / procs.n / truth - 1),
			    100 * procs.hits / procs.n);
		}
	return 0;
}
