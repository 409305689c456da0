/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-info.h - what an ELF image says of itself, beyond one lookup: every
 * dynamic symbol with its version, address, size and type, the build id
 * and the Linux version note. Read with the bounds-checked reader of
 * elf-sym.h, so images of every architecture and byte order, and
 * malformed ones, are read safely.
 */
#ifndef UKB_CORE_ELF_INFO_H
#define UKB_CORE_ELF_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "elf-sym.h"

struct ukb_elf_symbol {
	const char *name;    /* in the image */
	const char *version; /* "LINUX_2.6", "" when unversioned */
	uint64_t value;	     /* the link-time address */
	uint64_t size;
	unsigned type; /* STT_FUNC, STT_OBJECT, ... */
	unsigned bind; /* STB_GLOBAL, STB_WEAK, ... */
	int defined;   /* in a section: neither SHN_UNDEF nor SHN_ABS (a version's name) */
};

/*
 * The number of dynamic symbols (from DT_HASH, else by walking
 * DT_GNU_HASH), index 0 included; 0 when the tables say nothing sensible.
 */
uint64_t ukb_elf_nsyms(const struct ukb_elf *e);

/* Symbol @i into @s; 0, or -1 when it lies outside the tables. */
int ukb_elf_symbol(const struct ukb_elf *e, uint64_t i, struct ukb_elf_symbol *s);

/* The image offset of link-time address @va, or -1 when no PT_LOAD holds it. */
int ukb_elf_va_to_off(const struct ukb_elf *e, uint64_t va, uint64_t *off);

/* The GNU build id as hex into @buf (empty when there is none). */
void ukb_elf_build_id(const struct ukb_elf *e, char *buf, size_t len);

/*
 * The "Linux" note's LINUX_VERSION_CODE (the kernel the image was built
 * for), as "6.18.44" into @buf; empty when there is none.
 */
void ukb_elf_linux_version(const struct ukb_elf *e, char *buf, size_t len);

/* "x86-64", "AArch64", "PowerPC64", ... for e_machine; "machine N" otherwise. */
const char *ukb_elf_machine_name(unsigned machine, char *buf, size_t len);

/* "FUNC", "OBJECT", "NOTYPE", ... */
const char *ukb_elf_type_name(unsigned type);

#endif
