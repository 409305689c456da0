/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * store-pg.h - a fleet's store: PostgreSQL, through libpq. Inside the
 * store part only; store.h is what the rest of ukbench sees.
 *
 * The server keeps each run as ukbench's run JSON (the one serialised
 * form; a summary unless pushed with --samples), under its UUID, with the
 * columns runs are found by (host, label, start, kernel) and a row per
 * result with the figures history reads and what the floor reads (schema
 * 2), which the server fills from the document as it stores it. A role
 * that pushes needs INSERT and nothing else: the UUID links a run's rows,
 * so no id is read back, and the UUID's unique index refuses a second
 * push of a run, which is then known to be there. The schema is versioned in ukbench_schema and
 * made or migrated by its owner (`ukbench fleet-init`), never by a pusher.
 */
#ifndef UKB_STORE_STORE_PG_H
#define UKB_STORE_STORE_PG_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"
#include "store.h"

#define UKB_PG_SCHEMA_VERSION 7

struct pgstore;

/*
 * Connects to @target (a fleet target, store_is_fleet()) and checks its
 * schema: 0; -1 with @err (unreachable, refused, no schema or a newer
 * one). @init: the schema may be absent (fleet-init makes it).
 */
int pg_open(const char *target, int init, struct pgstore **out, char *err, size_t errlen);
void pg_close(struct pgstore *pg);

/* Makes or migrates the schema; grants to @writer and @reader (NULL: none). */
int pg_init(struct pgstore *pg, const char *writer, const char *reader, char *msg, size_t len,
	    char *err, size_t errlen);

/*
 * Sends @run in one transaction: its UUID, the columns runs are found by,
 * its results' figures (samples are not read), and @doc, its JSON (NULL:
 * made from @run, which then has every sample), under @digest (NULL: of
 * @run). 0 with *@already set when the server had it; -1 with @err,
 * nothing stored.
 */
int pg_push(struct pgstore *pg, const struct rec_run *run, const char *digest, const char *doc,
	    int *already, char *err, size_t errlen);

/*
 * Drops the detail of the runs started before @before (a date or UTC
 * time) whose label does not match the glob @keep (NULL: none kept):
 * their documents and processes' means, in one transaction; history's
 * figures stay. *@pruned: runs pruned now, *@kept: kept by @keep. @dry:
 * counted, rolled back. 0, or -1 with @err (a role not granted it).
 */
int pg_prune(struct pgstore *pg, const char *before, const char *keep, int dry, long long *pruned,
	     long long *kept, char *err, size_t errlen);

int pg_list(struct pgstore *pg, const struct store_filter *f, struct store_run **out, size_t *n,
	    char *err, size_t errlen);
int pg_load(struct pgstore *pg, int64_t id, struct rec_run *run, char *err, size_t errlen);
int pg_find_same(struct pgstore *pg, const struct rec_run *run, int64_t *id, char *err,
		 size_t errlen);
int pg_points(struct pgstore *pg, const struct store_filter *f, char **pats, int npats,
	      struct rec_point **out, size_t *n, char *err, size_t errlen);

#endif
