// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * textplot.c - box plots and sparklines in UTF-8 for the terminal.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "textplot.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The column of @x on [lo, hi] over @width columns. */
static int col_of(double x, double lo, double hi, int width)
{
	double f = hi > lo ? (x - lo) / (hi - lo) : 0.5;
	long c = lround(f * (width - 1));

	return c < 0 ? 0 : c >= width ? width - 1 : (int)c;
}

/* Appends @s to @buf at *@at; -1 when it does not fit. */
static int put(char *buf, size_t len, size_t *at, const char *s)
{
	size_t k = strlen(s);

	if (*at + k + 1 > len)
		return -1;
	memcpy(buf + *at, s, k + 1);
	*at += k;
	return 0;
}

int tp_five(const double *v, size_t n, double q[5])
{
	double *s;

	if (!n)
		return -1;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	for (int k = 0; k < 5; k++)
		q[k] = ukb_quantile_sorted(s, n, k / 4.0);
	free(s);
	return 0;
}

int tp_box(char *buf, size_t len, const double *v, size_t n, double lo, double hi, int width)
{
	double q[5];
	int c[5] = { 0 };
	size_t at = 0;

	if (!n || width < 3 || !len || !(hi >= lo) || !isfinite(lo) || !isfinite(hi) ||
	    tp_five(v, n, q))
		return -1;
	for (int k = 0; k < 5; k++)
		c[k] = col_of(q[k], lo, hi, width);
	buf[0] = 0;
	for (int x = 0; x < width; x++) {
		const char *g = " ";

		if (x == c[2])
			g = "┃";
		else if (x >= c[1] && x <= c[3])
			g = "▓";
		else if (x == c[0])
			g = "├";
		else if (x == c[4])
			g = "┤";
		else if (x > c[0] && x < c[4])
			g = "─";
		if (put(buf, len, &at, g))
			return -1;
	}
	/* no trailing blanks */
	while (at && buf[at - 1] == ' ')
		buf[--at] = 0;
	return 0;
}

int tp_column(size_t i, size_t n, int width)
{
	if (width <= 0 || !n)
		return 0;
	if (n <= (size_t)width)
		return (int)i;
	return (int)(i * (size_t)width / n);
}

int tp_spark(char *buf, size_t len, const double *v, size_t n, int width)
{
	static const char *const level[8] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	int cols = n < (size_t)width ? (int)n : width;
	double *m, lo = INFINITY, hi = -INFINITY;
	size_t at = 0;

	if (!n || width < 1 || !len)
		return -1;
	m = calloc((size_t)cols, sizeof(*m));
	if (!m)
		return -1;
	/* each column the mean of the points that fall in it */
	for (int x = 0; x < cols; x++) {
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (tp_column(i, n, width) == x) {
				m[x] += v[i];
				k++;
			}
		m[x] = k ? m[x] / (double)k : NAN;
		if (m[x] < lo)
			lo = m[x];
		if (m[x] > hi)
			hi = m[x];
	}
	buf[0] = 0;
	for (int x = 0; x < cols; x++) {
		long l = hi > lo ? lround((m[x] - lo) / (hi - lo) * 7) : 3;

		if (put(buf, len, &at, isnan(m[x]) ? " " : level[l < 0 ? 0 : l > 7 ? 7 : l])) {
			free(m);
			return -1;
		}
	}
	free(m);
	return cols;
}
