// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-runs.c - `ukbench runs`: the stored runs, newest first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "filter-opts.h"
#include "options.h"
#include "rows.h"
#include "runref.h"
#include "width.h"

struct runs_opts {
	struct store_filter f;
	const char *db;
	enum rows_fmt fmt;
	int wide, del, yes, names, size;
	const char *relabel;
};

static const struct opt runs_opts[] = {
	FILTER_OPTS(struct runs_opts, f, ""),
	OPT_SIZE("limit", 'n', "N", "at most N runs", 1, 100000000, struct runs_opts, f.limit),
	OPT_STRING("db", 0, "PATH", "the results database", struct runs_opts, db),
	OPT_CHOICE("format", 'f', ROWS_FORMATS, "table (default), json or csv", struct runs_opts,
		   fmt),
	OPT_BOOL(
	    "wide", 'W',
	    "every column (the source) however wide; otherwise the\ntable fits the terminal, or "
	    "80 columns",
	    struct runs_opts, wide),
	OPT_BOOL("delete", 0, "delete the runs RUN... names, or the filters select",
		 struct runs_opts, del),
	OPT_STRING("relabel", 0, "LABEL",
		   "give the runs RUN... names (or the filters select)\nthis label",
		   struct runs_opts, relabel),
	OPT_BOOL("yes", 'y', "change more than one run without asking", struct runs_opts, yes),
	OPT_BOOL("names", 0,
		 "each label once, then each id, a line each (what the\ncompletions offer)",
		 struct runs_opts, names),
	OPT_BOOL("size", 0,
		 "how large the store is: its bytes, runs, results and\nsamples, and the bytes a "
		 "run takes",
		 struct runs_opts, size),
	OPT_END,
};

const struct command cmd_runs_def = {
	.name = "runs",
	.fn = cmd_runs,
	.summary = "list the stored runs",
	.synopsis = "[--with-label GLOB] [--host HOST] [-n N] [--format FMT]\n"
		    "                    [--db PATH]\n"
		    "   or: ukbench runs --delete RUN... [--yes]\n"
		    "   or: ukbench runs --delete --with-label GLOB [--host HOST] ... [--yes]\n"
		    "   or: ukbench runs --relabel LABEL RUN... [--yes]\n"
		    "   or: ukbench runs --size [--format FMT] [--db PATH]",
	.about = "Lists the runs in the results database, newest first: id, time (UTC),\n"
		 "label, host, kernel, number of benchmark paths, and where it came from\n"
		 "(a run here, or the file it was imported from).\n"
		 "\n"
		 "--delete deletes runs with everything they hold, --relabel gives them\n"
		 "another label: the runs RUN... names, or those the filters select. A RUN\n"
		 "is an id (12, #12) or a label: the runs with it made on the boot of the\n"
		 "latest of them, as in show, compare and report (--with-label LABEL selects\n"
		 "them on every boot).\n"
		 "More than one run is changed only after a yes at the terminal, or with\n"
		 "--yes. A label's repeated runs teach the floor (see 'ukbench compare\n"
		 "--help'): relabel a run that was not the same thing as its label's others.",
	.opts = runs_opts,
	.old = (const struct opt_old[]){ FILTER_OLD, { NULL, 0, NULL } },
	.footer = "examples:\n"
		  "  ukbench runs\n"
		  "  ukbench runs --with-label 'v6.1*' -n 5\n"
		  "  ukbench runs --format json | jq '.[0].id'\n"
		  "  ukbench runs --relabel before-broken 12\n"
		  "  ukbench runs --delete scratch --yes\n"
		  "  ukbench runs --delete --with-label 'scratch*' --until 2026-06-30 --yes\n",
};

/*
 * --names: the labels (newest first, each once) and the ids, for shell
 * completion. A label a shell word cannot hold as it is (blanks, control
 * characters, quotes) is left out rather than offered wrong.
 */
static void print_names(const struct store_run *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *l = list[i].label;
		int seen = !l[0];

		for (const char *c = l; *c && !seen; c++)
			seen = (unsigned char)*c <= ' ' || *c == 0x7f || strchr("'\"\\$`", *c);
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(list[k].label, l);
		if (!seen)
			printf("%s\n", l);
	}
	for (size_t i = 0; i < n; i++)
		printf("%lld\n", (long long)list[i].id);
}

static int print_rows(const struct runs_opts *o, const struct store_run *list, size_t n)
{
	static const char *const keys[] = { "id",    "started", "label", "host", "kernel_release",
					    "paths", "source",	"uuid",	 NULL };
	struct rows r;

	rows_begin(&r, stdout, o->fmt, keys);
	for (size_t i = 0; i < n; i++) {
		rows_int(&r, list[i].id);
		rows_str(&r, list[i].started);
		rows_str(&r, list[i].label[0] ? list[i].label : NULL);
		rows_str(&r, list[i].host);
		rows_str(&r, list[i].kernel_release);
		rows_int(&r, (long long)list[i].nresults);
		rows_str(&r, list[i].source);
		rows_str(&r, list[i].uuid[0] ? list[i].uuid : NULL);
	}
	return rows_end(&r);
}

/* @b bytes as "1.5 MiB". */
static const char *bytes_text(char *buf, size_t len, double b)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (b >= 1024 && u < 4) {
		b /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
	return buf;
}

/* runs --size: the whole store, in the format asked. 0, or -1 (printed). */
static int print_size(const struct runs_opts *o, struct store *st)
{
	static const char *const keys[] = { "store",   "bytes",	  "free_bytes",	   "runs",
					    "results", "samples", "bytes_per_run", NULL };
	struct store_size z;
	char err[1024], a[32], b[32], c[32];
	double per;

	if (store_size(st, &z, err, sizeof(err)))
		return error("%s", err);
	/* what a run takes: the pages kept free for the runs to come are no run's */
	per = z.runs ? (double)(z.bytes - (z.free_bytes > 0 ? z.free_bytes : 0)) / (double)z.runs
		     : NAN;
	if (o->fmt != ROWS_TABLE) {
		struct rows r;

		rows_begin(&r, stdout, o->fmt, keys);
		rows_str(&r, store_where(st));
		rows_int(&r, z.bytes);
		rows_num(&r, z.free_bytes >= 0 ? (double)z.free_bytes : NAN);
		rows_int(&r, z.runs);
		rows_int(&r, z.results);
		rows_num(&r, z.samples >= 0 ? (double)z.samples : NAN);
		rows_num(&r, isfinite(per) ? round(per) : NAN);
		return rows_end(&r);
	}
	printf("%s: %s in %lld run%s", store_where(st), bytes_text(a, sizeof(a), (double)z.bytes),
	       z.runs, z.runs == 1 ? "" : "s");
	if (z.runs)
		printf(" (%s a run)", bytes_text(b, sizeof(b), per));
	printf(", %lld results", z.results);
	if (z.samples >= 0)
		printf(", %lld samples", z.samples);
	if (z.free_bytes > 0)
		printf("; %s free for reuse", bytes_text(c, sizeof(c), (double)z.free_bytes));
	putchar('\n');
	return 0;
}

/* Appends @k ids of @add to *@ids. 0, or -1 (printed). */
static int add_ids(int64_t **ids, size_t *n, const int64_t *add, size_t k)
{
	int64_t *v = realloc(*ids, (*n + k + 1) * sizeof(*v));

	if (!v)
		return error("out of memory");
	memcpy(v + *n, add, k * sizeof(*v));
	*n += k;
	*ids = v;
	return 0;
}

/*
 * The ids @ref names, by the rule of every command (runref.h): an id, or
 * a label's runs on the boot of its latest. 0, or -1 (printed).
 */
static int resolve(struct store *st, const char *ref, int64_t **ids, size_t *n)
{
	const char *p = ref[0] == '#' ? ref + 1 : ref;
	char *end, err[1024];
	long long id = strtoll(p, &end, 10);
	int64_t one, *got = NULL;
	size_t k = 0, all = 0;
	int ret;

	if (*p && !*end && id > 0) {
		struct rec_run run = { 0 };
		int rc = store_load(st, id, &run, err, sizeof(err));

		rec_run_release(&run);
		if (rc < 0)
			return error("%s", err);
		if (rc > 0)
			return error("no run #%lld in the store; 'ukbench runs' lists them", id),
			       -1;
		one = id;
		return add_ids(ids, n, &one, 1);
	}
	if (runref_label_ids(st, ref, &got, &k, &all))
		return -1;
	if (!k)
		return error("no run #%s or labelled '%s' in the store; 'ukbench runs' lists them",
			     p, ref),
		       -1;
	if (all > k) {
		char v[300];

		fprintf(
		    stderr,
		    "note: label '%s' names the %zu run%s of its latest boot; %zu more on other "
		    "boots stay (--with-label '%s' selects every one)\n",
		    vis(ref, v, sizeof(v)), k, k == 1 ? "" : "s", all - k, vis(ref, v, sizeof(v)));
	}
	ret = add_ids(ids, n, got, k);
	free(got);
	return ret;
}

/* The ids of the runs the filters select. 0, or -1 (printed). */
static int filtered(struct store *st, const struct store_filter *f, int64_t **ids, size_t *n)
{
	struct store_run *list = NULL;
	char err[1024];
	size_t k = 0;
	int ret = 0;

	if (store_list(st, f, &list, &k, err, sizeof(err)))
		return error("%s", err);
	/* a clean-up that finds nothing to clean has done its job */
	if (!k)
		printf("the filters select no run: nothing changed\n");
	for (size_t i = 0; i < k && !ret; i++)
		ret = add_ids(ids, n, &list[i].id, 1);
	free(list);
	return ret;
}

/* Asks before more than one run is changed; 1 when it may go on. */
static int confirm(const struct runs_opts *o, size_t n)
{
	char line[16];

	if (n < 2 || o->yes)
		return 1;
	if (!isatty(STDIN_FILENO)) {
		error("this would %s %zu runs: add --yes to say so", o->del ? "delete" : "relabel",
		      n);
		return 0;
	}
	fprintf(stderr, "%s %zu runs? [y/N] ", o->del ? "delete" : "relabel", n);
	if (!fgets(line, sizeof(line), stdin) || (line[0] != 'y' && line[0] != 'Y')) {
		fprintf(stderr, "nothing changed\n");
		return 0;
	}
	return 1;
}

/* --delete or --relabel of the runs @refs[0..n). */
static int edit(const struct runs_opts *o, char **refs, int n)
{
	char path[4096], err[1024];
	int64_t *ids = NULL;
	size_t nid = 0;
	struct store *st = store_open_cli(o->db, path, sizeof(path));
	int ret = UKB_EXIT_USAGE;

	if (!st)
		return UKB_EXIT_USAGE;
	if (!n && filtered(st, &o->f, &ids, &nid))
		goto out;
	if (!n && !nid) {
		ret = UKB_EXIT_OK;
		goto out;
	}
	for (int i = 0; i < n; i++)
		if (resolve(st, refs[i], &ids, &nid))
			goto out;
	/* a run named twice is changed once */
	for (size_t i = 0; i < nid; i++)
		for (size_t j = i + 1; j < nid; j++)
			if (ids[j] == ids[i])
				ids[j--] = ids[--nid];
	/* not said yes to: nothing done, as for any input refused */
	if (!confirm(o, nid))
		goto out;
	ret = UKB_EXIT_FAIL;
	if (store_edit(st, ids, nid, o->del ? NULL : o->relabel, err, sizeof(err))) {
		error("%s", err);
		goto out;
	}
	printf("%s %zu run%s in %s\n", o->del ? "deleted" : "relabelled", nid, nid == 1 ? "" : "s",
	       path);
	ret = UKB_EXIT_OK;
out:
	free(ids);
	store_close(st);
	return ret;
}

/*
 * A narrow table's cells of @r, each made visible: its label, host and
 * kernel cut with ~ to their buffers, its start whole into @started.
 */
static void cut_cells(const struct store_run *r, char *label, size_t llen, char *host, size_t hlen,
		      char *kernel, size_t klen, char *started, size_t slen)
{
	cut_text(label, llen, r->label[0] ? vis(r->label, started, slen) : "-");
	cut_text(host, hlen, vis(r->host, started, slen));
	cut_text(kernel, klen, vis(r->kernel_release, started, slen));
	vis(r->started, started, slen);
}

/*
 * The table of @list[0..n) in @cols columns (0: no limit): the source too
 * from 110; to the minute, long names cut with ~, at 80; the day without
 * the year at 60. What a run says of itself may come from anyone: made
 * visible.
 */
static void print_table(const struct store_run *list, size_t n, int cols)
{
	if (!cols || cols >= 110) {
		printf("%6s  %-20s  %-16s  %-12s  %-24s %6s  %s\n", "id", "started (UTC)", "label",
		       "host", "kernel", "paths", "source");
		for (size_t i = 0; i < n; i++) {
			char l[512], h[512], k[512], t[64], src[2048];

			printf("%6lld  %-20s  %-16s  %-12s  %-24s %6zu  %s\n",
			       (long long)list[i].id, vis(list[i].started, t, sizeof(t)),
			       list[i].label[0] ? vis(list[i].label, l, sizeof(l)) : "-",
			       vis(list[i].host, h, sizeof(h)),
			       vis(list[i].kernel_release, k, sizeof(k)), list[i].nresults,
			       vis(list[i].source, src, sizeof(src)));
		}
	} else if (cols < 78) {
		/* 60 columns: the day without the year, no count of paths (--wide has them) */
		printf("%5s  %-11s  %-12s %-8s %s\n", "id", "UTC", "label", "host", "kernel");
		for (size_t i = 0; i < n; i++) {
			char when[12], label[13], host[9], kernel[19], v[512];

			cut_cells(&list[i], label, sizeof(label), host, sizeof(host), kernel,
				  sizeof(kernel), v, sizeof(v));
			snprintf(when, sizeof(when), "%.5s %.5s", strlen(v) > 5 ? v + 5 : "",
				 strlen(v) > 11 ? v + 11 : "");
			printf("%5lld  %-11s  %-12s %-8s %s\n", (long long)list[i].id, when, label,
			       host, kernel);
		}
	} else {
		/* 80 columns: the time to the minute, long names cut with ~, no source */
		printf("%5s  %-16s  %-14s  %-12s  %-17s %5s\n", "id", "started (UTC)", "label",
		       "host", "kernel", "paths");
		for (size_t i = 0; i < n; i++) {
			char when[17], label[15], host[13], kernel[18], v[512];

			cut_cells(&list[i], label, sizeof(label), host, sizeof(host), kernel,
				  sizeof(kernel), v, sizeof(v));
			snprintf(when, sizeof(when), "%.10s %.5s", v, strlen(v) > 11 ? v + 11 : "");
			printf("%5lld  %-16s  %-14s  %-12s  %-17s %5zu\n", (long long)list[i].id,
			       when, label, host, kernel, list[i].nresults);
		}
	}
}

/* --delete or --relabel given RUN... or the filters, one of them: 0, else said. */
static int edit_usage(const struct runs_opts *o, int nargs)
{
	int filters = o->f.label || o->f.host || o->f.kernel || o->f.since || o->f.until;

	if (!nargs && !filters)
		return error("--%s needs the runs: ids, labels, or filters (--with-label GLOB, "
			     "--host, --kernel, --since, --until)",
			     o->del ? "delete" : "relabel");
	if (nargs && (filters || o->f.limit))
		return error("--%s takes RUN... or the filters, not both",
			     o->del ? "delete" : "relabel");
	return 0;
}

int cmd_runs(int argc, char **argv)
{
	struct runs_opts o = { 0 };
	struct store_run *list;
	struct store *st;
	char path[4096], err[1024];
	int first, rc;
	size_t n;

	rc = opts_parse(&cmd_runs_def, argc, argv, 0, NULL, &o, &first);
	if (rc)
		return rc > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (o.del && o.relabel) {
		error("--delete and --relabel: one or the other");
		return UKB_EXIT_USAGE;
	}
	if (o.del || o.relabel)
		return edit_usage(&o, argc - first) ? UKB_EXIT_USAGE
						    : edit(&o, argv + first, argc - first);
	if (o.yes) {
		error("--yes goes with --delete or --relabel");
		return UKB_EXIT_USAGE;
	}
	if (first < argc) {
		error("'ukbench runs' takes no arguments, got '%s'", argv[first]);
		return UKB_EXIT_USAGE;
	}
	if (o.size && (o.names || o.f.label || o.f.host || o.f.kernel || o.f.since || o.f.until ||
		       o.f.limit)) {
		error("--size is the whole store's: it takes no filter and no --names");
		return UKB_EXIT_USAGE;
	}
	rc = store_open_cli_reader(o.db, path, sizeof(path), &st);
	if (rc < 0)
		return UKB_EXIT_USAGE;
	if (rc == 0 && o.size) {
		rc = print_size(&o, st);
		store_close(st);
		return rc ? UKB_EXIT_FAIL : UKB_EXIT_OK;
	}
	if (rc > 0 && o.size) {
		if (o.fmt == ROWS_TABLE)
			printf("(no store at %s yet)\n", path);
		else
			print_rows(&o, NULL, 0);
		return UKB_EXIT_OK;
	}
	if (rc > 0) {
		if (o.names)
			return UKB_EXIT_OK;
		if (o.fmt == ROWS_TABLE)
			printf("(no runs in %s)\n", path);
		else
			print_rows(&o, NULL, 0);
		return UKB_EXIT_OK;
	}
	if (store_list(st, &o.f, &list, &n, err, sizeof(err))) {
		error("%s", err);
		store_close(st);
		return UKB_EXIT_FAIL;
	}
	if (o.names) {
		print_names(list, n);
		free(list);
		store_close(st);
		return UKB_EXIT_OK;
	}
	/* a listing for completion answers with nothing; a query says so */
	if (!n && filter_given(&o.f)) {
		error("no run in %s matches the filter (" FILTER_OPT_NAMES ")", path);
		free(list);
		store_close(st);
		return UKB_EXIT_USAGE;
	}
	if (o.fmt != ROWS_TABLE) {
		rc = print_rows(&o, list, n);
		free(list);
		store_close(st);
		return rc ? UKB_EXIT_FAIL : UKB_EXIT_OK;
	}
	print_table(list, n, out_columns(stdout, o.wide));
	if (!n)
		printf("(no runs in %s)\n", path);
	free(list);
	store_close(st);
	return UKB_EXIT_OK;
}
