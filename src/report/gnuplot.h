/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gnuplot.h - plots drawn by gnuplot: a script of any number of plots is
 * written, gnuplot runs it once (its SVG terminal, no init file), and each
 * plot comes back as an SVG document.
 *
 * No temporary file: the script, gnuplot's output and its messages are
 * anonymous memory files (memfd) that go away with the process. Nothing
 * from a run (labels, host names) is written into a script: plots carry
 * numbers and ukbench's own words, and the page around them names things.
 */
#ifndef UKB_REPORT_GNUPLOT_H
#define UKB_REPORT_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>

struct gnuplot {
	FILE *f;      /* the script: write a plot's settings and data here */
	char *script; /* its text, owned by the stream until gp_run() */
	size_t len;
	size_t nplots;
	char *out; /* what gnuplot wrote: the documents, one after another */
	size_t outlen;
	size_t *start, *size; /* each plot's document in out */
};

/* Starts a script; 0 or -ENOMEM. */
int gp_open(struct gnuplot *g);

/*
 * Starts plot number g->nplots (counted): an SVG of @width by @height
 * pixels, every setting of the plot before it reset.
 */
void gp_plot(struct gnuplot *g, int width, int height);

/*
 * Writes @v[0..n) as a data block named @name ("$a"), one value a line,
 * with @x (a column before each value) unless NULL.
 */
void gp_data(struct gnuplot *g, const char *name, const double *x, const double *v, size_t n);

/*
 * Runs @program (NULL: "gnuplot", looked up in PATH) on the script. 0 when
 * it made every plot; -1 with @err saying why: not installed (with the
 * package to install), or gnuplot's own message.
 */
int gp_run(struct gnuplot *g, const char *program, char *err, size_t errlen);

/* Plot @i's SVG document (after gp_run()), or NULL. */
const char *gp_svg(const struct gnuplot *g, size_t i, size_t *len);

void gp_close(struct gnuplot *g);

#endif
