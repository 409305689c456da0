// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * series-load.c - stored runs gathered into one series per host and path.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series-load.h"

static uint64_t key_hash(const char *host, const char *name, const char *path, const char *params)
{
	const char *k[4] = { host, name, path, params };
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	for (int i = 0; i < 4; i++)
		for (const char *c = k[i];; c++) {
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
			if (!*c)
				break;
		}
	return h;
}

static int same_key(const struct series *s, const struct rec_point *r)
{
	return !strcmp(s->host, r->host) && !strcmp(s->name, r->name) &&
	       !strcmp(s->path, r->path) && !strcmp(s->params, r->params);
}

/* The slots again, for @nslot places: a history of every host has thousands of series. */
static int rehash(struct series_set *set, size_t nslot)
{
	size_t *slot = calloc(nslot, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < set->n; i++) {
		const struct series *s = &set->s[i];
		size_t h = (size_t)(key_hash(s->host, s->name, s->path, s->params) % nslot);

		while (slot[h])
			h = (h + 1) % nslot;
		slot[h] = i + 1;
	}
	free(set->slot);
	set->slot = slot;
	set->nslot = nslot;
	return 0;
}

static struct series *find_series(struct series_set *set, const struct rec_point *r)
{
	struct series *s;
	size_t h;

	if (set->nslot < 2 * (set->n + 1) && rehash(set, 4 * (set->n + 16)))
		return NULL;
	for (h = (size_t)(key_hash(r->host, r->name, r->path, r->params) % set->nslot);
	     set->slot[h]; h = (h + 1) % set->nslot)
		if (same_key(&set->s[set->slot[h] - 1], r))
			return &set->s[set->slot[h] - 1];
	if (set->n == set->cap) {
		size_t cap = set->cap ? 2 * set->cap : 16;

		s = realloc(set->s, cap * sizeof(*s));
		if (!s)
			return NULL;
		set->s = s;
		set->cap = cap;
	}
	s = &set->s[set->n++];
	set->slot[h] = set->n;
	memset(s, 0, sizeof(*s));
	snprintf(s->host, sizeof(s->host), "%s", r->host);
	snprintf(s->name, sizeof(s->name), "%s", r->name);
	snprintf(s->path, sizeof(s->path), "%s", r->path);
	snprintf(s->params, sizeof(s->params), "%s", r->params);
	return s;
}

static int add_point(struct series_set *set, const struct rec_point *pt)
{
	struct series *s = find_series(set, pt);

	if (!s)
		return -1;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct series_point *p = realloc(s->pts, cap * sizeof(*p));

		if (!p)
			return -1;
		s->pts = p;
		s->cap = cap;
	}
	s->pts[s->n++].p = pt;
	return 0;
}

int series_load(struct store *st, const struct series_opts *o, struct series_set *set, char *err,
		size_t errlen)
{
	memset(set, 0, sizeof(*set));
	if (store_points(st, o->filter, o->pats, o->npats, &set->points, &set->npoints, err,
			 errlen))
		return -1;
	for (size_t k = 0; k < set->npoints; k++) {
		/* the points come run by run */
		if (!k || set->points[k].run != set->points[k - 1].run)
			set->nruns++;
		if (add_point(set, &set->points[k]))
			goto nomem;
	}
	return 0;
nomem:
	snprintf(err, errlen, "reading the history: %s", strerror(ENOMEM));
	return -1;
}

/* The steps of @v[0..n) over the points @keep marks, into @out at their places. */
static int steps_of(const double *v, const int *keep, size_t n, const struct series_opts *o,
		    struct ukb_step *out)
{
	struct ukb_point *pts = calloc(n + 1, sizeof(*pts));
	struct ukb_step *st = calloc(n + 1, sizeof(*st));
	size_t k = 0;
	int ret = -ENOMEM;

	if (!pts || !st)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (keep[i])
			pts[k++].mean = v[i];
	if (ukb_changepoints(pts, k, o->window, o->alpha, o->threshold, st))
		goto out;
	k = 0;
	for (size_t i = 0; i < n; i++)
		out[i] = keep[i] ? st[k++] : (struct ukb_step){ .step = NAN, .p = NAN };
	ret = 0;
out:
	free(pts);
	free(st);
	return ret;
}

int series_restep(struct series *s, int *state, const double *adj, const struct series_opts *o)
{
	double *raw = calloc(s->n + 1, sizeof(*raw));
	int *keep = calloc(s->n + 1, sizeof(*keep));
	struct ukb_step *a = calloc(s->n + 1, sizeof(*a));
	struct ukb_step *b = calloc(s->n + 1, sizeof(*b));
	int ret = -ENOMEM;

	if (!raw || !keep || !a || !b)
		goto out;
	for (size_t i = 0; i < s->n; i++) {
		raw[i] = s->pts[i].p->mean;
		keep[i] = !state || !state[i];
	}
	if (steps_of(raw, keep, s->n, o, a) || (adj && steps_of(adj, keep, s->n, o, b)))
		goto out;
	s->nchange = s->nstate = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (adj)
			a[i].change_point = a[i].change_point && b[i].change_point;
		s->nchange += a[i].change_point != 0;
		s->nstate += state && state[i];
	}
	free(s->steps);
	s->steps = a;
	a = NULL;
	free(s->state);
	s->state = state;
	ret = 0;
out:
	free(raw);
	free(keep);
	free(a);
	free(b);
	return ret;
}

void series_release(struct series_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->s[i].pts);
		free(set->s[i].steps);
		free(set->s[i].state);
	}
	free(set->s);
	free(set->slot);
	free(set->points);
	memset(set, 0, sizeof(*set));
}
