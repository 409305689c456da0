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
#include "runref.h"

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

/* Appends every result of @src to @dst, pooling samples of equal paths. */
static int pool(struct rec_run *dst, struct rec_run *src)
{
	for (size_t i = 0; i < src->nresults; i++) {
		struct rec_result *s = &src->results[i], *d = NULL;
		double *p;

		for (size_t k = 0; k < dst->nresults; k++)
			if (!strcmp(dst->results[k].name, s->name) &&
			    !strcmp(dst->results[k].path, s->path))
				d = &dst->results[k];
		if (!d) {
			/* moved whole: @src no longer owns what @dst now does */
			if (!rec_take_result(dst, s))
				return -1;
			continue;
		}
		if (d->status != UKB_OK || s->status != UKB_OK)
			continue;
		p = realloc(d->samples, (d->nsamples + s->nsamples) * sizeof(*p));
		if (!p)
			return -1;
		memcpy(p + d->nsamples, s->samples, s->nsamples * sizeof(*p));
		d->samples = p;
		d->nsamples += s->nsamples;
		d->converged = d->converged && s->converged;
		rec_result_restat(d);
	}
	return 0;
}

static int load_label(struct store *st, const char *label, int all, struct rec_run *run, char *desc,
		      size_t desclen)
{
	struct store_filter f = { .label = label };
	struct store_run *list;
	char err[1024], glob[300];
	size_t n;
	int ret = -1;

	/* a label is matched exactly: escape the glob characters */
	size_t o = 0;
	for (const char *p = label; *p && o + 4 < sizeof(glob); p++) {
		if (*p == '*' || *p == '?' || *p == '[') {
			glob[o++] = '[';
			glob[o++] = *p;
			glob[o++] = ']';
		} else {
			glob[o++] = *p;
		}
	}
	glob[o] = 0;
	f.label = glob;
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
	if (!all) {
		if (n > 1)
			fprintf(stderr,
				"note: label '%s' matches %zu runs; using the latest, #%lld (--all "
				"pools them)\n",
				label, n, (long long)list[0].id);
		ret = load_id(st, list[0].id, run, desc, desclen);
		goto out;
	}
	if (load_id(st, list[0].id, run, desc, desclen))
		goto out;
	for (size_t i = 1; i < n; i++) {
		struct rec_run more;

		if (store_load(st, list[i].id, &more, err, sizeof(err))) {
			error("%s", err);
			rec_run_release(run);
			goto out;
		}
		if (pool(run, &more)) {
			error("out of memory");
			rec_run_release(&more);
			rec_run_release(run);
			goto out;
		}
		rec_run_release(&more);
	}
	snprintf(desc, desclen, "'%s' (%zu runs pooled)", label, n);
	ret = 0;
out:
	free(list);
	return ret;
}

int runref_load(struct store *st, const char *ref, int all, struct rec_run *run, char *desc,
		size_t desclen)
{
	if (!strncmp(ref, "file:", 5))
		return runref_load_file(ref + 5, run, desc, desclen);
	if (access(ref, F_OK) == 0 && (strchr(ref, '/') || strstr(ref, ".json")))
		return runref_load_file(ref, run, desc, desclen);
	if (!st) {
		error("'%s' is not a file, and there is no store to look it up in", ref);
		return -1;
	}
	if (!strncmp(ref, "id:", 3) && all_digits(ref + 3))
		return load_id(st, atoll(ref + 3), run, desc, desclen);
	if (ref[0] == '#' && all_digits(ref + 1))
		return load_id(st, atoll(ref + 1), run, desc, desclen);
	if (all_digits(ref))
		return load_id(st, atoll(ref), run, desc, desclen);
	if (!strncmp(ref, "label:", 6))
		ref += 6;
	if (strstr(ref, ".json")) {
		error("cannot open '%s': no such file", ref);
		return -1;
	}
	return load_label(st, ref, all, run, desc, desclen);
}
