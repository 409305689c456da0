// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rows.c - tables as JSON arrays of objects or as CSV.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "width.h"

void rows_csv_text(FILE *f, const char *raw)
{
	char buf[4096];
	/* a control character from a run's strings never reaches a terminal */
	const char *s = vis(raw, buf, sizeof(buf));

	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void rows_begin(struct rows *r, FILE *f, enum rows_fmt fmt, const char *const *keys)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->fmt = fmt;
	r->keys = keys;
	while (keys[r->ncols])
		r->ncols++;
	if (fmt == ROWS_CSV) {
		for (size_t i = 0; i < r->ncols; i++) {
			rows_csv_text(f, keys[i]);
			fputc(i + 1 < r->ncols ? ',' : '\n', f);
		}
	} else {
		jw_init(&r->w, 1);
		jw_list_begin(&r->w, NULL);
	}
}

/* Before a value: opens the row's object; after it: the separator or the end. */
static const char *next(struct rows *r)
{
	if (r->fmt == ROWS_JSON && r->col == 0)
		jw_obj_begin(&r->w, NULL);
	return r->keys[r->col];
}

static void done(struct rows *r)
{
	r->col++;
	if (r->fmt == ROWS_CSV)
		fputc(r->col < r->ncols ? ',' : '\n', r->f);
	if (r->col == r->ncols) {
		if (r->fmt == ROWS_JSON)
			jw_obj_end(&r->w);
		r->col = 0;
	}
}

void rows_str(struct rows *r, const char *v)
{
	const char *key = next(r);

	if (r->fmt == ROWS_JSON)
		jw_str(&r->w, key, v);
	else if (v)
		rows_csv_text(r->f, v);
	done(r);
}

void rows_num(struct rows *r, double v)
{
	const char *key = next(r);
	char buf[40];

	if (r->fmt == ROWS_JSON) {
		jw_num(&r->w, key, v);
	} else if (isfinite(v)) {
		jw_format_double(buf, sizeof(buf), v);
		fputs(buf, r->f);
	}
	done(r);
}

void rows_int(struct rows *r, long long v)
{
	const char *key = next(r);

	if (r->fmt == ROWS_JSON)
		jw_int(&r->w, key, v);
	else
		fprintf(r->f, "%lld", v);
	done(r);
}

void rows_bool(struct rows *r, int v)
{
	const char *key = next(r);

	if (r->fmt == ROWS_JSON)
		jw_bool(&r->w, key, v);
	else
		fputs(v ? "true" : "false", r->f);
	done(r);
}

int rows_end(struct rows *r)
{
	if (r->fmt == ROWS_JSON) {
		size_t len;
		char *text;

		jw_arr_end(&r->w);
		text = jw_finish(&r->w, &len);
		if (!text)
			return -1;
		fwrite(text, 1, len, r->f);
		free(text);
	}
	return ferror(r->f) ? -1 : 0;
}
