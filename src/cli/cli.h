/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - what the subcommands share: messages, exit codes, option values,
 * benchmark selection.
 *
 * Only this layer prints and decides exit codes; the core returns errors.
 */
#ifndef UKB_CLI_H
#define UKB_CLI_H

#include <stddef.h>

#include "ukbench.h"

enum ukb_exit {
	UKB_EXIT_OK = 0,
	UKB_EXIT_FAIL = 1,  /* a benchmark failed */
	UKB_EXIT_USAGE = 2, /* bad command line or input: nothing was run */
	UKB_EXIT_INTERRUPTED = 130,
};

/* Subcommands: argv[0] is the subcommand's name. */
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

/* git-style messages on stderr: "error: ...", "warning: ..." */
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Option values: parse @arg for option @opt within [min, max]. On a
 * malformed or out-of-range value, print an error naming both and return
 * -1; the caller exits with UKB_EXIT_USAGE.
 */
int parse_double(const char *opt, const char *arg, double min, double max, double *out);
int parse_uint(const char *opt, const char *arg, unsigned long min, unsigned long max,
	       unsigned long *out);

/*
 * A mkstemp() template "$TMPDIR/STEM.XXXXXX" (TMPDIR unset or empty: /tmp)
 * into @buf.
 */
void tmp_template(char *buf, size_t len, const char *stem);

/* Is @name a --help request among the arguments of a subcommand? */
int wants_help(int argc, char **argv);

/* ------------------------------------------------------------------ */
/* Selection of benchmark paths                                        */

/* One benchmark, in one variant, through one path. */
struct ukb_case {
	const struct ukb_bench *bench;
	const struct ukb_variant *variant;
	const struct ukb_path *path;
	char name[128]; /* bench[.variant] */
};

/* What the command line says about sized and threaded benchmarks. */
struct select_opts {
	const char *params; /* -P name=value,...; NULL: every parameter's default */
	const long *sizes;  /* --size, ended by 0; NULL: each benchmark's own */
	const char *flags;  /* --flags, a comma list of flag-set names; NULL: the first */
	unsigned threads;   /* --threads: up to this many; 0: online CPUs */
};

/*
 * Expands @patterns (NAME[/PATH], NAME a glob or a dotted prefix) into
 * cases, in registry order, each once. No pattern: the default suite when
 * @default_suite, else everything. A pattern that matches nothing is an
 * error naming the closest benchmarks; returns 0 or -1 (message printed).
 * The caller frees *@out.
 */
int select_cases(int npatterns, char **patterns, int default_suite, const struct select_opts *so,
		 struct ukb_case **out, size_t *n);

/*
 * The values of @bench's parameters with -P @spec applied, into @out (one
 * per bench->params entry). Unknown names are errors only when
 * @must_know; out-of-range values always. 0, or -1 with a message.
 */
int params_resolve(const struct ukb_bench *bench, const char *spec, int must_know, long *out);

/* "groups=10 loops=100" for the record; "" when the bench has none. */
void params_describe(const struct ukb_bench *bench, const long *values, char *buf, size_t len);

/* "1,4,16,4k,1m" into a 0-ended array (caller frees); -1 with a message. */
int parse_size_list(const char *opt, const char *arg, long **out);

/*
 * Does a stored result match @pattern (NAME[/PATH], as select_cases reads
 * it)? For results whose benchmark may not be registered here.
 */
int pattern_matches(const char *pattern, const char *name, const char *benchmark, const char *path);

#endif
