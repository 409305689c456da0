// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-counters.c - perf counters: event names, the multiplexing
 * arithmetic, and software counters that must see what the test does
 * (K children waited for: at least K context switches; P new pages
 * touched: at least P page faults). Hardware counters are checked for an
 * honest answer: counted, or not supported / not permitted with a reason.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "counters.h"

static void test_event_names(void **state)
{
	struct ukb_event ev[UKB_MAX_COUNTERS];
	char why[128], known[1024];

	(void)state;
	assert_int_equal(
	    ukb_events_parse("cycles,cs,r01c2,task-clock", ev, UKB_MAX_COUNTERS, why, sizeof(why)),
	    4);
	assert_int_equal(ev[0].type, PERF_TYPE_HARDWARE);
	assert_int_equal(ev[0].config, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(ev[1].type, PERF_TYPE_SOFTWARE);
	assert_int_equal(ev[1].config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	assert_int_equal(ev[2].type, PERF_TYPE_RAW);
	assert_int_equal(ev[2].config, 0x1c2);
	assert_string_equal(ev[3].name, "task-clock");
	assert_int_equal(ukb_events_parse("cycles,bogus", ev, UKB_MAX_COUNTERS, why, sizeof(why)),
			 -ENOENT);
	assert_non_null(strstr(why, "bogus"));
	assert_int_equal(ukb_events_parse("rxyz", ev, UKB_MAX_COUNTERS, why, sizeof(why)), -ENOENT);
	ukb_events_known(known, sizeof(known));
	assert_non_null(strstr(known, "branch-misses"));
	assert_int_equal(ukb_events_default(ev, UKB_MAX_COUNTERS), 9);
}

static void test_modifiers_and_the_resolved_spelling(void **state)
{
	struct ukb_event ev[UKB_MAX_COUNTERS], back;
	char why[128], spec[96];

	(void)state;
	assert_int_equal(ukb_events_parse("cycles:u,instructions:k,branches:uk,cs", ev,
					  UKB_MAX_COUNTERS, why, sizeof(why)),
			 4);
	assert_string_equal(ev[0].name, "cycles:u");
	assert_int_equal(ev[0].config, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(ev[0].exclude, UKB_EXCL_KERNEL);
	assert_int_equal(ev[1].exclude, UKB_EXCL_USER);
	assert_int_equal(ev[2].exclude, 0);
	assert_int_equal(ev[3].exclude, 0);
	/* what a plan hands its processes reads back as the same event */
	ev[1].config1 = 0x1234;
	assert_int_equal(ukb_event_spec(&ev[1], spec, sizeof(spec)), 0);
	assert_int_equal(ukb_events_parse(spec, &back, 1, why, sizeof(why)), 1);
	assert_string_equal(back.name, "instructions:k");
	assert_int_equal(back.type, ev[1].type);
	assert_int_equal(back.config, ev[1].config);
	assert_int_equal(back.config1, 0x1234);
	assert_int_equal(back.exclude, UKB_EXCL_USER);
	assert_int_equal(ukb_events_parse("x=4/zz/0", &back, 1, why, sizeof(why)), -EINVAL);
	assert_int_equal(ukb_events_parse("x=4/1", &back, 1, why, sizeof(why)), -EINVAL);
	assert_int_equal(ukb_events_parse("x=4/1/2/3", &back, 1, why, sizeof(why)), -EINVAL);
}

static void test_scaling_arithmetic(void **state)
{
	struct ukb_reading a = { 100, 1000, 1000 }, b = { 300, 3000, 2000 },
			   c = { 300, 2000, 2000 };
	struct ukb_reading d = { 100, 5000, 1000 };
	double v;

	(void)state;
	/* ran half the time it was enabled: the count doubles */
	assert_int_equal(ukb_counter_delta(&a, &b, &v), 0);
	assert_true(v == 400);
	/* ran the whole time: as read */
	assert_int_equal(ukb_counter_delta(&a, &c, &v), 0);
	assert_true(v == 200);
	/* enabled but never ran: not counted, no figure */
	assert_int_equal(ukb_counter_delta(&a, &d, &v), -1);
	assert_true(v == 0);
}

static double delta_of(const struct ukb_counters *c, const struct ukb_reading *a,
		       const struct ukb_reading *b, const char *name)
{
	double v = -1;

	for (unsigned i = 0; i < c->n; i++)
		if (!strcmp(c->ev[i].name, name)) {
			assert_int_equal(c->status[i], UKB_CTR_OK);
			assert_int_equal(ukb_counter_delta(&a[i], &b[i], &v), 0);
		}
	return v;
}

static void test_software_counters_see_the_work(void **state)
{
	enum { K = 20, P = 300 };
	struct ukb_event ev[4];
	struct ukb_counters c;
	struct ukb_reading a[4], b[4];
	char why[128];
	long page = sysconf(_SC_PAGESIZE);
	char *mem;

	(void)state;
	assert_int_equal(
	    ukb_events_parse("context-switches,page-faults,task-clock", ev, 4, why, sizeof(why)),
	    3);
	ukb_counters_open(&c, ev, 3, 0, 1, 0);
	for (unsigned i = 0; i < c.n; i++)
		if (c.status[i] != UKB_CTR_OK)
			skip(); /* perf_event_open refused even software events here */

	ukb_counters_read(&c, a);
	for (int k = 0; k < K; k++) {
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (pid == 0) {
			usleep(1000);
			_exit(0);
		}
		assert_int_equal(waitpid(pid, NULL, 0), pid);
	}
	mem = mmap(NULL, (size_t)(P * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	assert_true(mem != MAP_FAILED);
	for (int p = 0; p < P; p++)
		mem[(long)p * page] = 1;
	ukb_counters_read(&c, b);
	munmap(mem, (size_t)(P * page));

	print_message("# %d children: %.0f context switches; %d pages: %.0f faults\n", K,
		      delta_of(&c, a, b, "context-switches"), P, delta_of(&c, a, b, "page-faults"));
	assert_true(delta_of(&c, a, b, "context-switches") >= K);
	assert_true(delta_of(&c, a, b, "page-faults") >= P);
	assert_true(delta_of(&c, a, b, "task-clock") > 0);
	ukb_counters_close(&c);
}

static void test_hardware_counters_answer_honestly(void **state)
{
	struct ukb_event ev[3];
	struct ukb_counters c;
	char why[128];

	(void)state;
	assert_int_equal(
	    ukb_events_parse("cycles,instructions,branch-misses", ev, 3, why, sizeof(why)), 3);
	ukb_counters_open(&c, ev, 3, 0, 0, 0);
	for (unsigned i = 0; i < c.n; i++) {
		print_message("# %s: %s %s\n", c.ev[i].name, ukb_counter_status_name(c.status[i]),
			      c.reason[i]);
		assert_true(c.status[i] == UKB_CTR_OK || c.status[i] == UKB_CTR_NOT_SUPPORTED ||
			    c.status[i] == UKB_CTR_NOT_PERMITTED);
		if (c.status[i] == UKB_CTR_OK)
			assert_true(c.fd[i] >= 0);
		else
			assert_non_null(strstr(c.reason[i], "not "));
	}
	ukb_counters_close(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_names),
		cmocka_unit_test(test_modifiers_and_the_resolved_spelling),
		cmocka_unit_test(test_scaling_arithmetic),
		cmocka_unit_test(test_software_counters_see_the_work),
		cmocka_unit_test(test_hardware_counters_answer_honestly),
	};

	return cmocka_run_group_tests_name("counters", tests, NULL, NULL);
}
