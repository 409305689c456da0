// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store.c - the store's one door: a store is opened with the first
 * backend that claims its name, and every call of store.h goes through
 * that backend's table of operations (store-backend.h).
 */
#include <stdlib.h>

#include "store-backend.h"

/* The backends, in the order they are asked: the first that claims wins. */
static const struct store_ops *const backends[] = {
	&store_pg_ops,
	&store_sqlite_ops,
};

struct store {
	const struct store_ops *ops;
	void *impl;
};

int store_wrap(const struct store_ops *ops, void *impl, struct store **out, char *err, size_t len)
{
	struct store *st;

	*out = NULL;
	if (ops->version != UKB_STORE_OPS_VERSION) {
		ops->close(impl);
		return store_fail(err, len, "the %s store is of interface version %d, not %d",
				  ops->name, ops->version, UKB_STORE_OPS_VERSION);
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		ops->close(impl);
		return store_fail(err, len, "out of memory");
	}
	st->ops = ops;
	st->impl = impl;
	*out = st;
	return 0;
}

const struct store_ops *store_backend(const struct store *st)
{
	return st->ops;
}

void *store_impl(const struct store *st)
{
	return st->impl;
}

static int open_with(const char *where, int reader, struct store **out, char *err, size_t len)
{
	*out = NULL;
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		const struct store_ops *ops = backends[i];
		void *impl = NULL;
		int rc;

		if (!ops->claims(where, reader))
			continue;
		rc = ops->open(where, reader, &impl, err, len);
		if (rc)
			return rc;
		return store_wrap(ops, impl, out, err, len);
	}
	return store_fail(err, len, "no store can open '%s'", where);
}

int store_open(const char *path, struct store **out, char *err, size_t len)
{
	return open_with(path, 0, out, err, len);
}

int store_open_reader(const char *path, struct store **out, char *err, size_t len)
{
	return open_with(path, 1, out, err, len);
}

void store_close(struct store *st)
{
	if (!st)
		return;
	st->ops->close(st->impl);
	free(st);
}

const char *store_where(const struct store *st)
{
	return st->ops->where(st->impl);
}

const char *store_target(const struct store *st)
{
	return st->ops->target ? st->ops->target(st->impl) : "";
}

/* An operation the backend does not have. */
static int lacks(const struct store *st, const char *what, char *err, size_t len)
{
	return store_fail(err, len, "the %s store '%s' cannot %s", st->ops->name, store_where(st),
			  what);
}

int store_save(struct store *st, struct rec_run *run, char *err, size_t len)
{
	if (!st->ops->save)
		return lacks(st, "save a run", err, len);
	return st->ops->save(st->impl, run, err, len);
}

int store_find_same(struct store *st, const struct rec_run *run, int64_t *id, char *err, size_t len)
{
	if (!st->ops->find_same)
		return 0;
	return st->ops->find_same(st->impl, run, id, err, len);
}

int store_load_matching(struct store *st, int64_t id, const char *name, const char *path,
			struct rec_run *run, char *err, size_t len)
{
	if (!st->ops->load_matching)
		return lacks(st, "load a run", err, len);
	return st->ops->load_matching(st->impl, id, name, path, run, err, len);
}

int store_load_meta(struct store *st, int64_t id, struct rec_run *run, char *err, size_t len)
{
	/* no result is named by a control character: the description alone */
	return store_load_matching(st, id, "\001", "\001", run, err, len);
}

int store_load(struct store *st, int64_t id, struct rec_run *run, char *err, size_t len)
{
	return store_load_matching(st, id, NULL, NULL, run, err, len);
}

int store_list(struct store *st, const struct store_filter *f, struct store_run **out, size_t *n,
	       char *err, size_t len)
{
	*out = NULL;
	*n = 0;
	if (!st->ops->list)
		return lacks(st, "list its runs", err, len);
	return st->ops->list(st->impl, f, out, n, err, len);
}

int store_size(struct store *st, struct store_size *out, char *err, size_t len)
{
	*out = (struct store_size){ .free_bytes = -1, .samples = -1 };
	if (!st->ops->size)
		return lacks(st, "say its size", err, len);
	return st->ops->size(st->impl, out, err, len);
}

int store_points(struct store *st, const struct store_filter *f, char **pats, int npats,
		 struct rec_point **out, size_t *n, char *err, size_t len)
{
	*out = NULL;
	*n = 0;
	if (!st->ops->points)
		return lacks(st, "read a history", err, len);
	return st->ops->points(st->impl, f, pats, npats, out, n, err, len);
}

int store_path_runs(struct store *st, const char *host, const char *name, const char *path,
		    size_t max, struct store_path_run **out, size_t *n, char *err, size_t len)
{
	*out = NULL;
	*n = 0;
	if (!st->ops->path_runs)
		return lacks(st, "read a path's runs", err, len);
	return st->ops->path_runs(st->impl, host, name, path, max, out, n, err, len);
}

void store_path_runs_free(struct store_path_run *runs, size_t n)
{
	for (size_t i = 0; runs && i < n; i++) {
		free(runs[i].means);
		free(runs[i].refs);
	}
	free(runs);
}

int store_edit(struct store *st, const int64_t *ids, size_t n, const char *label, char *err,
	       size_t len)
{
	if (!st->ops->edit)
		return lacks(st, "change its runs", err, len);
	return st->ops->edit(st->impl, ids, n, label, err, len);
}

int store_floor_reset(struct store *st, const char *host, size_t *nruns, char *err, size_t len)
{
	*nruns = 0;
	if (!st->ops->floor_reset)
		return lacks(st, "forget a calibration", err, len);
	return st->ops->floor_reset(st->impl, host, nruns, err, len);
}

int store_floor_put(struct store *st, const char *host, const struct store_floor *f, char *err,
		    size_t len)
{
	if (!st->ops->floor_put)
		return lacks(st, "keep a calibration", err, len);
	return st->ops->floor_put(st->impl, host, f, err, len);
}

int store_floor_get(struct store *st, const char *host, struct store_floor *f, char *err,
		    size_t len)
{
	if (!st->ops->floor_get)
		return 1; /* none known */
	return st->ops->floor_get(st->impl, host, f, err, len);
}
