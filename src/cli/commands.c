// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * commands.c - the table of subcommands: each is defined in its own
 * cmd-NAME.c (options, help, the function), and listed here once, in the
 * order `ukbench --help` shows them.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "plugin.h"
#include "runner.h"

/* a fresh process of `run --processes`: not for people, so not listed */
static const struct command cmd_worker_def = {
	.name = "worker",
	.fn = cmd_worker,
	.synopsis = "KEY=VALUE...",
	.about = "Measures a plan given by `ukbench run --processes` and writes the run JSON.",
};

/* the man pages and completions, made from these tables: for the build */
static const struct command cmd_doc_def = {
	.name = "__doc",
	.fn = cmd_doc,
	.synopsis = "man [COMMAND] | bash | zsh",
	.about = "Writes a man page or a completion script made from the option tables.",
};

const struct command *const commands[] = {
	&cmd_run_def,	     &cmd_list_def,	   &cmd_check_def,
	&cmd_exec_def,	     &cmd_compare_def,	   &cmd_report_def,
	&cmd_history_def,    &cmd_runs_def,	   &cmd_prune_def,
	&cmd_show_def,	     &cmd_import_def,	   &cmd_push_def,
	&cmd_fleet_init_def, &cmd_fleet_prune_def, &cmd_calibrate_def,
	&cmd_env_def,	     &cmd_vdso_def,	   &cmd_vm_def,
	&cmd_worker_def,     &cmd_doc_def,	   NULL,
};

int cmd_worker(int argc, char **argv)
{
	/* the plug-ins first: the cases are made from the registry they add to */
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "plugins=", 8)) {
			char list[8192], err[1024];

			snprintf(list, sizeof(list), "%s", argv[i] + 8);
			for (char *save = NULL, *p = strtok_r(list, ":", &save); p;
			     p = strtok_r(NULL, ":", &save))
				if (plugin_load(p, err, sizeof(err)))
					return error("%s", err), 2;
		}
	return worker_main(argc - 1, argv + 1);
}
