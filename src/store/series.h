/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * series.h - each benchmark path over the stored runs, one series per host,
 * oldest first, with its change points (changepoint.h). What `history` and
 * `report --history` read.
 */
#ifndef UKB_STORE_SERIES_H
#define UKB_STORE_SERIES_H

#include <stddef.h>

#include "changepoint.h"
#include "record.h"
#include "store.h"

/* A point is a stored run's result: its run, its mean and CI (store.h). */
struct series_point {
	const struct store_point *p;
};

struct series {
	/* one host, one path, one set of settings: a parameter or a command
	 * that differs makes another series */
	char host[128], name[128], path[32], params[160];
	struct series_point *pts;
	struct ukb_step *steps; /* one per point */
	/*
	 * per point, 1 where its run was made in another state of the machine
	 * (series_restep()); NULL: not known
	 */
	int *state;
	size_t n, nchange, nstate; /* points; change points and states among them */
};

struct series_set {
	struct store_point *points; /* every point read, oldest run first */
	size_t npoints;
	size_t nruns; /* the runs they come from */
	struct series *s;
	size_t n;
};

struct series_opts {
	const struct store_filter *filter;
	char **pats; /* NAME[/PATH] patterns; none: every path */
	int npats;
	size_t window;	  /* runs on each side of a boundary */
	double alpha;	  /* of the change point test */
	double threshold; /* smallest step, as a fraction */
};

/*
 * Reads the measured results of the stored runs @o selects (store_points:
 * the figures only, no samples) and gathers them per host and path (runs
 * that were interrupted, and paths that failed, are left out). 0 (set->n may be 0), or -1 with
 * @err. Either way the caller releases @set with series_release().
 */
int series_load(struct store *st, const struct series_opts *o, struct series_set *set, char *err,
		size_t errlen);

void series_release(struct series_set *set);

/*
 * The change points of @s found again: the runs @state marks (made in
 * another state of the machine) left out, and a step kept only where the
 * series at one speed of the machine, @adj (NULL: as measured), has it
 * too, so that no change point is only the machine's state. @state and
 * @adj hold a value per point; @state, allocated, is kept by @s on
 * success. 0, or -ENOMEM (@s as it was, @state the caller's).
 */
int series_restep(struct series *s, int *state, const double *adj, const struct series_opts *o);

#endif
