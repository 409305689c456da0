// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmp-lkp.c - a comparison as the 0-day robot's (LKP's) reports print
 * theirs: each side's mean with its relative standard deviation over the
 * runs (here: over the processes), the change between them, the metric's
 * name, so that a mail in that style reads the same.
 *
 *   sides:
 *     'before' (2 runs of one boot pooled)
 *     'after' (2 runs of one boot pooled)
 *
 *   before           after
 *   ---------------- ---------------------------
 *            %stddev     %change         %stddev
 *                \          |                \
 *        19.02 ±  2%     (+1.2%)     19.25 ±  3%  random.getrandom.4/vdso
 *        51.40 ±  1%     +24.9%      64.22 ±  1%  syscall.null/syscall
 *
 * The change is that of the two means beside it; a path not measured on
 * both sides has no line, as in those reports. Those reports list only
 * what their test found significant; here every path is, and a change
 * compare did not call improved or regressed is in parentheses, said so
 * under the table, so that a mail never reads an A/A's -12.9% as a gain.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmp-formats.h"
#include "width.h"

/* The relative SD of a side's process means, in %; NAN with fewer than two. */
static double proc_sd_pct(const struct rec_result *r)
{
	double sum = 0, sq = 0, mean;

	if (!r || r->nproc < 2)
		return NAN;
	for (size_t i = 0; i < r->nproc; i++)
		sum += r->proc_means[i];
	mean = sum / (double)r->nproc;
	for (size_t i = 0; i < r->nproc; i++)
		sq += (r->proc_means[i] - mean) * (r->proc_means[i] - mean);
	return mean > 0 ? 100 * sqrt(sq / (double)(r->nproc - 1)) / mean : NAN;
}

/* A mean as those reports print one: two decimals below 1000, else whole. */
static void number(char *buf, size_t len, double v)
{
	snprintf(buf, len, fabs(v) < 1000 ? "%.2f" : "%.0f", v);
}

/* " ± NN%" where the spread rounds to 1% or more, else as wide in blanks */
static void spread(char *buf, size_t len, double pct)
{
	if (isfinite(pct) && pct >= 0.5)
		snprintf(buf, len, " \u00b1%3.0f%%", pct);
	else
		snprintf(buf, len, "      ");
}

void cmp_lkp(FILE *f, const struct cmp_side *a, const struct cmp_side *b,
	     const struct cmp_row *rows, size_t n)
{
	char da[512], db[512], ca[17], cb[28];
	size_t shown = 0, quiet = 0;

	/* the two sides whole, then each column headed by its label (a commit's there) */
	fprintf(f, "sides:\n  %s\n  %s\n\n", vis(a->desc, da, sizeof(da)),
		vis(b->desc, db, sizeof(db)));
	cut_text(ca, sizeof(ca),
		 vis(a->run && a->run->label[0] ? a->run->label : a->desc, da, sizeof(da)));
	cut_text(cb, sizeof(cb),
		 vis(b->run && b->run->label[0] ? b->run->label : b->desc, db, sizeof(db)));
	fprintf(f, "%-16s %s\n", ca, cb);
	fprintf(f, "---------------- ---------------------------\n");
	fprintf(f, "         %%stddev     %%change         %%stddev\n");
	fprintf(f, "             \\          |                \\  \n");
	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *r = &rows[i];
		char ma[32], mb[32], sa[16], sb[16], ch[16], nm[512], line[256];

		if (!r->ok)
			continue;
		number(ma, sizeof(ma), r->c.mean_a);
		number(mb, sizeof(mb), r->c.mean_b);
		spread(sa, sizeof(sa), proc_sd_pct(r->a));
		spread(sb, sizeof(sb), proc_sd_pct(r->b));
		if (cmp_called(r)) {
			snprintf(ch, sizeof(ch), "%+.1f%% ", 100 * r->c.change);
		} else {
			snprintf(ch, sizeof(ch), "(%+.1f%%)", 100 * r->c.change);
			quiet++;
		}
		snprintf(line, sizeof(line), "%s/%s", r->b->name, r->b->path);
		fprintf(f, "%10s%s %10s %10s%s  %s\n", ma, sa, ch, mb, sb,
			vis(line, nm, sizeof(nm)));
		shown++;
	}
	if (!shown)
		fprintf(f, "(no path measured on both sides)\n");
	else if (quiet)
		fprintf(f,
			"\n(%%change): not called improved or regressed by compare (%zu of %zu)\n",
			quiet, shown);
}
