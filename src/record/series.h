/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * series.h - a benchmark path over stored runs: its points, one series per
 * host, oldest first, with its change points (changepoint.h). The store
 * reads them (store_points(), series-load.h); history, report and the
 * plots draw them.
 */
#ifndef UKB_RECORD_SERIES_H
#define UKB_RECORD_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "changepoint.h"

/* One measured result of a stored run: what a history plots. */
struct rec_point {
	int64_t run;
	char uuid[40]; /* the run's */
	size_t seq;    /* the result's place in its run */
	char label[128], host[128], started[32], kernel_release[128];
	char name[128], benchmark[128], path[32];
	char params[160]; /* what makes it comparable: a series is one of them */
	double mean, ci95_rel;
};

/* A point of a series: one of the set's points. */
struct series_point {
	const struct rec_point *p;
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
	size_t cap;		   /* points allocated */
};

struct series_set {
	struct rec_point *points; /* every point read, oldest run first */
	size_t npoints;
	size_t nruns; /* the runs they come from */
	struct series *s;
	size_t n, cap;
	/* the series by their key (host, name, path, params): index + 1, 0 empty */
	size_t *slot, nslot;
};

#endif
