// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * readall.c - a whole file into memory, bounded (see readall.h).
 *
 * The file is opened without blocking, so that opening a FIFO nobody
 * writes to returns at once; a regular file is then read as usual, and
 * anything else is read after poll() says there is something to read,
 * never waiting longer than UKB_READ_QUIET_MS for the next bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "readall.h"

/* Says which step failed; -@err, never 0 (an errno of 0 is still a failure). */
static int fail(enum ukb_read_why *why, enum ukb_read_why w, int err)
{
	*why = w;
	return err > 0 ? -err : -EIO;
}

int ukb_read_all(const char *path, size_t max, char **out, size_t *len, enum ukb_read_why *why)
{
	size_t cap = 65536, n = 0;
	struct stat st;
	char *buf = NULL;
	int fd, rc = 0, regular;

	*out = NULL;
	*len = 0;
	*why = UKB_READ_OK;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return fail(why, UKB_READ_OPEN, errno);
	if (fstat(fd, &st)) {
		rc = fail(why, UKB_READ_IO, errno);
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = fail(why, UKB_READ_DIRECTORY, EISDIR);
		goto out;
	}
	regular = S_ISREG(st.st_mode);
	if (regular && (size_t)st.st_size > max) {
		rc = fail(why, UKB_READ_TOO_BIG, EFBIG);
		goto out;
	}
	if (regular && (size_t)st.st_size + 2 > cap)
		cap = (size_t)st.st_size + 2;
	if (cap > max + 2)
		cap = max + 2;
	buf = malloc(cap);
	if (!buf) {
		rc = fail(why, UKB_READ_NOMEM, ENOMEM);
		goto out;
	}
	for (;;) {
		ssize_t got;

		/* one byte past @max is read to tell a file of exactly @max apart */
		if (n > max) {
			rc = fail(why, UKB_READ_TOO_BIG, EFBIG);
			break;
		}
		if (n + 1 >= cap) {
			size_t ncap = cap * 2 > max + 2 ? max + 2 : cap * 2;
			char *nb = realloc(buf, ncap);

			if (!nb) {
				rc = fail(why, UKB_READ_NOMEM, ENOMEM);
				break;
			}
			buf = nb;
			cap = ncap;
		}
		if (!regular) {
			struct pollfd p = { .fd = fd, .events = POLLIN };
			int r = poll(&p, 1, UKB_READ_QUIET_MS);

			if (r < 0 && errno == EINTR)
				continue;
			if (r == 0) {
				rc = fail(why, UKB_READ_SILENT, ETIMEDOUT);
				break;
			}
		}
		got = read(fd, buf + n, cap - 1 - n);
		if (got == 0)
			break;
		if (got < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			rc = fail(why, UKB_READ_IO, errno);
			break;
		}
		n += (size_t)got;
	}
out:
	close(fd);
	if (rc || !buf) {
		free(buf);
		return rc ? rc : fail(why, UKB_READ_NOMEM, ENOMEM);
	}
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}

void ukb_read_describe(char *buf, size_t len, const char *path, int rc, enum ukb_read_why why,
		       size_t max, const char *what)
{
	switch (why) {
	case UKB_READ_OPEN:
		snprintf(buf, len, "cannot open '%s': %s", path, strerror(-rc));
		break;
	case UKB_READ_DIRECTORY:
		snprintf(buf, len, "'%s' is a directory, not %s", path, what);
		break;
	case UKB_READ_TOO_BIG:
		snprintf(buf, len, "'%s' is larger than %zu MiB: not %s", path, max >> 20, what);
		break;
	case UKB_READ_SILENT:
		snprintf(buf, len,
			 "nothing came from '%s' in %d s (a FIFO that no process writes to?)", path,
			 UKB_READ_QUIET_MS / 1000);
		break;
	case UKB_READ_NOMEM:
		snprintf(buf, len, "cannot read '%s': out of memory", path);
		break;
	default:
		snprintf(buf, len, "cannot read '%s': %s", path, strerror(-rc));
		break;
	}
}
