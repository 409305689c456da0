// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmp-table.c - a comparison of two runs as table rows: both figures,
 * the change with its interval, the minimum detectable effect, both
 * p-values and the verdict. Used by `compare` and by `exec` with several
 * commands.
 */
#include <stdio.h>

#include <string.h>

#include "comparison.h"
#include "cmp-table.h"
#include "output.h"
#include "width.h"

/*
 * Wide: every column on one line a path (131 columns). Narrow (what fits
 * 80): the benchmark on a line of its own, then a line a path with both
 * figures, the change, its interval and the verdict; the MDE and both
 * p-values are in --wide, JSON and CSV. Compact (under 80): the same, the
 * interval on a line of its own under the change.
 */
void cmp_table_begin(struct cmp_table *t, FILE *f, int cols)
{
	t->f = f;
	t->narrow = cols && cols < 190;
	t->compact = cols && cols < 80;
	t->last_name[0] = 0;
}

/* The column a narrow row's interval starts at; 20 columns are kept for it. */
#define NARROW_CI_AT 43

/* The column a compact row's change ends at, where its interval ends too. */
#define COMPACT_CHANGE_END 42

static void pct(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%+.2f%%", 100 * v);
}

static void pvalue(char *buf, size_t len, double p)
{
	if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

void cmp_print_header(struct cmp_table *t)
{
	FILE *f = t->f;

	t->last_name[0] = 0;
	if (t->compact) {
		fprintf(f, "benchmark\n  %-8s %10s %9s %10s  %s\n%*s\n", "path", "base ns",
			"other ns", "change", "verdict", COMPACT_CHANGE_END, "95% CI");
		return;
	}
	if (t->narrow) {
		fprintf(f, "benchmark\n  %-8s %9s %9s %10s  %-20s %s\n", "path", "base ns",
			"other ns", "change", "95% CI", "verdict");
		return;
	}
	fprintf(f, "%-35s %-8s %11s %11s %10s  %-21s %7s %8s %8s %9s %9s  %-21s  %s\n", "benchmark",
		"path", "base ns", "other ns", "change", "95% CI", "MDE", "p", "p(mwu)",
		"one speed", "machine", "95% CI, no floor", "verdict");
}

void cmp_print_row(struct cmp_table *t, const struct cmp_row *r, double alpha, int color)
{
	FILE *f = t->f;
	const struct rec_result *x = r->b ? r->b : r->a;
	char fa[32], fb[32], ch[32], lo[32], hi[32], ci[80], mde[32], pw[16], pm[16], raw[32],
	    mach[32], ci0[80];
	const char *col = "", *end = "";
	char nm[512], pt[128];

	if (!x)
		return; /* a row names a path of one side at least */
	/* a run's names may come from anyone: made visible */
	vis(x->name, nm, sizeof(nm));
	vis(x->path, pt, sizeof(pt));
	if (!r->ok) {
		const char *why = cmp_why_not(r);

		if (t->narrow) {
			if (strcmp(t->last_name, x->name))
				fprintf(f, "%s\n", nm);
			snprintf(t->last_name, sizeof(t->last_name), "%s", x->name);
			if (t->compact)
				fprintf(f, "  %-8s %10s %9s %10s  %s\n", pt, "-", "-", "-", why);
			else
				fprintf(f, "  %-8s %9s %9s %10s  %s\n", pt, "-", "-", "-", why);
			return;
		}
		fprintf(f, "%-35s %-8s %11s %11s %10s  %s\n", nm, pt, "-", "-", "-", why);
		return;
	}
	format_ns(fa, sizeof(fa), r->c.mean_a);
	format_ns(fb, sizeof(fb), r->c.mean_b);
	pct(ch, sizeof(ch), r->c.change);
	/* ~: judged at one speed of the machine too */
	if (r->adjusted)
		strncat(ch, "~", sizeof(ch) - strlen(ch) - 1);
	pct(lo, sizeof(lo), r->c.ci_lo);
	pct(hi, sizeof(hi), r->c.ci_hi);
	snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
	snprintf(mde, sizeof(mde), "%.2f%%", 100 * r->c.mde);
	pvalue(pw, sizeof(pw), r->c.p_welch);
	pvalue(pm, sizeof(pm), r->c.p_mwu);
	if (color && cmp_claims(r) && r->verdict == UKB_IMPROVED) {
		col = "\033[32m";
		end = "\033[0m";
	} else if (color && cmp_claims(r) && r->verdict == UKB_REGRESSED) {
		col = "\033[31m";
		end = "\033[0m";
	}
	if (t->narrow) {
		if (strcmp(t->last_name, x->name))
			fprintf(f, "%s\n", nm);
		snprintf(t->last_name, sizeof(t->last_name), "%s", x->name);
		if (t->compact) {
			fprintf(f, "  %-8s %10s %9s %9s%s  %s%s%s\n%*s\n", pt, fa, fb, ch,
				r->c.p_welch < alpha ? "*" : " ", col, cmp_verdict_name(r), end,
				COMPACT_CHANGE_END, ci);
			return;
		}
		fprintf(f, "  %-8s %9s %9s %9s%s  %-20s", pt, fa, fb, ch,
			r->c.p_welch < alpha ? "*" : " ", ci);
		/* an interval past its column puts a long verdict under its own column */
		if (NARROW_CI_AT + strlen(ci) + 1 + strlen(cmp_verdict_name(r)) > 80)
			fprintf(f, "\n%*s", NARROW_CI_AT + 20, "");
		fprintf(f, " %s%s%s\n", col, cmp_verdict_name(r), end);
		return;
	}
	/*
	 * Beside the verdict: the change at one speed of the machine, how much
	 * the machine itself moved (the reference), and the interval the
	 * processes alone give.
	 */
	if (r->adjusted)
		pct(raw, sizeof(raw), r->adj.change);
	else
		snprintf(raw, sizeof(raw), "-");
	if (r->ref.mean_a > 0)
		pct(mach, sizeof(mach), r->ref.change);
	else
		snprintf(mach, sizeof(mach), "-");
	pct(lo, sizeof(lo), r->c0.ci_lo);
	pct(hi, sizeof(hi), r->c0.ci_hi);
	snprintf(ci0, sizeof(ci0), "[%s, %s]", lo, hi);
	fprintf(f, "%-35s %-8s %11s %11s %9s%s  %-21s %7s %8s %8s %9s %9s  %-21s  %s%s%s\n", nm, pt,
		fa, fb, ch, r->c.p_welch < alpha ? "*" : " ", ci, mde, pw, pm, raw, mach, ci0, col,
		cmp_verdict_name(r), end);
}
