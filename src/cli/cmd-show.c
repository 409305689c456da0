// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-show.c - `ukbench show RUN`: a stored run (or a JSON file) printed
 * again, in any output format.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cmp-floor.h"
#include "width.h"
#include "kcidb-opts.h"
#include "options.h"
#include "output.h"
#include "run-notes.h"
#include "runref.h"

struct show_opts {
	enum out_format fmt;
	const char *db;
	int wide;
	struct kcidb_ids kcidb;
};

static const struct opt show_opts[] = {
	OPT_CHOICE(
	    "format", 'f', OUT_FORMATS,
	    "table (default), json (every sample the store has), csv, ktap,\ngbench, lava or kcidb",
	    struct show_opts, fmt),
	KCIDB_OPTS(struct show_opts, kcidb),
	OPT_BOOL("wide", 'W', "the table with every column, however wide", struct show_opts, wide),
	OPT_STRING("db", 0, "PATH", "the results database", struct show_opts, db),
	OPT_END,
};

const struct command cmd_show_def = {
	.name = "show",
	.fn = cmd_show,
	.summary = "print a stored run again, in any format",
	.synopsis = "[--format FMT] [--db PATH] [RUN]",
	.about = "Prints a stored run again. RUN is a run id (12, #12), a ukbench JSON file,\n"
		 "or a label: the runs with it made on the boot of the latest of them,\n"
		 "pooled, as compare and report take it (a note names the runs); without\n"
		 "RUN, the latest run stored.",
	.opts = show_opts,
	.footer = "examples:\n"
		  "  ukbench show 12\n"
		  "  ukbench show before --format json > before.json\n"
		  "  ukbench show 12 --format gbench > 12.gbench.json\n",
};

/* The id of the latest run in @st, as a reference; 0, or -1 (printed). */
static int latest_run(struct store *st, char *ref, size_t len)
{
	struct store_filter f = { .limit = 1 };
	struct store_run *list = NULL;
	char err[1024];
	size_t n = 0;

	if (st && store_list(st, &f, &list, &n, err, sizeof(err)))
		return error("%s", err);
	if (!n) {
		free(list);
		return error("no run is stored yet; 'ukbench run' stores one");
	}
	snprintf(ref, len, "#%lld", (long long)list[0].id);
	free(list);
	return 0;
}

int cmd_show(int argc, char **argv)
{
	struct show_opts o = { .fmt = OUT_TABLE };
	struct rec_run run;
	struct store *st;
	char path[4096], desc[256], ref[32];
	int first, ret;

	ret = opts_parse(&cmd_show_def, argc, argv, 0, NULL, &o, &first);
	if (ret)
		return ret > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (argc - first > 1) {
		error("'ukbench show' takes one run; see 'ukbench show --help'");
		return UKB_EXIT_USAGE;
	}
	/* a store that does not exist yet is not made: files still resolve */
	if (store_open_cli_reader(o.db, path, sizeof(path), &st) < 0)
		return UKB_EXIT_USAGE;
	/* no run named: the latest stored */
	if (argc == first && latest_run(st, ref, sizeof(ref))) {
		store_close(st);
		return UKB_EXIT_USAGE;
	}
	if (runref_load(st, argc == first ? ref : argv[first], RUNREF_BOOT, &run, desc,
			sizeof(desc))) {
		store_close(st);
		return UKB_EXIT_USAGE;
	}
	if (run.npooled > 1) {
		char ids[256];
		size_t at = 0;

		for (size_t i = 0; i < run.npooled && at < sizeof(ids) - 24; i++)
			at += (size_t)snprintf(ids + at, sizeof(ids) - at, "%s#%lld", i ? ", " : "",
					       (long long)run.pooled_ids[i]);
		fprintf(stderr, "note: %s: %s\n", desc, ids);
	}
	ret = print_run(stdout, out_columns(stdout, o.wide), &run, o.fmt, &o.kcidb) ? UKB_EXIT_FAIL
										    : UKB_EXIT_OK;
	/* a run made in another state of the machine says so, against the host's other runs */
	if (!ret && o.fmt == OUT_TABLE && st) {
		char note[768], err[256];

		floor_learn_run(st, &run, err, sizeof(err));
		if (err[0])
			warning("%s", err);
		if (floor_state_note(&run, note, sizeof(note)))
			run_note(stdout, o.wide, "note: %s", note);
	}
	rec_run_release(&run);
	store_close(st);
	return ret;
}
