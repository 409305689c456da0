// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runref.c - from a name on the command line to a loaded run.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pool.h"
#include "runref.h"

int store_open_cli_reader(const char *db, char *path, size_t len, struct store **st)
{
	char err[1024];
	int rc;

	*st = NULL;
	if (store_default_path(db, path, len, err, sizeof(err))) {
		error("%s", err);
		return -1;
	}
	rc = store_open_reader(path, st, err, sizeof(err));
	if (rc < 0)
		error("%s", err);
	return rc;
}

struct store *store_open_cli(const char *db, char *path, size_t len)
{
	struct store *st;
	char err[1024];

	if (store_default_path(db, path, len, err, sizeof(err)) ||
	    store_open(path, &st, err, sizeof(err))) {
		error("%s", err);
		return NULL;
	}
	return st;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

int runref_load_file(const char *path, struct rec_run *run, char *desc, size_t desclen)
{
	char err[1024];
	size_t len;
	char *text = read_file(path, &len, err, sizeof(err));
	int ret;

	if (!text) {
		error("%s", err);
		return -1;
	}
	ret = rec_from_json_text(run, text, len, path, err, sizeof(err));
	free(text);
	if (ret) {
		error("%s", err);
		return -1;
	}
	snprintf(desc, desclen, "%s", path);
	return 0;
}

static int load_id(struct store *st, long long id, struct rec_run *run, char *desc, size_t desclen)
{
	char err[1024];
	int rc = store_load(st, id, run, err, sizeof(err));

	if (rc < 0) {
		error("%s", err);
		return -1;
	}
	if (rc > 0) {
		error("no run #%lld in the store; 'ukbench runs' lists them", id);
		return -1;
	}
	snprintf(desc, desclen, "#%lld%s%s%s", id, run->label[0] ? " '" : "", run->label,
		 run->label[0] ? "'" : "");
	return 0;
}

/*
 * Loads the runs of @list (newest first) and pools them into @run: every
 * one (@mode RUNREF_ALL), or those made on the newest one's host, kernel
 * and boot (RUNREF_BOOT). *@used gets how many were pooled.
 */
static int load_all(struct store *st, const struct store_run *list, size_t n, int mode,
		    struct rec_run *run, size_t *used)
{
	struct rec_run *runs = calloc(n, sizeof(*runs));
	char err[1024], boot0[40], boot[40];
	size_t k = 0;
	int ret = 0;

	if (!runs)
		return error("out of memory");
	for (size_t i = 0; i < n && !ret; i++) {
		if ((ret = store_load(st, list[i].id, &runs[k], err, sizeof(err)))) {
			error("%s", err);
			break;
		}
		cmp_boot_of(&runs[k], boot, sizeof(boot));
		if (!k)
			snprintf(boot0, sizeof(boot0), "%s", boot);
		/* the same thing measured again: one host, kernel and boot */
		if (k && mode == RUNREF_BOOT && !cmp_same_boot(&runs[0], boot0, &runs[k], boot)) {
			rec_run_release(&runs[k]);
			continue;
		}
		k++;
	}
	if (!ret && cmp_pool(runs, k)) {
		error("out of memory");
		ret = -1;
	}
	if (!ret) {
		int64_t *ids = calloc(k, sizeof(*ids));
		char(*at)[32] = calloc(k, sizeof(*at));

		for (size_t i = 0; ids && at && i < k; i++) {
			ids[i] = runs[i].id;
			memcpy(at[i], runs[i].started, sizeof(at[i]));
		}
		*run = runs[0];
		memset(&runs[0], 0, sizeof(runs[0]));
		free(run->pooled_ids);
		free(run->pooled_started);
		if (!ids || !at) {
			free(ids);
			free(at);
			ids = NULL;
			at = NULL;
		}
		run->pooled_ids = ids;
		run->pooled_started = at;
		run->npooled = ids ? k : 0;
		*used = k;
	}
	n = k + (ret && k < n);
	for (size_t i = 0; i < n; i++)
		rec_run_release(&runs[i]);
	free(runs);
	return ret ? -1 : 0;
}

const char *runref_label_glob(const char *label, char *glob, size_t len)
{
	size_t o = 0;

	/* a label is matched exactly: the glob characters escaped */
	for (const char *p = label; *p && o + 4 < len; p++) {
		if (*p == '*' || *p == '?' || *p == '[') {
			glob[o++] = '[';
			glob[o++] = *p;
			glob[o++] = ']';
		} else {
			glob[o++] = *p;
		}
	}
	glob[o] = 0;
	return glob;
}

int runref_label_ids(struct store *st, const char *label, int64_t **ids, size_t *n, size_t *all)
{
	struct store_filter f = { 0 };
	struct store_run *list = NULL;
	struct rec_run first = { 0 }, r = { 0 };
	char err[1024], glob[300], boot0[40], boot[40];
	size_t k = 0;
	int64_t *v = NULL;
	int ret = -1;

	*ids = NULL;
	*n = *all = 0;
	f.label = runref_label_glob(label, glob, sizeof(glob));
	if (store_list(st, &f, &list, all, err, sizeof(err)))
		return error("%s", err);
	if (!*all) {
		free(list);
		return 0;
	}
	v = calloc(*all, sizeof(*v));
	if (!v || store_load(st, list[0].id, &first, err, sizeof(err))) {
		error("%s", v ? err : "out of memory");
		goto out;
	}
	cmp_boot_of(&first, boot0, sizeof(boot0));
	v[k++] = list[0].id;
	for (size_t i = 1; i < *all; i++) {
		if (store_load(st, list[i].id, &r, err, sizeof(err))) {
			error("%s", err);
			goto out;
		}
		cmp_boot_of(&r, boot, sizeof(boot));
		if (cmp_same_boot(&first, boot0, &r, boot))
			v[k++] = list[i].id;
		rec_run_release(&r);
	}
	*ids = v;
	*n = k;
	v = NULL;
	ret = 0;
out:
	rec_run_release(&first);
	free(v);
	free(list);
	return ret;
}

static int load_label(struct store *st, const char *label, int mode, struct rec_run *run,
		      char *desc, size_t desclen)
{
	size_t used = 0;
	struct store_filter f = { .label = label };
	struct store_run *list;
	char err[1024], glob[300];
	size_t n;
	int ret = -1;

	f.label = runref_label_glob(label, glob, sizeof(glob));
	if (store_list(st, &f, &list, &n, err, sizeof(err))) {
		error("%s", err);
		return -1;
	}
	if (!n) {
		error("no run labelled '%s' in the store, and no such file; 'ukbench runs' lists "
		      "the runs",
		      label);
		goto out;
	}
	if (mode == RUNREF_LATEST || n == 1) {
		if (n > 1)
			fprintf(stderr,
				"note: label '%s' matches %zu runs; using the latest, #%lld\n",
				label, n, (long long)list[0].id);
		ret = load_id(st, list[0].id, run, desc, desclen);
		goto out;
	}
	ret = load_all(st, list, n, mode, run, &used);
	if (ret)
		goto out;
	if (used == 1) {
		snprintf(desc, desclen, "#%lld '%s'", (long long)run->id, label);
		if (n > 1)
			fprintf(stderr,
				"note: label '%s' matches %zu runs, one of them on the latest's "
				"boot: #%lld (--all pools every boot)\n",
				label, n, (long long)run->id);
	} else if (mode == RUNREF_BOOT) {
		snprintf(desc, desclen, "'%s' (%zu runs of one boot pooled)", label, used);
		if (n > used)
			fprintf(stderr,
				"note: label '%s' matches %zu runs; the %zu on the latest's boot "
				"are pooled (--all pools every boot, --latest takes one)\n",
				label, n, used);
	} else {
		snprintf(desc, desclen, "'%s' (%zu runs pooled)", label, used);
	}
	ret = 0;
out:
	free(list);
	return ret;
}

/* Does @st hold a run labelled exactly @label? */
static int label_stored(struct store *st, const char *label)
{
	struct store_filter f = { .label = label, .limit = 1 };
	struct store_run *list = NULL;
	char err[256];
	size_t n = 0;

	if (!st || strpbrk(label, "*?[") || store_list(st, &f, &list, &n, err, sizeof(err)))
		return 0;
	free(list);
	return n > 0;
}

/*
 * A label of digits only, as a short commit hash can be (1 in 27 of
 * them): the label when no run has that number, else ask which.
 */
static int digits_label(struct store *st, const char *ref, int mode, struct rec_run *run,
			char *desc, size_t desclen)
{
	char err[1024];
	int rc = store_load(st, atoll(ref), run, err, sizeof(err));

	if (rc < 0) {
		error("%s", err);
		return -1;
	}
	if (rc > 0)
		return load_label(st, ref, mode, run, desc, desclen);
	rec_run_release(run);
	error("'%s' is both run #%s and a label; say id:%s or label:%s", ref, ref, ref, ref);
	return -1;
}

int runref_load(struct store *st, const char *ref, int mode, struct rec_run *run, char *desc,
		size_t desclen)
{
	if (!strncmp(ref, "file:", 5))
		return runref_load_file(ref + 5, run, desc, desclen);
	if (!strncmp(ref, "label:", 6) && st)
		return load_label(st, ref + 6, mode, run, desc, desclen);
	if (access(ref, F_OK) == 0 && (strchr(ref, '/') || strstr(ref, ".json")))
		return runref_load_file(ref, run, desc, desclen);
	if (strstr(ref, ".json") || strchr(ref, '/')) {
		/* no such file: a label may look like a path (v6.18/base) */
		if (label_stored(st, ref))
			return load_label(st, ref, mode, run, desc, desclen);
		error("cannot open '%s': no such file, and no stored run has that label "
		      "(file:PATH and label:NAME say which is meant)",
		      ref);
		return -1;
	}
	if (!st) {
		error("'%s' is not a file, and no run is stored yet to look it up in", ref);
		return -1;
	}
	if (!strncmp(ref, "id:", 3) && all_digits(ref + 3))
		return load_id(st, atoll(ref + 3), run, desc, desclen);
	if (ref[0] == '#' && all_digits(ref + 1))
		return load_id(st, atoll(ref + 1), run, desc, desclen);
	if (all_digits(ref) && label_stored(st, ref))
		return digits_label(st, ref, mode, run, desc, desclen);
	if (all_digits(ref))
		return load_id(st, atoll(ref), run, desc, desclen);
	if (!strncmp(ref, "label:", 6))
		ref += 6;
	return load_label(st, ref, mode, run, desc, desclen);
}

int runref_names_run(struct store *st, const char *ref)
{
	if (!strncmp(ref, "file:", 5) || !strncmp(ref, "id:", 3) || !strncmp(ref, "label:", 6) ||
	    access(ref, F_OK) == 0)
		return 1;
	if (all_digits(ref) || (ref[0] == '#' && all_digits(ref + 1)))
		return 1;
	return label_stored(st, ref);
}
