// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * registry.c - the table of built-in benchmarks and its validation.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "registry.h"

#define DECLARE(n) extern const struct ukb_bench ukb_bench_##n;
UKB_BENCHMARKS(DECLARE)
#undef DECLARE

#define ENTRY(n) &ukb_bench_##n,
static const struct ukb_bench *const table[] = { UKB_BENCHMARKS(ENTRY) };
#undef ENTRY

const struct ukb_bench *const *ukb_registry(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}

const struct ukb_bench *ukb_registry_find(const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

const struct ukb_path *ukb_registry_path(const char *bench, const char *path,
					 const struct ukb_bench **b)
{
	*b = ukb_registry_find(bench);
	for (const struct ukb_path *p = *b ? (*b)->paths : NULL; p && p->name; p++)
		if (!strcmp(p->name, path))
			return p;
	return NULL;
}

static int validate_one(const struct ukb_bench *b, char *why, size_t len)
{
	if (!b->name || !b->name[0] || !strchr(b->name, '.')) {
		snprintf(why, len, "a benchmark has no family.name");
		return -EINVAL;
	}
	if (!b->summary || !b->paths || !b->paths[0].name) {
		snprintf(why, len, "benchmark '%s' has no summary or no path", b->name);
		return -EINVAL;
	}
	for (const struct ukb_path *p = b->paths; p->name; p++) {
		if (!p->run) {
			snprintf(why, len, "path '%s' of '%s' has no run()", p->name, b->name);
			return -EINVAL;
		}
		for (const struct ukb_path *q = p + 1; q->name; q++)
			if (!strcmp(p->name, q->name)) {
				snprintf(why, len, "'%s' has two paths named '%s'", b->name,
					 p->name);
				return -EINVAL;
			}
	}
	for (const struct ukb_variant *v = b->variants; v && v->name; v++)
		if (strchr(v->name, '.') || strchr(v->name, '/')) {
			snprintf(why, len, "variant '%s' of '%s' contains '.' or '/'", v->name,
				 b->name);
			return -EINVAL;
		}
	return 0;
}

int ukb_registry_validate(char *why, size_t len)
{
	size_t n;
	const struct ukb_bench *const *t = ukb_registry(&n);
	int err;

	for (size_t i = 0; i < n; i++) {
		err = validate_one(t[i], why, len);
		if (err)
			return err;
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(t[i]->name, t[j]->name)) {
				snprintf(why, len, "two benchmarks named '%s'", t[i]->name);
				return -EINVAL;
			}
	}
	return 0;
}
