// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-compare.c - `ukbench compare BASE OTHER [OTHER...] [PATTERN...]`: the
 * change of each path against the base run, with its interval, the
 * minimum detectable effect and a verdict from one method
 * (src/compare/comparison.c); a geometric mean of the ratios; and for
 * automation, three answers: regressed (1), not regressed (0), cannot tell
 * at this machine's detectable effect (125, git bisect's "skip").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "desc.h"
#include "cli.h"
#include "cmp-table.h"
#include "report.h"
#include "width.h"
#include "cmp-plot.h"
#include "cmp-floor.h"
#include "cmp-formats.h"
#include "comparison.h"
#include "cmp-kcidb.h"
#include "kcidb-opts.h"
#include "options.h"
#include "output.h"
#include "runref.h"

enum {
	O_FAIL = 1,
	O_BISECT,
	O_ALL,
	O_LATEST,
};

struct compare_opts {
	enum cmp_fmt fmt;
	int wide, plot, explain;
	enum color_when color;
	struct rows out; /* JSON and CSV: one stream over every comparison */
	struct cmp_opts c;
	double floor_pct; /* --floor; < 0: the stored one */
	int pool, no_floor;
	const char *db;
	struct floor_choice fc; /* the floors of the comparison being printed */
	char **pats;
	int npats;
	int bisect; /* --bisect: an error stops 'git bisect run' */
	struct kcidb_ids kcidb;
	struct cmp_kcidb kd; /* --format kcidb: every comparison, one document */
};

static const struct opt compare_opts_table[] = {
	OPT_PERCENT("threshold", 't', "PCT", "noise threshold in %", 0, 1000, struct compare_opts,
		    c.threshold, OPT_DEF(CMP_DEF_TEXT(CMP_THRESHOLD_PCT))),
	OPT_DOUBLE("alpha", 0, "P", "significance level", 1e-9, 0.5, struct compare_opts, c.alpha,
		   OPT_DEF(CMP_DEF_TEXT(CMP_ALPHA_DEF))),
	OPT_CALL("fail-on-regression", 0, "PCT",
		 "exit 1 when a path regressed by more than PCT%, 125\nwhen a path cannot be told "
		 "from noise at PCT%, else 0",
		 O_FAIL),
	OPT_CALL("bisect", 0, "PCT", "the same, for 'git bisect run': 0 good, 1 bad, 125 skip",
		 O_BISECT),
	OPT_CALL("all", 0, NULL, "pool every run of a label, each boot one observation", O_ALL),
	OPT_CALL("latest", 0, NULL, "a label's latest run alone (default: its runs on that boot)",
		 O_LATEST),
	OPT_BOOL(
	    "force", 0,
	    "compare paths whose settings differ (parameters, threads,\nsize, exec's command), "
	    "marked",
	    struct compare_opts, c.force),
	OPT_BOOL("raw", 0,
		 "compare the measured means, without taking the machine's\nown drift out "
		 "(the reference)",
		 struct compare_opts, c.raw),
	OPT_BOOL("paired", 0,
		 "where the sides' runs of one boot alternated in time\n(A B A B), set each "
		 "against its neighbour: pays\nwhere the machine drifts slowly",
		 struct compare_opts, c.paired),
	OPT_DOUBLE("floor", 0, "PCT",
		   "variation between runs to add to each interval, in %\n"
		   "(default: learned from repeated runs of a label, else\n'ukbench calibrate')",
		   0, 100, struct compare_opts, floor_pct),
	OPT_BOOL("no-floor", 0, "add no floor: the interval of the processes alone",
		 struct compare_opts, no_floor),
	OPT_STRING("db", 0, "PATH", "the results database", struct compare_opts, db),
	OPT_CHOICE(
	    "format", 'f', CMP_FORMATS,
	    "table (default), json, csv, mail (a summary to paste\ninto a mail, 72 columns), "
	    "markdown (what 'report\n--format markdown' writes: tables, the environments,\nbox "
	    "plots), lkp (the 0-day robot's table: each mean\n\u00b1 its %stddev over the "
	    "processes, %change) or\nkcidb (KCIDB v5: a test a path, FAIL where it regressed\n"
	    "beyond the limit, PASS where its interval excludes\nthat, else DONE or SKIP with why)",
	    struct compare_opts, fmt),
	KCIDB_OPTS(struct compare_opts, kcidb),
	OPT_CHOICE("color", 0, COLOR_WHEN,
		   "auto (default: on a terminal, unless NO_COLOR is set),\nalways or never",
		   struct compare_opts, color),
	OPT_BOOL("wide", 'W',
		 "every column (MDE, p, p(mwu)) on a line a path, however\nwide; otherwise the "
		 "table fits the terminal, or 80 columns",
		 struct compare_opts, wide),
	OPT_BOOL("explain", 0,
		 "the method's paragraph before the table (and in --format mail), instead of its "
		 "line",
		 struct compare_opts, explain),
	OPT_BOOL("plot", 0,
		 "draw each path: a box plot a side of its process means on\none scale, under the "
		 "change, its interval and the verdict",
		 struct compare_opts, plot),
	OPT_END,
};

const struct command cmd_compare_def = {
	.name = "compare",
	.fn = cmd_compare,
	.summary = "compare runs: change, 95% CI, MDE, verdict",
	.synopsis = "[options] [BASE OTHER [OTHER...] [PATTERN...] | LABEL]",
	.about = "Compares each benchmark path of OTHER with BASE on their per-process means:\n"
		 "both figures, the change in % with its 95% confidence interval, the minimum\n"
		 "detectable effect (MDE, 80% power), the p-value and a verdict, all from one\n"
		 "method (Welch's t on the log ratio), so that interval and verdict agree:\n"
		 "  improved / regressed   significant (p < alpha) and beyond the threshold\n"
		 "  within noise           significant, the interval inside +-threshold\n"
		 "  no change              the interval inside +-threshold (equivalence)\n"
		 "  not significant        the interval reaches past the threshold\n"
		 "  cannot tell            the interval reaches past the MDE too: these runs\n"
		 "                         cannot tell a change of that size from noise\n"
		 "  unreplicated           a side measured in one process (run --processes 1)\n"
		 "  other state            a side made in another state of the machine\n"
		 "The Mann-Whitney U test's p (exact for small samples) is shown beside it.\n"
		 "\n"
		 "A run is an id (12, #12, id:12), a label (label:NAME; digits alone are a\n"
		 "label when no run has that id), or a ukbench JSON file. A label names its\n"
		 "runs made on the boot of its latest: the same thing measured again, pooled\n"
		 "(--latest: the latest alone; --all: every boot, each one observation).\n"
		 "Arguments after the first two that name no run are patterns (NAME[/PATH]).\n"
		 "Without runs, the two latest stored runs are compared (the older the base);\n"
		 "with one LABEL, the two latest runs of that label, each alone.\n"
		 "\n"
		 "The change is always other/base - 1 of the two figures printed beside it.\n"
		 "Each interval holds the floor: how much a path's mean moves between runs of\n"
		 "the same thing beyond what one run's processes show. It is learned from this\n"
		 "host's stored runs of the path: runs of one kernel build, boot and ukbench\n"
		 "build, each set against its group's mean (a label two runs or more share is\n"
		 "a group of its own), never from the runs compared; until they teach it, a\n"
		 "floor of 1.5% a run is assumed. A side pooled from several runs adds what\n"
		 "its own runs show. Where the path's slope on the reference timed beside its\n"
		 "batches is known (marked ~), the interval also holds the change at one speed\n"
		 "of the machine, with the floor at that speed: a change is called only where\n"
		 "it stands both as measured and at one speed, so that neither the machine's\n"
		 "state nor a reference a kernel change moved makes a verdict. The header says\n"
		 "where the floor came from, and when a side ran in another state of the\n"
		 "machine than its usual one. --wide shows the interval without the floor.",
	.opts = compare_opts_table,
	.footer = "examples:\n"
		  "  ukbench compare before after\n"
		  "  ukbench compare                      # the two latest runs\n"
		  "  ukbench compare before after 'time.*/vdso' syscall.null\n"
		  "  ukbench compare --all v6.17 v6.18\n"
		  "  # a kernel's bisection, the good kernel measured once first with\n"
		  "  # 'ukbench vm --boots 3 -l good -k bzImage.good syscall.null':\n"
		  "  git bisect run sh -c 'make -j8 bzImage || exit 125\n"
		  "    c=$(git rev-parse --short HEAD)\n"
		  "    ukbench vm --boots 3 -l $c -k arch/x86/boot/bzImage syscall.null ||\n"
		  "      exit 125\n"
		  "    ukbench compare --all --bisect 3 good $c syscall.null'\n",
};

static int set_option(void *ctx, int id, const char *arg)
{
	struct compare_opts *o = ctx;
	double d;

	switch (id) {
	case O_FAIL:
	case O_BISECT:
		o->bisect = id == O_BISECT;
		if (parse_double(id == O_FAIL ? "--fail-on-regression" : "--bisect", arg, 0, 1000,
				 &d))
			return -1;
		o->c.limit = d / 100;
		return 0;
	case O_ALL:
		o->pool = RUNREF_ALL;
		return 0;
	case O_LATEST:
		o->pool = RUNREF_LATEST;
		return 0;
	}
	return -1;
}

/* 0, 1 after --help, -1 on bad usage; *@first the first run. */
static int parse(int argc, char **argv, struct compare_opts *o, int *first)
{
	int rc;

	o->c = cmp_defaults();
	o->floor_pct = -1;
	o->pool = RUNREF_BOOT;
	rc = opts_parse(&cmd_compare_def, argc, argv, 0, set_option, o, first);
	if (rc)
		return rc;
	if (o->plot && o->fmt != CMPF_TABLE) {
		error("--plot draws in the terminal; it does not go with --format");
		return -1;
	}
	return 0;
}

/*
 * No run named: the two latest stored runs; one label: the two latest runs
 * of it. Their ids into @ids, as "#ID" (the older first); 0, or -1 printed.
 */
static int latest_two(struct store *st, const char *label, char ids[2][32])
{
	struct store_filter f = { .label = label, .limit = 2 };
	struct store_run *list = NULL;
	char err[512];
	size_t n = 0;

	if (label && strpbrk(label, "*?[")) {
		error("'ukbench compare' needs a base run and at least one other, or one label; "
		      "see 'ukbench compare --help'");
		return -1;
	}
	if (st && store_list(st, &f, &list, &n, err, sizeof(err))) {
		error("%s", err);
		return -1;
	}
	if (n < 2) {
		free(list);
		if (label && !n)
			error("'ukbench compare' needs a base run and at least one other, or one "
			      "label to compare its two latest runs ('%s' is no label of a stored "
			      "run); see 'ukbench compare --help'",
			      label);
		else if (label)
			error("'ukbench compare %s': the label has one run; name a base run and "
			      "another",
			      label);
		else
			error(
			    "'ukbench compare' without runs compares the two latest, and %s stored",
			    n ? "one run is" : "no run is");
		return -1;
	}
	/* the list is newest first */
	snprintf(ids[0], sizeof(ids[0]), "#%lld", (long long)list[1].id);
	snprintf(ids[1], sizeof(ids[1]), "#%lld", (long long)list[0].id);
	free(list);
	return 0;
}

/* The floors: --floor, --no-floor, else learned (cmp-floor.h). */
static void choose_floor(struct compare_opts *o, struct store *st, struct rec_run *a,
			 struct rec_run *b)
{
	o->fc = (struct floor_choice){ .pct = o->floor_pct, .none = o->no_floor };
	cmp_choose_floor(&o->fc, st, a, b);
	if (o->fc.error[0])
		warning("%s", o->fc.error);
	o->c.floor = 0; /* each path carries its own */
}

/* What automation is told, path by path, against the limit. */
static void summarize(const struct cmp_row *rows, size_t n, const struct compare_opts *o)
{
	size_t count[3] = { 0 };

	for (size_t i = 0; i < n; i++)
		if (rows[i].ok)
			count[rows[i].outcome]++;
	printf("\nagainst a limit of %g%%: %zu regressed beyond it, %zu within it, %zu cannot be "
	       "told\nfrom noise at it (MDE or interval reaching it)\n",
	       100 * o->c.limit, count[CMP_REGRESSED], count[CMP_NOT_REGRESSED],
	       count[CMP_CANNOT_TELL]);
}

/* The build id the run @r's settings keep for plug-in @path ("": none, or not loaded). */
static const char *plugin_build_id(const struct rec_run *r, const char *path)
{
	const struct rec_settings *s = rec_settings(r);

	for (size_t i = 0; i < s->nplugins; i++)
		if (!strcmp(s->plugins[i].path, path))
			return s->plugins[i].build_id ? s->plugins[i].build_id : "unknown";
	return "";
}

/* A plug-in whose code is not the same in both runs: its build id changed. */
static void plugins_changed(const struct rec_run *a, const struct rec_run *b, int cols)
{
	const struct rec_settings *s = rec_settings(b);

	for (size_t i = 0; i < s->nplugins; i++) {
		const char *p = s->plugins[i].path;
		const char *ia = plugin_build_id(a, p), *ib = plugin_build_id(b, p);
		char line[1024], v[600];

		if (!ia[0] || !strcmp(ia, ib))
			continue;
		snprintf(line, sizeof(line),
			 "note: the plug-in %s is not the same in the two runs (build id %.127s, "
			 "then %.127s): its benchmarks' code changed",
			 vis(p, v, sizeof(v)), ia, ib);
		put_folded(stdout, line, 0, 6, cols);
	}
}

/*
 * Two builds of ukbench place their measured loops at other addresses, and
 * a path's figure can move with that alone (cpu.getcpu/vdso read 3.2 ns
 * in one build and 3.5-3.9 ns in the next, on one machine, interleaved).
 */
static void builds_differ(const struct rec_run *a, const struct rec_run *b, int cols)
{
	char va[160], vb[160], line[512];

	if (!a->ukbench_version[0] || !b->ukbench_version[0] ||
	    !strcmp(a->ukbench_version, b->ukbench_version))
		return;
	snprintf(line, sizeof(line),
		 "note: the runs were made by two builds of ukbench (%s, then %s): a path's "
		 "figure can move with where a build placed its code; compare runs of one "
		 "build",
		 vis(a->ukbench_version, va, sizeof(va)), vis(b->ukbench_version, vb, sizeof(vb)));
	put_folded(stdout, line, 0, 6, cols);
}

static void header(const struct rec_run *a, const char *da, const struct rec_run *b, const char *db,
		   const struct compare_opts *o)
{
	const char *ba = rec_env(a)->boot_id, *bb = rec_env(b)->boot_id;
	char ra[32], rb[32];

	cmp_replication(a, ra, sizeof(ra));
	cmp_replication(b, rb, sizeof(rb));
	{
		char line[1024];
		int cols = out_columns(stdout, o->wide);

		snprintf(line, sizeof(line), "base  %s: %s, %s, Linux %s, %s", da, a->started,
			 a->host, a->kernel_release, ra);
		put_folded(stdout, line, 0, 6, cols);
		snprintf(line, sizeof(line), "other %s: %s, %s, Linux %s, %s", db, b->started,
			 b->host, b->kernel_release, rb);
		put_folded(stdout, line, 0, 6, cols);
		plugins_changed(a, b, cols);
		builds_differ(a, b, cols);
	}
	{
		char text[1536], from[400];
		const struct floor_choice *fc = &o->fc;
		int cols = out_columns(stdout, o->wide);

		cols = cols ? cols : 80;
		if (o->explain)
			cmp_method_text(text, sizeof(text), &o->c, NULL);
		else
			cmp_method_line(text, sizeof(text), &o->c);
		put_folded(stdout, text, 0, 0, cols);
		cmp_floor_describe(fc, from, sizeof(from));
		snprintf(text, sizeof(text), "floor: %s%s", from,
			 strcmp(a->host, b->host) ? "; the runs are of two hosts, each with its own"
						  : "");
		put_folded(stdout, text, 0, 0, cols);
		if (o->c.paired && cmp_alternated(a, b)) {
			snprintf(text, sizeof(text),
				 "--paired: the sides alternated in time (%zu runs each), each run "
				 "is set against its neighbour of the other side, so that the "
				 "machine's drift between runs cancels",
				 a->npooled);
			put_folded(stdout, text, 0, 0, cols);
		} else if (o->c.paired) {
			put_folded(stdout,
				   "--paired: the sides did not alternate in time (as many runs of "
				   "one boot a side, two or more, started in turn): compared as "
				   "two groups",
				   0, 0, cols);
		}
		if (o->c.raw)
			put_folded(stdout, "--raw: compared as measured, the reference left aside",
				   0, 0, cols);
		else if (!rec_same_ref(a, b)) {
			snprintf(text, sizeof(text),
				 "compared as measured: the two runs timed different reference "
				 "work beside their batches (%s, %s: made by other versions or "
				 "builds of ukbench)",
				 rec_ref_kind(a), rec_ref_kind(b));
			put_folded(stdout, text, 0, 0, cols);
		}
		if (!fc->none && fc->pct < 0 && fc->paths[FLOOR_PRIOR])
			put_folded(stdout,
				   "note: this host's runs have not shown yet how far a run of "
				   "some paths moves: their floor is assumed, wide; runs of one "
				   "label on this kernel, or 'ukbench calibrate', teach it",
				   6, 2, cols);
		if (fc->wide_busy) {
			snprintf(text, sizeof(text),
				 "note: %zu path%s measured on a busy machine, %s floor learned "
				 "from quiet runs only: the floor is at least the one assumed "
				 "where none is known (%.1f%%)",
				 fc->wide_busy, fc->wide_busy == 1 ? "" : "s",
				 fc->wide_busy == 1 ? "its" : "their", 100 * LEARN_PRIOR_FLOOR);
			put_folded(stdout, text, 6, 2, cols);
		}
	}
	{
		int cols = out_columns(stdout, o->wide);

		if (!strchr(ra, 'b') && !strchr(rb, 'b') && ba && bb && ba[0] && !strcmp(ba, bb))
			put_folded(stdout,
				   "both runs in one boot: the variation between boots did not "
				   "enter (between two kernels it does)",
				   0, 0, cols ? cols : 80);
		else if (!strchr(ra, 'b') || !strchr(rb, 'b'))
			put_folded(stdout,
				   "one boot per side: the variation between boots was not "
				   "measured (--all pools the runs of a label, one observation "
				   "per boot)",
				   0, 0, cols ? cols : 80);
	}
	printf("\n");
}

/* A comparison in a format other than the table: its exit status, or -1. */
static int print_formats(const struct rec_run *a, const char *da, const struct rec_run *b,
			 const char *db, struct compare_opts *o, const struct cmp_row *rows,
			 size_t n, size_t *both)
{
	struct cmp_side sa = { a, da }, sb = { b, db };
	size_t ng = 0;

	for (size_t i = 0; i < n; i++)
		ng += rows[i].ok;
	if (o->fmt == CMPF_JSON || o->fmt == CMPF_CSV) {
		cmp_rows_out(&o->out, &sa, &sb, rows, n);
	} else if (o->fmt == CMPF_MARKDOWN) {
		/* the one markdown of a comparison: the report's */
		char from[400];
		struct report_cmp rc = { .a = a,
					 .b = b,
					 .desc_a = da,
					 .desc_b = db,
					 .rows = rows,
					 .n = n,
					 .o = &o->c,
					 .floor_from = from };

		cmp_floor_describe(&o->fc, from, sizeof(from));
		report_md_compare(stdout, &rc, 1);
	} else if (o->fmt == CMPF_LKP) {
		cmp_lkp(stdout, &sa, &sb, rows, n);
	} else if (o->fmt == CMPF_KCIDB) {
		if (cmp_kcidb_add(&o->kd, &sa, &sb, rows, n, &o->c)) {
			*both = ng;
			return error("out of memory comparing the runs");
		}
	} else {
		char from[400];

		cmp_floor_describe(&o->fc, from, sizeof(from));
		cmp_mail(stdout, &sa, &sb, rows, n, &o->c, from, o->explain);
	}
	*both = ng;
	return cmp_exit_status(rows, n);
}

/* The notes under the table's header: settings, other states, the reference. */
static void print_notes(const struct rec_run *a, const struct rec_run *b,
			const struct cmp_row *rows, size_t n, const struct compare_opts *o)
{
	char text[1024], la[300], lb[300], na[320], nb[320];
	int cols = out_columns(stdout, o->wide) ? out_columns(stdout, o->wide) : 80;

	if (cmp_settings_note(rows, n, o->c.force, text, sizeof(text)))
		put_folded(stdout, text, 9, 2, cols);
	if (cmp_other_note(rows, n, text, sizeof(text)))
		put_folded(stdout, text, 6, 2, cols);
	if (cmp_tell_note(rows, n, text, sizeof(text)))
		put_folded(stdout, text, 6, 2, cols);
	if (cmp_ref_note(rows, n, text, sizeof(text)))
		put_folded(stdout, text, 6, 2, cols);
	snprintf(na, sizeof(na), "'%s'", vis(a->label, la, sizeof(la)));
	snprintf(nb, sizeof(nb), "'%s'", vis(b->label, lb, sizeof(lb)));
	if (cmp_state_note(rows, n, a->label[0] ? na : "the base", b->label[0] ? nb : "the other",
			   text, sizeof(text)))
		put_folded(stdout, text, 6, 2, cols);
}

/*
 * Prints one comparison; returns the exit status automation gets for it
 * (0, 1, 125), and in *@both the paths compared; -1 when it could not.
 */
static int print_block(const struct rec_run *a, const char *da, const struct rec_run *b,
		       const char *db, struct compare_opts *o, int color, size_t *both)
{
	struct cmp_table ct;
	struct cmp_row *rows;
	size_t n, ng = 0, unrep = 0;
	char va[512], vb[512];
	int status;

	cmp_table_begin(&ct, stdout, out_columns(stdout, o->wide));
	compare_runs(a, b, &o->c, &rows, &n);
	if (!rows) {
		error("out of memory comparing the runs");
		*both = 0;
		return -1;
	}
	n = cmp_keep_matching(rows, n, o->pats, o->npats);
	/* nothing the two share: the caller says so, and nothing is printed before it */
	for (size_t i = 0; i < n; i++)
		ng += rows[i].ok;
	if (!ng) {
		free(rows);
		*both = 0;
		return 0;
	}
	ng = 0;
	if (o->fmt != CMPF_TABLE) {
		status = print_formats(a, da, b, db, o, rows, n, both);
		free(rows);
		return status;
	}
	header(a, da, b, db, o);
	print_notes(a, b, rows, n, o);
	if (o->plot)
		printf("box plots: ├ least, ▓ middle half, ┃ median, ┤ greatest of the process "
		       "means\n");
	else
		cmp_print_header(&ct);
	if ((a->id && a->id == b->id && !a->npooled && !b->npooled) ||
	    (a->uuid[0] && !strcmp(a->uuid, b->uuid)))
		printf("warning: %s and %s are one run: it is compared with itself\n",
		       vis(da, va, sizeof(va)), vis(db, vb, sizeof(vb)));
	for (size_t i = 0; i < n; i++) {
		if (o->plot) {
			putchar('\n');
			cmp_plot_row(stdout, &rows[i], out_columns(stdout, o->wide));
		} else {
			cmp_print_row(&ct, &rows[i], o->c.alpha, color);
		}
		if (!rows[i].ok)
			continue;
		ng++;
		unrep += !rows[i].replicated;
	}
	if (unrep)
		printf(
		    "\nwarning: %zu path%s measured in one process on a side (run --processes 1): "
		    "compared on\nbatches, which cannot show how much another process would "
		    "differ; no verdict\nof improved or regressed is given (rerun with --processes "
		    "5, "
		    "the default)\n",
		    unrep, unrep > 1 ? "s" : "");
	if (ng) {
		char geo[256];
		size_t apart = 0;

		printf("\n* p < %g; ~ judged at one speed of the machine too\n", o->c.alpha);
		/* the two p-values answer two questions: say which, where they part */
		for (size_t i = 0; i < n && !ct.narrow; i++)
			apart += rows[i].ok && rows[i].c.p_mwu < o->c.alpha &&
				 !(rows[i].c.p_welch < o->c.alpha);
		if (apart)
			put_folded(
			    stdout,
			    "p(mwu) ranks the processes' means alone; p adds the floor, how "
			    "far a run moves between runs. Where p(mwu) is small and p is "
			    "not, the processes differ, but not beyond what another run of the "
			    "same thing could show",
			    0, 2, out_columns(stdout, o->wide));
		cmp_geomean_text(rows, n, o->c.alpha, geo, sizeof(geo));
		put_folded(stdout, geo, 0, 2, out_columns(stdout, o->wide));
	}
	status = cmp_exit_status(rows, n);
	if (o->c.limit >= 0)
		summarize(rows, n, o);
	*both = ng;
	free(rows);
	return status;
}

/* Splits the operands: runs, then patterns; loads the runs. 0 or -1. */
static int load_runs(struct compare_opts *o, struct store *st, int argc, char **argv,
		     struct rec_run *runs, char (*desc)[256], int *nrun)
{
	*nrun = 2;
	while (*nrun < argc && runref_names_run(st, argv[*nrun]))
		(*nrun)++;
	o->pats = argv + *nrun;
	o->npats = argc - *nrun;
	for (int i = 0; i < *nrun; i++)
		if (runref_load(st, argv[i], o->pool, &runs[i], desc[i], sizeof(desc[i])))
			return -1;
	return 0;
}

/*
 * Under --bisect an error is no verdict on the commit: 'git bisect run'
 * would read 1 or 2 as bad; from 128 up it stops the bisection.
 */
static int bisect_stop(void)
{
	error("--bisect: stopping 'git bisect run' (exit 128): the error above is not a "
	      "verdict on this commit");
	return 128;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { 0 };
	struct rec_run *runs;
	struct store *st = NULL;
	char path[4096], (*desc)[256], ids[2][32], *two[2] = { ids[0], ids[1] };
	int nrun = 0, first, ret, status = 0, nargs;
	size_t both;

	ret = parse(argc, argv, &o, &first);
	if (ret > 0)
		return UKB_EXIT_OK;
	if (ret) {
		for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
			if (!strncmp(argv[i], "--bisect", 8))
				return bisect_stop();
		return UKB_EXIT_USAGE;
	}
	ret = UKB_EXIT_USAGE;
	nargs = argc - first;
	runs = calloc((size_t)(nargs < 2 ? 2 : nargs), sizeof(*runs));
	desc = calloc((size_t)(nargs < 2 ? 2 : nargs), sizeof(*desc));
	if (!runs || !desc) {
		error("out of memory");
		goto fail;
	}
	if (store_open_cli_reader(o.db, path, sizeof(path), &st) < 0)
		goto fail;
	if (nargs < 2) {
		if (latest_two(st, nargs ? argv[first] : NULL, ids))
			goto fail;
		if (load_runs(&o, st, 2, two, runs, desc, &nrun))
			goto fail;
		char va[512], vb[512], vl[512];

		if (o.fmt == CMPF_TABLE)
			printf("the two latest runs%s%s%s: %s against %s\n\n", nargs ? " of '" : "",
			       nargs ? vis(argv[first], vl, sizeof(vl)) : "", nargs ? "'" : "",
			       vis(desc[1], va, sizeof(va)), vis(desc[0], vb, sizeof(vb)));
	} else if (load_runs(&o, st, nargs, argv + first, runs, desc, &nrun)) {
		goto fail;
	}
	ret = UKB_EXIT_OK;
	if (o.fmt == CMPF_JSON || o.fmt == CMPF_CSV)
		rows_begin(&o.out, stdout, o.fmt == CMPF_JSON ? ROWS_JSON : ROWS_CSV, cmp_row_keys);
	for (int i = 1; i < nrun; i++) {
		int s;

		if (i > 1 && o.fmt != CMPF_JSON && o.fmt != CMPF_CSV)
			printf("\n");
		choose_floor(&o, st, &runs[0], &runs[i]);
		s = print_block(&runs[0], desc[0], &runs[i], desc[i], &o,
				use_color(stdout, o.color), &both);
		if (s < 0) {
			ret = UKB_EXIT_FAIL;
			break;
		}
		if (!both) {
			error("%s and %s share no measured benchmark path%s", desc[0], desc[i],
			      o.npats ? " that matches" : "");
			ret = UKB_EXIT_USAGE;
		}
		if (s == 1 || (s == 125 && status == 0))
			status = s;
	}
	if ((o.fmt == CMPF_JSON || o.fmt == CMPF_CSV) && rows_end(&o.out))
		ret = UKB_EXIT_FAIL;
	if (o.fmt == CMPF_KCIDB && ret == UKB_EXIT_OK && cmp_kcidb_print(stdout, &o.kcidb, &o.kd)) {
		error("writing the KCIDB document: %s", strerror(errno));
		ret = UKB_EXIT_FAIL;
	}
	if (ret == UKB_EXIT_OK && o.c.limit >= 0)
		ret = status;
	else if (o.bisect)
		ret = bisect_stop();
	goto out;
fail:
	if (o.bisect)
		ret = bisect_stop();
out:
	cmp_kcidb_release(&o.kd);
	for (int i = 0; i < nrun; i++)
		rec_run_release(&runs[i]);
	free(runs);
	free(desc);
	store_close(st);
	return ret;
}
