/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * series-plot.h - a stored series (series.h) as a sparkline for the
 * terminal and for markdown: its run means, and under them a ^ at each
 * change point.
 */
#ifndef UKB_OUTPUT_SERIES_PLOT_H
#define UKB_OUTPUT_SERIES_PLOT_H

#include <stddef.h>

#include "series.h"
#include "textplot.h"

struct series_spark {
	char line[4 * TP_MAX_WIDTH + 1]; /* the sparkline, UTF-8 */
	char marks[TP_MAX_WIDTH + 1];	 /* ^ under each change point; "" when none */
	int cols;			 /* the columns the line takes */
	double lo, hi;			 /* the least and greatest run mean */
};

/* @s in at most @width (<= TP_MAX_WIDTH) columns; 0, or -1 on ENOMEM. */
int series_spark(const struct series *s, int width, struct series_spark *out);

#endif
