/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run-notes.h - the notes under a run's table: how many processes each
 * figure is the mean of, what --quick gave up, and what ±CI95 holds of
 * the variation between runs. Folded to the table's width.
 */
#ifndef UKB_OUTPUT_RUN_NOTES_H
#define UKB_OUTPUT_RUN_NOTES_H

#include <stddef.h>
#include <stdio.h>

#include "record.h"

/* What the notes say of how the run was made. */
struct run_notes {
	unsigned procs;		    /* --processes; 0: chosen per path */
	int quick;		    /* --quick */
	double budget_s, precision; /* a path's budget and the precision target */
	double default_budget_s;    /* what a default run gives a path */
	int store_read;		    /* the store was read for the floors */
	/* paths whose floor the host's runs taught, and those it was assumed for */
	size_t from_learned, from_prior;
	double prior; /* the floor assumed where none was taught */
	/* paths whose interval held the machine's state against the host's usual speed */
	size_t at_speed;
	/* paths whose interval held how far their reference moved from the host's first runs */
	size_t early;
	/* the note of a run made in another state of the machine; NULL or "": none */
	const char *state;
};

/* A note folded to the width of @out (80 with @wide). */
void run_note(FILE *out, int wide, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Every note under the table of @run, as @n says it was made. */
void run_notes_print(FILE *out, int wide, const struct rec_run *run, const struct run_notes *n);

#endif
