/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * image.h - a vDSO image to look at: the live one of this process, or one
 * on disk (any architecture, either byte order). It is described (its
 * mappings, ELF class, machine, build id, Linux version note, every
 * exported symbol), written out as an ELF file, and its symbols are found
 * by name or by address for the disassembler and the profiler.
 */
#ifndef UKB_INSPECT_IMAGE_H
#define UKB_INSPECT_IMAGE_H

#include <stdint.h>
#include <stdio.h>

#include "elf-info.h"
#include "elf-sym.h"

struct img {
	const unsigned char *bytes;
	size_t size;
	unsigned char *owned; /* what image_release() frees: a file's copy */
	uintptr_t base;	      /* where the live image is mapped; 0 for a file */
	char source[4096];    /* "the live vDSO" or the file's path */
	struct ukb_elf elf;
};

/*
 * The live vDSO. 0, or -1 with the reason in @err ("no vDSO in this
 * process: ...").
 */
int image_live(struct img *im, char *err, size_t len);

/* The ELF image in file @path (at most 64 MiB). 0, or -1 with the reason. */
int image_file(struct img *im, const char *path, char *err, size_t len);

void image_release(struct img *im);

/* The mappings of the vDSO and its data pages, from /proc/self/maps, to @f. */
void image_print_maps(FILE *f);

/* The ELF header facts and every defined dynamic symbol, to @f. */
void image_print(FILE *f, const struct img *im);

/*
 * The symbol @name ("__vdso_time", or "time" for the architecture's name
 * of it) into @s, with its image offset in @off. 0, or -1.
 */
int image_find(const struct img *im, const char *name, struct ukb_elf_symbol *s, uint64_t *off);

/*
 * The defined function holding link-time address @va into @s; 0, or -1.
 * A symbol of size 0 holds the addresses up to the next symbol.
 */
int image_symbol_at(const struct img *im, uint64_t va, struct ukb_elf_symbol *s);

/* The link-time address of image offset @off (the inverse of the PT_LOAD map). */
uint64_t image_off_to_va(const struct img *im, uint64_t off);

#endif
