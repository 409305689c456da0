// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util.c - messages and option values for the subcommands.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rows.h"
#include "strnum.h"
#include "width.h"

/*
 * A message of at most a screenful: a 100 KB value given as an option is
 * named by its start, not echoed whole.
 */
int fault_said;

/* What a machine's fault (no memory, a disk that failed or is full) reads as */
static int is_fault(const char *msg)
{
	static const char *const faults[] = { "out of memory", "disk I/O error",
					      "database or disk is full" };

	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		if (strstr(msg, faults[i]))
			return 1;
	return strstr(msg, strerror(ENOMEM)) || strstr(msg, strerror(EIO)) ||
	       strstr(msg, strerror(ENOSPC)) || strstr(msg, strerror(EDQUOT));
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char msg[2048], shown[8192];
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);

	if (is_fault(msg))
		fault_said = 1;
	fflush(stdout);
	/* a message may carry a label, a path or a server's words */
	fprintf(stderr, "%s%s%s\n", prefix, vis_lines(msg, shown, sizeof(shown)),
		n >= (int)sizeof(msg) ? "..." : "");
}

int use_color(FILE *f, enum color_when when)
{
	const char *no = getenv("NO_COLOR");

	if (when != COLOR_AUTO)
		return when == COLOR_ALWAYS;
	/* https://no-color.org: present and not empty turns colour off */
	if (no && no[0])
		return 0;
	return isatty(fileno(f));
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void error_hint(const struct ukb_err *e)
{
	char shown[4096];

	error("%s", e->msg);
	if (e->hint[0])
		fprintf(stderr, "hint: %s\n", vis_lines(e->hint, shown, sizeof(shown)));
}

int parse_double(const char *opt, const char *arg, double min, double max, double *out)
{
	double v;

	if (ukb_strtonum(arg, -INFINITY, INFINITY, &v)) {
		error("option '%s' expects a number, got '%.64s%s'", opt, arg,
		      strlen(arg) > 64 ? "..." : "");
		return -1;
	}
	if (v < min || v > max) {
		error("option '%s' must be between %g and %g, got '%.64s'", opt, min, max, arg);
		return -1;
	}
	*out = v;
	return 0;
}

int parse_uint(const char *opt, const char *arg, unsigned long min, unsigned long max,
	       unsigned long *out)
{
	unsigned long v;

	if (ukb_strtouint(arg, (unsigned long)-1, &v)) {
		error("option '%s' expects a whole number, got '%.64s%s'", opt, arg,
		      strlen(arg) > 64 ? "..." : "");
		return -1;
	}
	if (v < min || v > max) {
		error("option '%s' must be between %lu and %lu, got '%.64s'", opt, min, max, arg);
		return -1;
	}
	*out = v;
	return 0;
}
