/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * store-sqlite.h - inside the SQLite backend: what its spool
 * (store-spool.c) and the tests reach (opening at an older schema version
 * to test migrations, the raw connection). Includes <sqlite3.h>; nothing
 * outside the SQLite backend and its tests includes this.
 */
#ifndef UKB_STORE_STORE_SQLITE_H
#define UKB_STORE_STORE_SQLITE_H

#include <sqlite3.h>

#include "store-backend.h"

/* store_open(), but migrating only up to schema version @target. */
int store_open_version(const char *path, int target, struct store **out, char *err, size_t len);

/* The SQLite connection of @st; NULL when @st is not an SQLite store. */
sqlite3 *store_db(struct store *st);

/* A text column as a string ("" when NULL), cut to @len. */
void store_col_text(sqlite3_stmt *s, int i, char *buf, size_t len);

/*
 * Reads the row of run @id (no result) into @run: 0, 1 when there is no
 * such run, -1 with @err.
 */
int store_load_head(struct store *st, int64_t id, struct rec_run *run, char *err, size_t len);

#endif
