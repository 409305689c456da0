// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * elf-info.c - every dynamic symbol, the build id and the Linux version
 * note of an ELF image, read through ukb_elf_rd() (which never reads
 * outside the image).
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "elf-info.h"

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif

static int inside(const struct ukb_elf *e, uint64_t off, uint64_t len)
{
	return off <= e->size && len <= e->size - off;
}

static unsigned word(const struct ukb_elf *e)
{
	return e->is64 ? 8 : 4;
}

static uint64_t nsyms_sysv(const struct ukb_elf *e)
{
	unsigned ent = e->is64 && (e->machine == EM_S390 || e->machine == EM_ALPHA) ? 8 : 4;

	if (!inside(e, e->hash, 2ull * ent))
		return 0;
	return ukb_elf_rd(e, e->hash + ent, ent);
}

/* The highest symbol a bucket reaches, and its chain to the end bit. */
static uint64_t nsyms_gnu(const struct ukb_elf *e)
{
	uint64_t nbuckets = ukb_elf_rd(e, e->gnu_hash, 4),
		 symoffset = ukb_elf_rd(e, e->gnu_hash + 4, 4),
		 bloom_size = ukb_elf_rd(e, e->gnu_hash + 8, 4), buckets, chains, top = 0;

	buckets = e->gnu_hash + 16 + bloom_size * word(e);
	if (!nbuckets || nbuckets > e->size / 4 || bloom_size > e->size / 8 ||
	    !inside(e, buckets, nbuckets * 4))
		return 0;
	chains = buckets + nbuckets * 4;
	for (uint64_t b = 0; b < nbuckets; b++) {
		uint64_t i = ukb_elf_rd(e, buckets + b * 4, 4);

		if (i > top)
			top = i;
	}
	if (top < symoffset)
		return symoffset;
	for (uint64_t i = top;; i++) {
		uint64_t c = chains + (i - symoffset) * 4;

		if (!inside(e, c, 4))
			return 0;
		if (ukb_elf_rd(e, c, 4) & 1)
			return i + 1;
	}
}

uint64_t ukb_elf_nsyms(const struct ukb_elf *e)
{
	uint64_t n = e->hash ? nsyms_sysv(e) : nsyms_gnu(e), most;

	most = e->symtab < e->size ? (e->size - e->symtab) / e->syment : 0;
	return n > most ? most : n;
}

/* The name of the version symbol @i has ("" when none or the base). */
static const char *version_of(const struct ukb_elf *e, uint64_t i)
{
	uint64_t ndx, def = e->verdef, limit = e->verdefnum ? e->verdefnum : 1024;

	if (!e->img || !e->versym || !e->verdef || !inside(e, e->versym + 2 * i, 2))
		return "";
	ndx = ukb_elf_rd(e, e->versym + 2 * i, 2) & 0x7fff;
	if (ndx <= 1)
		return "";
	for (uint64_t n = 0; n < limit && inside(e, def, 20); n++) {
		if ((ukb_elf_rd(e, def + 4, 2) & 0x7fff) == ndx) {
			uint64_t aux = def + ukb_elf_rd(e, def + 12, 4), name;
			const char *s;

			if (!inside(e, aux, 8))
				return "";
			name = ukb_elf_rd(e, aux, 4);
			if (name >= e->strsz || !inside(e, e->strtab + name, 1))
				return "";
			s = (const char *)e->img + e->strtab + name;
			return memchr(s, 0, e->strsz - name) ? s : "";
		}
		if (!ukb_elf_rd(e, def + 16, 4))
			break;
		def += ukb_elf_rd(e, def + 16, 4);
	}
	return "";
}

int ukb_elf_symbol(const struct ukb_elf *e, uint64_t i, struct ukb_elf_symbol *s)
{
	uint64_t so, name;
	unsigned info, shndx;
	const char *str;

	if (!e->img || !e->syment || e->symtab > e->size || i > (e->size - e->symtab) / e->syment)
		return -1;
	so = e->symtab + i * e->syment;
	if (!inside(e, so, e->syment))
		return -1;
	name = ukb_elf_rd(e, so, 4);
	if (e->is64) {
		info = (unsigned)ukb_elf_rd(e, so + 4, 1);
		shndx = (unsigned)ukb_elf_rd(e, so + 6, 2);
		s->value = ukb_elf_rd(e, so + 8, 8);
		s->size = ukb_elf_rd(e, so + 16, 8);
	} else {
		s->value = ukb_elf_rd(e, so + 4, 4);
		s->size = ukb_elf_rd(e, so + 8, 4);
		info = (unsigned)ukb_elf_rd(e, so + 12, 1);
		shndx = (unsigned)ukb_elf_rd(e, so + 14, 2);
	}
	s->type = info & 0xf;
	s->bind = info >> 4;
	s->defined = shndx != SHN_UNDEF && shndx != SHN_ABS;
	str = name < e->strsz ? (const char *)e->img + e->strtab + name : NULL;
	s->name = str && memchr(str, 0, e->strsz - name) ? str : "";
	s->version = version_of(e, i);
	return 0;
}

int ukb_elf_va_to_off(const struct ukb_elf *e, uint64_t va, uint64_t *off)
{
	for (unsigned i = 0; i < e->nload; i++) {
		uint64_t start = e->load[i].vaddr;

		if (va >= start && va - start < e->load[i].filesz) {
			*off = e->load[i].off + (va - start);
			return inside(e, *off, 1) ? 0 : -1;
		}
	}
	return -1;
}

/*
 * Finds the note @name of @type: its descriptor's offset and size.
 * Notes are 4-byte aligned in every image this reads (the vDSO's and
 * what a linker makes of them).
 */
static int find_note(const struct ukb_elf *e, const char *name, uint32_t type, uint64_t *desc,
		     uint64_t *dsize)
{
	size_t nlen = strlen(name) + 1;

	for (unsigned k = 0; k < e->nnote; k++) {
		uint64_t p = e->note[k].off, end = p + e->note[k].size;

		while (p + 12 <= end && inside(e, p, 12)) {
			uint64_t namesz = ukb_elf_rd(e, p, 4), descsz = ukb_elf_rd(e, p + 4, 4),
				 t = ukb_elf_rd(e, p + 8, 4);
			uint64_t n = p + 12, d = n + ((namesz + 3) & ~3ull);

			if (namesz > e->size || descsz > e->size || !inside(e, d, descsz) ||
			    d + descsz > end)
				break;
			if (t == type && namesz == nlen && !memcmp(e->img + n, name, nlen)) {
				*desc = d;
				*dsize = descsz;
				return 0;
			}
			p = d + ((descsz + 3) & ~3ull);
		}
	}
	return -1;
}

void ukb_elf_build_id(const struct ukb_elf *e, char *buf, size_t len)
{
	uint64_t d, n;
	size_t at = 0;

	if (len)
		buf[0] = 0;
	if (find_note(e, "GNU", NT_GNU_BUILD_ID, &d, &n))
		return;
	for (uint64_t i = 0; i < n && at + 3 <= len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%02x", e->img[d + i]);
}

void ukb_elf_linux_version(const struct ukb_elf *e, char *buf, size_t len)
{
	uint64_t d, n, v;

	if (len)
		buf[0] = 0;
	if (find_note(e, "Linux", 0, &d, &n) || n < 4)
		return;
	v = ukb_elf_rd(e, d, 4);
	snprintf(buf, len, "%u.%u.%u", (unsigned)(v >> 16), (unsigned)(v >> 8) & 0xff,
		 (unsigned)v & 0xff);
}

const char *ukb_elf_machine_name(unsigned machine, char *buf, size_t len)
{
	static const struct {
		unsigned m;
		const char *name;
	} names[] = {
		{ EM_386, "Intel 80386" },  { EM_X86_64, "x86-64" },
		{ EM_AARCH64, "AArch64" },  { EM_ARM, "ARM" },
		{ EM_PPC, "PowerPC" },	    { EM_PPC64, "PowerPC64" },
		{ EM_S390, "IBM S/390" },   { EM_RISCV, "RISC-V" },
		{ EM_MIPS, "MIPS" },	    { EM_LOONGARCH, "LoongArch" },
		{ EM_SPARCV9, "SPARC v9" }, { EM_PARISC, "PA-RISC" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].m == machine)
			return names[i].name;
	snprintf(buf, len, "machine %u", machine);
	return buf;
}

const char *ukb_elf_type_name(unsigned type)
{
	switch (type) {
	case STT_NOTYPE:
		return "NOTYPE";
	case STT_OBJECT:
		return "OBJECT";
	case STT_FUNC:
		return "FUNC";
	case STT_SECTION:
		return "SECTION";
	case STT_FILE:
		return "FILE";
	case STT_TLS:
		return "TLS";
	case STT_GNU_IFUNC:
		return "IFUNC";
	}
	return "OTHER";
}
