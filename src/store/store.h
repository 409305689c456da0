/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * store.h - the record of every result over time.
 *
 * One SQLite file per machine by default ($XDG_DATA_HOME/ukbench/results.db,
 * else ~/.local/share/ukbench/results.db), chosen with --db or UKBENCH_DB.
 *
 * Or a fleet's PostgreSQL server (store-pg.h), named by a URI
 * (postgresql://host/db?sslmode=..., as libpq reads it) or a service
 * (postgres:NAME): a run is saved first into the local SQLite file (the
 * spool: UKBENCH_SPOOL, else the default file) with a note that it waits
 * for that server, and pushed from there (store_push()), exactly once;
 * readers read the server.
 * The schema is versioned (PRAGMA user_version) and migrated forward on
 * open; the file is marked as ukbench's (PRAGMA application_id), so that a
 * foreign or corrupt file is refused untouched, and a file of a newer
 * schema is refused with both versions named. A run is saved in one
 * transaction: an interrupted save leaves no partial rows. WAL and a busy
 * timeout let several runs on one machine store at once.
 *
 * Each kind of store is a backend behind this interface, one table of
 * operations each (store-backend.h): SQLite with its spool
 * (store-sqlite.c, store-spool.c), a fleet's server read
 * (store-pg.c). store.c opens and dispatches.
 */
#ifndef UKB_STORE_STORE_H
#define UKB_STORE_STORE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"
#include "series.h"

#define UKB_STORE_SCHEMA_VERSION 10
#define UKB_STORE_APPLICATION_ID 0x756b6230 /* "ukb0" */

struct store;

/* A stored run without its results. */
struct store_run {
	int64_t id;
	char uuid[40];
	char label[128];
	char host[128];
	char started[32];
	char kernel_release[128];
	char source[512];
	double duration_s;
	size_t nresults;
};

struct store_filter {
	const char *label;  /* glob, or NULL */
	const char *host;   /* exact, or NULL */
	const char *kernel; /* glob of the kernel release, or NULL */
	const char *since;  /* started at or after this UTC time or date, or NULL */
	const char *until;  /* started at or before it (a date: that whole day), or NULL */
	size_t limit;	    /* 0: all */
};

/* The database path from --db, UKBENCH_DB or the XDG default, into @buf. */
int store_default_path(const char *opt, char *buf, size_t len, char *err, size_t errlen);

/* The spool of a fleet: UKBENCH_SPOOL, else the default SQLite file. */
int store_spool_path(char *buf, size_t len, char *err, size_t errlen);

/* Does @db name a fleet's server: postgresql://..., postgres://..., postgres:NAME? */
int store_is_fleet(const char *db);

/*
 * @db as a libpq connection string into @buf: -1 with advice in @err when
 * it holds a password (a command line is seen by every user) or cannot
 * be read. Credentials come from libpq's own places: ~/.pgpass or
 * PGPASSFILE, pg_service.conf, PGPASSWORD.
 */
int store_fleet_conninfo(const char *db, char *buf, size_t len, char *err, size_t errlen);

/*
 * Opens the database at @path, creating it (and its directory) when
 * absent, migrating it when older. 0, or -1 with a message in @err.
 */
int store_open(const char *path, struct store **out, char *err, size_t errlen);
void store_close(struct store *st);

/*
 * Opens the database at @path for reading only: nothing is created (no
 * directory, no file, an empty file stays empty). 0; 1 when there is no
 * database there yet (*@out NULL); -1 with a message in @err. An older
 * schema is migrated first, the one write a reader makes.
 */
int store_open_reader(const char *path, struct store **out, char *err, size_t errlen);

/* Saves @run in one transaction and sets run->id. 0 or -1 with @err. */
int store_save(struct store *st, struct rec_run *run, char *err, size_t errlen);

/*
 * Is @run (the same measurement: host, start, figures) stored already?
 * 1 with its id in @id, 0 when not, -1 with @err.
 */
int store_find_same(struct store *st, const struct rec_run *run, int64_t *id, char *err,
		    size_t errlen);

/* Loads run @id's description alone, no result. 0, 1 when absent, -1 on error. */
int store_load_meta(struct store *st, int64_t id, struct rec_run *run, char *err, size_t errlen);

/* Loads run @id, every result and sample. 0, 1 when absent, -1 on error. */
int store_load(struct store *st, int64_t id, struct rec_run *run, char *err, size_t errlen);

/*
 * The measured results of the runs @f selects whose path matches one of
 * @pats (none: every path), oldest run first; interrupted runs and
 * results not measured are left out. The caller frees *@out.
 */
int store_points(struct store *st, const struct store_filter *f, char **pats, int npats,
		 struct rec_point **out, size_t *n, char *err, size_t errlen);

/*
 * How large a store is: its bytes on disk (the file, or the server's
 * tables and their indexes), and the runs, results and samples it holds
 * (samples: -1 where the store does not count them).
 */
struct store_size {
	long long bytes, free_bytes; /* free_bytes: pages kept for reuse; -1: not known */
	long long runs, results, samples;
};

/* The size of @st. 0, or -1 with @err. */
int store_size(struct store *st, struct store_size *out, char *err, size_t errlen);

/* Runs matching @f, newest first. The caller frees *@out. */
int store_list(struct store *st, const struct store_filter *f, struct store_run **out, size_t *n,
	       char *err, size_t errlen);

/*
 * Loads only the results of run @id that match @name and @path (globs),
 * into @run (metadata included). 0, or -1 with @err.
 */
int store_load_matching(struct store *st, int64_t id, const char *name, const char *path,
			struct rec_run *run, char *err, size_t errlen);

/*
 * What `calibrate` measured on @host: the relative SD of a run's mean
 * between runs made at different times, beyond what the processes of one
 * run show. Kept with the time and the rounds it came from.
 */
struct store_floor {
	double floor;
	char started[32];
	unsigned rounds;
	double adjusted;  /* the floor of a mean over its reference's; NAN: unknown */
	double load;	  /* median 1-minute load average per CPU while measuring; NAN */
	double disturbed; /* median share of disturbed batches; NAN: unknown */
	double waited;	  /* median rec_waited_share() of its runs; NAN: unknown */
};

/*
 * One stored run of one path, as a floor is learned from it (learn.h): who
 * made it, where and in what conditions, and its process means and
 * references as kept. The statistics are the caller's.
 */
struct store_path_run {
	int64_t id;
	char label[128], started[32];
	char kernel[128]; /* its release */
	char build[128];  /* the kernel's version string (uname -v): which build */
	char boot[40];	  /* the boot id, "" when not known */
	char version[64]; /* of ukbench */
	char ref_kind[96];
	char params[160];
	unsigned threads;
	long bytes;
	double load;	  /* 1-minute load average per CPU; NAN: unknown */
	double waited;	  /* rec_waited_share(); NAN: unknown */
	double disturbed; /* share of disturbed batches; NAN: unknown */
	double *means;	  /* n process means */
	double *refs;	  /* n references beside them (NAN: not known); NULL: none */
	size_t n;
};

/*
 * The newest @max runs of @host that measured @name/@path (replicated, not
 * interrupted), newest first. The caller frees them with
 * store_path_runs_free(). 0, or -1 with @err.
 */
int store_path_runs(struct store *st, const char *host, const char *name, const char *path,
		    size_t max, struct store_path_run **out, size_t *n, char *err, size_t errlen);
void store_path_runs_free(struct store_path_run *runs, size_t n);

/*
 * Relabels the runs @ids[0..n) to @label, or with @label NULL deletes them
 * with everything they hold; all or none. 0, or -1 with @err (a run that
 * does not exist is one).
 */
int store_edit(struct store *st, const int64_t *ids, size_t n, const char *label, char *err,
	       size_t errlen);

/*
 * Forgets what calibrate learned of @host: its calibrations and its runs
 * labelled 'calibrate'. *@nruns gets how many runs went. 0 or -1 with @err.
 */
int store_floor_reset(struct store *st, const char *host, size_t *nruns, char *err, size_t errlen);

/* Stores a calibration of @host. 0 or -1 with @err. */
int store_floor_put(struct store *st, const char *host, const struct store_floor *f, char *err,
		    size_t errlen);

/* The latest calibration of @host: 0, 1 when there is none, -1 with @err. */
int store_floor_get(struct store *st, const char *host, struct store_floor *f, char *err,
		    size_t errlen);

/* ------------------------------------------------------------------ */
/* A fleet: the spool and the server                                  */

/* The fleet's server @st saves for ("" when none), and where it reads from. */
const char *store_target(const struct store *st);
const char *store_where(const struct store *st);

/* A run waiting in the spool for a server. */
struct store_pending {
	int64_t id; /* in the spool */
	char uuid[40], label[128], started[32];
	char target[1024];
	char since[32];
	unsigned tries;
	char last_error[256];
};

/* The runs waiting for @target (NULL: for any), oldest first. */
int store_pending_list(struct store *st, const char *target, struct store_pending **out, size_t *n,
		       char *err, size_t errlen);

/* How many runs were pushed to @target (NULL: to any). */
int store_pushed_count(struct store *st, const char *target, size_t *n, char *err, size_t errlen);

struct push_stats {
	size_t pushed, already, failed;
	char first_error[512];
};

/*
 * Sends every run of the spool @st waiting for @target (NULL: each to its
 * own) to the server, one transaction a run; a run the server has is
 * marked pushed without being sent twice. A run that fails stays waiting
 * with the reason. 0 when none failed, else -1 (@err and @ps say why).
 */
int store_push(struct store *st, const char *target, unsigned flags, struct push_stats *ps,
	       char *err, size_t errlen);

/*
 * store_push()'s @flags: each run whole, every batch's sample with it
 * (read again from the spool), not the summary the server keeps otherwise
 * (rec_to_json_summary(), about a fifth of the bytes).
 */
#define STORE_PUSH_SAMPLES 1u

/* What store_prune() did (or, dry, would do). */
struct store_pruned {
	long long runs;	   /* runs kept as their summaries from now on */
	long long kept;	   /* runs before the date spared by the labels' glob */
	long long waiting; /* runs before the date still waiting to be pushed, spared */
	long long samples; /* the sample rows dropped */
	long long freed;   /* bytes the store may reuse after (its free pages) */
};

/*
 * Retention on the local store @st (SQLite): the runs started before
 * @before (a UTC time, as filter_parse_date() leaves it), but those whose
 * label matches @keep (a glob, or NULL) and those waiting to be pushed,
 * lose their batches' samples and are kept as their summaries (what a
 * fleet's server keeps: compare, history, show and report read them as
 * before), each run in a transaction of its own. With @dry only counted. 0,
 * or -1 with @err (@out then counts the runs pruned before it).
 */
int store_prune(struct store *st, const char *before, const char *keep, int dry,
		struct store_pruned *out, char *err, size_t errlen);

/*
 * Makes or migrates the fleet schema on @target and grants @writer (INSERT)
 * and @reader (SELECT); as the database's owner. A line of what was done
 * into @msg. 0 or -1 with @err.
 */
int store_fleet_init(const char *target, const char *writer, const char *reader, char *msg,
		     size_t mlen, char *err, size_t errlen);

/*
 * Retention on the fleet's server @target: pg_prune() (store-pg.h), as
 * the writer or the owner. 0, or -1 with @err.
 */
int store_fleet_prune(const char *target, const char *before, const char *keep, int dry,
		      long long *pruned, long long *kept, char *err, size_t errlen);

#endif
