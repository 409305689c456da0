/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runref.h - naming a run on the command line.
 *
 *   12, #12, id:12         run 12 in the store
 *   before, label:before   the runs labelled 'before' made on the latest
 *                          one's boot, pooled (the same thing measured
 *                          again); RUNREF_LATEST: the latest alone;
 *                          RUNREF_ALL: every such run, each boot one
 *                          observation
 *   FILE.json, file:PATH   a ukbench JSON file (any path that exists)
 */
#ifndef UKB_CLI_RUNREF_H
#define UKB_CLI_RUNREF_H

#include <stddef.h>

#include "record.h"
#include "store.h"

enum runref_pool {
	RUNREF_LATEST, /* a label: its latest run */
	RUNREF_BOOT,   /* a label: its runs on the latest one's boot, pooled */
	RUNREF_ALL,    /* a label: every run, one observation per boot */
};

/*
 * Loads the run @ref names into @run. @st may be NULL when no store is
 * open (then only files resolve). A label matching several runs is
 * taken as @mode says, and a note on stderr says which. @desc gets a
 * short description ("#12 'before'", "before.json"). 0 or -1 (printed).
 */
int runref_load(struct store *st, const char *ref, int mode, struct rec_run *run, char *desc,
		size_t desclen);

/*
 * Does @ref name a run: an existing file, an id or a label with a run in
 * @st? Nothing is printed; for telling runs from patterns.
 */
int runref_names_run(struct store *st, const char *ref);

/* Loads a ukbench JSON file; 0 or -1 (printed). */
int runref_load_file(const char *path, struct rec_run *run, char *desc, size_t desclen);

/*
 * Opens the store named by @db (or the default) for reading: 0, 1 when
 * there is none yet (*@st NULL, nothing created), -1 (printed).
 */
int store_open_cli_reader(const char *db, char *path, size_t len, struct store **st);

/* Opens the store named by @db (or the default); NULL and printed on error. */
struct store *store_open_cli(const char *db, char *path, size_t len);

#endif
