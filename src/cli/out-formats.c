// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out-formats.c - a run as CSV, KTAP and Google Benchmark JSON.
 *
 * CSV: one row per path with its statistics (RFC 4180 quoting).
 * KTAP (version 1, as kselftest harnesses read it): one test per path,
 * figures as diagnostic lines; a path that is not available here is a
 * SKIP, a failed or interrupted one a "not ok", and so is one a
 * regression check flagged.
 * Google Benchmark JSON: a "context" and a "benchmarks" array in which
 * each batch is one repetition (iterations = calls per batch, real_time =
 * ns per call), followed by the mean, median, stddev and cv aggregates,
 * so that the tools written for it (compare.py's U test among them) read
 * ukbench's results as their own.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output.h"

int parse_format(const char *arg, enum out_format *out)
{
	static const struct {
		const char *name;
		enum out_format fmt;
	} names[] = {
		{ "table", OUT_TABLE }, { "json", OUT_JSON },	  { "csv", OUT_CSV },
		{ "ktap", OUT_KTAP },	{ "gbench", OUT_GBENCH },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i].name)) {
			*out = names[i].fmt;
			return 0;
		}
	return -1;
}

int print_run(FILE *f, const struct rec_run *run, enum out_format fmt)
{
	struct json_object *doc;
	int err;

	switch (fmt) {
	case OUT_TABLE:
		table_print(f, run);
		return ferror(f) ? -1 : 0;
	case OUT_JSON:
		doc = rec_to_json(run);
		err = json_print(f, doc);
		json_object_put(doc);
		return err;
	case OUT_CSV:
		return csv_print(f, run);
	case OUT_KTAP:
		return ktap_print(f, run, NULL);
	case OUT_GBENCH:
		return gbench_print(f, run);
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* CSV                                                                 */

static void csv_field(FILE *f, const char *s, int last)
{
	if (strpbrk(s, ",\"\n\r")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	fputc(',', f);
}

int csv_print(FILE *f, const struct rec_run *run)
{
	char id[32];

	fputs("run_id,label,host,started,kernel,name,path,status,n,mean_ns,median_ns,stddev_ns,"
	      "cv,min_ns,max_ns,ci95_ns,ci95_rel,trimmed_mean_ns,per_second,converged,reason\n",
	      f);
	snprintf(id, sizeof(id), "%lld", (long long)run->id);
	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];
		const struct ukb_stats *s = &r->stats;
		int ok = r->status == UKB_OK && r->nsamples;

		csv_field(f, run->id ? id : "", 0);
		csv_field(f, run->label, 0);
		csv_field(f, run->host, 0);
		csv_field(f, run->started, 0);
		csv_field(f, run->kernel_release, 0);
		csv_field(f, r->name, 0);
		csv_field(f, r->path, 0);
		csv_field(f, ukb_status_name(r->status), 0);
		fprintf(f, "%zu,", r->nsamples);
		csv_num(f, ok ? s->mean : NAN);
		csv_num(f, ok ? s->median : NAN);
		csv_num(f, ok ? s->stddev : NAN);
		csv_num(f, ok ? s->cv : NAN);
		csv_num(f, ok ? s->min : NAN);
		csv_num(f, ok ? s->max : NAN);
		csv_num(f, ok ? s->ci95 : NAN);
		csv_num(f, ok ? s->ci95_rel : NAN);
		csv_num(f, ok ? s->trimmed_mean : NAN);
		csv_num(f, ok && s->mean > 0 ? 1e9 / s->mean : NAN);
		fprintf(f, "%d,", r->converged);
		csv_field(f, r->reason, 1);
	}
	return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* KTAP                                                                */

int ktap_print(FILE *f, const struct rec_run *run, const char *const *verdicts)
{
	fprintf(f, "KTAP version 1\n");
	fprintf(f, "# ukbench %s on %s, Linux %s, %s\n", run->ukbench_version, run->host,
		run->kernel_release, run->started);
	fprintf(f, "1..%zu\n", run->nresults);
	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];
		const char *verdict = verdicts ? verdicts[i] : NULL;
		size_t t = i + 1;

		switch (r->status) {
		case UKB_OK:
			if (r->nsamples)
				fprintf(f,
					"# %s/%s: %.3f ns/%s ±%.2f%% (95%% CI), median %.3f, %zu "
					"samples\n",
					r->name, r->path, r->stats.mean, r->unit,
					100 * r->stats.ci95_rel, r->stats.median, r->nsamples);
			if (verdict)
				fprintf(f, "# %s\nnot ok %zu %s/%s\n", verdict, t, r->name,
					r->path);
			else
				fprintf(f, "ok %zu %s/%s\n", t, r->name, r->path);
			break;
		case UKB_UNSUPPORTED:
		case UKB_SKIPPED:
			fprintf(f, "ok %zu %s/%s # SKIP %s\n", t, r->name, r->path, r->reason);
			break;
		case UKB_ERROR:
		case UKB_INTERRUPTED:
			fprintf(f, "# %s: %s\nnot ok %zu %s/%s\n", ukb_status_name(r->status),
				r->reason, t, r->name, r->path);
			break;
		}
	}
	return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Google Benchmark JSON                                               */

static struct json_object *gb_entry(const char *name, const char *run_name, int family,
				    const char *aggregate, int64_t iterations, double ns)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "family_index", json_object_new_int(family));
	json_object_object_add(o, "per_family_instance_index", json_object_new_int(0));
	json_object_object_add(o, "run_name", json_object_new_string(run_name));
	json_object_object_add(o, "run_type",
			       json_object_new_string(aggregate ? "aggregate" : "iteration"));
	if (aggregate) {
		json_object_object_add(o, "aggregate_name", json_object_new_string(aggregate));
		json_object_object_add(
		    o, "aggregate_unit",
		    json_object_new_string(strcmp(aggregate, "cv") ? "time" : "percentage"));
	}
	json_object_object_add(o, "threads", json_object_new_int(1));
	json_object_object_add(o, "iterations", json_object_new_int64(iterations));
	json_object_object_add(o, "real_time", json_object_new_double(ns));
	json_object_object_add(o, "cpu_time", json_object_new_double(ns));
	json_object_object_add(o, "time_unit", json_object_new_string("ns"));
	return o;
}

int gbench_print(FILE *f, const struct rec_run *run)
{
	struct json_object *doc = json_object_new_object(), *ctx = json_object_new_object();
	struct json_object *list = json_object_new_array(), *env = run->environment;
	struct json_object *cpus = json_object_object_get(env, "online_cpus");
	struct json_object *load = json_object_object_get(env, "loadavg");
	const char *gov = json_object_get_string(json_object_object_get(env, "governor"));
	int family = 0, err;

	json_object_object_add(ctx, "date", json_object_new_string(run->started));
	json_object_object_add(ctx, "host_name", json_object_new_string(run->host));
	json_object_object_add(ctx, "executable", json_object_new_string("ukbench"));
	json_object_object_add(ctx, "num_cpus", json_object_new_int(json_object_get_int(cpus)));
	json_object_object_add(ctx, "mhz_per_cpu", json_object_new_int(0));
	/* a governor other than performance scales; "none" means no cpufreq */
	json_object_object_add(
	    ctx, "cpu_scaling_enabled",
	    json_object_new_boolean(gov && strcmp(gov, "performance") && strncmp(gov, "none", 4)));
	json_object_object_add(ctx, "caches", json_object_new_array());
	json_object_object_add(ctx, "load_avg",
			       load ? json_object_get(load) : json_object_new_array());
	json_object_object_add(ctx, "library_build_type", json_object_new_string("release"));
	json_object_object_add(ctx, "ukbench_version",
			       json_object_new_string(run->ukbench_version));
	json_object_object_add(ctx, "kernel_release", json_object_new_string(run->kernel_release));
	json_object_object_add(doc, "context", ctx);

	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];
		char name[192], agg[224];
		struct json_object *e;

		if (r->status != UKB_OK || !r->nsamples)
			continue;
		snprintf(name, sizeof(name), "%s/%s", r->name, r->path);
		for (size_t k = 0; k < r->nsamples; k++) {
			e = gb_entry(name, name, family, NULL, (int64_t)r->batch_iters,
				     r->samples[k]);
			json_object_object_add(e, "repetitions",
					       json_object_new_int((int)r->nsamples));
			json_object_object_add(e, "repetition_index", json_object_new_int((int)k));
			json_object_array_add(list, e);
		}
		snprintf(agg, sizeof(agg), "%s_mean", name);
		json_object_array_add(
		    list, gb_entry(agg, name, family, "mean", (int64_t)r->nsamples, r->stats.mean));
		snprintf(agg, sizeof(agg), "%s_median", name);
		json_object_array_add(list, gb_entry(agg, name, family, "median",
						     (int64_t)r->nsamples, r->stats.median));
		if (isfinite(r->stats.stddev)) {
			snprintf(agg, sizeof(agg), "%s_stddev", name);
			json_object_array_add(list,
					      gb_entry(agg, name, family, "stddev",
						       (int64_t)r->nsamples, r->stats.stddev));
			snprintf(agg, sizeof(agg), "%s_cv", name);
			json_object_array_add(list, gb_entry(agg, name, family, "cv",
							     (int64_t)r->nsamples, r->stats.cv));
		}
		family++;
	}
	json_object_object_add(doc, "benchmarks", list);
	err = json_print(f, doc);
	json_object_put(doc);
	return err;
}
