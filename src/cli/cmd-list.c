// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-list.c - `ukbench list`: every benchmark and path, and whether this
 * machine can run it. Availability is probed, not guessed: each path's
 * setup makes one real call, exactly as `run` would before measuring.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "output.h"
#include "vdso.h"

enum { O_NAMES = 1 };

static const struct opt list_opts[] = {
	{ "names", 0, NULL, "one NAME/PATH per line, for scripts", O_NAMES },
	{ NULL },
};

const struct command cmd_list_def = {
	.name = "list",
	.fn = cmd_list,
	.summary = "list benchmarks and paths, and whether this machine has them",
	.synopsis = "[--names] [PATTERN...]",
	.about = "Lists benchmarks, their paths, what each path calls, and whether it is\n"
		 "available here; when not, why (no vDSO, symbol not exported, system call\n"
		 "blocked). '*' marks the default suite.",
	.opts = list_opts,
	.footer = "examples:\n"
		  "  ukbench list\n"
		  "  ukbench list time.clock_gettime\n"
		  "  ukbench list --names '*/vdso'\n",
};

static int set_option(void *ctx, int id, const char *arg)
{
	(void)arg;
	*(int *)ctx = id == O_NAMES;
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct ukb_selection sel;
	struct ukb_case *cases;
	struct ukb_err e;
	int names = 0, first, rc;
	size_t n;

	rc = opts_parse(&cmd_list_def, argc, argv, 0, set_option, &names, &first);
	if (rc)
		return rc > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (ukb_select(&sel, argc - first, argv + first, 0, NULL, 0, &e)) {
		error_hint(&e);
		ukb_selection_release(&sel);
		return UKB_EXIT_USAGE;
	}
	cases = sel.cases;
	n = sel.n;
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
		ukb_vdso_symbol_of(cases[i].path->vdso_sym, sym, sizeof(sym));
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
	ukb_selection_release(&sel);
	return UKB_EXIT_OK;
}
