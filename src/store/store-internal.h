/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * store-internal.h - what tests may reach inside the store: opening at an
 * older schema version (to test migrations) and the raw connection.
 */
#ifndef UKB_CLI_STORE_INTERNAL_H
#define UKB_CLI_STORE_INTERNAL_H

#include <sqlite3.h>

#include "store.h"

/* store_open(), but migrating only up to schema version @target. */
int store_open_version(const char *path, int target, struct store **out, char *err, size_t len);

sqlite3 *store_db(struct store *st);

#endif
