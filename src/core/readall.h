/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readall.h - a whole file read into memory, with a bound that holds
 * whatever the file is: a regular file's size is checked before a byte is
 * read (a 1 GB sparse file costs nothing to refuse), and a pipe, FIFO or
 * device is read only while it answers and only up to the bound, so that
 * /dev/zero ends at the bound and a FIFO with no writer ends after a wait.
 */
#ifndef UKB_CORE_READALL_H
#define UKB_CORE_READALL_H

#include <stddef.h>

/* How long a pipe, FIFO or device may stay silent before the read gives up. */
#define UKB_READ_QUIET_MS 10000

enum ukb_read_why {
	UKB_READ_OK,
	UKB_READ_OPEN,	  /* open() failed: errno in the return value */
	UKB_READ_IO,	  /* read() failed */
	UKB_READ_TOO_BIG, /* more than @max bytes */
	UKB_READ_SILENT,  /* nothing came for UKB_READ_QUIET_MS (a FIFO with no writer) */
	UKB_READ_NOMEM,
	UKB_READ_DIRECTORY,
};

/*
 * Reads @path whole into a new buffer (*@out, NUL-terminated, *@len bytes
 * before the NUL; the caller frees it). At most @max bytes. Returns 0, or
 * -errno with *@why saying which step failed.
 */
int ukb_read_all(const char *path, size_t max, char **out, size_t *len, enum ukb_read_why *why);

/*
 * Says in @buf why reading @path failed (@rc and @why from ukb_read_all),
 * a file @what is ("a ukbench result"), for the front end to print.
 */
void ukb_read_describe(char *buf, size_t len, const char *path, int rc, enum ukb_read_why why,
		       size_t max, const char *what);

#endif
