// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rec-json-write.c - a run record as JSON (schema "ukbench-run", v1).
 *
 * Every sample is written, in the order it was taken, so that any other
 * statistic can be computed later from the file alone. Figures that do
 * not exist (the spread of a single sample) are null, never NaN. The
 * result's fields come from the one table in fields.c. Libc only: the
 * 32-bit helper and the fresh processes of `run --processes` answer in this
 * same form.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fields.h"
#include "json-write.h"
#include "record.h"

static void write_field(struct jw *w, const struct rec_field *f, const struct rec_result *r)
{
	if (rec_field_is_null(f, r)) {
		jw_null(w, f->json);
		return;
	}
	switch (f->type) {
	case RF_STR:
	case RF_STATUS:
		jw_str(w, f->json, rec_field_str(f, r));
		break;
	case RF_BOOL:
		jw_bool(w, f->json, (int)rec_field_num(f, r));
		break;
	case RF_DOUBLE:
		jw_num(w, f->json, rec_field_num(f, r));
		break;
	case RF_U64:
		jw_uint(w, f->json, *(const uint64_t *)((const char *)r + f->off));
		break;
	case RF_LONG:
		jw_int(w, f->json, *(const long *)((const char *)r + f->off));
		break;
	default:
		jw_int(w, f->json, (long long)rec_field_num(f, r));
	}
}

static void write_numbers(struct jw *w, const char *key, const double *v, size_t n)
{
	jw_arr_begin(w, key);
	for (size_t i = 0; i < n; i++)
		jw_num(w, NULL, v[i]);
	jw_arr_end(w);
}

static void write_counters(struct jw *w, const struct rec_result *r, int brief)
{
	jw_list_begin(w, "counters");
	for (size_t i = 0; i < r->ncounters; i++) {
		const struct rec_counter *c = &r->counters[i];

		jw_obj_begin(w, NULL);
		jw_str(w, "event", c->name);
		jw_str(w, "status", c->status);
		jw_str(w, "reason", c->reason[0] ? c->reason : NULL);
		jw_num(w, "total", !strcmp(c->status, "ok") ? c->total : NAN);
		jw_num(w, "per_call", c->per_call);
		if (!brief)
			write_numbers(w, "per_sample", c->per_sample, c->n);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void write_stats(struct jw *w, const struct rec_result *r)
{
	const struct ukb_stats *st = &r->stats;

	if (r->status != UKB_OK || !r->nsamples) {
		jw_null(w, "stats");
		return;
	}
	jw_obj_begin(w, "stats");
	for (size_t i = 0; i < stat_nfields; i++)
		jw_num(w, stat_fields[i].json, stat_fields[i].get(r));
	jw_obj_begin(w, "outliers");
	jw_uint(w, "low", st->outliers_low);
	jw_uint(w, "high", st->outliers_high);
	jw_uint(w, "severe", st->outliers_severe);
	jw_obj_end(w);
	if (r->bytes)
		jw_num(w, "bytes_per_second", (double)r->bytes * 1e9 / st->mean);
	jw_obj_end(w);
}

/* The batches' samples and the figures beside each. */
static void write_samples(struct jw *w, const struct rec_result *r)
{
	write_numbers(w, "samples_ns", r->samples, r->nsamples);
	if (isfinite(rec_cpu_per_call(r)))
		write_numbers(w, "cpu_samples_ns", r->cpu_samples, r->nsamples);
	if (isfinite(rec_ref_mean(r, 0, r->nsamples)))
		write_numbers(w, "ref_samples_ns", r->ref_samples, r->nsamples);
	if (rec_disturbed_count(r)) {
		jw_arr_begin(w, "disturbed");
		for (size_t i = 0; i < r->nsamples; i++)
			jw_int(w, NULL, r->disturbed[i]);
		jw_arr_end(w);
	}
}

/* @summary: a result measured in processes goes without its batches' samples */
static void write_result(struct jw *w, const struct rec_result *r, int summary)
{
	int brief = r->summary || (summary && rec_summarizable(r));

	jw_obj_begin(w, NULL);
	for (size_t i = 0; i < rec_nfields; i++)
		write_field(w, &rec_fields[i], r);
	if (r->ncounters)
		write_counters(w, r, brief);
	write_stats(w, r);
	if (brief)
		jw_uint(w, "batches", r->nsamples);
	else
		write_samples(w, r);
	if (r->nproc)
		write_numbers(w, "process_means_ns", r->proc_means, r->nproc);
	/* a summary keeps what they make, stats.within_se_ns, not each of them */
	if (r->nproc && r->proc_se && !brief)
		write_numbers(w, "process_se_ns", r->proc_se, r->nproc);
	if (r->nproc && r->proc_ref)
		write_numbers(w, "process_ref_ns", r->proc_ref, r->nproc);
	if (r->profile)
		jw_raw(w, "profile", r->profile);
	jw_obj_end(w);
}

static char *to_json(const struct rec_run *run, int pretty, int summary, size_t *len)
{
	struct jw w;
	char digest[24];

	jw_init(&w, pretty);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "schema", UKB_JSON_SCHEMA);
	jw_int(&w, "schema_version", UKB_JSON_SCHEMA_VERSION);
	jw_str(&w, "ukbench_version", run->ukbench_version[0] ? run->ukbench_version : NULL);
	if (run->id)
		jw_int(&w, "id", run->id);
	else
		jw_null(&w, "id");
	jw_str(&w, "uuid", run->uuid[0] ? run->uuid : NULL);
	jw_str(&w, "label", run->label[0] ? run->label : NULL);
	jw_str(&w, "host", run->host[0] ? run->host : NULL);
	jw_str(&w, "started", run->started);
	jw_num(&w, "duration_s", run->duration_s);
	jw_bool(&w, "interrupted", run->interrupted);
	/* what knows the run again, whose samples are no longer all here */
	if (summary || run->digest[0]) {
		rec_run_digest(run, digest, sizeof(digest));
		jw_str(&w, "digest", digest);
	}
	jw_raw(&w, "settings", run->settings);
	jw_raw(&w, "clock", run->clock);
	jw_raw(&w, "vdso", run->vdso);
	jw_raw(&w, "environment", run->environment);
	jw_list_begin(&w, "results");
	for (size_t i = 0; i < run->nresults; i++)
		write_result(&w, &run->results[i], summary);
	jw_arr_end(&w);
	jw_obj_end(&w);
	return jw_finish(&w, len);
}

char *rec_to_json(const struct rec_run *run, int pretty, size_t *len)
{
	return to_json(run, pretty, 0, len);
}

char *rec_to_json_summary(const struct rec_run *run, size_t *len)
{
	return to_json(run, 0, 1, len);
}

int rec_write_json(int fd, const struct rec_run *run, int pretty)
{
	size_t len, off = 0;
	char *text = rec_to_json(run, pretty, &len);
	int err = 0;

	if (!text)
		return -ENOMEM;
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)n;
	}
	free(text);
	return err;
}
