// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-env.c - the environment capture against what the machine says
 * through other means (uname, sysconf, the sysfs files read directly), and
 * the warning rules.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

#include "affinity.h"
#include "env.h"

static int has_warning(const struct ukb_env *e, const char *needle)
{
	for (unsigned i = 0; i < e->nwarnings; i++)
		if (strstr(e->warnings[i], needle))
			return 1;
	return 0;
}

static void test_capture_matches_the_machine(void **state)
{
	struct ukb_env e;
	struct utsname u;
	char cs[64] = "";
	FILE *f;

	(void)state;
	ukb_env_capture(&e);
	assert_int_equal(uname(&u), 0);
	assert_string_equal(e.kernel_release, u.release);
	assert_string_equal(e.machine, u.machine);
	assert_int_equal(e.online_cpus, (int)sysconf(_SC_NPROCESSORS_ONLN));
	f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	if (f) {
		assert_non_null(fgets(cs, sizeof(cs), f));
		cs[strcspn(cs, "\n")] = 0;
		fclose(f);
		assert_string_equal(e.clocksource, cs);
	} else {
		assert_string_equal(e.clocksource, "unknown");
	}
	assert_true(e.cpu_model[0] != 0);
	assert_true(e.compiler[0] != 0);
	assert_true(e.loadavg[0] >= 0);
#ifdef __GLIBC__
	assert_non_null(strstr(e.libc, "glibc"));
#endif
	/* a VM is always named in a warning */
	if (strcmp(e.virtualization, "none detected"))
		assert_true(has_warning(&e, "virtual machine"));
}

static void test_clocksource_classes(void **state)
{
	(void)state;
	assert_int_equal(ukb_clocksource_vdso_capable("tsc"), 1);
	assert_int_equal(ukb_clocksource_vdso_capable("arch_sys_counter"), 1);
	assert_int_equal(ukb_clocksource_vdso_capable("timebase"), 1);
	assert_int_equal(ukb_clocksource_vdso_capable("hpet"), 0);
	assert_int_equal(ukb_clocksource_vdso_capable("acpi_pm"), 0);
	assert_int_equal(ukb_clocksource_vdso_capable("something-new"), -1);
}

static void test_warnings_are_bounded(void **state)
{
	struct ukb_env e;

	(void)state;
	memset(&e, 0, sizeof(e));
	for (int i = 0; i < 3 * UKB_ENV_MAX_WARNINGS; i++)
		ukb_env_warn(&e, "warning %d", i);
	assert_int_equal(e.nwarnings, UKB_ENV_MAX_WARNINGS);
	assert_string_equal(e.warnings[0], "warning 0");
}

static void test_pinning(void **state)
{
	cpu_set_t set;
	int first = -1;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	assert_true(CPU_COUNT(&set) >= 1);
	for (int i = CPU_SETSIZE - 1; i >= 0; i--)
		if (CPU_ISSET(i, &set))
			first = i;
	assert_int_equal(ukb_pin_cpu((unsigned)first), 0);
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	assert_int_equal(CPU_COUNT(&set), 1);
	assert_int_equal(sched_getcpu(), first);
	assert_int_not_equal(ukb_pin_cpu(100000), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_matches_the_machine),
		cmocka_unit_test(test_clocksource_classes),
		cmocka_unit_test(test_warnings_are_bounded),
		cmocka_unit_test(test_pinning),
	};

	return cmocka_run_group_tests_name("env", tests, NULL, NULL);
}
