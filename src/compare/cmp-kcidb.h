/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmp-kcidb.h - the comparisons of one `compare` as one KCIDB document:
 * a test a path of each other run, its status the verdict (cmp-kcidb.c).
 */
#ifndef UKB_COMPARE_CMP_KCIDB_H
#define UKB_COMPARE_CMP_KCIDB_H

#include <stdio.h>

#include "cmp-formats.h"
#include "kcidb.h"

struct cmp_kcidb_side {
	struct kcidb_src *src;
};

struct cmp_kcidb {
	struct kcidb_test *t;
	size_t n;
	struct cmp_kcidb_side *sides;
	size_t nsides;
};

/* Adds the rows of one comparison (@b against @a); the runs must outlive @k. 0, or -1. */
int cmp_kcidb_add(struct cmp_kcidb *k, const struct cmp_side *a, const struct cmp_side *b,
		  const struct cmp_row *rows, size_t n, const struct cmp_opts *o);
int cmp_kcidb_print(FILE *f, const struct kcidb_ids *ids, const struct cmp_kcidb *k);
void cmp_kcidb_release(struct cmp_kcidb *k);

#endif
