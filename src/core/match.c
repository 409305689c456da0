// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * match.c - names matched by patterns, and how far apart two words are
 * (see match.h).
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"

static int prefix_at_dot(const char *prefix, const char *name)
{
	size_t n = strlen(prefix);

	return n && !strncmp(prefix, name, n) && name[n] == '.';
}

/* A plain word (no dot, no glob) that is one of the dotted parts of @name. */
static int word_of(const char *word, const char *name)
{
	size_t n = strlen(word);

	if (!n || strpbrk(word, ".*?[]"))
		return 0;
	for (const char *p = name; p; p = strchr(p, '.'), p = p ? p + 1 : NULL)
		if (!strncmp(p, word, n) && (p[n] == '.' || !p[n]))
			return 1;
	return 0;
}

int ukb_name_matches(const char *pat, const char *name, const char *benchmark)
{
	return !fnmatch(pat, name, 0) || (benchmark && !fnmatch(pat, benchmark, 0)) ||
	       prefix_at_dot(pat, name) || word_of(pat, name);
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
	return !n[0] || ukb_name_matches(n, name, benchmark);
}

/*
 * The optimal string alignment distance: insertions, deletions,
 * substitutions and swaps of two neighbours ("rnu" is one edit from "run"),
 * over three rows of the matrix.
 */
size_t ukb_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), *mem, best;

	mem = malloc(3 * (lb + 1) * sizeof(*mem));
	if (!mem)
		return (size_t)-1;
	size_t *prev2 = mem, *prev = mem + lb + 1, *row = mem + 2 * (lb + 1);

	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t v = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			row[j] = v;
		}
		size_t *t = prev2;

		prev2 = prev;
		prev = row;
		row = t;
	}
	best = prev[lb];
	free(mem);
	return best;
}
