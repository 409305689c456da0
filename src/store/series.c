// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * series.c - stored runs gathered into one series per host and path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"
#include "series.h"

static struct series *find_series(struct series_set *set, const char *host,
				  const struct rec_result *r)
{
	struct series *s;

	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->s[i].host, host) && !strcmp(set->s[i].name, r->name) &&
		    !strcmp(set->s[i].path, r->path))
			return &set->s[i];
	s = realloc(set->s, (set->n + 1) * sizeof(*s));
	if (!s)
		return NULL;
	set->s = s;
	s = &s[set->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->host, sizeof(s->host), "%s", host);
	snprintf(s->name, sizeof(s->name), "%s", r->name);
	snprintf(s->path, sizeof(s->path), "%s", r->path);
	return s;
}

static int wanted(const struct series_opts *o, const struct rec_result *r)
{
	for (int a = 0; a < o->npats; a++)
		if (pattern_matches(o->pats[a], r->name, r->benchmark, r->path))
			return 1;
	return !o->npats;
}

static int add_point(struct series_set *set, const struct store_run *sr, const struct rec_result *r)
{
	struct series *s = find_series(set, sr->host, r);
	struct series_point *p;

	if (!s)
		return -1;
	p = realloc(s->pts, (s->n + 1) * sizeof(*p));
	if (!p)
		return -1;
	s->pts = p;
	s->pts[s->n].run = sr;
	s->pts[s->n++].r = r;
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
		pts[i].mean = s->pts[i].r->stats.mean;
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
	size_t n = 0;

	memset(set, 0, sizeof(*set));
	if (store_list(st, o->filter, &set->list, &n, err, errlen))
		return -1;
	set->runs = calloc(n + 1, sizeof(*set->runs));
	if (!set->runs)
		goto nomem;
	/* oldest first: the list is newest first */
	for (size_t k = 0; k < n; k++) {
		const struct store_run *sr = &set->list[n - 1 - k];
		struct rec_run *run = &set->runs[k];

		if (store_load(st, sr->id, run, err, errlen))
			return -1;
		set->nruns = k + 1;
		if (run->interrupted)
			continue;
		for (size_t i = 0; i < run->nresults; i++) {
			const struct rec_result *r = &run->results[i];

			if (r->status != UKB_OK || !r->nsamples || !wanted(o, r))
				continue;
			if (add_point(set, sr, r))
				goto nomem;
		}
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
	for (size_t k = 0; set->runs && k < set->nruns; k++)
		rec_run_release(&set->runs[k]);
	free(set->runs);
	free(set->list);
	memset(set, 0, sizeof(*set));
}
