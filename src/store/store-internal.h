/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * store-internal.h - what tests may reach inside the store (opening at an
 * older schema version to test migrations, the raw connection), and what
 * the store's files share: its error message, a growing array, reading a
 * run's own row.
 */
#ifndef UKB_STORE_STORE_INTERNAL_H
#define UKB_STORE_STORE_INTERNAL_H

#include <sqlite3.h>

#include "store.h"

/* store_open(), but migrating only up to schema version @target. */
int store_open_version(const char *path, int target, struct store **out, char *err, size_t len);

sqlite3 *store_db(struct store *st);

/* vsnprintf() into @err; returns -1, for `return store_fail(...)`. */
int store_fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Makes room in the array *@arr of *@cap elements of @size bytes for the
 * element @n: doubled when full, @first when empty. 0, or -1 with the
 * array as it was (the caller frees it).
 */
int store_grow(void *arr, size_t *cap, size_t n, size_t size, size_t first);

/* A text column as a string ("" when NULL), cut to @len. */
void store_col_text(sqlite3_stmt *s, int i, char *buf, size_t len);

/*
 * Reads the row of run @id (no result) into @run: 0, 1 when there is no
 * such run, -1 with @err.
 */
int store_load_head(struct store *st, int64_t id, struct rec_run *run, char *err, size_t len);

#endif
