// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-env.c - `ukbench env`: the environment every run records, and the
 * warnings it calls for, so they can be fixed before measuring.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "desc.h"
#include "cli.h"

#include "clock.h"
#include "describe.h"
#include "json-write.h"
#include "options.h"
#include "output.h"
#include "rows.h"
#include "width.h"
#include "vdso.h"

enum { O_JSON = 1 };

struct env_cli {
	enum rows_fmt fmt;
};

static const struct opt env_opts[] = {
	OPT_CALL("json", 0, NULL,
		 "the same as JSON: the 'environment' object of run --json,\nits schema named "
		 "(docs/schema/ukbench-env.schema.json)",
		 O_JSON),
	OPT_CHOICE("format", 'f', ROWS_FORMATS,
		   "table (default), json (as --json) or csv: key,value", struct env_cli, fmt),
	OPT_END,
};

const struct command cmd_env_def = {
	.name = "env",
	.fn = cmd_env,
	.summary = "show the environment that results are measured in",
	.synopsis = "[--json | --format FMT]",
	.about = "Shows what ukbench records with every run: kernel, boot command line, CPU,\n"
		 "clocksource, governor, turbo, SMT, mitigations, perf_event_paranoid, libc,\n"
		 "compiler, virtualization, load; the vDSO found; and warnings about anything\n"
		 "that makes timings less stable.",
	.opts = env_opts,
};

static int set_option(void *ctx, int id, const char *arg)
{
	struct env_cli *c = ctx;

	(void)arg;
	if (id != O_JSON)
		return -1;
	c->fmt = ROWS_JSON;
	return 0;
}

static void csv_row(void *ctx, const char *key, const char *value)
{
	rows_str(ctx, key);
	rows_str(ctx, value);
}

/* key,value rows: nested members as "parent.key", arrays joined by "; " */
static int print_csv(const char *text)
{
	static const char *const keys[] = { "key", "value", NULL };
	struct rows out;
	int ret;

	rows_begin(&out, stdout, ROWS_CSV, keys);
	ret = rec_flatten(text, NULL, 0, csv_row, &out);
	return rows_end(&out) || ret ? -1 : 0;
}

static void print_text(const struct ukb_env *e)
{
	const struct ukb_vdso_abi *abi = ukb_vdso_live_abi();
	struct ukb_clock_info clk;
	char why[256];
	const void *base;
	size_t size;
	int cols = out_columns(stdout, 0);

	printf("ukbench          %s\n", e->ukbench_version);
	printf("hostname         %s\n", e->hostname);
	printf("kernel           %s %s\n", e->kernel_release, e->kernel_version);
	printf("machine          %s\n", e->machine);
	printf("cmdline          ");
	put_folded(stdout, e->cmdline, 17, 17, cols);
	printf("cpu              %s\n", e->cpu_model);
	printf("online cpus      %d\n", e->online_cpus);
	printf("clocksource      %s (available: %s)\n", e->clocksource, e->clocksources_available);
	printf("governor         %s\n", e->governor);
	printf("turbo            %s\n", e->turbo);
	printf("smt              %s\n", e->smt);
	printf("virtualization   %s\n", e->virtualization);
	printf("perf_paranoid    %s\n", e->perf_event_paranoid);
	printf("boot id          %s\n", e->boot_id);
	printf("libc             %s\n", e->libc);
	printf("compiler         %s\n", e->compiler);
	printf("load average     %.2f %.2f %.2f\n", e->loadavg[0], e->loadavg[1], e->loadavg[2]);
	if (!ukb_vdso_image(&base, &size, why, sizeof(why))) {
		char line[256];

		snprintf(line, sizeof(line), "%s, %zu bytes at %p, symbols %s*@%s", abi->arch, size,
			 base, abi->prefix, abi->version);
		printf("vdso             ");
		put_folded(stdout, line, 17, 17, cols);
	} else
		printf("vdso             none: %s\n", why);
	if (!ukb_clock_probe(&clk))
		printf("timing clock     CLOCK_MONOTONIC_RAW, resolution %g ns, %.1f ns per read\n",
		       clk.resolution_ns, clk.read_cost_ns);
	printf("vulnerabilities\n");
	for (unsigned i = 0; i < e->nmitigations; i++) {
		printf("  %-30s ", e->mitigations[i].name);
		put_folded(stdout, e->mitigations[i].state, 33, 35, cols);
	}
	for (unsigned i = 0; i < e->nwarnings; i++) {
		printf("warning: ");
		put_folded(stdout, e->warnings[i], 9, 2, cols);
	}
}

int cmd_env(int argc, char **argv)
{
	struct ukb_env env;
	struct env_cli cli = { .fmt = ROWS_TABLE };
	enum rows_fmt fmt;
	int first, rc;

	rc = opts_parse(&cmd_env_def, argc, argv, 0, set_option, &cli, &first);
	fmt = cli.fmt;
	if (rc)
		return rc > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (first < argc) {
		error("'ukbench env' takes no arguments, got '%s'", argv[first]);
		return UKB_EXIT_USAGE;
	}
	ukb_env_capture(&env);
	if (fmt == ROWS_CSV) {
		char *text = describe_env(&env);

		rc = text ? print_csv(text) : -1;
		free(text);
		return rc ? UKB_EXIT_FAIL : UKB_EXIT_OK;
	}
	if (fmt == ROWS_JSON) {
		char *text = describe_env(&env), *pretty = NULL;
		struct jw w;

		/* the run's environment object, its schema named first */
		if (text && text[0] == '{') {
			size_t n = strlen(text) + 64;
			char *named = malloc(n);

			if (named) {
				snprintf(named, n,
					 "{\"schema\":\"ukbench-env\",\"schema_version\":1,%s",
					 text + 1);
				jw_init(&w, 1);
				jw_raw(&w, NULL, named);
				pretty = jw_finish(&w, NULL);
				free(named);
			}
		}
		free(text);
		if (!pretty) {
			error("out of memory");
			return UKB_EXIT_FAIL;
		}
		fputs(pretty, stdout);
		free(pretty);
	} else {
		print_text(&env);
	}
	return UKB_EXIT_OK;
}
