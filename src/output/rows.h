/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rows.h - what a command prints as a table, as JSON or CSV instead: an
 * array of objects with fixed keys, or a header line and one line per row.
 * Numbers stay numbers (shortest text that reads back exactly), a missing
 * value is null in JSON and empty in CSV.
 */
#ifndef UKB_OUTPUT_ROWS_H
#define UKB_OUTPUT_ROWS_H

#include <stddef.h>
#include <stdio.h>

#include "json-write.h"

enum rows_fmt { ROWS_TABLE, ROWS_JSON, ROWS_CSV };
/* their names, in the order of the enum: what --format takes */
#define ROWS_FORMATS "table|json|csv"

struct rows {
	FILE *f;
	enum rows_fmt fmt;
	const char *const *keys; /* NULL-ended */
	size_t ncols, col;
	struct jw w;
};

/* Starts the output to @f: the CSV header, or the JSON array. */
void rows_begin(struct rows *r, FILE *f, enum rows_fmt fmt, const char *const *keys);

/* The next value of the current row (a row starts with its first). */
void rows_str(struct rows *r, const char *v); /* NULL: null */
void rows_num(struct rows *r, double v);      /* not finite: null */
void rows_int(struct rows *r, long long v);
void rows_bool(struct rows *r, int v);

/* @s as one CSV field, quoted where it must be (RFC 4180). */
void rows_csv_text(FILE *f, const char *s);

/* Ends the output; 0, or -1 when it could not be written. */
int rows_end(struct rows *r);

#endif
