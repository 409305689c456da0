// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store-util.c - what the store's files share (store-backend.h).
 */
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "store-backend.h"

int store_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

int store_grow(void *arr, size_t *cap, size_t n, size_t size, size_t first)
{
	void **a = arr, *p;
	size_t want;

	if (n < *cap)
		return 0;
	want = *cap ? 2 * *cap : first;
	p = realloc(*a, want * size);
	if (!p)
		return -1;
	*a = p;
	*cap = want;
	return 0;
}

void store_keep_matching(struct rec_run *run, const char *name, const char *path)
{
	size_t k = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		struct rec_result *r = &run->results[i];

		if ((!name || !fnmatch(name, r->name, 0)) && (!path || !fnmatch(path, r->path, 0)))
			run->results[k++] = *r;
		else
			rec_result_release(r);
	}
	run->nresults = k;
}
