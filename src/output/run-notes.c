// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run-notes.c - the notes under a run's table (see run-notes.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "run-notes.h"
#include "width.h"

void run_note(FILE *out, int wide, const char *fmt, ...)
{
	char text[1024];
	int cols = out_columns(out, wide);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	put_folded(out, text, 0, 0, cols ? cols : 80);
}

/* How many processes each figure is the mean of, when they were chosen. */
static void replication_note(FILE *out, int wide, const struct rec_run *run)
{
	size_t lo = SIZE_MAX, hi = 0;
	char many[64];

	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];

		if (r->status != UKB_OK || r->nproc < 2)
			continue;
		lo = r->nproc < lo ? r->nproc : lo;
		hi = r->nproc > hi ? r->nproc : hi;
	}
	if (!hi)
		return;
	if (lo == hi)
		snprintf(many, sizeof(many), "%zu", hi);
	else
		snprintf(many, sizeof(many), "%zu to %zu", lo, hi);
	run_note(out, wide,
		 "each figure is the mean of %s fresh processes (as many as the budget and the "
		 "precision asked for) and ±CI95 is over their means; ±proc is the CI one "
		 "process claims of itself",
		 many);
}

void run_notes_print(FILE *out, int w, const struct rec_run *run, const struct run_notes *n)
{
	/* what a host's first runs add to ±CI95 (n->early), in either note of the floor */
	static const char early[] =
	    "as far as the reference timed beside each path moved from the runs before this one";

	if (n->procs > 1)
		run_note(out, w,
			 "each figure is the mean of %u fresh processes and ±CI95 is over their "
			 "means; ±proc is the CI one process claims of itself",
			 n->procs);
	else if (n->procs == 0)
		replication_note(out, w, run);
	else
		run_note(out, w,
			 "one process (--processes 1): ±CI95 is over its batches; the variation "
			 "between processes, usually larger, was not measured");
	if (n->quick)
		run_note(out, w,
			 "quick (--quick): %.3g s a path at a precision of %g%%, where a "
			 "default "
			 "run gives each path %.3g s at 1%%: the intervals are wider; compare "
			 "runs made the same way, and measure again without --quick for a "
			 "figure to post",
			 n->budget_s, 100 * n->precision, n->default_budget_s);
	if (n->procs != 1 && n->from_learned)
		run_note(out, w,
			 "±CI95 includes how far a run moves between runs of the same thing, as "
			 "this host's stored runs showed it for %zu path%s%s%s%s%s",
			 n->from_learned, n->from_learned == 1 ? "" : "s",
			 n->from_prior ? "; for the others it is assumed, wide" : "",
			 n->at_speed ? "; where a path's slope on the reference is known, at "
				       "the machine's usual speed, and as far as its state "
				       "during this run moves the path"
				     : "",
			 n->early ? "; and " : "", n->early ? early : "");
	else if (n->procs != 1 && !n->store_read)
		run_note(out, w,
			 "the store was not read (--no-store): how far a run moves between runs "
			 "is assumed in ±CI95, wide (%.1f%% a run)",
			 100 * n->prior);
	else if (n->procs != 1)
		run_note(out, w,
			 "how far a run moves between runs is not known yet on this host (its "
			 "runs of these paths teach it: a few of one label, or 'ukbench "
			 "calibrate'): ±CI95 assumes %.1f%% a run, wide%s%s",
			 100 * n->prior, n->early ? ", and " : "", n->early ? early : "");
	if (n->procs != 1 && n->state && n->state[0])
		run_note(out, w, "%s", n->state);
}
