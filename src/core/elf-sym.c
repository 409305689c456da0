// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * elf-sym.c - dynamic symbol lookup in an ELF image of any class and byte order.
 *
 * The layout follows the gABI's dynamic linking chapter and the LSB's
 * symbol versioning; the lookup follows what the dynamic linker does for
 * the vDSO: hash the name, walk the bucket's chain, check type, binding,
 * definition and version. Fields are read through rd() so that a 32-bit
 * big-endian image is read as well on a 64-bit little-endian host.
 */
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "elf-sym.h"

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif

/* ------------------------------------------------------------------ */
/* Bounds-checked reads                                                */

static int fail(struct ukb_elf *e, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->err, sizeof(e->err), fmt, ap);
	va_end(ap);
	return err;
}

static int in_image(const struct ukb_elf *e, uint64_t off, uint64_t len)
{
	return off <= e->size && len <= e->size - off;
}

/* Reads a @width-byte unsigned field at @off; the caller checked bounds. */
static uint64_t rd(const struct ukb_elf *e, uint64_t off, unsigned width)
{
	const unsigned char *p = e->img + off;
	uint64_t v = 0;

	for (unsigned i = 0; i < width; i++) {
		unsigned shift = e->big_endian ? 8 * (width - 1 - i) : 8 * i;

		v |= (uint64_t)p[i] << shift;
	}
	return v;
}

/* A word of the class: 8 bytes in ELF64, 4 in ELF32. */
uint64_t ukb_elf_rd(const struct ukb_elf *e, uint64_t off, unsigned width)
{
	return width <= 8 && in_image(e, off, width) ? rd(e, off, width) : 0;
}

static unsigned wsz(const struct ukb_elf *e)
{
	return e->is64 ? 8 : 4;
}

/* ------------------------------------------------------------------ */
/* Headers                                                             */

/* Image offset of virtual address @va, valid for @len bytes. */
static int va_to_off(const struct ukb_elf *e, uint64_t va, uint64_t len, uint64_t *off)
{
	for (unsigned i = 0; i < e->nload; i++) {
		uint64_t start = e->load[i].vaddr, fsz = e->load[i].filesz;

		if (va >= start && va - start <= fsz && len <= fsz - (va - start)) {
			*off = e->load[i].off + (va - start);
			return in_image(e, *off, len) ? 0 : -1;
		}
	}
	return -1;
}

static int parse_phdrs(struct ukb_elf *e, uint64_t *dyn_off, uint64_t *dyn_size)
{
	uint64_t phoff, phentsize, phnum;
	int have_dyn = 0;

	phoff = rd(e, e->is64 ? 32 : 28, wsz(e));
	phentsize = rd(e, e->is64 ? 54 : 42, 2);
	phnum = rd(e, e->is64 ? 56 : 44, 2);
	if (phentsize < (e->is64 ? 56u : 32u))
		return fail(e, -ENOEXEC, "program header entry size %llu is too small",
			    (unsigned long long)phentsize);
	if (phnum == 0 || phnum >= 0xffff)
		return fail(e, -ENOEXEC, "bad program header count %llu",
			    (unsigned long long)phnum);
	if (!in_image(e, phoff, phentsize * phnum))
		return fail(e, -ENOEXEC,
			    "program headers (offset %llu, %llu x %llu) beyond the %zu-byte image",
			    (unsigned long long)phoff, (unsigned long long)phnum,
			    (unsigned long long)phentsize, e->size);

	for (uint64_t i = 0; i < phnum; i++) {
		uint64_t ph = phoff + i * phentsize;
		uint32_t type = (uint32_t)rd(e, ph, 4);
		uint64_t off, vaddr, filesz;

		if (e->is64) {
			off = rd(e, ph + 8, 8);
			vaddr = rd(e, ph + 16, 8);
			filesz = rd(e, ph + 32, 8);
		} else {
			off = rd(e, ph + 4, 4);
			vaddr = rd(e, ph + 8, 4);
			filesz = rd(e, ph + 16, 4);
		}
		if (type == PT_LOAD) {
			if (e->nload == UKB_ELF_MAX_LOAD)
				return fail(e, -ENOEXEC, "more than %d PT_LOAD segments",
					    UKB_ELF_MAX_LOAD);
			if (!in_image(e, off, filesz))
				return fail(e, -ENOEXEC,
					    "PT_LOAD segment (offset %llu, size %llu) beyond the "
					    "%zu-byte image",
					    (unsigned long long)off, (unsigned long long)filesz,
					    e->size);
			e->load[e->nload].vaddr = vaddr;
			e->load[e->nload].off = off;
			e->load[e->nload].filesz = filesz;
			e->nload++;
		} else if (type == PT_NOTE) {
			if (e->nnote < UKB_ELF_MAX_NOTE && in_image(e, off, filesz)) {
				e->note[e->nnote].off = off;
				e->note[e->nnote].size = filesz;
				e->nnote++;
			}
		} else if (type == PT_DYNAMIC) {
			if (!in_image(e, off, filesz))
				return fail(
				    e, -ENOEXEC,
				    "PT_DYNAMIC (offset %llu, size %llu) beyond the %zu-byte image",
				    (unsigned long long)off, (unsigned long long)filesz, e->size);
			*dyn_off = off;
			*dyn_size = filesz;
			have_dyn = 1;
		}
	}
	if (!e->nload)
		return fail(e, -ENOEXEC, "no PT_LOAD segment");
	if (!have_dyn)
		return fail(e, -ENOEXEC, "no PT_DYNAMIC segment");
	return 0;
}

static int dyn_table(struct ukb_elf *e, const char *what, uint64_t va, uint64_t len, uint64_t *off)
{
	if (va_to_off(e, va, len, off))
		return fail(e, -ENOEXEC, "%s at address 0x%llx is outside every PT_LOAD segment",
			    what, (unsigned long long)va);
	return 0;
}

static int parse_dynamic(struct ukb_elf *e, uint64_t dyn_off, uint64_t dyn_size)
{
	uint64_t entsz = 2ull * wsz(e), va[8] = { 0 };
	enum { SYMTAB, STRTAB, HASH, GNU_HASH, VERSYM, VERDEF };
	int err;

	for (uint64_t p = dyn_off; p + entsz <= dyn_off + dyn_size; p += entsz) {
		uint64_t tag = rd(e, p, wsz(e)), val = rd(e, p + wsz(e), wsz(e));

		if (tag == DT_NULL)
			break;
		switch (tag) {
		case DT_SYMTAB:
			va[SYMTAB] = val;
			break;
		case DT_STRTAB:
			va[STRTAB] = val;
			break;
		case DT_STRSZ:
			e->strsz = val;
			break;
		case DT_SYMENT:
			e->syment = val;
			break;
		case DT_HASH:
			va[HASH] = val;
			break;
		case DT_GNU_HASH:
			va[GNU_HASH] = val;
			break;
		case DT_VERSYM:
			va[VERSYM] = val;
			break;
		case DT_VERDEF:
			va[VERDEF] = val;
			break;
		case DT_VERDEFNUM:
			e->verdefnum = val;
			break;
		}
	}
	if (!va[SYMTAB] || !va[STRTAB])
		return fail(e, -ENOEXEC, "dynamic section has no %s",
			    va[SYMTAB] ? "DT_STRTAB" : "DT_SYMTAB");
	if (!va[HASH] && !va[GNU_HASH])
		return fail(e, -ENOEXEC, "dynamic section has neither DT_HASH nor DT_GNU_HASH");
	if (!e->syment)
		e->syment = e->is64 ? 24 : 16;
	if (e->syment < (e->is64 ? 24u : 16u) || e->syment > 4096)
		return fail(e, -ENOEXEC, "bad symbol entry size %llu",
			    (unsigned long long)e->syment);
	if (!e->strsz)
		return fail(e, -ENOEXEC, "dynamic section has no DT_STRSZ");

	err = dyn_table(e, "DT_SYMTAB", va[SYMTAB], e->syment, &e->symtab);
	if (!err)
		err = dyn_table(e, "DT_STRTAB", va[STRTAB], e->strsz, &e->strtab);
	if (!err && va[HASH])
		err = dyn_table(e, "DT_HASH", va[HASH], 8, &e->hash);
	if (!err && va[GNU_HASH])
		err = dyn_table(e, "DT_GNU_HASH", va[GNU_HASH], 16, &e->gnu_hash);
	if (!err && va[VERSYM])
		err = dyn_table(e, "DT_VERSYM", va[VERSYM], 2, &e->versym);
	if (!err && va[VERDEF])
		err = dyn_table(e, "DT_VERDEF", va[VERDEF], 20, &e->verdef);
	return err;
}

int ukb_elf_parse(struct ukb_elf *e, const void *img, size_t size)
{
	const unsigned char *id = img;
	uint64_t dyn_off = 0, dyn_size = 0;
	int err;

	memset(e, 0, sizeof(*e));
	e->img = img;
	e->size = size;
	if (!img || size < EI_NIDENT)
		return fail(e, -ENOEXEC, "image of %zu bytes is too small for an ELF header", size);
	if (memcmp(id, ELFMAG, SELFMAG))
		return fail(e, -ENOEXEC, "no ELF magic");
	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return fail(e, -ENOEXEC, "unknown ELF class %u", id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return fail(e, -ENOEXEC, "unknown ELF data encoding %u", id[EI_DATA]);
	e->is64 = id[EI_CLASS] == ELFCLASS64;
	e->big_endian = id[EI_DATA] == ELFDATA2MSB;
	if (size < (e->is64 ? 64u : 52u))
		return fail(e, -ENOEXEC, "image of %zu bytes is too small for an ELF%d header",
			    size, e->is64 ? 64 : 32);
	if (rd(e, 16, 2) != ET_DYN)
		return fail(e, -ENOEXEC, "not a shared object (e_type %llu)",
			    (unsigned long long)rd(e, 16, 2));
	e->machine = (unsigned)rd(e, 18, 2);

	err = parse_phdrs(e, &dyn_off, &dyn_size);
	if (!err)
		err = parse_dynamic(e, dyn_off, dyn_size);
	return err;
}

/* ------------------------------------------------------------------ */
/* Symbols                                                             */

uint32_t ukb_elf_hash(const char *name)
{
	uint32_t h = 0, g;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h = (h << 4) + *p;
		g = h & 0xf0000000;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

uint32_t ukb_elf_gnu_hash(const char *name)
{
	uint32_t h = 5381;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = h * 33 + *p;
	return h;
}

/* The string at @idx of the dynamic string table, or NULL if out of range. */
static const char *str_at(const struct ukb_elf *e, uint64_t idx)
{
	const char *s;

	if (idx >= e->strsz)
		return NULL;
	s = (const char *)e->img + e->strtab + idx;
	return memchr(s, 0, e->strsz - idx) ? s : NULL;
}

/* Offset of symbol @i, or 0 if it lies outside the image. */
static uint64_t sym_off(const struct ukb_elf *e, uint64_t i)
{
	uint64_t off;

	if (i > (e->size - e->symtab) / e->syment)
		return 0;
	off = e->symtab + i * e->syment;
	return in_image(e, off, e->syment) ? off : 0;
}

/*
 * Does symbol @i's version match @version? Follows the dynamic linker: the
 * symbol's versym index names a verdef entry (not the base one), whose
 * first aux entry names the version. No versym table: any version goes.
 */
static int version_matches(struct ukb_elf *e, uint64_t i, const char *version, int *err)
{
	uint64_t vs, def, ndx, limit;
	uint32_t want = ukb_elf_hash(version);

	*err = 0;
	if (!e->versym)
		return 1;
	vs = e->versym + 2 * i;
	if (!in_image(e, vs, 2)) {
		*err = fail(e, -ENOEXEC, "DT_VERSYM entry %llu beyond the image",
			    (unsigned long long)i);
		return 0;
	}
	ndx = rd(e, vs, 2) & 0x7fff;
	if (!e->verdef)
		return 1;

	def = e->verdef;
	limit = e->verdefnum ? e->verdefnum : 1024;
	for (uint64_t n = 0;; n++) {
		uint64_t flags, dndx, next;

		if (n >= limit || !in_image(e, def, 20)) {
			*err = fail(e, -ENOEXEC,
				    "DT_VERDEF chain runs beyond its %llu entries or the image",
				    (unsigned long long)limit);
			return 0;
		}
		flags = rd(e, def + 2, 2);
		dndx = rd(e, def + 4, 2) & 0x7fff;
		if (!(flags & VER_FLG_BASE) && dndx == ndx)
			break;
		next = rd(e, def + 16, 4);
		if (!next)
			return 1; /* a version index without definition: as glibc */
		def += next;
	}

	{
		uint64_t aux = def + rd(e, def + 12, 4);
		const char *vname;

		if (!in_image(e, aux, 8) || !(vname = str_at(e, rd(e, aux, 4)))) {
			*err = fail(e, -ENOEXEC, "DT_VERDEF auxiliary entry out of range");
			return 0;
		}
		return rd(e, def + 8, 4) == want && !strcmp(vname, version);
	}
}

/*
 * Checks symbol @i against @name and @version. Returns 1 on a match (offset
 * in @off), 0 when it is another symbol, -ENOEXEC when malformed. A symbol
 * of the right name but another version is noted in *@other_version.
 */
static int check_sym(struct ukb_elf *e, uint64_t i, const char *name, const char *version,
		     uint64_t *off, int *other_version)
{
	uint64_t so = sym_off(e, i), value;
	unsigned info, type, bind;
	uint16_t shndx;
	const char *sname;
	int err;

	if (!so)
		return fail(e, -ENOEXEC, "symbol index %llu beyond the symbol table",
			    (unsigned long long)i);
	if (e->is64) {
		info = (unsigned)rd(e, so + 4, 1);
		shndx = (uint16_t)rd(e, so + 6, 2);
		value = rd(e, so + 8, 8);
	} else {
		value = rd(e, so + 4, 4);
		info = (unsigned)rd(e, so + 12, 1);
		shndx = (uint16_t)rd(e, so + 14, 2);
	}
	type = info & 0xf;
	bind = info >> 4;
	if (type != STT_FUNC && type != STT_NOTYPE && type != STT_OBJECT)
		return 0;
	if (bind != STB_GLOBAL && bind != STB_WEAK)
		return 0;
	if (shndx == SHN_UNDEF)
		return 0;
	sname = str_at(e, rd(e, so, 4));
	if (!sname)
		return fail(e, -ENOEXEC, "symbol %llu's name is outside the string table",
			    (unsigned long long)i);
	if (strcmp(sname, name))
		return 0;
	if (version && !version_matches(e, i, version, &err)) {
		if (err)
			return err;
		*other_version = 1;
		return 0;
	}
	if (va_to_off(e, value, 1, off))
		return fail(e, -ENOEXEC, "symbol '%s' at 0x%llx is outside every PT_LOAD segment",
			    name, (unsigned long long)value);
	return 1;
}

static int lookup_sysv(struct ukb_elf *e, const char *name, const char *version, uint64_t *off,
		       int *other_version)
{
	/* s390x and alpha use 64-bit hash table entries in ELF64 */
	unsigned ent = e->is64 && (e->machine == EM_S390 || e->machine == EM_ALPHA) ? 8 : 4;
	uint64_t nbucket, nchain, buckets, chains, i;
	int r;

	if (!in_image(e, e->hash, 2ull * ent))
		return fail(e, -ENOEXEC, "DT_HASH header beyond the image");
	nbucket = rd(e, e->hash, ent);
	nchain = rd(e, e->hash + ent, ent);
	buckets = e->hash + 2ull * ent;
	if (!nbucket || nbucket > e->size / ent || nchain > e->size / ent ||
	    !in_image(e, buckets, (nbucket + nchain) * ent))
		return fail(e, -ENOEXEC,
			    "DT_HASH tables (%llu buckets, %llu chains) beyond the image",
			    (unsigned long long)nbucket, (unsigned long long)nchain);
	chains = buckets + nbucket * ent;

	i = rd(e, buckets + (ukb_elf_hash(name) % nbucket) * ent, ent);
	for (uint64_t steps = 0; i != STN_UNDEF; steps++) {
		if (i >= nchain)
			return fail(e, -ENOEXEC, "DT_HASH chain index %llu beyond %llu symbols",
				    (unsigned long long)i, (unsigned long long)nchain);
		if (steps > nchain)
			return fail(e, -ENOEXEC, "DT_HASH chain loops");
		r = check_sym(e, i, name, version, off, other_version);
		if (r)
			return r;
		i = rd(e, chains + i * ent, ent);
	}
	return 0;
}

static int lookup_gnu(struct ukb_elf *e, const char *name, const char *version, uint64_t *off,
		      int *other_version)
{
	uint64_t h = ukb_elf_gnu_hash(name), nbuckets, symoffset, bloom_size, shift, bloom, buckets,
		 chains, i, word, mask, bits = 8ull * wsz(e);
	int r;

	nbuckets = rd(e, e->gnu_hash, 4);
	symoffset = rd(e, e->gnu_hash + 4, 4);
	bloom_size = rd(e, e->gnu_hash + 8, 4);
	shift = rd(e, e->gnu_hash + 12, 4);
	bloom = e->gnu_hash + 16;
	if (!nbuckets || !bloom_size || shift >= bits)
		return fail(e, -ENOEXEC, "DT_GNU_HASH header is inconsistent");
	buckets = bloom + bloom_size * wsz(e);
	if (!in_image(e, bloom, (bloom_size * wsz(e)) + nbuckets * 4))
		return fail(e, -ENOEXEC, "DT_GNU_HASH tables (%llu buckets) beyond the image",
			    (unsigned long long)nbuckets);
	chains = buckets + nbuckets * 4;

	/* the Bloom filter: a clear bit means the name is certainly absent */
	word = rd(e, bloom + ((h / bits) % bloom_size) * wsz(e), wsz(e));
	mask = (1ull << (h % bits)) | (1ull << ((h >> shift) % bits));
	if ((word & mask) != mask)
		return 0;

	i = rd(e, buckets + (h % nbuckets) * 4, 4);
	if (i == 0)
		return 0;
	if (i < symoffset)
		return fail(e, -ENOEXEC, "DT_GNU_HASH bucket points below symoffset");
	for (;;) {
		uint64_t c = chains + (i - symoffset) * 4, h2;

		if (!in_image(e, c, 4))
			return fail(e, -ENOEXEC, "DT_GNU_HASH chain runs beyond the image");
		h2 = rd(e, c, 4);
		if ((h | 1) == (h2 | 1)) {
			r = check_sym(e, i, name, version, off, other_version);
			if (r)
				return r;
		}
		if (h2 & 1)
			return 0;
		i++;
		if (!sym_off(e, i))
			return fail(e, -ENOEXEC, "DT_GNU_HASH chain runs beyond the symbol table");
	}
}

int ukb_elf_lookup(struct ukb_elf *e, const char *name, const char *version, uint64_t *off)
{
	int other_version = 0, r;

	e->err[0] = 0;
	r = e->gnu_hash ? lookup_gnu(e, name, version, off, &other_version)
			: lookup_sysv(e, name, version, off, &other_version);
	if (r < 0)
		return r;
	if (r == 1)
		return 0;
	if (other_version)
		return fail(e, -ENOENT, "'%s' exists, but not in version %s", name, version);
	return fail(e, -ENOENT, "'%s'%s%s not found", name, version ? "@" : "",
		    version ? version : "");
}
