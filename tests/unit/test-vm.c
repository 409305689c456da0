// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-vm.c - what `ukbench vm` gives a guest: the initramfs as the kernel
 * reads it (cpio "newc": each header's fields, the names, the data where
 * its size says), the modules in it in their order; and which machine a
 * module file is for, from its ELF header.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "initramfs.h"
#include "vm.h"

/* The header field @i (0: inode ... 11: name size) of the entry at @p. */
static unsigned long field(const char *p, int i)
{
	char hex[9];

	memcpy(hex, p + 6 + 8 * i, 8);
	hex[8] = 0;
	return strtoul(hex, NULL, 16);
}

/* The entry named @name in the archive @a of @len bytes: its data and size; 0 when found. */
static int find(const char *a, size_t len, const char *name, const char **data, size_t *size)
{
	size_t o = 0;

	while (o + 110 <= len) {
		size_t ns = field(a + o, 11), fs = field(a + o, 6), d;

		assert_memory_equal(a + o, "070701", 6);
		d = (o + 110 + ns + 3) & ~(size_t)3;
		if (!strcmp(a + o + 110, name)) {
			*data = a + d;
			*size = fs;
			return 0;
		}
		if (!strcmp(a + o + 110, "TRAILER!!!"))
			return -1;
		o = (d + fs + 3) & ~(size_t)3;
	}
	return -1;
}

static void test_initramfs_modules(void **state)
{
	const char *plan[] = { "check /dev/hvc0", "duration=0.2" };
	struct initramfs_file mods[] = { { "first module", 12 }, { "second", 6 } };
	char *a = NULL;
	size_t len = 0, size;
	const char *data;
	FILE *f = open_memstream(&a, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(initramfs_write(f,
					 "\x7f"
					 "ELFinit",
					 8, plan, 2, mods, 2),
			 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(find(a, len, "init", &data, &size), 0);
	assert_int_equal(size, 8);
	assert_memory_equal(data,
			    "\x7f"
			    "ELFinit",
			    8);
	assert_int_equal(find(a, len, "plan", &data, &size), 0);
	assert_int_equal(size, strlen("check /dev/hvc0\nduration=0.2\n"));
	assert_memory_equal(data, "check /dev/hvc0\nduration=0.2\n", size);
	assert_int_equal(find(a, len, "modules", &data, &size), 0);
	assert_int_equal(find(a, len, "modules/00.ko", &data, &size), 0);
	assert_int_equal(size, 12);
	assert_memory_equal(data, "first module", 12);
	assert_int_equal(find(a, len, "modules/01.ko", &data, &size), 0);
	assert_memory_equal(data, "second", 6);
	assert_int_equal(find(a, len, "modules/02.ko", &data, &size), -1);
	free(a);
	/* no module: no directory for them */
	a = NULL;
	f = open_memstream(&a, &len);
	assert_non_null(f);
	assert_int_equal(initramfs_write(f, "x", 1, plan, 1, NULL, 0), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(find(a, len, "modules", &data, &size), -1);
	free(a);
}

/* An ELF header of @class, byte order @data, @type and @machine. */
static void header(unsigned char *h, int class, int data, unsigned type, unsigned machine)
{
	memset(h, 0, 64);
	memcpy(h, ELFMAG, SELFMAG);
	h[EI_CLASS] = (unsigned char)class;
	h[EI_DATA] = (unsigned char)data;
	if (data == ELFDATA2LSB) {
		h[16] = type & 0xff;
		h[17] = type >> 8;
		h[18] = machine & 0xff;
		h[19] = machine >> 8;
	} else {
		h[17] = type & 0xff;
		h[16] = type >> 8;
		h[19] = machine & 0xff;
		h[18] = machine >> 8;
	}
}

static void test_module_machine(void **state)
{
	unsigned char h[64];

	(void)state;
	header(h, ELFCLASS64, ELFDATA2MSB, ET_REL, EM_S390);
	assert_string_equal(vm_module_machine(h, sizeof(h)), "s390x");
	header(h, ELFCLASS64, ELFDATA2LSB, ET_REL, EM_X86_64);
	assert_string_equal(vm_module_machine(h, sizeof(h)), "x86_64");
	header(h, ELFCLASS64, ELFDATA2LSB, ET_REL, EM_AARCH64);
	assert_string_equal(vm_module_machine(h, sizeof(h)), "aarch64");
	header(h, ELFCLASS64, ELFDATA2LSB, ET_REL, EM_PPC64);
	assert_string_equal(vm_module_machine(h, sizeof(h)), "ppc64le");
	header(h, ELFCLASS64, ELFDATA2MSB, ET_REL, EM_PPC64);
	assert_string_equal(vm_module_machine(h, sizeof(h)), "ppc64");
	/* an executable, a 32-bit object, a machine vm boots none of, too short, no ELF */
	header(h, ELFCLASS64, ELFDATA2LSB, ET_EXEC, EM_X86_64);
	assert_null(vm_module_machine(h, sizeof(h)));
	header(h, ELFCLASS32, ELFDATA2LSB, ET_REL, EM_386);
	assert_null(vm_module_machine(h, sizeof(h)));
	header(h, ELFCLASS64, ELFDATA2LSB, ET_REL, EM_RISCV);
	assert_null(vm_module_machine(h, sizeof(h)));
	header(h, ELFCLASS64, ELFDATA2LSB, ET_REL, EM_X86_64);
	assert_null(vm_module_machine(h, 19));
	assert_null(vm_module_machine((const unsigned char *)"root:x:0:0:root:/root:/bin/sh", 29));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_initramfs_modules),
		cmocka_unit_test(test_module_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
