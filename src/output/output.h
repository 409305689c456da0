/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output.h - the one place results become text: the terminal table, JSON,
 * CSV, KTAP and Google Benchmark's JSON. Benchmarks never format anything
 * themselves; every output reads the same run record.
 */
#ifndef UKB_OUTPUT_OUTPUT_H
#define UKB_OUTPUT_OUTPUT_H

#include <stdio.h>

#include "clock.h"
#include "env.h"
#include "measure.h"
#include "record.h"

/* The terminal table: a header, a row per path, a summary. */
void table_header(FILE *f, const struct rec_run *run);
void table_row(FILE *f, const struct rec_result *r, int first_of_group);
void table_footer(FILE *f, const struct rec_run *run);
/* What the figures leave out: the disturbed batches; which paths keep them. */
void table_disturbed(FILE *f, const struct rec_run *run);
/*
 * The width the run tables may take: 0 or 105 and more for every column,
 * less for the layout that fits 80 (see out_columns()).
 */
void table_set_columns(int cols);
void table_print(FILE *f, const struct rec_run *run);
/* The thread-scaling summary of threaded results, if any. */
void table_scaling(FILE *f, const struct rec_run *run);
/* The bytes/s of results that move bytes, if any. */
void table_throughput(FILE *f, const struct rec_run *run);

/* "12.3", "1.23 k", "4.56 M": compact figures for columns. */
void format_si(char *buf, size_t len, double v);
/* A time in ns with the digits that matter: 0.342, 16.73, 122.9 */
void format_ns(char *buf, size_t len, double ns);

/* The other formats of a run. Each returns 0, or -1 on a write error. */
enum out_format { OUT_TABLE, OUT_JSON, OUT_CSV, OUT_KTAP, OUT_GBENCH };
/* their names, in the order of the enum: what --format takes */
#define OUT_FORMATS "table|json|csv|ktap|gbench"
int print_run(FILE *f, const struct rec_run *run, enum out_format fmt);
int csv_print(FILE *f, const struct rec_run *run);
int gbench_print(FILE *f, const struct rec_run *run);
/*
 * KTAP: one test per path. @verdicts (may be NULL) holds, per result, a
 * regression message that turns an ok into a not ok.
 */
int ktap_print(FILE *f, const struct rec_run *run, const char *const *verdicts);

#endif
