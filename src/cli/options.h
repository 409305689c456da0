/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.h - one option table per command.
 *
 * A command declares its options once, in a table of struct opt: the long
 * and short names, the value's name, one line of help and an id. From it
 * come the getopt_long() tables, the `--help` text, and (for the test that
 * checks them) the list every option must appear in. A command's
 * description and examples sit beside the table in struct command.
 */
#ifndef UKB_CLI_OPTIONS_H
#define UKB_CLI_OPTIONS_H

#include <stdio.h>

struct opt {
	const char *name; /* long name, without "--" */
	int shrt;	  /* short letter, or 0 */
	const char *arg;  /* the value's name ("SEC"), NULL for a flag */
	const char *help; /* what it does, with its default; "\n" continues a line */
	int id;		  /* handed to the command's handler; 'h' is --help */
};

/*
 * An option that takes one of a few words names them as its value,
 * separated by '|' ("table|json|csv"): the parser refuses any other with
 * the list, --help shows them, and the completions offer them.
 */

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;  /* one line for `ukbench --help`; NULL: hidden */
	const char *synopsis; /* "[options] [PATTERN...]" */
	const char *about;    /* what it does, a paragraph or two */
	const struct opt *opts;
	const char *footer; /* exit status, examples, ...; may be NULL */
};

/* Every command, in the order `ukbench --help` lists them; NULL ended. */
extern const struct command *const commands[];

/* The command named @name, or NULL. */
const struct command *command_find(const char *name);

/* The command a typo most likely meant (a few edits away), or NULL. */
const char *command_closest(const char *name);

/*
 * Parses the options of @argc/@argv (argv[0] the command's name) by the
 * command's table, calling @set for each with its id and value. --help
 * prints the help and returns 1; a bad option prints an error and returns
 * -1, and so does a @set that returns non-zero. @posix: stop at the first
 * operand (exec's command line). 0 otherwise, with *@first the index of the
 * first operand.
 */
int opts_parse(const struct command *c, int argc, char **argv, int posix,
	       int (*set)(void *ctx, int id, const char *arg), void *ctx, int *first);

/* The help text of @c to @f. */
void opts_help(FILE *f, const struct command *c);

#endif
