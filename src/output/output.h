/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output.h - the one place results become text: the terminal table, JSON,
 * CSV, KTAP, Google Benchmark's JSON, LAVA's lines and KCIDB (kcidb.h). Benchmarks never format
 * anything themselves; every output reads the same run record.
 */
#ifndef UKB_OUTPUT_OUTPUT_H
#define UKB_OUTPUT_OUTPUT_H

#include <stdio.h>

#include "clock.h"
#include "env.h"
#include "measure.h"
#include "record.h"

/*
 * The terminal table: a header, a row per path, a summary. Its width
 * decides its layout: 0 or 115 and more, every column; less, the layout
 * that fits 80; under 76, each benchmark's name on a line above its paths
 * (see out_columns()).
 */
struct table_layout;
struct table_out {
	FILE *f;
	int cols;
	const struct table_layout *lay;
	double precision; /* the run's --precision (table_header()); 0: none asked */
};
void table_begin(struct table_out *t, FILE *f, int cols);
void table_header(struct table_out *t, const struct rec_run *run);
void table_row(const struct table_out *t, const struct rec_result *r, int first_of_group);
void table_footer(const struct table_out *t, const struct rec_run *run);
/* What the figures leave out: the disturbed batches; which paths keep them. */
void table_disturbed(const struct table_out *t, const struct rec_run *run);
/* The thread-scaling summary of threaded results, if any. */
void table_scaling(const struct table_out *t, const struct rec_run *run);
/* The bytes/s of results that move bytes, if any. */
void table_throughput(const struct table_out *t, const struct rec_run *run);
/* All of it at once, @cols wide. */
void table_print(FILE *f, int cols, const struct rec_run *run);

/* "12.3", "1.23 k", "4.56 M": compact figures for columns. */
void format_si(char *buf, size_t len, double v);
/* A time in ns with the digits that matter: 0.342, 16.73, 122.9 */
void format_ns(char *buf, size_t len, double ns);

/* The other formats of a run. Each returns 0, or -1 on a write error. */
enum out_format { OUT_TABLE, OUT_JSON, OUT_CSV, OUT_KTAP, OUT_GBENCH, OUT_LAVA, OUT_KCIDB };
/* their names, in the order of the enum: what --format takes */
#define OUT_FORMATS "table|json|csv|ktap|gbench|lava|kcidb"
/* @run in @fmt; a table @cols wide (as table_begin()); KCIDB's ids from @ids (NULL: defaults). */
struct kcidb_ids;
int print_run(FILE *f, int cols, const struct rec_run *run, enum out_format fmt,
	      const struct kcidb_ids *ids);
int csv_print(FILE *f, const struct rec_run *run);
int gbench_print(FILE *f, const struct rec_run *run);
/* A shell script of one `lava-test-case` a path, for a LAVA test definition (lava.c). */
int lava_print(FILE *f, const struct rec_run *run);
/*
 * KTAP: one test per path. @verdicts (may be NULL) holds, per result, a
 * regression message that turns an ok into a not ok.
 */
int ktap_print(FILE *f, const struct rec_run *run, const char *const *verdicts);

#endif
