// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stopping-sim.c - what leaving disturbed batches out, and the rule that
 * ends a run, do to a figure, by simulation. `make stopping-sim` prints,
 * for each machine below, the bias of the mean against the truth and the
 * coverage of its 95% CI:
 *
 *   loop  every batch's wall time, as a plain loop counts it;
 *   kept  the batches the thread ran throughout (what run's figure is);
 *   old   one process, stopped at the first batch from the 10th on whose
 *         CI is within 1% (the rule ukbench once had): a lucky stretch;
 *   run   processes of 30 batches, added until the CI of their log means is
 *         within 1% after 6 (a rule on their spread alone), or 40: what
 *         run does; with the mean count of processes it took.
 *
 * The machine: a batch of a process costs (1 + offset) (the process's own,
 * N(0, sd_b)) times noise: 0.5% normal, and one batch in twenty 10-30%
 * slower (a cache or TLB miss storm: part of the cost, kept). The thread is
 * taken off the CPU at random moments, lam times per batch length on
 * average, each time for 0.5 to 5 batch lengths: a batch so hit is marked
 * and its wall time holds the wait. A longer batch is hit more often, which
 * is the bias leaving marked batches out could have; the truth is the mean
 * cost of a batch when the thread runs, over processes.
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

/* The cost of a batch while running, and its wall time with a mark. */
static double batch(double off, double lam, double *wall, int *marked)
{
	double x = (1 + off) * (1 + 0.005 * gauss());

	if (uniform() < 0.05)
		x *= 1.1 + 0.2 * uniform();
	*wall = x;
	/* off the CPU with probability 1 - exp(-lam x): longer batches more */
	*marked = uniform() < 1 - exp(-lam * x);
	if (*marked)
		*wall += 0.5 + 4.5 * uniform();
	return x;
}

struct tally {
	double sum_est, hits, procs;
	int n;
};

static void add(struct tally *t, double est, double lo, double hi, double truth)
{
	t->sum_est += est;
	t->hits += lo <= truth && truth <= hi;
	t->n++;
}

/* One process of @nb batches: mean of every wall time, and of the unmarked. */
static void one_process(double off, double lam, int nb, double *loop, double *kept, double *kept_ci)
{
	double x[1000], sum = 0, w;
	struct ukb_stats st;
	int k = 0, m;

	for (int i = 0; i < nb; i++) {
		batch(off, lam, &w, &m);
		sum += w;
		if (!m)
			x[k++] = w;
	}
	*loop = sum / nb;
	if (k < 2) {
		*kept = *loop;
		*kept_ci = INFINITY;
		return;
	}
	ukb_stats_compute(x, (size_t)k, &st);
	*kept = st.mean;
	*kept_ci = st.ci95;
}

/* The old rule: one process, stopped at a lucky stretch. */
static void old_rule(double off, double lam, double *mean, double *ci)
{
	struct ukb_running run = { 0 };
	double x[1000], w;
	struct ukb_stats st;
	int n = 0, m;

	for (int i = 0; i < 1000; i++) {
		batch(off, lam, &w, &m);
		x[n++] = w;
		ukb_running_add(&run, w);
		if (n >= 10 && ukb_running_ci95_rel(&run) <= 0.01)
			break;
	}
	ukb_stats_compute(x, (size_t)n, &st);
	*mean = st.mean;
	*ci = st.ci95;
}

/* What run does: processes until the spread of their log means is within 1%. */
static void run_rule(double sd, double lam, double *mean, double *ci, int *procs)
{
	double lm[40], pm[40], loop, c;
	struct ukb_stats st;
	int n = 0;

	while (n < 40) {
		one_process(sd * gauss(), lam, 30, &loop, &pm[n], &c);
		lm[n] = log(pm[n]);
		n++;
		if (n >= 6) {
			ukb_stats_compute(lm, (size_t)n, &st);
			if (ukb_t_quantile(0.975, n - 1) * st.stddev / sqrt(n) <= 0.01)
				break;
		}
	}
	ukb_stats_compute(pm, (size_t)n, &st);
	*mean = st.mean;
	*ci = st.ci95;
	*procs = n;
}

int main(void)
{
	static const double lams[] = { 0.0, 0.1, 0.4 }, sds[] = { 0.0, 0.01, 0.03 };
	const int runs = 3000;

	printf("%5s %6s  %-10s %-17s %-17s %-24s\n", "lam", "sd_b", "loop: bias", "kept: bias, cov",
	       "old: bias, cov", "run: bias, cov, processes");
	for (size_t i = 0; i < sizeof(lams) / sizeof(lams[0]); i++)
		for (size_t j = 0; j < sizeof(sds) / sizeof(sds[0]); j++) {
			double lam = lams[i], sd = sds[j];
			/* E[cost] while running: noise mean 1, the slow twentieth 1.2 */
			double truth = 0.95 + 0.05 * 1.2;
			struct tally loop = { 0 }, kept = { 0 }, old = { 0 }, run = { 0 };

			for (int r = 0; r < runs; r++) {
				double l, k, c;
				int p;

				/* one long process: the loop's and the kept batches' means */
				one_process(sd * gauss(), lam, 600, &l, &k, &c);
				add(&loop, l, l, l, truth);
				add(&kept, k, k - c, k + c, truth);
				old_rule(sd * gauss(), lam, &l, &c);
				add(&old, l, l - c, l + c, truth);
				run_rule(sd, lam, &k, &c, &p);
				add(&run, k, k - c, k + c, truth);
				run.procs += p;
			}
			printf("%5.2f %6.3f  %+7.2f%%   %+6.2f%%, %5.1f%%  %+6.2f%%, %5.1f%%  "
			       "%+6.2f%%, %5.1f%%, %4.1f\n",
			       lam, sd, 100 * (loop.sum_est / loop.n / truth - 1),
			       100 * (kept.sum_est / kept.n / truth - 1), 100 * kept.hits / kept.n,
			       100 * (old.sum_est / old.n / truth - 1), 100 * old.hits / old.n,
			       100 * (run.sum_est / run.n / truth - 1), 100 * run.hits / run.n,
			       run.procs / run.n);
		}
	return 0;
}
