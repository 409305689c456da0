// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-show.c - `ukbench show RUN`: a stored run (or a JSON file) printed
 * again, in any output format.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "output.h"
#include "runref.h"

static const char show_usage[] =
    "usage: ukbench show [--format FMT] [--db PATH] RUN\n"
    "\n"
    "Prints a stored run again. RUN is a run id (12, #12), a label (the latest\n"
    "run with it) or a ukbench JSON file.\n"
    "\n"
    "options:\n"
    "  -f, --format FMT   table (default), json (every sample), csv, ktap, gbench\n"
    "      --db PATH      the results database\n"
    "\n"
    "examples:\n"
    "  ukbench show 12\n"
    "  ukbench show before --format json > before.json\n"
    "  ukbench show 12 --format gbench > 12.gbench.json\n";

int cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "db", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum out_format fmt = OUT_TABLE;
	struct rec_run run;
	struct store *st;
	const char *db = NULL;
	char path[4096], desc[256];
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (parse_format(optarg, &fmt)) {
				error("unknown format '%s': use table, json, csv, ktap or gbench",
				      optarg);
				return UKB_EXIT_USAGE;
			}
			break;
		case 'D':
			db = optarg;
			break;
		case 'h':
			fputs(show_usage, stdout);
			return UKB_EXIT_OK;
		case ':':
			error("option '%s' needs a value", argv[optind - 1]);
			return UKB_EXIT_USAGE;
		default:
			error("unknown option '%s'; see 'ukbench show --help'", argv[optind - 1]);
			return UKB_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		error("'ukbench show' takes one run; see 'ukbench show --help'");
		return UKB_EXIT_USAGE;
	}
	st = store_open_cli(db, path, sizeof(path));
	if (!st)
		return UKB_EXIT_USAGE;
	if (runref_load(st, argv[optind], 0, &run, desc, sizeof(desc))) {
		store_close(st);
		return UKB_EXIT_USAGE;
	}
	ret = print_run(stdout, &run, fmt) ? UKB_EXIT_FAIL : UKB_EXIT_OK;
	rec_run_release(&run);
	store_close(st);
	return ret;
}
