// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * series-plot.c - a series' sparkline and its change point marks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "series-plot.h"

int series_spark(const struct series *s, int width, struct series_spark *out)
{
	double *v = calloc(s->n + 1, sizeof(*v));
	int used;

	memset(out, 0, sizeof(*out));
	if (!v)
		return -1;
	if (width > TP_MAX_WIDTH)
		width = TP_MAX_WIDTH;
	out->lo = INFINITY;
	out->hi = -INFINITY;
	for (size_t i = 0; i < s->n; i++) {
		v[i] = s->pts[i].p->mean;
		out->lo = v[i] < out->lo ? v[i] : out->lo;
		out->hi = v[i] > out->hi ? v[i] : out->hi;
	}
	used = tp_spark(out->line, sizeof(out->line), v, s->n, width);
	free(v);
	if (used < 0)
		return -1;
	out->cols = used;
	memset(out->marks, ' ', (size_t)used);
	for (size_t i = 0; i < s->n; i++)
		if (s->steps[i].change_point)
			out->marks[tp_column(i, s->n, width)] = '^';
	while (used && out->marks[used - 1] == ' ')
		used--;
	out->marks[used] = 0;
	return 0;
}
