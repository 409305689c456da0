// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * filter-opts.c - the options that choose stored runs: --since and --until read.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "filter-opts.h"

/*
 * The fields of a form date_ok() matched are a day and a time that exist:
 * the store compares times as text, so 2026-13-01 would be read as a time
 * after every day of 2026 (and --before would prune them all).
 */
static int in_calendar(const char *s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);

	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return 0;
	if (m == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400)))
		return 0;
	if (s[10] == 'T' &&
	    (atoi(s + 11) > 23 || atoi(s + 14) > 59 || (s[16] == ':' && atoi(s + 17) > 60)))
		return 0;
	return 1;
}

/* YYYY-MM-DD, optionally THH:MM[:SS]Z: the form the store keeps times in. */
static int date_ok(const char *s)
{
	static const char *const forms[] = { "dddd-dd-dd", "dddd-dd-ddTdd:ddZ",
					     "dddd-dd-ddTdd:dd:ddZ", NULL };

	for (int k = 0; forms[k]; k++) {
		const char *f = forms[k], *p = s;

		while (*f && *p && (*f == 'd' ? (*p >= '0' && *p <= '9') : *f == *p)) {
			f++;
			p++;
		}
		if (!*f && !*p)
			return in_calendar(s);
	}
	return 0;
}

int filter_parse_date(const struct opt *o, const char *arg, void *member)
{
	if (!date_ok(arg)) {
		error("--%s '%s' is not a date: YYYY-MM-DD, or a UTC time YYYY-MM-DDTHH:MM:SSZ",
		      o->name, arg);
		return -1;
	}
	*(const char **)member = arg;
	return 0;
}

int filter_given(const struct store_filter *f)
{
	return f->label || f->host || f->kernel || f->since || f->until;
}
