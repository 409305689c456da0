// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * series-load.c - stored runs gathered into one series per host and path.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series-load.h"

static struct series *find_series(struct series_set *set, const struct rec_point *r)
{
	struct series *s;

	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->s[i].host, r->host) && !strcmp(set->s[i].name, r->name) &&
		    !strcmp(set->s[i].path, r->path) && !strcmp(set->s[i].params, r->params))
			return &set->s[i];
	s = realloc(set->s, (set->n + 1) * sizeof(*s));
	if (!s)
		return NULL;
	set->s = s;
	s = &s[set->n++];
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
	struct series_point *p;

	if (!s)
		return -1;
	p = realloc(s->pts, (s->n + 1) * sizeof(*p));
	if (!p)
		return -1;
	s->pts = p;
	s->pts[s->n++].p = pt;
	return 0;
}

static int find_steps(struct series *s, const struct series_opts *o)
{
	struct ukb_point *pts = calloc(s->n + 1, sizeof(*pts));

	s->steps = calloc(s->n + 1, sizeof(*s->steps));
	if (!pts || !s->steps) {
		free(pts);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++)
		pts[i].mean = s->pts[i].p->mean;
	if (ukb_changepoints(pts, s->n, o->window, o->alpha, o->threshold, s->steps)) {
		free(pts);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++)
		s->nchange += s->steps[i].change_point != 0;
	free(pts);
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
	for (size_t i = 0; i < set->n; i++)
		if (find_steps(&set->s[i], o))
			goto nomem;
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
	free(set->points);
	memset(set, 0, sizeof(*set));
}
