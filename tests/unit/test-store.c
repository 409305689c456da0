// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-store.c - the results store on real SQLite files: round trips of
 * every sample, migration from the first schema, refusal of foreign,
 * corrupt and newer files (bytes unchanged), atomic saves, concurrent
 * writers; and the JSON reader's errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "fields.h"
#include "jv.h"
#include "record.h"
#include "series.h"
#include "store-backend.h"
#include "store-sqlite.h"
#include "store.h"

static char dir[256];

static void db_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
	unlink(buf);
}

/* A run of @nres results with @ns samples each, values derived from @seed. */
static void make_run(struct rec_run *run, const char *label, size_t nres, size_t ns, int seed)
{
	memset(run, 0, sizeof(*run));
	snprintf(run->label, sizeof(run->label), "%s", label);
	snprintf(run->host, sizeof(run->host), "testhost");
	snprintf(run->started, sizeof(run->started), "2026-01-%02dT00:00:00Z", 1 + seed % 28);
	snprintf(run->kernel_release, sizeof(run->kernel_release), "6.18.0-test");
	snprintf(run->ukbench_version, sizeof(run->ukbench_version), "test");
	run->environment = strdup("{\"cpu_model\":\"test cpu\"}");
	run->settings = strdup("{\"precision\":0.01}");
	for (size_t i = 0; i < nres; i++) {
		struct rec_result *r = rec_add_result(run);

		assert_non_null(r);
		snprintf(r->name, sizeof(r->name), "test.bench%zu", i);
		snprintf(r->benchmark, sizeof(r->benchmark), "test.bench%zu", i);
		snprintf(r->path, sizeof(r->path), i % 2 ? "libc" : "vdso");
		snprintf(r->unit, sizeof(r->unit), "call");
		r->status = i == nres - 1 ? UKB_UNSUPPORTED : UKB_OK;
		if (r->status != UKB_OK) {
			snprintf(r->reason, sizeof(r->reason), "not here");
			continue;
		}
		r->samples = malloc(ns * sizeof(double));
		assert_non_null(r->samples);
		for (size_t k = 0; k < ns; k++)
			r->samples[k] = 10.0 + seed + (double)((k * 7919 + i * 31) % 97) / 97.0;
		r->nsamples = ns;
		r->batch_iters = 1000;
		r->converged = 1;
		rec_result_restat(r);
	}
}

static void assert_same_run(const struct rec_run *a, const struct rec_run *b)
{
	assert_string_equal(a->label, b->label);
	assert_string_equal(a->host, b->host);
	assert_string_equal(a->started, b->started);
	assert_int_equal(a->nresults, b->nresults);
	for (size_t i = 0; i < a->nresults; i++) {
		const struct rec_result *x = &a->results[i], *y = &b->results[i];

		assert_string_equal(x->name, y->name);
		assert_string_equal(x->path, y->path);
		assert_int_equal(x->status, y->status);
		assert_string_equal(x->reason, y->reason);
		assert_int_equal(x->nsamples, y->nsamples);
		for (size_t k = 0; k < x->nsamples; k++)
			assert_true(x->samples[k] == y->samples[k]);
		if (x->status == UKB_OK)
			assert_true(x->stats.mean == y->stats.mean);
	}
}

static void test_round_trip(void **state)
{
	struct rec_run run, back;
	struct store *st;
	char path[512], err[1024];

	(void)state;
	db_path(path, sizeof(path), "rt.db");
	assert_int_equal(store_open(path, &st, err, sizeof(err)), 0);
	make_run(&run, "before", 5, 1000, 1);
	assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
	assert_int_equal(run.id, 1);
	assert_int_equal(store_load(st, 1, &back, err, sizeof(err)), 0);
	assert_same_run(&run, &back);
	assert_string_equal(back.environment, "{\"cpu_model\":\"test cpu\"}");
	rec_run_release(&back);
	assert_int_equal(store_load(st, 99, &back, err, sizeof(err)), 1);
	rec_run_release(&run);
	store_close(st);

	/* reopening finds it again */
	assert_int_equal(store_open(path, &st, err, sizeof(err)), 0);
	make_run(&run, "before", 5, 1000, 1);
	assert_int_equal(store_load(st, 1, &back, err, sizeof(err)), 0);
	assert_same_run(&run, &back);
	rec_run_release(&run);
	rec_run_release(&back);
	store_close(st);
}

static void test_json_round_trip(void **state)
{
	struct rec_run run, back;
	size_t len;
	char *text;
	char err[1024];

	(void)state;
	make_run(&run, "j", 4, 300, 2);
	for (int pretty = 0; pretty < 2; pretty++) {
		text = rec_to_json(&run, pretty, &len);
		assert_non_null(text);
		assert_int_equal(rec_from_json_text(&back, text, len, "x.json", err, sizeof(err)),
				 0);
		assert_same_run(&run, &back);
		assert_string_equal(back.environment, run.environment);
		rec_run_release(&back);
		free(text);
	}
	rec_run_release(&run);
}

/*
 * A run of over a MiB is read result by result (its results array found in
 * the text, each result parsed and freed in turn): what comes back is the
 * same run, and a result that is wrong, or a document broken inside the
 * array, is the same error the whole-document reader gives.
 */
/* The door to the JSON library: null is nothing, numbers keep their digits. */
static void test_jv(void **state)
{
	struct jv *v = jv_parse("{\"a\": null, \"n\": 0.52, \"i\": 7, \"s\": \"x/y\", "
				"\"l\": [1, null, \"z\"], \"o\": {\"k\": true}}");
	void *it = NULL;
	struct jv *m;
	char *t;
	int n = 0;

	(void)state;
	assert_non_null(v);
	assert_null(jv_get(v, "a"));
	assert_true(jv_has(v, "a"));
	assert_false(jv_has(v, "b"));
	assert_true(jv_num(jv_get(v, "n"), -1) == 0.52);
	assert_true(jv_num(jv_get(v, "s"), -1) == -1);
	assert_int_equal(jv_int(jv_get(v, "i"), 0), 7);
	assert_string_equal(jv_str(jv_get(v, "s")), "x/y");
	assert_null(jv_str(jv_get(v, "i")));
	assert_int_equal(jv_len(jv_get(v, "l")), 3);
	assert_null(jv_at(jv_get(v, "l"), 1));
	assert_int_equal(jv_bool(jv_get(jv_get(v, "o"), "k"), 0), 1);
	while (jv_next(v, &it, &m))
		n++;
	assert_int_equal(n, 6);
	t = jv_text(v, 0);
	assert_string_equal(t, "{\"a\":null,\"n\":0.52,\"i\":7,\"s\":\"x/y\",\"l\":[1,null,"
			       "\"z\"],\"o\":{\"k\":true}}");
	free(t);
	t = jv_text(jv_get(v, "s"), 1);
	assert_string_equal(t, "x/y");
	free(t);
	jv_free(v);
	assert_null(jv_parse("{\"a\": "));
	assert_null(jv_parse("NaN"));
	assert_null(jv_parse(NULL));
}

static void test_json_large(void **state)
{
	struct rec_run run, back;
	size_t len;
	char *text, *at;
	char err[1024];

	(void)state;
	make_run(&run, "big", 41, 4000, 3);
	for (int pretty = 0; pretty < 2; pretty++) {
		text = rec_to_json(&run, pretty, &len);
		assert_non_null(text);
		assert_true(len > (1 << 20));
		assert_int_equal(rec_from_json_text(&back, text, len, "x.json", err, sizeof(err)),
				 0);
		assert_same_run(&run, &back);
		assert_int_equal(back.nresults, 41);
		rec_run_release(&back);
		free(text);
	}
	text = rec_to_json(&run, 0, &len);
	assert_non_null(text);
	/* the 38th result's second sample made a string */
	at = strstr(text, "\"test.bench37\"");
	assert_non_null(at);
	at = strstr(at, "\"samples_ns\"");
	assert_non_null(at);
	at = strchr(at, ',') + 1;
	while (*at == ' ')
		at++;
	memcpy(at, "\"x\"", 3);
	memset(at + 3, ' ', strcspn(at + 3, ",]"));
	assert_int_equal(rec_from_json_text(&back, text, len, "x.json", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "results[37].samples_ns[1] is not a number"));
	/* broken inside the array: the whole reader's line and column */
	*at = '#';
	assert_int_equal(rec_from_json_text(&back, text, len, "x.json", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not JSON"));
	assert_non_null(strstr(err, "line 1, column"));
	free(text);
	rec_run_release(&run);
}

static void test_json_errors(void **state)
{
	struct rec_run run;
	char err[1024];
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "{\"schema\": \"ukbench-run\", \"schema_version\": 1, \"res", "truncated JSON" },
		{ "{\"schema\": \"ukbench-run\",\n  \"x\": nope}", "line 2, column" },
		{ "[1, 2]", "not an object" },
		{ "{\"schema\": \"other\", \"schema_version\": 1}", "schema is 'other'" },
		{ "{\"schema\": \"ukbench-run\", \"schema_version\": 2, \"results\": []}",
		  "schema version 2 is not supported" },
		{ "{\"schema\": \"ukbench-run\", \"schema_version\": 1, \"started\": "
		  "\"2026-01-01T00:00:00Z\","
		  " \"results\": [{\"name\": \"a\", \"path\": \"b\", \"status\": \"ok\","
		  " \"samples_ns\": [1, \"x\"]}]}",
		  "results[0].samples_ns[1] is not a number" },
		{ "{\"schema\": \"ukbench-run\", \"schema_version\": 1, \"started\": "
		  "\"2026-01-01T00:00:00Z\","
		  " \"results\": [{\"name\": \"a\", \"path\": \"b\", \"status\": \"fine\"}]}",
		  "results[0].status 'fine'" },
		{ "{\"schema\": \"ukbench-run\", \"schema_version\": 1, \"started\": "
		  "\"2026-01-01T00:00:00Z\"}",
		  "$.results is missing" },
		{ "{\"schema\": \"ukbench-run\", \"schema_version\": 1, \"started\": "
		  "\"2026-01-01T00:00:00Z\","
		  " \"results\": []} trailing",
		  "after the document" },
		{ "{\"schema\": \"ukbench-run\", \"schema_version\": 1, \"started\": \"yesterday\","
		  " \"results\": []}",
		  "'yesterday' is not a UTC time" },
		{ "{\"schema\": \"ukbench-run\", \"schema_version\": 1, \"started\": "
		  "\"2026-01-01T00:00:00Z\","
		  " \"label\": \"a\xff\", \"results\": []}",
		  "a string that is not UTF-8" },
		{ "{\"schema\": \"ukbench-run\", \"schema_version\": 1, \"started\": "
		  "\"2026-01-01T00:00:00Z\","
		  " \"results\": [{\"name\": \"a\", \"path\": \"b\", \"status\": \"error\","
		  " \"threads\": -1}]}",
		  "results[0].threads is out of range" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = 0;
		assert_int_equal(rec_from_json_text(&run, cases[i].text, strlen(cases[i].text),
						    "bad.json", err, sizeof(err)),
				 -1);
		if (!strstr(err, cases[i].want) || !strstr(err, "'bad.json'"))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].want);
	}
}

static void test_list_and_filter(void **state)
{
	struct store_filter f = { 0 };
	struct store_run *list;
	struct rec_run run;
	struct store *st;
	char path[512], err[1024];
	size_t n;

	(void)state;
	db_path(path, sizeof(path), "list.db");
	assert_int_equal(store_open(path, &st, err, sizeof(err)), 0);
	for (int i = 0; i < 4; i++) {
		make_run(&run, i % 2 ? "after" : "before", 3, 20, i);
		assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
		rec_run_release(&run);
	}
	assert_int_equal(store_list(st, &f, &list, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 4);
	assert_int_equal(list[0].id, 4); /* newest first */
	assert_int_equal(list[0].nresults, 3);
	free(list);
	f.label = "aft*";
	assert_int_equal(store_list(st, &f, &list, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	free(list);
	assert_int_equal(store_load_matching(st, 1, "test.bench1", "*", &run, err, sizeof(err)), 0);
	assert_int_equal(run.nresults, 1);
	assert_string_equal(run.results[0].path, "libc");
	rec_run_release(&run);
	store_close(st);
}

static void test_migration_from_v1(void **state)
{
	struct rec_run run;
	struct store *st;
	char path[512], err[1024];
	int ver = 0;
	sqlite3_stmt *s;

	(void)state;
	db_path(path, sizeof(path), "v1.db");
	assert_int_equal(store_open_version(path, 1, &st, err, sizeof(err)), 0);
	/* a run as the first schema stored it */
	assert_int_equal(
	    sqlite3_exec(store_db(st),
			 "INSERT INTO runs (id, label, host, started) VALUES"
			 " (1, 'old', 'h', '2025-01-01T00:00:00Z'),"
			 " (2, 'older', 'h', '2024-01-01T00:00:00Z');"
			 "INSERT INTO results (id, run_id, seq, name, path, status, n,"
			 " mean_ns) VALUES (1, 1, 0, 'time.time', 'vdso', 'ok', 2, 1.5);"
			 "INSERT INTO samples VALUES (1, 0, 1.0), (1, 1, 2.0);",
			 NULL, NULL, NULL),
	    SQLITE_OK);
	store_close(st);

	assert_int_equal(store_open(path, &st, err, sizeof(err)), 0);
	assert_int_equal(sqlite3_prepare_v2(store_db(st), "PRAGMA user_version", -1, &s, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	ver = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	assert_int_equal(ver, UKB_STORE_SCHEMA_VERSION);
	assert_int_equal(store_load(st, 1, &run, err, sizeof(err)), 0);
	assert_string_equal(run.label, "old");
	assert_string_equal(run.source, "run");
	assert_int_equal(run.results[0].nsamples, 2);
	assert_true(run.results[0].stats.mean == 1.5);
	/* schema 5 named every run stored before: valid UUIDs, each its own */
	{
		char first[40];

		assert_true(rec_uuid_valid(run.uuid));
		snprintf(first, sizeof(first), "%s", run.uuid);
		rec_run_release(&run);
		assert_int_equal(store_load(st, 2, &run, err, sizeof(err)), 0);
		assert_true(rec_uuid_valid(run.uuid));
		assert_string_not_equal(first, run.uuid);
	}
	rec_run_release(&run);
	store_close(st);
}

static void test_uuid(void **state)
{
	char a[40], b[40];

	(void)state;
	assert_int_equal(rec_new_uuid(a, sizeof(a)), 0);
	assert_int_equal(rec_new_uuid(b, sizeof(b)), 0);
	assert_true(rec_uuid_valid(a));
	assert_string_not_equal(a, b);
	/* version 4, the RFC 4122 variant */
	assert_int_equal(a[14], '4');
	assert_non_null(strchr("89ab", a[19]));
	assert_int_equal(rec_new_uuid(a, 36), -EINVAL);
	assert_false(rec_uuid_valid("0123456789abcdef0123456789abcdef0123"));
	assert_false(rec_uuid_valid("01234567-89ab-cdef-0123-456789ABCDEF"));
	assert_false(rec_uuid_valid("01234567-89ab-cdef-0123-456789abcde"));
	assert_true(rec_uuid_valid("01234567-89ab-4def-8123-456789abcdef"));
}

static char *slurp(const char *path, size_t *n)
{
	char err[256];

	return read_file(path, n, err, sizeof(err));
}

/* Opening @path must fail with @want in the message, the bytes unchanged. */
static void assert_refused(const char *path, const char *want)
{
	struct store *st;
	char err[1024];
	size_t n0, n1;
	char *before = slurp(path, &n0), *after;

	assert_non_null(before);
	assert_int_equal(store_open(path, &st, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("'%s' lacks '%s'", err, want);
	assert_non_null(strstr(err, "untouched"));
	after = slurp(path, &n1);
	assert_int_equal(n0, n1);
	assert_memory_equal(before, after, n0);
	free(before);
	free(after);
}

static void test_refuses_foreign_corrupt_newer(void **state)
{
	char path[512], err[1024], sql[128];
	struct store *st;
	sqlite3 *db;
	FILE *f;

	(void)state;
	db_path(path, sizeof(path), "text.db");
	f = fopen(path, "w");
	fputs("these are not the results you are looking for\n", f);
	fclose(f);
	assert_refused(path, "not an SQLite database");

	db_path(path, sizeof(path), "foreign.db");
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(
	    sqlite3_exec(db, "CREATE TABLE t(a); INSERT INTO t VALUES (1);", NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
	assert_refused(path, "another application");

	db_path(path, sizeof(path), "newer.db");
	assert_int_equal(store_open(path, &st, err, sizeof(err)), 0);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", UKB_STORE_SCHEMA_VERSION + 7);
	assert_int_equal(sqlite3_exec(store_db(st), sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(
	    sqlite3_exec(store_db(st), "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL),
	    SQLITE_OK);
	store_close(st);
	assert_refused(path, "newer than");

	/* a ukbench database with its pages damaged */
	db_path(path, sizeof(path), "damaged.db");
	assert_int_equal(store_open(path, &st, err, sizeof(err)), 0);
	store_close(st);
	f = fopen(path, "r+");
	fseek(f, 100, SEEK_SET);
	for (int i = 0; i < 3000; i++)
		fputc(0xA5, f);
	fclose(f);
	assert_refused(path, "readable database");
}

static void test_failed_save_leaves_nothing(void **state)
{
	struct store_run *list;
	struct rec_run run;
	struct store *st;
	char path[512], err[1024];
	size_t n;
	int count = -1;
	sqlite3_stmt *s;

	(void)state;
	db_path(path, sizeof(path), "atomic.db");
	assert_int_equal(store_open(path, &st, err, sizeof(err)), 0);
	/* the 500th sample of the save fails */
	assert_int_equal(
	    sqlite3_exec(store_db(st),
			 "CREATE TRIGGER boom BEFORE INSERT ON samples WHEN NEW.seq = 499"
			 " AND NEW.result_id > 1 BEGIN SELECT RAISE(ABORT, 'disk on fire'); END;",
			 NULL, NULL, NULL),
	    SQLITE_OK);
	make_run(&run, "x", 4, 600, 3);
	assert_int_equal(store_save(st, &run, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "disk on fire"));
	assert_int_equal(run.id, 0);
	assert_int_equal(store_list(st, NULL, &list, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	free(list);
	assert_int_equal(sqlite3_prepare_v2(store_db(st),
					    "SELECT (SELECT count(*) FROM results) +"
					    " (SELECT count(*) FROM samples)",
					    -1, &s, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	count = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	assert_int_equal(count, 0);
	rec_run_release(&run);
	store_close(st);
}

static void test_concurrent_writers(void **state)
{
	enum { WRITERS = 4, EACH = 6, SAMPLES = 500 };
	struct store_run *list;
	struct store *st;
	char path[512], err[1024];
	pid_t pid[WRITERS];
	size_t n;
	int status;

	(void)state;
	db_path(path, sizeof(path), "conc.db");
	for (int w = 0; w < WRITERS; w++) {
		pid[w] = fork();
		assert_true(pid[w] >= 0);
		if (pid[w] == 0) {
			struct rec_run run;
			int bad = 0;

			if (store_open(path, &st, err, sizeof(err)))
				_exit(10);
			for (int i = 0; i < EACH; i++) {
				make_run(&run, "conc", 3, SAMPLES, w);
				bad += store_save(st, &run, err, sizeof(err)) != 0;
				rec_run_release(&run);
			}
			store_close(st);
			_exit(bad);
		}
	}
	for (int w = 0; w < WRITERS; w++) {
		assert_int_equal(waitpid(pid[w], &status, 0), pid[w]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_int_equal(store_open(path, &st, err, sizeof(err)), 0);
	assert_int_equal(store_list(st, NULL, &list, &n, err, sizeof(err)), 0);
	assert_int_equal(n, WRITERS * EACH);
	for (size_t i = 0; i < n; i++) {
		struct rec_run run;

		assert_int_equal(store_load(st, list[i].id, &run, err, sizeof(err)), 0);
		assert_int_equal(run.nresults, 3);
		assert_int_equal(run.results[0].nsamples, SAMPLES);
		rec_run_release(&run);
	}
	free(list);
	store_close(st);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ukbench-store-test.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/*
 * A backend of the test's own, behind the store's one door: every call
 * reaches its table; an operation it lacks is refused naming it; a table
 * of another interface version is refused (and its state closed).
 */
static int fake_saves, fake_closed;

static int fake_save(void *impl, struct rec_run *run, char *err, size_t len)
{
	(void)err, (void)len;
	assert_string_equal((const char *)impl, "fake state");
	run->id = 4242;
	fake_saves++;
	return 0;
}

static void fake_close(void *impl)
{
	(void)impl;
	fake_closed++;
}

static const char *fake_where(const void *impl)
{
	(void)impl;
	return "memory:fake";
}

static int fake_list(void *impl, const struct store_filter *f, struct store_run **out, size_t *n,
		     char *err, size_t len)
{
	(void)impl, (void)f, (void)err, (void)len;
	*out = calloc(1, sizeof(**out));
	assert_non_null(*out);
	(*out)->id = 7;
	*n = 1;
	return 0;
}

static void test_backend_table(void **state)
{
	struct store_ops ops = {
		.version = UKB_STORE_OPS_VERSION,
		.name = "Fake",
		.close = fake_close,
		.where = fake_where,
		.save = fake_save,
		.list = fake_list,
	};
	char path[512], err[256] = "", impl[] = "fake state";
	struct store *st;
	struct store_run *runs;
	struct store_floor fl;
	struct rec_run run = { 0 };
	size_t n = 9, nruns = 9;
	int64_t ids[1] = { 1 };

	(void)state;
	fake_saves = fake_closed = 0;
	assert_int_equal(store_wrap(&ops, impl, &st, err, sizeof(err)), 0);
	assert_ptr_equal(store_backend(st), &ops);
	assert_string_equal(store_where(st), "memory:fake");
	assert_string_equal(store_target(st), "");
	assert_int_equal(store_save(st, &run, err, sizeof(err)), 0);
	assert_int_equal(run.id, 4242);
	assert_int_equal(fake_saves, 1);
	assert_int_equal(store_list(st, NULL, &runs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(runs[0].id, 7);
	free(runs);
	assert_int_equal(store_edit(st, ids, 1, "x", err, sizeof(err)), -1);
	assert_string_equal(err, "the Fake store 'memory:fake' cannot change its runs");
	assert_int_equal(store_floor_reset(st, "h", &nruns, err, sizeof(err)), -1);
	assert_int_equal(nruns, 0);
	assert_int_equal(store_floor_get(st, "h", &fl, err, sizeof(err)), 1);
	assert_null(store_db(st));
	store_close(st);
	assert_int_equal(fake_closed, 1);

	ops.version = UKB_STORE_OPS_VERSION + 1;
	assert_int_equal(store_wrap(&ops, impl, &st, err, sizeof(err)), -1);
	assert_null(st);
	assert_non_null(strstr(err, "interface version"));
	assert_int_equal(fake_closed, 2);

	/* a file is the SQLite backend's; a fleet's server, read, PostgreSQL's */
	db_path(path, sizeof(path), "backend.db");
	assert_int_equal(store_open(path, &st, err, sizeof(err)), 0);
	assert_ptr_equal(store_backend(st), &store_sqlite_ops);
	assert_non_null(store_db(st));
	assert_string_equal(store_where(st), path);
	store_close(st);
	assert_true(store_pg_ops.claims("postgres:ukbench-test", 1));
	assert_false(store_pg_ops.claims("postgres:ukbench-test", 0));
	assert_true(store_sqlite_ops.claims("postgres:ukbench-test", 0));
	assert_false(store_sqlite_ops.claims("postgres:ukbench-test", 1));
	assert_true(store_sqlite_ops.claims(path, 1));
	assert_false(store_pg_ops.claims(path, 1));
}

/* Does the results table of @st have column @col? */
static int has_column(struct store *st, const char *col)
{
	sqlite3_stmt *s;
	int found = 0;

	assert_int_equal(sqlite3_prepare_v2(store_db(st),
					    "SELECT name FROM pragma_table_info('results')", -1, &s,
					    NULL),
			 SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW)
		found |= !strcmp((const char *)sqlite3_column_text(s, 0), col);
	sqlite3_finalize(s);
	return found;
}

/*
 * Each field's column arrives in the schema version its table line names
 * (rec_fields[].since), and not before: a field added without its
 * migration, or with the wrong version, fails here.
 */
static void test_fields_arrive_when_declared(void **state)
{
	char path[512], err[1024];

	(void)state;
	for (int v = 1; v <= UKB_STORE_SCHEMA_VERSION; v++) {
		struct store *st;
		char name[32];

		snprintf(name, sizeof(name), "since-%d.db", v);
		db_path(path, sizeof(path), name);
		assert_int_equal(store_open_version(path, v, &st, err, sizeof(err)), 0);
		for (size_t k = 0; k < rec_nfields; k++) {
			const struct rec_field *f = &rec_fields[k];

			assert_true(f->since >= 1 && f->since <= UKB_STORE_SCHEMA_VERSION);
			if (has_column(st, f->sql) != (f->since <= v))
				fail_msg("column %s (since %d) %s in schema version %d", f->sql,
					 f->since,
					 f->since <= v ? "is missing" : "is already there", v);
		}
		store_close(st);
		unlink(path);
	}
}

/*
 * A history's points laid in one block: texts as given, "" for NULL, cut
 * at the lengths a series' key holds, valid after the gathering is gone.
 */
static void test_points_block(void **state)
{
	struct rec_points b = { 0 };
	struct rec_point *pts;
	char long_path[100], want[32];
	size_t n = 99;

	(void)state;
	memset(long_path, 'p', sizeof(long_path) - 1);
	long_path[sizeof(long_path) - 1] = '\0';
	for (int i = 0; i < 1000; i++) {
		char host[32], started[40];
		const char *t[RP_NTEXT] = {
			[RP_UUID] = "0b8c1e7e-5a58-4b8e-9d1e-3f0f8e6f2a11",
			[RP_LABEL] = i % 2 ? "v6.1" : NULL,
			[RP_HOST] = host,
			[RP_STARTED] = started,
			[RP_NAME] = "syscall.null",
			[RP_BENCHMARK] = "syscall.null",
			[RP_PATH] = i == 7 ? long_path : "syscall",
		};

		snprintf(host, sizeof(host), "board-%04d", i % 10);
		snprintf(started, sizeof(started), "2026-01-01T00:00:%02dZ", i % 60);
		assert_int_equal(rec_points_add(&b, 100 + i, (size_t)i % 86, 80.0 + i, 0.01, t), 0);
	}
	pts = rec_points_take(&b, &n);
	assert_non_null(pts);
	assert_int_equal(n, 1000);
	assert_null(b.pts);
	assert_null(b.txt);
	assert_int_equal(b.n, 0);
	for (size_t i = 0; i < n; i++) {
		char host[32];

		snprintf(host, sizeof(host), "board-%04zu", i % 10);
		assert_int_equal(pts[i].run, 100 + (int64_t)i);
		assert_int_equal(pts[i].seq, i % 86);
		assert_true(pts[i].mean == 80.0 + (double)i);
		assert_string_equal(pts[i].host, host);
		assert_string_equal(pts[i].label, i % 2 ? "v6.1" : "");
		assert_string_equal(pts[i].kernel_release, "");
		assert_string_equal(pts[i].params, "");
		assert_string_equal(pts[i].uuid, "0b8c1e7e-5a58-4b8e-9d1e-3f0f8e6f2a11");
		assert_int_equal(strlen(pts[i].started), 20);
	}
	/* a path longer than a series' key is cut as the key cuts it */
	memcpy(want, long_path, sizeof(want) - 1);
	want[sizeof(want) - 1] = '\0';
	assert_string_equal(pts[7].path, want);
	assert_string_equal(pts[8].path, "syscall");
	free(pts);

	/* no points: an empty block, not NULL */
	pts = rec_points_take(&b, &n);
	assert_non_null(pts);
	assert_int_equal(n, 0);
	free(pts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_json_large),
		cmocka_unit_test(test_jv),
		cmocka_unit_test(test_list_and_filter),
		cmocka_unit_test(test_migration_from_v1),
		cmocka_unit_test(test_refuses_foreign_corrupt_newer),
		cmocka_unit_test(test_failed_save_leaves_nothing),
		cmocka_unit_test(test_concurrent_writers),
		cmocka_unit_test(test_uuid),
		cmocka_unit_test(test_backend_table),
		cmocka_unit_test(test_fields_arrive_when_declared),
		cmocka_unit_test(test_points_block),
	};

	return cmocka_run_group_tests_name("store", tests, setup, teardown);
}
