/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * width.h - tables that fit: the columns a table may use (the terminal's
 * width on a terminal, 80 otherwise, no limit with --wide), cells padded by
 * the columns they take on the screen rather than their bytes ("±" is two
 * bytes and one column), long text folded under its column.
 */
#ifndef UKB_OUTPUT_WIDTH_H
#define UKB_OUTPUT_WIDTH_H

#include <stddef.h>
#include <stdio.h>

/*
 * The width tables printed to @f may use: 0 for no limit (@wide), else
 * $COLUMNS where it is set (40 or more), else the terminal's, else 80.
 */
int out_columns(FILE *f, int wide);

/*
 * @s as it may reach a terminal: every control character made visible, as
 * git and less do (ESC as ^[, CR as ^M, a newline as ^J, DEL as ^?, the C1
 * controls of UTF-8 as <U+009B>), so that a label, a host or a command from
 * an imported file or a shared server can neither move the cursor, retitle
 * the window nor break a table's line. Into @buf (cut to @len); returns
 * @buf. Text ukbench writes itself needs none of it.
 */
const char *vis(const char *s, char *buf, size_t len);

/* vis() keeping the newlines: a message of several lines. */
const char *vis_lines(const char *s, char *buf, size_t len);

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
