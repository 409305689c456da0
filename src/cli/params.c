// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * params.c - benchmark parameters from the command line (-P name=value).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static size_t count(const struct ukb_bench *b)
{
	size_t n = 0;

	while (b->params && b->params[n].name)
		n++;
	return n;
}

int params_resolve(const struct ukb_bench *b, const char *spec, int must_know, long *out)
{
	size_t n = count(b);

	for (size_t i = 0; i < n; i++)
		out[i] = b->params[i].def;
	for (const char *p = spec; p && *p;) {
		size_t len = strcspn(p, ","), klen = strcspn(p, "=");
		char key[64], *end;
		long long v;
		size_t i;

		if (klen >= len || klen >= sizeof(key)) {
			error("-P expects name=value, got '%.*s'", (int)len, p);
			return -1;
		}
		memcpy(key, p, klen);
		key[klen] = 0;
		for (i = 0; i < n && strcmp(b->params[i].name, key); i++)
			;
		if (i == n) {
			if (must_know) {
				error("%s has no parameter '%s'", b->name, key);
				if (n) {
					fprintf(stderr, "hint: its parameters are");
					for (size_t k = 0; k < n; k++)
						fprintf(stderr, "%s %s", k ? "," : "",
							b->params[k].name);
					fputc('\n', stderr);
				}
				return -1;
			}
			p += len + (p[len] == ',');
			continue;
		}
		errno = 0;
		v = strtoll(p + klen + 1, &end, 10);
		if (end == p + klen + 1 || end != p + len || errno) {
			error("-P %s expects a whole number, got '%.*s'", key,
			      (int)(len - klen - 1), p + klen + 1);
			return -1;
		}
		if (v < b->params[i].min || v > b->params[i].max) {
			error("-P %s=%lld is out of range for %s: %ld to %ld", key, v, b->name,
			      b->params[i].min, b->params[i].max);
			return -1;
		}
		out[i] = (long)v;
		p += len + (p[len] == ',');
	}
	return 0;
}

void params_describe(const struct ukb_bench *b, const long *values, char *buf, size_t len)
{
	size_t n = count(b), o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s=%ld", i ? " " : "", b->params[i].name,
				      values ? values[i] : b->params[i].def);
}
