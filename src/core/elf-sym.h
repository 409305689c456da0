/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-sym.h - a bounds-checked reader of the dynamic symbols of an ELF image.
 *
 * It reads what the dynamic linker reads of a shared object (program
 * headers, the dynamic section, DT_HASH or DT_GNU_HASH, versym/verdef) and
 * nothing else: the vDSO has no section headers a program may rely on.
 * Both classes and both byte orders are read, whatever the host, so that
 * one build can check the images of every architecture.
 *
 * Invariant: no byte outside [img, img + size) is ever read. Every offset,
 * count and string is checked first; a malformed image is an error with a
 * reason in ->err, never a crash or an endless loop.
 */
#ifndef UKB_CORE_ELF_SYM_H
#define UKB_CORE_ELF_SYM_H

#include <stddef.h>
#include <stdint.h>

#define UKB_ELF_MAX_LOAD 8
#define UKB_ELF_MAX_NOTE 4

struct ukb_elf {
	const unsigned char *img;
	size_t size;
	int is64;
	int big_endian;
	unsigned machine; /* e_machine */

	unsigned nload;
	struct {
		uint64_t vaddr, off, filesz;
	} load[UKB_ELF_MAX_LOAD];

	unsigned nnote; /* PT_NOTE segments, image offsets */
	struct {
		uint64_t off, size;
	} note[UKB_ELF_MAX_NOTE];

	/* image offsets of the dynamic tables; 0 = absent */
	uint64_t symtab, strtab, strsz, syment;
	uint64_t hash, gnu_hash, versym, verdef, verdefnum;

	char err[160];
};

/*
 * Reads the headers and the dynamic section of @img[0..size). The image is
 * borrowed, not copied: it must outlive @e. Returns 0, or -ENOEXEC with the
 * reason in e->err.
 */
int ukb_elf_parse(struct ukb_elf *e, const void *img, size_t size);

/*
 * Finds a defined function or object @name, of version @version (NULL:
 * any). On success stores its image offset in @off and returns 0.
 * -ENOENT: no such symbol, or only of another version (e->err says which);
 * -ENOEXEC: the tables are malformed (e->err says how).
 */
int ukb_elf_lookup(struct ukb_elf *e, const char *name, const char *version, uint64_t *off);

/*
 * The @width-byte (1, 2, 4 or 8) number at image offset @off, in the
 * image's byte order; 0 when it would lie outside the image.
 */
uint64_t ukb_elf_rd(const struct ukb_elf *e, uint64_t off, unsigned width);

/* Hash functions of the SysV and GNU hash tables, for tests and tools. */
uint32_t ukb_elf_hash(const char *name);
uint32_t ukb_elf_gnu_hash(const char *name);

#endif
