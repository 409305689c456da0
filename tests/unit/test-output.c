// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-output.c - the writers of src/output on a real run (a run of
 * tests/golden read back): the table in each of its layouts within its
 * width and with every path, CSV with a header and a row per path, KTAP
 * with a plan and a verdict that turns ok into not ok, Google Benchmark's
 * JSON with a benchmark per path; rows as JSON and CSV; text folded to a
 * width, a cell cut to its width in characters, control bytes shown;
 * figures with the digits that matter; the notes under a run's table;
 * the lab lines, on figures made to differ beyond their intervals or not.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json-write.h"
#include "jv.h"
#include "capture.h"
#include "desc.h"
#include "describe.h"
#include "lab-align.h"
#include "figure-notes.h"
#include "output.h"
#include "doc-pack.h"
#include "record.h"
#include "rows.h"
#include "run-notes.h"
#include "width.h"

static struct rec_run run;

static int setup(void **state)
{
	const char *top = getenv("UKB_TOP");
	char path[512], err[512];
	size_t len;
	char *text;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/golden/runs/before-1.json", top ? top : ".");
	text = read_file(path, &len, err, sizeof(err));
	if (!text) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	if (rec_from_json_text(&run, text, len, path, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rec_run_release(&run);
	return 0;
}

static size_t count(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* The widest line of @text, in characters. */
static int widest(const char *text)
{
	int most = 0;
	char line[4096];

	for (const char *p = text; *p;) {
		size_t l = strcspn(p, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)l, p);
		if (disp_width(line) > most)
			most = disp_width(line);
		p += l + (p[l] == '\n');
	}
	return most;
}

static void test_table_layouts(void **state)
{
	static const int widths[] = { 50, 60, 79, 100 };

	(void)state;
	assert_true(run.nresults >= 2);
	for (size_t k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
		char *text = NULL;

		CAPTURE(text, table_print(f, widths[k], &run));
		if (widest(text) > widths[k])
			fail_msg("the table of %d columns has a line of %d:\n%s", widths[k],
				 widest(text), text);
		for (size_t i = 0; i < run.nresults; i++)
			assert_non_null(strstr(text, run.results[i].name));
		free(text);
	}
}

static void test_table_wide_has_every_column(void **state)
{
	char *wide = NULL, *narrow = NULL;

	(void)state;
	CAPTURE(wide, table_print(f, 0, &run));
	CAPTURE(narrow, table_print(f, 79, &run));
	/* calls/s and the sample count are the wide layout's only */
	assert_non_null(strstr(wide, "calls/s"));
	assert_null(strstr(narrow, "calls/s"));
	assert_true(widest(wide) > 80);
	free(wide);
	free(narrow);
}

/* The width of the line of @text that starts with @start, or -1. */
static int line_width(const char *text, const char *start)
{
	char line[4096];

	for (const char *p = text; *p;) {
		size_t l = strcspn(p, "\n");

		if (!strncmp(p, start, strlen(start))) {
			snprintf(line, sizeof(line), "%.*s", (int)l, p);
			return disp_width(line);
		}
		p += l + (p[l] == '\n');
	}
	return -1;
}

/* A short run's interval can pass 100%, or 1000%: its row keeps the header's width. */
static void test_wide_intervals_keep_columns(void **state)
{
	static const double rel[] = { 0.9999, 1.3916, 12.5, 999.0 };
	struct rec_result *r = &run.results[0];
	const struct rec_result keep = *r;
	char start[256];

	(void)state;
	snprintf(start, sizeof(start), "%s ", r->name);
	for (size_t k = 0; k < sizeof(rel) / sizeof(rel[0]); k++) {
		static const int widths[] = { 0, 79 };

		r->stats.ci95_rel = rel[k];
		r->converged = 0;
		r->within_se = rel[k] * r->stats.mean / 1.96;
		for (size_t w = 0; w < 2; w++) {
			char *text = NULL;

			CAPTURE(text, table_print(f, widths[w], &run));
			if (line_width(text, start) != line_width(text, "benchmark "))
				fail_msg(
				    "an interval of %g%%: the row is %d wide, the header %d:\n%s",
				    100 * rel[k], line_width(text, start),
				    line_width(text, "benchmark "), text);
			assert_non_null(strstr(text, "%!"));
			free(text);
		}
	}
	*r = keep;
}

/* Reads @text as a run into @out; fails the test with the reader's error. */
static void read_back(const char *text, struct rec_run *out)
{
	char err[512];

	if (rec_from_json_text(out, text, strlen(text), "summary", err, sizeof(err)))
		fail_msg("%s", err);
}

/*
 * A summary keeps what compare reads and the figures show prints, knows its
 * run by the whole run's digest, and reads back to the same text.
 */
static void test_summary_round_trip(void **state)
{
	struct rec_run back;
	size_t len, wlen;
	char *sum = rec_to_json_summary(&run, &len), *again, *whole = rec_to_json(&run, 0, &wlen);
	char d1[24], d2[24];

	(void)state;
	assert_non_null(sum);
	assert_non_null(whole);
	assert_null(strstr(sum, "\"samples_ns\""));
	assert_true(len < wlen);
	read_back(sum, &back);
	rec_run_digest(&run, d1, sizeof(d1));
	rec_run_digest(&back, d2, sizeof(d2));
	assert_string_equal(d1, d2);
	assert_int_equal(back.nresults, run.nresults);
	for (size_t i = 0; i < run.nresults; i++) {
		const struct rec_result *a = &run.results[i], *b = &back.results[i];

		assert_true(b->summary);
		assert_null(b->samples);
		assert_int_equal(b->nsamples, a->nsamples);
		assert_int_equal(b->nproc, a->nproc);
		assert_memory_equal(b->proc_means, a->proc_means, a->nproc * sizeof(double));
		assert_int_equal(b->stats.n, a->stats.n);
		assert_true(b->stats.mean == a->stats.mean && b->stats.ci95 == a->stats.ci95);
		assert_true(b->stats.median == a->stats.median && b->stats.q3 == a->stats.q3);
		assert_int_equal(rec_disturbed_count(b), rec_disturbed_count(a));
		assert_true(rec_excludes_disturbed(b) == rec_excludes_disturbed(a));
		assert_true(isnan(rec_cpu_per_call(a))
				? isnan(rec_cpu_per_call(b))
				: rec_cpu_per_call(b) == rec_cpu_per_call(a));
	}
	/* written again, whole or not, a summary is the same text */
	again = rec_to_json(&back, 0, &len);
	assert_non_null(again);
	assert_string_equal(again, sum);
	free(again);
	rec_run_release(&back);
	free(sum);
	free(whole);
}

/*
 * The document a fleet's server keeps (doc-pack.h): packed to a fraction,
 * without the processes or the figures made again from them, and read
 * back with the processes its rows hold into the same figures, bit for bit.
 */
static void test_kept_document(void **state)
{
	struct rec_run back;
	size_t len, zlen, tlen;
	char *sum = rec_to_json_summary(&run, &len), *text, err[512];
	unsigned char *z;
	int procs = 0;

	(void)state;
	assert_non_null(sum);
	if (doc_pack(sum, len, DOC_FOR_SERVER, &z, &zlen, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(zlen < len / 2);
	if (doc_unpack(z, zlen, &text, &tlen, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(strlen(text), tlen);
	assert_null(strstr(text, "\"process_means_ns\""));
	assert_null(strstr(text, "\"mean_ns\""));
	assert_non_null(strstr(text, "\"median_ns\""));
	/* read as the server's reader reads it, the rows' processes given */
	if (rec_from_json_beside(&back, text, tlen, "kept", err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(back.nresults, run.nresults);
	for (size_t i = 0; i < run.nresults; i++) {
		const struct rec_result *a = &run.results[i];
		struct rec_result *b = &back.results[i];

		if (!b->summary)
			continue;
		assert_int_equal(b->nproc, 0);
		b->proc_means = malloc(a->nproc * sizeof(double));
		assert_non_null(b->proc_means);
		memcpy(b->proc_means, a->proc_means, a->nproc * sizeof(double));
		b->nproc = a->nproc;
		rec_result_restat(b);
		assert_true(b->stats.mean == a->stats.mean && b->stats.ci95 == a->stats.ci95);
		assert_true(b->stats.ci95_rel == a->stats.ci95_rel);
		assert_true(b->stats.median == a->stats.median && b->stats.cv == a->stats.cv);
		assert_true(b->between_sd == a->between_sd);
		procs++;
	}
	assert_true(procs > 0);
	rec_run_release(&back);
	free(text);
	/* damaged or foreign bytes are refused (its checksum), not read */
	z[zlen / 2] ^= 0x55;
	assert_int_equal(doc_unpack(z, zlen, &text, &tlen, err, sizeof(err)), -1);
	assert_null(text);
	assert_non_null(strstr(err, "damaged"));
	free(z);
	assert_int_equal(doc_unpack((const unsigned char *)"{}", 2, &text, &tlen, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "not one ukbench keeps"));
	assert_int_equal(doc_pack("[1]", 3, DOC_FOR_SERVER, &z, &zlen, err, sizeof(err)), -1);
	assert_null(z);
	assert_non_null(strstr(err, "no results"));
	free(sum);
}

/* What a summary must hold, refused with the member named when it does not. */
static void test_summary_refused(void **state)
{
	static const struct {
		const char *from, *to, *said;
	} bad[] = {
		{ "\"batches\":", "\"batches\":0,\"x\":", "batches is not a count" },
		{ "\"batches\":", "\"batches\":10000000000,\"x\":", "batches is not a count" },
		{ "\"process_means_ns\":", "\"process_means_x\":", "without the means" },
		{ "\"median_ns\":", "\"median_x\":", "stats.median_ns is missing" },
		{ "\"digest\":\"", "\"digest\":\"Z", "$.digest is not" },
	};
	size_t len;
	char *sum = rec_to_json_summary(&run, &len);

	(void)state;
	assert_non_null(sum);
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct rec_run back;
		char err[512], *text = malloc(len + 64), *at = strstr(sum, bad[k].from);

		assert_non_null(text);
		assert_non_null(at);
		snprintf(text, len + 64, "%.*s%s%s", (int)(at - sum), sum, bad[k].to,
			 at + strlen(bad[k].from));
		if (!rec_from_json_text(&back, text, strlen(text), "summary", err, sizeof(err)))
			fail_msg("taken with %s", bad[k].to);
		if (!strstr(err, bad[k].said))
			fail_msg("'%s' does not say '%s'", err, bad[k].said);
		free(text);
	}
	free(sum);
}

static void test_csv(void **state)
{
	char *text = NULL, header[4096];

	(void)state;
	CAPTURE(text, assert_int_equal(csv_print(f, &run), 0));
	assert_int_equal(count(text, "\n"), run.nresults + 1);
	snprintf(header, sizeof(header), "%.*s", (int)strcspn(text, "\n"), text);
	assert_true(count(header, ",") >= 5);
	for (size_t i = 0; i < run.nresults; i++)
		assert_non_null(strstr(text, run.results[i].name));
	free(text);
}

static void test_ktap(void **state)
{
	const char *verdicts[16] = { 0 };
	char *text = NULL, plan[32];

	(void)state;
	assert_true(run.nresults < 16);
	CAPTURE(text, assert_int_equal(ktap_print(f, &run, NULL), 0));
	assert_true(!strncmp(text, "KTAP version 1\n", 15));
	snprintf(plan, sizeof(plan), "\n1..%zu\n", run.nresults);
	assert_non_null(strstr(text, plan));
	assert_int_equal(count(text, "\nok "), run.nresults);
	free(text);
	verdicts[1] = "regressed by 9.00%";
	CAPTURE(text, assert_int_equal(ktap_print(f, &run, verdicts), 0));
	assert_int_equal(count(text, "\nok "), run.nresults - 1);
	assert_int_equal(count(text, "\nnot ok 2 "), 1);
	free(text);
}

static void test_gbench(void **state)
{
	struct jv *doc, *b;
	char *text = NULL;
	size_t means = 0, reps = 0;

	(void)state;
	CAPTURE(text, assert_int_equal(gbench_print(f, &run), 0));
	doc = jv_parse(text);
	assert_non_null(doc);
	b = jv_get(doc, "benchmarks");
	assert_non_null(b);
	/* a repetition a process, then the aggregates, as --benchmark_repetitions writes */
	for (size_t i = 0; i < jv_len(b); i++) {
		struct jv *e = jv_at(b, i);
		const char *type = jv_str(jv_get(e, "run_type"));
		const char *agg = jv_str(jv_get(e, "aggregate_name"));

		reps += !strcmp(type, "iteration");
		means += !strcmp(type, "aggregate") && agg && !strcmp(agg, "mean");
	}
	assert_int_equal(means, run.nresults);
	assert_int_equal(reps, run.results[0].nproc * run.nresults);
	assert_string_equal(jv_str(jv_get(jv_at(b, 0), "run_name")),
			    "time.clock_gettime.monotonic/vdso");
	jv_free(doc);
	free(text);
}

static void test_rows(void **state)
{
	static const char *const keys[] = { "name", "ns", "n", "ok", NULL };
	struct jv *doc, *row;
	struct rows r;
	char *text = NULL;

	(void)state;
	CAPTURE(text, {
		rows_begin(&r, f, ROWS_JSON, keys);
		rows_str(&r, "a\"b");
		rows_num(&r, 1.5);
		rows_int(&r, 3);
		rows_bool(&r, 1);
		rows_str(&r, NULL);
		rows_num(&r, 0.0 / 0.0);
		rows_int(&r, -1);
		rows_bool(&r, 0);
		assert_int_equal(rows_end(&r), 0);
	});
	doc = jv_parse(text);
	assert_non_null(doc);
	assert_int_equal(jv_len(doc), 2);
	row = jv_at(doc, 0);
	assert_string_equal(jv_str(jv_get(row, "name")), "a\"b");
	assert_true(jv_num(jv_get(row, "ns"), 0) == 1.5);
	row = jv_at(doc, 1);
	assert_null(jv_get(row, "name"));
	assert_null(jv_get(row, "ns"));
	jv_free(doc);
	free(text);
	CAPTURE(text, {
		rows_begin(&r, f, ROWS_CSV, keys);
		rows_str(&r, "x,y");
		rows_num(&r, 2);
		rows_int(&r, 4);
		rows_bool(&r, 1);
		assert_int_equal(rows_end(&r), 0);
	});
	assert_string_equal(text, "name,ns,n,ok\n\"x,y\",2,4,true\n");
	free(text);
}

static void test_width(void **state)
{
	char buf[64], *text = NULL;

	(void)state;
	/* characters, not bytes: a UTF-8 sign is one column */
	assert_int_equal(disp_width("±1.00%"), 6);
	/* a control byte never reaches the terminal as itself */
	vis("a\033[31mb", buf, sizeof(buf));
	assert_null(strchr(buf, '\033'));
	assert_string_equal(vis("a\nb\302\233c\177", buf, sizeof(buf)), "a^Jb<U+009B>c^?");
	/* a message of lines keeps its newlines, and only them */
	assert_string_equal(vis_lines("a\nb\r\tc", buf, sizeof(buf)), "a\nb^M^Ic");
	CAPTURE(text, put_folded(f,
				 "one two three four five six seven eight nine ten eleven twelve "
				 "thirteen",
				 0, 2, 20));
	assert_true(widest(text) <= 20);
	assert_true(count(text, "\n") >= 4);
	assert_non_null(strstr(text, "\n  "));
	free(text);
	/* a cell takes its width, its text to the left or the right */
	CAPTURE(text, put_cell(f, "±1%", 6, 1));
	assert_string_equal(text, "   ±1%");
	free(text);
	CAPTURE(text, put_cell(f, "vdso", 6, 0));
	assert_string_equal(text, "vdso  ");
	free(text);
}

/* Every control character escaped, C1 too: the string the same, nothing raw on a terminal. */
static void test_json_controls(void **state)
{
	struct jw w;
	char *text;

	(void)state;
	jw_init(&w, 0);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "s", "a\033b\302\233c\177d\n\302\251");
	jw_obj_end(&w);
	text = jw_finish(&w, NULL);
	assert_non_null(text);
	assert_string_equal(text, "{\"s\":\"a\\u001bb\\u009bc\\u007fd\\n\302\251\"}");
	free(text);
}

static void test_figures(void **state)
{
	char buf[32];

	(void)state;
	format_ns(buf, sizeof(buf), 16.734);
	assert_string_equal(buf, "16.73");
	format_ns(buf, sizeof(buf), 0.3421);
	assert_string_equal(buf, "0.342");
	format_si(buf, sizeof(buf), 1234567);
	assert_string_equal(buf, "1.23 M");
}

static void test_run_notes(void **state)
{
	struct run_notes n = { .procs = 0, .store_read = 1, .from_learned = 2, .prior = 0.015 };
	char *text = NULL;

	(void)state;
	CAPTURE(text, run_notes_print(f, 0, &run, &n));
	assert_non_null(strstr(text, "fresh processes"));
	/* folded at 80: read as one line */
	for (char *p = text; (p = strchr(p, '\n'));)
		*p = ' ';
	assert_non_null(strstr(text, "as this host's stored runs showed it for 2 paths"));
	assert_null(strstr(text, "assumed"));
	free(text);
	/* nothing taught yet: the floor assumed, and said */
	n = (struct run_notes){ .procs = 0, .store_read = 1, .from_prior = 2, .prior = 0.015 };
	CAPTURE(text, run_notes_print(f, 0, &run, &n));
	for (char *p = text; (p = strchr(p, '\n'));)
		*p = ' ';
	assert_non_null(strstr(text, "assumes 1.5% a run"));
	assert_null(strstr(text, "from the runs before this one"));
	free(text);
	/* the host's first runs: the reference's move from them is held, and said */
	n = (struct run_notes){
		.procs = 0, .store_read = 1, .from_prior = 2, .prior = 0.015, .early = 2
	};
	CAPTURE(text, run_notes_print(f, 0, &run, &n));
	for (char *p = text; (p = strchr(p, '\n'));)
		*p = ' ';
	assert_non_null(strstr(text, "assumes 1.5% a run, wide, and as far as the reference"));
	free(text);
	/* a run made in another state of the machine says so */
	n = (struct run_notes){ .procs = 0,
				.store_read = 1,
				.from_learned = 2,
				.state = "this run was made while the machine ran slower" };
	CAPTURE(text, run_notes_print(f, 0, &run, &n));
	assert_non_null(strstr(text, "this run was made while the machine ran slower"));
	free(text);
	n = (struct run_notes){ .procs = 1 };
	CAPTURE(text, run_notes_print(f, 0, &run, &n));
	assert_non_null(strstr(text, "one process (--processes 1)"));
	assert_null(strstr(text, "between runs"));
	free(text);
	n = (struct run_notes){ .procs = 4, .quick = 1, .budget_s = 0.05, .precision = 0.05 };
	CAPTURE(text, run_notes_print(f, 0, &run, &n));
	assert_non_null(strstr(text, "quick (--quick)"));
	assert_non_null(strstr(text, "the store was not read"));
	free(text);
}

/* A lab result of @mean ns +-@ci (absolute), path @path, variant @variant. */
static void lab_result(struct rec_result *r, const char *bench, const char *variant,
		       const char *path, double mean, double ci)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->benchmark, sizeof(r->benchmark), "%s", bench);
	snprintf(r->variant, sizeof(r->variant), "%s", variant);
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->status = UKB_OK;
	r->nsamples = 10;
	r->stats.mean = mean;
	r->stats.ci95 = ci;
}

static void test_lab_notes(void **state)
{
	struct rec_result res[64];
	struct rec_run lab = { .results = res };
	char buf[8192];
	int bytes = lab_align_loop_bytes("store");

	(void)state;
	/* no lab in the run: no line */
	assert_int_equal(lab_notes_text(buf, sizeof(buf), &run), 0);
	/* an unreturned call far beyond the balanced one, over 9 returns */
	lab_result(&res[0], "lab.linkstack", "", "skip", 31, 0.5);
	lab_result(&res[1], "lab.linkstack", "", "thunk", 20, 0.5);
	lab_result(&res[2], "lab.linkstack", "", "next", 20.2, 0.5);
	snprintf(res[1].params, sizeof(res[1].params), "depth=8");
	lab.nresults = 3;
	assert_true(lab_notes_text(buf, sizeof(buf), &lab) >= 2);
	assert_non_null(strstr(buf, "costs 11.00 ns more than a balanced one"));
	assert_non_null(strstr(buf, "1.22 ns on each of the 9 returns"));
	assert_non_null(strstr(buf, "does not leave it on the return stack"));
	/* the same within the noise: not called a cost */
	res[0].stats.mean = 20.4;
	lab_notes_text(buf, sizeof(buf), &lab);
	assert_non_null(strstr(buf, "costs nothing beyond the noise"));
	/* the 32-bit ABI's apart, named */
	lab_result(&res[0], "lab.div64", "", "div64@32", 50, 1);
	lab_result(&res[1], "lab.div64", "", "u32@32", 10, 1);
	lab.nresults = 2;
	lab_notes_text(buf, sizeof(buf), &lab);
	assert_non_null(strstr(buf, "ns to timeval (32-bit ABI): 64-bit division 50.00 ns"));
	assert_non_null(strstr(buf, "32-bit arithmetic 10.00 ns (x0.20)"));
	/* a sweep: the worst and best, and where the loop crosses a line */
	if (bytes <= 0 || bytes >= 64)
		skip();
	for (int off = 0; off < 64; off++) {
		char v[8];
		int cross = lab_align_straddles(bytes, off, 64);

		snprintf(v, sizeof(v), "%d", off);
		lab_result(&res[off], "lab.align", v, "store", cross ? 2.0 + off / 1000.0 : 1.0,
			   0.01);
	}
	lab.nresults = 64;
	lab_notes_text(buf, sizeof(buf), &lab);
	assert_non_null(strstr(buf, "the worst of 64 offsets, 63 (2.063 ns an iteration), is "
				    "106.3% slower than the best, 0"));
	assert_non_null(strstr(buf, "it straddles a 64-byte line at"));
	assert_non_null(strstr(buf, "elsewhere 1.000"));
}

/* The environment this machine describes, read back typed, as every reader sees it. */
static void test_descriptions_typed(void **state)
{
	struct rec_run r = { 0 };
	struct ukb_env env;
	const struct rec_env *e;
	const struct rec_settings *s;

	(void)state;
	ukb_env_capture(&env);
	r.environment = describe_env(&env);
	r.settings = strdup("{\"precision\":0.01,\"budget_s\":2,\"cpu\":null,"
			    "\"reference\":\"k@1\",\"vm\":{\"image\":\"bzImage\"}}");
	assert_non_null(r.environment);
	assert_non_null(r.settings);
	e = rec_env(&r);
	assert_true(e->recorded);
	assert_string_equal(e->machine, env.machine);
	assert_string_equal(e->kernel_version, env.kernel_version);
	assert_string_equal(e->cpu_model, env.cpu_model);
	assert_int_equal(e->online_cpus, env.online_cpus);
	assert_int_equal(e->nload, 3);
	assert_int_equal(e->nwarnings, env.nwarnings);
	/* read once: the same members at every call */
	assert_ptr_equal(rec_env(&r), e);
	s = rec_settings(&r);
	assert_true(s->precision == 0.01 && s->budget_s == 2);
	assert_int_equal(s->cpu, -1);
	assert_string_equal(s->reference, "k@1");
	assert_string_equal(s->vm_image, "bzImage");
	assert_null(s->command);
	assert_int_equal(s->nplugins, 0);

	/* a member put is read at the next call, the others kept */
	assert_int_equal(
	    rec_settings_put(&r, "plugins",
			     "[{\"path\":\"/p.so\",\"build_id\":\"ab\"},{\"path\":\"/q.so\"}]"),
	    0);
	s = rec_settings(&r);
	assert_int_equal(s->nplugins, 2);
	assert_string_equal(s->plugins[0].path, "/p.so");
	assert_string_equal(s->plugins[0].build_id, "ab");
	assert_null(s->plugins[1].build_id);
	assert_string_equal(s->reference, "k@1");
	assert_non_null(strstr(r.settings, "\"plugins\":[{"));
	/* what is not JSON changes nothing */
	assert_int_equal(rec_settings_put(&r, "plugins", "[{"), -1);
	assert_int_equal(rec_settings(&r)->nplugins, 2);
	rec_run_release(&r);

	/* no descriptions, or unreadable ones: empty members, never NULL */
	r.environment = strdup("[1");
	e = rec_env(&r);
	assert_false(e->recorded);
	assert_null(e->machine);
	assert_int_equal(e->nload, 0);
	assert_true(isnan(rec_settings(&r)->precision));
	assert_string_equal(rec_ref_kind(&r), "barrier");
	rec_run_release(&r);
}

struct flat_rows {
	char text[1024];
	size_t len;
};

static void flat_row(void *ctx, const char *key, const char *value)
{
	struct flat_rows *f = ctx;

	f->len += (size_t)snprintf(f->text + f->len, sizeof(f->text) - f->len, "%s=%s|", key,
				   value ? value : "(null)");
}

/* Flattened one level (env --csv) or every level (the report's descriptions). */
static void test_flatten(void **state)
{
	const char *doc = "{\"schema\":1,\"a\":\"x\",\"l\":[1,\"two\"],\"n\":null,"
			  "\"o\":{\"b\":2,\"p\":{\"c\":[3,4]},\"q\":[5,6],\"z\":null}}";
	struct flat_rows f = { 0 };

	(void)state;
	assert_int_equal(rec_flatten(doc, NULL, 0, flat_row, &f), 0);
	assert_string_equal(f.text, "schema=1|a=x|l=1; two|n=(null)|o.b=2|o.p={\"c\":[3,4]}|"
				    "o.q=[5,6]|o.z=(null)|");
	memset(&f, 0, sizeof(f));
	assert_int_equal(rec_flatten(doc, "env", REC_FLAT_DEEP | REC_FLAT_NO_SCHEMA, flat_row, &f),
			 0);
	assert_string_equal(f.text, "env.a=x|env.l=1; two|env.n=null|env.o.b=2|env.o.p.c=3; 4|"
				    "env.o.q=5; 6|env.o.z=null|");
	/* not an object: nothing */
	memset(&f, 0, sizeof(f));
	assert_int_equal(rec_flatten("[1]", "env", 0, flat_row, &f), 0);
	assert_int_equal(rec_flatten(NULL, "env", 0, flat_row, &f), 0);
	assert_int_equal(f.len, 0);
}

/* What jw_format_double() must write: the first of 15, 16, 17 digits that reads back. */
static void shortest_g(char *buf, size_t len, double v)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
}

/*
 * Rounded from one printf of 17 digits, it writes what printf's own search
 * writes: over every kind of double (random bits, few digits, every
 * exponent, digits rounded up to the next power of ten, ties) and edges.
 */
static void test_format_double(void **state)
{
	static const double edge[] = { 0.1,
				       1e16,
				       9.999999999999999e22,
				       1e-5,
				       1e-4,
				       1e15,
				       1e17,
				       99999.99999999999,
				       0.5,
				       2.5,
				       5e-324,
				       1e-310,
				       1.7976931348623157e308,
				       123456789012345678.0,
				       0.000123,
				       -0.0,
				       1e22,
				       1e23,
				       9007199254740993.0,
				       0.3,
				       2.0 / 3.0,
				       100,
				       -7e-7 };
	uint64_t x = 0x9e3779b97f4a7c15ull;
	char a[40], b[40];
	size_t bad = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		jw_format_double(a, sizeof(a), edge[i]);
		shortest_g(b, sizeof(b), edge[i]);
		assert_string_equal(a, b);
	}
	for (int i = 0; i < 600000; i++) {
		double v;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		switch (i % 5) {
		case 0:
			memcpy(&v, &x, sizeof(v));
			if (!isfinite(v))
				continue;
			break;
		case 1: /* few digits, as a figure read from a file */
			v = (double)(x % 10000000) / 1000.0 * (x & 1 ? 1 : -1);
			break;
		case 2: /* every exponent a figure has */
			v = ldexp((double)(x >> 11), -53) * pow(10, (int)(x % 41) - 20);
			break;
		case 3: /* just under a power of ten: rounds up a place */
			v = pow(10, (int)(x % 61) - 30) * (1 - (double)(x % 4) * 1e-16);
			break;
		default: /* a ratio near one, as a change is */
			v = 1 + ((double)(x % 2000001) - 1e6) * 1e-9 / 3;
			break;
		}
		jw_format_double(a, sizeof(a), v);
		shortest_g(b, sizeof(b), v);
		if (strcmp(a, b) && bad++ < 5)
			print_message("%.17g: %s, not %s\n", v, a, b);
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_layouts),
		cmocka_unit_test(test_descriptions_typed),
		cmocka_unit_test(test_flatten),
		cmocka_unit_test(test_format_double),
		cmocka_unit_test(test_table_wide_has_every_column),
		cmocka_unit_test(test_wide_intervals_keep_columns),
		cmocka_unit_test(test_summary_round_trip),
		cmocka_unit_test(test_summary_refused),
		cmocka_unit_test(test_kept_document),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_ktap),
		cmocka_unit_test(test_gbench),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_json_controls),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_run_notes),
		cmocka_unit_test(test_lab_notes),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
