/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kcidb.h - results as a KCIDB I/O document (schema v5.3, the database
 * KernelCI and the CI systems around it submit to): a checkout (the kernel
 * source), a build (the kernel built from it) and a test per path, its
 * figure a number in seconds. What ukbench does not know is left out.
 */
#ifndef UKB_OUTPUT_KCIDB_H
#define UKB_OUTPUT_KCIDB_H

#include <stdio.h>

#include "record.h"

#define KCIDB_ORIGIN "ukbench"
#define KCIDB_MAJOR  5
#define KCIDB_MINOR  3

/* --kcidb-origin and --kcidb-checkout */
struct kcidb_ids {
	const char *origin;   /* NULL: KCIDB_ORIGIN */
	const char *checkout; /* NULL: the kernel release (a 40-hex id is its commit too) */
};

/* What a test ran on; NULL or "": not known. */
struct kcidb_src {
	const char *kernel_release, *kernel_version, *machine;
	const char *image; /* the kernel image `ukbench vm` booted */
	const char *host;
	const char *environment; /* a JSON object's text: the test environment's misc */
};

struct kcidb_test {
	const struct kcidb_src *src;
	char id[192];		 /* after "ORIGIN:", unique among the origin's tests */
	const char *name, *path; /* ukbench's; the test's path is ukbench.NAME.PATH */
	const char *started;	 /* UTC, ISO 8601 */
	const char *status;	 /* FAIL, ERROR, PASS, DONE, SKIP */
	char *comment;		 /* or NULL; freed by kcidb_tests_free() */
	double seconds;		 /* the figure a call; NAN: none */
	const char *unit;	 /* what the figure is per: NULL or "call", "byte" */
	char *misc;		 /* a JSON object's text, or NULL; freed by kcidb_tests_free() */
};

/* Is @s an origin KCIDB takes (^[a-z0-9_]+$)? */
int kcidb_origin_ok(const char *s);

/* The document of @t[0..n) to @f: its checkouts and builds once each. 0, or -1. */
int kcidb_print(FILE *f, const struct kcidb_ids *ids, const struct kcidb_test *t, size_t n);

void kcidb_tests_free(struct kcidb_test *t, size_t n);

/* What a run ran on, from its record: valid while @run lives. */
void kcidb_src_of(const struct rec_run *run, struct kcidb_src *src);

/* A member that KCIDB takes: a figure not known (NAN) is left out, never null. */
struct jw;
void kcidb_num(struct jw *w, const char *key, double v);

/* A run: a test a path, DONE with its figure, SKIP or ERROR with why. */
int kcidb_run_print(FILE *f, const struct kcidb_ids *ids, const struct rec_run *run);

#endif
