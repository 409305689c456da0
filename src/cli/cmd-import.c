// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-import.c - `ukbench import FILE.json...`: stores results measured
 * elsewhere (another machine, a CI job) so that compare and history see
 * them. Every file is read and checked before anything is stored.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "runref.h"

static const char import_usage[] =
    "usage: ukbench import [--label NAME] [--db PATH] FILE.json...\n"
    "\n"
    "Stores ukbench JSON results (from 'run --json' or 'show --format json') in\n"
    "the results database. A file that is not valid JSON, of another schema or\n"
    "schema version, or with a malformed field is refused with the file and the\n"
    "position named, and then nothing is stored.\n"
    "\n"
    "options:\n"
    "  -l, --label NAME   store under this label instead of the file's own\n"
    "      --db PATH      the results database\n"
    "\n"
    "examples:\n"
    "  ukbench import ppc64-before.json ppc64-after.json\n"
    "  ukbench import --label board-8321 results.json\n";

int cmd_import(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "db", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL, *label = NULL;
	struct rec_run *runs;
	struct store *st;
	char path[4096], err[1024];
	int c, n, ret = UKB_EXIT_USAGE;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":l:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			label = optarg;
			break;
		case 'D':
			db = optarg;
			break;
		case 'h':
			fputs(import_usage, stdout);
			return UKB_EXIT_OK;
		case ':':
			error("option '%s' needs a value", argv[optind - 1]);
			return UKB_EXIT_USAGE;
		default:
			error("unknown option '%s'; see 'ukbench import --help'", argv[optind - 1]);
			return UKB_EXIT_USAGE;
		}
	}
	n = argc - optind;
	if (n < 1) {
		error("'ukbench import' needs a JSON file; see 'ukbench import --help'");
		return UKB_EXIT_USAGE;
	}
	runs = calloc((size_t)n, sizeof(*runs));
	if (!runs)
		return UKB_EXIT_FAIL;
	/* read and check everything first: all or nothing */
	for (int i = 0; i < n; i++) {
		char desc[256];

		if (runref_load_file(argv[optind + i], &runs[i], desc, sizeof(desc)))
			goto out;
		if (label)
			snprintf(runs[i].label, sizeof(runs[i].label), "%s", label);
	}
	st = store_open_cli(db, path, sizeof(path));
	if (!st)
		goto out;
	ret = UKB_EXIT_OK;
	for (int i = 0; i < n; i++) {
		runs[i].id = 0;
		if (store_save(st, &runs[i], err, sizeof(err))) {
			error("%s", err);
			ret = UKB_EXIT_FAIL;
			break;
		}
		printf("imported %s as run #%lld%s%s%s (%zu paths)\n", argv[optind + i],
		       (long long)runs[i].id, runs[i].label[0] ? " '" : "", runs[i].label,
		       runs[i].label[0] ? "'" : "", runs[i].nresults);
	}
	store_close(st);
out:
	for (int i = 0; i < n; i++)
		rec_run_release(&runs[i]);
	free(runs);
	return ret;
}
