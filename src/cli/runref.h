/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runref.h - naming a run on the command line.
 *
 *   12, #12, id:12         run 12 in the store
 *   before, label:before   the runs labelled 'before' made on the host,
 *                          kernel and boot of the latest of them: the
 *                          same thing measured again. One rule in every
 *                          command: compare, report and show pool them,
 *                          runs --delete and --relabel change them.
 *                          RUNREF_LATEST: the latest alone (compare
 *                          --latest); RUNREF_ALL: every run of the label,
 *                          each boot one observation (compare --all)
 *   FILE.json, file:PATH   a ukbench JSON file (any path that exists)
 */
#ifndef UKB_CLI_RUNREF_H
#define UKB_CLI_RUNREF_H

#include <stddef.h>
#include <stdint.h>

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

/*
 * The ids @label names by the rule above (newest first, *@n of them; the
 * caller frees *@ids) and *@all, how many runs carry it on any boot. 0
 * (with *@n 0 when no run carries it), or -1 (printed).
 */
int runref_label_ids(struct store *st, const char *label, int64_t **ids, size_t *n, size_t *all);

/* @label as a glob that matches it alone, in @glob (of @len). */
const char *runref_label_glob(const char *label, char *glob, size_t len);

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
