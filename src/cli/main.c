// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - ukbench's entry point: checks the benchmark table, then hands
 * the command line to a subcommand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "registry.h"
#include "vdso.h"

#ifndef UKB_VERSION
#define UKB_VERSION "unknown"
#endif

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "run", cmd_run, "measure benchmarks and print per-call cost with 95% CIs" },
	{ "list", cmd_list, "list benchmarks and paths, and whether this machine has them" },
	{ "check", cmd_check, "check the vDSO against the system call: answers and failures" },
	{ "exec", cmd_exec, "run any command N times: times, memory, counters, CIs" },
	{ "compare", cmd_compare, "compare runs: change, 95% CI, p-value, verdict" },
	{ "history", cmd_history, "a benchmark over the stored runs, with change points" },
	{ "runs", cmd_runs, "list the stored runs" },
	{ "show", cmd_show, "print a stored run again, in any format" },
	{ "import", cmd_import, "store a JSON result made elsewhere" },
	{ "calibrate", cmd_calibrate, "measure which change sizes this machine can detect" },
	{ "env", cmd_env, "show the environment that results are measured in" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: ukbench <command> [options] [args]\n"
		   "       ukbench --version | --help\n\n"
		   "ukbench measures the paths where user space meets the kernel: vDSO\n"
		   "calls, system calls, and more, with confidence intervals.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "   %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'ukbench <command> --help' explains each command, with examples.\n");
}

/*
 * UKBENCH_VDSO_HIDE=getrandom,getcpu: behave as if the vDSO lacked these
 * functions, to see how a kernel without them is reported, or to measure
 * the other paths alone.
 */
static void hide_vdso_functions(void)
{
	const char *list = getenv("UKBENCH_VDSO_HIDE");
	char name[32];

	while (list && *list) {
		size_t len = strcspn(list, ",");

		if (len && len < sizeof(name)) {
			memcpy(name, list, len);
			name[len] = 0;
			ukb_vdso_override(name, NULL, UKB_VDSO_MISSING);
		}
		list += len + (list[len] == ',');
	}
}

int main(int argc, char **argv)
{
	char why[256];
	const char *cmd;

	if (argc < 2) {
		usage(stderr);
		return UKB_EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		if (argc > 2 && strcmp(cmd, "help") == 0) {
			static char help[] = "--help";
			static char *sub[3];

			sub[0] = argv[2];
			sub[1] = help;

			argv = sub;
			argc = 2;
			cmd = argv[0];
			goto dispatch;
		}
		usage(stdout);
		return UKB_EXIT_OK;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("ukbench %s\n", UKB_VERSION);
		return UKB_EXIT_OK;
	}
	argc--;
	argv++;
dispatch:
	hide_vdso_functions();
	if (ukb_registry_validate(why, sizeof(why))) {
		error("broken benchmark table: %s", why);
		return UKB_EXIT_FAIL;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].fn(argc, argv);
	error("'%s' is not a ukbench command; see 'ukbench --help'", cmd);
	return UKB_EXIT_USAGE;
}
