/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * series-load.h - each benchmark path over the stored runs (series.h), read
 * from the store and its change points found. What `history` and
 * `report --history` read.
 */
#ifndef UKB_STORE_SERIES_LOAD_H
#define UKB_STORE_SERIES_LOAD_H

#include <stddef.h>

#include "record.h"
#include "series.h"
#include "store.h"

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
 * that were interrupted, and paths that failed, are left out). Their change
 * points are found by series_restep(), which knows the machine's states
 * (floor_series()). 0 (set->n may be 0), or -1 with @err. Either way the
 * caller releases @set with series_release().
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
