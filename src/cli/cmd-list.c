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
#include "plugin-opts.h"
#include "plugin.h"
#include "rows.h"
#include "width.h"
#include "vdso.h"

struct list_cli {
	int names, all, verbose;
	enum rows_fmt fmt;
	const char *plugin; /* the last --plugin */
};

static const struct opt list_opts[] = {
	OPT_BOOL("names", 0, "one NAME/PATH per line, for scripts", struct list_cli, names),
	OPT_BOOL("all", 'a', "also the paths this machine cannot run, with why", struct list_cli,
		 all),
	OPT_BOOL("verbose", 'v',
		 "every variant and path, with what each calls (as a pattern shows)",
		 struct list_cli, verbose),
	OPT_CHOICE("format", 'f', ROWS_FORMATS, "table (default), json or csv: one row per path",
		   struct list_cli, fmt),
	OPT_FUNC("plugin", 0, "FILE.so", "list the benchmarks of a plug-in too (see run --plugin)",
		 plugin_option, const char *, struct list_cli, plugin),
	OPT_END,
};

const struct command cmd_list_def = {
	.name = "list",
	.fn = cmd_list,
	.summary = "list benchmarks and paths, and whether this machine has them",
	.synopsis = "[-v] [--all] [--names | --format FMT] [PATTERN...]",
	.about = "Lists benchmarks, their paths and what each path calls. Without a pattern\n"
		 "it shows a line per benchmark with the paths this machine has; -v, or a\n"
		 "pattern, every variant and path with what it calls. --all, or a pattern,\n"
		 "shows what does not run here too, with why\n"
		 "not (no vDSO, symbol not exported, system call blocked, a 64-bit time call\n"
		 "on a 64-bit machine). '*' marks the default suite. A pattern is a name, a\n"
		 "glob, a dotted prefix (time.clock_gettime), or one word of the names\n"
		 "(getrandom: random.getrandom.*), with /PATH to pick paths.",
	.opts = list_opts,
	.footer = "examples:\n"
		  "  ukbench list\n"
		  "  ukbench list -v\n"
		  "  ukbench list time.clock_gettime\n"
		  "  ukbench list --names '*/vdso'\n"
		  "  ukbench list --all\n",
};

/* The variants of @b when there are so many that the table shows them as a range; else 0. */
static size_t many_variants(const struct ukb_bench *b)
{
	size_t n = 0;

	for (const struct ukb_variant *v = b->variants; v && v->name; v++)
		n++;
	return n > 16 ? n : 0;
}

/*
 * A line per benchmark: the default suite's mark, its name, how many
 * variants, the paths this machine has (or every path, with @all), what it
 * measures. 0.
 */
static int list_compact(const struct ukb_case *cases, const struct ukb_result *r, size_t n, int all,
			int cols)
{
	char(*paths)[128] = calloc(n + 1, sizeof(*paths));
	int name_w = 0, paths_w = 0;
	size_t shown = 0;

	if (!paths)
		return -1;
	/* each benchmark's paths here, named once, in the first of its cases */
	for (size_t i = 0; i < n; i++) {
		size_t f = i;

		while (f && cases[f - 1].bench == cases[i].bench)
			f--;
		if (!all && r[i].status != UKB_OK)
			continue;
		if (!strstr(paths[f], cases[i].path->name) &&
		    strlen(paths[f]) + strlen(cases[i].path->name) + 2 < sizeof(paths[f]))
			snprintf(paths[f] + strlen(paths[f]), sizeof(paths[f]) - strlen(paths[f]),
				 "%s%s", paths[f][0] ? " " : "", cases[i].path->name);
	}
	for (size_t i = 0; i < n; i++)
		if (paths[i][0]) {
			int w =
			    (int)strlen(cases[i].bench->name) + (cases[i].bench->variants ? 2 : 0);

			name_w = w > name_w ? w : name_w;
			/* a long list of paths (the labs') does not widen every line */
			w = (int)strlen(paths[i]);
			paths_w = w > paths_w && w <= 24 ? w : paths_w;
		}
	for (size_t i = 0; i < n; i++) {
		char name[160], line[512];

		if (!paths[i][0])
			continue;
		snprintf(name, sizeof(name), "%s%s", cases[i].bench->name,
			 cases[i].bench->variants ? ".*" : "");
		snprintf(line, sizeof(line), "%c %-*s  %-*s  %s",
			 cases[i].bench->flags & UKB_DEFAULT ? '*' : ' ', name_w, name, paths_w,
			 paths[i], cases[i].bench->summary);
		/* one line each: what it measures is cut at the width */
		if (cols > 4 && (int)strlen(line) > cols)
			snprintf(line + cols - 3, 4, "...");
		puts(line);
		shown++;
	}
	free(paths);
	printf("\n%zu benchmarks, * the default suite; 'ukbench list -v' every variant and path,\n"
	       "'ukbench list NAME' one benchmark, '--all' what does not run here\n",
	       shown);
	return 0;
}

static const char *status_word(const struct ukb_result *r)
{
	return r->status == UKB_OK ? "available" : r->status == UKB_SKIPPED ? "not allowed" : "n/a";
}

/* The cases as rows of JSON or CSV, those this machine cannot run when @all. */
static void list_rows(enum rows_fmt fmt, const struct ukb_case *cases, const struct ukb_result *r,
		      size_t n, int all)
{
	static const char *const keys[] = { "name",   "benchmark",   "path",   "default", "status",
					    "detail", "vdso_symbol", "reason", NULL };
	struct rows out;

	rows_begin(&out, stdout, fmt, keys);
	for (size_t i = 0; i < n; i++) {
		char sym[128];

		if (!all && r[i].status != UKB_OK)
			continue;
		ukb_vdso_symbol_of(cases[i].path->vdso_sym, sym, sizeof(sym));
		rows_str(&out, cases[i].name);
		rows_str(&out, cases[i].bench->name);
		rows_str(&out, cases[i].path->name);
		rows_bool(&out, !!(cases[i].bench->flags & UKB_DEFAULT));
		rows_str(&out, status_word(&r[i]));
		rows_str(&out, cases[i].path->detail);
		rows_str(&out, sym[0] ? sym : NULL);
		rows_str(&out, r[i].status == UKB_OK ? NULL : r[i].reason);
	}
	rows_end(&out);
}

/* A benchmark's head in the long listing: its name, summary and parameters. */
static void list_head(const struct ukb_case *c, int after, int cols)
{
	char name[160];

	if (many_variants(c->bench))
		snprintf(name, sizeof(name), "%s.N, N = %s to %s", c->bench->name,
			 c->bench->variants[0].name,
			 c->bench->variants[many_variants(c->bench) - 1].name);
	else
		snprintf(name, sizeof(name), "%s", c->name);
	printf("%s%s %s\n  ", after ? "\n" : "", c->bench->flags & UKB_DEFAULT ? "*" : " ", name);
	put_folded(stdout, c->bench->summary, 2, 4, cols);
	for (const struct ukb_param *q = c->bench->params; q && q->name; q++) {
		char line[512];

		snprintf(line, sizeof(line), "-P %s=N  %s (default %ld, %ld..%ld)", q->name,
			 q->help, q->def, q->min, q->max);
		fputs("    ", stdout);
		put_folded(stdout, line, 4, 8, cols);
	}
}

/* A path's line in the long listing: what it calls, and whether it runs here. */
static void list_path(const struct ukb_case *c, const struct ukb_result *r, int cols)
{
	char sym[128], what[256], line[600];

	ukb_vdso_symbol_of(c->path->vdso_sym, sym, sizeof(sym));
	if (sym[0])
		snprintf(what, sizeof(what), "%s (%s)", c->path->detail, sym);
	else
		snprintf(what, sizeof(what), "%s", c->path->detail);
	if (r->status == UKB_OK)
		snprintf(line, sizeof(line), "%s", what);
	else
		snprintf(line, sizeof(line), "%s: %s", what, r->reason);
	printf("    %-8s %-12s ", c->path->name, status_word(r));
	put_folded(stdout, line, 26, 8, cols);
}

int cmd_list(int argc, char **argv)
{
	struct ukb_selection sel;
	struct ukb_case *cases;
	struct ukb_result *r;
	struct ukb_err e;
	struct list_cli c = { 0 };
	int first, rc, all, cols;
	size_t n, hidden = 0;
	const char *shown = NULL;

	rc = opts_parse(&cmd_list_def, argc, argv, 0, NULL, &c, &first);
	if (rc)
		return rc > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (ukb_select(&sel, argc - first, argv + first, 0, NULL, 0, &e)) {
		error_hint(&e);
		ukb_selection_release(&sel);
		return UKB_EXIT_USAGE;
	}
	cases = sel.cases;
	n = sel.n;
	/* a pattern names what the user wants to see, available or not */
	all = c.all || first < argc;
	r = calloc(n ? n : 1, sizeof(*r));
	if (!r) {
		ukb_selection_release(&sel);
		error("out of memory");
		return UKB_EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++) {
		ukb_probe(cases[i].bench, cases[i].variant, cases[i].path, UKB_CPU_ANY, &r[i]);
		hidden += !all && r[i].status != UKB_OK;
	}
	if (c.fmt != ROWS_TABLE && !c.names) {
		list_rows(c.fmt, cases, r, n, all);
		free(r);
		ukb_selection_release(&sel);
		return UKB_EXIT_OK;
	}
	cols = out_columns(stdout, 0);
	if (!c.verbose && !c.names && first == argc) {
		rc = list_compact(cases, r, n, c.all, cols ? cols : 80);
		free(r);
		ukb_selection_release(&sel);
		if (rc)
			error("out of memory");
		return rc ? UKB_EXIT_FAIL : UKB_EXIT_OK;
	}
	for (size_t i = 0; i < n; i++) {
		if (!all && r[i].status != UKB_OK)
			continue;
		if (c.names) {
			printf("%s/%s\n", cases[i].name, cases[i].path->name);
			continue;
		}
		/* a sweep (lab.align's 128 offsets): its variants once, by their range */
		if (many_variants(cases[i].bench) && cases[i].variant != cases[i].bench->variants)
			continue;
		if (!shown || strcmp(cases[i].name, shown)) {
			list_head(&cases[i], !!shown, cols);
			shown = cases[i].name;
		}
		list_path(&cases[i], &r[i], cols);
	}
	if (hidden && !c.names) {
		char line[256];

		snprintf(line, sizeof(line),
			 "%zu path%s this machine cannot run %s not shown: 'ukbench list --all' "
			 "shows them, with why",
			 hidden, hidden == 1 ? "" : "s", hidden == 1 ? "is" : "are");
		putchar('\n');
		put_folded(stdout, line, 0, 0, cols);
	}
	free(r);
	ukb_selection_release(&sel);
	return UKB_EXIT_OK;
}
