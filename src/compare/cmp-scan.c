// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmp-scan.c - the values of a -L scan compared with the first (see
 * cmp-scan.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmp-scan.h"
#include "cmp-table.h"
#include "comparison.h"
#include "run-notes.h"
#include "width.h"

/*
 * -L NAME=V1,V2,...: each value's result against the first value's, path
 * by path, as compare prints them (the processes of each are its
 * observations, so the change is told from the variation between them).
 */
void cmp_scan_print(FILE *out, int wide, const struct rec_run *run, const char *scan)
{
	struct cmp_opts co = cmp_defaults();
	const char *eq = strchr(scan, '=');
	char key[80], first[100];
	struct cmp_table ct;
	int header = 0;

	if (!eq)
		return;
	snprintf(key, sizeof(key), ".%.*s=", (int)(eq - scan), scan);
	snprintf(first, sizeof(first), "%s%ld", key, strtol(eq + 1, NULL, 10));
	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *b = &run->results[i], *a;
		const char *at = strstr(b->name, key);
		char base[160];
		struct cmp_row row;

		if (!at || !strcmp(at, first))
			continue;
		snprintf(base, sizeof(base), "%.*s%s", (int)(at - b->name), b->name, first);
		a = rec_find(run, base, b->path);
		if (!a)
			continue;
		if (!header) {
			fprintf(out, "\n");
			run_note(
			    out, wide,
			    "-L %s: each value against the first, %s; the processes of each are "
			    "its observations:",
			    scan, first + 1);
			fprintf(out, "\n");
			cmp_table_begin(&ct, out, out_columns(out, wide));
			cmp_print_header(&ct);
			header = 1;
		}
		memset(&row, 0, sizeof(row));
		row.a = a;
		row.b = b;
		compare_row(&row, &co);
		cmp_print_row(&ct, &row, co.alpha, 0);
	}
	if (header)
		fprintf(out, "\n");
}
