/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * notes.h - benchmarks that explain their own figures: a few lines of what
 * a run's figures of them show (the lab's: what this CPU does with a return
 * stack, an alignment, a call, a division). The reader of a run hands its
 * figures through find(); the output prints the lines without knowing any
 * benchmark by name.
 */
#ifndef UKB_BENCH_NOTES_H
#define UKB_BENCH_NOTES_H

#include <stddef.h>

/* A path's figure, as a run holds it. */
struct ukb_figure {
	double mean;	    /* ns a call */
	double ci95;	    /* half-width of its 95% CI, ns; NAN: not known */
	const char *params; /* its parameters, "depth=8", or "" */
};

struct ukb_notes {
	/*
	 * The run's measured figure of @bench, variant @variant (NULL: any),
	 * path @path followed by the ABI's suffix @sfx; 0 when it has none.
	 */
	int (*find)(const struct ukb_notes *n, const char *bench, const char *variant,
		    const char *path, struct ukb_figure *f);
	const void *run; /* the reader's, for find() */
	const char *sfx; /* "" for the native paths, "@32" for the 32-bit ABI's */
	char *buf;	 /* the lines, each ended by a newline */
	size_t len, used, lines;
};

/* One line of notes. */
void ukb_note(struct ukb_notes *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What every benchmark that explains its figures says of @n's run, for @n->sfx. */
void ukb_explain(struct ukb_notes *n);

/* The lab's explainer (lab-notes.c), one of ukb_explain()'s. */
void ukb_lab_explain(struct ukb_notes *n);

#endif
