// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-elf.c - the vDSO lookup against the live vDSO (checked against the
 * dynamic linker's own lookup), against shared objects the real toolchain
 * linked (DT_HASH only, DT_GNU_HASH only, both, another version), and
 * against every kind of damage: truncation, offsets out of range, a hash
 * chain that loops, missing tables, a wrong class, random byte flips.
 * Damaged images are copied into buffers of their exact size, so that the
 * sanitizer build catches any read past the end.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "elf-sym.h"
#include "vdso.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif
#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif

static const char *const fixture_names[] = {
	"__vdso_clock_gettime",	  "__vdso_gettimeofday",   "__vdso_time",
	"__vdso_clock_getres",	  "__vdso_getcpu",	   "__vdso_getrandom",
	"__kernel_clock_gettime", "__kernel_gettimeofday", "__kernel_clock_getres",
	"__kernel_getrandom",
};
#define NFIXTURE (sizeof(fixture_names) / sizeof(fixture_names[0]))

struct image {
	unsigned char *data;
	size_t size;
	char path[512];
};

static int load(const char *name, struct image *img)
{
	const char *dir = getenv("UKB_BUILD");
	FILE *f;
	long n;

	snprintf(img->path, sizeof(img->path), "%s/fixtures/%s", dir ? dir : "build", name);
	f = fopen(img->path, "rb");
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	img->size = (size_t)n;
	img->data = malloc(img->size);
	if (!img->data || fread(img->data, 1, img->size, f) != img->size) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static void load_or_fail(const char *name, struct image *img)
{
	if (load(name, img))
		fail_msg("cannot load fixture '%s' (built by 'make tests')", img->path);
}

/* A copy of @n bytes of @src in a buffer of exactly that size. */
static unsigned char *exact_copy(const void *src, size_t n)
{
	unsigned char *p = malloc(n ? n : 1);

	assert_non_null(p);
	memcpy(p, src, n);
	return p;
}

/* Any successful lookup in a damaged image must still point inside it. */
static void lookup_all_in_bounds(const unsigned char *data, size_t size)
{
	struct ukb_elf e;
	uint64_t off;

	if (ukb_elf_parse(&e, data, size))
		return;
	for (size_t i = 0; i < NFIXTURE; i++) {
		int r = ukb_elf_lookup(&e, fixture_names[i], "LINUX_2.6", &off);

		assert_true(r == 0 || r == -ENOENT || r == -ENOEXEC);
		if (r == 0)
			assert_true(off < size);
	}
	assert_int_not_equal(ukb_elf_lookup(&e, "no_such_symbol", NULL, &off), 0);
}

/* ------------------------------------------------------------------ */
/* The live vDSO                                                       */

static void test_live_vdso_parses(void **state)
{
	const struct ukb_vdso_abi *abi;
	struct ukb_elf e;
	const void *base;
	size_t size;
	char why[256];
	int err;

	(void)state;
	err = ukb_vdso_image(&base, &size, why, sizeof(why));
	if (err == -ENOENT) {
		/* no vDSO (qemu-user, vdso=0): lookups must say so */
		assert_null(ukb_vdso_func("clock_gettime", why, sizeof(why)));
		assert_non_null(strstr(why, "no vDSO"));
		skip();
	}
	assert_int_equal(err, 0);
	assert_int_equal(ukb_elf_parse(&e, base, size), 0);
	abi = ukb_vdso_live_abi();
	assert_non_null(abi);
	assert_int_equal(abi->machine, e.machine);
	assert_int_equal(e.is64, sizeof(void *) == 8);
}

static void test_live_symbols_match_dynamic_linker(void **state)
{
	static const char *const funcs[] = { "clock_gettime", "gettimeofday", "time",
					     "clock_getres",  "getcpu",	      "getrandom" };
	const struct ukb_vdso_abi *abi = ukb_vdso_live_abi();
	void *h;
	int found = 0;

	(void)state;
	if (!abi)
		skip();
	h = dlopen("linux-vdso.so.1", RTLD_NOW | RTLD_NOLOAD);
	if (!h)
		skip();
	for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++) {
		char name[64], why[256];
		void *ours = ukb_vdso_func(funcs[i], why, sizeof(why));
		void *theirs;

		ukb_vdso_symname(abi, funcs[i], name, sizeof(name));
		theirs = dlvsym(h, name, abi->version);
#if defined(__powerpc64__) && (!defined(_CALL_ELF) || _CALL_ELF == 1)
		if (ours)
			ours = *(void **)ours; /* our descriptor's code address */
#endif
		if (theirs != ours)
			fail_msg("%s: ukbench %p, dynamic linker %p (%s)", name, ours, theirs,
				 ours ? "" : why);
		found += ours != NULL;
	}
	/* every architecture with a vDSO exports clock_gettime */
	assert_true(found >= 1);
	dlclose(h);
}

static void test_live_clock_gettime_is_the_kernels(void **state)
{
	int (*fn)(int, void *);
	struct timespec a, v, b;
	char why[256];

	(void)state;
	fn = (int (*)(int, void *))ukb_vdso_func("clock_gettime", why, sizeof(why));
	if (!fn)
		skip();
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &a), 0);
		assert_int_equal(fn(CLOCK_MONOTONIC, &v), 0);
		assert_int_equal(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &b), 0);
		assert_true(a.tv_sec < v.tv_sec ||
			    (a.tv_sec == v.tv_sec && a.tv_nsec <= v.tv_nsec));
		assert_true(v.tv_sec < b.tv_sec ||
			    (v.tv_sec == b.tv_sec && v.tv_nsec <= b.tv_nsec));
	}
}

static void test_override_simulates_missing_symbol(void **state)
{
	char why[256];

	(void)state;
	ukb_vdso_override("clock_gettime", NULL, UKB_VDSO_MISSING);
	assert_null(ukb_vdso_func("clock_gettime", why, sizeof(why)));
	assert_non_null(strstr(why, "simulated"));
	ukb_vdso_override_clear();
	if (ukb_vdso_live_abi())
		assert_non_null(ukb_vdso_func("clock_gettime", why, sizeof(why)));
}

static void test_missing_symbol_says_which(void **state)
{
	char why[256];

	(void)state;
	if (!ukb_vdso_live_abi())
		skip();
	assert_null(ukb_vdso_func("no_such_function", why, sizeof(why)));
	assert_non_null(strstr(why, "no_such_function"));
	assert_non_null(strstr(why, "not found"));
}

/* ------------------------------------------------------------------ */
/* Images linked by the toolchain                                      */

/* The code the dynamic linker maps for @name must be the bytes we found. */
static void check_fixture(const char *file, int want_sysv, int want_gnu)
{
	struct image img;
	struct ukb_elf e;
	void *h;

	load_or_fail(file, &img);
	h = dlopen(img.path, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), 0);
	assert_int_equal(e.hash != 0, want_sysv);
	assert_int_equal(e.gnu_hash != 0, want_gnu);
	for (size_t i = 0; i < NFIXTURE; i++) {
		uint64_t off;
		void *code = dlvsym(h, fixture_names[i], "LINUX_2.6");

		assert_non_null(code);
		if (ukb_elf_lookup(&e, fixture_names[i], "LINUX_2.6", &off))
			fail_msg("%s: %s", file, e.err);
		assert_true(off + 8 <= img.size);
		assert_memory_equal(img.data + off, code, 8);
	}
	assert_int_equal(ukb_elf_lookup(&e, "__vdso_nothing", "LINUX_2.6", &(uint64_t){ 0 }),
			 -ENOENT);
	assert_non_null(strstr(e.err, "__vdso_nothing"));
	dlclose(h);
	free(img.data);
}

static void test_sysv_hash_only(void **state)
{
	(void)state;
	check_fixture("vdso-sysv.so", 1, 0);
}

static void test_gnu_hash_only(void **state)
{
	(void)state;
	check_fixture("vdso-gnu.so", 0, 1);
}

static void test_both_hashes(void **state)
{
	(void)state;
	check_fixture("vdso-both.so", 1, 1);
}

static void test_version_mismatch(void **state)
{
	struct image img;
	struct ukb_elf e;
	uint64_t off;

	(void)state;
	load_or_fail("vdso-otherver.so", &img);
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), 0);
	assert_int_equal(ukb_elf_lookup(&e, "__vdso_time", "LINUX_2.6", &off), -ENOENT);
	assert_non_null(strstr(e.err, "not in version LINUX_2.6"));
	assert_int_equal(ukb_elf_lookup(&e, "__vdso_time", "LINUX_9.99", &off), 0);
	assert_int_equal(ukb_elf_lookup(&e, "__vdso_time", NULL, &off), 0);
	free(img.data);
}

/* ------------------------------------------------------------------ */
/* Damaged images                                                      */

static void test_truncated(void **state)
{
	struct image img;

	(void)state;
	load_or_fail("vdso-both.so", &img);
	for (size_t n = 0; n <= img.size; n += n < 128 ? 1 : 61) {
		unsigned char *p = exact_copy(img.data, n);
		struct ukb_elf e;

		if (n < 64)
			assert_int_equal(ukb_elf_parse(&e, p, n), -ENOEXEC);
		lookup_all_in_bounds(p, n);
		free(p);
	}
	free(img.data);
}

static void test_phdrs_out_of_range(void **state)
{
	struct image img;
	struct ukb_elf e;
	ElfW(Ehdr) * eh;

	(void)state;
	load_or_fail("vdso-both.so", &img);
	eh = (ElfW(Ehdr) *)img.data;
	eh->e_phoff = (ElfW(Off))img.size - 8;
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), -ENOEXEC);
	assert_non_null(strstr(e.err, "program headers"));
	eh->e_phoff = (ElfW(Off)) - 1;
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), -ENOEXEC);
	free(img.data);
}

/* The dynamic entry of @tag in a native image, or NULL. */
static ElfW(Dyn) * dyn_entry(struct image *img, ElfW(Sxword) tag)
{
	ElfW(Ehdr) *eh = (ElfW(Ehdr) *)img->data;
	ElfW(Phdr) *ph = (ElfW(Phdr) *)(img->data + eh->e_phoff);

	for (unsigned i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_DYNAMIC)
			continue;
		for (ElfW(Dyn) *d = (ElfW(Dyn) *)(img->data + ph[i].p_offset); d->d_tag != DT_NULL;
		     d++)
			if (d->d_tag == tag)
				return d;
	}
	return NULL;
}

static void test_table_address_out_of_range(void **state)
{
	struct image img;
	struct ukb_elf e;
	ElfW(Dyn) * d;

	(void)state;
	load_or_fail("vdso-both.so", &img);
	d = dyn_entry(&img, DT_SYMTAB);
	assert_non_null(d);
	d->d_un.d_ptr = 0x7fffffff;
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), -ENOEXEC);
	assert_non_null(strstr(e.err, "DT_SYMTAB"));
	free(img.data);
}

static void test_string_table_too_short(void **state)
{
	struct image img;
	struct ukb_elf e;
	uint64_t off;
	ElfW(Dyn) * d;

	(void)state;
	load_or_fail("vdso-sysv.so", &img);
	d = dyn_entry(&img, DT_STRSZ);
	assert_non_null(d);
	d->d_un.d_val = 2;
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), 0);
	assert_int_equal(ukb_elf_lookup(&e, "__vdso_time", "LINUX_2.6", &off), -ENOEXEC);
	assert_non_null(strstr(e.err, "string table"));
	free(img.data);
}

static void test_sysv_chain_loops(void **state)
{
	struct image img;
	struct ukb_elf e;
	uint64_t off;
	uint32_t *h, nbucket, nchain;

	(void)state;
	load_or_fail("vdso-sysv.so", &img);
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), 0);
	h = (uint32_t *)(img.data + e.hash);
	nbucket = h[0];
	nchain = h[1];
	assert_true(nchain > 2);
	/* every bucket starts at symbol 1, whose chain points to itself */
	for (uint32_t i = 0; i < nbucket; i++)
		h[2 + i] = 1;
	h[2 + nbucket + 1] = 1;
	assert_int_equal(ukb_elf_lookup(&e, "no_such_symbol", NULL, &off), -ENOEXEC);
	assert_non_null(strstr(e.err, "loops"));
	/* a chain index past nchain */
	h[2 + nbucket + 1] = nchain + 5;
	assert_int_equal(ukb_elf_lookup(&e, "no_such_symbol", NULL, &off), -ENOEXEC);
	free(img.data);
}

static void test_gnu_chain_unterminated(void **state)
{
	struct image img;
	struct ukb_elf e;
	uint64_t off;
	uint32_t *g, nbuckets, bloom_words;
	unsigned char *chains;

	(void)state;
	load_or_fail("vdso-gnu.so", &img);
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), 0);
	g = (uint32_t *)(img.data + e.gnu_hash);
	nbuckets = g[0];
	bloom_words = g[2];
	/* a Bloom filter that lets everything through, chains that never end */
	memset(img.data + e.gnu_hash + 16, 0xff, bloom_words * sizeof(ElfW(Addr)));
	chains = img.data + e.gnu_hash + 16 + bloom_words * sizeof(ElfW(Addr)) + 4 * nbuckets;
	for (unsigned char *c = chains; c + 4 <= img.data + img.size; c += 4) {
		uint32_t v;

		memcpy(&v, c, 4);
		v &= ~1u;
		memcpy(c, &v, 4);
	}
	for (uint32_t i = 0; i < nbuckets; i++)
		if (g[4 + bloom_words * (sizeof(ElfW(Addr)) / 4) + i] == 0)
			g[4 + bloom_words * (sizeof(ElfW(Addr)) / 4) + i] = g[1];
	assert_int_equal(ukb_elf_lookup(&e, "no_such_symbol", NULL, &off), -ENOEXEC);
	assert_non_null(strstr(e.err, "DT_GNU_HASH"));
	free(img.data);
}

static void test_missing_tables(void **state)
{
	struct image img;
	struct ukb_elf e;
	ElfW(Ehdr) * eh;
	ElfW(Phdr) * ph;
	ElfW(Dyn) * d;

	(void)state;
	load_or_fail("vdso-both.so", &img);
	d = dyn_entry(&img, DT_HASH);
	d->d_tag = DT_DEBUG;
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), 0); /* GNU hash left */
	d = dyn_entry(&img, DT_GNU_HASH);
	d->d_tag = DT_DEBUG;
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), -ENOEXEC);
	assert_non_null(strstr(e.err, "neither DT_HASH nor DT_GNU_HASH"));
	d = dyn_entry(&img, DT_SYMTAB);
	d->d_tag = DT_DEBUG;
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), -ENOEXEC);
	assert_non_null(strstr(e.err, "DT_SYMTAB"));

	eh = (ElfW(Ehdr) *)img.data;
	ph = (ElfW(Phdr) *)(img.data + eh->e_phoff);
	for (unsigned i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			ph[i].p_type = PT_NULL;
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), -ENOEXEC);
	assert_non_null(strstr(e.err, "PT_DYNAMIC"));
	free(img.data);
}

static void test_wrong_class_and_magic(void **state)
{
	struct image img;
	struct ukb_elf e;

	(void)state;
	load_or_fail("vdso-both.so", &img);
	img.data[EI_CLASS] = 7;
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), -ENOEXEC);
	assert_non_null(strstr(e.err, "class"));
	/* the other class: read as such, it must fail or stay in bounds */
	img.data[EI_CLASS] = sizeof(void *) == 8 ? ELFCLASS32 : ELFCLASS64;
	lookup_all_in_bounds(img.data, img.size);
	img.data[EI_CLASS] = sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
	img.data[EI_DATA] = 9;
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), -ENOEXEC);
	img.data[EI_DATA] = ELFDATA2LSB + ELFDATA2MSB - img.data[EI_DATA];
	lookup_all_in_bounds(img.data, img.size);
	img.data[1] = 'X';
	assert_int_equal(ukb_elf_parse(&e, img.data, img.size), -ENOEXEC);
	assert_non_null(strstr(e.err, "magic"));
	assert_int_equal(ukb_elf_parse(&e, NULL, 0), -ENOEXEC);
	free(img.data);
}

static void test_random_damage(void **state)
{
	static const char *const files[] = { "vdso-sysv.so", "vdso-gnu.so", "vdso-both.so" };

	(void)state;
	srand(12345);
	for (size_t f = 0; f < 3; f++) {
		struct image img;

		load_or_fail(files[f], &img);
		for (int round = 0; round < 3000; round++) {
			unsigned char *p = exact_copy(img.data, img.size);
			int flips = 1 + rand() % 8;

			for (int k = 0; k < flips; k++) {
				/* most damage where the tables are: the first 4 KiB */
				size_t at = (size_t)rand() % (img.size < 4096 ? img.size : 4096);

				p[at] ^= (unsigned char)(1 + rand() % 255);
			}
			lookup_all_in_bounds(p, img.size);
			free(p);
		}
		free(img.data);
	}
}

/* ------------------------------------------------------------------ */
/* Names, versions, hashes                                             */

static void test_abi_table(void **state)
{
	const struct ukb_vdso_abi *a;
	char buf[64];

	(void)state;
	a = ukb_vdso_abi_for(EM_X86_64, 1);
	assert_string_equal(a->prefix, "__vdso_");
	assert_string_equal(a->version, "LINUX_2.6");
	a = ukb_vdso_abi_for(EM_386, 0);
	assert_string_equal(a->version, "LINUX_2.6");
	a = ukb_vdso_abi_for(EM_AARCH64, 1);
	assert_string_equal(a->prefix, "__kernel_");
	assert_string_equal(a->version, "LINUX_2.6.39");
	a = ukb_vdso_abi_for(EM_PPC, 0);
	assert_string_equal(a->prefix, "__kernel_");
	assert_string_equal(a->version, "LINUX_2.6.15");
	assert_string_equal(ukb_vdso_abi_for(EM_PPC64, 1)->version, "LINUX_2.6.15");
	assert_string_equal(ukb_vdso_abi_for(EM_S390, 1)->version, "LINUX_2.6.29");
	a = ukb_vdso_abi_for(EM_RISCV, 1);
	assert_string_equal(a->prefix, "__vdso_");
	assert_string_equal(a->version, "LINUX_4.15");
	assert_string_equal(ukb_vdso_abi_for(EM_LOONGARCH, 1)->version, "LINUX_5.10");
	assert_string_equal(ukb_vdso_abi_for(EM_ARM, 0)->prefix, "__vdso_");
	assert_string_equal(ukb_vdso_abi_for(EM_MIPS, 0)->version, "LINUX_2.6");
	assert_null(ukb_vdso_abi_for(EM_SPARC, 0));
	ukb_vdso_symname(ukb_vdso_abi_for(EM_AARCH64, 1), "getrandom", buf, sizeof(buf));
	assert_string_equal(buf, "__kernel_getrandom");
}

static void test_hash_functions(void **state)
{
	(void)state;
	/* the version hashes glibc precomputes in dl-vdso.h */
	assert_int_equal(ukb_elf_hash("LINUX_2.6"), 61765110);
	assert_int_equal(ukb_elf_hash("LINUX_2.6.15"), 123718565);
	assert_int_equal(ukb_elf_hash("LINUX_2.6.29"), 123718585);
	assert_int_equal(ukb_elf_hash("LINUX_4.15"), 182943605);
	assert_int_equal(ukb_elf_gnu_hash(""), 5381);
	assert_int_equal(ukb_elf_gnu_hash("printf"), 0x156b2bb8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_vdso_parses),
		cmocka_unit_test(test_live_symbols_match_dynamic_linker),
		cmocka_unit_test(test_live_clock_gettime_is_the_kernels),
		cmocka_unit_test(test_override_simulates_missing_symbol),
		cmocka_unit_test(test_missing_symbol_says_which),
		cmocka_unit_test(test_sysv_hash_only),
		cmocka_unit_test(test_gnu_hash_only),
		cmocka_unit_test(test_both_hashes),
		cmocka_unit_test(test_version_mismatch),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_phdrs_out_of_range),
		cmocka_unit_test(test_table_address_out_of_range),
		cmocka_unit_test(test_string_table_too_short),
		cmocka_unit_test(test_sysv_chain_loops),
		cmocka_unit_test(test_gnu_chain_unterminated),
		cmocka_unit_test(test_missing_tables),
		cmocka_unit_test(test_wrong_class_and_magic),
		cmocka_unit_test(test_random_damage),
		cmocka_unit_test(test_abi_table),
		cmocka_unit_test(test_hash_functions),
	};

	return cmocka_run_group_tests_name("elf", tests, NULL, NULL);
}
