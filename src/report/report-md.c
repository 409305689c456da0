// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-md.c - the report as markdown (CommonMark with GitHub's tables):
 * for a mail, a review or an issue. Text from runs is escaped (md_text);
 * the text plots go in fenced blocks, where nothing is markup.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmp-formats.h"
#include "cmp-plot.h"
#include "envdiff.h"
#include "html.h"
#include "output.h"
#include "report.h"
#include "series-plot.h"
#include "textplot.h"
#include "width.h"

/* prose lines, as a mail wants them; tables and plots are as wide as they are */
#define MD_WIDTH 72

/* Text already in markdown, folded at spaces to MD_WIDTH; continuation lines indented. */
static void para(FILE *f, const char *text, int indent)
{
	put_folded(f, text, 0, indent, MD_WIDTH);
}

static void side(FILE *f, const char *role, const struct rec_run *r, const char *desc)
{
	size_t procs = 0, len = 0;
	char *text = NULL;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	for (size_t i = 0; i < r->nresults; i++)
		if (r->results[i].nproc > procs)
			procs = r->results[i].nproc;
	fprintf(m, "- **%s:** ", role);
	md_text(m, desc);
	fputs(", ", m);
	md_text(m, r->host);
	fputs(", Linux ", m);
	md_text(m, r->kernel_release);
	fprintf(m, ", %zu process%s, ", procs ? procs : 1, procs > 1 ? "es" : "");
	md_text(m, r->started);
	if (!fclose(m))
		para(f, text, 2);
	free(text);
}

static void path_md(FILE *f, const struct cmp_row *r)
{
	const struct rec_result *x = r->a ? r->a : r->b;
	char name[200];

	snprintf(name, sizeof(name), "%s/%s", x->name, x->path);
	md_text(f, name);
	if (r->a && r->b && strcmp(r->a->params, r->b->params)) {
		fputs(" (base: ", f);
		md_text(f, r->a->params[0] ? r->a->params : "none");
		fputs("; other: ", f);
		md_text(f, r->b->params[0] ? r->b->params : "none");
		fputs(")", f);
	} else if (x->params[0]) {
		fputs(" (", f);
		md_text(f, x->params);
		fputs(")", f);
	}
}

/* @s for a fenced block: a backquote would end the fence, so it is not kept. */
static void fenced(FILE *f, const char *raw)
{
	char buf[4096];

	for (const char *s = vis(raw, buf, sizeof(buf)); *s; s++)
		fputc(*s == '`' ? '\'' : *s, f);
}

static void table(FILE *f, const struct report_cmp *r)
{
	char geo[256];

	fputs("| benchmark/path | base ns | other ns | change | 95% CI | MDE | verdict |\n"
	      "|---|--:|--:|--:|--:|--:|---|\n",
	      f);
	for (size_t i = 0; i < r->n; i++) {
		const struct cmp_row *row = &r->rows[i];
		char a[32], b[32];

		fputs("| ", f);
		path_md(f, row);
		if (!row->ok) {
			fprintf(f, " | - | - | - | | | %s |\n", cmp_why_not(row));
			continue;
		}
		format_ns(a, sizeof(a), row->c.mean_a);
		format_ns(b, sizeof(b), row->c.mean_b);
		fprintf(f, " | %s | %s | %+.2f%% | [%+.2f%%, %+.2f%%] | %.2f%% | %s%s%s |\n", a, b,
			100 * row->c.change, 100 * row->c.ci_lo, 100 * row->c.ci_hi,
			100 * row->c.mde, cmp_called(row) ? "**" : "", cmp_verdict_name(row),
			cmp_called(row) ? "**" : "");
	}
	if (cmp_geomean_text(r->rows, r->n, r->o->alpha, geo, sizeof(geo))) {
		size_t len = 0;
		char *text = NULL;
		FILE *m = open_memstream(&text, &len);

		/* text, never markup; folded as the prose around it */
		if (m) {
			md_text(m, geo);
			fputc('.', m);
			if (!fclose(m)) {
				fputs("\n", f);
				para(f, text, 0);
			}
		}
		free(text);
	}
}

static void environment(FILE *f, const struct report_cmp *r)
{
	struct env_line *l;
	size_t n, nd = 0;

	if (envdiff(r->a, r->b, &l, &n)) {
		fputs("\n#### Environment\n\nThe environments could not be read: out of "
		      "memory.\n",
		      f);
		return;
	}
	for (size_t i = 0; i < n; i++)
		nd += l[i].differs && !l[i].expected;
	fprintf(f, "\n#### Environment: %zu of %zu lines differ\n\n", nd, n);
	if (!nd) {
		para(f,
		     "The two runs were made on the same set-up (kernel, command line, "
		     "mitigations, clocksource, governor, CPU, C library, compiler, ukbench).",
		     0);
		envdiff_free(l, n);
		return;
	}
	fputs("| | base | other |\n|---|---|---|\n", f);
	for (size_t i = 0; i < n; i++) {
		if (!l[i].differs || l[i].expected)
			continue;
		fputs("| **", f);
		md_text(f, l[i].key);
		fputs("** | ", f);
		md_text(f, l[i].a ? l[i].a : "(absent)");
		fputs(" | ", f);
		md_text(f, l[i].b ? l[i].b : "(absent)");
		fputs(" |\n", f);
	}
	fprintf(f, "\nThe other %zu lines are the same in both.\n", n - nd);
	envdiff_free(l, n);
}

static void plots(FILE *f, const struct report_cmp *r)
{
	fputs("\n#### Distributions\n\n", f);
	para(f,
	     "A box plot a side of its process means: ├ least, ▓ middle half, ┃ median, ┤ "
	     "greatest.",
	     0);
	fputs("\n```text\n", f);
	for (size_t i = 0, shown = 0; i < r->n; i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *m;

		if (!r->rows[i].ok)
			continue;
		if (shown++)
			fputc('\n', f);
		m = open_memstream(&text, &len);
		if (!m)
			continue;
		cmp_plot_row(m, &r->rows[i], 78);
		if (fclose(m)) {
			free(text);
			continue;
		}
		for (char *p = text, *nl; p && *p; p = nl + 1) {
			nl = strchr(p, '\n');
			if (!nl)
				break;
			*nl = 0;
			fenced(f, p);
			fputc('\n', f);
		}
		free(text);
	}
	fputs("```\n", f);
}

int report_md_compare(FILE *f, const struct report_cmp *r, size_t ncmp)
{
	char method[1024];

	for (size_t c = 0; c < ncmp; c++) {
		fputs(c ? "\n### ukbench report: " : "### ukbench report: ", f);
		md_text(f, r[c].desc_a);
		fputs(" → ", f);
		md_text(f, r[c].desc_b);
		fputs("\n\n", f);
		side(f, "base", r[c].a, r[c].desc_a);
		side(f, "other", r[c].b, r[c].desc_b);
		cmp_method_text(method, sizeof(method), r[c].o, r[c].floor_from);
		fputs("\n", f);
		para(f, method, 0);
		fputs("\n", f);
		if (cmp_settings_note(r[c].rows, r[c].n, r[c].o->force, method, sizeof(method))) {
			size_t len = 0;
			char *text = NULL;
			FILE *m = open_memstream(&text, &len);

			/* names and parameters in markdown are text, never markup */
			if (m) {
				md_text(m, method);
				if (!fclose(m))
					para(f, text, 0);
				free(text);
				fputs("\n", f);
			}
		}
		table(f, &r[c]);
		environment(f, &r[c]);
		plots(f, &r[c]);
	}
	return ferror(f) ? -1 : 0;
}

int report_md_history(FILE *f, const struct report_hist *h)
{
	fputs("### ukbench history\n\n", f);
	{
		char text[512];

		snprintf(
		    text, sizeof(text),
		    "Each series is a host's runs of a path, oldest first, drawn with ▁▂▃▄▅▆▇█ "
		    "between its least and greatest run mean; ^ marks a change point (a "
		    "window of %zu runs on each side, Mann-Whitney p < %g, a step of at "
		    "least %g%%).",
		    h->window, h->alpha, 100 * h->threshold);
		para(f, text, 0);
	}
	for (size_t i = 0; i < h->set->n; i++) {
		const struct series *s = &h->set->s[i];
		struct series_spark sp;
		char name[400], lo[32], hi[32];

		if (series_spark(s, TP_MAX_WIDTH, &sp))
			return -1;
		snprintf(name, sizeof(name), "%s/%s on %s", s->name, s->path, s->host);
		format_ns(lo, sizeof(lo), sp.lo);
		format_ns(hi, sizeof(hi), sp.hi);
		fputs("\n#### ", f);
		md_text(f, name);
		fprintf(f,
			"\n\n%zu runs, %s to %s ns (range %.2f%%), %zu change point%s.\n\n"
			"```text\n%s\n%s%s```\n",
			s->n, lo, hi, 100 * (sp.hi / sp.lo - 1), s->nchange,
			s->nchange == 1 ? "" : "s", sp.line, sp.marks, sp.marks[0] ? "\n" : "");
		if (!s->nchange)
			continue;
		fputs("\n| at run | started (UTC) | label | kernel | step | p |\n"
		      "|---|---|---|---|--:|--:|\n",
		      f);
		for (size_t k = 0; k < s->n; k++) {
			const struct rec_point *run = s->pts[k].p;

			if (!s->steps[k].change_point)
				continue;
			fprintf(f, "| #%lld | ", (long long)run->run);
			md_text(f, run->started);
			fputs(" | ", f);
			md_text(f, run->label[0] ? run->label : "-");
			fputs(" | ", f);
			md_text(f, run->kernel_release);
			fprintf(f, " | %+.2f%% | %s%.3g |\n", 100 * s->steps[k].step,
				s->steps[k].p < 0.001 ? "< " : "",
				s->steps[k].p < 0.001 ? 0.001 : s->steps[k].p);
		}
	}
	return ferror(f) ? -1 : 0;
}
