/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outfile.h - a file a command writes its result to, made whole or not at
 * all: a regular file is written under a temporary name beside it and
 * renamed into place at the end, so an interrupted command never leaves
 * half a file or clobbers an older one; a link is followed; a FIFO or a
 * device is written in place. "-" is standard output. The same for every
 * command that writes a file.
 */
#ifndef UKB_CLI_OUTFILE_H
#define UKB_CLI_OUTFILE_H

#include <limits.h>
#include <stdio.h>

struct outfile {
	const char *path;	 /* as given; NULL: none */
	char target[PATH_MAX];	 /* the file replaced: @path, or what its link names */
	char tmp[PATH_MAX + 16]; /* "" when written in place */
	const char *what;	 /* what is written, for messages: "the JSON" */
	FILE *f;
	int shared; /* a new file gets 0666 less the umask, not 0600 */
};

/* Opens @path (NULL: nothing to do); 0, or -1 with the error printed. */
int outfile_open(struct outfile *o, const char *path);

/* The same, for option @opt ("--output") that writes @what ("the report"). */
int outfile_open_opt(struct outfile *o, const char *path, const char *opt, const char *what);

/*
 * The same, for a file meant to be shared (a report): a new one is made
 * as the umask says (0644 under 022), not the owner's only.
 */
int outfile_open_shared(struct outfile *o, const char *path, const char *opt, const char *what);

/* Writes @len bytes of @text and puts the file in place; 0 or -1 (printed). */
int outfile_commit(struct outfile *o, const char *text, size_t len);

/* Drops an unfinished file. */
void outfile_abort(struct outfile *o);

#endif
