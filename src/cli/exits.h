/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exits.h - the exit statuses of every command, from one table (exits.c):
 * what --help, the man pages and the test of real exits read.
 */
#ifndef UKB_CLI_EXITS_H
#define UKB_CLI_EXITS_H

#include <stddef.h>
#include <stdio.h>

struct exit_row {
	const char *cmd;  /* the command; NULL: every command */
	const char *code; /* "0", "125", "128+N" */
	const char *text; /* what it means, one sentence */
};

/*
 * The rows of @cmd into @out (at most @max), by code, its own before the
 * shared one of a code; how many.
 */
size_t exits_of(const char *cmd, const struct exit_row **out, size_t max);

/* "exit status:" and a line (or more) per status of @cmd, to @f. */
void exits_help(FILE *f, const char *cmd);

#endif
