/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * disasm.h - the instructions of a function of a vDSO image, decoded by
 * Capstone for the image's architecture and byte order, with the targets
 * of calls and branches named (<__vdso_foo+0x1c>). Built without Capstone,
 * or for an architecture this Capstone lacks (RISC-V before Capstone 5),
 * every call says so instead.
 */
#ifndef UKB_INSPECT_DISASM_H
#define UKB_INSPECT_DISASM_H

#include <stdint.h>
#include <stdio.h>

#include "image.h"

struct dis_insn {
	uint64_t va;   /* link-time address */
	unsigned size; /* bytes */
	char hex[48];  /* the bytes, "48 8b 05 ..." (shortened) */
	char text[200];
};

/*
 * Decodes [@va, @va + @size) of @im into *@out (the caller frees it).
 * 0, or -1 with the reason in @err.
 */
int disasm_range(const struct img *im, uint64_t va, uint64_t size, struct dis_insn **out, size_t *n,
		 char *err, size_t len);

/* "Capstone 4.0" or "not built with Capstone", into @buf. */
const char *disasm_engine(char *buf, size_t len);

/*
 * The instructions to @f, objdump-style. With @samples (one count per
 * instruction) and @total > 0, each line starts with its share of @total,
 * as perf annotate shows it.
 */
void disasm_print(FILE *f, const struct img *im, const struct dis_insn *in, size_t n,
		  const unsigned long *samples, unsigned long total);

#endif
