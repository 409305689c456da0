// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * series.c - stored runs gathered into one series per host and path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"

static struct series *find_series(struct series_set *set, const struct store_point *r)
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

static int add_point(struct series_set *set, const struct store_point *pt)
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

void series_release(struct series_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->s[i].pts);
		free(set->s[i].steps);
	}
	free(set->s);
	free(set->points);
	memset(set, 0, sizeof(*set));
}
