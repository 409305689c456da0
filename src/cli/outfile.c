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
 * as the store is: they hold host names and command lines; a report, made
 * to be shared, is made as the umask says; a file that is replaced keeps
 * its mode.
 *
 * The temporary name is the target's with ".tmp.PID" after it: a command
 * killed outright (SIGKILL, a power cut) leaves one behind, and the next
 * command that writes the same file removes every such file whose writer
 * is gone, never one a live process is writing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"
#include "stops.h"

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

/* Removes "@target.tmp.PID" files beside @target whose process is gone. */
static void remove_stale(const char *target)
{
	const char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target;
	char dir[PATH_MAX];
	size_t blen = strlen(base);
	struct dirent *d;
	DIR *dp;

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - target) + 1, target);
	else
		snprintf(dir, sizeof(dir), ".");
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		const char *pid = d->d_name + blen + 5;
		char *end;
		long n;

		if (strncmp(d->d_name, base, blen) || strncmp(d->d_name + blen, ".tmp.", 5) ||
		    *pid < '1' || *pid > '9')
			continue;
		errno = 0;
		n = strtol(pid, &end, 10);
		if (*end || errno || n <= 0 || n > INT_MAX || n == (long)getpid())
			continue;
		if (kill((pid_t)n, 0) && errno == ESRCH)
			unlinkat(dirfd(dp), d->d_name, 0);
	}
	closedir(dp);
}

/* Creates @o->tmp, our own name for it: a file of ours left by a process of the same pid goes. */
static int create_tmp(struct outfile *o)
{
	mode_t mode = o->shared ? 0666 : 0600;
	int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);

	if (fd < 0 && errno == EEXIST && !unlink(o->tmp))
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	return fd;
}

int outfile_open(struct outfile *o, const char *path)
{
	return outfile_open_opt(o, path, "--json", "the JSON");
}

static int open_mode(struct outfile *o, const char *path, const char *opt, const char *what,
		     int shared)
{
	struct stat st;
	int fd, exists;

	memset(o, 0, sizeof(*o));
	o->shared = shared;
	o->path = path;
	o->what = what;
	if (!path)
		return 0;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (!path[0]) {
		error("%s needs a file name, got an empty one", opt);
		return -1;
	}
	/* stat follows a link: what counts is what it names */
	exists = !stat(path, &st);
	if (exists && !S_ISREG(st.st_mode))
		return open_in_place(o);
	if (!realpath(path, o->target) || !exists)
		snprintf(o->target, sizeof(o->target), "%s", path);
	if (snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.%ld", o->target, (long)getpid()) >=
	    (int)sizeof(o->tmp)) {
		error("the path '%.64s...' is too long", path);
		return -1;
	}
	remove_stale(o->target);
	fd = create_tmp(o);
	if (fd < 0) {
		error("cannot write '%s': cannot create '%s' beside it to rename into place: %s",
		      path, o->tmp, strerror(errno));
		return -1;
	}
	stops_tmp_file(o->tmp);
	if (exists)
		fchmod(fd, st.st_mode & 07777);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		error("cannot write '%s': %s", path, strerror(errno));
		close(fd);
		unlink(o->tmp);
		stops_tmp_file(NULL);
		return -1;
	}
	return 0;
}

int outfile_open_opt(struct outfile *o, const char *path, const char *opt, const char *what)
{
	return open_mode(o, path, opt, what, 0);
}

int outfile_open_shared(struct outfile *o, const char *path, const char *opt, const char *what)
{
	return open_mode(o, path, opt, what, 1);
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
			error("cannot write %s to standard output: %s", o->what, strerror(-err));
		return err ? -1 : 0;
	}
	if (fclose(o->f) && !err)
		err = -errno;
	o->f = NULL;
	if (!err && o->tmp[0] && rename(o->tmp, o->target))
		err = -errno;
	stops_tmp_file(NULL);
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
		stops_tmp_file(NULL);
	}
	o->f = NULL;
}
