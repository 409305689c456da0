// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * describe.c - the descriptions kept with every run (environment,
 * settings, timing clock, vDSO), as JSON text (see describe.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "describe.h"
#include "json-write.h"
#include "reference.h"
#include "vdso.h"

static void str_or_null(struct jw *w, const char *key, const char *s)
{
	jw_str(w, key, s);
}

char *describe_env(const struct ukb_env *env)
{
	struct jw w;

	jw_init(&w, 0);
	jw_obj_begin(&w, NULL);
	str_or_null(&w, "hostname", env->hostname);
	str_or_null(&w, "kernel_release", env->kernel_release);
	str_or_null(&w, "kernel_version", env->kernel_version);
	str_or_null(&w, "machine", env->machine);
	str_or_null(&w, "cmdline", env->cmdline);
	str_or_null(&w, "cpu_model", env->cpu_model);
	jw_int(&w, "online_cpus", env->online_cpus);
	str_or_null(&w, "clocksource", env->clocksource);
	str_or_null(&w, "clocksources_available", env->clocksources_available);
	str_or_null(&w, "governor", env->governor);
	str_or_null(&w, "turbo", env->turbo);
	str_or_null(&w, "smt", env->smt);
	str_or_null(&w, "virtualization", env->virtualization);
	str_or_null(&w, "perf_event_paranoid", env->perf_event_paranoid);
	str_or_null(&w, "boot_id", env->boot_id);
	str_or_null(&w, "libc", env->libc);
	str_or_null(&w, "compiler", env->compiler);
	str_or_null(&w, "ukbench_version", env->ukbench_version);
	jw_arr_begin(&w, "loadavg");
	for (int i = 0; i < 3; i++)
		jw_num(&w, NULL, env->loadavg[i]);
	jw_arr_end(&w);
	jw_obj_begin(&w, "vulnerabilities");
	for (unsigned i = 0; i < env->nmitigations; i++)
		jw_str(&w, env->mitigations[i].name, env->mitigations[i].state);
	jw_obj_end(&w);
	jw_arr_begin(&w, "warnings");
	for (unsigned i = 0; i < env->nwarnings; i++)
		jw_str(&w, NULL, env->warnings[i]);
	jw_arr_end(&w);
	jw_obj_end(&w);
	return jw_finish(&w, NULL);
}

char *describe_settings(const struct ukb_measure_opts *o, unsigned procs)
{
	struct jw w;

	jw_init(&w, 0);
	jw_obj_begin(&w, NULL);
	jw_num(&w, "precision", o->precision);
	jw_num(&w, "budget_s", o->budget_s);
	jw_num(&w, "warmup_s", o->warmup_s);
	jw_uint(&w, "min_samples", o->min_samples);
	jw_uint(&w, "max_samples", o->max_samples);
	if (o->batch_ns > 0)
		jw_num(&w, "batch_ns", o->batch_ns);
	else
		jw_null(&w, "batch_ns");
	if (o->cpu == UKB_CPU_ANY)
		jw_null(&w, "cpu");
	else
		jw_uint(&w, "cpu", o->cpu);
	jw_uint(&w, "processes", procs ? procs : 1);
	jw_str(&w, "reference", ukb_ref_kind());
	jw_obj_end(&w);
	return jw_finish(&w, NULL);
}

char *describe_clock(const struct ukb_clock_info *clk)
{
	struct jw w;

	jw_init(&w, 0);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "id", "CLOCK_MONOTONIC_RAW");
	jw_num(&w, "resolution_ns", clk->resolution_ns);
	jw_num(&w, "read_cost_ns", clk->read_cost_ns);
	jw_obj_end(&w);
	return jw_finish(&w, NULL);
}

char *describe_vdso(void)
{
	const struct ukb_vdso_abi *abi = ukb_vdso_live_abi();
	struct jw w;

	jw_init(&w, 0);
	jw_obj_begin(&w, NULL);
	jw_bool(&w, "present", abi != NULL);
	jw_str(&w, "arch", abi ? abi->arch : NULL);
	jw_str(&w, "prefix", abi ? abi->prefix : NULL);
	jw_str(&w, "version", abi ? abi->version : NULL);
	jw_obj_end(&w);
	return jw_finish(&w, NULL);
}

int describe_run(struct rec_run *run, const struct ukb_env *env, const struct ukb_measure_opts *o,
		 unsigned procs, const struct ukb_clock_info *clk)
{
	run->environment = env ? describe_env(env) : NULL;
	run->settings = o ? describe_settings(o, procs) : NULL;
	run->clock = clk ? describe_clock(clk) : NULL;
	run->vdso = describe_vdso();
	if ((env && !run->environment) || (o && !run->settings) || (clk && !run->clock) ||
	    !run->vdso)
		return -ENOMEM;
	return 0;
}
