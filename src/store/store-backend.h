/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * store-backend.h - what a backend of the store provides: one table of
 * operations, as fio's ioengines carry theirs, registered in one list
 * (store.c). store.c opens a store with the first backend that claims its
 * name and dispatches every call of store.h through the table; the rest
 * of ukbench sees store.h only.
 *
 * Two backends: SQLite (store-sqlite.c: a file; for a fleet's URI, the
 * spool that holds runs until they are pushed, store-spool.c), and a
 * fleet's PostgreSQL server, read (store-pg.c). A backend's file includes
 * its own library only. An operation a backend cannot do is NULL, and the
 * call says so with the backend's name; one it refuses for a reason of
 * its own (a server is never written here) is a function that says why.
 *
 * A third backend: a file with its operations and its `claims`, an entry
 * in the list in store.c, its library in the Makefile.
 */
#ifndef UKB_STORE_STORE_BACKEND_H
#define UKB_STORE_STORE_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define UKB_STORE_OPS_VERSION 2

struct store_ops {
	int version; /* UKB_STORE_OPS_VERSION: a table of another layout is refused */
	const char *name;
	/* Is @where (a path, a URI) this backend's, opened to read or to write? */
	int (*claims)(const char *where, int reader);
	/*
	 * Opens @where into *@impl: 0; 1 when @reader and nothing is stored
	 * there yet (nothing is created); -1 with @err.
	 */
	int (*open)(const char *where, int reader, void **impl, char *err, size_t len);
	void (*close)(void *impl);
	/* where it reads from and writes to, as shown; the fleet's server saved for, or "" */
	const char *(*where)(const void *impl);
	const char *(*target)(const void *impl);

	int (*save)(void *impl, struct rec_run *run, char *err, size_t len);
	int (*find_same)(void *impl, const struct rec_run *run, int64_t *id, char *err, size_t len);
	int (*load_matching)(void *impl, int64_t id, const char *name, const char *path,
			     struct rec_run *run, char *err, size_t len);
	int (*list)(void *impl, const struct store_filter *f, struct store_run **out, size_t *n,
		    char *err, size_t len);
	int (*points)(void *impl, const struct store_filter *f, char **pats, int npats,
		      struct rec_point **out, size_t *n, char *err, size_t len);
	int (*path_runs)(void *impl, const char *host, const char *name, const char *path,
			 size_t max, struct store_path_run **out, size_t *n, char *err, size_t len);
	int (*edit)(void *impl, const int64_t *ids, size_t n, const char *label, char *err,
		    size_t len);
	int (*floor_reset)(void *impl, const char *host, size_t *nruns, char *err, size_t len);
	int (*floor_put)(void *impl, const char *host, const struct store_floor *f, char *err,
			 size_t len);
	int (*floor_get)(void *impl, const char *host, struct store_floor *f, char *err,
			 size_t len);
	int (*size)(void *impl, struct store_size *out, char *err, size_t len);
};

extern const struct store_ops store_sqlite_ops;
extern const struct store_ops store_pg_ops;

/* A store made of a backend's open @impl (for a backend's own openers). */
int store_wrap(const struct store_ops *ops, void *impl, struct store **out, char *err, size_t len);

/* The backend of @st, and its open state. */
const struct store_ops *store_backend(const struct store *st);
void *store_impl(const struct store *st);

/* vsnprintf() into @err; returns -1, for `return store_fail(...)`. */
int store_fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Makes room in the array *@arr of *@cap elements of @size bytes for the
 * element @n: doubled when full, @first when empty. 0, or -1 with the
 * array as it was (the caller frees it).
 */
int store_grow(void *arr, size_t *cap, size_t n, size_t size, size_t first);

/*
 * Keeps the results of @run whose name and path match the globs @name and
 * @path (NULL: any), in their order; the others released.
 */
void store_keep_matching(struct rec_run *run, const char *name, const char *path);

#endif
