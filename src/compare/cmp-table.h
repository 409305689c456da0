/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmp-table.h - a comparison as the terminal's table: the column heads,
 * and one path's row (both figures, the change, its CI, the verdict).
 */
#ifndef UKB_COMPARE_CMP_TABLE_H
#define UKB_COMPARE_CMP_TABLE_H

#include <stdio.h>

#include "comparison.h"

void cmp_print_header(FILE *f);
/* The width compare's rows may take (out_columns()); 0: every column. */
void cmp_set_columns(int cols);
void cmp_print_row(FILE *f, const struct cmp_row *r, double alpha, int color);

#endif
