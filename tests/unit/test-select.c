// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-select.c - selection and the plan codec: a selection owns its
 * variants (thousands of selections in one process, each released), -P
 * and sizes are checked, and a plan read back from its argument vector
 * makes exactly the cases it was written from.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plan.h"
#include "select.h"

static void test_many_selections(void **state)
{
	char *pats[] = { "random.getrandom", "copy.read_zero" };
	long sizes[] = { 1, 4, 16, 64, 256, 1024, 4096, 0 };
	struct select_opts so = { .sizes = sizes, .threads = 4 };

	(void)state;
	/* a static pool would run out long before this */
	for (int i = 0; i < 1500; i++) {
		struct ukb_selection sel;
		struct ukb_err e;

		assert_int_equal(ukb_select(&sel, 2, pats, 0, &so, 0, &e), 0);
		assert_true(sel.n >= 7 * 3);
		assert_string_equal(sel.cases[0].name, "random.getrandom.1");
		assert_int_equal(sel.cases[0].variant->arg, 1);
		ukb_selection_release(&sel);
		assert_null(sel.cases);
	}
}

static void test_errors_and_hints(void **state)
{
	char *typo[] = { "time.clock_gettim" }, *nopath[] = { "time.time/nosuch" };
	char *hb[] = { "sched.messaging" }, *tt[] = { "time.time" };
	struct select_opts bad_p = { .params = "groups=abc" }, other_p = { .params = "groups=2" };
	struct ukb_selection sel;
	struct ukb_err e;

	(void)state;
	assert_int_equal(ukb_select(&sel, 1, typo, 0, NULL, 1, &e), -1);
	assert_non_null(strstr(e.msg, "no benchmark matches"));
	assert_non_null(strstr(e.hint, "time.clock_gettime"));
	ukb_selection_release(&sel);
	assert_int_equal(ukb_select(&sel, 1, nopath, 0, NULL, 1, &e), -1);
	assert_non_null(strstr(e.msg, "no path matches"));
	ukb_selection_release(&sel);
	assert_int_equal(ukb_select(&sel, 1, hb, 0, &bad_p, 1, &e), -1);
	assert_non_null(strstr(e.msg, "expects a whole number"));
	ukb_selection_release(&sel);
	/* a parameter no selected benchmark has: refused when validating only */
	assert_int_equal(ukb_select(&sel, 1, tt, 0, &other_p, 1, &e), -1);
	assert_non_null(strstr(e.msg, "parameter 'groups'"));
	ukb_selection_release(&sel);
	assert_int_equal(ukb_select(&sel, 1, tt, 0, &other_p, 0, &e), 0);
	ukb_selection_release(&sel);
}

static void test_params_resolved_per_case(void **state)
{
	char *hb[] = { "sched.messaging.pipe_process" };
	struct select_opts so = { .params = "groups=3,loops=7" };
	struct ukb_selection sel;
	struct ukb_err e;
	char desc[160];

	(void)state;
	assert_int_equal(ukb_select(&sel, 1, hb, 0, &so, 0, &e), 0);
	assert_int_equal(sel.n, 1);
	params_describe(sel.cases[0].bench, sel.cases[0].params, desc, sizeof(desc));
	assert_non_null(strstr(desc, "groups=3"));
	assert_non_null(strstr(desc, "loops=7"));
	ukb_selection_release(&sel);
}

static void test_plan_round_trip(void **state)
{
	static const char *const prefix[] = { "ukbench", "worker" };
	char *pats[] = { "random.getrandom", "time.time/vdso" };
	long sizes[] = { 4, 4096, 0 };
	struct run_plan p = { 0 }, q;
	struct ukb_selection sel;
	struct ukb_err e;
	const char **specs;
	size_t nspecs;
	long *qsizes;
	char **argv, err[256];
	int argc = 0;

	(void)state;
	ukb_measure_opts_init(&p.m);
	p.m.precision = 0.005;
	p.m.budget_s = 0.123456789;
	p.m.cpu = 1;
	p.sel.sizes = sizes;
	p.sel.flags = "0,nonblock";
	p.sel.threads = 3;
	assert_int_equal(ukb_select(&sel, 2, pats, 0, &p.sel, 1, &e), 0);
	p.cases = sel.cases;
	p.ncases = sel.n;
	argv = plan_argv(&p, prefix, 2);
	assert_non_null(argv);
	assert_string_equal(argv[1], "worker");
	while (argv[argc])
		argc++;
	assert_int_equal(
	    plan_parse(argc - 2, argv + 2, &q, &specs, &nspecs, &qsizes, err, sizeof(err)), 0);
	assert_true(q.m.precision == p.m.precision && q.m.budget_s == p.m.budget_s);
	assert_int_equal(q.m.cpu, 1);
	assert_int_equal(q.sel.threads, 3);
	assert_string_equal(q.sel.flags, "0,nonblock");
	assert_int_equal(qsizes[0], 4);
	assert_int_equal(qsizes[1], 4096);
	assert_int_equal(qsizes[2], 0);
	assert_int_equal(nspecs, sel.n);
	for (size_t i = 0; i < nspecs; i++) {
		char want[200];

		snprintf(want, sizeof(want), "%s/%s", sel.cases[i].name, sel.cases[i].path->name);
		assert_string_equal(specs[i], want);
	}
	free(specs);
	free(qsizes);
	plan_argv_free(argv);
	ukb_selection_release(&sel);
}

static void test_plan_refuses_bad_numbers(void **state)
{
	static char *bad[][1] = { { "budget=0x10" },   { "budget= 1" },	     { "budget=1s" },
				  { "precision=nan" }, { "min_samples=-1" }, { "cpu=1e3" },
				  { "bogus=1" },       { "case=nopath" } };
	struct run_plan q;
	const char **specs;
	size_t nspecs;
	long *sizes;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!plan_parse(1, bad[i], &q, &specs, &nspecs, &sizes, err, sizeof(err)))
			fail_msg("plan item '%s' was accepted", bad[i][0]);
		free(specs);
		free(sizes);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_selections),
		cmocka_unit_test(test_errors_and_hints),
		cmocka_unit_test(test_params_resolved_per_case),
		cmocka_unit_test(test_plan_round_trip),
		cmocka_unit_test(test_plan_refuses_bad_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
