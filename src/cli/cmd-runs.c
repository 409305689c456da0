// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-runs.c - `ukbench runs`: the stored runs, newest first.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "runref.h"

static const char runs_usage[] =
    "usage: ukbench runs [--label GLOB] [--host HOST] [-n N] [--db PATH]\n"
    "\n"
    "Lists the runs in the results database, newest first: id, time (UTC),\n"
    "label, host, kernel, number of benchmark paths, and where it came from\n"
    "(a run here, or the file it was imported from).\n"
    "\n"
    "options:\n"
    "  -l, --label GLOB   only runs whose label matches\n"
    "      --host HOST    only runs of this host\n"
    "  -n, --limit N      at most N runs\n"
    "      --db PATH      the results database\n"
    "\n"
    "examples:\n"
    "  ukbench runs\n"
    "  ukbench runs --label 'v6.1*' -n 5\n";

int cmd_runs(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'l' }, { "host", required_argument, NULL, 'H' },
		{ "limit", required_argument, NULL, 'n' }, { "db", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },	   { NULL, 0, NULL, 0 },
	};
	struct store_filter f = { 0 };
	struct store_run *list;
	struct store *st;
	const char *db = NULL;
	char path[4096], err[1024];
	unsigned long lim;
	size_t n;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":l:n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			f.label = optarg;
			break;
		case 'H':
			f.host = optarg;
			break;
		case 'n':
			if (parse_uint("--limit", optarg, 1, 100000000, &lim))
				return UKB_EXIT_USAGE;
			f.limit = lim;
			break;
		case 'D':
			db = optarg;
			break;
		case 'h':
			fputs(runs_usage, stdout);
			return UKB_EXIT_OK;
		case ':':
			error("option '%s' needs a value", argv[optind - 1]);
			return UKB_EXIT_USAGE;
		default:
			error("unknown option '%s'; see 'ukbench runs --help'", argv[optind - 1]);
			return UKB_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		error("'ukbench runs' takes no arguments, got '%s'", argv[optind]);
		return UKB_EXIT_USAGE;
	}
	st = store_open_cli(db, path, sizeof(path));
	if (!st)
		return UKB_EXIT_USAGE;
	if (store_list(st, &f, &list, &n, err, sizeof(err))) {
		error("%s", err);
		store_close(st);
		return UKB_EXIT_FAIL;
	}
	printf("%6s  %-20s  %-16s  %-12s  %-24s %6s  %s\n", "id", "started (UTC)", "label", "host",
	       "kernel", "paths", "source");
	for (size_t i = 0; i < n; i++)
		printf("%6lld  %-20s  %-16s  %-12s  %-24s %6zu  %s\n", (long long)list[i].id,
		       list[i].started, list[i].label[0] ? list[i].label : "-", list[i].host,
		       list[i].kernel_release, list[i].nresults, list[i].source);
	if (!n)
		printf("(no runs in %s)\n", path);
	free(list);
	store_close(st);
	return UKB_EXIT_OK;
}
