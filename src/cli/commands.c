// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * commands.c - the table of subcommands: each is defined in its own
 * cmd-NAME.c (options, help, the function), and listed here once, in the
 * order `ukbench --help` shows them.
 */
#include <stddef.h>

#include "cli.h"
#include "options.h"
#include "runner.h"

/* a fresh process of `run --runs`: not for people, so not listed */
static const struct command cmd_worker_def = {
	.name = "worker",
	.fn = cmd_worker,
	.synopsis = "KEY=VALUE...",
	.about = "Measures a plan given by `ukbench run --runs` and writes the run JSON.",
};

/* the man pages and completions, made from these tables: for the build */
static const struct command cmd_doc_def = {
	.name = "__doc",
	.fn = cmd_doc,
	.synopsis = "man [COMMAND] | bash | zsh",
	.about = "Writes a man page or a completion script made from the option tables.",
};

const struct command *const commands[] = {
	&cmd_run_def,	 &cmd_list_def,	      &cmd_check_def,	  &cmd_exec_def, &cmd_compare_def,
	&cmd_report_def, &cmd_history_def,    &cmd_runs_def,	  &cmd_show_def, &cmd_import_def,
	&cmd_push_def,	 &cmd_fleet_init_def, &cmd_calibrate_def, &cmd_env_def,	 &cmd_vdso_def,
	&cmd_vm_def,	 &cmd_worker_def,     &cmd_doc_def,	  NULL,
};

int cmd_worker(int argc, char **argv)
{
	return worker_main(argc - 1, argv + 1);
}
