// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-inspect.c - the vDSO looked into, on an image the real toolchain
 * linked (build/fixtures/vdso-gnu.so): a symbol found by its name and by
 * the architecture's short name, found again by an address inside it,
 * its offset mapped back to its address; the description names every
 * symbol; disassembled with Capstone where this build has it (else the
 * reason); and the live vDSO of this process, where it has one.
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

#include "disasm.h"
#include "image.h"

static struct img im;

static int setup(void **state)
{
	const char *dir = getenv("UKB_BUILD");
	char path[512], err[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/fixtures/vdso-gnu.so", dir ? dir : "build");
	if (image_file(&im, path, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	image_release(&im);
	return 0;
}

static void test_find(void **state)
{
	struct ukb_elf_symbol s, t, at;
	uint64_t off, off2;

	(void)state;
	assert_int_equal(image_find(&im, "__vdso_time", &s, &off), 0);
	assert_string_equal(s.name, "__vdso_time");
	assert_string_equal(s.version, "LINUX_2.6");
	assert_true(s.size > 0);
	/* the short name is the architecture's: on x86, __vdso_time */
	if (!image_find(&im, "clock_gettime", &t, &off2))
		assert_non_null(strstr(t.name, "clock_gettime"));
	/* an address inside the function is the function */
	assert_int_equal(image_symbol_at(&im, s.value + s.size / 2, &at), 0);
	assert_string_equal(at.name, "__vdso_time");
	assert_true(image_off_to_va(&im, off) == s.value);
	assert_int_equal(image_find(&im, "__vdso_no_such_function", &s, &off), -1);
}

static void test_describe(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	image_print(f, &im);
	fclose(f);
	assert_non_null(strstr(text, "__vdso_clock_gettime"));
	assert_non_null(strstr(text, "__vdso_getrandom"));
	assert_non_null(strstr(text, "__kernel_clock_gettime"));
	free(text);
}

static void test_disassemble(void **state)
{
	struct ukb_elf_symbol s;
	struct dis_insn *in = NULL;
	char err[256] = "", engine[64];
	uint64_t off;
	size_t n = 0;
	int rc;

	(void)state;
	assert_int_equal(image_find(&im, "__vdso_gettimeofday", &s, &off), 0);
	rc = disasm_range(&im, s.value, s.size, &in, &n, err, sizeof(err));
	disasm_engine(engine, sizeof(engine));
	if (strstr(engine, "not built")) {
		/* without Capstone: refused, and the reason says so */
		assert_int_equal(rc, -1);
		assert_non_null(strstr(err, "Capstone"));
		skip();
	}
	assert_int_equal(rc, 0);
	assert_true(n >= 2);
	assert_true(in[0].va == s.value);
	for (size_t i = 1; i < n; i++)
		assert_true(in[i].va == in[i - 1].va + in[i - 1].size);
	assert_true(in[n - 1].va + in[n - 1].size <= s.value + s.size);
	assert_true(in[0].text[0] && in[0].hex[0]);
	free(in);
}

static void test_live(void **state)
{
	struct img live;
	struct ukb_elf_symbol s;
	char err[256];
	uint64_t off;

	(void)state;
	if (image_live(&live, err, sizeof(err))) {
		/* booted with vdso=0, or under an emulator: said, and nothing else */
		assert_true(err[0]);
		skip();
	}
	assert_true(live.base != 0);
	/* every architecture's vDSO has a clock_gettime */
	assert_int_equal(image_find(&live, "clock_gettime", &s, &off), 0);
	image_release(&live);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_disassemble),
		cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
