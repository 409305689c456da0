// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-list.c - `ukbench list`: every benchmark and path, and whether this
 * machine can run it. Availability is probed, not guessed: each path's
 * setup makes one real call, exactly as `run` would before measuring.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"

static const char list_usage[] =
    "usage: ukbench list [--names] [PATTERN...]\n"
    "\n"
    "Lists benchmarks, their paths, what each path calls, and whether it is\n"
    "available here; when not, why (no vDSO, symbol not exported, system call\n"
    "blocked). '*' marks the default suite.\n"
    "\n"
    "options:\n"
    "  --names      one NAME/PATH per line, for scripts\n"
    "  -h, --help   this text\n"
    "\n"
    "examples:\n"
    "  ukbench list\n"
    "  ukbench list time.clock_gettime\n"
    "  ukbench list --names '*/vdso'\n";

int cmd_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "names", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ukb_case *cases;
	size_t n;
	int names = 0, c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'N':
			names = 1;
			break;
		case 'h':
			fputs(list_usage, stdout);
			return UKB_EXIT_OK;
		default:
			error("unknown option '%s'; see 'ukbench list --help'", argv[optind - 1]);
			return UKB_EXIT_USAGE;
		}
	}
	if (select_cases(argc - optind, argv + optind, 0, NULL, &cases, &n))
		return UKB_EXIT_USAGE;

	for (size_t i = 0; i < n; i++) {
		struct ukb_result r;
		char sym[128], what[256];

		if (names) {
			printf("%s/%s\n", cases[i].name, cases[i].path->name);
			continue;
		}
		if (i == 0 || strcmp(cases[i].name, cases[i - 1].name)) {
			printf("%s%s %s\n  %s\n", i ? "\n" : "",
			       cases[i].bench->flags & UKB_DEFAULT ? "*" : " ", cases[i].name,
			       cases[i].bench->summary);
			for (const struct ukb_param *q = cases[i].bench->params; q && q->name; q++)
				printf("    -P %s=N  %s (default %ld, %ld..%ld)\n", q->name,
				       q->help, q->def, q->min, q->max);
		}
		ukb_probe(cases[i].bench, cases[i].variant, cases[i].path, UKB_CPU_ANY, &r);
		vdso_symbol_of(cases[i].path, sym, sizeof(sym));
		if (sym[0])
			snprintf(what, sizeof(what), "%s (%s)", cases[i].path->detail, sym);
		else
			snprintf(what, sizeof(what), "%s", cases[i].path->detail);
		if (r.status == UKB_OK)
			printf("    %-8s %-12s %s\n", cases[i].path->name, "available", what);
		else
			printf("    %-8s %-12s %s: %s\n", cases[i].path->name,
			       r.status == UKB_SKIPPED ? "not allowed" : "n/a", what, r.reason);
	}
	free(cases);
	return UKB_EXIT_OK;
}
