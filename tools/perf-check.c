// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf-check.c - does the harness report what a hand-written loop measures?
 *
 * Prints, for this machine, in one run:
 *  1. harness.empty: the harness's own cost per iteration (target: well
 *     under 1 ns);
 *  2. vDSO gettimeofday, libc gettimeofday and the null system call: the
 *     harness's mean per call against a plain loop of 10,000,000 calls timed
 *     outside the loop (the loop of tb.c), measured alternately, five
 *     rounds each; the median ratio (target: within 2%);
 *  3. vDSO clock_gettime(CLOCK_MONOTONIC): the CI95 reached in about one
 *     second of measuring (target: within +-1%).
 * It exits 1 when a target is missed, so it can gate a release, but it is
 * a measurement, not a unit test: run it on a quiet machine.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "ukbench.h"
#include "clock.h"
#include "measure.h"
#include "registry.h"
#include "vdso.h"

#define LOOP_CALLS 10000000L
#define ROUNDS	   5

static struct ukb_clock_info clk;
static int (*vdso_gtod)(void *, void *);

static const struct ukb_path *find(const char *bench, const char *path, const struct ukb_bench **b)
{
	const struct ukb_path *p = ukb_registry_path(bench, path, b);

	if (!p) {
		fprintf(stderr, "perf-check: no %s/%s\n", bench, path);
		exit(2);
	}
	return p;
}

/* The plain loops, as a developer writes them. */
static double loop_vdso_gtod(void)
{
	struct timeval tv;
	uint64_t t0 = ukb_now_ns();

	for (long i = 0; i < LOOP_CALLS; i++)
		vdso_gtod(&tv, NULL);
	return (double)(ukb_now_ns() - t0) / LOOP_CALLS;
}

static double loop_libc_gtod(void)
{
	struct timeval tv;
	uint64_t t0 = ukb_now_ns();

	for (long i = 0; i < LOOP_CALLS; i++)
		gettimeofday(&tv, NULL);
	return (double)(ukb_now_ns() - t0) / LOOP_CALLS;
}

static double loop_null_syscall(void)
{
	uint64_t t0 = ukb_now_ns();

	for (long i = 0; i < LOOP_CALLS; i++)
		syscall(SYS_getppid);
	return (double)(ukb_now_ns() - t0) / LOOP_CALLS;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double harness_mean(const char *bench, const char *path, double budget, double *ci)
{
	struct ukb_measure_opts o;
	const struct ukb_bench *b;
	const struct ukb_path *p = find(bench, path, &b);
	struct ukb_result r;
	double mean;

	ukb_measure_opts_init(&o);
	o.budget_s = budget;
	if (ukb_measure(b, NULL, p, &o, &clk, &r) || r.status != UKB_OK) {
		fprintf(stderr, "perf-check: %s/%s: %s\n", bench, path, r.reason);
		exit(2);
	}
	mean = r.stats.mean;
	if (ci)
		*ci = r.stats.ci95_rel;
	ukb_result_release(&r);
	return mean;
}

/* Alternates the harness and the plain loop; returns the median ratio. */
static double compare(const char *label, const char *bench, const char *path, double (*loop)(void))
{
	double ratio[ROUNDS];

	printf("%-22s round   harness ns   loop ns    ratio\n", label);
	for (int i = 0; i < ROUNDS; i++) {
		double h = harness_mean(bench, path, 1.0, NULL), l = loop();

		ratio[i] = h / l;
		printf("%-22s %5d %12.3f %9.3f %8.4f\n", "", i + 1, h, l, ratio[i]);
	}
	qsort(ratio, ROUNDS, sizeof(ratio[0]), cmp_double);
	printf("%-22s median ratio %.4f (%+.2f%%)\n\n", "", ratio[ROUNDS / 2],
	       100 * (ratio[ROUNDS / 2] - 1));
	return ratio[ROUNDS / 2];
}

int main(void)
{
	char why[256];
	double empty, dev = 0;
	struct ukb_measure_opts o;
	const struct ukb_bench *b;
	const struct ukb_path *p;
	struct ukb_result res;
	int ok = 1;

	if (ukb_clock_probe(&clk))
		return 2;
	vdso_gtod = (int (*)(void *, void *))ukb_vdso_func("gettimeofday", why, sizeof(why));

	empty = harness_mean("harness.empty", "loop", 1.0, NULL);
	printf("harness.empty          %.3f ns per iteration (target < 1 ns)\n\n", empty);
	ok &= empty < 1;

	/* the largest deviation of a median ratio from 1 */
	if (vdso_gtod)
		dev = fabs(
		    compare("vdso gettimeofday", "time.gettimeofday", "vdso", loop_vdso_gtod) - 1);
	else
		printf("vdso gettimeofday      n/a: %s\n\n", why);
	dev = fmax(
	    dev,
	    fabs(compare("libc gettimeofday", "time.gettimeofday", "libc", loop_libc_gtod) - 1));
	dev = fmax(dev,
		   fabs(compare("syscall.null", "syscall.null", "syscall", loop_null_syscall) - 1));
	printf("largest deviation of a median ratio: %.2f%% (target < 2%%)\n\n", 100 * dev);
	ok &= dev < 0.02;

	p = find("time.clock_gettime", "vdso", &b);
	ukb_measure_opts_init(&o);
	o.budget_s = 1.0;
	if (!ukb_measure(b, &b->variants[1], p, &o, &clk, &res) && res.status == UKB_OK) {
		printf("vdso clock_gettime(MONOTONIC): %.3f ns, CI95 +-%.3f%% after %.2f s, %zu "
		       "samples (target +-1%% in ~1 s)\n",
		       res.stats.mean, 100 * res.stats.ci95_rel, res.measure_s, res.nsamples);
		ok &= res.stats.ci95_rel <= 0.01;
		ukb_result_release(&res);
	} else {
		printf("vdso clock_gettime: n/a: %s\n", res.reason);
	}
	printf("\n%s\n", ok ? "all targets met" : "a target was missed");
	return ok ? 0 : 1;
}
