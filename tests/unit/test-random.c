// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-random.c - the vDSO getrandom() interface against the live vDSO:
 * states laid out the kernel's way, foreign states refused, the length
 * asked returned at every size, output that changes, parent and child that
 * differ after fork(), and the benchmarks' behaviour when the symbol is
 * missing or threads are many.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "measure.h"
#include "registry.h"
#include "vdso.h"
#include "vgetrandom.h"

static ukb_vgetrandom_t vgetrandom_fn(void)
{
	char why[256];

	return (ukb_vgetrandom_t)ukb_vdso_func("getrandom", why, sizeof(why));
}

static void test_states_laid_out_as_the_kernel_wants(void **state)
{
	ukb_vgetrandom_t fn = vgetrandom_fn();
	struct ukb_vgr_pool p;
	char why[256];
	void *s[100];
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	(void)state;
	if (!fn)
		skip();
	if (ukb_vgr_pool_init(&p, fn, 100, why, sizeof(why)))
		fail_msg("%s", why);
	assert_true(p.stride >= p.params.size_of_opaque_state);
	assert_int_equal(p.stride % 64, 0);
	assert_true(p.nstates >= 100);
	for (int i = 0; i < 100; i++) {
		uintptr_t a;

		s[i] = ukb_vgr_state(&p);
		assert_non_null(s[i]);
		a = (uintptr_t)s[i];
		/* never across a page boundary */
		assert_true(a / page == (a + p.params.size_of_opaque_state - 1) / page);
		assert_true(ukb_vgr_owns(&p, s[i]));
		for (int k = 0; k < i; k++)
			assert_true(s[k] != s[i]);
	}
	ukb_vgr_pool_release(&p);
}

static void test_foreign_states_refused(void **state)
{
	ukb_vgetrandom_t fn = vgetrandom_fn();
	struct ukb_vgr_pool p;
	unsigned char buf[16];
	char why[256];
	void *mine, *fake = malloc(4096), *unused;

	(void)state;
	if (!fn) {
		free(fake);
		skip();
	}
	assert_int_equal(ukb_vgr_pool_init(&p, fn, 4, why, sizeof(why)), 0);
	mine = ukb_vgr_state(&p);
	/* a state never handed out, a pointer inside one, a heap buffer */
	unused = (char *)mine + p.stride;
	assert_false(ukb_vgr_owns(&p, unused));
	assert_false(ukb_vgr_owns(&p, (char *)mine + 8));
	assert_false(ukb_vgr_owns(&p, fake));
	assert_false(ukb_vgr_owns(&p, NULL));
	assert_int_equal(ukb_vgr_call(&p, fake, buf, sizeof(buf), 0), -EINVAL);
	assert_int_equal(ukb_vgr_call(&p, unused, buf, sizeof(buf), 0), -EINVAL);
	assert_int_equal(ukb_vgr_call(&p, NULL, buf, sizeof(buf), 0), -EINVAL);
	assert_int_equal(ukb_vgr_call(&p, mine, buf, sizeof(buf), 0), (ssize_t)sizeof(buf));
	ukb_vgr_pool_release(&p);
	assert_int_equal(ukb_vgr_call(&p, mine, buf, sizeof(buf), 0), -EINVAL);
	free(fake);
}

static void test_lengths_and_output(void **state)
{
	static const size_t sizes[] = { 1, 4, 16, 64, 256, 4096, 1 << 20 };
	ukb_vgetrandom_t fn = vgetrandom_fn();
	unsigned char *a = malloc(1 << 20), *b = malloc(1 << 20);
	struct ukb_vgr_pool p;
	char why[256];
	void *st;

	(void)state;
	if (!fn) {
		free(a);
		free(b);
		skip();
	}
	assert_int_equal(ukb_vgr_pool_init(&p, fn, 1, why, sizeof(why)), 0);
	st = ukb_vgr_state(&p);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		assert_int_equal(ukb_vgr_call(&p, st, a, sizes[i], 0), (ssize_t)sizes[i]);
		assert_int_equal(ukb_vgr_call(&p, st, b, sizes[i], GRND_NONBLOCK),
				 (ssize_t)sizes[i]);
		if (sizes[i] >= 16)
			assert_memory_not_equal(a, b, sizes[i]);
	}
	ukb_vgr_pool_release(&p);
	free(a);
	free(b);
}

static void test_parent_and_child_differ(void **state)
{
	ukb_vgetrandom_t fn = vgetrandom_fn();
	unsigned char mine[32], theirs[32];
	struct ukb_vgr_pool p;
	char why[256];
	int fds[2], status;
	void *st;
	pid_t pid;

	(void)state;
	if (!fn)
		skip();
	assert_int_equal(ukb_vgr_pool_init(&p, fn, 1, why, sizeof(why)), 0);
	st = ukb_vgr_state(&p);
	assert_int_equal(ukb_vgr_call(&p, st, mine, sizeof(mine), 0), (ssize_t)sizeof(mine));
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (ukb_vgr_call(&p, st, theirs, sizeof(theirs), 0) != (ssize_t)sizeof(theirs) ||
		    write(fds[1], theirs, sizeof(theirs)) != (ssize_t)sizeof(theirs))
			_exit(1);
		_exit(0);
	}
	assert_int_equal(ukb_vgr_call(&p, st, mine, sizeof(mine), 0), (ssize_t)sizeof(mine));
	assert_int_equal(read(fds[0], theirs, sizeof(theirs)), (ssize_t)sizeof(theirs));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_memory_not_equal(mine, theirs, sizeof(mine));
	close(fds[0]);
	close(fds[1]);
	ukb_vgr_pool_release(&p);
}

static const struct ukb_bench *bench(const char *name)
{
	const struct ukb_bench *b = ukb_registry_find(name);

	if (!b)
		fail_msg("no %s", name);
	return b;
}

static void test_missing_symbol_other_paths_run(void **state)
{
	const struct ukb_bench *b = bench("random.getrandom");
	struct ukb_variant v = { .name = "16", .arg = 16 };
	struct ukb_measure_opts o;
	struct ukb_clock_info clk;
	struct ukb_result r;

	(void)state;
	ukb_measure_opts_init(&o);
	o.budget_s = 0.01;
	assert_int_equal(ukb_clock_probe(&clk), 0);
	ukb_vdso_override("getrandom", NULL, UKB_VDSO_MISSING);
	for (const struct ukb_path *p = b->paths; p->name; p++) {
		assert_int_equal(ukb_measure(b, &v, p, &o, &clk, &r), 0);
		if (!strcmp(p->name, "vdso")) {
			assert_int_equal(r.status, UKB_UNSUPPORTED);
			assert_non_null(strstr(r.reason, "getrandom"));
		} else {
			assert_int_equal(r.status, UKB_OK);
		}
		ukb_result_release(&r);
	}
	ukb_vdso_override_clear();
}

static void test_threads_each_with_a_state(void **state)
{
	const struct ukb_bench *b = bench("random.getrandom_mt");
	struct ukb_variant v = { .name = "8_t5", .arg = 8, .threads = 5 };
	struct ukb_measure_opts o;
	struct ukb_clock_info clk;
	struct ukb_result r;

	(void)state;
	ukb_measure_opts_init(&o);
	o.budget_s = 0.02;
	assert_int_equal(ukb_clock_probe(&clk), 0);
	for (const struct ukb_path *p = b->paths; p->name; p++) {
		assert_int_equal(ukb_measure(b, &v, p, &o, &clk, &r), 0);
		if (r.status != UKB_OK &&
		    !(r.status == UKB_UNSUPPORTED && !strcmp(p->name, "vdso")))
			fail_msg("%s: %s", p->name, r.reason);
		ukb_result_release(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_states_laid_out_as_the_kernel_wants),
		cmocka_unit_test(test_foreign_states_refused),
		cmocka_unit_test(test_lengths_and_output),
		cmocka_unit_test(test_parent_and_child_differ),
		cmocka_unit_test(test_missing_symbol_other_paths_run),
		cmocka_unit_test(test_threads_each_with_a_state),
	};

	return cmocka_run_group_tests_name("random", tests, NULL, NULL);
}
