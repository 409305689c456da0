// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-env.c - `ukbench env`: the environment every run records, and the
 * warnings it calls for, so they can be fixed before measuring.
 */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "output.h"
#include "vdso.h"

static const char env_usage[] =
    "usage: ukbench env [--json]\n"
    "\n"
    "Shows what ukbench records with every run: kernel, boot command line, CPU,\n"
    "clocksource, governor, turbo, SMT, mitigations, perf_event_paranoid, libc,\n"
    "compiler, virtualization, load; the vDSO found; and warnings about anything\n"
    "that makes timings less stable.\n"
    "\n"
    "options:\n"
    "  --json       the same as JSON (the 'environment' object of run --json)\n"
    "  -h, --help   this text\n";

static void print_text(const struct ukb_env *e)
{
	const struct ukb_vdso_abi *abi = ukb_vdso_live_abi();
	struct ukb_clock_info clk;
	char why[256];
	const void *base;
	size_t size;

	printf("ukbench          %s\n", e->ukbench_version);
	printf("hostname         %s\n", e->hostname);
	printf("kernel           %s %s\n", e->kernel_release, e->kernel_version);
	printf("machine          %s\n", e->machine);
	printf("cmdline          %s\n", e->cmdline);
	printf("cpu              %s\n", e->cpu_model);
	printf("online cpus      %d\n", e->online_cpus);
	printf("clocksource      %s (available: %s)\n", e->clocksource, e->clocksources_available);
	printf("governor         %s\n", e->governor);
	printf("turbo            %s\n", e->turbo);
	printf("smt              %s\n", e->smt);
	printf("virtualization   %s\n", e->virtualization);
	printf("perf_paranoid    %s\n", e->perf_event_paranoid);
	printf("libc             %s\n", e->libc);
	printf("compiler         %s\n", e->compiler);
	printf("load average     %.2f %.2f %.2f\n", e->loadavg[0], e->loadavg[1], e->loadavg[2]);
	if (!ukb_vdso_image(&base, &size, why, sizeof(why)))
		printf("vdso             %s, %zu bytes at %p, symbols %s*@%s\n", abi->arch, size,
		       base, abi->prefix, abi->version);
	else
		printf("vdso             none: %s\n", why);
	if (!ukb_clock_probe(&clk))
		printf("timing clock     CLOCK_MONOTONIC_RAW, resolution %g ns, %.1f ns per read\n",
		       clk.resolution_ns, clk.read_cost_ns);
	printf("vulnerabilities\n");
	for (unsigned i = 0; i < e->nmitigations; i++)
		printf("  %-30s %s\n", e->mitigations[i].name, e->mitigations[i].state);
	for (unsigned i = 0; i < e->nwarnings; i++)
		printf("warning: %s\n", e->warnings[i]);
}

int cmd_env(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ukb_env env;
	int json = 0, c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'J':
			json = 1;
			break;
		case 'h':
			fputs(env_usage, stdout);
			return UKB_EXIT_OK;
		default:
			error("unknown option '%s'; see 'ukbench env --help'", argv[optind - 1]);
			return UKB_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		error("'ukbench env' takes no arguments, got '%s'", argv[optind]);
		return UKB_EXIT_USAGE;
	}
	ukb_env_capture(&env);
	if (json) {
		struct json_object *o = json_env(&env);

		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							   JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		print_text(&env);
	}
	return UKB_EXIT_OK;
}
