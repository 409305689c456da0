// SPDX-License-Identifier: GPL-2.0-or-later
/* kcidb-opts.c - the values of --kcidb-origin and --kcidb-checkout, checked. */
#include <string.h>

#include "cli.h"
#include "kcidb-opts.h"

int kcidb_parse_origin(const struct opt *o, const char *arg, void *member)
{
	if (!kcidb_origin_ok(arg)) {
		error("--%s '%s': KCIDB takes an origin of lower-case letters, digits and '_'",
		      o->name, arg);
		return -1;
	}
	*(const char **)member = arg;
	return 0;
}

int kcidb_parse_checkout(const struct opt *o, const char *arg, void *member)
{
	if (!*arg || strpbrk(arg, "\n\r")) {
		error("--%s: an id of one line, not empty", o->name);
		return -1;
	}
	*(const char **)member = arg;
	return 0;
}
