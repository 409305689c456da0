// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-html.c - the report as one HTML page that needs nothing but
 * itself.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmp-formats.h"
#include "cmp-plot.h"
#include "envdiff.h"
#include "figures.h"
#include "html.h"
#include "output.h"
#include "report.h"
#include "version.h"

static const char style[] =
    "body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:78em;"
    "padding:0 1em;color:#1d1d1d;background:#fff}"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.8em;border-bottom:1px solid #ccc}"
    "h3{font-size:1em;margin:.2em 0}"
    "table{border-collapse:collapse;margin:.6em 0}"
    "th,td{border:1px solid #d4d4d4;padding:.2em .5em;text-align:left;vertical-align:top}"
    "th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "td.v{word-break:break-all;max-width:40em}"
    "tr.differs td{background:#fff1b8}tr.differs td:first-child{font-weight:bold}"
    "tr.expected td{color:#666}"
    ".regressed{color:#b00020;font-weight:bold}.improved{color:#00701a;font-weight:bold}"
    ".meta,.note{color:#555}.noplot{background:#fff1b8;padding:.5em}"
    ".paths{display:grid;grid-template-columns:repeat(auto-fill,minmax(370px,1fr));gap:1em}"
    "figure{margin:0;border:1px solid #ddd;padding:.5em}"
    "figure.series{margin:.6em 0}"
    "img.plot{display:block;max-width:100%;height:auto}"
    "figcaption{font-size:.9em}code{font-size:.95em}";

/* The start of the page, to <body>. */
static void head(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "img-src data:; style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"ukbench ",
	      f);
	fputs(ukb_version(), f);
	fputs("\">\n<title>", f);
	html_text(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
}

static void made(FILE *f)
{
	char when[32];
	time_t now = time(NULL);
	struct tm tm;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	fprintf(f, "<p class=\"meta\">made by ukbench %s at %s</p>\n", ukb_version(), when);
}

static int tail(FILE *f)
{
	fputs("</body>\n</html>\n", f);
	return ferror(f) ? -1 : 0;
}

/* A plot as an image: its SVG inline, base64 in a data: URL. */
static void image(FILE *f, const struct gnuplot *g, size_t i, int w, int h, const char *alt)
{
	size_t len;
	const char *svg = gp_svg(g, i, &len);

	if (!svg)
		return;
	fprintf(f, "<img class=\"plot\" width=\"%d\" height=\"%d\" alt=\"", w, h);
	html_text(f, alt);
	fputs("\" src=\"data:image/svg+xml;base64,", f);
	html_base64(f, svg, len);
	fputs("\">\n", f);
}

static void cell(FILE *f, const char *cls, const char *text)
{
	if (cls)
		fprintf(f, "<td class=\"%s\">", cls);
	else
		fputs("<td>", f);
	html_text(f, text);
	fputs("</td>", f);
}

static void cell_ns(FILE *f, double ns)
{
	char buf[32];

	format_ns(buf, sizeof(buf), ns);
	cell(f, "n", buf);
}

static void cell_pct(FILE *f, double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%+.2f%%", 100 * v);
	cell(f, "n", buf);
}

/* "no change" -> "no-change": a class from a verdict. */
static const char *verdict_class(const struct cmp_row *r)
{
	if (!cmp_claims(r))
		return "unreplicated";
	return r->verdict == UKB_REGRESSED  ? "regressed"
	       : r->verdict == UKB_IMPROVED ? "improved"
					    : "plain";
}

static void sides(FILE *f, const struct report_cmp *r)
{
	const struct rec_run *run[2] = { r->a, r->b };
	const char *desc[2] = { r->desc_a, r->desc_b };
	static const char *const field[] = { "run",    "label",	      "host", "started (UTC)",
					     "kernel", "replication", "from" };

	fputs("<table class=\"sides\">\n<tr><th></th><th>base</th><th>other</th></tr>\n", f);
	for (size_t k = 0; k < sizeof(field) / sizeof(field[0]); k++) {
		fprintf(f, "<tr><th>%s</th>", field[k]);
		for (int s = 0; s < 2; s++) {
			char buf[64];

			switch (k) {
			case 0:
				cell(f, NULL, desc[s]);
				break;
			case 1:
				cell(f, NULL, run[s]->label[0] ? run[s]->label : "-");
				break;
			case 2:
				cell(f, NULL, run[s]->host);
				break;
			case 3:
				cell(f, NULL, run[s]->started);
				break;
			case 4:
				cell(f, NULL, run[s]->kernel_release);
				break;
			case 5:
				cmp_replication(run[s], buf, sizeof(buf));
				cell(f, NULL, buf);
				break;
			default:
				cell(f, NULL, run[s]->source[0] ? run[s]->source : "-");
			}
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void path_name(char *buf, size_t len, const struct cmp_row *r)
{
	const struct rec_result *x = r->a ? r->a : r->b;

	snprintf(buf, len, "%s/%s", x ? x->name : "?", x ? x->path : "?");
}

static void summary(FILE *f, const struct report_cmp *r, size_t c)
{
	char geo[256];

	fputs("<table class=\"summary\">\n<tr><th>benchmark/path</th><th>base ns</th>"
	      "<th>other ns</th><th>change</th><th>95% CI</th><th>MDE</th><th>p</th>"
	      "<th>verdict</th></tr>\n",
	      f);
	for (size_t i = 0; i < r->n; i++) {
		const struct cmp_row *row = &r->rows[i];
		char name[200], ci[80];

		path_name(name, sizeof(name), row);
		fprintf(f, "<tr><td><a href=\"#c%zu-p%zu\">", c + 1, i + 1);
		html_text(f, name);
		fputs("</a></td>", f);
		if (!row->ok) {
			fputs("<td class=\"n\">-</td><td class=\"n\">-</td><td class=\"n\">-</td>"
			      "<td></td><td></td><td></td>",
			      f);
			cell(f, NULL, cmp_why_not(row));
			fputs("</tr>\n", f);
			continue;
		}
		cell_ns(f, row->c.mean_a);
		cell_ns(f, row->c.mean_b);
		cell_pct(f, row->c.change);
		snprintf(ci, sizeof(ci), "[%+.2f%%, %+.2f%%]", 100 * row->c.ci_lo,
			 100 * row->c.ci_hi);
		cell(f, "n", ci);
		snprintf(ci, sizeof(ci), "%.2f%%", 100 * row->c.mde);
		cell(f, "n", ci);
		snprintf(ci, sizeof(ci), row->c.p_welch < 0.001 ? "<0.001" : "%.3f",
			 row->c.p_welch);
		cell(f, "n", ci);
		cell(f, verdict_class(row), cmp_verdict_name(row));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (cmp_geomean_text(r->rows, r->n, r->o->alpha, geo, sizeof(geo))) {
		fputs("<p>", f);
		html_text(f, geo);
		fputs("</p>\n", f);
	}
}

/* A line of the environment; @mark: with a column that marks a difference. */
static void env_row(FILE *f, const struct env_line *l, int mark)
{
	const char *cls = !l->differs ? "" : l->expected ? "expected" : "differs";

	fprintf(f, "<tr%s%s%s>", *cls ? " class=\"" : "", cls, *cls ? "\"" : "");
	cell(f, NULL, l->key);
	if (mark)
		fprintf(f, "<td>%s</td>", l->differs && !l->expected ? "&#8800;" : "");
	cell(f, "v", l->a ? l->a : "(absent)");
	cell(f, "v", l->b ? l->b : "(absent)");
	fputs("</tr>\n", f);
}

static void environment(FILE *f, const struct report_cmp *r, size_t c)
{
	struct env_line *l;
	size_t n, nd = 0;

	fprintf(f, "<h2 id=\"c%zu-environment\">Environment</h2>\n", c + 1);
	if (envdiff(r->a, r->b, &l, &n)) {
		fputs("<p class=\"noplot\">the environments could not be read: out of "
		      "memory</p>\n",
		      f);
		return;
	}
	for (size_t i = 0; i < n; i++)
		nd += l[i].differs && !l[i].expected;
	fprintf(f, "<p>%zu of %zu lines differ%s</p>\n", nd, n,
		nd ? " (below, and highlighted among every line): a changed kernel, mitigation, "
		     "clocksource or governor explains many a change"
		   : ": the two runs were made on the same set-up");
	if (nd) {
		fputs("<table class=\"env\">\n<tr><th></th><th>base</th><th>other</th></tr>\n", f);
		for (size_t i = 0; i < n; i++)
			if (l[i].differs && !l[i].expected)
				env_row(f, &l[i], 0);
		fputs("</table>\n", f);
	}
	fprintf(f,
		"<details><summary>every line (%zu)</summary>\n<table class=\"env\">\n"
		"<tr><th></th><th></th><th>base</th><th>other</th></tr>\n",
		n);
	for (size_t i = 0; i < n; i++)
		env_row(f, &l[i], 1);
	fputs("</table>\n</details>\n", f);
	envdiff_free(l, n);
}

/* Makes every plot, or says in p->why why not; the plots or NULL. */
static int run_plots(struct gnuplot *g, struct report_plots *p)
{
	if (p->off) {
		snprintf(p->why, sizeof(p->why), "plots were turned off (--no-plots)");
		return -1;
	}
	if (gp_run(g, p->gnuplot, p->why, sizeof(p->why)))
		return -1;
	p->why[0] = 0;
	return 0;
}

static void noplot(FILE *f, const struct report_plots *p)
{
	fputs("<p class=\"noplot\">No plots: ", f);
	html_text(f, p->why);
	fputs(". The plots are drawn by gnuplot (Debian's gnuplot-nox); the tables hold every "
	      "figure.</p>\n",
	      f);
}

static void side_caption(FILE *f, const char *role, const struct rec_result *x)
{
	const double *v;
	int batches;
	size_t n = cmp_observations(x, &v, &batches);
	char mean[32];

	format_ns(mean, sizeof(mean), x->stats.mean);
	fprintf(f, "<br>%s: %s ns &#177;%.2f%%, %zu %s", role, mean, 100 * x->stats.ci95_rel, n,
		batches ? "batch means (one process)" : "process means");
}

/* The benchmark's parameters, once when both sides ran with the same. */
static void params_caption(FILE *f, const struct cmp_row *r)
{
	if (!strcmp(r->a->params, r->b->params)) {
		if (r->a->params[0]) {
			fputs("<br>parameters: ", f);
			html_text(f, r->a->params);
		}
		return;
	}
	fputs("<br>parameters: base ", f);
	html_text(f, r->a->params[0] ? r->a->params : "(none)");
	fputs(", other ", f);
	html_text(f, r->b->params[0] ? r->b->params : "(none)");
}

/* One comparison's section: the sides, the method, the summary, the environment. */
static void comparison(FILE *f, const struct report_cmp *r, size_t c, size_t ncmp)
{
	char method[1024];

	if (ncmp > 1) {
		fprintf(f, "<h2 id=\"c%zu\">", c + 1);
		html_text(f, r->desc_a);
		fputs(" &#8594; ", f);
		html_text(f, r->desc_b);
		fputs("</h2>\n", f);
	}
	sides(f, r);
	cmp_method_text(method, sizeof(method), r->o, r->floor_from);
	fprintf(f, "<h2 id=\"c%zu-method\">Method</h2>\n<p>", c + 1);
	html_text(f, method);
	fputs("</p>\n", f);
	if (cmp_settings_note(r->rows, r->n, r->o->force, method, sizeof(method))) {
		fputs("<p class=\"warn\">", f);
		html_text(f, method);
		fputs("</p>\n", f);
	}
	fprintf(f, "<h2 id=\"c%zu-summary\">Summary</h2>\n", c + 1);
	summary(f, r, c);
	environment(f, r, c);
}

/* The figures of one comparison's paths; *@k counts the plots. */
static void figures(FILE *f, const struct report_cmp *r, size_t c, const struct gnuplot *g,
		    int plots, size_t *k)
{
	fprintf(f, "<h2 id=\"c%zu-paths\">Paths</h2>\n<div class=\"paths\">\n", c + 1);
	for (size_t i = 0; i < r->n; i++) {
		const struct cmp_row *row = &r->rows[i];
		char name[200];

		path_name(name, sizeof(name), row);
		fprintf(f, "<figure id=\"c%zu-p%zu\"><figcaption><h3>", c + 1, i + 1);
		html_text(f, name);
		fputs("</h3>", f);
		if (!row->ok) {
			html_text(f, cmp_why_not(row));
			fputs("</figcaption></figure>\n", f);
			continue;
		}
		fprintf(f, "change %+.2f%% [%+.2f%%, %+.2f%%], MDE %.2f%%, <span class=\"%s\">",
			100 * row->c.change, 100 * row->c.ci_lo, 100 * row->c.ci_hi,
			100 * row->c.mde, verdict_class(row));
		html_text(f, cmp_verdict_name(row));
		fputs("</span>", f);
		side_caption(f, "base", row->a);
		side_caption(f, "other", row->b);
		params_caption(f, row);
		fputs("</figcaption>\n", f);
		if (plots)
			image(f, g, *k, FIG_CMP_W, FIG_CMP_H, name);
		(*k)++;
		fputs("</figure>\n", f);
	}
	fputs("</div>\n", f);
}

/* lab.align's sweeps, one plot a loop; *@k counts the plots. */
static void sweeps(FILE *f, const struct report_cmp *r, size_t c, const struct gnuplot *g,
		   int plots, size_t *k)
{
	const char *loops[4];
	size_t n = fig_sweep_paths(r->rows, r->n, loops, 4);

	for (size_t i = 0; i < n; i++) {
		char alt[64];

		fprintf(f, "<h2 id=\"c%zu-sweep%zu\">lab.align: the ", c + 1, i + 1);
		html_text(f, loops[i]);
		fputs(" loop at each offset</h2>\n<p class=\"note\">ns per iteration of the loop "
		      "against the offset of its first instruction from a 64-byte line, each "
		      "side with its 95% CI.</p>\n",
		      f);
		snprintf(alt, sizeof(alt), "lab.align %s sweep", loops[i]);
		if (plots)
			image(f, g, *k, FIG_HIST_W, FIG_HIST_H, alt);
		(*k)++;
	}
}

int report_html_compare(FILE *f, const struct report_cmp *r, size_t ncmp, struct report_plots *p)
{
	struct gnuplot g;
	char title[600];
	size_t k = 0;
	int plots = 0;

	snprintf(title, sizeof(title), "ukbench report: %s vs %s%s", r[0].desc_a, r[0].desc_b,
		 ncmp > 1 ? " and others" : "");
	head(f, title);
	fputs("<h1>ukbench report: <code>", f);
	html_text(f, r[0].desc_a);
	fputs("</code> &#8594; ", f);
	for (size_t c = 0; c < ncmp; c++) {
		fputs(c ? ", <code>" : "<code>", f);
		html_text(f, r[c].desc_b);
		fputs("</code>", f);
	}
	fputs("</h1>\n", f);
	made(f);
	if (gp_open(&g)) {
		snprintf(p->why, sizeof(p->why), "out of memory");
	} else {
		for (size_t c = 0; c < ncmp; c++) {
			const char *loops[4];
			size_t nl = fig_sweep_paths(r[c].rows, r[c].n, loops, 4);

			fig_forest(&g, r[c].rows, r[c].n);
			for (size_t i = 0; i < nl; i++)
				fig_sweep(&g, r[c].rows, r[c].n, loops[i], r[c].a->label,
					  r[c].b->label);
			for (size_t i = 0; i < r[c].n; i++)
				if (r[c].rows[i].ok)
					fig_compare(&g, &r[c].rows[i], r[c].a->label,
						    r[c].b->label);
		}
		plots = g.nplots && !run_plots(&g, p);
	}
	if (!plots && g.nplots)
		noplot(f, p);
	for (size_t c = 0; c < ncmp; c++) {
		size_t shown = 0;

		for (size_t i = 0; i < r[c].n; i++)
			shown += r[c].rows[i].ok;
		/* every path's change at a glance, first */
		if (plots) {
			fprintf(f,
				"<h2 id=\"c%zu-forest\">Every path</h2>\n<p class=\"note\">Each "
				"line a compared path: its change and 95%% CI; red regressed, "
				"green improved, grey neither; the dashed line is no change.</p>\n",
				c + 1);
			image(f, &g, k, FIG_FOREST_W, fig_forest_height(shown), "every path");
		}
		k++;
		sweeps(f, &r[c], c, &g, plots, &k);
		comparison(f, &r[c], c, ncmp);
		if (c == 0 && plots)
			fputs("<p class=\"note\">In each plot, a box holds the middle half of a "
			      "side's observations, its line the median, the whiskers reach the "
			      "least and the greatest; the dots are the observations; the diamond "
			      "beside a box is the side's mean with its 95% CI.</p>\n",
			      f);
		figures(f, &r[c], c, &g, plots, &k);
	}
	gp_close(&g);
	return tail(f);
}

static void history_summary(FILE *f, const struct report_hist *h)
{
	fputs("<table class=\"summary\">\n<tr><th>benchmark/path</th><th>host</th><th>runs</th>"
	      "<th>first ns</th><th>last ns</th><th>change points</th></tr>\n",
	      f);
	for (size_t i = 0; i < h->set->n; i++) {
		const struct series *s = &h->set->s[i];
		char name[200], n[32];

		snprintf(name, sizeof(name), "%s/%s", s->name, s->path);
		fprintf(f, "<tr><td><a href=\"#s%zu\">", i + 1);
		html_text(f, name);
		fputs("</a></td>", f);
		cell(f, NULL, s->host);
		snprintf(n, sizeof(n), "%zu", s->n);
		cell(f, "n", n);
		cell_ns(f, s->pts[0].p->mean);
		cell_ns(f, s->pts[s->n - 1].p->mean);
		snprintf(n, sizeof(n), "%zu", s->nchange);
		cell(f, "n", n);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void steps_table(FILE *f, const struct series *s)
{
	if (!s->nchange) {
		fputs("<p>no change point</p>\n", f);
		return;
	}
	fputs("<table class=\"steps\">\n<tr><th>at run</th><th>started (UTC)</th><th>label</th>"
	      "<th>kernel</th><th>step</th><th>p</th></tr>\n",
	      f);
	for (size_t i = 0; i < s->n; i++) {
		const struct rec_point *run = s->pts[i].p;
		char buf[64];

		if (!s->steps[i].change_point)
			continue;
		snprintf(buf, sizeof(buf), "#%lld (%zu of %zu)", (long long)run->run, i + 1, s->n);
		fputs("<tr>", f);
		cell(f, NULL, buf);
		cell(f, NULL, run->started);
		cell(f, NULL, run->label[0] ? run->label : "-");
		cell(f, NULL, run->kernel_release);
		cell_pct(f, s->steps[i].step);
		snprintf(buf, sizeof(buf), s->steps[i].p < 0.001 ? "<0.001" : "%.3g",
			 s->steps[i].p);
		cell(f, "n", buf);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

int report_html_history(FILE *f, const struct report_hist *h, struct report_plots *p)
{
	struct gnuplot g;
	int plots = 0;

	head(f, "ukbench history");
	fputs("<h1>ukbench history</h1>\n", f);
	made(f);
	fputs("<p>", f);
	if (h->npats) {
		fputs("paths matching ", f);
		for (int i = 0; i < h->npats; i++) {
			fputs(i ? ", <code>" : "<code>", f);
			html_text(f, h->pats[i]);
			fputs("</code>", f);
		}
	} else {
		fputs("every path", f);
	}
	if (h->label) {
		fputs("; runs labelled <code>", f);
		html_text(f, h->label);
		fputs("</code>", f);
	}
	if (h->host) {
		fputs("; host <code>", f);
		html_text(f, h->host);
		fputs("</code>", f);
	}
	fprintf(f, "; %zu series over %zu stored runs, one series a host and path</p>\n", h->set->n,
		h->set->nruns);
	fprintf(f,
		"<h2 id=\"method\">Method</h2>\n<p>Each point is a run's mean cost per call with "
		"its 95%% CI. A change point is a boundary with a full window of %zu runs on "
		"each side whose run means differ by the Mann-Whitney test (exact) at p &lt; "
		"%g, by a step of the windows' medians of at least %g%%, and no such boundary "
		"within a window separates the means of its windows more; it is drawn as a dashed "
		"line with the step. The last %zu "
		"runs cannot show one yet.</p>\n",
		h->window, h->alpha, 100 * h->threshold, h->window ? h->window - 1 : 0);
	fputs("<h2 id=\"summary\">Summary</h2>\n", f);
	history_summary(f, h);
	if (!gp_open(&g)) {
		for (size_t i = 0; i < h->set->n; i++)
			fig_series(&g, &h->set->s[i]);
		plots = g.nplots && !run_plots(&g, p);
	} else {
		snprintf(p->why, sizeof(p->why), "out of memory");
	}
	fputs("<h2 id=\"series\">Series</h2>\n", f);
	if (!plots)
		noplot(f, p);
	for (size_t i = 0; i < h->set->n; i++) {
		const struct series *s = &h->set->s[i];
		char name[400];

		snprintf(name, sizeof(name), "%s/%s on %s", s->name, s->path, s->host);
		fprintf(f, "<figure class=\"series\" id=\"s%zu\"><figcaption><h3>", i + 1);
		html_text(f, name);
		fprintf(f, "</h3>%zu runs, %zu change point%s</figcaption>\n", s->n, s->nchange,
			s->nchange == 1 ? "" : "s");
		if (plots)
			image(f, &g, i, FIG_HIST_W, FIG_HIST_H, name);
		steps_table(f, s);
		fputs("</figure>\n", f);
	}
	gp_close(&g);
	return tail(f);
}
