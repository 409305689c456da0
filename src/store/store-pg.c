// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store-pg.c - a fleet's store on PostgreSQL (see store-pg.h).
 */
#include <errno.h>
#include <libpq-fe.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "doc-pack.h"
#include "reference.h"
#include "store-backend.h"
#include "store-pg.h"

struct pgstore {
	PGconn *conn;
	char where[256]; /* the target as shown: no password is ever in it */
	/* called with the paths pg_points() reads, before it asks for their points */
	void (*paths_known)(void *ctx, char *const *names, char *const *paths, size_t n);
	void *paths_ctx;
};

/*
 * What the floor reads of a run, from its document @d (jsonb): the
 * kernel's build, the boot, the reference work, the load per CPU. Written
 * on push and by the migration that made the columns, from one text.
 */
#define RUN_COLS_FROM(d)                                                                           \
	d "->'environment'->>'kernel_version', " d "->'environment'->>'boot_id', " d               \
	  "->'settings'->>'reference', (" d "->'environment'->'loadavg'->>0)::float8 /"            \
	  " NULLIF((" d "->'environment'->>'online_cpus')::float8, 0)"

/* ... and of a result @e (jsonb): its parameters, its disturbance, its processes */
#define RESULT_FLOOR_FROM(e)                                                                       \
	e "->>'params', (" e "->>'threads')::integer, (" e "->>'bytes_per_call')::bigint, (" e     \
	  "->'stats'->>'waited')::float8, (" e "->'stats'->>'disturbed')::float8 /"                \
	  " NULLIF((" e "->'stats'->>'disturbed')::float8 + (" e "->'stats'->>'n')::float8, 0),"   \
	  " CASE WHEN jsonb_typeof(" e "->'process_means_ns') = 'array' THEN ARRAY(SELECT"         \
	  " pv.x::float8 FROM jsonb_array_elements_text(" e "->'process_means_ns') pv(x)) END,"    \
	  " CASE WHEN jsonb_typeof(" e "->'process_ref_ns') = 'array' THEN ARRAY(SELECT"           \
	  " pr.x::float8 FROM jsonb_array_elements_text(" e "->'process_ref_ns') pr(x)) END"

/*
 * ukbench_prune() made (@how: CREATE, or CREATE OR REPLACE, which keeps its
 * owner and grants) with @drop, what the runs' rows lose (migration 3), and
 * @results, what their results' rows lose (PRUNE_MEANS or nothing).
 */
#define PRUNE_FUNCTION(how, drop, results)                                                         \
	"DO $$ BEGIN EXECUTE format($f$ " how " FUNCTION ukbench_prune(p_before text,"             \
	" p_keep text, OUT nruns bigint, OUT nkept bigint)"                                        \
	" LANGUAGE sql SECURITY DEFINER SET search_path = %I, pg_temp AS $b$"                      \
	"  WITH old AS (SELECT uuid, label FROM runs"                                              \
	"   WHERE started < p_before AND pruned IS NULL),"                                         \
	"  p AS (UPDATE runs r SET " drop ", pruned = now() FROM old"                              \
	"   WHERE r.uuid = old.uuid AND (p_keep IS NULL OR old.label !~ p_keep)"                   \
	"   RETURNING r.uuid)" results                                                             \
	"  SELECT (SELECT count(*) FROM p), (SELECT count(*) FROM old) - (SELECT count(*) FROM p)" \
	" $b$ $f$, current_schema()); END $$;"

/* What migrations 3 to 6 had a pruned run's results lose: what the floor reads. */
#define PRUNE_MEANS                                                                                \
	", x AS (UPDATE results s SET process_means = NULL, process_ref = NULL FROM p"             \
	"   WHERE s.run_uuid = p.uuid)"

static const char *const migrations[] = {
	/* 1: runs, whole as their JSON, and a row per result for history */
	"CREATE TABLE runs ("
	"  id bigserial PRIMARY KEY,"
	"  uuid uuid NOT NULL UNIQUE,"
	"  label text NOT NULL DEFAULT '',"
	"  host text NOT NULL,"
	"  started text COLLATE \"C\" NOT NULL,"
	"  kernel_release text NOT NULL DEFAULT '',"
	"  ukbench_version text NOT NULL DEFAULT '',"
	"  source text NOT NULL DEFAULT 'run',"
	"  duration_s double precision,"
	"  interrupted boolean NOT NULL DEFAULT false,"
	"  digest text NOT NULL,"
	"  nresults integer NOT NULL,"
	"  document text NOT NULL,"
	"  pushed_at timestamptz NOT NULL DEFAULT now(),"
	"  pushed_by name NOT NULL DEFAULT current_user);"
	/* lz4 where the server has it (PostgreSQL 14 and later, built with it):
	 * a run's JSON is stored in half the time pglz takes */
	"DO $$ BEGIN ALTER TABLE runs ALTER COLUMN document SET COMPRESSION lz4;"
	" EXCEPTION WHEN OTHERS THEN NULL; END $$;"
	"CREATE INDEX runs_by_host ON runs (host, started);"
	"CREATE INDEX runs_by_label ON runs (label, started);"
	"CREATE INDEX runs_by_started ON runs (started);"
	"CREATE INDEX runs_by_digest ON runs (digest);"
	"CREATE TABLE results ("
	"  run_uuid uuid NOT NULL REFERENCES runs (uuid),"
	"  seq integer NOT NULL,"
	"  name text NOT NULL,"
	"  benchmark text NOT NULL,"
	"  path text NOT NULL,"
	"  status text NOT NULL,"
	"  samples integer NOT NULL,"
	"  mean_ns double precision,"
	"  ci95_rel double precision,"
	"  median_ns double precision,"
	"  PRIMARY KEY (run_uuid, seq));"
	"CREATE INDEX results_by_path ON results (name, path, benchmark);",

	/* clang-format off */
	/*
	 * 2: what the floor reads of a run and of each result, as columns,
	 * so that compare and history read them without parsing a document;
	 * filled from the documents already stored
	 */
	"ALTER TABLE runs ADD COLUMN kernel_version text, ADD COLUMN boot_id text,"
	"  ADD COLUMN reference text, ADD COLUMN load double precision;"
	"ALTER TABLE results ADD COLUMN params text, ADD COLUMN threads integer,"
	"  ADD COLUMN bytes bigint, ADD COLUMN waited double precision,"
	"  ADD COLUMN disturbed double precision, ADD COLUMN process_means double precision[],"
	"  ADD COLUMN process_ref double precision[];"
	"UPDATE runs r SET (kernel_version, boot_id, reference, load) = (" RUN_COLS_FROM("j.d") ")"
	"  FROM (SELECT id, document::jsonb AS d FROM runs) j WHERE j.id = r.id;"
	"UPDATE results x SET (params, threads, bytes, waited, disturbed, process_means,"
	"  process_ref) = (" RESULT_FLOOR_FROM("j.e") ")"
	"  FROM (SELECT r.uuid, e.o - 1 AS seq, e.v AS e FROM runs r CROSS JOIN LATERAL"
	"   jsonb_array_elements(r.document::jsonb->'results') WITH ORDINALITY e(v, o)) j"
	"  WHERE x.run_uuid = j.uuid AND x.seq = j.seq;"
	"CREATE INDEX results_by_path_run ON results (name, path, run_uuid)"
	"  WHERE status = 'ok' AND process_means IS NOT NULL;",

	/*
	 * 3: retention. ukbench_prune() drops the detail of the runs started
	 * before a time (the document, the processes' means), keeping the
	 * figures history draws; it runs as the schema's owner, so that the
	 * writer may prune without holding UPDATE or DELETE, and nobody else
	 * may (EXECUTE revoked from PUBLIC). Its tables are named in the
	 * schema it was made in, not looked up in the caller's search_path.
	 */
	"ALTER TABLE runs ALTER COLUMN document DROP NOT NULL, ADD COLUMN pruned timestamptz;"
	PRUNE_FUNCTION("CREATE", "document = NULL", PRUNE_MEANS)
	"REVOKE EXECUTE ON FUNCTION ukbench_prune(text, text) FROM PUBLIC;",

	/*
	 * 4: a result row carries its run's host and start, so that one
	 * index serves history (of one host or of all) and the floor: a
	 * path's rows of one host are found among a year's without visiting
	 * every run's rows (a run's rows lie together, a path's do not).
	 * Its entries hold what history draws (index-only). results_detail
	 * finds the rows the floor reads, those not pruned. They replace
	 * results_by_path and results_by_path_run.
	 */
	"ALTER TABLE results ADD COLUMN host text, ADD COLUMN started text COLLATE \"C\";"
	"UPDATE results x SET host = r.host, started = r.started FROM runs r"
	"  WHERE r.uuid = x.run_uuid;"
	"ALTER TABLE results ALTER COLUMN host SET NOT NULL, ALTER COLUMN started SET NOT NULL;"
	"CREATE INDEX results_by_host ON results (name, path, host, started)"
	"  INCLUDE (mean_ns, ci95_rel, run_uuid, seq) WHERE status = 'ok' AND samples > 0;"
	"CREATE INDEX results_detail ON results (name, path, host)"
	"  WHERE status = 'ok' AND samples > 0 AND process_means IS NOT NULL;"
	"DROP INDEX results_by_path, results_by_path_run;",

	/*
	 * 5: a summary's processes' means and references are kept once, in
	 * its results' rows, not in its document; a document pushed before
	 * keeps them too and is read as it is. The version is what tells an
	 * older ukbench, which would not find them, to upgrade.
	 */
	"COMMENT ON COLUMN runs.document IS 'the run as JSON; from schema 5, a summary''s"
	" processes are in its results'' rows';",

	/*
	 * 6: a run in fewer bytes. A process's mean and reference in 4 bytes:
	 * a record keeps them to single precision (rec_result_restat()), so
	 * the comparison from here equals the local store's. The document as
	 * the client compressed it (doc-pack.h: smaller than the server's
	 * lz4 makes it), stored as it comes; a document pushed before stays
	 * in `document`. A run's rows found by one entry of its UUID
	 * (deduplicated) where the primary key took an entry a row in pages
	 * the random UUIDs left a third empty; a run's rows are made once, by the
	 * statement after the one that makes its run, whose UUID is unique.
	 * Without a key, a logical replica is given the whole row.
	 */
	"ALTER TABLE results ALTER COLUMN process_means TYPE real[],"
	"  ALTER COLUMN process_ref TYPE real[], DROP CONSTRAINT results_pkey,"
	"  REPLICA IDENTITY FULL;"
	"CREATE INDEX results_of_run ON results (run_uuid);"
	"ALTER TABLE runs ADD COLUMN document_z bytea;"
	"ALTER TABLE runs ALTER COLUMN document_z SET STORAGE EXTERNAL;"
	"COMMENT ON COLUMN runs.document_z IS 'the run as JSON, compressed by ukbench (zstd),"
	" without what its results'' rows hold or reading makes again';"
	PRUNE_FUNCTION("CREATE OR REPLACE", "document = NULL, document_z = NULL", PRUNE_MEANS),
	/*
	 * 7: a pruned run keeps its processes' means and references, as the
	 * local store's prune does: the floor, history's marks and a
	 * comparison stay what they were (a few bytes a process)
	 */
	PRUNE_FUNCTION("CREATE OR REPLACE", "document = NULL, document_z = NULL", ""),
	/* clang-format on */
};

/* libpq's message, its first line, without "ERROR:  " */
static const char *first_line(const char *msg, char *buf, size_t len)
{
	size_t n;

	if (!msg || !*msg)
		return "no message";
	if (!strncmp(msg, "ERROR:  ", 8))
		msg += 8;
	n = strcspn(msg, "\n");
	snprintf(buf, len, "%.*s", (int)n, msg);
	return buf;
}

static int pg_fail(struct pgstore *pg, PGresult *res, char *err, size_t len)
{
	char line[512];
	const char *msg = res ? PQresultErrorMessage(res) : PQerrorMessage(pg->conn);

	if (res && (!msg || !*msg))
		msg = PQerrorMessage(pg->conn);
	store_fail(err, len, "%s: %s", pg->where, first_line(msg, line, sizeof(line)));
	PQclear(res);
	return -1;
}

int store_is_fleet(const char *db)
{
	return db && (!strncmp(db, "postgresql://", 13) || !strncmp(db, "postgres://", 11) ||
		      !strncmp(db, "postgres:", 9));
}

int store_fleet_conninfo(const char *db, char *buf, size_t len, char *err, size_t errlen)
{
	PQconninfoOption *opts;
	char *msg = NULL;
	char secret[64] = "";
	int pw = 0;

	if (!strncmp(db, "postgres:", 9) && strncmp(db, "postgres://", 11)) {
		const char *svc = db + 9;

		if (!*svc || strspn(svc, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					 "0123456789_-.") != strlen(svc))
			return store_fail(
			    err, errlen,
			    "'%s' is not a service name: postgres:NAME names a service of "
			    "pg_service.conf (letters, digits, _ - .)",
			    db);
		snprintf(buf, len, "service=%s", svc);
	} else {
		snprintf(buf, len, "%s", db);
	}
	opts = PQconninfoParse(buf, &msg);
	if (!opts) {
		char line[256];

		store_fail(err, errlen, "the database URI cannot be read: %s",
			   first_line(msg, line, sizeof(line)));
		PQfreemem(msg);
		return -1;
	}
	/*
	 * Every parameter libpq itself treats as a secret (its display
	 * character '*': password, sslpassword, and any it adds), never just
	 * the one named password.
	 */
	for (PQconninfoOption *o = opts; o->keyword && !pw; o++)
		if (o->dispchar && strchr(o->dispchar, '*') && o->val && o->val[0]) {
			snprintf(secret, sizeof(secret), "%s", o->keyword);
			pw = 1;
		}
	PQconninfoFree(opts);
	if (pw)
		return store_fail(
		    err, errlen,
		    "a secret in the database URI (%s) is refused: a command line is seen by "
		    "every user (ps) and kept in shell histories. Give it to libpq instead: "
		    "a line of ~/.pgpass (or the file PGPASSFILE names), a service in "
		    "pg_service.conf, or PGPASSWORD",
		    secret);
	return 0;
}

/* The target as shown in messages: scheme, host and database, no user or password. */
static void display(const char *db, char *buf, size_t len)
{
	const char *at, *rest;

	if (strncmp(db, "postgresql://", 13) && strncmp(db, "postgres://", 11)) {
		snprintf(buf, len, "%s", db);
		return;
	}
	rest = strstr(db, "://") + 3;
	at = strchr(rest, '@');
	if (at && at < rest + strcspn(rest, "/?"))
		rest = at + 1;
	snprintf(buf, len, "postgresql://%.*s", (int)strcspn(rest, "?"), rest);
}

/* The server's notices ("already exists, skipping") are not ours to print. */
static void quiet_notice(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static PGresult *query(struct pgstore *pg, const char *sql, int n, const char *const *vals)
{
	return PQexecParams(pg->conn, sql, n, NULL, vals, NULL, NULL, 0);
}

/* query(), its result in binary: a text column's value is its text, as in text */
static PGresult *query_bin(struct pgstore *pg, const char *sql, int n, const char *const *vals)
{
	return PQexecParams(pg->conn, sql, n, NULL, vals, NULL, NULL, 1);
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/*
 * A real[] or float8[] column in binary (array_send(): dimensions, flags,
 * the element type, each dimension's size and lower bound, then each
 * element as its length and its big-endian bits) into a new array; NULL,
 * empty or not one dimension of either: none. A value not above 0 is not
 * known (NAN), but with @keep.
 */
static int numbers(const PGresult *res, int row, int col, int keep, double **out, size_t *n)
{
	const unsigned char *p = (const unsigned char *)PQgetvalue(res, row, col);
	size_t len = (size_t)PQgetlength(res, row, col), count, off = 20;
	uint32_t type;

	*out = NULL;
	*n = 0;
	if (PQgetisnull(res, row, col) || len < 20 || be32(p) != 1)
		return 0;
	type = be32(p + 8);
	if (type != 700 && type != 701) /* float4, float8 */
		return 0;
	count = be32(p + 12);
	if (count > (len - 20) / 4)
		return 0;
	*out = calloc(count + 1, sizeof(**out));
	if (!*out)
		return -1;
	for (size_t i = 0; i < count; i++) {
		uint64_t bits = 0;
		double v = NAN;
		int32_t el;

		if (off + 4 > len)
			break;
		el = (int32_t)be32(p + off);
		off += 4;
		if (type == 701 && el == 8 && off + 8 <= len) {
			bits = (uint64_t)be32(p + off) << 32 | be32(p + off + 4);
			memcpy(&v, &bits, sizeof(v));
			off += 8;
		} else if (type == 700 && el == 4 && off + 4 <= len) {
			uint32_t b = be32(p + off);
			float f;

			memcpy(&f, &b, sizeof(f));
			v = f;
			off += 4;
		} else if (el > 0) {
			break;
		}
		(*out)[(*n)++] = v > 0 || keep ? v : NAN;
	}
	return 0;
}

static int schema_version(struct pgstore *pg, int *ver, char *err, size_t len)
{
	PGresult *res = PQexec(pg->conn, "SELECT max(version) FROM ukbench_schema");

	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

		if (state && !strcmp(state, "42P01")) { /* undefined_table */
			PQclear(res);
			*ver = 0;
			return 0;
		}
		return pg_fail(pg, res, err, len);
	}
	*ver = PQgetisnull(res, 0, 0) ? 0 : atoi(PQgetvalue(res, 0, 0));
	PQclear(res);
	return 0;
}

int pg_open(const char *target, int init, struct pgstore **out, char *err, size_t errlen)
{
	static const char *const keys[] = { "connect_timeout", "fallback_application_name",
					    "dbname", NULL };
	const char *vals[4] = { "10", "ukbench", NULL, NULL };
	struct pgstore *pg;
	char conninfo[2048];
	int ver;

	*out = NULL;
	if (store_fleet_conninfo(target, conninfo, sizeof(conninfo), err, errlen))
		return -1;
	pg = calloc(1, sizeof(*pg));
	if (!pg)
		return store_fail(err, errlen, "out of memory");
	display(target, pg->where, sizeof(pg->where));
	vals[2] = conninfo;
	pg->conn = PQconnectdbParams(keys, vals, 1);
	if (!pg->conn || PQstatus(pg->conn) != CONNECTION_OK) {
		char line[512];

		store_fail(err, errlen, "cannot reach %s: %s", pg->where,
			   first_line(pg->conn ? PQerrorMessage(pg->conn) : "out of memory", line,
				      sizeof(line)));
		pg_close(pg);
		return -1;
	}
	PQsetNoticeProcessor(pg->conn, quiet_notice, NULL);
	if (schema_version(pg, &ver, err, errlen))
		goto fail;
	if (ver > UKB_PG_SCHEMA_VERSION) {
		store_fail(
		    err, errlen,
		    "%s has the fleet schema version %d, newer than the %d this ukbench knows; "
		    "upgrade ukbench (nothing was written)",
		    pg->where, ver, UKB_PG_SCHEMA_VERSION);
		goto fail;
	}
	if (!init && ver < UKB_PG_SCHEMA_VERSION) {
		if (ver)
			store_fail(
			    err, errlen,
			    "%s has the fleet schema version %d, older than this ukbench's %d: "
			    "its owner runs 'ukbench fleet-init' to migrate it",
			    pg->where, ver, UKB_PG_SCHEMA_VERSION);
		else
			store_fail(
			    err, errlen,
			    "%s has no ukbench schema: its owner runs 'ukbench fleet-init --db "
			    "TARGET' once to make it",
			    pg->where);
		goto fail;
	}
	*out = pg;
	return 0;
fail:
	pg_close(pg);
	return -1;
}

void pg_close(struct pgstore *pg)
{
	if (!pg)
		return;
	PQfinish(pg->conn);
	free(pg);
}

static int command(struct pgstore *pg, const char *sql, char *err, size_t len)
{
	PGresult *res = PQexec(pg->conn, sql);

	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		return pg_fail(pg, res, err, len);
	PQclear(res);
	return 0;
}

/* GRANT @what TO @role, the role's name quoted as an identifier. */
static int grant(struct pgstore *pg, const char *what, const char *role, char *err, size_t len)
{
	char *id = PQescapeIdentifier(pg->conn, role, strlen(role)), sql[1024];
	int rc;

	if (!id)
		return pg_fail(pg, NULL, err, len);
	snprintf(sql, sizeof(sql), "GRANT %s TO %s", what, id);
	PQfreemem(id);
	rc = command(pg, sql, err, len);
	return rc;
}

int pg_init(struct pgstore *pg, const char *writer, const char *reader, char *msg, size_t mlen,
	    char *err, size_t errlen)
{
	int ver;

	if (command(pg, "BEGIN", err, errlen))
		return -1;
	/* one initialiser at a time */
	if (command(pg, "SELECT pg_advisory_xact_lock(7568734)", err, errlen) ||
	    command(pg, "CREATE TABLE IF NOT EXISTS ukbench_schema (version integer NOT NULL)", err,
		    errlen) ||
	    schema_version(pg, &ver, err, errlen))
		goto rollback;
	if (ver > UKB_PG_SCHEMA_VERSION) {
		store_fail(err, errlen,
			   "%s has the fleet schema version %d, newer than this ukbench's %d",
			   pg->where, ver, UKB_PG_SCHEMA_VERSION);
		goto rollback;
	}
	for (int v = ver; v < UKB_PG_SCHEMA_VERSION; v++)
		if (command(pg, migrations[v], err, errlen))
			goto rollback;
	if (ver < UKB_PG_SCHEMA_VERSION) {
		char sql[96];

		snprintf(sql, sizeof(sql),
			 "DELETE FROM ukbench_schema; INSERT INTO ukbench_schema VALUES (%d)",
			 UKB_PG_SCHEMA_VERSION);
		if (command(pg, sql, err, errlen))
			goto rollback;
	}
	/*
	 * The writer inserts runs and their results, reads the schema's
	 * version and prunes through ukbench_prune(): no UPDATE, no DELETE,
	 * no DDL. The reader selects.
	 */
	if (writer &&
	    (grant(pg, "SELECT ON ukbench_schema", writer, err, errlen) ||
	     grant(pg, "INSERT ON runs, results", writer, err, errlen) ||
	     grant(pg, "USAGE ON SEQUENCE runs_id_seq", writer, err, errlen) ||
	     grant(pg, "EXECUTE ON FUNCTION ukbench_prune(text, text)", writer, err, errlen)))
		goto rollback;
	if (reader && grant(pg, "SELECT ON ukbench_schema, runs, results", reader, err, errlen))
		goto rollback;
	if (command(pg, "COMMIT", err, errlen))
		return -1;
	/*
	 * Schema 6 rewrote the results: until a VACUUM marks their pages
	 * all-visible again, history's index-only scans visit every row
	 * (a year's history of every host took 1.4 s for 0.7). Outside the
	 * transaction, as VACUUM must be; the migration stands if it fails.
	 */
	if (ver && ver < 6 &&
	    (command(pg, "VACUUM (ANALYZE) results", err, errlen) ||
	     command(pg, "ANALYZE runs", err, errlen))) {
		char why[256];

		snprintf(why, sizeof(why), "%s", err);
		store_fail(err, errlen,
			   "migrated to schema %d, but then %s; run VACUUM ANALYZE results on it",
			   UKB_PG_SCHEMA_VERSION, why);
		return -1;
	}
	snprintf(msg, mlen, "%s: fleet schema version %d%s", pg->where, UKB_PG_SCHEMA_VERSION,
		 ver == UKB_PG_SCHEMA_VERSION ? " (already)"
		 : ver			      ? " (migrated)"
					      : " (made)");
	return 0;
rollback:
	PQclear(PQexec(pg->conn, "ROLLBACK"));
	return -1;
}

/* ------------------------------------------------------------------ */
/* Pushing                                                             */

/*
 * The rows of a run's results, made by the server from the run's document
 * ($2, its JSON) in the statement that inserts them: the figures history
 * reads and what the floor reads, from the one text the run is kept as.
 */
static int insert_results(struct pgstore *pg, const struct rec_run *run, const char *doc, char *err,
			  size_t len)
{
	const char *v[4] = { run->uuid, doc, run->host, run->started };
	/* clang-format off */
	PGresult *res = query(
	    pg,
	    "INSERT INTO results (run_uuid, seq, name, benchmark, path, status, samples, mean_ns,"
	    " ci95_rel, median_ns, params, threads, bytes, waited, disturbed, process_means,"
	    " process_ref, host, started)"
	    " SELECT $1::uuid, e.o - 1, e.v->>'name',"
	    " coalesce(nullif(e.v->>'benchmark', ''), e.v->>'name'), e.v->>'path', e.v->>'status',"
	    " coalesce((e.v->>'batches')::integer, CASE WHEN jsonb_typeof(e.v->'samples_ns') ="
	    "  'array' THEN jsonb_array_length(e.v->'samples_ns') ELSE 0 END),"
	    " (e.v->'stats'->>'mean_ns')::float8, (e.v->'stats'->>'ci95_rel')::float8,"
	    " (e.v->'stats'->>'median_ns')::float8, " RESULT_FLOOR_FROM("e.v") ", $3, $4"
	    " FROM jsonb_array_elements($2::jsonb->'results') WITH ORDINALITY e(v, o)",
	    4, v);
	/* clang-format on */

	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		return pg_fail(pg, res, err, len);
	PQclear(res);
	return 0;
}

int pg_push(struct pgstore *pg, const struct rec_run *run, const char *digest_in,
	    const char *doc_in, int *already, char *err, size_t len)
{
	char digest[24], dur[32], nres[24], *doc = NULL;
	const char *v[13];
	int vlen[13] = { 0 }, vfmt[13] = { 0 };
	unsigned char *kept = NULL;
	size_t dlen, klen;
	PGresult *res;

	*already = 0;
	if (!rec_uuid_valid(run->uuid))
		return store_fail(err, len, "run #%lld has no UUID", (long long)run->id);
	if (!doc_in) {
		doc = rec_to_json(run, 0, &dlen);
		if (!doc)
			return store_fail(err, len, "out of memory");
	}
	if (digest_in)
		snprintf(digest, sizeof(digest), "%s", digest_in);
	else
		rec_run_digest(run, digest, sizeof(digest));
	snprintf(dur, sizeof(dur), "%.17g", run->duration_s);
	snprintf(nres, sizeof(nres), "%zu", run->nresults);
	v[0] = run->uuid;
	v[1] = run->label;
	v[2] = run->host;
	v[3] = run->started;
	v[4] = run->kernel_release;
	v[5] = run->ukbench_version;
	v[6] = run->source[0] ? run->source : "run";
	v[7] = isfinite(run->duration_s) ? dur : NULL;
	v[8] = run->interrupted ? "true" : "false";
	v[9] = digest;
	v[10] = nres;
	v[11] = doc ? doc : doc_in;
	/* the server reads the columns from the text ($12) and keeps the document packed ($13) */
	if (doc_pack(v[11], strlen(v[11]), DOC_FOR_SERVER, &kept, &klen, err, len)) {
		free(doc);
		return -1;
	}
	v[12] = (const char *)kept;
	vlen[12] = (int)klen;
	vfmt[12] = 1;
	if (command(pg, "BEGIN", err, len)) {
		free(kept);
		free(doc);
		return -1;
	}
	/* clang-format off */
	res = PQexecParams(pg->conn,
		    "INSERT INTO runs (uuid, label, host, started, kernel_release, ukbench_version,"
		    " source, duration_s, interrupted, digest, nresults, document_z, kernel_version,"
		    " boot_id, reference, load)"
		    " SELECT $1::uuid, $2, $3, $4, $5, $6, $7, $8::float8, $9::boolean, $10,"
		    " $11::integer, $13::bytea, " RUN_COLS_FROM("d")
		    " FROM (SELECT $12::jsonb AS d) j",
		    13, NULL, v, vlen, vfmt, 0);
	free(kept);
	/* clang-format on */
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

		/*
		 * unique_violation: the server has this UUID (pushed before, the
		 * spool not told). No SELECT is needed to learn it, as ON
		 * CONFLICT would need; a concurrent push of the same run waits for
		 * the first and lands here.
		 */
		if (state && !strcmp(state, "23505")) {
			PQclear(res);
			PQclear(PQexec(pg->conn, "ROLLBACK"));
			free(doc);
			*already = 1;
			return 0;
		}
		pg_fail(pg, res, err, len);
		goto rollback;
	}
	PQclear(res);
	if (insert_results(pg, run, v[11], err, len))
		goto rollback;
	free(doc);
	return command(pg, "COMMIT", err, len);
rollback:
	PQclear(PQexec(pg->conn, "ROLLBACK"));
	free(doc);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */

/* cut to @len as snprintf() would; a history copies a million of them */
static void col_text(const PGresult *res, int row, int col, char *buf, size_t len)
{
	size_t n = (size_t)PQgetlength(res, row, col);

	if (!len)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(buf, PQgetvalue(res, row, col), n);
	buf[n] = '\0';
}

static double col_num(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NAN : strtod(PQgetvalue(res, row, col), NULL);
}

/* A glob (* ? [...]) as an anchored POSIX regular expression. */
static void glob_regex(const char *g, char *buf, size_t len)
{
	size_t o = 0;

	buf[o++] = '^';
	for (; *g && o + 4 < len; g++) {
		if (*g == '*') {
			buf[o++] = '.';
			buf[o++] = '*';
		} else if (*g == '?') {
			buf[o++] = '.';
		} else if (*g == '[') {
			const char *end = strchr(g + 1, ']');

			if (!end || (size_t)(end - g) + o + 4 >= len) {
				buf[o++] = '\\';
				buf[o++] = '[';
				continue;
			}
			memcpy(buf + o, g, (size_t)(end - g) + 1);
			o += (size_t)(end - g) + 1;
			g = end;
		} else {
			if (strchr(".^$+(){}|\\", *g))
				buf[o++] = '\\';
			buf[o++] = *g;
		}
	}
	buf[o++] = '$';
	buf[o] = 0;
}

/* The WHERE clause of a filter over runs r, its values from $@first on. */
struct where {
	char sql[512];
	const char *v[8];
	int n;
	char label[512], kernel[512];
};

static void where(struct where *w, const struct store_filter *f, int first)
{
	size_t o = 0;

	w->n = 0;
	w->sql[0] = 0;
#define CLAUSE(cond, val)                                                                          \
	do {                                                                                       \
		o += (size_t)snprintf(w->sql + o, sizeof(w->sql) - o, " AND " cond, first + w->n); \
		w->v[w->n++] = (val);                                                              \
	} while (0)
	if (!f)
		return;
	if (f->label) {
		glob_regex(f->label, w->label, sizeof(w->label));
		CLAUSE("r.label ~ $%d", w->label);
	}
	if (f->host)
		CLAUSE("r.host = $%d", f->host);
	if (f->kernel) {
		glob_regex(f->kernel, w->kernel, sizeof(w->kernel));
		CLAUSE("r.kernel_release ~ $%d", w->kernel);
	}
	if (f->since)
		CLAUSE("r.started >= $%d", f->since);
	if (f->until)
		CLAUSE("r.started <= $%d || '~'", f->until);
#undef CLAUSE
}

int pg_list(struct pgstore *pg, const struct store_filter *f, struct store_run **out, size_t *n,
	    char *err, size_t len)
{
	struct where w;
	char sql[1024], limit[32];
	PGresult *res;
	int rows;

	*out = NULL;
	*n = 0;
	where(&w, f, 1);
	if (f && f->limit)
		snprintf(limit, sizeof(limit), " LIMIT %zu", f->limit);
	else
		limit[0] = 0;
	snprintf(sql, sizeof(sql),
		 "SELECT r.id, r.label, r.host, r.started, r.kernel_release, r.source"
		 " || coalesce(' (pruned ' || to_char(r.pruned, 'YYYY-MM-DD') || ')', ''),"
		 " r.duration_s, r.nresults, r.uuid FROM runs r WHERE true%s"
		 " ORDER BY r.started DESC, r.id DESC%s",
		 w.sql, limit);
	res = query(pg, sql, w.n, w.v);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return pg_fail(pg, res, err, len);
	rows = PQntuples(res);
	*out = calloc((size_t)rows + 1, sizeof(**out));
	if (!*out) {
		PQclear(res);
		return store_fail(err, len, "out of memory");
	}
	for (int i = 0; i < rows; i++) {
		struct store_run *r = &(*out)[i];

		r->id = strtoll(PQgetvalue(res, i, 0), NULL, 10);
		col_text(res, i, 1, r->label, sizeof(r->label));
		col_text(res, i, 2, r->host, sizeof(r->host));
		col_text(res, i, 3, r->started, sizeof(r->started));
		col_text(res, i, 4, r->kernel_release, sizeof(r->kernel_release));
		col_text(res, i, 5, r->source, sizeof(r->source));
		r->duration_s = col_num(res, i, 6);
		r->nresults = (size_t)strtoul(PQgetvalue(res, i, 7), NULL, 10);
		col_text(res, i, 8, r->uuid, sizeof(r->uuid));
	}
	*n = (size_t)rows;
	PQclear(res);
	return 0;
}

/*
 * A summary's processes, from its results' rows where its document does
 * not hold them (schema 5 on): exactly the numbers it was pushed with
 * (sent in binary; single precision from schema 6, as the record keeps
 * them). Run @ids (its id as text) is @name.
 */
static int load_procs(struct pgstore *pg, const char *ids, const char *name, struct rec_run *run,
		      char *err, size_t len)
{
	const char *v[1] = { ids };
	PGresult *res;
	size_t missing = 0;
	int rc = 0;

	for (size_t i = 0; i < run->nresults; i++)
		missing += run->results[i].summary && !run->results[i].nproc;
	if (!missing)
		return 0;
	res = query_bin(pg,
			"SELECT x.seq::text, x.process_means, x.process_ref FROM results x"
			" JOIN runs r ON r.uuid = x.run_uuid WHERE r.id = $1::bigint"
			" AND x.process_means IS NOT NULL",
			1, v);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return pg_fail(pg, res, err, len);
	for (int i = 0; i < PQntuples(res) && !rc; i++) {
		size_t seq = strtoul(PQgetvalue(res, i, 0), NULL, 10), n = 0, nref = 0;
		double *means = NULL, *refs = NULL;
		struct rec_result *r = seq < run->nresults ? &run->results[seq] : NULL;

		if (!r || !r->summary || r->nproc)
			continue;
		if (numbers(res, i, 1, 1, &means, &n) || numbers(res, i, 2, 1, &refs, &nref)) {
			rc = store_fail(err, len, "out of memory");
			free(means);
			free(refs);
			continue;
		}
		free(r->proc_means);
		free(r->proc_ref);
		r->proc_means = means;
		r->proc_ref = nref == n ? refs : (free(refs), NULL);
		r->nproc = n;
		rec_result_restat(r);
	}
	PQclear(res);
	for (size_t i = 0; i < run->nresults && !rc; i++)
		if (run->results[i].summary && run->results[i].nproc < 2)
			rc = store_fail(err, len,
					"%s: results[%zu] is a summary whose processes' means the "
					"server does not hold",
					name, i);
	return rc;
}

int pg_load(struct pgstore *pg, int64_t id, struct rec_run *run, char *err, size_t len)
{
	char ids[24], name[64];
	const char *v[1] = { ids };
	PGresult *res;
	int rc;

	snprintf(ids, sizeof(ids), "%lld", (long long)id);
	/* in binary: the document as text, or its packed bytes as they are */
	res =
	    query_bin(pg,
		      "SELECT document, label, to_char(pruned, 'YYYY-MM-DD'), document_z FROM runs"
		      " WHERE id = $1::bigint",
		      1, v);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return pg_fail(pg, res, err, len);
	if (!PQntuples(res)) {
		PQclear(res);
		return 1;
	}
	if (PQgetisnull(res, 0, 0) && PQgetisnull(res, 0, 3)) {
		store_fail(err, len,
			   "run #%lld of %s was pruned on %s (fleet-prune): history keeps its "
			   "figures, its detail (processes, counters, samples) is gone",
			   (long long)id, pg->where, PQgetvalue(res, 0, 2));
		PQclear(res);
		return -1;
	}
	snprintf(name, sizeof(name), "run #%lld of %.32s", (long long)id, pg->where);
	memset(run, 0, sizeof(*run));
	if (PQgetisnull(res, 0, 3)) {
		rc = rec_from_json_beside(run, PQgetvalue(res, 0, 0),
					  (size_t)PQgetlength(res, 0, 0), name, err, len);
	} else {
		char *text, e2[256];
		size_t tlen;

		rc = doc_unpack((const unsigned char *)PQgetvalue(res, 0, 3),
				(size_t)PQgetlength(res, 0, 3), &text, &tlen, e2, sizeof(e2));
		if (rc)
			store_fail(err, len, "%s: %s", name, e2);
		else
			rc = rec_from_json_beside(run, text, tlen, name, err, len);
		free(text);
	}
	if (!rc) {
		run->id = id;
		snprintf(run->label, sizeof(run->label), "%s", PQgetvalue(res, 0, 1));
	}
	PQclear(res);
	if (!rc && (rc = load_procs(pg, ids, name, run, err, len)))
		rec_run_release(run);
	return rc ? -1 : 0;
}

int pg_find_same(struct pgstore *pg, const struct rec_run *run, int64_t *id, char *err, size_t len)
{
	char digest[24];
	const char *v[2] = { run->uuid[0] ? run->uuid : NULL, digest };
	PGresult *res;
	int found;

	rec_run_digest(run, digest, sizeof(digest));
	res = query(pg,
		    "SELECT id FROM runs WHERE uuid = $1::uuid OR digest = $2 ORDER BY id LIMIT 1",
		    2, v);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return pg_fail(pg, res, err, len);
	found = PQntuples(res) > 0;
	if (found)
		*id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	return found;
}

/* @v[0..n) as a text[] literal: {"a","b"}, quotes and backslashes escaped. */
static char *text_array(char *const *v, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return NULL;
	fputc('{', m);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\"" : "\"", m);
		for (const char *s = v[i]; *s; s++) {
			if (*s == '"' || *s == '\\')
				fputc('\\', m);
			fputc(*s, m);
		}
		fputc('"', m);
	}
	fputc('}', m);
	if (fclose(m)) {
		free(text);
		return NULL;
	}
	return text;
}

/*
 * The (name, path) pairs stored whose path matches a pattern (all when
 * none), with each one's benchmark: three text[] literals.
 */
static int wanted_pairs(struct pgstore *pg, char **pats, int npats, char **names, char **paths,
			char **benches, char *err, size_t len)
{
	/*
	 * The distinct paths, one index probe each (a loose index scan over
	 * results_by_host), and a benchmark's name for each: a few dozen,
	 * however many runs are stored.
	 */
#define OK_ROW " status = 'ok' AND samples > 0"
	PGresult *res =
	    PQexec(pg->conn,
		   "WITH RECURSIVE t (name, path) AS ("
		   " (SELECT name, path FROM results WHERE" OK_ROW " ORDER BY name, path LIMIT 1)"
		   " UNION ALL"
		   " SELECT n.name, n.path FROM t, LATERAL ("
		   "  SELECT name, path FROM results WHERE" OK_ROW
		   "  AND (name, path) > (t.name, t.path) ORDER BY name, path LIMIT 1) n)"
		   " SELECT t.name, t.path, (SELECT benchmark FROM results b WHERE b.name = t.name"
		   "  AND b.path = t.path AND" OK_ROW " LIMIT 1) FROM t");
#undef OK_ROW
	char **nv = NULL, **pv = NULL, **bv = NULL;
	size_t k = 0;
	int rows;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return pg_fail(pg, res, err, len);
	rows = PQntuples(res);
	nv = calloc((size_t)rows + 1, sizeof(*nv));
	pv = calloc((size_t)rows + 1, sizeof(*pv));
	bv = calloc((size_t)rows + 1, sizeof(*bv));
	if (!nv || !pv || !bv) {
		free(nv);
		free(pv);
		free(bv);
		PQclear(res);
		return store_fail(err, len, "out of memory");
	}
	for (int i = 0; i < rows; i++) {
		char *name = PQgetvalue(res, i, 0), *path = PQgetvalue(res, i, 1);
		int hit = !npats;

		for (int p = 0; p < npats && !hit; p++)
			hit = pattern_matches(pats[p], name, PQgetvalue(res, i, 2), path);
		if (!hit)
			continue;
		nv[k] = name;
		bv[k] = PQgetvalue(res, i, 2);
		pv[k++] = path;
	}
	if (pg->paths_known)
		pg->paths_known(pg->paths_ctx, nv, pv, k);
	*names = text_array(nv, k);
	*paths = text_array(pv, k);
	*benches = text_array(bv, k);
	free(nv);
	free(pv);
	free(bv);
	PQclear(res);
	if (!*names || !*paths || !*benches) {
		free(*names);
		free(*paths);
		free(*benches);
		*names = *paths = *benches = NULL;
		return store_fail(err, len, "out of memory");
	}
	return 0;
}

/* A row of pg_points()' statement, in the order its points are wanted. */
struct point_row {
	uint64_t k[2]; /* the start's first 16 bytes, big-endian: strcmp() in two steps */
	const char *started;
	long long id, seq;
	int row;
};

static void point_row_key(struct point_row *p)
{
	size_t n = strlen(p->started);

	for (size_t i = 0; i < 16; i++)
		p->k[i / 8] = p->k[i / 8] << 8 | (i < n ? (unsigned char)p->started[i] : 0);
}

/* oldest run first (its start, then its id), each run's results in their order */
static int cmp_point_row(const void *x, const void *y)
{
	const struct point_row *a = x, *b = y;
	int d;

	for (int i = 0; i < 2; i++)
		if (a->k[i] != b->k[i])
			return a->k[i] < b->k[i] ? -1 : 1;
	if ((d = strcmp(a->started, b->started)))
		return d;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/*
 * The rows come unsorted and are put in order here: a history of every
 * host is a hundred thousand of them, which the server sorted in a
 * hundred milliseconds while this waited.
 */
int pg_points(struct pgstore *pg, const struct store_filter *f, char **pats, int npats,
	      struct rec_point **out, size_t *n, char *err, size_t len)
{
	struct rec_points b = { 0 };
	struct point_row *order;
	struct where w;
	char sql[2048], *names = NULL, *paths = NULL, *benches = NULL;
	const char *v[11];
	PGresult *res;
	int rows;

	*out = NULL;
	*n = 0;
	if (wanted_pairs(pg, pats, npats, &names, &paths, &benches, err, len))
		return -1;
	where(&w, f, 4);
	snprintf(sql, sizeof(sql),
		 /* every column of results read is in results_by_host: index-only */
		 "SELECT r.id, r.label, r.host, r.started, r.kernel_release, x.name, w.benchmark,"
		 " x.path, x.mean_ns, x.ci95_rel, r.uuid, x.seq"
		 " FROM unnest($1::text[], $2::text[], $3::text[]) AS w(name, path, benchmark)"
		 " JOIN results x ON x.name = w.name AND x.path = w.path"
		 " JOIN runs r ON r.uuid = x.run_uuid"
		 " WHERE x.status = 'ok' AND x.samples > 0 AND NOT r.interrupted%s%s",
		 w.sql, f && f->host ? " AND x.host = r.host" : "");
	v[0] = names;
	v[1] = paths;
	v[2] = benches;
	for (int i = 0; i < w.n; i++)
		v[3 + i] = w.v[i];
	res = query(pg, sql, 3 + w.n, v);
	free(names);
	free(paths);
	free(benches);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return pg_fail(pg, res, err, len);
	rows = PQntuples(res);
	order = calloc((size_t)rows + 1, sizeof(*order));
	if (!order) {
		PQclear(res);
		return store_fail(err, len, "out of memory");
	}
	for (int i = 0; i < rows; i++) {
		order[i].started = PQgetvalue(res, i, 3);
		point_row_key(&order[i]);
		order[i].row = i;
		order[i].id = strtoll(PQgetvalue(res, i, 0), NULL, 10);
		order[i].seq = strtoll(PQgetvalue(res, i, 11), NULL, 10);
	}
	qsort(order, (size_t)rows, sizeof(*order), cmp_point_row);
	for (int k = 0; k < rows; k++) {
		int i = order[k].row;
		const char *t[RP_NTEXT] = {
			[RP_UUID] = PQgetvalue(res, i, 10),
			[RP_LABEL] = PQgetvalue(res, i, 1),
			[RP_HOST] = PQgetvalue(res, i, 2),
			[RP_STARTED] = PQgetvalue(res, i, 3),
			[RP_KERNEL] = PQgetvalue(res, i, 4),
			[RP_NAME] = PQgetvalue(res, i, 5),
			[RP_BENCHMARK] = PQgetvalue(res, i, 6),
			[RP_PATH] = PQgetvalue(res, i, 7),
		};

		if (rec_points_add(&b, order[k].id, (size_t)order[k].seq, col_num(res, i, 8),
				   col_num(res, i, 9), t))
			break;
	}
	free(order);
	PQclear(res);
	*out = rec_points_take(&b, n);
	if (*out && *n == (size_t)rows)
		return 0;
	free(*out);
	*out = NULL;
	*n = 0;
	return store_fail(err, len, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Pruning                                                             */

int pg_prune(struct pgstore *pg, const char *before, const char *keep, int dry, long long *pruned,
	     long long *kept, char *err, size_t len)
{
	char keep_re[512];
	const char *v[2] = { before, NULL };
	PGresult *res;

	if (keep) {
		glob_regex(keep, keep_re, sizeof(keep_re));
		v[1] = keep_re;
	}
	/* one statement, one transaction; a dry run's is rolled back */
	if (command(pg, "BEGIN", err, len))
		return -1;
	res = query(pg, "SELECT nruns, nkept FROM ukbench_prune($1, $2)", 2, v);
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
		const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

		if (state && !strcmp(state, "42501")) { /* insufficient_privilege */
			PQclear(res);
			store_fail(err, len,
				   "%s refuses this role: pruning is granted to the writer "
				   "(fleet-init --writer ROLE) and the schema's owner",
				   pg->where);
		} else {
			pg_fail(pg, res, err, len);
		}
		PQclear(PQexec(pg->conn, "ROLLBACK"));
		return -1;
	}
	*pruned = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	*kept = strtoll(PQgetvalue(res, 0, 1), NULL, 10);
	PQclear(res);
	if (dry) {
		PQclear(PQexec(pg->conn, "ROLLBACK"));
		return 0;
	}
	return command(pg, "COMMIT", err, len);
}

/* ------------------------------------------------------------------ */
/* The server as a store that is read (store-backend.h)               */

/* What one statement told of the floor's inputs (pgr_path_runs()). */
struct pr_cache {
	PGresult *res;
	int kind; /* enum pr_kind: one host's path, a host's every path, paths' every host */
	char host[128], name[128], path[64];
	struct pr_set *set; /* PR_PATH: the paths */
	size_t max;
	unsigned long used;
};

/* Paths: @name[i] and @path[i], copied into the set's own block. */
struct pr_set {
	size_t n;
	char **name, **path;
};

static struct pr_set *pr_set_new(const char *const *names, const char *const *paths, size_t n)
{
	size_t len = 0;
	struct pr_set *set;
	char *t;

	for (size_t i = 0; i < n; i++)
		len += strlen(names[i]) + strlen(paths[i]) + 2;
	set = malloc(sizeof(*set) + 2 * (n + 1) * sizeof(char *) + len);
	if (!set)
		return NULL;
	set->n = n;
	set->name = (char **)(set + 1);
	set->path = set->name + n + 1;
	t = (char *)(set->path + n + 1);
	for (size_t i = 0; i < n; i++) {
		set->name[i] = t;
		t = stpcpy(t, names[i]) + 1;
		set->path[i] = t;
		t = stpcpy(t, paths[i]) + 1;
	}
	return set;
}

static int pr_set_has(const struct pr_set *set, const char *name, const char *path)
{
	for (size_t i = 0; set && i < set->n; i++)
		if (!strcmp(set->name[i], name) && !strcmp(set->path[i], path))
			return 1;
	return 0;
}

#define PR_CACHED 4
/* at least this many runs a path are fetched, whatever the first ask wants */
#define FLOOR_FETCH 200
/* the most paths whose every host is asked ahead at once: a path's rows are megabytes */
#define PF_PATHS 4

struct pg_reader {
	struct pgstore *pg;
	char target[1024]; /* as it was named */
	struct pr_cache pr[PR_CACHED];
	unsigned long pr_tick;
	char pr_host[128], pr_name[128], pr_path[64]; /* the last ask */
	int pr_asked;
	/*
	 * paths' every host asked ahead (prefetch_path()), on a connection of
	 * its own: @pf the paths asked, @all every path in the order the floor
	 * is learned, @next the first of them not yet asked
	 */
	struct pgstore *side;
	struct pr_set *pf, *all;
	size_t next, taken;
	/* the hosts asked for since the last paths were taken: 2 is many */
	char pf_host[128];
	int pf_hosts;
};

static int pgr_claims(const char *where, int reader)
{
	/* a fleet's store is written through its spool (the SQLite backend) */
	return reader && store_is_fleet(where);
}

static int pgr_open(const char *where, int reader, void **impl, char *err, size_t len)
{
	struct pg_reader *r = calloc(1, sizeof(*r));

	(void)reader;
	*impl = NULL;
	if (!r)
		return store_fail(err, len, "out of memory");
	if (strlen(where) >= sizeof(r->target)) {
		free(r);
		return store_fail(err, len, "the database URI is too long");
	}
	snprintf(r->target, sizeof(r->target), "%s", where);
	if (pg_open(where, 0, &r->pg, err, len) || !r->pg) {
		free(r);
		return -1;
	}
	/*
	 * A history of every host sorts and joins a hundred thousand rows:
	 * in memory, not in files, as the server's default of 4 MB would
	 * have it. A refusal changes nothing but the speed.
	 */
	PQclear(PQexec(r->pg->conn, "SET work_mem = '64MB'"));
	*impl = r;
	return 0;
}

static void pgr_close(void *impl)
{
	struct pg_reader *r = impl;

	if (!r)
		return;
	for (int i = 0; i < PR_CACHED; i++) {
		PQclear(r->pr[i].res);
		free(r->pr[i].set);
	}
	free(r->pf);
	free(r->all);
	pg_close(r->side);
	pg_close(r->pg);
	free(r);
}

static const char *pgr_where(const void *impl)
{
	return ((const struct pg_reader *)impl)->target;
}

static int pgr_save(void *impl, struct rec_run *run, char *err, size_t len)
{
	(void)impl;
	(void)run;
	return store_fail(err, len, "a fleet's server is read here; runs are pushed to it");
}

static int pgr_find_same(void *impl, const struct rec_run *run, int64_t *id, char *err, size_t len)
{
	return pg_find_same(((struct pg_reader *)impl)->pg, run, id, err, len);
}

static int pgr_load_matching(void *impl, int64_t id, const char *name, const char *path,
			     struct rec_run *run, char *err, size_t len)
{
	int rc = pg_load(((struct pg_reader *)impl)->pg, id, run, err, len);

	if (!rc)
		store_keep_matching(run, name, path);
	return rc;
}

static int pgr_list(void *impl, const struct store_filter *f, struct store_run **out, size_t *n,
		    char *err, size_t len)
{
	return pg_list(((struct pg_reader *)impl)->pg, f, out, n, err, len);
}

/*
 * The server's tables with their indexes and TOAST (a run's document,
 * compressed), and what they hold; a document's samples are not counted.
 */
static int pgr_size(void *impl, struct store_size *out, char *err, size_t len)
{
	struct pgstore *pg = ((struct pg_reader *)impl)->pg;
	PGresult *res =
	    query(pg,
		  "SELECT pg_total_relation_size('runs') + pg_total_relation_size('results'),"
		  " (SELECT count(*) FROM runs), (SELECT count(*) FROM results)",
		  0, NULL);

	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
		return pg_fail(pg, res, err, len);
	out->bytes = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	out->runs = strtoll(PQgetvalue(res, 0, 1), NULL, 10);
	out->results = strtoll(PQgetvalue(res, 0, 2), NULL, 10);
	PQclear(res);
	return 0;
}

/*
 * What the floor reads, from the columns a push fills from the run's
 * document (RUN_COLS_FROM, RESULT_FLOOR_FROM): no document is parsed.
 * A comparison asks it for every path of one or two hosts, history for
 * paths of every host. The first ask fetches its own rows; an ask of
 * the same host for another path fetches the host's every path, of the
 * same path for another host the path's every host; the asks after it are
 * answered from what was fetched (PR_CACHED such answers kept, the one
 * used longest ago dropped). A history of a few paths over every host
 * asks for all of them ahead (prefetch_path()).
 */
enum pr_kind { PR_ONE, PR_HOST, PR_PATH };

#define PR_COLS                                                                                    \
	"r.id, r.label, r.started, r.kernel_release, r.kernel_version, r.boot_id,"                 \
	" r.ukbench_version, r.reference, x.params, x.threads, x.bytes, r.load,"                   \
	" x.waited, x.disturbed, x.process_means, x.process_ref"
/*
 * @part: the rows numbered newest first within it; @cond: which. Asked
 * for in binary (query_bin()): the arrays as the server holds them (a
 * history of every host reads a million numbers: printing and parsing
 * them as text took half its time), every other column as text.
 */
#define PR_QUERY(part, cond, order)                                                                \
	"SELECT name, path, host, id::text, label, started, kernel_release, kernel_version,"       \
	" boot_id, ukbench_version, reference, params, threads::text, bytes::text, load::text,"    \
	" waited::text, disturbed::text, process_means, process_ref"                               \
	" FROM (SELECT x.name, x.path, x.host, " PR_COLS ", row_number() OVER"                     \
	" (PARTITION BY " part " ORDER BY x.started DESC, r.id DESC) k"                            \
	" FROM results x JOIN runs r ON r.uuid = x.run_uuid WHERE NOT r.interrupted"               \
	" AND x.status = 'ok' AND x.samples > 0 AND x.process_means IS NOT NULL AND " cond ") q"   \
	" WHERE k <= $4::bigint ORDER BY " order

/*
 * $1 host, $2 name, $3 path, $4 the runs a path (a statement names each
 * parameter, typed, whether it needs it or not); a host's every path is
 * found from runs_by_host, a path's rows from results_detail
 */
static const char *const pr_sql[] = {
	[PR_ONE] = PR_QUERY("x.name", "x.host = $1 AND x.name = $2 AND x.path = $3", "k"),
	[PR_HOST] =
	    PR_QUERY("x.name, x.path",
		     "r.host = $1 AND x.host = $1 AND coalesce($2::text, $3::text, '') <> ''",
		     "name COLLATE \"C\", path COLLATE \"C\", k"),
	[PR_PATH] = PR_QUERY("x.name, x.path, x.host",
			     "x.name = $2 AND x.path = $3 AND $1::text IS NOT NULL",
			     "name COLLATE \"C\", path COLLATE \"C\", host COLLATE \"C\", k"),
};

/*
 * PR_PATH for several paths, $2 and $3 their names and paths (text[]),
 * in PR_PATH's order. One path is asked as PR_PATH: knowing its rows are
 * many, the server joins them to their runs by a hash, twice as fast.
 */
static const char pr_sql_paths[] =
    PR_QUERY("x.name, x.path, x.host",
	     "(x.name, x.path) IN (SELECT * FROM unnest($2::text[], $3::text[]))"
	     " AND $1::text IS NOT NULL",
	     "name COLLATE \"C\", path COLLATE \"C\", host COLLATE \"C\", k");

/* Nothing more asked ahead: what was is dropped. */
static void prefetch_end(struct pg_reader *r)
{
	pg_close(r->side);
	r->side = NULL;
	free(r->pf);
	free(r->all);
	r->pf = r->all = NULL;
}

/* Asks for the next PF_PATHS paths of r->all on the second connection. */
static int prefetch_next(struct pg_reader *r)
{
	size_t k = r->all->n - r->next < PF_PATHS ? r->all->n - r->next : PF_PATHS;
	const char *const *nv = (const char *const *)r->all->name + r->next,
			  *const *pv = (const char *const *)r->all->path + r->next;
	char lim[24], *na, *pa;
	int sent;

	r->next += k;
	free(r->pf);
	r->pf = pr_set_new(nv, pv, k);
	if (!k || !r->pf)
		return -1;
	na = text_array(r->pf->name, k);
	pa = text_array(r->pf->path, k);
	if (!na || !pa) {
		free(na);
		free(pa);
		return -1;
	}
	snprintf(lim, sizeof(lim), "%d", FLOOR_FETCH);
	if (k == 1)
		sent = PQsendQueryParams(r->side->conn, pr_sql[PR_PATH], 4, NULL,
					 (const char *const[]){ "", nv[0], pv[0], lim }, NULL, NULL,
					 1);
	else
		sent = PQsendQueryParams(r->side->conn, pr_sql_paths, 4, NULL,
					 (const char *const[]){ "", na, pa, lim }, NULL, NULL, 1);
	free(na);
	free(pa);
	return sent ? 0 : -1;
}

static int by_name_path(const void *a, const void *b)
{
	const char *const *x = a, *const *y = b;
	int d = strcmp(x[0], y[0]);

	return d ? d : strcmp(x[1], y[1]);
}

/*
 * History of paths over every host reads the floor's rows of every host
 * next (PR_PATH), path after path: asked on a second connection, the
 * server finds the first paths' while it finds the points, and each next
 * few while the floors of those before are learned, where asking when
 * needed would add its time to theirs. Nothing is lost when it fails:
 * pr_fetch() asks as before.
 */
static void prefetch_path(void *ctx, char *const *names, char *const *paths, size_t n)
{
	struct pg_reader *r = ctx;
	const char **pairs, **nv, **pv;
	char err[256];

	if (!n || r->side || r->pf || r->all)
		return;
	/* in the order floor_series() learns them: by name, then path */
	pairs = calloc(2 * n, sizeof(*pairs));
	nv = calloc(n, sizeof(*nv));
	pv = calloc(n, sizeof(*pv));
	if (pairs && nv && pv) {
		for (size_t i = 0; i < n; i++) {
			pairs[2 * i] = names[i];
			pairs[2 * i + 1] = paths[i];
		}
		qsort(pairs, n, 2 * sizeof(*pairs), by_name_path);
		for (size_t i = 0; i < n; i++) {
			nv[i] = pairs[2 * i];
			pv[i] = pairs[2 * i + 1];
		}
		r->all = pr_set_new(nv, pv, n);
	}
	free(pairs);
	free(nv);
	free(pv);
	r->next = r->taken = 0;
	r->pf_hosts = 0;
	if (!r->all || pg_open(r->target, 0, &r->side, err, sizeof(err)) || !r->side) {
		prefetch_end(r);
		return;
	}
	/* in memory, alone: it runs beside the points' statement and the reading of them */
	PQclear(PQexec(r->side->conn,
		       "SET work_mem = '64MB'; SET max_parallel_workers_per_gather = 0"));
	if (prefetch_next(r))
		prefetch_end(r);
}

/*
 * The rows asked ahead, when they answer (name, path) up to @max runs, and
 * the paths they hold (@set); NULL otherwise. The next paths are asked for
 * at once.
 */
static PGresult *prefetched(struct pg_reader *r, const char *host, const char *name,
			    const char *path, size_t max, struct pr_set **set)
{
	PGresult *res, *got = NULL;

	*set = NULL;
	if (!r->side)
		return NULL;
	while ((res = PQgetResult(r->side->conn))) {
		if (!got && PQresultStatus(res) == PGRES_TUPLES_OK)
			got = res;
		else
			PQclear(res);
	}
	if (!got || !pr_set_has(r->pf, name, path) || max > FLOOR_FETCH) {
		PQclear(got);
		prefetch_end(r);
		return NULL;
	}
	*set = r->pf;
	r->pf = NULL;
	/*
	 * Floors learned host by host (fewer hosts than paths) ask for one
	 * host's paths in turn: after the first two, a host's every path is
	 * fetched as it is asked for (PR_HOST), not every host's.
	 */
	if (r->next >= r->all->n || (r->taken++ && r->pf_hosts < 2) || prefetch_next(r))
		prefetch_end(r);
	snprintf(r->pf_host, sizeof(r->pf_host), "%s", host);
	r->pf_hosts = 1;
	return got;
}

static int pgr_points(void *impl, const struct store_filter *f, char **pats, int npats,
		      struct rec_point **out, size_t *n, char *err, size_t len)
{
	struct pg_reader *r = impl;
	int rc;

	/* every host's history, not some hosts': their rows are what the floor reads */
	if (!f || (!f->host && !f->label && !f->kernel && !f->since && !f->until))
		r->pg->paths_known = prefetch_path;
	r->pg->paths_ctx = r;
	rc = pg_points(r->pg, f, pats, npats, out, n, err, len);
	r->pg->paths_known = NULL;
	return rc;
}

/* The key of row @i of @c against (host, name, path), in the fetch's order. */
static int pr_cmp(const struct pr_cache *c, int i, const char *host, const char *name,
		  const char *path)
{
	int d;

	d = strcmp(PQgetvalue(c->res, i, 0), name);
	if (!d)
		d = strcmp(PQgetvalue(c->res, i, 1), path);
	return d || c->kind != PR_PATH ? d : strcmp(PQgetvalue(c->res, i, 2), host);
}

static int pr_covers(const struct pr_cache *c, const char *host, const char *name, const char *path,
		     size_t max)
{
	int same_host = !strcmp(c->host, host),
	    same_path = !strcmp(c->name, name) && !strcmp(c->path, path);

	if (!c->res || max > c->max)
		return 0;
	return c->kind == PR_PATH   ? pr_set_has(c->set, name, path)
	       : c->kind == PR_HOST ? same_host
				    : same_host && same_path;
}

/* The fetch that answers (host, name, path), made when none does. */
static struct pr_cache *pr_fetch(struct pg_reader *r, const char *host, const char *name,
				 const char *path, size_t max, char *err, size_t len)
{
	const char *v[4] = { host, name, path, NULL };
	struct pr_set *set = NULL;
	struct pr_cache *c;
	enum pr_kind kind = PR_ONE;
	char lim[24];
	PGresult *res;

	/* the hosts asked for since paths asked ahead were taken (prefetched()) */
	if (r->all && r->pf_hosts < 2 && (!r->pf_hosts || strcmp(r->pf_host, host))) {
		if (!r->pf_hosts)
			snprintf(r->pf_host, sizeof(r->pf_host), "%s", host);
		r->pf_hosts++;
	}
	for (int i = 0; i < PR_CACHED; i++)
		if (pr_covers(&r->pr[i], host, name, path, max)) {
			r->pr[i].used = ++r->pr_tick;
			return &r->pr[i];
		}
	res = prefetched(r, host, name, path, max, &set);
	if (res || (r->pr_asked && !strcmp(r->pr_name, name) && !strcmp(r->pr_path, path)))
		kind = PR_PATH;
	else if (r->pr_asked && !strcmp(r->pr_host, host))
		kind = PR_HOST;
	if (kind == PR_PATH && !res && !(set = pr_set_new(&name, &path, 1))) {
		store_fail(err, len, "out of memory");
		return NULL;
	}
	snprintf(r->pr_host, sizeof(r->pr_host), "%s", host);
	snprintf(r->pr_name, sizeof(r->pr_name), "%s", name);
	snprintf(r->pr_path, sizeof(r->pr_path), "%s", path);
	r->pr_asked = 1;
	snprintf(lim, sizeof(lim), "%zu", max);
	v[3] = lim;
	if (res)
		max = FLOOR_FETCH;
	else
		res = query_bin(r->pg, pr_sql[kind], 4, v);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		free(set);
		pg_fail(r->pg, res, err, len);
		return NULL;
	}
	/* an empty place, else the one used longest ago */
	c = &r->pr[0];
	for (int i = 1; i < PR_CACHED && c->res; i++)
		if (!r->pr[i].res || r->pr[i].used < c->used)
			c = &r->pr[i];
	PQclear(c->res);
	free(c->set);
	memset(c, 0, sizeof(*c));
	c->res = res;
	c->set = set;
	c->kind = kind;
	c->max = max;
	c->used = ++r->pr_tick;
	snprintf(c->host, sizeof(c->host), "%s", host);
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->path, sizeof(c->path), "%s", path);
	return c;
}

/* Row @i of @res (its first column at @o) as a run of a path. */
static int pr_row(PGresult *res, int i, int o, struct store_path_run *p)
{
	size_t nref;

	p->id = strtoll(PQgetvalue(res, i, o), NULL, 10);
	col_text(res, i, o + 1, p->label, sizeof(p->label));
	col_text(res, i, o + 2, p->started, sizeof(p->started));
	col_text(res, i, o + 3, p->kernel, sizeof(p->kernel));
	col_text(res, i, o + 4, p->build, sizeof(p->build));
	col_text(res, i, o + 5, p->boot, sizeof(p->boot));
	col_text(res, i, o + 6, p->version, sizeof(p->version));
	col_text(res, i, o + 7, p->ref_kind, sizeof(p->ref_kind));
	if (!p->ref_kind[0])
		snprintf(p->ref_kind, sizeof(p->ref_kind), "%s", UKB_REF_KIND_BEFORE);
	col_text(res, i, o + 8, p->params, sizeof(p->params));
	p->threads = (unsigned)strtoul(PQgetvalue(res, i, o + 9), NULL, 10);
	p->bytes = strtol(PQgetvalue(res, i, o + 10), NULL, 10);
	p->load = col_num(res, i, o + 11);
	p->waited = col_num(res, i, o + 12);
	p->disturbed = col_num(res, i, o + 13);
	if (numbers(res, i, o + 14, 0, &p->means, &p->n) ||
	    numbers(res, i, o + 15, 0, &p->refs, &nref))
		return -1;
	if (nref != p->n) {
		free(p->refs);
		p->refs = NULL;
	}
	return 0;
}

static int pgr_path_runs(void *impl, const char *host, const char *name, const char *path,
			 size_t max, struct store_path_run **out, size_t *n, char *err, size_t len)
{
	struct pg_reader *r = impl;
	struct pr_cache *c;
	int lo = 0, hi, first;

	*out = NULL;
	*n = 0;
	c = pr_fetch(r, host, name, path, max < FLOOR_FETCH ? FLOOR_FETCH : max, err, len);
	if (!c)
		return -1;
	/* the first row of the key: the rows are in its order */
	hi = PQntuples(c->res);
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (pr_cmp(c, mid, host, name, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	hi = first;
	while (hi < PQntuples(c->res) && (size_t)(hi - first) < max &&
	       !pr_cmp(c, hi, host, name, path))
		hi++;
	*out = calloc((size_t)(hi - first) + 1, sizeof(**out));
	if (!*out)
		return store_fail(err, len, "out of memory");
	for (int i = first; i < hi; i++) {
		*n = (size_t)(i - first) + 1;
		if (pr_row(c->res, i, 3, &(*out)[i - first])) {
			store_path_runs_free(*out, *n);
			*out = NULL;
			*n = 0;
			return store_fail(err, len, "out of memory");
		}
	}
	return 0;
}

static int pgr_edit(void *impl, const int64_t *ids, size_t n, const char *label, char *err,
		    size_t len)
{
	(void)impl, (void)ids, (void)n, (void)label;
	return store_fail(err, len,
			  "a fleet's server keeps every run it was sent: runs are changed "
			  "in each machine's own store");
}

static int pgr_floor_reset(void *impl, const char *host, size_t *nruns, char *err, size_t len)
{
	(void)impl, (void)host;
	*nruns = 0;
	return store_fail(err, len, "calibrations are kept by each machine's own store");
}

static int pgr_floor_put(void *impl, const char *host, const struct store_floor *f, char *err,
			 size_t len)
{
	(void)impl, (void)host, (void)f;
	return store_fail(err, len, "calibrations are kept by each machine's own store");
}

const struct store_ops store_pg_ops = {
	.version = UKB_STORE_OPS_VERSION,
	.name = "PostgreSQL",
	.claims = pgr_claims,
	.open = pgr_open,
	.close = pgr_close,
	.where = pgr_where,
	.target = pgr_where,
	.save = pgr_save,
	.find_same = pgr_find_same,
	.load_matching = pgr_load_matching,
	.list = pgr_list,
	.size = pgr_size,
	.points = pgr_points,
	.path_runs = pgr_path_runs,
	.edit = pgr_edit,
	.floor_reset = pgr_floor_reset,
	.floor_put = pgr_floor_put,
	/* no floor_get: a server keeps no calibrations, none is known */
};
