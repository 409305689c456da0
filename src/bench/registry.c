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

#define NBUILTIN (sizeof(table) / sizeof(table[0]))

/* the built-ins, then what plug-ins added (ukb_registry_add()) */
static const struct ukb_bench *all[NBUILTIN + UKB_REGISTRY_ADDED_MAX];
static size_t nall;

const struct ukb_bench *const *ukb_registry(size_t *n)
{
	if (!nall) {
		memcpy(all, table, sizeof(table));
		nall = NBUILTIN;
	}
	*n = nall;
	return all;
}

const struct ukb_bench *ukb_registry_find(const char *name)
{
	size_t n;
	const struct ukb_bench *const *t = ukb_registry(&n);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i]->name, name))
			return t[i];
	return NULL;
}

int ukb_registry_is_builtin(const struct ukb_bench *b)
{
	for (size_t i = 0; i < NBUILTIN; i++)
		if (table[i] == b)
			return 1;
	return 0;
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

/* Is @a the name of a benchmark, or of its variants' cases, that @b would take? */
static int clash(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	return !strcmp(a, b) || (la < lb && !strncmp(a, b, la) && b[la] == '.') ||
	       (lb < la && !strncmp(a, b, lb) && a[lb] == '.');
}

int ukb_registry_add(const struct ukb_bench *b, char *why, size_t len)
{
	size_t n;
	const struct ukb_bench *const *t = ukb_registry(&n);
	int err = validate_one(b, why, len);

	if (err)
		return err;
	for (size_t i = 0; i < n; i++)
		if (clash(t[i]->name, b->name)) {
			snprintf(why, len, "'%s' is taken: %s '%s' has it", b->name,
				 ukb_registry_is_builtin(t[i]) ? "the built-in" : "the plug-in's",
				 t[i]->name);
			return -EEXIST;
		}
	if (n == NBUILTIN + UKB_REGISTRY_ADDED_MAX) {
		snprintf(why, len, "more than %d benchmarks from plug-ins", UKB_REGISTRY_ADDED_MAX);
		return -ENOSPC;
	}
	all[nall++] = b;
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
