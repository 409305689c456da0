// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - ukbench's entry point: checks the benchmark table, then hands
 * the command line to a subcommand (each in its own cmd-NAME.c, with its
 * options and help in cmd_NAME_def).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "registry.h"
#include "vdso.h"

#ifndef UKB_VERSION
#define UKB_VERSION "unknown"
#endif

static void usage(FILE *f)
{
	fprintf(f, "usage: ukbench <command> [options] [args]\n"
		   "       ukbench --version | --help\n\n"
		   "ukbench measures the paths where user space meets the kernel: vDSO\n"
		   "calls, system calls, and more, with confidence intervals.\n\n"
		   "commands:\n");
	for (size_t i = 0; commands[i]; i++)
		if (commands[i]->summary)
			fprintf(f, "   %-10s %s\n", commands[i]->name, commands[i]->summary);
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
	static char help[] = "--help";
	const struct command *c;
	char why[256], *sub[3];

	if (argc < 2) {
		usage(stderr);
		return UKB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") ||
	    !strcmp(argv[1], "version")) {
		printf("ukbench %s\n", UKB_VERSION);
		return UKB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc < 3 || strcmp(argv[1], "help")) {
			usage(stdout);
			return UKB_EXIT_OK;
		}
		/* `ukbench help run` is `ukbench run --help` */
		sub[0] = argv[2];
		sub[1] = help;
		sub[2] = NULL;
		argv = sub;
		argc = 2;
	} else {
		argc--;
		argv++;
	}
	hide_vdso_functions();
	if (ukb_registry_validate(why, sizeof(why))) {
		error("broken benchmark table: %s", why);
		return UKB_EXIT_FAIL;
	}
	c = command_find(argv[0]);
	if (!c) {
		error("'%s' is not a ukbench command; see 'ukbench --help'", argv[0]);
		return UKB_EXIT_USAGE;
	}
	return c->fn(argc, argv);
}
