// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * image.c - the live vDSO or an image on disk: described, searched by name
 * and by address.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "readall.h"
#include "vdso.h"

/* a vDSO is pages; one with its debugging information well under a MiB */
#define MAX_FILE ((size_t)16 << 20)

static int parse(struct img *im, char *err, size_t len)
{
	if (ukb_elf_parse(&im->elf, im->bytes, im->size)) {
		snprintf(err, len, "%s is not a usable ELF image: %s", im->source, im->elf.err);
		return -1;
	}
	return 0;
}

int image_live(struct img *im, char *err, size_t len)
{
	const void *base;
	char why[256];

	memset(im, 0, sizeof(*im));
	snprintf(im->source, sizeof(im->source), "the live vDSO");
	if (ukb_vdso_image(&base, &im->size, why, sizeof(why))) {
		snprintf(err, len, "no vDSO in this process: %s", why);
		return -1;
	}
	im->bytes = base;
	im->base = (uintptr_t)base;
	return parse(im, err, len);
}

int image_file(struct img *im, const char *path, char *err, size_t len)
{
	enum ukb_read_why why;
	size_t n;
	char *buf;
	int rc;

	memset(im, 0, sizeof(*im));
	snprintf(im->source, sizeof(im->source), "%s", path);
	rc = ukb_read_all(path, MAX_FILE, &buf, &n, &why);
	if (rc) {
		ukb_read_describe(err, len, path, rc, why, MAX_FILE, "a vDSO");
		return -1;
	}
	im->owned = (unsigned char *)buf;
	im->bytes = im->owned;
	im->size = n;
	if (parse(im, err, len)) {
		image_release(im);
		return -1;
	}
	return 0;
}

void image_release(struct img *im)
{
	free(im->owned);
	im->owned = NULL;
	im->bytes = NULL;
}

void image_print_maps(FILE *f)
{
	FILE *m = fopen("/proc/self/maps", "r");
	char line[512];
	int any = 0;

	if (!m) {
		fprintf(f, "mappings:   unknown (/proc/self/maps: %s)\n", strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), m)) {
		unsigned long lo, hi;
		char perms[8];
		const char *name = strchr(line, '[');

		if (!name || (strncmp(name, "[vdso]", 6) && strncmp(name, "[vvar", 5)))
			continue;
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3)
			continue;
		name = strndup(name, strcspn(name, "\n"));
		fprintf(f, "%-11s %0*lx-%0*lx %s %6lu KiB  %s\n",
			any ? "" : "mappings:", (int)(2 * sizeof(long)), lo,
			(int)(2 * sizeof(long)), hi, perms, (hi - lo) >> 10, name ? name : "");
		free((void *)name);
		any = 1;
	}
	if (!any)
		fprintf(f, "mappings:   none: this process has no vDSO\n");
	fclose(m);
}

uint64_t image_off_to_va(const struct img *im, uint64_t off)
{
	const struct ukb_elf *e = &im->elf;

	for (unsigned i = 0; i < e->nload; i++)
		if (off >= e->load[i].off && off - e->load[i].off < e->load[i].filesz)
			return e->load[i].vaddr + (off - e->load[i].off);
	return UINT64_MAX;
}

static int exported(const struct ukb_elf_symbol *s)
{
	return s->defined && s->name[0] &&
	       (s->type == STT_FUNC || s->type == STT_OBJECT || s->type == STT_NOTYPE ||
		s->type == STT_GNU_IFUNC);
}

static int by_address(const void *a, const void *b)
{
	const struct ukb_elf_symbol *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return strcmp(x->name, y->name);
}

void image_print(FILE *f, const struct img *im)
{
	const struct ukb_elf *e = &im->elf;
	uint64_t n = ukb_elf_nsyms(e);
	struct ukb_elf_symbol *syms;
	size_t nsyms = 0;
	char buf[160], mach[32];
	int w = e->is64 ? 16 : 8;

	fprintf(f, "image:      %s, %zu bytes", im->source, im->size);
	if (im->base)
		fprintf(f, " at %#" PRIxPTR, im->base);
	fprintf(f, "\nELF:        %s, %s-endian, %s\n", e->is64 ? "ELF64" : "ELF32",
		e->big_endian ? "big" : "little",
		ukb_elf_machine_name(e->machine, mach, sizeof(mach)));
	ukb_elf_build_id(e, buf, sizeof(buf));
	fprintf(f, "build id:   %s\n", buf[0] ? buf : "none");
	ukb_elf_linux_version(e, buf, sizeof(buf));
	fprintf(f, "Linux note: %s\n", buf[0] ? buf : "none");
	fprintf(f, "hash:       %s%s%s\n", e->hash ? "DT_HASH" : "",
		e->hash && e->gnu_hash ? ", " : "", e->gnu_hash ? "DT_GNU_HASH" : "");
	fprintf(f, "\n%-*s  %6s  %-7s %-6s  %s\n", w, "address", "size", "type", "bind", "symbol");
	syms = calloc(n ? n : 1, sizeof(*syms));
	for (uint64_t i = 1; syms && i < n; i++)
		if (!ukb_elf_symbol(e, i, &syms[nsyms]) && exported(&syms[nsyms]))
			nsyms++;
	if (syms)
		qsort(syms, nsyms, sizeof(*syms), by_address);
	for (size_t i = 0; i < nsyms; i++) {
		const struct ukb_elf_symbol s = syms[i];

		fprintf(f, "%0*" PRIx64 "  %6" PRIu64 "  %-7s %-6s  %s%s%s\n", w, s.value, s.size,
			ukb_elf_type_name(s.type),
			s.bind == STB_GLOBAL ? "GLOBAL"
			: s.bind == STB_WEAK ? "WEAK"
					     : "LOCAL",
			s.name, s.version[0] ? "@" : "", s.version);
	}
	if (!syms)
		fprintf(f, "(out of memory listing the symbols)\n");
	free(syms);
}

int image_find(const struct img *im, const char *name, struct ukb_elf_symbol *s, uint64_t *off)
{
	const struct ukb_elf *e = &im->elf;
	const struct ukb_vdso_abi *abi = ukb_vdso_abi_for(e->machine, e->is64);
	uint64_t n = ukb_elf_nsyms(e);
	char full[128] = "";

	if (abi)
		ukb_vdso_symname(abi, name, full, sizeof(full));
	/* the architecture's full name first: "clock_gettime" may be a weak alias */
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t i = 1; i < n; i++) {
			if (ukb_elf_symbol(e, i, s) || !exported(s))
				continue;
			if (strcmp(s->name, pass ? name : full))
				continue;
			return ukb_elf_va_to_off(e, s->value, off);
		}
	return -1;
}

int image_symbol_at(const struct img *im, uint64_t va, struct ukb_elf_symbol *s)
{
	const struct ukb_elf *e = &im->elf;
	uint64_t n = ukb_elf_nsyms(e), best_lo = 0, next = UINT64_MAX;
	int found = 0;

	/* the nearest function at or below @va, and where the next one starts */
	for (uint64_t i = 1; i < n; i++) {
		struct ukb_elf_symbol c;

		if (ukb_elf_symbol(e, i, &c) || !exported(&c) || c.type == STT_OBJECT)
			continue;
		if (c.value <= va &&
		    (!found || c.value > best_lo ||
		     (c.value == best_lo && c.bind == STB_GLOBAL && s->bind != STB_GLOBAL))) {
			*s = c;
			best_lo = c.value;
			found = 1;
		}
		if (c.value > va && c.value < next)
			next = c.value;
	}
	if (!found)
		return -1;
	if (s->size)
		return va < s->value + s->size ? 0 : -1;
	s->size = next == UINT64_MAX ? 0 : next - s->value;
	return next == UINT64_MAX || va < next ? 0 : -1;
}
