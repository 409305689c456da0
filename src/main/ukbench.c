// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ukbench.c - ukbench's entry point: checks the benchmark table, then hands
 * the command line to a subcommand (each in its own cmd-NAME.c, with its
 * options and help in cmd_NAME_def).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plugin-opts.h"
#include "options.h"
#include "registry.h"
#include "stops.h"
#include "vdso.h"
#include "version.h"

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

/* Is @name a vDSO function some benchmark calls? Else the known ones in @known. */
static int vdso_function_known(const char *name, char *known, size_t len)
{
	size_t nb, o = 0;
	const struct ukb_bench *const *t = ukb_registry(&nb);
	char word[40];

	known[0] = 0;
	for (size_t i = 0; i < nb; i++)
		for (const struct ukb_path *p = t[i]->paths; p->name; p++) {
			if (!p->vdso_sym)
				continue;
			if (!strcmp(p->vdso_sym, name))
				return 1;
			/* each name once: ", name," against ", known," */
			snprintf(word, sizeof(word), " %s,", p->vdso_sym);
			if (o < len && !strstr(known, word))
				o += (size_t)snprintf(known + o, len - o, " %s,", p->vdso_sym);
		}
	if (o && o < len)
		known[o - 1] = 0;
	return 0;
}

/*
 * UKBENCH_VDSO_HIDE=getrandom,getcpu: behave as if the vDSO lacked these
 * functions, to see how a kernel without them is reported, or to measure
 * the other paths alone. A name no benchmark calls is an error, not a
 * silent no-op. 0 or -1 (printed).
 */
static int hide_vdso_functions(void)
{
	const char *list = getenv("UKBENCH_VDSO_HIDE");
	char name[32], known[512];

	while (list && *list) {
		size_t len = strcspn(list, ",");

		if (len >= sizeof(name)) {
			error("UKBENCH_VDSO_HIDE: '%.32s...' is not a vDSO function", list);
			return -1;
		}
		memcpy(name, list, len);
		name[len] = 0;
		if (len && !vdso_function_known(name, known, sizeof(known))) {
			error("UKBENCH_VDSO_HIDE: '%s' is not a vDSO function ukbench calls; "
			      "known:%s",
			      name, known);
			return -1;
		}
		if (len)
			ukb_vdso_override(name, NULL, UKB_VDSO_MISSING);
		list += len + (list[len] == ',');
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char help[] = "--help";
	const struct command *c;
	char why[256], *sub[3];
	int ret;

	if (argc < 2) {
		usage(stderr);
		return UKB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") ||
	    !strcmp(argv[1], "version")) {
		printf("ukbench %s\n", ukb_version());
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
	stops_init();
	if (hide_vdso_functions())
		return UKB_EXIT_USAGE;
	if (ukb_registry_validate(why, sizeof(why))) {
		error("broken benchmark table: %s", why);
		return UKB_EXIT_FAIL;
	}
	/* a user's own benchmarks, for every command that names benchmarks */
	if (plugin_load_env_said())
		return UKB_EXIT_USAGE;
	c = command_find(argv[0]);
	if (!c) {
		const char *hint = command_closest(argv[0]);

		if (hint)
			error("'%s' is not a ukbench command; did you mean '%s'? (see 'ukbench "
			      "--help')",
			      argv[0], hint);
		else
			error("'%s' is not a ukbench command; see 'ukbench --help'", argv[0]);
		return UKB_EXIT_USAGE;
	}
	ret = c->fn(argc, argv);
	/* a refusal because memory or the disk failed is no fault of the input */
	if (ret == UKB_EXIT_USAGE && fault_said)
		ret = UKB_EXIT_FAIL;
	/* the command's own handlers are done: a signal while its output is flushed stops it */
	stops_init();
	/* what was printed must have arrived: a full disk or a closed pipe is an error */
	if (fflush(stdout) || ferror(stdout)) {
		/* said already by a command that failed writing it */
		if (ret == UKB_EXIT_OK && errno != EPIPE)
			error("cannot write to standard output: %s", strerror(errno));
		if (ret == UKB_EXIT_OK)
			ret = UKB_EXIT_FAIL;
	}
	return ret;
}
