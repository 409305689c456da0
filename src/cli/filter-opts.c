// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * filter-opts.c - the options that choose stored runs: --since and --until read.
 */
#include <string.h>

#include "cli.h"
#include "filter-opts.h"

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
			return 1;
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
