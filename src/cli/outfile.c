// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outfile.c - result files written whole (see outfile.h).
 *
 * A regular file (or none yet) is written under a temporary name beside it
 * and renamed into place, so that an interrupted command never leaves half
 * a file; a symbolic link is followed, and the file it names is replaced
 * the same way, the link kept. Anything else (a FIFO, a terminal, a device
 * such as /dev/null or /dev/full) is written in place: renaming over it
 * would replace the thing itself. New files are the owner's only (0600),
 * as the store is: they hold host names and command lines; a file that is
 * replaced keeps its mode.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"

/* Opens a non-regular @path to be written in place. */
static int open_in_place(struct outfile *o)
{
	int fd = open(o->path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		error("cannot write '%s': %s", o->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	o->tmp[0] = 0;
	return 0;
}

int outfile_open(struct outfile *o, const char *path)
{
	struct stat st;
	int fd, exists;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (!path)
		return 0;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (!path[0]) {
		error("--json needs a file name, got an empty one");
		return -1;
	}
	/* stat follows a link: what counts is what it names */
	exists = !stat(path, &st);
	if (exists && !S_ISREG(st.st_mode))
		return open_in_place(o);
	if (!realpath(path, o->target) || !exists)
		snprintf(o->target, sizeof(o->target), "%s", path);
	if (snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.XXXXXX", o->target) >= (int)sizeof(o->tmp)) {
		error("the path '%.64s...' is too long", path);
		return -1;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	if (exists)
		fchmod(fd, st.st_mode & 07777);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		error("cannot write '%s': %s", path, strerror(errno));
		close(fd);
		unlink(o->tmp);
		return -1;
	}
	return 0;
}

int outfile_commit(struct outfile *o, const char *text, size_t len)
{
	int err = 0;

	if (!o->f)
		return 0;
	if (!text)
		err = -ENOMEM;
	else if (fwrite(text, 1, len, o->f) != len || fflush(o->f))
		err = -errno;
	if (o->f == stdout) {
		o->f = NULL;
		if (err)
			error("cannot write the JSON to standard output: %s", strerror(-err));
		return err ? -1 : 0;
	}
	if (fclose(o->f) && !err)
		err = -errno;
	o->f = NULL;
	if (!err && o->tmp[0] && rename(o->tmp, o->target))
		err = -errno;
	if (err) {
		error("cannot write '%s': %s", o->path, strerror(-err));
		if (o->tmp[0])
			unlink(o->tmp);
		return -1;
	}
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f && o->f != stdout) {
		fclose(o->f);
		if (o->tmp[0])
			unlink(o->tmp);
	}
	o->f = NULL;
}
