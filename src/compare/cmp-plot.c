// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmp-plot.c - a compared path as two box plots on one scale, for the
 * terminal.
 */
#include <math.h>
#include <string.h>

#include "cmp-plot.h"
#include "output.h"
#include "textplot.h"
#include "width.h"

size_t cmp_observations(const struct rec_result *r, const double **v, int *batches)
{
	*batches = 0;
	*v = NULL;
	if (!r)
		return 0;
	if (r->nproc >= 2 && r->proc_means) {
		*v = r->proc_means;
		return r->nproc;
	}
	*batches = 1;
	*v = r->samples;
	return r->samples ? r->nsamples : 0;
}

static void range(const double *v, size_t n, double *lo, double *hi)
{
	for (size_t i = 0; i < n; i++) {
		*lo = v[i] < *lo ? v[i] : *lo;
		*hi = v[i] > *hi ? v[i] : *hi;
	}
}

void cmp_plot_row(FILE *f, const struct cmp_row *r, int cols)
{
	const struct rec_result *x = r->b ? r->b : r->a, *side[2] = { r->a, r->b };
	static const char *const role[2] = { "base", "other" };
	const double *v[2];
	size_t n[2];
	int batches[2], width;
	double lo = INFINITY, hi = -INFINITY;
	char head[512], a[32], b[32];

	if (!x)
		return;
	if (!cols)
		cols = 80;
	if (!r->ok || !r->a || !r->b) {
		snprintf(head, sizeof(head), "%s/%s: %s", x->name, x->path, cmp_why_not(r));
		put_folded(f, head, 0, 2, cols);
		return;
	}
	snprintf(head, sizeof(head), "%s/%s: %+.2f%% [%+.2f%%, %+.2f%%], %s", x->name, x->path,
		 100 * r->c.change, 100 * r->c.ci_lo, 100 * r->c.ci_hi, cmp_verdict_name(r));
	put_folded(f, head, 0, 2, cols);
	for (int s = 0; s < 2; s++) {
		n[s] = cmp_observations(side[s], &v[s], &batches[s]);
		range(v[s], n[s], &lo, &hi);
	}
	/* "  other  12345.67  " (19 columns), the plot, "  (batches)" or " ns" */
	width = cols - 32 > TP_MAX_WIDTH ? TP_MAX_WIDTH : cols - 32;
	for (int s = 0; s < 2; s++) {
		char line[4 * TP_MAX_WIDTH + 1], mean[32];

		format_ns(mean, sizeof(mean), s ? r->c.mean_b : r->c.mean_a);
		if (!n[s] || tp_box(line, sizeof(line), v[s], n[s], lo, hi, width))
			snprintf(line, sizeof(line), "(nothing to draw)");
		fprintf(f, "  %-5s %9s  %s%s\n", role[s], mean, line,
			batches[s] ? "  (batches)" : "");
	}
	format_ns(a, sizeof(a), lo);
	format_ns(b, sizeof(b), hi);
	{
		/* the scale's ends under the plot's ends */
		int gap = width - (int)strlen(a) - (int)strlen(b);

		fprintf(f, "%19s%s%*s%s ns\n", "", a, gap > 1 ? gap : 1, "", b);
	}
}
