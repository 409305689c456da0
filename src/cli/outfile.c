// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outfile.c - result files written whole (see outfile.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"

int outfile_open(struct outfile *o, const char *path)
{
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (!path)
		return 0;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(o->tmp)) {
		error("the path '%.64s...' is too long", path);
		return -1;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
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
	else if (fwrite(text, 1, len, o->f) != len)
		err = -errno;
	if (o->f == stdout) {
		o->f = NULL;
		if (fflush(stdout) && !err)
			err = -errno;
		if (err)
			error("cannot write the JSON to standard output: %s", strerror(-err));
		return err ? -1 : 0;
	}
	if (fclose(o->f) && !err)
		err = -errno;
	o->f = NULL;
	if (!err && rename(o->tmp, o->path))
		err = -errno;
	if (err) {
		error("cannot write '%s': %s", o->path, strerror(-err ? -err : EIO));
		unlink(o->tmp);
		return -1;
	}
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f && o->f != stdout) {
		fclose(o->f);
		unlink(o->tmp);
	}
	o->f = NULL;
}
