// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-elf.c - libFuzzer target: the vDSO/ELF symbol reader on any bytes.
 * Every name of every architecture is looked up in every version; nothing
 * may be read outside the input, and a found symbol must lie inside it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elf-sym.h"

static const char *const names[] = {
	"__vdso_clock_gettime", "__vdso_gettimeofday",	  "__vdso_time",	"__vdso_getcpu",
	"__vdso_getrandom",	"__kernel_clock_gettime", "__kernel_getrandom", "no_such",
};
static const char *const versions[] = { "LINUX_2.6",	"LINUX_2.6.39", "LINUX_2.6.15",
					"LINUX_2.6.29", "LINUX_4.15",	NULL };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact copy, so that the sanitizer sees any read past the end */
	uint8_t *img = malloc(size ? size : 1);
	struct ukb_elf e;
	uint64_t off;

	if (!img)
		return 0;
	memcpy(img, data, size);
	if (!ukb_elf_parse(&e, img, size))
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			for (size_t v = 0; v < sizeof(versions) / sizeof(versions[0]); v++)
				if (!ukb_elf_lookup(&e, names[i], versions[v], &off) && off >= size)
					abort();
	free(img);
	return 0;
}
