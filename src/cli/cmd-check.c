// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-check.c - `ukbench check [FUNCTION...]`: the vDSO against the
 * system call, one line per function and check, and a summary.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"

static const char check_usage[] =
    "usage: ukbench check [--duration SEC] [--verify-only | --abi-only] [--ktap] [FUNCTION...]\n"
    "\n"
    "Checks every vDSO function ukbench can find against the system call.\n"
    "verify: clock_gettime (every clock) and gettimeofday must lie between two\n"
    "system-call reads around them, never go backwards and be well formed;\n"
    "clock_getres must equal the system call's; time must fall within its\n"
    "seconds; getcpu must agree on every allowed CPU; getrandom must return the\n"
    "length asked, change, and differ between parent and child after fork().\n"
    "abi: NULL, unmapped, read-only and PROT_NONE output pointers, and invalid\n"
    "clock ids, each in a child process: the vDSO's result against the system\n"
    "call's. A vDSO killed by SIGSEGV where the system call returns EFAULT is\n"
    "'known' (it cannot check user pointers): neither a pass nor a failure.\n"
    "\n"
    "FUNCTION is one of clock_gettime, gettimeofday, time, clock_getres, getcpu,\n"
    "getrandom; a function this vDSO does not export is skipped, with why.\n"
    "\n"
    "options:\n"
    "  -d, --duration SEC   verify each function this long (default 1)\n"
    "      --verify-only    only the verify checks\n"
    "      --abi-only       only the abi checks\n"
    "      --ktap           KTAP output for kselftest-style harnesses\n"
    "\n"
    "exit status: 0 when nothing failed, 1 when a check failed, 2 for bad usage.\n"
    "\n"
    "examples:\n"
    "  ukbench check\n"
    "  ukbench check --duration 10 clock_gettime gettimeofday\n";

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "verify-only", no_argument, NULL, 'V' },
		{ "abi-only", no_argument, NULL, 'A' },
		{ "ktap", no_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct check_opts o = { .duration_s = 1, .verify = 1, .abi = 1 };
	struct check_result *r;
	size_t n, count[CHECK_KNOWN + 1] = { 0 };
	int c, ktap = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (parse_double("--duration", optarg, 0.001, 3600, &o.duration_s))
				return UKB_EXIT_USAGE;
			break;
		case 'V':
			o.abi = 0;
			break;
		case 'A':
			o.verify = 0;
			break;
		case 'K':
			ktap = 1;
			break;
		case 'h':
			fputs(check_usage, stdout);
			return UKB_EXIT_OK;
		case ':':
			error("option '%s' needs a value", argv[optind - 1]);
			return UKB_EXIT_USAGE;
		default:
			error("unknown option '%s'; see 'ukbench check --help'", argv[optind - 1]);
			return UKB_EXIT_USAGE;
		}
	}
	if (!o.verify && !o.abi) {
		error("--verify-only and --abi-only exclude each other");
		return UKB_EXIT_USAGE;
	}
	for (int i = optind; i < argc; i++) {
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
	if (optind < argc)
		o.funcs = (const char *const *)argv + optind;
	if (check_run(&o, &r, &n)) {
		error("out of memory");
		return UKB_EXIT_FAIL;
	}
	if (ktap)
		printf("KTAP version 1\n1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		char what[128];

		count[r[i].verdict]++;
		snprintf(what, sizeof(what), "%s%s%s", r[i].func, r[i].what[0] ? " " : "",
			 r[i].what);
		if (!ktap) {
			printf("%-7s %-42s %-8s %s\n", r[i].kind, what,
			       check_verdict_name(r[i].verdict), r[i].detail);
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
	free(r);
	return count[CHECK_FAILED] ? UKB_EXIT_FAIL : UKB_EXIT_OK;
}
