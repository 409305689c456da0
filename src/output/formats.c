// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats.c - a run as CSV, KTAP and Google Benchmark JSON.
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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desc.h"
#include "fields.h"
#include "json-write.h"
#include "kcidb.h"
#include "output.h"
#include "rows.h"
#include "stats.h"
#include "width.h"

int print_run(FILE *f, int cols, const struct rec_run *run, enum out_format fmt,
	      const struct kcidb_ids *ids)
{
	static const struct kcidb_ids none;

	size_t len;
	char *text;
	int err;

	switch (fmt) {
	case OUT_TABLE:
		table_print(f, cols, run);
		return ferror(f) ? -1 : 0;
	case OUT_JSON:
		text = rec_to_json(run, 1, &len);
		err = text && fwrite(text, 1, len, f) == len ? 0 : -1;
		free(text);
		return err;
	case OUT_CSV:
		return csv_print(f, run);
	case OUT_KTAP:
		return ktap_print(f, run, NULL);
	case OUT_GBENCH:
		return gbench_print(f, run);
	case OUT_LAVA:
		return lava_print(f, run);
	case OUT_KCIDB:
		return kcidb_run_print(f, ids ? ids : &none, run);
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* CSV                                                                 */

static void csv_field(FILE *f, const char *s, int last)
{
	rows_csv_text(f, s);
	fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, double v, int last)
{
	char buf[40];

	if (isfinite(v)) {
		jw_format_double(buf, sizeof(buf), v);
		fputs(buf, f);
	}
	fputc(last ? '\n' : ',', f);
}

/* A field of the table as a CSV value. */
static void csv_value(FILE *f, const struct rec_field *fd, const struct rec_result *r, int last)
{
	if (fd->type == RF_STR || fd->type == RF_STATUS)
		csv_field(f, rec_field_str(fd, r), last);
	else
		csv_num(f, rec_field_is_null(fd, r) ? NAN : rec_field_num(fd, r), last);
}

/* The columns: the run's, then the result fields and statistics of fields.c. */
static void csv_header(FILE *f)
{
	fputs("run_id,label,host,started,kernel", f);
	for (size_t k = 0; k < rec_nfields; k++)
		if (rec_fields[k].flags & RF_CSV)
			fprintf(f, ",%s", rec_fields[k].json);
	for (size_t k = 0; k < stat_nfields; k++)
		if (stat_fields[k].flags & RF_CSV)
			fprintf(f, ",%s", stat_fields[k].json);
	for (size_t k = 0; k < rec_nfields; k++)
		if (rec_fields[k].flags & RF_CSV_TAIL)
			fprintf(f, ",%s", rec_fields[k].json);
	fputc('\n', f);
}

int csv_print(FILE *f, const struct rec_run *run)
{
	size_t last = 0;
	char id[32];

	for (size_t k = 0; k < rec_nfields; k++)
		if (rec_fields[k].flags & RF_CSV_TAIL)
			last = k;
	csv_header(f);
	snprintf(id, sizeof(id), "%lld", (long long)run->id);
	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];

		csv_field(f, run->id ? id : "", 0);
		csv_field(f, run->label, 0);
		csv_field(f, run->host, 0);
		csv_field(f, run->started, 0);
		csv_field(f, run->kernel_release, 0);
		for (size_t k = 0; k < rec_nfields; k++)
			if (rec_fields[k].flags & RF_CSV)
				csv_value(f, &rec_fields[k], r, 0);
		for (size_t k = 0; k < stat_nfields; k++)
			if (stat_fields[k].flags & RF_CSV)
				csv_num(f, stat_fields[k].get(r), 0);
		for (size_t k = 0; k < rec_nfields; k++)
			if (rec_fields[k].flags & RF_CSV_TAIL)
				csv_value(f, &rec_fields[k], r, k == last);
	}
	return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* KTAP                                                                */

int ktap_print(FILE *f, const struct rec_run *run, const char *const *verdicts)
{
	/* a stored run's strings made visible: KTAP is read on terminals */
	char h[256], k[256], n[256], p[256], u[64], why[1024];

	fprintf(f, "KTAP version 1\n");
	fprintf(f, "# ukbench %s on %s, Linux %s, %s\n", run->ukbench_version,
		vis(run->host, h, sizeof(h)), vis(run->kernel_release, k, sizeof(k)), run->started);
	fprintf(f, "1..%zu\n", run->nresults);
	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];
		const char *verdict = verdicts ? verdicts[i] : NULL;
		size_t t = i + 1;

		vis(r->name, n, sizeof(n));
		vis(r->path, p, sizeof(p));
		switch (r->status) {
		case UKB_OK:
			if (r->nsamples)
				fprintf(f,
					"# %s/%s: %.3f ns/%s ±%.2f%% (95%% CI), median %.3f, %zu "
					"samples\n",
					n, p, r->stats.mean, vis(r->unit, u, sizeof(u)),
					100 * r->stats.ci95_rel, r->stats.median, r->nsamples);
			if (verdict)
				fprintf(f, "# %s\nnot ok %zu %s/%s\n",
					vis(verdict, why, sizeof(why)), t, n, p);
			else
				fprintf(f, "ok %zu %s/%s\n", t, n, p);
			break;
		case UKB_UNSUPPORTED:
		case UKB_SKIPPED:
			fprintf(f, "ok %zu %s/%s # SKIP %s\n", t, n, p,
				vis(r->reason, why, sizeof(why)));
			break;
		case UKB_ERROR:
		case UKB_INTERRUPTED:
			fprintf(f, "# %s: %s\nnot ok %zu %s/%s\n", ukb_status_name(r->status),
				vis(r->reason, why, sizeof(why)), t, n, p);
			break;
		}
	}
	return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Google Benchmark JSON                                               */

static void gb_entry(struct jw *w, const char *name, const char *run_name, int family,
		     const char *aggregate, int64_t iterations, double ns, double cpu_share)
{
	jw_obj_begin(w, NULL);
	jw_str(w, "name", name);
	jw_int(w, "family_index", family);
	jw_int(w, "per_family_instance_index", 0);
	jw_str(w, "run_name", run_name);
	jw_str(w, "run_type", aggregate ? "aggregate" : "iteration");
	if (aggregate) {
		jw_str(w, "aggregate_name", aggregate);
		jw_str(w, "aggregate_unit", strcmp(aggregate, "cv") ? "time" : "percentage");
	}
	jw_int(w, "threads", 1);
	jw_int(w, "iterations", iterations);
	jw_num(w, "real_time", ns);
	/* "CPU": the thread's CPU time, as the share of wall time it had the CPU */
	jw_num(w, "cpu_time", isfinite(cpu_share) ? ns * cpu_share : ns);
	jw_str(w, "time_unit", "ns");
}

static void gb_context(struct jw *w, const struct rec_run *run)
{
	const struct rec_env *env = rec_env(run);
	const char *gov = env->governor;

	jw_obj_begin(w, "context");
	jw_str(w, "date", run->started);
	jw_str(w, "host_name", run->host);
	jw_str(w, "executable", "ukbench");
	jw_int(w, "num_cpus", env->online_cpus);
	jw_int(w, "mhz_per_cpu", 0);
	/* a governor other than performance scales; "none" means no cpufreq */
	jw_bool(w, "cpu_scaling_enabled",
		gov && strcmp(gov, "performance") && strncmp(gov, "none", 4));
	jw_arr_begin(w, "caches");
	jw_arr_end(w);
	jw_arr_begin(w, "load_avg");
	for (size_t i = 0; i < env->nload; i++)
		jw_num(w, NULL, env->load[i]);
	jw_arr_end(w);
	jw_str(w, "library_build_type", "release");
	jw_str(w, "ukbench_version", run->ukbench_version);
	jw_str(w, "kernel_release", run->kernel_release);
	jw_obj_end(w);
}

/*
 * The thread's CPU time per call over every batch (disturbed ones too: the
 * time it did run) against the figure: what turns each repetition's wall
 * time into its "cpu_time". NAN when the CPU time is not known.
 */
static double cpu_share(const struct rec_result *r)
{
	double cpu = rec_cpu_per_call(r);

	return isfinite(cpu) && r->stats.mean > 0 ? cpu / r->stats.mean : NAN;
}

int gbench_print(FILE *f, const struct rec_run *run)
{
	struct jw w;
	int family = 0, err;
	size_t len;
	char *text;

	jw_init(&w, 1);
	jw_obj_begin(&w, NULL);
	gb_context(&w, run);
	jw_list_begin(&w, "benchmarks");
	/*
	 * A repetition is one fresh process, its mean per call: what varies
	 * from one run of a benchmark binary to the next, which is what
	 * compare.py's U test and geomean take repetitions to be. Batches of
	 * one process are not independent repetitions (they would make any
	 * two runs look different). An unreplicated path (--processes 1) is one.
	 */
	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];
		const double *vals = r->nproc >= 2 ? r->proc_means : &r->stats.mean;
		size_t nv = r->nproc >= 2 ? r->nproc : 1;
		int64_t iters;
		struct ukb_stats st;
		char name[192], agg[224];
		double share;

		if (r->status != UKB_OK || !r->nsamples)
			continue;
		share = cpu_share(r);
		ukb_stats_compute(vals, nv, &st);
		iters = (int64_t)(r->batch_iters * r->nsamples / nv);
		snprintf(name, sizeof(name), "%s/%s", r->name, r->path);
		for (size_t k = 0; k < nv; k++) {
			gb_entry(&w, name, name, family, NULL, iters, vals[k], share);
			jw_int(&w, "repetitions", (long long)nv);
			jw_int(&w, "repetition_index", (long long)k);
			jw_obj_end(&w);
		}
		if (nv < 2) {
			family++;
			continue;
		}
		snprintf(agg, sizeof(agg), "%s_mean", name);
		gb_entry(&w, agg, name, family, "mean", (int64_t)nv, st.mean, share);
		jw_obj_end(&w);
		snprintf(agg, sizeof(agg), "%s_median", name);
		gb_entry(&w, agg, name, family, "median", (int64_t)nv, st.median, share);
		jw_obj_end(&w);
		snprintf(agg, sizeof(agg), "%s_stddev", name);
		gb_entry(&w, agg, name, family, "stddev", (int64_t)nv, st.stddev, share);
		jw_obj_end(&w);
		snprintf(agg, sizeof(agg), "%s_cv", name);
		gb_entry(&w, agg, name, family, "cv", (int64_t)nv, st.cv, NAN);
		jw_obj_end(&w);
		family++;
	}
	jw_arr_end(&w);
	jw_obj_end(&w);
	text = jw_finish(&w, &len);
	if (!text)
		return -1;
	err = fwrite(text, 1, len, f) == len ? 0 : -1;
	free(text);
	return err;
}
