/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * width.h - tables that fit: the columns a table may use (the terminal's
 * width on a terminal, 80 otherwise, no limit with --wide), cells padded by
 * the columns they take on the screen rather than their bytes ("±" is two
 * bytes and one column), long text folded under its column.
 */
#ifndef UKB_REPORT_WIDTH_H
#define UKB_REPORT_WIDTH_H

#include <stddef.h>
#include <stdio.h>

/*
 * The width tables printed to @f may use: 0 for no limit (@wide), else
 * $COLUMNS where it is set (40 or more), else the terminal's, else 80.
 */
int out_columns(FILE *f, int wide);

/* The columns @s takes: one per character (UTF-8 sequence). */
int disp_width(const char *s);

/* @s into @buf (of @len bytes), its end replaced by ~ where it does not fit. */
void cut_text(char *buf, size_t len, const char *s);

/* @s padded to @width columns, on the left when @right. */
void put_cell(FILE *f, const char *s, int width, int right);

/*
 * @text from column @at, folded at spaces so that no line passes @cols
 * (0: no limit); a continuation starts at column @indent. Ends the line.
 */
void put_folded(FILE *f, const char *text, int at, int indent, int cols);

#endif
