/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmp-formats.h - a comparison printed for machines (JSON, CSV) and for
 * mail (plain text or markdown, at most 72 columns): the two sides in a
 * line each (host, kernel, CPU, libc, replication), the method, and per
 * path the figures, the change, its interval and the verdict.
 */
#ifndef UKB_COMPARE_CMP_FORMATS_H
#define UKB_COMPARE_CMP_FORMATS_H

#include <stdio.h>

#include "comparison.h"
#include "rows.h"

enum cmp_fmt { CMPF_TABLE, CMPF_JSON, CMPF_CSV, CMPF_MAIL, CMPF_MARKDOWN, CMPF_LKP, CMPF_KCIDB };
/* their names, in the order of the enum: what compare --format takes */
#define CMP_FORMATS "table|json|csv|mail|markdown|lkp|kcidb"

struct cmp_side {
	const struct rec_run *run;
	const char *desc; /* how the user named it: "before", "#3", "a.json" */
};

/* The keys of the JSON and CSV rows, NULL-ended. */
extern const char *const cmp_row_keys[];

/* One row per compared path of @rows into @out (JSON or CSV rows). */
void cmp_rows_out(struct rows *out, const struct cmp_side *a, const struct cmp_side *b,
		  const struct cmp_row *rows, size_t n);

/*
 * The mail-ready summary to @f, plain text, every line at most 72
 * columns; @floor_from: the floors, as cmp_floor_describe() says them;
 * the method in a line, or its paragraph where @explain.
 * (A comparison's markdown is the report's: report_md_compare().)
 */
void cmp_mail(FILE *f, const struct cmp_side *a, const struct cmp_side *b,
	      const struct cmp_row *rows, size_t n, const struct cmp_opts *o,
	      const char *floor_from, int explain);

/*
 * The table of the 0-day robot's reports (LKP) to @f: each side's mean
 * and the relative SD of its process means, the change, the path
 * (cmp-lkp.c).
 */
void cmp_lkp(FILE *f, const struct cmp_side *a, const struct cmp_side *b,
	     const struct cmp_row *rows, size_t n);

/*
 * The method of a comparison in a paragraph, the same in the table's
 * header, the mail, the markdown and the report: what the change is, where
 * its interval and verdict come from, the floor (@floor_from, NULL: not
 * said) and what ~ marks.
 */
void cmp_method_text(char *buf, size_t len, const struct cmp_opts *o, const char *floor_from);

/* The method in one line, pointing to its paragraph (--explain) and docs. */
void cmp_method_line(char *buf, size_t len, const struct cmp_opts *o);

#endif
