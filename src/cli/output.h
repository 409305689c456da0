/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output.h - the one place results become text: the terminal table and
 * the JSON document. Benchmarks never format anything themselves.
 */
#ifndef UKB_CLI_OUTPUT_H
#define UKB_CLI_OUTPUT_H

#include <stdio.h>
#include <time.h>

#include "clock.h"
#include "env.h"
#include "measure.h"

#define UKB_JSON_SCHEMA		"ukbench-run"
#define UKB_JSON_SCHEMA_VERSION 1

/* Everything about one `run`, as the outputs need it. */
struct ukb_run_info {
	const struct ukb_env *env;
	const struct ukb_clock_info *clock;
	const struct ukb_measure_opts *opts;
	time_t started;
	double duration_s;
	int interrupted;
	const struct ukb_result *results;
	size_t nresults;
};

/* The terminal table: a header, a row per path as it completes, a summary. */
void table_header(FILE *f, const struct ukb_run_info *run);
void table_row(FILE *f, const struct ukb_result *r, int first_of_group);
void table_footer(FILE *f, const struct ukb_run_info *run);

/* "12.3", "1.23 k", "4.56 M": compact figures for columns. */
void format_si(char *buf, size_t len, double v);

/* The vDSO symbol a path calls, "__vdso_time@LINUX_2.6", or "" if none. */
void vdso_symbol_of(const struct ukb_path *p, char *buf, size_t len);

struct json_object;
struct json_object *json_env(const struct ukb_env *env);

/* Writes the run as JSON to @f. Returns 0 or -errno. */
int json_write_run(FILE *f, const struct ukb_run_info *run);

#endif
