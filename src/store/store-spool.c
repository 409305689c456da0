// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store-spool.c - a fleet's spool: the runs of this machine waiting for a
 * server, and pushing them, each exactly once.
 *
 * A run is saved into the spool with a row in `pending` (its JSON with
 * it). Pushing sends it in one server transaction under its UUID; then, in
 * one spool transaction, its pending row goes and a `pushed` row comes.
 * If anything stops in between (the server, the network, this process),
 * the run is still pending here and the server has it or not: the next
 * push sends it again, and the server's ON CONFLICT (uuid) DO NOTHING
 * makes that a no-op when it had it. So a run is never lost and never
 * stored twice.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-sqlite.h"
#include "store-pg.h"

static int fail_db(struct store *st, char *err, size_t len)
{
	snprintf(err, len, "the spool '%s': %s", store_where(st), sqlite3_errmsg(store_db(st)));
	return -1;
}

int store_pending_list(struct store *st, const char *target, struct store_pending **out, size_t *n,
		       char *err, size_t len)
{
	sqlite3_stmt *s;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!store_db(st))
		return 0;
	if (sqlite3_prepare_v2(
		store_db(st),
		"SELECT p.run_id, r.uuid, r.label, r.started, p.target, p.since,"
		" p.tries, p.last_error FROM pending p JOIN runs r ON r.id = p.run_id"
		" WHERE ?1 IS NULL OR p.target = ?1 ORDER BY p.run_id",
		-1, &s, NULL) != SQLITE_OK)
		return fail_db(st, err, len);
	if (target)
		sqlite3_bind_text(s, 1, target, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_pending *p;

		if (store_grow(out, &cap, *n, sizeof(**out), 16)) {
			sqlite3_finalize(s);
			free(*out);
			*out = NULL;
			*n = 0;
			return store_fail(err, len, "out of memory");
		}
		p = &(*out)[(*n)++];
		p->id = sqlite3_column_int64(s, 0);
		store_col_text(s, 1, p->uuid, sizeof(p->uuid));
		store_col_text(s, 2, p->label, sizeof(p->label));
		store_col_text(s, 3, p->started, sizeof(p->started));
		store_col_text(s, 4, p->target, sizeof(p->target));
		store_col_text(s, 5, p->since, sizeof(p->since));
		p->tries = (unsigned)sqlite3_column_int(s, 6);
		store_col_text(s, 7, p->last_error, sizeof(p->last_error));
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		free(*out);
		*out = NULL;
		*n = 0;
		return fail_db(st, err, len);
	}
	return 0;
}

int store_pushed_count(struct store *st, const char *target, size_t *n, char *err, size_t len)
{
	sqlite3_stmt *s;
	int rc;

	*n = 0;
	if (!store_db(st))
		return 0;
	if (sqlite3_prepare_v2(store_db(st),
			       "SELECT count(*) FROM pushed WHERE ?1 IS NULL OR target = ?1", -1,
			       &s, NULL) != SQLITE_OK)
		return fail_db(st, err, len);
	if (target)
		sqlite3_bind_text(s, 1, target, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*n = (size_t)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : fail_db(st, err, len);
}

/* Runs @sql with @id and @target bound (and @text as ?3), in its own transaction. */
static int mark(struct store *st, const char *const *sql, int64_t id, const char *target,
		const char *text, char *err, size_t len)
{
	sqlite3 *db = store_db(st);

	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return fail_db(st, err, len);
	for (; *sql; sql++) {
		sqlite3_stmt *s;
		int rc;

		if (sqlite3_prepare_v2(db, *sql, -1, &s, NULL) != SQLITE_OK)
			goto rollback;
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, target, -1, SQLITE_TRANSIENT);
		if (text)
			sqlite3_bind_text(s, 3, text, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(s);
		sqlite3_finalize(s);
		if (rc != SQLITE_DONE)
			goto rollback;
	}
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
rollback:
	fail_db(st, err, len);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static int mark_pushed(struct store *st, int64_t id, const char *target, int already, char *err,
		       size_t len)
{
	static const char *const sql[] = {
		"DELETE FROM pending WHERE run_id = ?1 AND target = ?2",
		"INSERT OR REPLACE INTO pushed (run_id, target, at, already)"
		" VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?3)",
		NULL,
	};

	return mark(st, sql, id, target, already ? "1" : "0", err, len);
}

static int mark_failed(struct store *st, int64_t id, const char *target, const char *why, char *err,
		       size_t len)
{
	static const char *const sql[] = {
		"UPDATE pending SET tries = tries + 1, last_error = ?3"
		" WHERE run_id = ?1 AND target = ?2",
		NULL,
	};

	return mark(st, sql, id, target, why, err, len);
}

/*
 * What the server needs of pending run @id: the run with its results'
 * figures (no samples: the JSON has them), its digest and its JSON.
 */
static int read_pending(struct store *st, int64_t id, const char *target, struct rec_run *run,
			char *digest, size_t dlen, char **doc, char *err, size_t len)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *s;
	int rc;

	*doc = NULL;
	memset(run, 0, sizeof(*run));
	if (sqlite3_prepare_v2(db,
			       "SELECT r.digest, p.document FROM pending p JOIN runs r"
			       " ON r.id = p.run_id WHERE p.run_id = ?1 AND p.target = ?2",
			       -1, &s, NULL) != SQLITE_OK)
		return fail_db(st, err, len);
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, target, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(s);
		if (rc == SQLITE_DONE)
			return 1; /* pushed meanwhile by another push */
		return fail_db(st, err, len);
	}
	store_col_text(s, 0, digest, dlen);
	if (sqlite3_column_type(s, 1) != SQLITE_NULL)
		*doc = strdup((const char *)sqlite3_column_text(s, 1));
	sqlite3_finalize(s);
	if (!*doc)
		return store_fail(err, len, "run #%lld waits without its JSON, or memory is short",
				  (long long)id);
	/* the run's own row, as every load reads it */
	rc = store_load_head(st, id, run, err, len);
	if (rc) {
		free(*doc);
		*doc = NULL;
		return rc < 0 ? -1 : 1;
	}
	if (sqlite3_prepare_v2(
		db,
		"SELECT name, benchmark, path, status, n, mean_ns, ci95_rel, median_ns"
		" FROM results WHERE run_id = ?1 ORDER BY seq",
		-1, &s, NULL) != SQLITE_OK)
		goto fail;
	sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct rec_result *r = rec_add_result(run);
		char status[32];
		int sv;

		if (!r)
			break;
		store_col_text(s, 0, r->name, sizeof(r->name));
		store_col_text(s, 1, r->benchmark, sizeof(r->benchmark));
		store_col_text(s, 2, r->path, sizeof(r->path));
		store_col_text(s, 3, status, sizeof(status));
		sv = rec_status_parse(status);
		r->status = sv < 0 ? UKB_ERROR : (enum ukb_status)sv;
		r->nsamples = (size_t)sqlite3_column_int64(s, 4);
		r->stats.mean = sqlite3_column_double(s, 5);
		r->stats.ci95_rel = sqlite3_column_double(s, 6);
		r->stats.median = sqlite3_column_double(s, 7);
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return 0;
fail:
	fail_db(st, err, len);
	free(*doc);
	*doc = NULL;
	rec_run_release(run);
	return -1;
}

/* Pending run @id whole, every sample with it, as its JSON into *@doc (replaced). */
static int whole_document(struct store *st, int64_t id, char **doc, char *err, size_t len)
{
	struct rec_run full;
	size_t dlen;
	char *text;

	if (store_load(st, id, &full, err, len))
		return -1;
	full.id = 0; /* an id is the spool's, not the server's */
	text = rec_to_json(&full, 0, &dlen);
	rec_run_release(&full);
	if (!text)
		return store_fail(err, len, "out of memory");
	free(*doc);
	*doc = text;
	return 0;
}

/* Sends the pending runs of @p[0..n) that wait for @target. */
static void push_target(struct store *st, const char *target, unsigned flags,
			const struct store_pending *p, size_t n, struct push_stats *ps)
{
	struct pgstore *pg = NULL;
	char err[512];

	if (pg_open(target, 0, &pg, err, sizeof(err))) {
		for (size_t i = 0; i < n; i++) {
			char e2[256];

			if (strcmp(p[i].target, target))
				continue;
			ps->failed++;
			mark_failed(st, p[i].id, target, err, e2, sizeof(e2));
		}
		if (!ps->first_error[0])
			snprintf(ps->first_error, sizeof(ps->first_error), "%s", err);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct rec_run run;
		char digest[24], *doc, e2[256];
		int already, rc;

		if (strcmp(p[i].target, target))
			continue;
		rc = read_pending(st, p[i].id, target, &run, digest, sizeof(digest), &doc, err,
				  sizeof(err));
		if (rc == 1)
			continue;
		if (!rc && flags & STORE_PUSH_SAMPLES)
			rc = whole_document(st, p[i].id, &doc, err, sizeof(err));
		if (!rc)
			rc = pg_push(pg, &run, digest, doc, &already, err, sizeof(err));
		if (!rc)
			rc = mark_pushed(st, p[i].id, target, already, err, sizeof(err));
		free(doc);
		rec_run_release(&run);
		if (rc) {
			ps->failed++;
			mark_failed(st, p[i].id, target, err, e2, sizeof(e2));
			if (!ps->first_error[0])
				snprintf(ps->first_error, sizeof(ps->first_error), "%s", err);
			continue;
		}
		if (already)
			ps->already++;
		else
			ps->pushed++;
	}
	pg_close(pg);
}

int store_push(struct store *st, const char *target, unsigned flags, struct push_stats *ps,
	       char *err, size_t len)
{
	struct store_pending *p;
	size_t n;

	memset(ps, 0, sizeof(*ps));
	if (store_pending_list(st, target, &p, &n, err, len))
		return -1;
	/* each server once, in the order its runs wait */
	for (size_t i = 0; i < n; i++) {
		int seen = 0;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(p[j].target, p[i].target);
		if (!seen)
			push_target(st, p[i].target, flags, p, n, ps);
	}
	free(p);
	if (ps->failed) {
		snprintf(err, len, "%s", ps->first_error);
		return -1;
	}
	return 0;
}

int store_fleet_init(const char *target, const char *writer, const char *reader, char *msg,
		     size_t mlen, char *err, size_t len)
{
	struct pgstore *pg;
	int rc;

	if (pg_open(target, 1, &pg, err, len))
		return -1;
	rc = pg_init(pg, writer, reader, msg, mlen, err, len);
	pg_close(pg);
	return rc;
}

int store_fleet_prune(const char *target, const char *before, const char *keep, int dry,
		      long long *pruned, long long *kept, char *err, size_t len)
{
	struct pgstore *pg;
	int rc;

	if (pg_open(target, 0, &pg, err, len))
		return -1;
	rc = pg_prune(pg, before, keep, dry, pruned, kept, err, len);
	pg_close(pg);
	return rc;
}
