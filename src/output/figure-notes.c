// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * figure-notes.c - what a run's figures show, as the benchmarks that explain
 * their figures say it (see figure-notes.h and bench/notes.h).
 */
#include <stdio.h>
#include <string.h>

#include "figure-notes.h"
#include "notes.h"
#include "width.h"

/* The run's figure of @bench, @variant (NULL: any), @path then the ABI's suffix. */
static int find(const struct ukb_notes *n, const char *bench, const char *variant, const char *path,
		struct ukb_figure *f)
{
	const struct rec_run *run = n->run;
	size_t len = strlen(path);

	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];

		if (r->status == UKB_OK && r->nsamples && !strcmp(r->benchmark, bench) &&
		    (!variant || !strcmp(r->variant, variant)) && !strncmp(r->path, path, len) &&
		    !strcmp(r->path + len, n->sfx)) {
			f->mean = r->stats.mean;
			f->ci95 = r->stats.ci95;
			f->params = r->params;
			return 1;
		}
	}
	return 0;
}

size_t lab_notes_text(char *buf, size_t len, const struct rec_run *run)
{
	static const char *const sfx[] = { "", "@32" };
	struct ukb_notes n = { .find = find, .run = run, .buf = buf, .len = len };

	if (len)
		buf[0] = 0;
	for (size_t s = 0; s < 2; s++) {
		n.sfx = sfx[s];
		ukb_explain(&n);
	}
	return n.lines;
}

size_t lab_notes_print(FILE *out, int wide, const struct rec_run *run)
{
	char buf[16384], *line, *save = NULL;
	size_t n = lab_notes_text(buf, sizeof(buf), run);
	int cols = out_columns(out, wide);

	if (!n)
		return 0;
	fprintf(out, "what this CPU shows (lab):\n");
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		fputs("  ", out);
		put_folded(out, line, 2, 4, cols ? cols : 80);
	}
	return n;
}
