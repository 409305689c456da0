// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * params.c - benchmark parameters (-P name=value) and request sizes
 * (--size 64,4k,1m), read strictly: a whole number, in range, or an error
 * that names the value. Nothing prints; errors come back in a ukb_err.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"

static size_t count(const struct ukb_bench *b)
{
	size_t n = 0;

	while (b->params && b->params[n].name)
		n++;
	return n;
}

/* "its parameters are groups, loops" into @e->hint */
static void hint_names(const struct ukb_bench *b, size_t n, struct ukb_err *e)
{
	size_t o = (size_t)snprintf(e->hint, sizeof(e->hint), "its parameters are");

	for (size_t k = 0; k < n && o < sizeof(e->hint); k++)
		o += (size_t)snprintf(e->hint + o, sizeof(e->hint) - o, "%s %s", k ? "," : "",
				      b->params[k].name);
}

int params_resolve(const struct ukb_bench *b, const char *spec, int must_know, long *out,
		   struct ukb_err *e)
{
	size_t n = count(b);

	if (n > UKB_MAX_PARAMS) {
		snprintf(e->msg, sizeof(e->msg), "%s has more than %d parameters", b->name,
			 UKB_MAX_PARAMS);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		out[i] = b->params[i].def;
	for (const char *p = spec; p && *p;) {
		size_t len = strcspn(p, ","), klen = strcspn(p, "=");
		char key[64], *end;
		long long v;
		size_t i;

		if (klen >= len || klen >= sizeof(key)) {
			snprintf(e->msg, sizeof(e->msg), "-P expects name=value, got '%.*s'",
				 (int)(len < 64 ? len : 64), p);
			return -1;
		}
		memcpy(key, p, klen);
		key[klen] = 0;
		for (i = 0; i < n && strcmp(b->params[i].name, key); i++)
			;
		if (i == n) {
			if (must_know) {
				snprintf(e->msg, sizeof(e->msg), "%s has no parameter '%s'",
					 b->name, key);
				if (n)
					hint_names(b, n, e);
				return -1;
			}
			p += len + (p[len] == ',');
			continue;
		}
		errno = 0;
		v = strtoll(p + klen + 1, &end, 10);
		if (end == p + klen + 1 || end != p + len || errno || p[klen + 1] == ' ') {
			snprintf(e->msg, sizeof(e->msg), "-P %s expects a whole number, got '%.*s'",
				 key, (int)(len - klen - 1 < 64 ? len - klen - 1 : 64),
				 p + klen + 1);
			return -1;
		}
		if (v < b->params[i].min || v > b->params[i].max) {
			snprintf(e->msg, sizeof(e->msg),
				 "-P %s=%lld is out of range for %s: %ld to %ld", key, v, b->name,
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

int parse_size_list(const char *opt, const char *arg, long **out, struct ukb_err *e)
{
	size_t n = 1;
	const char *p = arg;
	long *v;

	e->msg[0] = e->hint[0] = '\0';
	for (const char *c = arg; *c; c++)
		n += *c == ',';
	v = calloc(n + 1, sizeof(*v));
	if (!v) {
		snprintf(e->msg, sizeof(e->msg), "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		char *end;
		long long x;

		errno = 0;
		x = *p >= '0' && *p <= '9' ? strtoll(p, &end, 10) : (end = (char *)p, 0);
		if (end == p || errno || x < 0)
			goto bad;
		if (*end == 'k' || *end == 'K') {
			if (x > LONG_MAX / 2 / 1024)
				goto bad;
			x *= 1024;
			end++;
		} else if (*end == 'm' || *end == 'M') {
			if (x > LONG_MAX / 2 / (1024 * 1024))
				goto bad;
			x *= 1024 * 1024;
			end++;
		}
		if ((*end && *end != ',') || x > LONG_MAX / 2)
			goto bad;
		if (x == 0) {
			snprintf(e->msg, sizeof(e->msg),
				 "option '%s': a size of 0 bytes measures nothing", opt);
			free(v);
			return -1;
		}
		v[i] = (long)x;
		p = end + (*end == ',');
	}
	*out = v;
	return 0;
bad:
	snprintf(e->msg, sizeof(e->msg), "option '%s' expects sizes like 64,4k,1m, got '%.*s'", opt,
		 (int)(strlen(arg) < 64 ? strlen(arg) : 64), arg);
	free(v);
	return -1;
}
