// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out-json.c - the run as a JSON document (schema "ukbench-run", version 1).
 *
 * Every sample is written, in the order it was taken, so that any other
 * statistic can be computed later from the file alone. Figures that do not
 * exist (the spread of a single sample) are null, never NaN, which JSON
 * cannot carry.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <string.h>

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

static struct json_object *json_stats(const struct ukb_stats *st)
{
	struct json_object *o = json_object_new_object(), *out;

	add(o, "n", json_object_new_int64((int64_t)st->n));
	add(o, "mean_ns", num(st->mean));
	add(o, "median_ns", num(st->median));
	add(o, "stddev_ns", num(st->stddev));
	add(o, "cv", num(st->cv));
	add(o, "min_ns", num(st->min));
	add(o, "max_ns", num(st->max));
	add(o, "q1_ns", num(st->q1));
	add(o, "q3_ns", num(st->q3));
	add(o, "ci95_ns", num(st->ci95));
	add(o, "ci95_rel", num(st->ci95_rel));
	add(o, "trimmed_mean_ns", num(st->trimmed_mean));
	add(o, "per_second", num(st->mean > 0 ? 1e9 / st->mean : NAN));
	out = json_object_new_object();
	add(out, "low", json_object_new_int64((int64_t)st->outliers_low));
	add(out, "high", json_object_new_int64((int64_t)st->outliers_high));
	add(out, "severe", json_object_new_int64((int64_t)st->outliers_severe));
	add(o, "outliers", out);
	return o;
}

static struct json_object *json_result(const struct ukb_result *r)
{
	struct json_object *o = json_object_new_object(), *s;
	char sym[128];

	add_str(o, "name", r->name);
	add_str(o, "benchmark", r->bench->name);
	add_str(o, "variant", r->variant ? r->variant->name : NULL);
	add_str(o, "path", r->path->name);
	add_str(o, "detail", r->path->detail);
	vdso_symbol_of(r->path, sym, sizeof(sym));
	add_str(o, "vdso_symbol", sym[0] ? sym : NULL);
	add_str(o, "unit", r->bench->unit ? r->bench->unit : "call");
	add_str(o, "status", ukb_status_name(r->status));
	add_str(o, "reason", r->reason[0] ? r->reason : NULL);
	add(o, "errno", r->err ? json_object_new_int(-r->err) : NULL);
	add(o, "cpu", r->cpu == UKB_CPU_ANY ? NULL : json_object_new_int((int)r->cpu));
	add(o, "batch_iterations", json_object_new_int64((int64_t)r->batch_iters));
	add(o, "batch_target_ns", num(r->batch_ns));
	add(o, "warmup_batches", json_object_new_int64((int64_t)r->warmup_batches));
	add(o, "measure_s", num(r->measure_s));
	add(o, "converged", json_object_new_boolean(r->converged));
	add(o, "stats", r->status == UKB_OK && r->nsamples ? json_stats(&r->stats) : NULL);
	s = json_object_new_array_ext((int)r->nsamples);
	for (size_t i = 0; i < r->nsamples; i++)
		json_object_array_add(s, json_object_new_double(r->samples[i]));
	add(o, "samples_ns", s);
	return o;
}

int json_write_run(FILE *f, const struct ukb_run_info *run)
{
	struct json_object *doc = json_object_new_object(), *o, *res;
	const struct ukb_vdso_abi *abi = ukb_vdso_live_abi();
	char started[32];
	const char *text;
	int err = 0;

	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", gmtime(&run->started));
	add_str(doc, "schema", UKB_JSON_SCHEMA);
	add(doc, "schema_version", json_object_new_int(UKB_JSON_SCHEMA_VERSION));
	add_str(doc, "ukbench_version", run->env->ukbench_version);
	add_str(doc, "started", started);
	add(doc, "duration_s", num(run->duration_s));
	add(doc, "interrupted", json_object_new_boolean(run->interrupted));

	o = json_object_new_object();
	add(o, "precision", num(run->opts->precision));
	add(o, "budget_s", num(run->opts->budget_s));
	add(o, "warmup_s", num(run->opts->warmup_s));
	add(o, "min_samples", json_object_new_int64(run->opts->min_samples));
	add(o, "max_samples", json_object_new_int64(run->opts->max_samples));
	add(o, "batch_ns", run->opts->batch_ns > 0 ? num(run->opts->batch_ns) : NULL);
	add(o, "cpu",
	    run->opts->cpu == UKB_CPU_ANY ? NULL : json_object_new_int((int)run->opts->cpu));
	add(doc, "settings", o);

	o = json_object_new_object();
	add_str(o, "id", "CLOCK_MONOTONIC_RAW");
	add(o, "resolution_ns", num(run->clock->resolution_ns));
	add(o, "read_cost_ns", num(run->clock->read_cost_ns));
	add(doc, "clock", o);

	o = json_object_new_object();
	add(o, "present", json_object_new_boolean(abi != NULL));
	add_str(o, "arch", abi ? abi->arch : NULL);
	add_str(o, "prefix", abi ? abi->prefix : NULL);
	add_str(o, "version", abi ? abi->version : NULL);
	add(doc, "vdso", o);

	add(doc, "environment", json_env(run->env));

	res = json_object_new_array();
	for (size_t i = 0; i < run->nresults; i++)
		json_object_array_add(res, json_result(&run->results[i]));
	add(doc, "results", res);

	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	if (fputs(text, f) == EOF || fputc('\n', f) == EOF)
		err = -errno;
	json_object_put(doc);
	return err;
}
