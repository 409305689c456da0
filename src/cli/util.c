// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util.c - messages and option values for the subcommands.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

int parse_double(const char *opt, const char *arg, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !isfinite(v)) {
		error("option '%s' expects a number, got '%s'", opt, arg);
		return -1;
	}
	if (v < min || v > max) {
		error("option '%s' must be between %g and %g, got '%s'", opt, min, max, arg);
		return -1;
	}
	*out = v;
	return 0;
}

int parse_uint(const char *opt, const char *arg, unsigned long min, unsigned long max,
	       unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (end == arg || *end || errno || arg[0] == '-' || arg[0] == '+') {
		error("option '%s' expects a whole number, got '%s'", opt, arg);
		return -1;
	}
	if (v < min || v > max) {
		error("option '%s' must be between %lu and %lu, got '%s'", opt, min, max, arg);
		return -1;
	}
	*out = v;
	return 0;
}

int wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}

int parse_size_list(const char *opt, const char *arg, long **out)
{
	size_t n = 1;
	const char *p = arg;
	long *v;

	for (const char *c = arg; *c; c++)
		n += *c == ',';
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *end;
		long long x;

		errno = 0;
		x = strtoll(p, &end, 10);
		if (end == p || errno || x < 0) {
			error("option '%s' expects sizes like 64,4k,1m, got '%s'", opt, arg);
			free(v);
			return -1;
		}
		if (*end == 'k' || *end == 'K') {
			x *= 1024;
			end++;
		} else if (*end == 'm' || *end == 'M') {
			x *= 1024 * 1024;
			end++;
		}
		if ((*end && *end != ',') || x > LONG_MAX / 2) {
			error("option '%s' expects sizes like 64,4k,1m, got '%s'", opt, arg);
			free(v);
			return -1;
		}
		if (x == 0) {
			error("option '%s': a size of 0 bytes measures nothing", opt);
			free(v);
			return -1;
		}
		v[i] = (long)x;
		p = end + (*end == ',');
	}
	*out = v;
	return 0;
}

void tmp_template(char *buf, size_t len, const char *stem)
{
	const char *dir = getenv("TMPDIR");

	snprintf(buf, len, "%s/%s.XXXXXX", dir && *dir ? dir : "/tmp", stem);
}
