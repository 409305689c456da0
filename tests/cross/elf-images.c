// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * elf-images.c - the ELF reader against shared objects every cross
 * toolchain linked: 32- and 64-bit, little- and big-endian, DT_HASH only,
 * DT_GNU_HASH only, both, s390x's 64-bit hash entries. For each image the
 * expected symbols come from the toolchain's own nm (name, version and
 * address); every one must be found, at that address, in that version,
 * under the naming rules of the image's architecture.
 *
 *   elf-images IMAGE NMFILE [IMAGE NMFILE...]      prints TAP
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf-sym.h"
#include "vdso.h"

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*n = (size_t)len;
	return buf;
}

/* The virtual address of image offset @off, through the PT_LOAD segments. */
static uint64_t off_to_va(const struct ukb_elf *e, uint64_t off)
{
	for (unsigned i = 0; i < e->nload; i++)
		if (off >= e->load[i].off && off < e->load[i].off + e->load[i].filesz)
			return e->load[i].vaddr + (off - e->load[i].off);
	return UINT64_MAX;
}

static int check_image(const char *image, const char *nmfile, char *why, size_t len)
{
	const struct ukb_vdso_abi *abi;
	unsigned char *img;
	struct ukb_elf e;
	char line[512];
	size_t size;
	int found = 0;
	FILE *nm;

	img = slurp(image, &size);
	if (!img) {
		snprintf(why, len, "cannot read %s", image);
		return -1;
	}
	if (ukb_elf_parse(&e, img, size)) {
		snprintf(why, len, "%s", e.err);
		free(img);
		return -1;
	}
	abi = ukb_vdso_abi_for(e.machine, e.is64);
	nm = fopen(nmfile, "r");
	if (!abi || !nm) {
		snprintf(why, len, abi ? "cannot read %s" : "no naming rules for machine %u",
			 abi ? nmfile : "", e.machine);
		free(img);
		if (nm)
			fclose(nm);
		return -1;
	}
	/* "000000000000052c T __vdso_time@@LINUX_2.6" */
	while (fgets(line, sizeof(line), nm)) {
		char name[128], *at, type;
		uint64_t value, off;

		if (sscanf(line, "%" SCNx64 " %c %127s", &value, &type, name) != 3)
			continue;
		at = strstr(name, "@@");
		if (!at || strncmp(name, abi->prefix, strlen(abi->prefix)))
			continue;
		*at = 0;
		if (strcmp(at + 2, abi->version)) {
			snprintf(why, len, "%s is in %s, the rules say %s", name, at + 2,
				 abi->version);
			break;
		}
		if (ukb_elf_lookup(&e, name, abi->version, &off)) {
			snprintf(why, len, "%s: %s", name, e.err);
			found = -1;
			break;
		}
		if (off_to_va(&e, off) != value) {
			snprintf(why, len, "%s at 0x%" PRIx64 ", nm says 0x%" PRIx64, name,
				 off_to_va(&e, off), value);
			found = -1;
			break;
		}
		found++;
	}
	fclose(nm);
	free(img);
	if (found == 0 && !why[0])
		snprintf(why, len, "no %s* symbol in the nm list", abi->prefix);
	if (found > 0)
		snprintf(why, len, "%d symbols, ELF%d %s-endian, machine %s%s%s", found,
			 e.is64 ? 64 : 32, e.big_endian ? "big" : "little", abi->arch,
			 e.hash ? ", DT_HASH" : "", e.gnu_hash ? ", DT_GNU_HASH" : "");
	return found > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	int failed = 0, n = 0;

	for (int i = 1; i + 1 < argc; i += 2) {
		char why[512] = "";
		int ok = !check_image(argv[i], argv[i + 1], why, sizeof(why));

		printf("%s %d - %s: %s\n", ok ? "ok" : "not ok", ++n, argv[i], why);
		failed += !ok;
	}
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
