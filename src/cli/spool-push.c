// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * spool-push.c - what follows a run saved into a fleet's spool, in run,
 * exec and import alike: the spool pushed to its server, and said so.
 */
#include <stdio.h>

#include "cli.h"
#include "spool-push.h"
#include "store.h"

void say_pushed(const struct push_stats *ps, const char *target)
{
	if (ps->pushed || ps->already)
		printf("pushed %zu run%s to %s%s\n", ps->pushed + ps->already,
		       ps->pushed + ps->already == 1 ? "" : "s", target ? target : "its server",
		       ps->already ? " (the server had some already: not stored twice)" : "");
}

int push_after_save(struct store *st, int quiet)
{
	const char *target = store_target(st);
	struct push_stats ps;
	char err[1024];

	if (!target[0])
		return 0;
	if (store_push(st, target, &ps, err, sizeof(err))) {
		warning("not pushed to %s: %s; %zu run%s wait%s in the spool %s: 'ukbench push' "
			"sends them",
			target, err, ps.failed, ps.failed == 1 ? "" : "s",
			ps.failed == 1 ? "s" : "", store_where(st));
		return -1;
	}
	if (!quiet)
		say_pushed(&ps, target);
	return 0;
}
