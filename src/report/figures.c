// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * figures.c - what each plot of a report shows, written for gnuplot.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmp-plot.h"
#include "figures.h"
#include "textplot.h"

#define BASE_COLOR  "#4477aa"
#define OTHER_COLOR "#cc6677"
#define STEP_COLOR  "#cc3311"

static void common(struct gnuplot *g)
{
	fprintf(g->f, "unset key\n"
		      "set border 3 lc rgb '#555555'\n"
		      "set tics nomirror\n"
		      "set grid ytics lc rgb '#e4e4e4' lt 1\n"
		      "set ylabel 'ns per call'\n"
		      "set offsets 0, 0, graph 0.08, graph 0.08\n"
		      /* a cost is never below zero: the axis stops there */
		      "set yrange [0<*:*]\n");
}

/*
 * A string of a run (a label, a path's name, a date) as a word gnuplot may
 * show: only letters, digits and . _ / @ + - : (a longer one cut to its
 * last 27 behind a ~), so that nothing a run says can end the quoted
 * string or reach the script; anything else, or nothing, gives @fallback.
 */
static const char *gp_word(char *buf, size_t len, const char *s, const char *fallback)
{
	size_t n = s ? strlen(s) : 0;

	if (!n ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/@+-:") != n)
		return fallback;
	/* a longer name keeps its end, where the paths differ: ~lock_gettime.monotonic/vdso */
	if (n > 28 && len > 28) {
		snprintf(buf, len, "~%s", s + n - 27);
		return buf;
	}
	if (n >= len)
		return fallback;
	memcpy(buf, s, n + 1);
	return buf;
}

/*
 * One side's observations at @x, spread over +-0.15 so that none hides
 * another, and their five numbers in @q ("x least q1 median q3 greatest").
 */
static void side_data(struct gnuplot *g, const char *name, const char *q,
		      const struct rec_result *r, double x)
{
	const double *v;
	int batches;
	size_t n = cmp_observations(r, &v, &batches);
	double *xs = calloc(n + 1, sizeof(*xs)), five[5];

	fprintf(g->f, "%s << EOD\n", q);
	if (!tp_five(v, n, five))
		fprintf(g->f, "%g %.17g %.17g %.17g %.17g %.17g\n", x, five[0], five[1], five[2],
			five[3], five[4]);
	fprintf(g->f, "EOD\n");
	if (!xs) {
		gp_data(g, name, NULL, v, 0);
		return;
	}
	for (size_t i = 0; i < n; i++)
		xs[i] = x + (n > 1 ? 0.3 * ((double)i / (double)(n - 1) - 0.5) : 0);
	gp_data(g, name, xs, v, n);
	free(xs);
}

void fig_compare(struct gnuplot *g, const struct cmp_row *r, const char *label_a,
		 const char *label_b)
{
	char la[32], lb[32];

	gp_plot(g, FIG_CMP_W, FIG_CMP_H);
	common(g);
	fprintf(g->f,
		"set xrange [0.4:2.8]\n"
		"set xtics ('%s' 1, '%s' 2) scale 0\n",
		gp_word(la, sizeof(la), label_a, "base"),
		gp_word(lb, sizeof(lb), label_b, "other"));
	fprintf(g->f, "set style fill solid 0.25 border\n"
		      "set boxwidth 0.5\n"
		      "set bars 0.5\n");
	side_data(g, "$a", "$qa", r->a, 1);
	side_data(g, "$b", "$qb", r->b, 2);
	/* each side's mean and its 95% CI, beside its box */
	fprintf(g->f, "$m << EOD\n");
	fprintf(g->f, "1.42 %.17g %.17g %.17g\n", r->a->stats.mean,
		r->a->stats.mean * (1 - r->a->stats.ci95_rel),
		r->a->stats.mean * (1 + r->a->stats.ci95_rel));
	fprintf(g->f, "2.42 %.17g %.17g %.17g\n", r->b->stats.mean,
		r->b->stats.mean * (1 - r->b->stats.ci95_rel),
		r->b->stats.mean * (1 + r->b->stats.ci95_rel));
	fprintf(g->f, "EOD\n");
	fprintf(g->f,
		"plot $qa using 1:3:2:6:5 with candlesticks whiskerbars 0.5 lc rgb '" BASE_COLOR
		"', \\\n"
		"     $qa using 1:4:4:4:4 with candlesticks lw 2 lc rgb '" BASE_COLOR "', \\\n"
		"     $qb using 1:3:2:6:5 with candlesticks whiskerbars 0.5 lc rgb '" OTHER_COLOR
		"', \\\n"
		"     $qb using 1:4:4:4:4 with candlesticks lw 2 lc rgb '" OTHER_COLOR "', \\\n"
		"     $a using 1:2 with points pt 7 ps 0.5 lc rgb '#223355', \\\n"
		"     $b using 1:2 with points pt 7 ps 0.5 lc rgb '#662233', \\\n"
		"     $m using 1:2:3:4 with yerrorbars pt 13 ps 0.9 lc rgb '#333333'\n");
}

void fig_series(struct gnuplot *g, const struct series *s)
{
	gp_plot(g, FIG_HIST_W, FIG_HIST_H);
	common(g);
	fprintf(g->f,
		"set xlabel 'runs, oldest first (the day each began, UTC)'\n"
		"set xrange [0.5:%zu.5]\n"
		"set bars 0\n",
		s->n);
	/* the runs' days (MM-DD) under a dozen of them at most */
	fprintf(g->f, "set xtics (");
	for (size_t i = 0, every = s->n / 12 + 1, k = 0; i < s->n; i += every, k++) {
		char day[32], word[32];

		snprintf(day, sizeof(day), "%.5s",
			 strlen(s->pts[i].p->started) >= 10 ? s->pts[i].p->started + 5 : "");
		fprintf(g->f, "%s'%s' %zu", k ? ", " : "", gp_word(word, sizeof(word), day, "?"),
			i + 1);
	}
	fprintf(g->f, ") scale 0.5\n");
	for (size_t i = 0; i < s->n; i++) {
		if (!s->steps[i].change_point)
			continue;
		fprintf(g->f,
			"set arrow from %zu.5, graph 0 to %zu.5, graph 1 nohead dt 2 lw 1.5 lc "
			"rgb '" STEP_COLOR "'\n"
			"set label '%+.2f%%' at %zu.5, graph 0.96 left offset 0.4, 0 tc rgb "
			"'" STEP_COLOR "'\n",
			i, i, 100 * s->steps[i].step, i);
	}
	fprintf(g->f, "$s << EOD\n");
	for (size_t i = 0; i < s->n; i++) {
		const struct rec_point *st = s->pts[i].p;

		if (!isfinite(st->mean))
			continue;
		fprintf(g->f, "%zu %.17g %.17g %.17g\n", i + 1, st->mean,
			st->mean * (1 - st->ci95_rel), st->mean * (1 + st->ci95_rel));
	}
	fprintf(g->f, "EOD\n");
	fprintf(g->f,
		"plot $s using 1:2 with lines lc rgb '#a8bcd8', \\\n"
		"     $s using 1:2:3:4 with yerrorbars pt 7 ps 0.5 lc rgb '" BASE_COLOR "'\n");
}

void fig_forest(struct gnuplot *g, const struct cmp_row *rows, size_t n)
{
	size_t k = 0, shown = 0;

	for (size_t i = 0; i < n; i++)
		shown += rows[i].ok;
	gp_plot(g, FIG_FOREST_W, fig_forest_height(shown));
	fprintf(g->f, "unset key\n"
		      "set border 1 lc rgb '#555555'\n"
		      "set tics nomirror\n"
		      "set grid xtics lc rgb '#e4e4e4' lt 1\n"
		      "set xlabel 'change, %% (95%% CI)'\n"
		      "set offsets graph 0.05, graph 0.05, 0.5, 0.5\n"
		      "set bars 0.5\n");
	fprintf(g->f, "set yrange [%zu.5:0.5]\nset ytics (", shown ? shown : 1);
	for (size_t i = 0; i < n; i++) {
		char name[320], word[32];

		if (!rows[i].ok)
			continue;
		snprintf(name, sizeof(name), "%s/%s", rows[i].b->name, rows[i].b->path);
		fprintf(g->f, "%s'%s' %zu", k ? ", " : "", gp_word(word, sizeof(word), name, "?"),
			k + 1);
		k++;
	}
	fprintf(g->f, ") scale 0\n"
		      "set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb '#777777' dt 2\n");
	fprintf(g->f, "$f << EOD\n");
	k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].ok)
			continue;
		k++;
		if (!isfinite(rows[i].c.change))
			continue;
		fprintf(g->f, "%.17g %zu %.17g %.17g %d\n", 100 * rows[i].c.change, k,
			100 * rows[i].c.ci_lo, 100 * rows[i].c.ci_hi,
			!cmp_claims(&rows[i])		   ? 0
			: rows[i].verdict == UKB_REGRESSED ? 2
			: rows[i].verdict == UKB_IMPROVED  ? 1
							   : 0);
	}
	fprintf(g->f, "EOD\n");
	fprintf(g->f, "plot $f using 1:2:3:4:($5 == 2 ? 0xcc3311 : $5 == 1 ? 0x228833 : 0x555555) "
		      "with xerrorbars pt 7 ps 0.6 lc rgb variable\n");
}

int fig_forest_height(size_t paths)
{
	return 70 + 18 * (int)(paths ? paths : 1);
}

/* The loop of a lab.align row ("store", "add@32"), or NULL for another row. */
static const char *sweep_path(const struct cmp_row *r)
{
	return r->ok && !strcmp(r->a->benchmark, "lab.align") ? r->a->path : NULL;
}

size_t fig_sweep_paths(const struct cmp_row *rows, size_t n, const char **paths, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const char *p = sweep_path(&rows[i]);
		size_t j = 0;

		if (!p)
			continue;
		while (j < k && strcmp(paths[j], p))
			j++;
		if (j == k && k < max)
			paths[k++] = p;
	}
	return k;
}

void fig_sweep(struct gnuplot *g, const struct cmp_row *rows, size_t n, const char *path,
	       const char *label_a, const char *label_b)
{
	char la[32], lb[32];

	gp_plot(g, FIG_HIST_W, FIG_HIST_H);
	common(g);
	fprintf(g->f, "set key below horizontal\n"
		      "set ylabel 'ns per iteration'\n"
		      "set xlabel 'offset of the loop from a 64-byte line, bytes'\n"
		      "set xrange [-1:128]\n"
		      "set xtics 0, 16, 128\n"
		      "set mxtics 4\n"
		      "set grid xtics lc rgb '#e4e4e4' lt 1\n"
		      "set bars 0.3\n");
	for (int side = 0; side < 2; side++) {
		fprintf(g->f, "%s << EOD\n", side ? "$b" : "$a");
		for (size_t i = 0; i < n; i++) {
			const char *p = sweep_path(&rows[i]);
			const struct rec_result *x = side ? rows[i].b : rows[i].a;
			char *end;
			long off;

			if (!p || strcmp(p, path))
				continue;
			off = strtol(x->variant, &end, 10);
			if (*end || !isfinite(x->stats.mean))
				continue;
			fprintf(g->f, "%ld %.17g %.17g %.17g\n", off, x->stats.mean,
				x->stats.mean - x->stats.ci95, x->stats.mean + x->stats.ci95);
		}
		fprintf(g->f, "EOD\n");
	}
	fprintf(
	    g->f,
	    "plot $a using 1:2 with lines lc rgb '" BASE_COLOR "' title '%s', \\\n"
	    "     $a using 1:2:3:4 with yerrorbars pt 7 ps 0.3 lc rgb '" BASE_COLOR
	    "' notitle, \\\n"
	    "     $b using 1:2 with lines lc rgb '" OTHER_COLOR "' title '%s', \\\n"
	    "     $b using 1:2:3:4 with yerrorbars pt 7 ps 0.3 lc rgb '" OTHER_COLOR "' notitle\n",
	    gp_word(la, sizeof(la), label_a, "base"), gp_word(lb, sizeof(lb), label_b, "other"));
}
