/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - `ukbench report`: a comparison or a history as one HTML page
 * that stands alone (every plot inline as a data: URL, the style in the
 * page, no script, a Content-Security-Policy that lets nothing load), or as
 * markdown for a mail or a review.
 *
 * Every string from a run goes through html.h. The plots are gnuplot's
 * (figures.h); without gnuplot the page has its tables and says what the
 * plots need.
 */
#ifndef UKB_REPORT_REPORT_H
#define UKB_REPORT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "comparison.h"
#include "series.h"

struct report_cmp {
	const struct rec_run *a, *b;
	const char *desc_a, *desc_b; /* as named: "#12 'before'", "b.json" */
	const struct cmp_row *rows;  /* the paths shown */
	size_t n;
	const struct cmp_opts *o;
	const char *floor_from; /* where the floor came from, for the method */
};

struct report_hist {
	const struct series_set *set;
	char **pats; /* as given */
	int npats;
	const char *label, *host; /* the filters, or NULL */
	size_t window;
	double alpha, threshold;
};

struct report_plots {
	const char *gnuplot; /* the program; NULL: gnuplot from PATH */
	int off;	     /* --no-plots */
	char why[512];	     /* out: why there are no plots, "" when there are */
};

/*
 * The page of @ncmp comparisons (one base, one or more others), or of a
 * history. 0, or -1 on a write error.
 */
int report_html_compare(FILE *f, const struct report_cmp *r, size_t ncmp, struct report_plots *p);
int report_html_history(FILE *f, const struct report_hist *h, struct report_plots *p);

/* The same as markdown, with text plots. 0, or -1 on a write error. */
int report_md_compare(FILE *f, const struct report_cmp *r, size_t ncmp);
int report_md_history(FILE *f, const struct report_hist *h);

#endif
