// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-fleet-prune.c - `ukbench fleet-prune --before DATE`: retention on a
 * fleet's server. The runs started before DATE lose their detail (their
 * document: processes, counters, descriptions; their processes' means)
 * and keep the figures history draws, in one transaction; the labels a
 * lab keeps whole (releases, baselines) are spared with --keep-labels.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "filter-opts.h"
#include "options.h"
#include "store.h"

struct prune_opts {
	const char *db, *before, *keep;
	int dry;
};

static const struct opt prune_opts_table[] = {
	OPT_STRING(
	    "db", 0, "TARGET",
	    "the server: postgresql://HOST/DB?..., or postgres:SERVICE\n(default: $UKBENCH_DB)",
	    struct prune_opts, db),
	PRUNE_OPTS(struct prune_opts),
	OPT_END,
};

const struct command cmd_fleet_prune_def = {
	.name = "fleet-prune",
	.fn = cmd_fleet_prune,
	.summary = "drop old runs' detail on a fleet's server; keep their history",
	.synopsis = "--db TARGET --before DATE [--keep-labels GLOB]\n"
		    "                           [--dry-run]",
	.about = "Keeps a fleet's server bounded over the years. The runs started before\n"
		 "DATE lose their detail (the run's document: every process's figures,\n"
		 "counters and descriptions), in one transaction; each keeps its row, its\n"
		 "results' figures and its processes' means and references, so 'ukbench\n"
		 "history' draws them as before, the floor learns from them as before, and\n"
		 "'runs --wide' lists them marked pruned, while 'show' and 'compare' of one\n"
		 "say it was pruned (a local store's 'prune' keeps the same).\n"
		 "Runs already pruned are left as they are. It runs as the writer role\n"
		 "(fleet-init --writer) or the owner; the reader is refused. The space is\n"
		 "reused as the server vacuums.",
	.opts = prune_opts_table,
	.footer = "examples:\n"
		  "  ukbench fleet-prune --before 2026-01-01 --dry-run\n"
		  "  ukbench fleet-prune --db postgresql://lab.example/ukbench \\\n"
		  "      --before 2026-01-01 --keep-labels 'v6.*'\n",
};

int cmd_fleet_prune(int argc, char **argv)
{
	struct prune_opts o = { 0 };
	char err[1024], conninfo[2048];
	long long pruned = 0, kept = 0;
	int first, ret;

	ret = opts_parse(&cmd_fleet_prune_def, argc, argv, 0, NULL, &o, &first);
	if (ret)
		return ret > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (!o.db)
		o.db = getenv("UKBENCH_DB");
	if (first < argc || !o.db || !store_is_fleet(o.db) || !o.before || (o.keep && !o.keep[0])) {
		error("'ukbench fleet-prune' needs --db TARGET (or UKBENCH_DB) naming a server "
		      "(postgresql://HOST/DB, or postgres:SERVICE), --before DATE, and a "
		      "--keep-labels glob that is not empty; see 'ukbench fleet-prune --help'");
		return UKB_EXIT_USAGE;
	}
	if (store_fleet_conninfo(o.db, conninfo, sizeof(conninfo), err, sizeof(err))) {
		error("%s", err);
		return UKB_EXIT_USAGE;
	}
	if (store_fleet_prune(o.db, o.before, o.keep, o.dry, &pruned, &kept, err, sizeof(err))) {
		error("%s", err);
		return UKB_EXIT_FAIL;
	}
	printf("%s %lld run%s started before %s", o.dry ? "would prune" : "pruned", pruned,
	       pruned == 1 ? "" : "s", o.before);
	if (o.keep)
		printf("; kept whole %lld labelled '%s'", kept, o.keep);
	printf("\n");
	if (pruned && !o.dry)
		printf("history keeps their figures; their detail is gone\n");
	return UKB_EXIT_OK;
}
