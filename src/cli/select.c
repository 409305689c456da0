// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * select.c - from command-line patterns to the benchmark paths to run.
 *
 * A pattern is NAME or NAME/PATH. NAME is a shell glob matched against
 * the full name (time.clock_gettime.monotonic) and the benchmark's name
 * (time.clock_gettime), or a dotted prefix of them ("time" selects the
 * family). PATH is a glob on the path name (vdso, libc, syscall).
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "measure.h"
#include "registry.h"

static int prefix_at_dot(const char *prefix, const char *name)
{
	size_t n = strlen(prefix);

	return n && !strncmp(prefix, name, n) && name[n] == '.';
}

static int name_matches(const char *pat, const struct ukb_bench *b, const char *full)
{
	return !fnmatch(pat, full, 0) || !fnmatch(pat, b->name, 0) || prefix_at_dot(pat, full);
}

int pattern_matches(const char *pattern, const char *name, const char *benchmark, const char *path)
{
	char n[256], *slash;
	const char *p = NULL;

	snprintf(n, sizeof(n), "%s", pattern);
	slash = strrchr(n, '/');
	if (slash) {
		*slash = 0;
		p = slash + 1;
	}
	if (p && fnmatch(p, path, 0))
		return 0;
	if (!n[0])
		return 1;
	return !fnmatch(n, name, 0) || (benchmark && !fnmatch(n, benchmark, 0)) ||
	       prefix_at_dot(n, name);
}

static size_t levenshtein(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), *row, best;

	row = malloc((lb + 1) * sizeof(*row));
	if (!row)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], cost = a[i - 1] != b[j - 1];
			size_t v = diag + cost;

			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			diag = up;
			row[j] = v;
		}
	}
	best = row[lb];
	free(row);
	return best;
}

/* Prints up to three names closest to @pat, or a pointer to `list`. */
static void suggest(const char *pat)
{
	struct {
		char name[128];
		size_t d;
	} best[3];
	size_t nb = 0, n, limit = strlen(pat) / 2 > 3 ? strlen(pat) / 2 : 3;
	const struct ukb_bench *const *t = ukb_registry(&n);

	for (size_t i = 0; i < n; i++) {
		size_t nv = ukb_bench_variant_count(t[i]);

		for (size_t k = 0; k < (nv ? nv : 1); k++) {
			char full[128];
			size_t d;

			ukb_bench_fullname(t[i], nv ? &t[i]->variants[k] : NULL, full,
					   sizeof(full));
			d = strstr(full, pat) ? 0 : levenshtein(pat, full);
			if (d > limit)
				continue;
			/* keep the three smallest distances, stable */
			size_t at = nb;

			while (at > 0 && best[at - 1].d > d)
				at--;
			if (at >= 3)
				continue;
			if (nb < 3)
				nb++;
			memmove(&best[at + 1], &best[at], (nb - 1 - at) * sizeof(best[0]));
			snprintf(best[at].name, sizeof(best[at].name), "%s", full);
			best[at].d = d;
		}
	}
	if (!nb) {
		fprintf(stderr, "hint: 'ukbench list' shows every benchmark\n");
		return;
	}
	fprintf(stderr, "hint: the closest %s:", nb > 1 ? "are" : "is");
	for (size_t i = 0; i < nb; i++)
		fprintf(stderr, "%s %s", i ? "," : "", best[i].name);
	fputc('\n', stderr);
}

static int add_case(struct ukb_case **out, size_t *n, size_t *cap, const struct ukb_bench *b,
		    const struct ukb_variant *v, const struct ukb_path *p)
{
	for (size_t i = 0; i < *n; i++)
		if ((*out)[i].bench == b && (*out)[i].variant == v && (*out)[i].path == p)
			return 0;
	if (*n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 64;
		struct ukb_case *c = realloc(*out, ncap * sizeof(*c));

		if (!c) {
			error("out of memory");
			return -1;
		}
		*out = c;
		*cap = ncap;
	}
	(*out)[*n].bench = b;
	(*out)[*n].variant = v;
	(*out)[*n].path = p;
	ukb_bench_fullname(b, v, (*out)[*n].name, sizeof((*out)[*n].name));
	(*n)++;
	return 0;
}

/* Adds what @pat selects (NULL: everything, or the default suite). */
static int expand(const char *pat, int default_suite, struct ukb_case **out, size_t *n, size_t *cap)
{
	char name[256], *slash;
	const char *ppat = NULL;
	size_t nb, before = *n;
	const struct ukb_bench *const *t = ukb_registry(&nb);
	int name_hit = 0;

	if (pat) {
		snprintf(name, sizeof(name), "%s", pat);
		slash = strrchr(name, '/');
		if (slash) {
			*slash = 0;
			ppat = slash + 1;
		}
	}
	for (size_t i = 0; i < nb; i++) {
		size_t nv = ukb_bench_variant_count(t[i]);

		if (!pat && default_suite && !(t[i]->flags & UKB_DEFAULT))
			continue;
		for (size_t k = 0; k < (nv ? nv : 1); k++) {
			const struct ukb_variant *var = nv ? &t[i]->variants[k] : NULL;
			char full[128];

			ukb_bench_fullname(t[i], var, full, sizeof(full));
			if (pat && !name_matches(name[0] ? name : "*", t[i], full))
				continue;
			name_hit = 1;
			for (const struct ukb_path *p = t[i]->paths; p->name; p++)
				if (!ppat || !fnmatch(ppat, p->name, 0))
					if (add_case(out, n, cap, t[i], var, p))
						return -1;
		}
	}
	if (*n == before && pat) {
		if (name_hit)
			error("no path matches '%s' in the benchmarks named by '%s'", ppat, pat);
		else
			error("no benchmark matches '%s'", pat);
		if (!name_hit)
			suggest(name);
		else
			fprintf(stderr, "hint: paths are vdso, libc, syscall, or the "
					"benchmark's own; 'ukbench list' shows them\n");
		return -1;
	}
	return 0;
}

int select_cases(int npatterns, char **patterns, int default_suite, struct ukb_case **out,
		 size_t *n)
{
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (!npatterns)
		return expand(NULL, default_suite, out, n, &cap);
	for (int i = 0; i < npatterns; i++) {
		if (expand(patterns[i], 0, out, n, &cap)) {
			free(*out);
			*out = NULL;
			*n = 0;
			return -1;
		}
	}
	return 0;
}
