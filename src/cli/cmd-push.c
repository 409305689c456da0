// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-push.c - `ukbench push [--status]`: the runs of this machine's spool
 * sent to the fleet's server, each exactly once; and what waits. `run`,
 * `import` and `exec` push the same way after they store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "spool-push.h"
#include "options.h"
#include "rows.h"
#include "runref.h"
#include "store.h"

struct push_opts {
	const char *db, *spool;
	int status, samples;
	enum rows_fmt fmt;
};

static const struct opt push_opts_table[] = {
	OPT_BOOL("status", 0, "say what waits to be pushed, and what was; send nothing",
		 struct push_opts, status),
	OPT_BOOL("samples", 0,
		 "send each run whole, every batch's sample with it (also\n"
		 "UKBENCH_PUSH_SAMPLES=1); else the server keeps a summary",
		 struct push_opts, samples),
	OPT_STRING(
	    "db", 0, "TARGET",
	    "push only the runs waiting for this server (default:\nUKBENCH_DB when it names one, "
	    "else every server)",
	    struct push_opts, db),
	OPT_STRING("spool", 0, "PATH", "the spool (default: UKBENCH_SPOOL, else the local store)",
		   struct push_opts, spool),
	OPT_CHOICE("format", 'f', ROWS_FORMATS, "--status as table (default), json or csv",
		   struct push_opts, fmt),
	OPT_END,
};

const struct command cmd_push_def = {
	.name = "push",
	.fn = cmd_push,
	.summary = "send the runs waiting in the spool to the fleet's server",
	.synopsis = "[options]",
	.about = "With a fleet's server as the database (--db or UKBENCH_DB:\n"
		 "postgresql://HOST/DB?sslmode=..., or postgres:SERVICE), run, import and exec\n"
		 "store each run first in this machine's own SQLite store, the spool, then push\n"
		 "it. A run that could not be pushed (the server unreachable, refusing, or gone\n"
		 "in the middle) stays in the spool; push sends it, or the next run does.\n"
		 "Each run is sent in one transaction under its UUID, and the server keeps a\n"
		 "UUID once: a run is never lost and never stored twice.\n"
		 "\n"
		 "The server keeps a summary of each run: every figure, process mean and\n"
		 "counter that compare, history, show and report read, without the batches'\n"
		 "samples of a path measured in processes (about a fifth of the bytes); the\n"
		 "spool keeps the samples. --samples sends the runs whole.\n"
		 "\n"
		 "Credentials come only from libpq's own places: ~/.pgpass (or PGPASSFILE),\n"
		 "pg_service.conf (PGSERVICEFILE), PGPASSWORD. A password in the URI is refused.",
	.opts = push_opts_table,
	.footer = "examples:\n"
		  "  UKBENCH_DB=postgresql://lab.example/ukbench ukbench run\n"
		  "  ukbench push --status\n"
		  "  ukbench push\n"
		  "  ukbench push --samples\n",
};

static int status(struct store *st, const struct push_opts *o, const char *target)
{
	static const char *const keys[] = { "run",   "uuid",  "label",	    "started", "target",
					    "since", "tries", "last_error", NULL };
	struct store_pending *p;
	size_t n, pushed;
	char err[1024];

	if (store_pending_list(st, target, &p, &n, err, sizeof(err)) ||
	    store_pushed_count(st, target, &pushed, err, sizeof(err))) {
		error("%s", err);
		return UKB_EXIT_FAIL;
	}
	if (o->fmt != ROWS_TABLE) {
		struct rows r;
		int ret;

		rows_begin(&r, stdout, o->fmt, keys);
		for (size_t i = 0; i < n; i++) {
			rows_int(&r, p[i].id);
			rows_str(&r, p[i].uuid);
			rows_str(&r, p[i].label[0] ? p[i].label : NULL);
			rows_str(&r, p[i].started);
			rows_str(&r, p[i].target);
			rows_str(&r, p[i].since);
			rows_int(&r, p[i].tries);
			rows_str(&r, p[i].last_error[0] ? p[i].last_error : NULL);
		}
		ret = rows_end(&r) ? UKB_EXIT_FAIL : UKB_EXIT_OK;
		free(p);
		return ret;
	}
	printf("spool %s: %zu run%s waiting, %zu pushed%s%s\n", store_where(st), n,
	       n == 1 ? "" : "s", pushed, target ? " to " : "", target ? target : "");
	for (size_t i = 0; i < n; i++) {
		printf("  #%lld %s %s%s%s for %s, since %s", (long long)p[i].id, p[i].started,
		       p[i].label[0] ? "'" : "", p[i].label, p[i].label[0] ? "' " : "", p[i].target,
		       p[i].since);
		if (p[i].tries)
			printf(", %u tr%s: %s", p[i].tries, p[i].tries == 1 ? "y" : "ies",
			       p[i].last_error);
		printf("\n");
	}
	free(p);
	return UKB_EXIT_OK;
}

int cmd_push(int argc, char **argv)
{
	struct push_opts o = { 0 };
	struct push_stats ps;
	struct store *st = NULL;
	const char *target = NULL, *env = getenv("UKBENCH_DB");
	char spool[4096] = "", err[1024];
	int first, ret;

	ret = opts_parse(&cmd_push_def, argc, argv, 0, NULL, &o, &first);
	if (ret)
		return ret > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (first < argc) {
		error("'ukbench push' takes no operand ('%s'); see 'ukbench push --help'",
		      argv[first]);
		return UKB_EXIT_USAGE;
	}
	if (o.db && !store_is_fleet(o.db)) {
		error("--db %s names no fleet server: postgresql://HOST/DB, or postgres:SERVICE",
		      o.db);
		return UKB_EXIT_USAGE;
	}
	target = o.db ? o.db : store_is_fleet(env) ? env : NULL;
	if (target && store_fleet_conninfo(target, spool, sizeof(spool), err, sizeof(err))) {
		error("%s", err);
		return UKB_EXIT_USAGE;
	}
	if (o.spool)
		snprintf(spool, sizeof(spool), "%s", o.spool);
	else if (store_spool_path(spool, sizeof(spool), err, sizeof(err))) {
		error("%s", err);
		return UKB_EXIT_USAGE;
	}
	ret = store_open_reader(spool, &st, err, sizeof(err));
	if (ret) {
		if (ret > 0) {
			printf("spool %s: empty: nothing was ever stored here\n", spool);
			return UKB_EXIT_OK;
		}
		error("%s", err);
		return UKB_EXIT_USAGE;
	}
	if (o.status) {
		ret = status(st, &o, target);
		store_close(st);
		return ret;
	}
	/* pushing writes the spool: open it to write */
	store_close(st);
	if (store_open(spool, &st, err, sizeof(err))) {
		error("%s", err);
		return UKB_EXIT_FAIL;
	}
	ret = UKB_EXIT_OK;
	if (store_push(st, target, push_flags(o.samples), &ps, err, sizeof(err))) {
		say_pushed(&ps, target);
		error("%zu run%s not pushed: %s; %s wait%s in %s ('ukbench push --status')",
		      ps.failed, ps.failed == 1 ? "" : "s", err, ps.failed == 1 ? "it" : "they",
		      ps.failed == 1 ? "s" : "", spool);
		ret = UKB_EXIT_FAIL;
	} else if (!ps.pushed && !ps.already) {
		printf("nothing waits in %s%s%s\n", spool, target ? " for " : "",
		       target ? target : "");
	} else {
		say_pushed(&ps, target);
	}
	store_close(st);
	return ret;
}
