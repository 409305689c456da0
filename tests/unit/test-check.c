// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-check.c - the checker against the live vDSO, and against wrong
 * implementations put in place of the vDSO's symbols: a clock that runs
 * ahead, a gettimeofday with a malformed result, a clock_getres that
 * differs, a clock_gettime that accepts any clock id, a time() from the
 * future, a getcpu that names the wrong CPU. A checker that has never been
 * seen to fail is not a checker.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "check.h"
#include "timens.h"
#include "vdso-types.h"
#include "vdso.h"
#include "vgetrandom.h"

static struct check_result *res;
static size_t nres;

static void run(const char *func, int verify, int abi)
{
	const char *funcs[] = { func, NULL };
	struct check_opts o = { .duration_s = 0.05, .funcs = funcs, .verify = verify, .abi = abi };

	free(res);
	assert_int_equal(check_run(&o, &res, &nres), 0);
}

static const struct check_result *find(const char *kind, const char *func, const char *what)
{
	for (size_t i = 0; i < nres; i++)
		if (!strcmp(res[i].kind, kind) && !strcmp(res[i].func, func) &&
		    !strcmp(res[i].what, what))
			return &res[i];
	fail_msg("no result %s %s %s", kind, func, what);
	return NULL;
}

static int count(enum check_verdict v)
{
	int n = 0;

	for (size_t i = 0; i < nres; i++)
		n += res[i].verdict == v;
	return n;
}

/* ------------------------------------------------------------------ */
/* Wrong implementations                                               */

static int ahead_clock_gettime(int clk, void *ts)
{
	struct ukb_old_timespec *t = ts;
	long r = syscall(SYS_clock_gettime, clk, ts);

	t->tv_sec += 1;
	return (int)r;
}

static int lax_clock_gettime(int clk, void *ts)
{
	(void)clk;
	return (int)syscall(SYS_clock_gettime, CLOCK_MONOTONIC, ts);
}

static int off_clock_getres(int clk, void *ts)
{
	struct ukb_old_timespec *t = ts;
	long r = syscall(SYS_clock_getres, clk, ts);

	if (!r && t)
		t->tv_nsec += 1;
	return (int)r;
}

static int malformed_gettimeofday(void *tv, void *tz)
{
	struct ukb_old_timeval *t = tv;

	(void)tz;
	t->tv_sec = time(NULL);
	t->tv_usec = 1000000;
	return 0;
}

static long future_time(long *t)
{
	(void)t;
	return (long)time(NULL) + 5;
}

static long second_ahead_time(long *t)
{
	(void)t;
	return (long)time(NULL) + 1;
}

static long wrong_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	long r = syscall(SYS_getcpu, cpu, node, cache);

	if (cpu)
		*cpu += 1;
	return r;
}

/* the right CPU, a node one too high: only the pointer checks see it */
static long wrong_node_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	long r = syscall(SYS_getcpu, cpu, node, cache);

	if (node)
		*node += 1;
	return r;
}

/* a timezone the kernel does not have */
static int wrong_tz_gettimeofday(void *tv, void *tz)
{
	int r = (int)syscall(SYS_gettimeofday, tv, tz);

	if (tz)
		((int *)tz)[0] = 777;
	return r;
}

/* a getrandom that always asks the kernel: a vDSO path that falls back */
static ssize_t syscall_getrandom(void *buf, size_t len, unsigned flags, void *state, size_t slen)
{
	/* the opaque-params query of ukb_vgr_pool_init() */
	if (!buf && !len && slen == ~(size_t)0) {
		struct ukb_vgetrandom_params *p = state;

		memset(p, 0, sizeof(*p));
		p->size_of_opaque_state = 256;
		p->mmap_prot = PROT_READ | PROT_WRITE;
		p->mmap_flags = MAP_PRIVATE | MAP_ANONYMOUS;
		return 0;
	}
	/* as the vDSO's fallback does: the system call's result, -errno on failure */
	{
		long r = syscall(SYS_getrandom, buf, len, flags);

		return r < 0 ? -errno : r;
	}
}

/* a clock that does not see the namespace's offset */
static int offsetless_clock_gettime(int clk, struct ukb_old_timespec *ts)
{
	int r = (int)syscall(SYS_clock_gettime, clk, ts);

	ts->tv_sec -= clk == CLOCK_BOOTTIME ? TIMENS_BOOTTIME_S : TIMENS_MONOTONIC_S;
	return r;
}

/* ------------------------------------------------------------------ */

static void test_live_vdso_passes_verify(void **state)
{
	(void)state;
	if (!ukb_vdso_live_abi())
		skip();
	run("clock_gettime", 1, 0);
	assert_int_equal(find("verify", "clock_gettime", "monotonic")->verdict, CHECK_OK);
	assert_true(find("verify", "clock_gettime", "monotonic")->checks > 100);
	assert_int_equal(count(CHECK_FAILED), 0);
	run("gettimeofday", 1, 0);
	assert_int_equal(count(CHECK_FAILED), 0);
	run("getrandom", 1, 0);
	assert_int_equal(count(CHECK_FAILED), 0);
}

static void test_live_vdso_bad_pointers_are_known_behaviour(void **state)
{
	(void)state;
	if (!ukb_vdso_live_abi())
		skip();
	run("clock_gettime", 0, 1);
	assert_int_equal(find("abi", "clock_gettime", "PROT_NONE page")->verdict, CHECK_KNOWN);
	assert_non_null(strstr(find("abi", "clock_gettime", "PROT_NONE page")->detail,
			       "cannot check user pointers"));
	assert_int_equal(find("abi", "clock_gettime", "clock id -1")->verdict, CHECK_OK);
	assert_int_equal(find("abi", "clock_gettime", "clock id INT_MAX")->verdict, CHECK_OK);
}

static void test_clock_running_ahead_fails(void **state)
{
	(void)state;
	ukb_vdso_override("clock_gettime", (void *)ahead_clock_gettime, 0);
	run("clock_gettime", 1, 0);
	ukb_vdso_override_clear();
	assert_int_equal(find("verify", "clock_gettime", "monotonic")->verdict, CHECK_FAILED);
	assert_non_null(strstr(find("verify", "clock_gettime", "monotonic")->detail,
			       "not between the system calls"));
}

static void test_accepting_any_clock_id_fails(void **state)
{
	(void)state;
	ukb_vdso_override("clock_gettime", (void *)lax_clock_gettime, 0);
	run("clock_gettime", 0, 1);
	ukb_vdso_override_clear();
	assert_int_equal(find("abi", "clock_gettime", "clock id -1")->verdict, CHECK_FAILED);
	assert_string_equal(find("abi", "clock_gettime", "clock id -1")->detail,
			    "vDSO success, system call Invalid argument");
}

static void test_getres_that_differs_fails(void **state)
{
	(void)state;
	ukb_vdso_override("clock_getres", (void *)off_clock_getres, 0);
	run("clock_getres", 1, 0);
	ukb_vdso_override_clear();
	assert_int_equal(find("verify", "clock_getres", "monotonic")->verdict, CHECK_FAILED);
}

static void test_malformed_gettimeofday_fails(void **state)
{
	(void)state;
	ukb_vdso_override("gettimeofday", (void *)malformed_gettimeofday, 0);
	run("gettimeofday", 1, 0);
	ukb_vdso_override_clear();
	assert_int_equal(find("verify", "gettimeofday", "")->verdict, CHECK_FAILED);
	assert_non_null(strstr(find("verify", "gettimeofday", "")->detail, "malformed"));
}

static void test_time_from_the_future_fails(void **state)
{
	(void)state;
	ukb_vdso_override("time", (void *)future_time, 0);
	run("time", 1, 0);
	ukb_vdso_override_clear();
	assert_int_equal(find("verify", "time", "")->verdict, CHECK_FAILED);
}

static void test_time_one_second_ahead_fails(void **state)
{
	(void)state;
	/* one second is what a boundary race looks like: it must still fail */
	ukb_vdso_override("time", (void *)second_ahead_time, 0);
	run("time", 1, 0);
	ukb_vdso_override_clear();
	assert_int_equal(find("verify", "time", "")->verdict, CHECK_FAILED);
}

static void test_wrong_cpu_fails(void **state)
{
	(void)state;
	ukb_vdso_override("getcpu", (void *)wrong_getcpu, 0);
	run("getcpu", 1, 0);
	ukb_vdso_override_clear();
	assert_int_equal(find("verify", "getcpu", "")->verdict, CHECK_FAILED);
	assert_non_null(strstr(find("verify", "getcpu", "")->detail, "pinned to CPU"));
}

static void test_live_pointer_combinations_pass(void **state)
{
	(void)state;
	if (!ukb_vdso_live_abi())
		skip();
	run("getcpu", 0, 1);
	assert_int_equal(find("abi", "getcpu", "cpu ptr, node ptr, tcache ptr")->verdict, CHECK_OK);
	assert_int_equal(find("abi", "getcpu", "cpu NULL, node ptr, tcache NULL")->verdict,
			 CHECK_OK);
	run("gettimeofday", 0, 1);
	assert_int_equal(find("abi", "gettimeofday", "tz valid")->verdict, CHECK_OK);
	assert_int_equal(find("abi", "gettimeofday", "tz NULL")->verdict, CHECK_OK);
	assert_int_not_equal(find("abi", "gettimeofday", "tz unmapped")->verdict, CHECK_FAILED);
}

static void test_wrong_node_fails_where_node_is_asked(void **state)
{
	(void)state;
	ukb_vdso_override("getcpu", (void *)wrong_node_getcpu, 0);
	run("getcpu", 0, 1);
	ukb_vdso_override_clear();
	assert_int_equal(find("abi", "getcpu", "cpu ptr, node ptr, tcache ptr")->verdict,
			 CHECK_FAILED);
	assert_int_equal(find("abi", "getcpu", "cpu NULL, node ptr, tcache NULL")->verdict,
			 CHECK_FAILED);
	assert_int_equal(find("abi", "getcpu", "cpu ptr, node NULL, tcache ptr")->verdict,
			 CHECK_OK);
}

static void test_wrong_timezone_fails(void **state)
{
	(void)state;
	ukb_vdso_override("gettimeofday", (void *)wrong_tz_gettimeofday, 0);
	run("gettimeofday", 0, 1);
	ukb_vdso_override_clear();
	assert_int_equal(find("abi", "gettimeofday", "tz valid")->verdict, CHECK_FAILED);
	assert_non_null(strstr(find("abi", "gettimeofday", "tz valid")->detail, "777"));
	assert_int_equal(find("abi", "gettimeofday", "tz NULL")->verdict, CHECK_OK);
}

static void test_timens_live(void **state)
{
	struct timens_report r;
	char why[256];
	void *cgt = ukb_vdso_func("clock_gettime", why, sizeof(why));
	void *vgr = ukb_vdso_func("getrandom", why, sizeof(why));

	(void)state;
	if (!cgt)
		skip();
	timens_check(cgt, vgr, 0.2, NULL, &r);
	if (!r.ran) {
		print_message("no time namespace here: %s\n", r.why);
		skip();
	}
	assert_int_equal(r.mono.verdict, CHECK_OK);
	assert_int_equal(r.boot.verdict, CHECK_OK);
	assert_true(r.mono.checks > 100);
	if (vgr)
		assert_int_equal(r.grnd.verdict, CHECK_OK);
}

static void test_timens_catches_fallback_and_missing_offset(void **state)
{
	struct timens_report r;

	(void)state;
	timens_check((void *)offsetless_clock_gettime, (void *)syscall_getrandom, 0.1, NULL, &r);
	if (!r.ran) {
		print_message("no time namespace here: %s\n", r.why);
		skip();
	}
	assert_int_equal(r.mono.verdict, CHECK_FAILED);
	assert_non_null(strstr(r.mono.detail, "lacks the namespace's offset"));
	assert_int_equal(r.boot.verdict, CHECK_FAILED);
	assert_int_equal(r.grnd.verdict, CHECK_FAILED);
	assert_non_null(strstr(r.grnd.detail, "fell back to the getrandom system call"));
}

static void test_missing_function_is_skipped(void **state)
{
	(void)state;
	ukb_vdso_override("getcpu", NULL, UKB_VDSO_MISSING);
	run("getcpu", 1, 1);
	ukb_vdso_override_clear();
	assert_int_equal(nres, 1);
	assert_int_equal(res[0].verdict, CHECK_SKIPPED);
	assert_non_null(strstr(res[0].detail, "not exported"));
}

static int teardown(void **state)
{
	(void)state;
	free(res);
	res = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_vdso_passes_verify),
		cmocka_unit_test(test_live_vdso_bad_pointers_are_known_behaviour),
		cmocka_unit_test(test_clock_running_ahead_fails),
		cmocka_unit_test(test_accepting_any_clock_id_fails),
		cmocka_unit_test(test_getres_that_differs_fails),
		cmocka_unit_test(test_malformed_gettimeofday_fails),
		cmocka_unit_test(test_time_from_the_future_fails),
		cmocka_unit_test(test_time_one_second_ahead_fails),
		cmocka_unit_test(test_wrong_cpu_fails),
		cmocka_unit_test(test_missing_function_is_skipped),
		cmocka_unit_test(test_live_pointer_combinations_pass),
		cmocka_unit_test(test_wrong_node_fails_where_node_is_asked),
		cmocka_unit_test(test_wrong_timezone_fails),
		cmocka_unit_test(test_timens_live),
		cmocka_unit_test(test_timens_catches_fallback_and_missing_offset),
	};

	return cmocka_run_group_tests_name("check", tests, NULL, teardown);
}
