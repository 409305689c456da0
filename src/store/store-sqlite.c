// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store-sqlite.c - the results store in an SQLite file.
 *
 * Layout: runs (one row per run, the environment and settings as JSON
 * text), results (one row per benchmark path, with its statistics as
 * columns so that SQL can query them), samples (every batch, in order),
 * counters (per result and event). Migrations run in order inside one
 * transaction; each is applied once, recorded in PRAGMA user_version.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "doc-pack.h"
#include "fields.h"
#include "jv.h"
#include "json-write.h"
#include "reference.h"
#include "store.h"
#include "store-sqlite.h"
#include "match.h"

struct sqlite_store {
	sqlite3 *db; /* the SQLite file, or a fleet's spool */
	char path[PATH_MAX];
	/* a fleet's server: runs saved here wait to be pushed to it */
	char target[1024];
};

static void sqlite_close(void *impl);

static const char *const migrations[] = {
	/* 1: runs, their results and every sample */
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  label TEXT NOT NULL DEFAULT '',"
	"  host TEXT NOT NULL,"
	"  started TEXT NOT NULL,"
	"  ukbench_version TEXT,"
	"  kernel_release TEXT,"
	"  duration_s REAL,"
	"  interrupted INTEGER NOT NULL DEFAULT 0,"
	"  environment TEXT, settings TEXT, clock TEXT, vdso TEXT);"
	"CREATE TABLE results ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  name TEXT NOT NULL, benchmark TEXT, variant TEXT, path TEXT NOT NULL,"
	"  unit TEXT, detail TEXT, vdso_symbol TEXT,"
	"  status TEXT NOT NULL, errno INTEGER, reason TEXT, cpu INTEGER,"
	"  batch_iterations INTEGER, batch_target_ns REAL, warmup_batches INTEGER,"
	"  measure_s REAL, converged INTEGER,"
	"  n INTEGER, mean_ns REAL, median_ns REAL, stddev_ns REAL, cv REAL,"
	"  min_ns REAL, max_ns REAL, ci95_ns REAL, ci95_rel REAL, trimmed_mean_ns REAL);"
	"CREATE TABLE samples ("
	"  result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  ns REAL NOT NULL,"
	"  PRIMARY KEY (result_id, seq)) WITHOUT ROWID;"
	"CREATE INDEX results_by_run ON results(run_id, seq);"
	"CREATE INDEX results_by_name ON results(name, path);"
	"CREATE INDEX runs_by_label ON runs(label, started);",

	/* 2: where a run came from (imports); per-process means (--processes); perf
	 * counters per result */
	"ALTER TABLE runs ADD COLUMN source TEXT NOT NULL DEFAULT 'run';"
	"ALTER TABLE results ADD COLUMN process_means TEXT;"
	"ALTER TABLE results ADD COLUMN threads INTEGER;"
	"ALTER TABLE results ADD COLUMN bytes INTEGER;"
	"ALTER TABLE results ADD COLUMN params TEXT;"
	"CREATE TABLE counters ("
	"  result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
	"  event TEXT NOT NULL,"
	"  status TEXT NOT NULL,"
	"  value REAL, per_call REAL, reason TEXT,"
	"  PRIMARY KEY (result_id, event));",

	/* 3: the standard error of each process's mean (nested variance); what
	 * `calibrate` measured of the variation between runs on a host */
	"ALTER TABLE results ADD COLUMN process_se TEXT;"
	"ALTER TABLE results ADD COLUMN floor_rel REAL;"
	"CREATE TABLE calibrations ("
	"  id INTEGER PRIMARY KEY,"
	"  host TEXT NOT NULL,"
	"  started TEXT NOT NULL,"
	"  floor REAL NOT NULL,"
	"  rounds INTEGER NOT NULL,"
	"  detail TEXT);"
	"CREATE INDEX calibrations_by_host ON calibrations(host, started);",

	/* 4: where the measured loop spent its time (run --profile), as JSON;
	 * a digest of what a run measured, so that it is never stored twice */
	"ALTER TABLE runs ADD COLUMN digest TEXT;"
	"CREATE INDEX runs_by_digest ON runs(digest);"
	"CREATE TABLE profiles ("
	"  result_id INTEGER PRIMARY KEY REFERENCES results(id) ON DELETE CASCADE,"
	"  profile TEXT NOT NULL);",

	/* 5: every run's UUID (those stored before get one now); the runs
	 * waiting to be pushed to a fleet's server, and those pushed */
	"ALTER TABLE runs ADD COLUMN uuid TEXT;"
	"UPDATE runs SET uuid = lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2)))"
	"  || '-4' || substr(lower(hex(randomblob(2))), 2) || '-'"
	"  || substr('89ab', 1 + abs(random()) % 4, 1) || substr(lower(hex(randomblob(2))), 2)"
	"  || '-' || lower(hex(randomblob(6)));"
	"CREATE UNIQUE INDEX runs_by_uuid ON runs(uuid);"
	"CREATE INDEX runs_by_started ON runs(started);"
	"CREATE TABLE pending ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  target TEXT NOT NULL,"
	"  since TEXT NOT NULL,"
	"  tries INTEGER NOT NULL DEFAULT 0,"
	"  last_error TEXT,"
	"  document TEXT,"
	"  PRIMARY KEY (run_id, target));"
	"CREATE TABLE pushed ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  target TEXT NOT NULL,"
	"  at TEXT NOT NULL,"
	"  already INTEGER NOT NULL DEFAULT 0,"
	"  PRIMARY KEY (run_id, target));",

	/* 6: beside each batch, the thread's CPU time, whether it ran
	 * throughout, and the reference work timed after it; per result, the count left out, CPU
	 * time per call, and whether the benchmark keeps every batch */
	"ALTER TABLE samples ADD COLUMN cpu_ns REAL;"
	"ALTER TABLE samples ADD COLUMN ref_ns REAL;"
	"ALTER TABLE samples ADD COLUMN disturbed INTEGER;"
	"ALTER TABLE results ADD COLUMN keeps_disturbed INTEGER;"
	"ALTER TABLE results ADD COLUMN disturbed INTEGER;"
	"ALTER TABLE results ADD COLUMN cpu_ns REAL;"
	"ALTER TABLE results ADD COLUMN process_ref TEXT;",

	/* 7: per result, the share of its batches' wall time the thread did
	 * not run (rec_waited_share()), from the samples already stored */
	"ALTER TABLE results ADD COLUMN waited REAL;"
	"UPDATE results SET waited = (SELECT CASE WHEN SUM(s.ns) > 0 THEN"
	"  MAX(0, 1 - SUM(s.cpu_ns) / SUM(s.ns)) END FROM samples s"
	"  WHERE s.result_id = results.id AND s.cpu_ns IS NOT NULL)"
	"  WHERE threads IS NULL OR threads = 0;",

	/* 8: the part of a result's CI that holds the machine's state during its run */
	"ALTER TABLE results ADD COLUMN state_rel REAL;",

	/* 9: the floor's degrees of freedom, so that show prints the CI run printed */
	"ALTER TABLE results ADD COLUMN floor_df REAL;",

	/*
	 * 10: a run whose batches' samples were pruned (store_prune()) is
	 * kept as its summary, packed (doc-pack.h), and read from it; its
	 * results' rows stay for history, the floor and the listings
	 */
	"ALTER TABLE runs ADD COLUMN summary BLOB;",
};

/*
 * A value SQLite could not copy (it had no memory) leaves its parameter
 * NULL: a query would then match other rows, a write store NULL. Noted
 * here, and no read is taken and no transaction committed after it.
 */
static int bind_failed;

static int bind_check(struct sqlite_store *st, const char *what, char *err, size_t len)
{
	if (!bind_failed)
		return 0;
	bind_failed = 0;
	return store_fail(err, len, "out of memory %s database '%s'", what, st->path);
}

static int exec(struct sqlite_store *st, const char *sql, char *err, size_t len)
{
	char *msg = NULL;

	if (!strncmp(sql, "BEGIN", 5))
		bind_failed = 0;
	else if (!strcmp(sql, "COMMIT") && bind_check(st, "writing", err, len))
		return -1;
	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		store_fail(err, len, "database '%s': %s", st->path,
			   msg ? msg : sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/*
 * Runs @sql, waiting out other writers: switching a new file to WAL may
 * answer SQLITE_BUSY at once, without the busy handler, while another
 * process is creating the same database.
 */
static int exec_retry(struct sqlite_store *st, const char *sql, char *err, size_t len)
{
	for (int i = 0;; i++) {
		int rc = sqlite3_exec(st->db, sql, NULL, NULL, NULL);

		if (rc == SQLITE_OK)
			return 0;
		if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || i >= 3000)
			return store_fail(err, len, "database '%s': %s", st->path,
					  sqlite3_errmsg(st->db));
		usleep(10000);
	}
}

static int pragma_int(sqlite3 *db, const char *sql, int *out)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : -1;
}

int store_default_path(const char *opt, char *buf, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("UKBENCH_DB"), *xdg = getenv("XDG_DATA_HOME"),
		   *home = getenv("HOME");

	if (opt && !opt[0])
		return store_fail(err, errlen, "--db needs a path, got an empty one");
	if (opt)
		snprintf(buf, len, "%s", opt);
	else if (env && env[0])
		snprintf(buf, len, "%s", env);
	else if (xdg && xdg[0] == '/')
		snprintf(buf, len, "%s/ukbench/results.db", xdg);
	else if (home && home[0])
		snprintf(buf, len, "%s/.local/share/ukbench/results.db", home);
	else
		return store_fail(err, errlen,
				  "no database: set --db, UKBENCH_DB, XDG_DATA_HOME or HOME");
	return 0;
}

int store_spool_path(char *buf, size_t len, char *err, size_t errlen)
{
	const char *spool = getenv("UKBENCH_SPOOL"), *xdg = getenv("XDG_DATA_HOME"),
		   *home = getenv("HOME");

	if (spool && spool[0] && !store_is_fleet(spool))
		snprintf(buf, len, "%s", spool);
	else if (xdg && xdg[0] == '/')
		snprintf(buf, len, "%s/ukbench/results.db", xdg);
	else if (home && home[0])
		snprintf(buf, len, "%s/.local/share/ukbench/results.db", home);
	else
		return store_fail(err, errlen,
				  "no spool for the fleet: set UKBENCH_SPOOL, XDG_DATA_HOME "
				  "or HOME");
	return 0;
}

/* Creates the directories above @path, as mkdir -p would. */
static int make_parents(const char *path, char *err, size_t len)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(dir, 0755) && errno != EEXIST)
			return store_fail(err, len, "cannot create '%s': %s", dir, strerror(errno));
		*p = '/';
	}
	return 0;
}

/*
 * Checks an existing file before anything may write to it: an SQLite
 * header, ukbench's application id (or no table at all), a schema this
 * build knows. Read-only: a refused file is left exactly as it was.
 */
/*
 * @path as an SQLite URI, read-only; with @immutable, read without locks,
 * so that a check leaves no -wal or -shm file beside a file it refuses,
 * and works in a directory it may not write.
 */
static void store_uri(const char *path, char *uri, size_t len, int immutable)
{
	size_t o = (size_t)snprintf(uri, len, "file:");

	for (const char *p = path; *p && o + 4 < len; p++)
		o += (size_t)(strchr("%?#", *p) ? snprintf(uri + o, len - o, "%%%02X", *p)
						: snprintf(uri + o, len - o, "%c", *p));
	snprintf(uri + o, len - o, immutable ? "?immutable=1" : "?mode=ro");
}

static int check_existing(const char *path, char *err, size_t len)
{
	static const char magic[16] = "SQLite format 3";
	unsigned char head[100];
	char uri[PATH_MAX * 3 + 32];
	sqlite3 *db = NULL;
	int app = 0, ver = 0, tables = 0, ret = -1;
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return errno == ENOENT
			   ? 0
			   : store_fail(err, len, "cannot open '%s': %s", path, strerror(errno));
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	if (n == 0)
		return 0; /* an empty file: a new database */
	if (n < sizeof(head) || memcmp(head, magic, sizeof(magic)))
		return store_fail(err, len, "'%s' is not an SQLite database; it was left untouched",
				  path);
	/*
	 * A file with a write-ahead log beside it is being written, or was:
	 * it is read through the log and its locks, as any reader does, since
	 * an immutable read sees the pages a checkpoint is moving ("malformed").
	 * Without one, immutable: nothing is left beside a file refused.
	 */
	{
		char wal[PATH_MAX + 8];
		int live = snprintf(wal, sizeof(wal), "%s-wal", path) < (int)sizeof(wal) &&
			   !access(wal, F_OK);

		store_uri(path, uri, sizeof(uri), !live);
	}

	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK)
		goto corrupt;
	/*
	 * Another process may be creating or writing it right now: wait for
	 * it, and read all three in one snapshot, or a schema committed
	 * between two reads would look like a foreign database.
	 */
	sqlite3_busy_timeout(db, 30000);
	if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
	    pragma_int(db, "SELECT count(*) FROM sqlite_master", &tables) ||
	    pragma_int(db, "PRAGMA application_id", &app) ||
	    pragma_int(db, "PRAGMA user_version", &ver))
		goto corrupt;
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (app != UKB_STORE_APPLICATION_ID && tables) {
		store_fail(
		    err, len,
		    "'%s' is a database of another application (application_id 0x%x); it was left "
		    "untouched",
		    path, (unsigned)app);
		goto out;
	}
	if (ver > UKB_STORE_SCHEMA_VERSION) {
		store_fail(
		    err, len,
		    "'%s' has schema version %d, newer than the %d this ukbench knows; upgrade "
		    "ukbench (the file was left untouched)",
		    path, ver, UKB_STORE_SCHEMA_VERSION);
		goto out;
	}
	ret = 0;
	goto out;
corrupt:
	/* SQLite gives no handle at all only when it has no memory for one */
	if (!db || sqlite3_errcode(db) == SQLITE_NOMEM)
		store_fail(err, len, "out of memory opening database '%s'", path);
	else
		store_fail(err, len, "'%s' is not a readable database (%s); it was left untouched",
			   path, sqlite3_errmsg(db));
out:
	sqlite3_close(db);
	return ret;
}

static int migrate(struct sqlite_store *st, int target, char *err, size_t len)
{
	int ver = 0;
	char sql[64];

	if (exec_retry(st, "BEGIN IMMEDIATE", err, len))
		return -1;
	if (pragma_int(st->db, "PRAGMA user_version", &ver)) {
		store_fail(err, len, "database '%s': %s", st->path, sqlite3_errmsg(st->db));
		goto rollback;
	}
	for (int v = ver; v < target; v++)
		if (exec(st, migrations[v], err, len))
			goto rollback;
	if (ver < target) {
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", target);
		if (exec(st, sql, err, len))
			goto rollback;
		snprintf(sql, sizeof(sql), "PRAGMA application_id = %d", UKB_STORE_APPLICATION_ID);
		if (exec(st, sql, err, len))
			goto rollback;
	}
	return exec(st, "COMMIT", err, len);
rollback:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/*
 * " (the file system ... is full ...)" when the directory of @path has no
 * room left, else "": SQLite says only "disk I/O error" when it cannot
 * make the -wal and -shm files a reader or a writer needs beside it.
 */
static const char *full_hint(const char *path, char *buf, size_t len)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct statvfs vfs;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
	buf[0] = 0;
	if (!statvfs(dir, &vfs) && (vfs.f_bavail == 0 || (vfs.f_files && vfs.f_favail == 0)))
		snprintf(buf, len,
			 " (the file system of '%s' is full: SQLite needs room beside the "
			 "database for its -wal and -shm files)",
			 dir);
	return buf;
}

/* Removes a database this process created and could not make: no empty file is left. */
static void remove_new(const char *path)
{
	char side[PATH_MAX + 8];

	unlink(path);
	snprintf(side, sizeof(side), "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	unlink(side);
}

static int open_file(const char *path, int target, struct sqlite_store **out, char *err, size_t len)
{
	struct sqlite_store *st;
	char hint[PATH_MAX + 128];
	int fd, created;

	*out = NULL;
	if (target < 1 || target > UKB_STORE_SCHEMA_VERSION)
		return store_fail(err, len, "no schema version %d", target);
	if (check_existing(path, err, len) || make_parents(path, err, len))
		return -1;
	st = calloc(1, sizeof(*st));
	if (!st)
		return store_fail(err, len, "out of memory");
	snprintf(st->path, sizeof(st->path), "%s", path);
	/*
	 * A new database holds host names, boot command lines and labels:
	 * readable by its owner only (SQLite gives its -wal and -shm files the
	 * same mode).
	 */
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	created = fd >= 0;
	if (fd >= 0)
		close(fd);
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		store_fail(err, len, "cannot open database '%s': %s", path, sqlite3_errmsg(st->db));
		goto fail;
	}
	/* writers wait for each other rather than fail */
	sqlite3_busy_timeout(st->db, 30000);
	if (exec_retry(st, "PRAGMA journal_mode = WAL", err, len) ||
	    exec(st, "PRAGMA foreign_keys = ON", err, len) ||
	    exec(st, "PRAGMA synchronous = NORMAL", err, len) || migrate(st, target, err, len))
		goto fail;
	*out = st;
	return 0;
fail:
	sqlite_close(st);
	if (created)
		remove_new(path);
	if (strlen(err) + 1 < len)
		snprintf(err + strlen(err), len - strlen(err), "%s",
			 full_hint(path, hint, sizeof(hint)));
	return -1;
}

int store_open_version(const char *path, int target, struct store **out, char *err, size_t len)
{
	struct sqlite_store *st;

	if (open_file(path, target, &st, err, len))
		return -1;
	return store_wrap(&store_sqlite_ops, st, out, err, len);
}

/*
 * A file, or a fleet's spool: runs are saved into the spool (UKBENCH_SPOOL,
 * else the default file), marked for the server.
 */
static int open_writer(const char *path, struct sqlite_store **out, char *err, size_t len)
{
	char spool[PATH_MAX] = "", conninfo[2048];

	if (!store_is_fleet(path))
		return open_file(path, UKB_STORE_SCHEMA_VERSION, out, err, len);
	if (strlen(path) >= sizeof((*out)->target))
		return store_fail(err, len, "the database URI is too long");
	if (store_fleet_conninfo(path, conninfo, sizeof(conninfo), err, len) ||
	    store_spool_path(spool, sizeof(spool), err, len) ||
	    open_file(spool, UKB_STORE_SCHEMA_VERSION, out, err, len))
		return -1;
	snprintf((*out)->target, sizeof((*out)->target), "%s", path);
	return 0;
}

/*
 * SQLite's own check of every page, where it costs little: a damaged file
 * is an error naming it, never a table made of what it happens to hold.
 * Larger stores are checked run by run, as each is loaded (its digest).
 */
#define STORE_CHECK_MAX (64 << 20)

static int integrity(struct sqlite_store *st, off_t size, char *err, size_t len)
{
	sqlite3_stmt *s;
	char what[256] = "";
	int rc;

	if (size > STORE_CHECK_MAX)
		return 0;
	rc = sqlite3_prepare_v2(st->db, "PRAGMA quick_check(1)", -1, &s, NULL);
	if (rc == SQLITE_NOMEM)
		return store_fail(err, len, "out of memory checking database '%s'", st->path);
	if (rc != SQLITE_OK)
		return store_fail(err, len, "database '%s' is damaged: %s", st->path,
				  sqlite3_errmsg(st->db));
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		store_col_text(s, 0, what, sizeof(what));
	sqlite3_finalize(s);
	if (rc == SQLITE_NOMEM)
		return store_fail(err, len, "out of memory checking database '%s'", st->path);
	if (rc != SQLITE_ROW)
		return store_fail(err, len, "database '%s' is damaged: %s", st->path,
				  sqlite3_errstr(rc));
	/* the check itself ran short of memory: says nothing of the file */
	if (strstr(what, "error code=7") || strstr(what, "out of memory"))
		return store_fail(err, len, "out of memory checking database '%s'", st->path);
	if (strcmp(what, "ok"))
		return store_fail(err, len,
				  "database '%s' is damaged (SQLite's check: %s); nothing is read "
				  "from it",
				  st->path, what);
	return 0;
}

static int open_reader(const char *path, struct sqlite_store **out, char *err, size_t len)
{
	struct stat sb;
	struct sqlite_store *st;
	int ver = 0;

	*out = NULL;
	/* nothing there, or an empty file: nothing stored, and nothing made */
	if (stat(path, &sb) ? errno == ENOENT : sb.st_size == 0)
		return 1;
	if (check_existing(path, err, len))
		return -1;
	st = calloc(1, sizeof(*st));
	if (!st)
		return store_fail(err, len, "out of memory");
	snprintf(st->path, sizeof(st->path), "%s", path);
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		store_fail(err, len, "cannot open database '%s': %s", path, sqlite3_errmsg(st->db));
		sqlite_close(st);
		return -1;
	}
	sqlite3_busy_timeout(st->db, 30000);
	/*
	 * A directory this user may not write holds no -shm file for the
	 * write-ahead log: read the file as it is, without locks.
	 */
	if (pragma_int(st->db, "PRAGMA user_version", &ver) && access(path, W_OK)) {
		char uri[PATH_MAX * 3 + 32];

		sqlite3_close(st->db);
		store_uri(path, uri, sizeof(uri), 1);
		if (sqlite3_open_v2(uri, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) !=
		    SQLITE_OK)
			ver = -1;
	}
	if (ver < 0 || pragma_int(st->db, "PRAGMA user_version", &ver)) {
		char hint[PATH_MAX + 128];

		store_fail(err, len, "database '%s': %s%s", path, sqlite3_errmsg(st->db),
			   full_hint(path, hint, sizeof(hint)));
		sqlite_close(st);
		return -1;
	}
	/* an older schema is brought up to date first: that is the one write */
	if (ver < UKB_STORE_SCHEMA_VERSION) {
		sqlite_close(st);
		return open_writer(path, out, err, len);
	}
	if (integrity(st, sb.st_size, err, len)) {
		sqlite_close(st);
		return -1;
	}
	*out = st;
	return 0;
}

static void sqlite_close(void *impl)
{
	struct sqlite_store *st = impl;

	if (!st)
		return;
	sqlite3_close(st->db);
	free(st);
}

sqlite3 *store_db(struct store *st)
{
	if (store_backend(st) != &store_sqlite_ops)
		return NULL;
	return ((struct sqlite_store *)store_impl(st))->db;
}

static const char *sqlite_target(const void *impl)
{
	return ((const struct sqlite_store *)impl)->target;
}

static const char *sqlite_where(const void *impl)
{
	return ((const struct sqlite_store *)impl)->path;
}

static int sqlite_claims(const char *where, int reader)
{
	return !reader || !store_is_fleet(where);
}

static int sqlite_open(const char *where, int reader, void **impl, char *err, size_t len)
{
	struct sqlite_store *st = NULL;
	int rc = reader ? open_reader(where, &st, err, len) : open_writer(where, &st, err, len);

	*impl = st;
	return rc;
}

/* ------------------------------------------------------------------ */
/* Saving                                                              */

/* column @i as text, "" where NULL; valid until the next step */
static const char *col_str(sqlite3_stmt *s, int i)
{
	const unsigned char *v = sqlite3_column_text(s, i);

	return v ? (const char *)v : "";
}

void store_col_text(sqlite3_stmt *s, int i, char *buf, size_t len)
{
	snprintf(buf, len, "%s", col_str(s, i));
}

static int prepare(struct sqlite_store *st, const char *sql, sqlite3_stmt **s, char *err,
		   size_t len)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, s, NULL) != SQLITE_OK)
		return store_fail(err, len, "database '%s': %s", st->path, sqlite3_errmsg(st->db));
	return 0;
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (sqlite3_bind_text(s, i, v ? v : "", -1, SQLITE_TRANSIENT) != SQLITE_OK)
		bind_failed = 1;
}

static void bind_json(sqlite3_stmt *s, int i, const char *text)
{
	if (text)
		bind_text(s, i, text);
	else
		sqlite3_bind_null(s, i);
}

static void bind_num(sqlite3_stmt *s, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(s, i, v);
	else
		sqlite3_bind_null(s, i);
}

static int step_done(struct sqlite_store *st, sqlite3_stmt *s, char *err, size_t len)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (rc != SQLITE_DONE)
		return store_fail(err, len, "database '%s': %s", st->path, sqlite3_errmsg(st->db));
	return 0;
}

static int save_profile(struct sqlite_store *st, int64_t rid, const struct rec_result *r, char *err,
			size_t len)
{
	sqlite3_stmt *s;
	int ret;

	if (!r->profile)
		return 0;
	if (prepare(st, "INSERT INTO profiles (result_id, profile) VALUES (?, ?)", &s, err, len))
		return -1;
	sqlite3_bind_int64(s, 1, rid);
	bind_text(s, 2, r->profile);
	ret = step_done(st, s, err, len);
	sqlite3_finalize(s);
	return ret;
}

static int save_counters(struct sqlite_store *st, int64_t rid, const struct rec_result *r,
			 char *err, size_t len)
{
	sqlite3_stmt *s;
	int ret = 0;

	if (!r->ncounters || !r->counters)
		return 0;
	if (prepare(st,
		    "INSERT INTO counters (result_id, event, status, value, per_call, reason)"
		    " VALUES (?,?,?,?,?,?)",
		    &s, err, len))
		return -1;
	for (size_t i = 0; i < r->ncounters && !ret; i++) {
		const struct rec_counter *c = &r->counters[i];

		sqlite3_bind_int64(s, 1, rid);
		bind_text(s, 2, c->name);
		bind_text(s, 3, c->status);
		bind_num(s, 4, strcmp(c->status, "ok") ? NAN : c->total);
		bind_num(s, 5, c->per_call);
		bind_text(s, 6, c->reason);
		ret = step_done(st, s, err, len);
	}
	sqlite3_finalize(s);
	return ret;
}

/* Binds field @f of @r to parameter @i, NULL where the field is null. */
static void bind_field(sqlite3_stmt *s, int i, const struct rec_field *f,
		       const struct rec_result *r)
{
	int null = rec_field_is_null(f, r) && f->type != RF_STR;

	if (null)
		sqlite3_bind_null(s, i);
	else if (f->type == RF_STR || f->type == RF_STATUS)
		bind_text(s, i, rec_field_str(f, r));
	else if (f->type == RF_DOUBLE)
		bind_num(s, i, rec_field_num(f, r));
	else if (f->type == RF_U64)
		sqlite3_bind_int64(s, i, (int64_t) * (const uint64_t *)((const char *)r + f->off));
	else
		sqlite3_bind_int64(s, i, (int64_t)rec_field_num(f, r));
}

/* @n figures as a JSON array, or NULL when there are none; the caller frees. */
static char *numbers_text(const double *v, size_t n)
{
	struct jw w;

	if (!n || !v)
		return NULL;
	jw_init(&w, 0);
	jw_arr_begin(&w, NULL);
	for (size_t k = 0; k < n; k++)
		jw_num(&w, NULL, v[k]);
	jw_arr_end(&w);
	return jw_finish(&w, NULL);
}

static int save_result(struct sqlite_store *st, int64_t run_id, size_t seq,
		       const struct rec_result *r, sqlite3_stmt *res, sqlite3_stmt *smp, char *err,
		       size_t len)
{
	char *pm = numbers_text(r->proc_means, r->nproc), *ps = numbers_text(r->proc_se, r->nproc);
	char *pr = numbers_text(r->proc_ref, r->nproc);
	int i = 1;
	int64_t rid;

	if ((r->nproc && !pm) || (r->nproc && r->proc_se && !ps) ||
	    (r->nproc && r->proc_ref && !pr)) {
		free(pm);
		free(ps);
		free(pr);
		return store_fail(err, len, "out of memory");
	}
	sqlite3_bind_int64(res, i++, run_id);
	sqlite3_bind_int64(res, i++, (int64_t)seq);
	for (size_t k = 0; k < rec_nfields; k++)
		bind_field(res, i++, &rec_fields[k], r);
	for (size_t k = 0; k < stat_nfields; k++)
		if (stat_fields[k].sql)
			bind_num(res, i++, stat_fields[k].get(r));
	bind_json(res, i++, pm);
	bind_json(res, i++, ps);
	bind_json(res, i++, pr);
	free(pm);
	free(ps);
	free(pr);
	if (step_done(st, res, err, len))
		return -1;
	rid = sqlite3_last_insert_rowid(st->db);
	if (save_counters(st, rid, r, err, len) || save_profile(st, rid, r, err, len))
		return -1;
	for (size_t k = 0; k < r->nsamples; k++) {
		sqlite3_bind_int64(smp, 1, rid);
		sqlite3_bind_int64(smp, 2, (int64_t)k);
		sqlite3_bind_double(smp, 3, r->samples[k]);
		bind_num(smp, 4, r->cpu_samples ? r->cpu_samples[k] : NAN);
		if (r->disturbed && r->disturbed[k])
			sqlite3_bind_int(smp, 5, r->disturbed[k]);
		else
			sqlite3_bind_null(smp, 5);
		bind_num(smp, 6, r->ref_samples ? r->ref_samples[k] : NAN);
		if (step_done(st, smp, err, len))
			return -1;
	}
	return 0;
}

/*
 * "INSERT INTO results (run_id, seq, <fields>, <stats>, process_means)
 * VALUES (?, ...)", from the field table.
 */
static int results_insert_sql(char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "INSERT INTO results (run_id, seq"), n = 3;

	for (size_t k = 0; k < rec_nfields && o < len; k++, n++)
		o += (size_t)snprintf(buf + o, len - o, ", %s", rec_fields[k].sql);
	for (size_t k = 0; k < stat_nfields && o < len; k++)
		if (stat_fields[k].sql) {
			o += (size_t)snprintf(buf + o, len - o, ", %s", stat_fields[k].sql);
			n++;
		}
	if (o < len)
		o += (size_t)snprintf(buf + o, len - o,
				      ", process_means, process_se, process_ref) VALUES (?");
	for (size_t k = 1; k < n + 2 && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, ",?");
	if (o < len)
		o += (size_t)snprintf(buf + o, len - o, ")");
	return o < len ? 0 : -1;
}

static int finish_read(struct sqlite_store *st, sqlite3_stmt *s, int rc, char *err, size_t len);

/* The filter's values as parameters 1 (label), 2 (host), 4 (kernel), 5 and 6 (dates). */
static void bind_filter(sqlite3_stmt *s, const struct store_filter *f)
{
	if (!f)
		return;
	if (f->label)
		bind_text(s, 1, f->label);
	if (f->host)
		bind_text(s, 2, f->host);
	if (f->kernel)
		bind_text(s, 4, f->kernel);
	if (f->since)
		bind_text(s, 5, f->since);
	if (f->until)
		bind_text(s, 6, f->until);
}

/*
 * Notes that run @id waits for the store's server, with the run as the
 * server will keep it (its JSON summary: the samples stay here), so that
 * pushing reads one text.
 */
static int pending_add(struct sqlite_store *st, int64_t id, struct rec_run *run, char *err,
		       size_t len)
{
	sqlite3_stmt *s;
	size_t dlen;
	char *doc;
	int64_t saved = run->id;

	run->id = 0; /* an id is the spool's, not the server's */
	doc = rec_to_json_summary(run, &dlen);
	run->id = saved;
	if (!doc)
		return store_fail(err, len, "out of memory");
	if (prepare(st,
		    "INSERT INTO pending (run_id, target, since, document) VALUES"
		    " (?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?)",
		    &s, err, len)) {
		free(doc);
		return -1;
	}
	sqlite3_bind_int64(s, 1, id);
	bind_text(s, 2, st->target);
	if (sqlite3_bind_text(s, 3, doc, (int)dlen, free) != SQLITE_OK)
		bind_failed = 1;
	if (step_done(st, s, err, len)) {
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	return 0;
}

static int sqlite_find_same(void *impl, const struct rec_run *run, int64_t *id, char *err,
			    size_t len)
{
	struct sqlite_store *st = impl;
	sqlite3_stmt *s;
	char digest[24];
	int rc;

	rec_run_digest(run, digest, sizeof(digest));
	if (prepare(st, "SELECT id FROM runs WHERE digest = ?1 OR uuid = ?2 ORDER BY id LIMIT 1",
		    &s, err, len))
		return -1;
	bind_text(s, 1, digest);
	if (run->uuid[0])
		bind_text(s, 2, run->uuid);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
		return 1;
	}
	return finish_read(st, s, rc, err, len);
}

static int sqlite_edit(void *impl, const int64_t *ids, size_t n, const char *label, char *err,
		       size_t len)
{
	struct sqlite_store *st = impl;
	sqlite3_stmt *s;
	int ret = 0;

	if (exec_retry(st, "BEGIN IMMEDIATE", err, len))
		return -1;
	if (prepare(st,
		    label ? "UPDATE runs SET label = ? WHERE id = ?"
			  : "DELETE FROM runs WHERE id = ?",
		    &s, err, len)) {
		exec(st, "ROLLBACK", err, len);
		return -1;
	}
	for (size_t i = 0; i < n && !ret; i++) {
		int k = 1;

		sqlite3_reset(s);
		if (label)
			bind_text(s, k++, label);
		sqlite3_bind_int64(s, k, ids[i]);
		ret = step_done(st, s, err, len);
		if (!ret && !sqlite3_changes(st->db))
			ret = store_fail(err, len, "no run #%lld in '%s'", (long long)ids[i],
					 st->path);
	}
	sqlite3_finalize(s);
	/* a deleted run's results, samples, counters, profile and push state go
	 * with it (ON DELETE CASCADE); all or nothing */
	if (ret || exec(st, "COMMIT", err, len)) {
		char e2[256];

		exec(st, "ROLLBACK", e2, sizeof(e2));
		return -1;
	}
	return 0;
}

static int sqlite_floor_reset(void *impl, const char *host, size_t *nruns, char *err, size_t len)
{
	struct sqlite_store *st = impl;
	sqlite3_stmt *s;
	int ret;

	*nruns = 0;
	if (exec_retry(st, "BEGIN IMMEDIATE", err, len))
		return -1;
	ret = prepare(st,
		      "DELETE FROM runs WHERE host = ? AND label = 'calibrate'"
		      " AND source = 'calibrate'",
		      &s, err, len);
	if (!ret) {
		bind_text(s, 1, host);
		ret = step_done(st, s, err, len);
		*nruns = ret ? 0 : (size_t)sqlite3_changes(st->db);
		sqlite3_finalize(s);
	}
	if (!ret && !(ret = prepare(st, "DELETE FROM calibrations WHERE host = ?", &s, err, len))) {
		bind_text(s, 1, host);
		ret = step_done(st, s, err, len);
		sqlite3_finalize(s);
	}
	if (ret || exec(st, "COMMIT", err, len)) {
		char e2[256];

		exec(st, "ROLLBACK", e2, sizeof(e2));
		return -1;
	}
	return 0;
}

static int sqlite_save(void *impl, struct rec_run *run, char *err, size_t len)
{
	struct sqlite_store *st = impl;
	sqlite3_stmt *ins = NULL, *res = NULL, *smp = NULL;
	char sql[2048], digest[24];
	int64_t id;
	int i = 1;

	if (results_insert_sql(sql, sizeof(sql)))
		return store_fail(err, len, "the results table has too many columns");
	/* this store keeps runs whole: what it holds is what the fleet's summaries come from */
	for (size_t k = 0; k < run->nresults; k++)
		if (run->results[k].summary)
			return store_fail(err, len,
					  "'%s' is a run's summary, its samples left out (a fleet "
					  "server's copy): a local store keeps runs whole. Read it "
					  "from the server, or have its machine push it with "
					  "--samples",
					  run->source[0] ? run->source : run->uuid);
	if (!run->uuid[0] && rec_new_uuid(run->uuid, sizeof(run->uuid)))
		return store_fail(err, len, "no random bytes for the run's UUID: %s",
				  strerror(errno));
	if (exec_retry(st, "BEGIN IMMEDIATE", err, len))
		return -1;
	if (prepare(st,
		    "INSERT INTO runs (label, host, started, ukbench_version, kernel_release,"
		    " duration_s, interrupted, environment, settings, clock, vdso, source, digest,"
		    " uuid) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		    &ins, err, len) ||
	    prepare(st, sql, &res, err, len) ||
	    prepare(st,
		    "INSERT INTO samples (result_id, seq, ns, cpu_ns, disturbed, ref_ns)"
		    " VALUES (?,?,?,?,?,?)",
		    &smp, err, len))
		goto rollback;

	bind_text(ins, i++, run->label);
	bind_text(ins, i++, run->host);
	bind_text(ins, i++, run->started);
	bind_text(ins, i++, run->ukbench_version);
	bind_text(ins, i++, run->kernel_release);
	bind_num(ins, i++, run->duration_s);
	sqlite3_bind_int(ins, i++, run->interrupted);
	bind_json(ins, i++, run->environment);
	bind_json(ins, i++, run->settings);
	bind_json(ins, i++, run->clock);
	bind_json(ins, i++, run->vdso);
	bind_text(ins, i++, run->source[0] ? run->source : "run");
	rec_run_digest(run, digest, sizeof(digest));
	bind_text(ins, i++, digest);
	bind_text(ins, i++, run->uuid);
	if (step_done(st, ins, err, len))
		goto rollback;
	id = sqlite3_last_insert_rowid(st->db);
	for (size_t k = 0; k < run->nresults; k++)
		if (save_result(st, id, k, &run->results[k], res, smp, err, len))
			goto rollback;
	/* a fleet's store: the run waits in this spool until it is pushed */
	if (st->target[0] && pending_add(st, id, run, err, len))
		goto rollback;
	sqlite3_finalize(ins);
	sqlite3_finalize(res);
	sqlite3_finalize(smp);
	if (exec(st, "COMMIT", err, len))
		goto rollback_only;
	run->id = id;
	return 0;
rollback:
	sqlite3_finalize(ins);
	sqlite3_finalize(res);
	sqlite3_finalize(smp);
rollback_only:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

/* A JSON text column as a new string ("{}" when NULL); -1 on ENOMEM. */
static int col_json(sqlite3_stmt *s, int i, char **out)
{
	const unsigned char *v = sqlite3_column_text(s, i);

	*out = strdup(v ? (const char *)v : "{}");
	return *out ? 0 : -1;
}

static double col_num(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

/* "2026-12-01T07:19:15Z", as a run's start is written, and nothing else. */
static int iso_time(const char *t)
{
	static const char form[] = "dddd-dd-ddTdd:dd:ddZ";

	for (size_t i = 0; i < sizeof(form) - 1; i++)
		if (form[i] == 'd' ? !(t[i] >= '0' && t[i] <= '9') : t[i] != form[i])
			return 0;
	return t[sizeof(form) - 1] == 0;
}

static int load_head(struct sqlite_store *st, int64_t id, struct rec_run *run, char *err,
		     size_t len)
{
	sqlite3_stmt *s;
	int rc;

	if (prepare(st,
		    "SELECT label, host, started, ukbench_version, kernel_release, duration_s,"
		    " interrupted, environment, settings, clock, vdso, source, uuid FROM runs "
		    "WHERE id = ?",
		    &s, err, len))
		return -1;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(s);
		if (rc == SQLITE_DONE)
			return 1;
		return store_fail(err, len, "database '%s': %s", st->path, sqlite3_errmsg(st->db));
	}
	memset(run, 0, sizeof(*run));
	run->id = id;
	store_col_text(s, 0, run->label, sizeof(run->label));
	store_col_text(s, 1, run->host, sizeof(run->host));
	store_col_text(s, 2, run->started, sizeof(run->started));
	store_col_text(s, 3, run->ukbench_version, sizeof(run->ukbench_version));
	store_col_text(s, 4, run->kernel_release, sizeof(run->kernel_release));
	run->duration_s = col_num(s, 5);
	run->interrupted = sqlite3_column_int(s, 6);
	store_col_text(s, 11, run->source, sizeof(run->source));
	store_col_text(s, 12, run->uuid, sizeof(run->uuid));
	if (!iso_time(run->started)) {
		char t[48];

		snprintf(t, sizeof(t), "%.40s", run->started);
		sqlite3_finalize(s);
		rec_run_release(run);
		return store_fail(err, len,
				  "database '%s': run #%lld has a malformed start time '%s' (a "
				  "damaged store?)",
				  st->path, (long long)id, t);
	}
	if (col_json(s, 7, &run->environment) || col_json(s, 8, &run->settings) ||
	    col_json(s, 9, &run->clock) || col_json(s, 10, &run->vdso)) {
		sqlite3_finalize(s);
		rec_run_release(run);
		return store_fail(err, len, "out of memory");
	}
	sqlite3_finalize(s);
	return 0;
}

/*
 * Ends a read loop: SQLITE_DONE is the only good end; any other code (a
 * damaged page, an I/O error) is an error, never a short result.
 */
static int finish_read(struct sqlite_store *st, sqlite3_stmt *s, int rc, char *err, size_t len)
{
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_fail(err, len, "database '%s': %s", st->path, sqlite3_errstr(rc));
	return bind_check(st, "reading", err, len);
}

static int load_samples(struct sqlite_store *st, int64_t rid, struct rec_result *r, char *err,
			size_t len)
{
	sqlite3_stmt *s;
	size_t cap = 0;
	size_t ccap = 0, dcap = 0, rcap = 0, ncpu = 0, ndist = 0, nref = 0;
	int rc;

	if (prepare(st,
		    "SELECT ns, cpu_ns, disturbed, ref_ns FROM samples WHERE result_id = ?"
		    " ORDER BY seq",
		    &s, err, len))
		return -1;
	sqlite3_bind_int64(s, 1, rid);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		size_t k = r->nsamples;
		int64_t m = sqlite3_column_int64(s, 2);

		if (store_grow(&r->samples, &cap, k, sizeof(*r->samples), 256) ||
		    store_grow(&r->cpu_samples, &ccap, k, sizeof(*r->cpu_samples), 256) ||
		    store_grow(&r->disturbed, &dcap, k, sizeof(*r->disturbed), 256) ||
		    store_grow(&r->ref_samples, &rcap, k, sizeof(*r->ref_samples), 256)) {
			sqlite3_finalize(s);
			return store_fail(err, len, "out of memory");
		}
		if (m < 0 || m > (UKB_DIST_SWITCHED | UKB_DIST_OFFCPU)) {
			sqlite3_finalize(s);
			return store_fail(err, len,
					  "database '%s': result %lld, sample %zu: %lld is not a "
					  "batch's mark",
					  st->path, (long long)rid, k, (long long)m);
		}
		r->samples[k] = sqlite3_column_double(s, 0);
		r->cpu_samples[k] =
		    sqlite3_column_type(s, 1) == SQLITE_NULL ? NAN : sqlite3_column_double(s, 1);
		r->disturbed[k] = (uint8_t)m;
		r->ref_samples[k] =
		    sqlite3_column_type(s, 3) == SQLITE_NULL ? NAN : sqlite3_column_double(s, 3);
		nref += isfinite(r->ref_samples[k]);
		ncpu += isfinite(r->cpu_samples[k]);
		ndist += m != 0;
		r->nsamples++;
	}
	/* nothing known beside the samples: as a record that never had it */
	if (!ncpu) {
		free(r->cpu_samples);
		r->cpu_samples = NULL;
	}
	if (!ndist) {
		free(r->disturbed);
		r->disturbed = NULL;
	}
	if (!nref) {
		free(r->ref_samples);
		r->ref_samples = NULL;
	}
	return finish_read(st, s, rc, err, len);
}

/* A JSON array column into a new array of its figures; 0, or -1 with @err. */
static int col_numbers(sqlite3_stmt *s, int col, double **out, size_t *nout, char *err, size_t len)
{
	const unsigned char *t = sqlite3_column_text(s, col);
	struct jv *a = t ? jv_parse((const char *)t) : NULL;
	size_t n = jv_is(a, JV_ARRAY) ? jv_len(a) : 0;

	*nout = 0;
	if (n) {
		*out = malloc(n * sizeof(double));
		if (!*out) {
			jv_free(a);
			return store_fail(err, len, "out of memory");
		}
		for (size_t k = 0; k < n; k++)
			(*out)[k] = jv_num(jv_at(a, k), 0);
		*nout = n;
	}
	jv_free(a);
	return 0;
}

/*
 * The per-process means, their standard errors and their reference's means
 * (columns @col, @col + 1, @col + 2).
 */
static int load_process_means(sqlite3_stmt *s, int col, struct rec_result *r, char *err, size_t len)
{
	size_t nse = 0, nref = 0;

	if (col_numbers(s, col, &r->proc_means, &r->nproc, err, len) ||
	    col_numbers(s, col + 1, &r->proc_se, &nse, err, len) ||
	    col_numbers(s, col + 2, &r->proc_ref, &nref, err, len))
		return -1;
	if (nse != r->nproc) {
		free(r->proc_se);
		r->proc_se = NULL;
	}
	if (nref != r->nproc) {
		free(r->proc_ref);
		r->proc_ref = NULL;
	}
	/* a process without an undisturbed reference batch was stored as null */
	for (size_t i = 0; r->proc_ref && i < nref; i++)
		if (!(r->proc_ref[i] > 0))
			r->proc_ref[i] = NAN;
	return 0;
}

static int load_profile(struct sqlite_store *st, int64_t rid, struct rec_result *r, char *err,
			size_t len)
{
	sqlite3_stmt *s;
	int rc;

	if (prepare(st, "SELECT profile FROM profiles WHERE result_id = ?", &s, err, len))
		return -1;
	sqlite3_bind_int64(s, 1, rid);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_text(s, 0)) {
		r->profile = strdup((const char *)sqlite3_column_text(s, 0));
		if (!r->profile) {
			sqlite3_finalize(s);
			return store_fail(err, len, "out of memory");
		}
		rc = sqlite3_step(s);
	}
	return finish_read(st, s, rc, err, len);
}

static int load_counters(struct sqlite_store *st, int64_t rid, struct rec_result *r, char *err,
			 size_t len)
{
	sqlite3_stmt *s;
	int rc;

	if (prepare(st,
		    "SELECT event, status, value, per_call, reason FROM counters WHERE"
		    " result_id = ? ORDER BY rowid",
		    &s, err, len))
		return -1;
	sqlite3_bind_int64(s, 1, rid);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct rec_counter *c = rec_add_counter(r);

		if (!c) {
			sqlite3_finalize(s);
			return store_fail(err, len, "out of memory");
		}
		store_col_text(s, 0, c->name, sizeof(c->name));
		store_col_text(s, 1, c->status, sizeof(c->status));
		c->total = col_num(s, 2);
		c->per_call = col_num(s, 3);
		store_col_text(s, 4, c->reason, sizeof(c->reason));
	}
	return finish_read(st, s, rc, err, len);
}

/* Reads column @i into field @f of @r; NULL leaves the default. */
static int col_field(sqlite3_stmt *s, int i, const struct rec_field *f, struct rec_result *r)
{
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return 0;
	if (f->type == RF_STR || f->type == RF_STATUS)
		return rec_field_set_str(f, r, (const char *)sqlite3_column_text(s, i));
	if (f->type == RF_U64) {
		*(uint64_t *)((char *)r + f->off) = (uint64_t)sqlite3_column_int64(s, i);
		return 0;
	}
	return rec_field_set_num(f, r, sqlite3_column_double(s, i));
}

/* "SELECT id, <fields>, process_means FROM results", from the field table. */
static int results_select_sql(char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "SELECT id");

	for (size_t k = 0; k < rec_nfields && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, ", %s", rec_fields[k].sql);
	if (o < len)
		o += (size_t)snprintf(buf + o, len - o,
				      ", process_means, process_se, process_ref FROM results WHERE"
				      " run_id = ? AND"
				      " name GLOB ? AND path GLOB ? ORDER BY seq");
	return o < len ? 0 : -1;
}

static int load_results(struct sqlite_store *st, struct rec_run *run, const char *name,
			const char *path, char *err, size_t len)
{
	char sql[2048];
	sqlite3_stmt *s;
	int ret = 0, rc = SQLITE_DONE;

	if (results_select_sql(sql, sizeof(sql)) || prepare(st, sql, &s, err, len))
		return -1;
	sqlite3_bind_int64(s, 1, run->id);
	bind_text(s, 2, name ? name : "*");
	bind_text(s, 3, path ? path : "*");
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct rec_result *r = rec_add_result(run);
		int64_t rid = sqlite3_column_int64(s, 0);
		int col = 1;

		if (!r) {
			ret = store_fail(err, len, "out of memory");
			break;
		}
		for (size_t k = 0; k < rec_nfields && !ret; k++, col++)
			if (col_field(s, col, &rec_fields[k], r))
				ret =
				    store_fail(err, len, "database '%s': result %lld has a bad %s",
					       st->path, (long long)rid, rec_fields[k].sql);
		if (!ret)
			ret = load_samples(st, rid, r, err, len);
		if (!ret)
			ret = load_counters(st, rid, r, err, len);
		if (!ret)
			ret = load_profile(st, rid, r, err, len);
		if (!ret && sqlite3_column_type(s, col) != SQLITE_NULL)
			ret = load_process_means(s, col, r, err, len);
	}
	if (ret) {
		sqlite3_finalize(s);
		return ret;
	}
	return finish_read(st, s, rc, err, len);
}

/*
 * The digest saved with a run (schema 4 on) against the one of what was
 * read back: host, start, version, kernel, every sample. 0 when they agree
 * or none was saved.
 */
static int check_digest(struct sqlite_store *st, const struct rec_run *run, char *err, size_t len)
{
	char want[24] = "", got[24];
	sqlite3_stmt *s;
	int rc;

	if (prepare(st, "SELECT digest FROM runs WHERE id = ?", &s, err, len))
		return -1;
	sqlite3_bind_int64(s, 1, run->id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		store_col_text(s, 0, want, sizeof(want));
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(err, len, "database '%s': %s", st->path, sqlite3_errstr(rc));
	if (bind_check(st, "reading", err, len))
		return -1;
	rec_run_digest(run, got, sizeof(got));
	if (want[0] && strcmp(want, got))
		return store_fail(err, len,
				  "database '%s': run #%lld is not what was stored (its figures "
				  "or names changed since): a damaged store",
				  st->path, (long long)run->id);
	return 0;
}

/*
 * Run @id into @run (its head loaded) as its summary, where its samples
 * were pruned (store_prune()): the summary's results that @name and @path
 * match (globs, as load_results() takes them), the label the row has now.
 * 1 when the run is kept whole.
 */
static int load_pruned(struct sqlite_store *st, int64_t id, struct rec_run *run, const char *name,
		       const char *path, char *err, size_t len)
{
	struct rec_run sum;
	sqlite3_stmt *s;
	char *text = NULL, where[64], e2[256];
	size_t tlen;
	int rc;

	if (prepare(st, "SELECT summary FROM runs WHERE id = ? AND summary IS NOT NULL", &s, err,
		    len))
		return -1;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW)
		return finish_read(st, s, rc, err, len) ? -1 : 1;
	snprintf(where, sizeof(where), "run #%lld's summary", (long long)id);
	rc = doc_unpack(sqlite3_column_blob(s, 0), (size_t)sqlite3_column_bytes(s, 0), &text, &tlen,
			e2, sizeof(e2));
	sqlite3_finalize(s);
	if (rc)
		return store_fail(err, len, "database '%s': %s: %s", st->path, where, e2);
	rc = rec_from_json_text(&sum, text, tlen, where, err, len);
	free(text);
	if (rc)
		return -1;
	sum.id = id;
	snprintf(sum.label, sizeof(sum.label), "%s", run->label);
	store_keep_matching(&sum, name, path);
	rec_run_release(run);
	*run = sum;
	return 0;
}

static int sqlite_load_matching(void *impl, int64_t id, const char *name, const char *path,
				struct rec_run *run, char *err, size_t len)
{
	struct sqlite_store *st = impl;
	int rc;

	rc = load_head(st, id, run, err, len);
	if (rc)
		return rc;
	rc = load_pruned(st, id, run, name, path, err, len);
	if (rc < 0) {
		rec_run_release(run);
		return -1;
	}
	if (rc == 1 && load_results(st, run, name, path, err, len)) {
		rec_run_release(run);
		return -1;
	}
	/*
	 * A whole run is what it was when stored, or the store is damaged:
	 * checked on its figures as stored, before they are made a record's
	 * (a run stored before records kept processes to single precision
	 * has its digest of the figures it had then).
	 */
	if (!name && !path && check_digest(st, run, err, len)) {
		rec_run_release(run);
		return -1;
	}
	for (size_t i = 0; rc == 1 && i < run->nresults; i++)
		if (run->results[i].status == UKB_OK)
			rec_result_restat(&run->results[i]);
	return 0;
}

static int one_count(struct sqlite_store *st, const char *sql, long long *v, char *err, size_t len);

/* Run @id kept from now on as its summary, packed; its samples and profiles dropped. */
static int prune_one(struct sqlite_store *st, int64_t id, long long *samples, char *err, size_t len)
{
	static const char *const drop[] = {
		"DELETE FROM samples WHERE result_id IN (SELECT id FROM results WHERE run_id = ?)",
		"DELETE FROM profiles WHERE result_id IN (SELECT id FROM results WHERE run_id = ?)",
	};
	struct rec_run run = { 0 };
	sqlite3_stmt *s;
	unsigned char *z;
	size_t slen, zlen;
	char *sum, digest[24];
	int rc;

	if (sqlite_load_matching(st, id, NULL, NULL, &run, err, len))
		return -1;
	sum = rec_to_json_summary(&run, &slen);
	/*
	 * the summary's digest, of the run as a record keeps it: a run stored
	 * before processes were kept to single precision had another
	 */
	rec_run_digest(&run, digest, sizeof(digest));
	rec_run_release(&run);
	if (!sum)
		return store_fail(err, len, "out of memory");
	rc = doc_pack(sum, slen, 0, &z, &zlen, err, len);
	free(sum);
	if (rc)
		return -1;
	rc = prepare(st, "UPDATE runs SET summary = ?, digest = ? WHERE id = ?", &s, err, len);
	if (!rc) {
		if (sqlite3_bind_blob(s, 1, z, (int)zlen, SQLITE_TRANSIENT) != SQLITE_OK)
			bind_failed = 1;
		bind_text(s, 2, digest);
		sqlite3_bind_int64(s, 3, id);
		rc = bind_check(st, "writing", err, len) || step_done(st, s, err, len);
		sqlite3_finalize(s);
	}
	free(z);
	for (size_t k = 0; k < sizeof(drop) / sizeof(drop[0]) && !rc; k++) {
		rc = prepare(st, drop[k], &s, err, len);
		if (rc)
			break;
		sqlite3_bind_int64(s, 1, id);
		rc = step_done(st, s, err, len);
		if (!rc && !k)
			*samples += sqlite3_changes(st->db);
		sqlite3_finalize(s);
	}
	return rc ? -1 : 0;
}

/*
 * Every run before @before not pruned yet into @ids: those @keep spares and
 * those waiting to be pushed counted in @out instead.
 */
static int prune_candidates(struct sqlite_store *sq, const char *before, const char *keep,
			    struct store_pruned *out, int64_t **ids, size_t *n, char *err,
			    size_t len)
{
	sqlite3_stmt *s;
	size_t cap = 0;
	int rc;

	if (prepare(sq,
		    "SELECT id, ? IS NOT NULL AND label GLOB ?,"
		    " EXISTS (SELECT 1 FROM pending p WHERE p.run_id = runs.id)"
		    " FROM runs WHERE started < ? AND summary IS NULL ORDER BY id",
		    &s, err, len))
		return -1;
	bind_json(s, 1, keep);
	bind_text(s, 2, keep ? keep : "");
	bind_text(s, 3, before);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (sqlite3_column_int(s, 1)) {
			out->kept++;
		} else if (sqlite3_column_int(s, 2)) {
			out->waiting++;
		} else if (store_grow(ids, &cap, *n, sizeof(**ids), 64)) {
			sqlite3_finalize(s);
			return store_fail(err, len, "out of memory");
		} else {
			(*ids)[(*n)++] = sqlite3_column_int64(s, 0);
		}
	}
	return finish_read(sq, s, rc, err, len) || bind_check(sq, "reading", err, len) ? -1 : 0;
}

/*
 * Each run in a transaction of its own: a run is pruned whole or not at
 * all, and a run stored meanwhile waits for one run's pruning, not for all
 * of them (a year of runs would outlast a writer's 30 s of patience).
 */
int store_prune(struct store *st, const char *before, const char *keep, int dry,
		struct store_pruned *out, char *err, size_t len)
{
	struct sqlite_store *sq;
	int64_t *ids = NULL;
	size_t n = 0;
	int ret = 0;
	long long free_pages = 0, page = 0;

	memset(out, 0, sizeof(*out));
	if (store_backend(st) != &store_sqlite_ops)
		return store_fail(err, len, "not a local store");
	sq = store_impl(st);
	if (prune_candidates(sq, before, keep, out, &ids, &n, err, len)) {
		free(ids);
		return -1;
	}
	for (size_t i = 0; i < n && !ret; i++) {
		char sql[160];
		long long k = 0, whole = 0;

		snprintf(sql, sizeof(sql),
			 "SELECT count(*) FROM samples WHERE result_id IN"
			 " (SELECT id FROM results WHERE run_id = %lld)",
			 (long long)ids[i]);
		if (dry) {
			ret = one_count(sq, sql, &k, err, len);
		} else if (!(ret = exec_retry(sq, "BEGIN IMMEDIATE", err, len))) {
			/* still whole (no other prune took it) and not waiting since */
			snprintf(sql, sizeof(sql),
				 "SELECT count(*) FROM runs WHERE id = %lld AND summary IS NULL AND"
				 " NOT EXISTS (SELECT 1 FROM pending WHERE run_id = %lld)",
				 (long long)ids[i], (long long)ids[i]);
			ret = one_count(sq, sql, &whole, err, len);
			if (!ret && whole)
				ret = prune_one(sq, ids[i], &k, err, len);
			if (ret || exec(sq, "COMMIT", err, len)) {
				char e2[256];

				exec(sq, "ROLLBACK", e2, sizeof(e2));
				ret = -1;
			}
		}
		if (!ret) {
			out->runs += dry || whole;
			out->samples += k;
		}
	}
	free(ids);
	if (ret)
		return -1;
	/* the pages freed stay in the file, for the runs to come (-1: not known) */
	out->freed = -1;
	if (!one_count(sq, "PRAGMA freelist_count", &free_pages, err, len) &&
	    !one_count(sq, "PRAGMA page_size", &page, err, len))
		out->freed = free_pages * page;
	return 0;
}

int store_load_head(struct store *st, int64_t id, struct rec_run *run, char *err, size_t len)
{
	if (store_backend(st) != &store_sqlite_ops)
		return store_fail(err, len, "not an SQLite store");
	return load_head(store_impl(st), id, run, err, len);
}

/* The integer that @sql's one row gives; 0, or -1 with @err. */
static int one_count(struct sqlite_store *st, const char *sql, long long *v, char *err, size_t len)
{
	sqlite3_stmt *s;
	int rc;

	if (prepare(st, sql, &s, err, len))
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return store_fail(err, len, "database '%s': %s", st->path, sqlite3_errmsg(st->db));
	return 0;
}

static int sqlite_size(void *impl, struct store_size *out, char *err, size_t len)
{
	struct sqlite_store *st = impl;
	long long pages = 0, page = 0, free_pages = 0;

	/* the file as SQLite lays it out; a write-ahead log not yet folded in is not counted */
	if (one_count(st, "PRAGMA page_count", &pages, err, len) ||
	    one_count(st, "PRAGMA page_size", &page, err, len) ||
	    one_count(st, "PRAGMA freelist_count", &free_pages, err, len) ||
	    one_count(st, "SELECT count(*) FROM runs", &out->runs, err, len) ||
	    one_count(st, "SELECT count(*) FROM results", &out->results, err, len) ||
	    one_count(st, "SELECT count(*) FROM samples", &out->samples, err, len))
		return -1;
	out->bytes = pages * page;
	out->free_bytes = free_pages * page;
	return 0;
}

static int sqlite_list(void *impl, const struct store_filter *f, struct store_run **out, size_t *n,
		       char *err, size_t len)
{
	struct sqlite_store *st = impl;
	sqlite3_stmt *s;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (prepare(st,
		    "SELECT r.id, r.label, r.host, r.started, r.kernel_release, r.source,"
		    " r.duration_s, (SELECT count(*) FROM results WHERE run_id = r.id), r.uuid"
		    " FROM runs r WHERE (?1 IS NULL OR r.label GLOB ?1) AND (?2 IS NULL OR"
		    " r.host = ?2) AND (?4 IS NULL OR r.kernel_release GLOB ?4) AND (?5 IS NULL"
		    " OR r.started >= ?5) AND (?6 IS NULL OR r.started <= ?6 || '~')"
		    " ORDER BY r.started DESC, r.id DESC LIMIT ?3",
		    &s, err, len))
		return -1;
	bind_filter(s, f);
	sqlite3_bind_int64(s, 3, f && f->limit ? (int64_t)f->limit : -1);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_run *r;

		if (store_grow(out, &cap, *n, sizeof(**out), 32)) {
			sqlite3_finalize(s);
			free(*out);
			*out = NULL;
			*n = 0;
			return store_fail(err, len, "out of memory");
		}
		r = &(*out)[(*n)++];
		r->id = sqlite3_column_int64(s, 0);
		store_col_text(s, 1, r->label, sizeof(r->label));
		store_col_text(s, 2, r->host, sizeof(r->host));
		store_col_text(s, 3, r->started, sizeof(r->started));
		store_col_text(s, 4, r->kernel_release, sizeof(r->kernel_release));
		store_col_text(s, 5, r->source, sizeof(r->source));
		r->duration_s = col_num(s, 6);
		r->nresults = (size_t)sqlite3_column_int64(s, 7);
		store_col_text(s, 8, r->uuid, sizeof(r->uuid));
		if (!iso_time(r->started) || (r->uuid[0] && !rec_uuid_valid(r->uuid))) {
			sqlite3_finalize(s);
			store_fail(err, len,
				   "database '%s': run #%lld has a malformed %s (a damaged store?)",
				   st->path, (long long)r->id,
				   iso_time(r->started) ? "UUID" : "start time");
			free(*out);
			*out = NULL;
			*n = 0;
			return -1;
		}
	}
	if (finish_read(st, s, rc, err, len)) {
		free(*out);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Calibrations                                                        */

static int sqlite_floor_put(void *impl, const char *host, const struct store_floor *f, char *err,
			    size_t len)
{
	struct sqlite_store *st = impl;
	sqlite3_stmt *s;
	int ret;

	char detail[256];

	if (prepare(st,
		    "INSERT INTO calibrations (host, started, floor, rounds, detail)"
		    " VALUES (?, ?, ?, ?, ?)",
		    &s, err, len))
		return -1;
	/* the conditions it was measured under */
	snprintf(detail, sizeof(detail),
		 "{\"load\":%.17g,\"disturbed\":%.17g,\"waited\":%.17g,\"adjusted\":%.17g}",
		 isfinite(f->load) ? f->load : -1, isfinite(f->disturbed) ? f->disturbed : -1,
		 isfinite(f->waited) ? f->waited : -1, isfinite(f->adjusted) ? f->adjusted : -1);
	bind_text(s, 1, host);
	bind_text(s, 2, f->started);
	sqlite3_bind_double(s, 3, f->floor);
	sqlite3_bind_int(s, 4, (int)f->rounds);
	bind_text(s, 5, detail);
	ret = step_done(st, s, err, len);
	sqlite3_finalize(s);
	return ret;
}

static int sqlite_floor_get(void *impl, const char *host, struct store_floor *f, char *err,
			    size_t len)
{
	struct sqlite_store *st = impl;
	sqlite3_stmt *s;
	int rc;

	if (prepare(st,
		    "SELECT floor, started, rounds, detail FROM calibrations WHERE host = ?"
		    " ORDER BY started DESC, id DESC LIMIT 1",
		    &s, err, len))
		return -1;
	bind_text(s, 1, host);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		const unsigned char *d = sqlite3_column_text(s, 3);
		struct jv *o = d ? jv_parse((const char *)d) : NULL;

		f->floor = sqlite3_column_double(s, 0);
		store_col_text(s, 1, f->started, sizeof(f->started));
		f->rounds = (unsigned)sqlite3_column_int(s, 2);
		/* older calibrations did not say: unknown */
		f->load = jv_num(jv_get(o, "load"), -1);
		f->disturbed = jv_num(jv_get(o, "disturbed"), -1);
		f->waited = jv_num(jv_get(o, "waited"), -1);
		f->adjusted = jv_num(jv_get(o, "adjusted"), -1);
		if (!(f->adjusted >= 0))
			f->adjusted = NAN;
		if (!(f->load >= 0))
			f->load = NAN;
		if (!(f->disturbed >= 0))
			f->disturbed = NAN;
		if (!(f->waited >= 0))
			f->waited = NAN;
		jv_free(o);
		sqlite3_finalize(s);
		return 0;
	}
	return finish_read(st, s, rc, err, len) ? -1 : 1;
}

/* The share of a result's batches that were disturbed; NAN when none were taken. */
static double disturbed_share(sqlite3_stmt *s, int col_disturbed, int col_n)
{
	double nd = sqlite3_column_double(s, col_disturbed), nn = sqlite3_column_double(s, col_n);

	return nn + nd > 0 ? nd / (nn + nd) : NAN;
}

static int sqlite_path_runs(void *impl, const char *host, const char *name, const char *path,
			    size_t max, struct store_path_run **out, size_t *n, char *err,
			    size_t len)
{
	struct sqlite_store *st = impl;
	size_t cap = 0;
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	/* SQLite's own JSON functions read the few members the floor needs */
	if (prepare(st,
		    "SELECT u.id, u.label, u.started, u.kernel_release,"
		    " json_extract(u.environment, '$.kernel_version'),"
		    " json_extract(u.environment, '$.boot_id'), u.ukbench_version,"
		    " json_extract(u.settings, '$.reference'), r.params, r.threads, r.bytes,"
		    " json_extract(u.environment, '$.loadavg[0]') /"
		    "  json_extract(u.environment, '$.online_cpus'),"
		    " r.waited, r.disturbed, r.n, r.process_means, r.process_ref"
		    " FROM results r JOIN runs u ON u.id = r.run_id"
		    " WHERE u.host = ? AND r.name = ? AND r.path = ? AND r.status = 'ok'"
		    " AND u.interrupted = 0 AND r.process_means IS NOT NULL"
		    " ORDER BY u.started DESC, u.id DESC LIMIT ?",
		    &s, err, len))
		return -1;
	bind_text(s, 1, host);
	bind_text(s, 2, name);
	bind_text(s, 3, path);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)max);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_path_run *p;
		size_t nref = 0;

		if (store_grow(out, &cap, *n, sizeof(**out), 32)) {
			sqlite3_finalize(s);
			goto nomem;
		}
		p = &(*out)[(*n)++];
		memset(p, 0, sizeof(*p));
		p->id = sqlite3_column_int64(s, 0);
		store_col_text(s, 1, p->label, sizeof(p->label));
		store_col_text(s, 2, p->started, sizeof(p->started));
		store_col_text(s, 3, p->kernel, sizeof(p->kernel));
		store_col_text(s, 4, p->build, sizeof(p->build));
		store_col_text(s, 5, p->boot, sizeof(p->boot));
		store_col_text(s, 6, p->version, sizeof(p->version));
		store_col_text(s, 7, p->ref_kind, sizeof(p->ref_kind));
		if (!p->ref_kind[0])
			snprintf(p->ref_kind, sizeof(p->ref_kind), "%s", UKB_REF_KIND_BEFORE);
		store_col_text(s, 8, p->params, sizeof(p->params));
		p->threads = (unsigned)sqlite3_column_int64(s, 9);
		p->bytes = (long)sqlite3_column_int64(s, 10);
		p->load = col_num(s, 11);
		p->waited = col_num(s, 12);
		p->disturbed = disturbed_share(s, 13, 14);
		if (col_numbers(s, 15, &p->means, &p->n, err, len) ||
		    col_numbers(s, 16, &p->refs, &nref, err, len)) {
			sqlite3_finalize(s);
			goto fail;
		}
		if (nref != p->n) {
			free(p->refs);
			p->refs = NULL;
		}
		/* a process without an undisturbed reference batch was stored as null */
		for (size_t i = 0; p->refs && i < nref; i++)
			if (!(p->refs[i] > 0))
				p->refs[i] = NAN;
	}
	if (finish_read(st, s, rc, err, len))
		goto fail;
	return 0;
nomem:
	store_fail(err, len, "out of memory");
fail:
	store_path_runs_free(*out, *n);
	*out = NULL;
	*n = 0;
	return -1;
}

/* ------------------------------------------------------------------ */
/* Histories                                                           */

static int sqlite_points(void *impl, const struct store_filter *f, char **pats, int npats,
			 struct rec_point **out, size_t *n, char *err, size_t len)
{
	struct sqlite_store *st = impl;
	struct rec_points b = { 0 };
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	if (prepare(
		st,
		"SELECT r.id, r.label, r.host, r.started, r.kernel_release, x.name, x.benchmark,"
		" x.path, x.mean_ns, x.ci95_rel, x.params, r.uuid, x.seq FROM results x JOIN runs "
		"r ON r.id = "
		"x.run_id"
		" WHERE x.status = 'ok' AND x.n > 0 AND r.interrupted = 0"
		" AND (?1 IS NULL OR r.label GLOB ?1) AND (?2 IS NULL OR r.host = ?2)"
		" AND (?4 IS NULL OR r.kernel_release GLOB ?4) AND (?5 IS NULL"
		" OR r.started >= ?5) AND (?6 IS NULL OR r.started <= ?6 || '~')"
		" ORDER BY r.started, r.id, x.seq",
		&s, err, len))
		return -1;
	bind_filter(s, f);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *t[RP_NTEXT];
		char started[32];
		int64_t run = sqlite3_column_int64(s, 0);
		double mean = col_num(s, 8);
		int hit = !npats;

		for (int i = 0; i < RP_NTEXT; i++)
			t[i] = "";
		t[RP_NAME] = col_str(s, 5);
		t[RP_BENCHMARK] = col_str(s, 6);
		t[RP_PATH] = col_str(s, 7);
		for (int k = 0; k < npats && !hit; k++)
			hit = pattern_matches(pats[k], t[RP_NAME], t[RP_BENCHMARK], t[RP_PATH]);
		if (!hit)
			continue;
		t[RP_LABEL] = col_str(s, 1);
		t[RP_HOST] = col_str(s, 2);
		t[RP_STARTED] = col_str(s, 3);
		t[RP_KERNEL] = col_str(s, 4);
		t[RP_PARAMS] = col_str(s, 10);
		t[RP_UUID] = col_str(s, 11);
		/* as the point keeps it (series.h) */
		snprintf(started, sizeof(started), "%s", t[RP_STARTED]);
		if (!iso_time(started) || !(mean > 0) || !isfinite(mean)) {
			int bad_time = !iso_time(started);

			sqlite3_finalize(s);
			rec_points_free(&b);
			return store_fail(err, len,
					  "database '%s': run #%lld has a malformed %s (a damaged "
					  "store?)",
					  st->path, (long long)run,
					  bad_time ? "start time" : "mean");
		}
		if (rec_points_add(&b, run, (size_t)sqlite3_column_int64(s, 12), mean,
				   col_num(s, 9), t)) {
			sqlite3_finalize(s);
			rec_points_free(&b);
			return store_fail(err, len, "out of memory");
		}
	}
	if (finish_read(st, s, rc, err, len)) {
		rec_points_free(&b);
		return -1;
	}
	*out = rec_points_take(&b, n);
	if (!*out)
		return store_fail(err, len, "out of memory");
	return 0;
}

const struct store_ops store_sqlite_ops = {
	.version = UKB_STORE_OPS_VERSION,
	.name = "SQLite",
	.claims = sqlite_claims,
	.open = sqlite_open,
	.close = sqlite_close,
	.where = sqlite_where,
	.target = sqlite_target,
	.save = sqlite_save,
	.find_same = sqlite_find_same,
	.load_matching = sqlite_load_matching,
	.list = sqlite_list,
	.size = sqlite_size,
	.points = sqlite_points,
	.path_runs = sqlite_path_runs,
	.edit = sqlite_edit,
	.floor_reset = sqlite_floor_reset,
	.floor_put = sqlite_floor_put,
	.floor_get = sqlite_floor_get,
};
