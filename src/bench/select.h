/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * select.h - from patterns and options to the cases to measure.
 *
 * A case is one benchmark, in one variant, through one path, with its
 * parameter values resolved and checked: everything a runner needs to
 * measure it, in this process or in another. Variants of sized and
 * threaded benchmarks (sizes, flag sets, thread counts) are made here,
 * from the same options wherever the selection is made, so that a child
 * process or the 32-bit helper makes exactly the variants the parent did.
 *
 * Nothing here prints: errors come back as a message and a hint.
 */
#ifndef UKB_BENCH_SELECT_H
#define UKB_BENCH_SELECT_H

#include <stddef.h>

#include "match.h"
#include "ukbench.h"

#define UKB_MAX_PARAMS 16

/* One benchmark, in one variant, through one path. */
struct ukb_case {
	const struct ukb_bench *bench;
	const struct ukb_variant *variant; /* NULL when the bench has none */
	const struct ukb_path *path;
	char name[128];		     /* bench[.variant] */
	long params[UKB_MAX_PARAMS]; /* the values of bench->params, -P applied */
};

/* What the command line says about sized, threaded and parameterised benchmarks. */
struct select_opts {
	const char *params; /* -P name=value,...; NULL: every parameter's default */
	const long *sizes;  /* --size, ended by 0; NULL: each benchmark's own */
	const char *flags;  /* --flags, a comma list of flag-set names; NULL: the first */
	unsigned threads;   /* --threads: up to this many; 0: online CPUs */
	/*
	 * -L NAME=V1,V2,...: every case of a benchmark with parameter NAME
	 * once a value, named NAME.VARIANT.NAME=V (so that the store,
	 * compare and history tell them apart); NULL: none
	 */
	const char *scan;
};

/* A message and an optional hint, for the front end to print. */
struct ukb_err {
	char msg[512];
	char hint[512];
};

/*
 * The cases a selection made, and the variants they point into: owned
 * here, released together. Variants are allocated per benchmark, so a
 * pointer to one stays valid until ukb_selection_release().
 */
struct ukb_selection {
	struct ukb_case *cases;
	size_t n, cap;
	struct ukb_variant **chunks; /* made variants, one array per benchmark */
	char **names;		     /* their names, one block per benchmark */
	size_t nchunks;
};

/*
 * Expands @patterns (NAME[/PATH], NAME a glob or a dotted prefix) into
 * @sel's cases, in registry order, each once. No pattern: the default
 * suite when @default_suite, else everything. Parameters are resolved
 * (-P); when @validate, every -P name and any --size or --flags must
 * apply to a selected benchmark, and every case's benchmark checks its own
 * values (ukb_validate). A pattern that matches nothing is an error naming the
 * closest benchmarks. 0, or -1 with @e filled (the selection is then
 * empty). Release with ukb_selection_release() either way.
 */
int ukb_select(struct ukb_selection *sel, int npatterns, char **patterns, int default_suite,
	       const struct select_opts *so, int validate, struct ukb_err *e);

void ukb_selection_release(struct ukb_selection *sel);

/*
 * The values of @bench's parameters with -P @spec applied, into @out (one
 * per bench->params entry). Unknown names are errors only when
 * @must_know; out-of-range values always. 0, or -1 with @e filled.
 */
int params_resolve(const struct ukb_bench *bench, const char *spec, int must_know, long *out,
		   struct ukb_err *e);

/* "groups=10 loops=100" for the record; "" when the bench has none. */
void params_describe(const struct ukb_bench *bench, const long *values, char *buf, size_t len);

/* "1,4,16,4k,1m" into a 0-ended array (caller frees); -1 with @e filled. */
int parse_size_list(const char *opt, const char *arg, long **out, struct ukb_err *e);

#endif
