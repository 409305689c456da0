// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out-json.c - the descriptions kept with every run (environment, settings,
 * timing clock, vDSO) as JSON objects, and pretty-printing a document.
 */
#include <json-c/json.h>
#include <math.h>

#include "output.h"
#include "vdso.h"

static struct json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static void add_str(struct json_object *o, const char *key, const char *s)
{
	add(o, key, s ? json_object_new_string(s) : NULL);
}

struct json_object *json_env(const struct ukb_env *env)
{
	struct json_object *o = json_object_new_object(), *m, *w, *l;

	add_str(o, "hostname", env->hostname);
	add_str(o, "kernel_release", env->kernel_release);
	add_str(o, "kernel_version", env->kernel_version);
	add_str(o, "machine", env->machine);
	add_str(o, "cmdline", env->cmdline);
	add_str(o, "cpu_model", env->cpu_model);
	add(o, "online_cpus", json_object_new_int(env->online_cpus));
	add_str(o, "clocksource", env->clocksource);
	add_str(o, "clocksources_available", env->clocksources_available);
	add_str(o, "governor", env->governor);
	add_str(o, "turbo", env->turbo);
	add_str(o, "smt", env->smt);
	add_str(o, "virtualization", env->virtualization);
	add_str(o, "perf_event_paranoid", env->perf_event_paranoid);
	add_str(o, "libc", env->libc);
	add_str(o, "compiler", env->compiler);
	add_str(o, "ukbench_version", env->ukbench_version);
	l = json_object_new_array();
	for (int i = 0; i < 3; i++)
		json_object_array_add(l, num(env->loadavg[i]));
	add(o, "loadavg", l);
	m = json_object_new_object();
	for (unsigned i = 0; i < env->nmitigations; i++)
		add_str(m, env->mitigations[i].name, env->mitigations[i].state);
	add(o, "vulnerabilities", m);
	w = json_object_new_array();
	for (unsigned i = 0; i < env->nwarnings; i++)
		json_object_array_add(w, json_object_new_string(env->warnings[i]));
	add(o, "warnings", w);
	return o;
}

struct json_object *json_settings(const struct ukb_measure_opts *o)
{
	struct json_object *s = json_object_new_object();

	add(s, "precision", num(o->precision));
	add(s, "budget_s", num(o->budget_s));
	add(s, "warmup_s", num(o->warmup_s));
	add(s, "min_samples", json_object_new_int64(o->min_samples));
	add(s, "max_samples", json_object_new_int64(o->max_samples));
	add(s, "batch_ns", o->batch_ns > 0 ? num(o->batch_ns) : NULL);
	add(s, "cpu", o->cpu == UKB_CPU_ANY ? NULL : json_object_new_int((int)o->cpu));
	return s;
}

struct json_object *json_clock(const struct ukb_clock_info *clk)
{
	struct json_object *o = json_object_new_object();

	add_str(o, "id", "CLOCK_MONOTONIC_RAW");
	add(o, "resolution_ns", num(clk->resolution_ns));
	add(o, "read_cost_ns", num(clk->read_cost_ns));
	return o;
}

struct json_object *json_vdso(void)
{
	const struct ukb_vdso_abi *abi = ukb_vdso_live_abi();
	struct json_object *o = json_object_new_object();

	add(o, "present", json_object_new_boolean(abi != NULL));
	add_str(o, "arch", abi ? abi->arch : NULL);
	add_str(o, "prefix", abi ? abi->prefix : NULL);
	add_str(o, "version", abi ? abi->version : NULL);
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
