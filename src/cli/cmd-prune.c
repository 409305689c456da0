// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-prune.c - `ukbench prune --before DATE`: retention on the local
 * store. The runs started before DATE lose their batches' samples and are
 * kept as their summaries, what a fleet's server keeps, so that compare,
 * history, show and report read them as before (store_prune()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cli.h"
#include "filter-opts.h"
#include "options.h"
#include "store.h"

struct prune_opts {
	const char *db, *before, *keep;
	int dry;
};

static const struct opt prune_opts_table[] = {
	OPT_STRING("db", 0, "PATH", "the results database (default: $UKBENCH_DB, else the user's)",
		   struct prune_opts, db),
	PRUNE_OPTS(struct prune_opts),
	OPT_END,
};

const struct command cmd_prune_def = {
	.name = "prune",
	.fn = cmd_prune,
	.summary = "drop old runs' samples from the local store; keep their figures",
	.synopsis = "--before DATE [--keep-labels GLOB] [--dry-run] [--db PATH]",
	.about = "Keeps the local store bounded over the years. The runs started before DATE\n"
		 "lose their batches' samples (about four fifths of a run: 'runs --size'\n"
		 "says how large the store is) and are kept as their summaries, each run in\n"
		 "one transaction: every figure, every process's mean and reference, the\n"
		 "counters per call, the descriptions, what a fleet's server keeps. A run's\n"
		 "figures, a comparison and a history are those made before it was pruned\n"
		 "(runs of a label shown pooled no longer pool their batches' median and\n"
		 "SD, as from a fleet's server); a path measured in one process keeps its\n"
		 "samples in the summary. Runs still waiting to be pushed are spared, and\n"
		 "so are those whose label matches --keep-labels. The space freed is reused\n"
		 "by the runs to come. A fleet's server is pruned with 'ukbench fleet-prune'.",
	.opts = prune_opts_table,
	.footer = "examples:\n"
		  "  ukbench prune --before 2026-01-01 --dry-run\n"
		  "  ukbench prune --before 2026-06-01 --keep-labels 'v6.*'\n",
};

int cmd_prune(int argc, char **argv)
{
	struct prune_opts o = { 0 };
	struct store_pruned p;
	struct store *st;
	struct stat sb;
	char err[1024], path[4096];
	int first, ret;

	ret = opts_parse(&cmd_prune_def, argc, argv, 0, NULL, &o, &first);
	if (ret)
		return ret > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (first < argc || !o.before || (o.keep && !o.keep[0])) {
		error("'ukbench prune' needs --before DATE, and a --keep-labels glob that is not "
		      "empty; see 'ukbench prune --help'");
		return UKB_EXIT_USAGE;
	}
	if (store_default_path(o.db, path, sizeof(path), err, sizeof(err))) {
		error("%s", err);
		return UKB_EXIT_USAGE;
	}
	if (store_is_fleet(path)) {
		error("'%s' is a fleet's server: 'ukbench fleet-prune' prunes it", path);
		return UKB_EXIT_USAGE;
	}
	if (stat(path, &sb)) {
		error("no store at %s: nothing to prune", path);
		return UKB_EXIT_USAGE;
	}
	if (store_open(path, &st, err, sizeof(err))) {
		error("%s", err);
		return UKB_EXIT_FAIL;
	}
	ret = store_prune(st, o.before, o.keep, o.dry, &p, err, sizeof(err));
	store_close(st);
	if (ret) {
		error("%s (%lld run%s pruned before it, each whole)", err, p.runs,
		      p.runs == 1 ? "" : "s");
		return UKB_EXIT_FAIL;
	}
	printf("%s %lld run%s started before %s (%lld samples)", o.dry ? "would prune" : "pruned",
	       p.runs, p.runs == 1 ? "" : "s", o.before, p.samples);
	if (o.keep)
		printf("; kept whole %lld labelled '%s'", p.kept, o.keep);
	if (p.waiting)
		printf("; kept whole %lld waiting to be pushed", p.waiting);
	printf("\n");
	if (p.runs && !o.dry && p.freed >= 0)
		printf("kept as their summaries; %lld KiB free in %s for the runs to come\n",
		       p.freed / 1024, path);
	return UKB_EXIT_OK;
}
