// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out-json.c - the descriptions kept with every run (environment, settings,
 * timing clock, vDSO) as JSON objects, and pretty-printing a document.
 */
#include <json-c/json.h>
#include <math.h>

#include "json-put.h"
#include "output.h"
#include "vdso.h"

struct json_object *json_env(const struct ukb_env *env)
{
	struct json_object *o = json_object_new_object(), *m, *w, *l;

	json_put_str(o, "hostname", env->hostname, 0);
	json_put_str(o, "kernel_release", env->kernel_release, 0);
	json_put_str(o, "kernel_version", env->kernel_version, 0);
	json_put_str(o, "machine", env->machine, 0);
	json_put_str(o, "cmdline", env->cmdline, 0);
	json_put_str(o, "cpu_model", env->cpu_model, 0);
	json_put(o, "online_cpus", json_object_new_int(env->online_cpus));
	json_put_str(o, "clocksource", env->clocksource, 0);
	json_put_str(o, "clocksources_available", env->clocksources_available, 0);
	json_put_str(o, "governor", env->governor, 0);
	json_put_str(o, "turbo", env->turbo, 0);
	json_put_str(o, "smt", env->smt, 0);
	json_put_str(o, "virtualization", env->virtualization, 0);
	json_put_str(o, "perf_event_paranoid", env->perf_event_paranoid, 0);
	json_put_str(o, "libc", env->libc, 0);
	json_put_str(o, "compiler", env->compiler, 0);
	json_put_str(o, "ukbench_version", env->ukbench_version, 0);
	l = json_object_new_array();
	for (int i = 0; i < 3; i++)
		json_object_array_add(l, json_num(env->loadavg[i]));
	json_put(o, "loadavg", l);
	m = json_object_new_object();
	for (unsigned i = 0; i < env->nmitigations; i++)
		json_put_str(m, env->mitigations[i].name, env->mitigations[i].state, 0);
	json_put(o, "vulnerabilities", m);
	w = json_object_new_array();
	for (unsigned i = 0; i < env->nwarnings; i++)
		json_object_array_add(w, json_object_new_string(env->warnings[i]));
	json_put(o, "warnings", w);
	return o;
}

struct json_object *json_settings(const struct ukb_measure_opts *o)
{
	struct json_object *s = json_object_new_object();

	json_put(s, "precision", json_num(o->precision));
	json_put(s, "budget_s", json_num(o->budget_s));
	json_put(s, "warmup_s", json_num(o->warmup_s));
	json_put(s, "min_samples", json_object_new_int64(o->min_samples));
	json_put(s, "max_samples", json_object_new_int64(o->max_samples));
	json_put(s, "batch_ns", o->batch_ns > 0 ? json_num(o->batch_ns) : NULL);
	json_put(s, "cpu", o->cpu == UKB_CPU_ANY ? NULL : json_object_new_int((int)o->cpu));
	return s;
}

struct json_object *json_clock(const struct ukb_clock_info *clk)
{
	struct json_object *o = json_object_new_object();

	json_put_str(o, "id", "CLOCK_MONOTONIC_RAW", 0);
	json_put(o, "resolution_ns", json_num(clk->resolution_ns));
	json_put(o, "read_cost_ns", json_num(clk->read_cost_ns));
	return o;
}

struct json_object *json_vdso(void)
{
	const struct ukb_vdso_abi *abi = ukb_vdso_live_abi();
	struct json_object *o = json_object_new_object();

	json_put(o, "present", json_object_new_boolean(abi != NULL));
	json_put_str(o, "arch", abi ? abi->arch : NULL, 0);
	json_put_str(o, "prefix", abi ? abi->prefix : NULL, 0);
	json_put_str(o, "version", abi ? abi->version : NULL, 0);
	return o;
}

int json_print(FILE *f, struct json_object *doc)
{
	const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_NOSLASHESCAPE);

	if (fputs(text, f) == EOF || fputc('\n', f) == EOF)
		return -1;
	return 0;
}
