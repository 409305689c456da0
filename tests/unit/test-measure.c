// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-measure.c - the sampler's rules (minimum and maximum sample counts,
 * budget, precision, interruption, errors, unavailable paths) on small
 * benchmarks declared here through the public header, and the agreement
 * between the vdso path and a plain loop calling the same symbol.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "ukbench.h"
#include "measure.h"
#include "registry.h"
#include "vdso.h"

static struct ukb_clock_info clk;

static int spin_run(struct ukb_ctx *c, uint64_t n)
{
	(void)c;
	for (uint64_t i = 0; i < n; i++)
		__asm__ __volatile__("" ::: "memory");
	return 0;
}

static int fail_run(struct ukb_ctx *c, uint64_t n)
{
	(void)c;
	(void)n;
	return -EIO;
}

static int eperm_setup(struct ukb_ctx *c, char *why, size_t len)
{
	(void)c;
	snprintf(why, len, "blocked by policy");
	return -EPERM;
}

static int enosys_setup(struct ukb_ctx *c, char *why, size_t len)
{
	(void)c;
	(void)why;
	(void)len;
	return -ENOSYS;
}

static int teardowns;

static void count_teardown(struct ukb_ctx *c)
{
	(void)c;
	teardowns++;
}

static const struct ukb_path spin_paths[] = {
	{ .name = "loop", .run = spin_run, .teardown = count_teardown },
	{ .name = "fail", .run = fail_run },
	{ .name = "eperm", .run = spin_run, .setup = eperm_setup },
	{ .name = "enosys", .run = spin_run, .setup = enosys_setup },
	{ NULL },
};

static const struct ukb_bench spin = {
	.name = "test.spin",
	.summary = "test",
	.paths = spin_paths,
};

static const struct ukb_bench fixed = {
	.name = "test.fixed",
	.summary = "test",
	.flags = UKB_FIXED_BATCH,
	.paths = spin_paths,
};

static struct ukb_measure_opts quick(void)
{
	struct ukb_measure_opts o;

	ukb_measure_opts_init(&o);
	o.budget_s = 0.05;
	o.warmup_s = 0.005;
	o.batch_ns = 1e5;
	return o;
}

static void test_registry_is_valid(void **state)
{
	char why[256] = "";
	size_t n;

	(void)state;
	if (ukb_registry_validate(why, sizeof(why)))
		fail_msg("%s", why);
	ukb_registry(&n);
	assert_true(n >= 7);
}

static void test_samples_and_stats_agree(void **state)
{
	struct ukb_measure_opts o = quick();
	struct ukb_result r;
	double sum = 0;
	size_t known = 0, within = 0;
	int all;

	(void)state;
	teardowns = 0;
	assert_int_equal(ukb_measure(&spin, NULL, &spin_paths[0], &o, &clk, &r), 0);
	assert_int_equal(r.status, UKB_OK);
	assert_int_equal(teardowns, 1);
	/* every batch kept; the figure made of those the thread ran throughout */
	assert_true(r.nsamples >= o.min_samples);
	/* (on a machine so busy that fewer than two ran undisturbed: all of them) */
	all = r.nsamples - r.ndisturbed < 2;
	assert_int_equal(r.stats.n + (all ? 0 : r.ndisturbed), r.nsamples);
	for (size_t i = 0; i < r.nsamples; i++) {
		if (all || !r.disturbed[i])
			sum += r.samples[i];
		assert_true(r.disturbed[i] <= (UKB_DIST_SWITCHED | UKB_DIST_OFFCPU));
		if (isnan(r.cpu_samples[i]) || r.disturbed[i])
			continue;
		known++;
		/* CPU time is wall time at most, plus the clock reads */
		if (r.cpu_samples[i] * (double)r.batch_iters <=
		    r.samples[i] * (double)r.batch_iters + UKB_DIST_GAP_NS + 100000)
			within++;
	}
	/*
	 * Most batches, not every one: the marks are read outside the timed
	 * region, and a host that stops the virtual CPU inside a mark's system
	 * call adds its pause to CPU time and not to wall time. Marks taken
	 * from the wrong batches would miss in most.
	 */
	assert_true(within * 4 >= known * 3);
	assert_true(fabs(r.stats.mean - sum / (double)r.stats.n) <= 1e-9 * r.stats.mean);
	/* a batch is at least as long as the target it was calibrated to */
	assert_true(r.stats.median * (double)r.batch_iters >= 0.5 * o.batch_ns);
	assert_true(r.warmup_batches >= 1);
	assert_string_equal(r.name, "test.spin");
	ukb_result_release(&r);
}

static void test_min_samples_beat_precision(void **state)
{
	struct ukb_measure_opts o = quick();
	struct ukb_result r;

	(void)state;
	o.precision = 1e9; /* met by any two samples */
	o.min_time_s = 0;
	o.min_samples = 37;
	assert_int_equal(ukb_measure(&spin, NULL, &spin_paths[0], &o, &clk, &r), 0);
	/* the minimum counts the batches the figure is made of: a busy machine adds marked ones */
	assert_int_equal(r.nsamples - r.ndisturbed, 37);
	assert_true(r.converged);
	ukb_result_release(&r);
}

/*
 * A precision target met by the first batches does not end sampling
 * before the minimum time: no lucky stretch ends a measurement.
 */
static void test_min_time_beats_precision(void **state)
{
	struct ukb_measure_opts o = quick();
	struct ukb_result r;

	(void)state;
	o.precision = 1e9;
	o.min_samples = 2;
	o.min_time_s = 0.05;
	o.budget_s = 1;
	assert_int_equal(ukb_measure(&spin, NULL, &spin_paths[0], &o, &clk, &r), 0);
	assert_true(r.measure_s >= 0.05);
	assert_true(r.measure_s < 0.5);
	assert_true(r.converged);
	ukb_result_release(&r);
}

static void test_max_samples_cap(void **state)
{
	struct ukb_measure_opts o = quick();
	struct ukb_result r;

	(void)state;
	o.precision = 1e-9; /* never met */
	o.budget_s = 10;
	o.batch_ns = 1e4;
	o.max_samples = 25;
	assert_int_equal(ukb_measure(&spin, NULL, &spin_paths[0], &o, &clk, &r), 0);
	assert_int_equal(r.nsamples, 25);
	assert_false(r.converged);
	ukb_result_release(&r);
}

static void test_budget_ends_sampling(void **state)
{
	struct ukb_measure_opts o = quick();
	struct ukb_result r;

	(void)state;
	o.precision = 1e-9;
	o.budget_s = 0.03;
	assert_int_equal(ukb_measure(&spin, NULL, &spin_paths[0], &o, &clk, &r), 0);
	assert_int_equal(r.status, UKB_OK);
	assert_false(r.converged);
	/* stops at the first sample past the budget; the upper bound leaves
	   room for a preempted sample but not for the 10x overrun cap */
	assert_true(r.measure_s >= 0.03);
	assert_true(r.measure_s < 0.25);
	ukb_result_release(&r);
}

static void test_stop_flag_interrupts(void **state)
{
	struct ukb_measure_opts o = quick();
	volatile sig_atomic_t stop = 1;
	struct ukb_result r;

	(void)state;
	o.stop = &stop;
	assert_int_equal(ukb_measure(&spin, NULL, &spin_paths[0], &o, &clk, &r), 0);
	assert_int_equal(r.status, UKB_INTERRUPTED);
	assert_int_equal(r.nsamples, 0);
	ukb_result_release(&r);
}

static void test_run_error_is_an_error(void **state)
{
	struct ukb_measure_opts o = quick();
	struct ukb_result r;

	(void)state;
	assert_int_equal(ukb_measure(&spin, NULL, &spin_paths[1], &o, &clk, &r), 0);
	assert_int_equal(r.status, UKB_ERROR);
	assert_int_equal(r.err, -EIO);
	assert_int_equal(r.nsamples, 0);
	assert_int_equal(r.stats.n, 0);
	ukb_result_release(&r);
}

static void test_setup_refusals(void **state)
{
	struct ukb_measure_opts o = quick();
	struct ukb_result r;

	(void)state;
	assert_int_equal(ukb_measure(&spin, NULL, &spin_paths[2], &o, &clk, &r), 0);
	assert_int_equal(r.status, UKB_SKIPPED);
	assert_string_equal(r.reason, "blocked: blocked by policy");
	ukb_result_release(&r);
	assert_int_equal(ukb_measure(&spin, NULL, &spin_paths[3], &o, &clk, &r), 0);
	assert_int_equal(r.status, UKB_UNSUPPORTED);
	assert_non_null(strstr(r.reason, "Function not implemented"));
	ukb_result_release(&r);
	assert_int_equal(ukb_probe(&spin, NULL, &spin_paths[3], UKB_CPU_ANY, &r), 0);
	assert_int_equal(r.status, UKB_UNSUPPORTED);
	assert_int_equal(ukb_probe(&spin, NULL, &spin_paths[0], UKB_CPU_ANY, &r), 1);
}

static void test_fixed_batch(void **state)
{
	struct ukb_measure_opts o = quick();
	struct ukb_result r;

	(void)state;
	o.precision = 1.0;
	assert_int_equal(ukb_measure(&fixed, NULL, &spin_paths[0], &o, &clk, &r), 0);
	assert_int_equal(r.batch_iters, 1);
	ukb_result_release(&r);
}

/* The registered benchmark and its path by name. */
static const struct ukb_path *find(const char *bench, const char *path, const struct ukb_bench **b)
{
	const struct ukb_path *p = ukb_registry_path(bench, path, b);

	if (!p)
		fail_msg("no %s/%s", bench, path);
	return p;
}

static void test_missing_vdso_symbol_is_unsupported(void **state)
{
	struct ukb_measure_opts o = quick();
	const struct ukb_bench *b;
	const struct ukb_path *p = find("time.clock_gettime", "vdso", &b);
	struct ukb_result r;

	(void)state;
	ukb_vdso_override("clock_gettime", NULL, UKB_VDSO_MISSING);
	assert_int_equal(ukb_measure(b, &b->variants[1], p, &o, &clk, &r), 0);
	ukb_vdso_override_clear();
	assert_int_equal(r.status, UKB_UNSUPPORTED);
	assert_non_null(strstr(r.reason, "simulated"));
	assert_string_equal(r.name, "time.clock_gettime.monotonic");
	ukb_result_release(&r);
}

static void test_every_builtin_runs(void **state)
{
	struct ukb_measure_opts o = quick();
	size_t n;
	const struct ukb_bench *const *t = ukb_registry(&n);

	(void)state;
	o.budget_s = 0.005;
	o.min_samples = 3;
	for (size_t i = 0; i < n; i++) {
		size_t nv = ukb_bench_variant_count(t[i]);
		/* a sized benchmark: its first default size, and two threads */
		struct ukb_variant sized = { .name = "sized",
					     .arg = t[i]->sizes ? t[i]->sizes[0] : 0,
					     .threads = t[i]->flags & UKB_THREADED ? 2 : 0 };

		for (size_t k = 0; k < (nv ? nv : 1); k++)
			for (const struct ukb_path *p = t[i]->paths; p->name; p++) {
				const struct ukb_variant *v = nv	    ? &t[i]->variants[k]
							      : t[i]->sizes ? &sized
									    : NULL;
				struct ukb_result r;

				assert_int_equal(ukb_measure(t[i], v, p, &o, &clk, &r), 0);
				if (r.status != UKB_OK && r.status != UKB_UNSUPPORTED)
					fail_msg("%s/%s: %s: %s", r.name, p->name,
						 ukb_status_name(r.status), r.reason);
				if (r.status == UKB_OK)
					assert_true(r.stats.mean > 0);
				else
					assert_true(r.reason[0] != 0);
				ukb_result_release(&r);
			}
	}
}

/*
 * The vdso path and a plain loop over the same symbol, in one process:
 * the harness adds nothing a hand-written loop does not have. Timings on a
 * shared machine vary, so the bound is generous: a ratio, not a figure.
 */
static void test_vdso_path_agrees_with_plain_loop(void **state)
{
	struct ukb_measure_opts o;
	const struct ukb_bench *b;
	const struct ukb_path *p = find("time.clock_gettime", "vdso", &b);
	int (*fn)(int, void *);
	struct ukb_result r;
	struct timespec t0, t1, ts;
	char why[256];
	double loop_ns, ratio;
	const long calls = 2000000;

	(void)state;
	fn = (int (*)(int, void *))ukb_vdso_func("clock_gettime", why, sizeof(why));
	if (!fn)
		skip();
	ukb_measure_opts_init(&o);
	o.budget_s = 0.3;
	assert_int_equal(ukb_measure(b, &b->variants[1], p, &o, &clk, &r), 0);
	assert_int_equal(r.status, UKB_OK);

	/*
	 * The loop's CPU time, not its wall time: on a busy machine the wall
	 * time of a plain loop holds the time the thread was not running,
	 * which the harness leaves out; CPU time does not hold it either.
	 */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	for (long i = 0; i < calls; i++)
		fn(CLOCK_MONOTONIC, &ts);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	loop_ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
		  (double)calls;
	ratio = r.stats.mean / loop_ns;
	print_message("# vdso clock_gettime: harness %.2f ns, plain loop %.2f ns of CPU time, "
		      "ratio %.3f\n",
		      r.stats.mean, loop_ns, ratio);
	assert_true(ratio > 0.5 && ratio < 2.0);
	ukb_result_release(&r);
}

static int setup_clock(void **state)
{
	(void)state;
	return ukb_clock_probe(&clk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_is_valid),
		cmocka_unit_test(test_samples_and_stats_agree),
		cmocka_unit_test(test_min_samples_beat_precision),
		cmocka_unit_test(test_min_time_beats_precision),
		cmocka_unit_test(test_max_samples_cap),
		cmocka_unit_test(test_budget_ends_sampling),
		cmocka_unit_test(test_stop_flag_interrupts),
		cmocka_unit_test(test_run_error_is_an_error),
		cmocka_unit_test(test_setup_refusals),
		cmocka_unit_test(test_fixed_batch),
		cmocka_unit_test(test_missing_vdso_symbol_is_unsupported),
		cmocka_unit_test(test_every_builtin_runs),
		cmocka_unit_test(test_vdso_path_agrees_with_plain_loop),
	};

	return cmocka_run_group_tests_name("measure", tests, setup_clock, NULL);
}
