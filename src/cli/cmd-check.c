// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-check.c - `ukbench check [FUNCTION...]`: the vDSO against the
 * system call, one line per function and check, and a summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "options.h"
#include "rows.h"
#include "runner.h"
#include "width.h"

enum {
	O_VERIFY_ONLY = 1,
	O_ABI_ONLY,
};

/* check --format: the rows' formats, then KTAP */
#define CHECK_FORMATS ROWS_FORMATS "|ktap"
#define CHECK_KTAP    3
_Static_assert(CHECK_KTAP == ROWS_CSV + 1, "ktap follows the rows' formats");

struct check_cli {
	struct check_opts o;
	int ktap, wide;
	enum rows_fmt fmt;
	int format; /* ROWS_FORMATS, then ktap */
};

static const struct opt check_opts_table[] = {
	OPT_DOUBLE("duration", 0, "SEC", "verify each function this long", 0.001, 3600,
		   struct check_cli, o.duration_s, OPT_DEF("1")),
	OPT_CALL("verify-only", 0, NULL, "only the verify checks", O_VERIFY_ONLY),
	OPT_CALL("abi-only", 0, NULL, "only the abi checks", O_ABI_ONLY),
	OPT_BOOL("ktap", 0, "KTAP output for kselftest-style harnesses", struct check_cli, ktap),
	OPT_CHOICE("format", 'f', CHECK_FORMATS, "table (default), json, csv or ktap",
		   struct check_cli, format),
	OPT_BOOL(
	    "wide", 'W',
	    "a line a check however long; otherwise the details fold\nto fit the terminal, or 80 "
	    "columns",
	    struct check_cli, wide),
	OPT_END,
};

const struct command cmd_check_def = {
	.name = "check",
	.fn = cmd_check,
	.summary = "check the vDSO against the system call: answers and failures",
	.synopsis = "[--duration SEC] [--verify-only | --abi-only]\n"
		    "                     [--format FMT] [FUNCTION...]",
	.about = "Checks every vDSO function ukbench can find against the system call.\n"
		 "verify: clock_gettime (every clock) and gettimeofday must lie between two\n"
		 "system-call reads around them, never go backwards and be well formed;\n"
		 "clock_getres must equal the system call's; time must fall within its\n"
		 "seconds; getcpu must agree on every allowed CPU; getrandom must return the\n"
		 "length asked, change, and differ between parent and child after fork().\n"
		 "In a new time namespace with offsets (+1 day monotonic, +2 days boottime)\n"
		 "the vDSO's clocks must include them, and getrandom must not fall back to\n"
		 "the system call once seeded (skipped, with why, where namespaces are not\n"
		 "permitted).\n"
		 "abi: NULL, unmapped, read-only and PROT_NONE output pointers, gettimeofday's\n"
		 "timezone pointer, getcpu's cpu, node and tcache pointers in every\n"
		 "combination, and invalid clock ids, each in a child process: the vDSO's\n"
		 "result, and what it wrote, against the system call's.\n"
		 "A vDSO killed by SIGSEGV where the system call returns EFAULT is\n"
		 "'known' (it cannot check user pointers): neither a pass nor a failure.\n"
		 "\n"
		 "FUNCTION is one of clock_gettime, gettimeofday, time, clock_getres, getcpu,\n"
		 "getrandom; a function this vDSO does not export is skipped, with why.",
	.opts = check_opts_table,
	.footer = "examples:\n"
		  "  ukbench check\n"
		  "  ukbench check --duration 10 clock_gettime gettimeofday\n",
};

static volatile sig_atomic_t check_stop;

static void on_signal(int sig)
{
	check_stop = sig;
}

static int set_option(void *ctx, int id, const char *arg)
{
	struct check_cli *c = ctx;

	(void)arg;
	switch (id) {
	case O_VERIFY_ONLY:
		c->o.abi = 0;
		return 0;
	case O_ABI_ONLY:
		c->o.verify = 0;
		return 0;
	}
	return -1;
}

/* The checks as JSON or CSV rows. */
static void print_rows(const struct check_result *r, size_t n, enum rows_fmt fmt)
{
	static const char *const keys[] = { "kind",   "function", "what", "verdict",
					    "detail", "checks",	  NULL };
	struct rows out;

	rows_begin(&out, stdout, fmt, keys);
	for (size_t i = 0; i < n; i++) {
		rows_str(&out, r[i].kind);
		rows_str(&out, r[i].func);
		rows_str(&out, r[i].what);
		rows_str(&out, check_verdict_name(r[i].verdict));
		rows_str(&out, r[i].detail);
		rows_int(&out, (long long)r[i].checks);
	}
	rows_end(&out);
}

/* The checks as a line each (folded to @cols), or KTAP; then the counts. */
static void print_lines(const struct check_result *r, size_t n, int ktap, int cols,
			const size_t *count)
{
	if (ktap)
		printf("KTAP version 1\n1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		char what[128];

		snprintf(what, sizeof(what), "%s%s%s", r[i].func, r[i].what[0] ? " " : "",
			 r[i].what);
		if (!ktap) {
			/* the detail folds under itself where the line would not fit */
			int at = printf("%-7s %-*s %-8s ", r[i].kind, cols && cols < 100 ? 34 : 42,
					what, check_verdict_name(r[i].verdict));

			put_folded(stdout, r[i].detail, at, 8, cols);
			continue;
		}
		printf("# %s %s: %s\n", r[i].kind, what, r[i].detail);
		if (r[i].verdict == CHECK_FAILED)
			printf("not ok %zu %s %s\n", i + 1, r[i].kind, what);
		else if (r[i].verdict == CHECK_SKIPPED)
			printf("ok %zu %s %s # SKIP %s\n", i + 1, r[i].kind, what, r[i].detail);
		else
			printf("ok %zu %s %s\n", i + 1, r[i].kind, what);
	}
	printf("%s%zu ok, %zu FAILED, %zu skipped, %zu known behaviour\n", ktap ? "# " : "\n",
	       count[CHECK_OK], count[CHECK_FAILED], count[CHECK_SKIPPED], count[CHECK_KNOWN]);
}

int cmd_check(int argc, char **argv)
{
	struct check_cli cli = { .o = { .verify = 1, .abi = 1 } };
	struct check_opts o;
	struct check_result *r;
	size_t n, count[CHECK_KNOWN + 1] = { 0 };
	int first, ktap, rc;

	rc = opts_parse(&cmd_check_def, argc, argv, 0, set_option, &cli, &first);
	if (rc)
		return rc > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (cli.format == CHECK_KTAP)
		cli.ktap = 1;
	else
		cli.fmt = (enum rows_fmt)cli.format;
	o = cli.o;
	ktap = cli.ktap;
	if (!o.verify && !o.abi) {
		error("--verify-only and --abi-only exclude each other");
		return UKB_EXIT_USAGE;
	}
	for (int i = first; i < argc; i++) {
		int known = 0;

		for (const char *const *f = check_functions; *f; f++)
			known |= !strcmp(*f, argv[i]);
		if (!known) {
			error("unknown function '%s'", argv[i]);
			fprintf(stderr, "hint: the functions are");
			for (const char *const *f = check_functions; *f; f++)
				fprintf(stderr, "%s %s", f == check_functions ? "" : ",", *f);
			fputc('\n', stderr);
			return UKB_EXIT_USAGE;
		}
	}
	/* the function names, NULL-ended as argv itself is */
	if (first < argc)
		o.funcs = (const char *const *)argv + first;
	o.stop = &check_stop;
	run_catch_stops(on_signal);
	if (check_run(&o, &r, &n)) {
		error("out of memory");
		return UKB_EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++)
		count[r[i].verdict]++;
	if (cli.fmt != ROWS_TABLE && !ktap)
		print_rows(r, n, cli.fmt);
	else
		print_lines(r, n, ktap, out_columns(stdout, cli.wide), count);
	free(r);
	if (check_stop) {
		fflush(stdout);
		error("interrupted by signal %d: the checks above ran, the rest did not",
		      (int)check_stop);
		return 128 + (int)check_stop;
	}
	return count[CHECK_FAILED] ? UKB_EXIT_FAIL : UKB_EXIT_OK;
}
