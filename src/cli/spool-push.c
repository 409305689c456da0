// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * spool-push.c - a run saved, in run, exec and vm alike, and what follows
 * a run saved into a fleet's spool (import too): the spool pushed to its
 * server, and said so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "spool-push.h"
#include "store.h"
#include "width.h"

const char *stored_as(const struct rec_run *run, char *buf, size_t len)
{
	char lv[300];

	snprintf(buf, len, "run #%lld%s%s%s", (long long)run->id, run->label[0] ? " '" : "",
		 vis(run->label, lv, sizeof(lv)), run->label[0] ? "'" : "");
	return buf;
}

int save_and_say(struct store *st, struct rec_run *run, FILE *out, const char *path, int quiet)
{
	char err[1024], as[400];

	if (store_save(st, run, err, sizeof(err)))
		return error("%s", err);
	if (out)
		fprintf(out, "stored as %s in %s\n", stored_as(run, as, sizeof(as)),
			store_target(st)[0] ? store_where(st) : path);
	/* a fleet's spool: pushed now, or kept for later (a warning says so) */
	if (out)
		fflush(out);
	push_after_save(st, quiet);
	return 0;
}

void say_pushed(const struct push_stats *ps, const char *target)
{
	if (ps->pushed || ps->already)
		printf("pushed %zu run%s to %s%s\n", ps->pushed + ps->already,
		       ps->pushed + ps->already == 1 ? "" : "s", target ? target : "its server",
		       ps->already ? " (the server had some already: not stored twice)" : "");
}

unsigned push_flags(int samples)
{
	const char *e = getenv("UKBENCH_PUSH_SAMPLES");

	return samples || (e && *e && strcmp(e, "0")) ? STORE_PUSH_SAMPLES : 0;
}

int push_after_save(struct store *st, int quiet)
{
	const char *target = store_target(st);
	struct push_stats ps;
	char err[1024];

	if (!target[0])
		return 0;
	if (store_push(st, target, push_flags(0), &ps, err, sizeof(err))) {
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
