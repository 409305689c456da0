/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmp-table.h - a comparison as the terminal's table: the column heads,
 * and one path's row (both figures, the change, its CI, the verdict).
 */
#ifndef UKB_COMPARE_CMP_TABLE_H
#define UKB_COMPARE_CMP_TABLE_H

#include <stdio.h>

#include "comparison.h"

/*
 * Its layout comes from the width the rows may take (out_columns()): 0 or
 * 190 and more, every column on one line a path; less, the benchmark on a
 * line of its own; under 80, the interval under the change.
 */
struct cmp_table {
	FILE *f;
	int narrow, compact;
	char last_name[128]; /* the benchmark whose paths are being printed */
};

void cmp_table_begin(struct cmp_table *t, FILE *f, int cols);
void cmp_print_header(struct cmp_table *t);
void cmp_print_row(struct cmp_table *t, const struct cmp_row *r, double alpha, int color);

#endif
