// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * initramfs.c - a cpio "newc" archive for a guest (see initramfs.h).
 *
 * Each entry: the magic "070701", thirteen fields of eight hexadecimal
 * digits (inode, mode, uid, gid, links, mtime, size, device major and
 * minor, the special file's major and minor, the name's length with its
 * NUL, a checksum of 0), the name, padding to four bytes, the data,
 * padding to four bytes. "TRAILER!!!" ends it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "initramfs.h"

static int pad(FILE *f, size_t n)
{
	static const char zero[4];

	return n % 4 && fwrite(zero, 1, 4 - n % 4, f) != 4 - n % 4 ? -1 : 0;
}

static int entry(FILE *f, unsigned ino, unsigned mode, unsigned rmaj, unsigned rmin,
		 const char *name, const void *data, size_t len)
{
	size_t nl = strlen(name) + 1;

	if (fprintf(f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", ino, mode,
		    0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0u, len, 0u, 0u, rmaj, rmin, nl, 0u) != 110 ||
	    fwrite(name, 1, nl, f) != nl || pad(f, 110 + nl) ||
	    (len && fwrite(data, 1, len, f) != len) || pad(f, len))
		return -1;
	return 0;
}

int initramfs_write(FILE *f, const void *init, size_t init_len, const char *const *plan,
		    size_t nplan, const struct initramfs_file *mods, size_t nmods)
{
	size_t len = 0;
	char *text;
	int ret;

	for (size_t i = 0; i < nplan; i++)
		len += strlen(plan[i]) + 1;
	text = malloc(len + 1);
	if (!text)
		return -1;
	text[0] = 0;
	for (size_t i = 0, o = 0; i < nplan; i++) {
		size_t l = strlen(plan[i]);

		memcpy(text + o, plan[i], l);
		text[o + l] = '\n';
		o += l + 1;
	}
	ret = entry(f, 1, S_IFDIR | 0755, 0, 0, "dev", NULL, 0) ||
		      entry(f, 2, S_IFCHR | 0600, 5, 1, "dev/console", NULL, 0) ||
		      entry(f, 3, S_IFDIR | 0755, 0, 0, "proc", NULL, 0) ||
		      entry(f, 4, S_IFDIR | 0755, 0, 0, "sys", NULL, 0) ||
		      entry(f, 5, S_IFDIR | 01777, 0, 0, "tmp", NULL, 0) ||
		      entry(f, 6, S_IFREG | 0755, 0, 0, "init", init, init_len) ||
		      entry(f, 7, S_IFREG | 0644, 0, 0, "plan", text, len) ||
		      (nmods && entry(f, 8, S_IFDIR | 0755, 0, 0, "modules", NULL, 0))
		  ? -1
		  : 0;
	for (size_t i = 0; i < nmods && i < 100 && !ret; i++) {
		char name[32];

		snprintf(name, sizeof(name), "modules/%02zu.ko", i);
		ret = entry(f, 9 + (unsigned)i, S_IFREG | 0644, 0, 0, name, mods[i].data,
			    mods[i].len);
	}
	if (!ret)
		ret = entry(f, 0, 0, 0, 0, "TRAILER!!!", NULL, 0);
	free(text);
	return ret || fflush(f) ? -1 : 0;
}
