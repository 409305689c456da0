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

/*
 * One measured result of a stored run: what a history plots. Its texts are
 * never NULL ("" where unknown) and live in the block of the points
 * (rec_points_take()): one free() releases them all.
 */
struct rec_point {
	int64_t run;
	const char *uuid; /* the run's */
	size_t seq;	  /* the result's place in its run */
	const char *label, *host, *started, *kernel_release;
	const char *name, *benchmark, *path;
	const char *params; /* what makes it comparable: a series is one of them */
	double mean, ci95_rel;
};

/*
 * Points as a store reads them: a history of a fleet is a hundred thousand
 * of them, whose texts are a tenth of fixed fields' bytes.
 */
struct rec_points {
	struct rec_point *pts; /* texts as offsets into txt until taken */
	size_t n, cap;
	char *txt;
	size_t ntxt, captxt;
};

/* The texts of a point, in the order of struct rec_point's fields. */
enum rec_point_text {
	RP_UUID,
	RP_LABEL,
	RP_HOST,
	RP_STARTED,
	RP_KERNEL,
	RP_NAME,
	RP_BENCHMARK,
	RP_PATH,
	RP_PARAMS,
	RP_NTEXT
};

/* Appends a point with @text[RP_NTEXT] (NULL: ""); -1 when out of memory. */
int rec_points_add(struct rec_points *b, int64_t run, size_t seq, double mean, double ci95_rel,
		   const char *const text[RP_NTEXT]);
/* The points in one block (free() it), or NULL when out of memory; @b is emptied. */
struct rec_point *rec_points_take(struct rec_points *b, size_t *n);
void rec_points_free(struct rec_points *b);

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
