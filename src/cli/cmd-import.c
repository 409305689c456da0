// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-import.c - `ukbench import FILE.json...`: stores results measured
 * elsewhere (another machine, a CI job) so that compare and history see
 * them. Every file is read and checked before anything is stored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "spool-push.h"
#include "options.h"
#include "runref.h"
#include "width.h"

enum { O_LABEL = 1, O_DB };

static const struct opt import_opts[] = {
	OPT_CALL("label", 'l', "NAME", "store under this label instead of the file's own", O_LABEL),
	OPT_CALL("db", 0, "PATH", "the results database", O_DB),
	OPT_END,
};

const struct command cmd_import_def = {
	.name = "import",
	.fn = cmd_import,
	.summary = "store a JSON result made elsewhere",
	.synopsis = "[--label NAME] [--db PATH] FILE.json...",
	.about = "Stores ukbench JSON results (from 'run --json' or 'show --format json') in\n"
		 "the results database. A file that is not valid JSON, of another schema or\n"
		 "schema version, or with a malformed field is refused with the file and the\n"
		 "position named, and then nothing is stored.",
	.opts = import_opts,
	.footer = "examples:\n"
		  "  ukbench import ppc64-before.json ppc64-after.json\n"
		  "  ukbench import --label board-8321 results.json\n",
};

struct import_opts {
	const char *label, *db;
};

static int set_option(void *ctx, int id, const char *arg)
{
	struct import_opts *o = ctx;

	*(id == O_LABEL ? &o->label : &o->db) = arg;
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct import_opts o = { 0 };
	struct rec_run *runs;
	struct store *st;
	char path[4096], err[1024];
	int n, first, ret;

	ret = opts_parse(&cmd_import_def, argc, argv, 0, set_option, &o, &first);
	if (ret)
		return ret > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	ret = UKB_EXIT_USAGE;
	n = argc - first;
	if (n < 1) {
		error("'ukbench import' needs a JSON file; see 'ukbench import --help'");
		return UKB_EXIT_USAGE;
	}
	runs = calloc((size_t)n, sizeof(*runs));
	if (!runs) {
		error("out of memory");
		return UKB_EXIT_FAIL;
	}
	/* read and check everything first: all or nothing */
	for (int i = 0; i < n; i++) {
		char desc[256];

		if (runref_load_file(argv[first + i], &runs[i], desc, sizeof(desc)))
			goto out;
		if (o.label)
			snprintf(runs[i].label, sizeof(runs[i].label), "%s", o.label);
	}
	st = store_open_cli(o.db, path, sizeof(path));
	if (!st)
		goto out;
	/* a run stored already, or given twice: refused, nothing imported */
	for (int i = 0; i < n; i++) {
		int64_t id = 0;
		int same = store_find_same(st, &runs[i], &id, err, sizeof(err));

		if (same < 0) {
			error("%s", err);
			ret = UKB_EXIT_FAIL;
			goto close;
		}
		if (same) {
			error("%s is already stored as run #%lld in %s; nothing imported",
			      argv[first + i], (long long)id, path);
			ret = UKB_EXIT_USAGE;
			goto close;
		}
		for (int k = 0; k < i; k++) {
			char dk[24], di[24];

			rec_run_digest(&runs[k], dk, sizeof(dk));
			rec_run_digest(&runs[i], di, sizeof(di));
			if (!strcmp(dk, di)) {
				error("%s and %s are the same run; nothing imported",
				      argv[first + k], argv[first + i]);
				ret = UKB_EXIT_USAGE;
				goto close;
			}
		}
	}
	ret = UKB_EXIT_OK;
	for (int i = 0; i < n; i++) {
		runs[i].id = 0;
		if (store_save(st, &runs[i], err, sizeof(err))) {
			error("%s", err);
			ret = UKB_EXIT_FAIL;
			break;
		}
		char f[1024], l[1024];

		printf("imported %s as run #%lld%s%s%s (%zu path%s)\n",
		       vis(argv[first + i], f, sizeof(f)), (long long)runs[i].id,
		       runs[i].label[0] ? " '" : "", vis(runs[i].label, l, sizeof(l)),
		       runs[i].label[0] ? "'" : "", runs[i].nresults,
		       runs[i].nresults == 1 ? "" : "s");
	}
	fflush(stdout);
	if (ret == UKB_EXIT_OK)
		push_after_save(st, 0);
close:
	store_close(st);
out:
	for (int i = 0; i < n; i++)
		rec_run_release(&runs[i]);
	free(runs);
	return ret;
}
