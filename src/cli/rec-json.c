// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rec-json.c - run records to and from JSON (schema "ukbench-run", v1).
 *
 * Every sample is written, in the order it was taken, so that any other
 * statistic can be computed later from the file alone. Figures that do not
 * exist (the spread of a single sample) are null, never NaN, which JSON
 * cannot carry. Reading is strict: a file of another schema or version, or
 * with a field of the wrong type, is refused with the field named; the
 * statistics are recomputed from the samples rather than trusted.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json-put.h"
#include "record.h"

static struct json_object *get_ref(struct json_object *o)
{
	return o ? json_object_get(o) : json_object_new_object();
}

static struct json_object *stats_to_json(const struct ukb_stats *st)
{
	struct json_object *o = json_object_new_object(), *out;

	json_put(o, "n", json_object_new_int64((int64_t)st->n));
	json_put(o, "mean_ns", json_num(st->mean));
	json_put(o, "median_ns", json_num(st->median));
	json_put(o, "stddev_ns", json_num(st->stddev));
	json_put(o, "cv", json_num(st->cv));
	json_put(o, "min_ns", json_num(st->min));
	json_put(o, "max_ns", json_num(st->max));
	json_put(o, "q1_ns", json_num(st->q1));
	json_put(o, "q3_ns", json_num(st->q3));
	json_put(o, "ci95_ns", json_num(st->ci95));
	json_put(o, "ci95_rel", json_num(st->ci95_rel));
	json_put(o, "trimmed_mean_ns", json_num(st->trimmed_mean));
	json_put(o, "per_second", json_num(st->mean > 0 ? 1e9 / st->mean : NAN));
	out = json_object_new_object();
	json_put(out, "low", json_object_new_int64((int64_t)st->outliers_low));
	json_put(out, "high", json_object_new_int64((int64_t)st->outliers_high));
	json_put(out, "severe", json_object_new_int64((int64_t)st->outliers_severe));
	json_put(o, "outliers", out);
	return o;
}

static struct json_object *result_to_json(const struct rec_result *r)
{
	struct json_object *o = json_object_new_object(), *s;

	json_put_str(o, "name", r->name, 1);
	json_put_str(o, "benchmark", r->benchmark, 1);
	json_put_str(o, "variant", r->variant, 1);
	json_put_str(o, "path", r->path, 1);
	json_put_str(o, "detail", r->detail, 1);
	json_put_str(o, "vdso_symbol", r->vdso_symbol, 1);
	json_put_str(o, "unit", r->unit, 1);
	json_put_str(o, "status", ukb_status_name(r->status), 1);
	json_put_str(o, "reason", r->reason, 1);
	json_put(o, "errno", r->err ? json_object_new_int(r->err) : NULL);
	json_put(o, "cpu", r->cpu < 0 ? NULL : json_object_new_int(r->cpu));
	json_put(o, "threads", r->threads ? json_object_new_int((int)r->threads) : NULL);
	json_put(o, "bytes_per_call", r->bytes ? json_object_new_int64(r->bytes) : NULL);
	json_put_str(o, "params", r->params, 1);
	if (r->ncounters) {
		struct json_object *arr = json_object_new_array();

		for (size_t i = 0; i < r->ncounters; i++) {
			const struct rec_counter *c = &r->counters[i];
			struct json_object *co = json_object_new_object(), *ps;

			json_put_str(co, "event", c->name, 1);
			json_put_str(co, "status", c->status, 1);
			json_put_str(co, "reason", c->reason, 1);
			json_put(co, "total", !strcmp(c->status, "ok") ? json_num(c->total) : NULL);
			json_put(co, "per_call", json_num(c->per_call));
			ps = json_object_new_array_ext((int)c->n);
			for (size_t k = 0; k < c->n; k++)
				json_object_array_add(ps, json_num(c->per_sample[k]));
			json_put(co, "per_sample", ps);
			json_object_array_add(arr, co);
		}
		json_put(o, "counters", arr);
	}
	json_put(o, "batch_iterations", json_object_new_int64((int64_t)r->batch_iters));
	json_put(o, "batch_target_ns", json_num(r->batch_ns));
	json_put(o, "warmup_batches", json_object_new_int64((int64_t)r->warmup_batches));
	json_put(o, "measure_s", json_num(r->measure_s));
	json_put(o, "converged", json_object_new_boolean(r->converged));
	json_put(o, "stats", r->status == UKB_OK && r->nsamples ? stats_to_json(&r->stats) : NULL);
	if (r->bytes && r->status == UKB_OK && r->nsamples)
		json_object_object_add(json_object_object_get(o, "stats"), "bytes_per_second",
				       json_num((double)r->bytes * 1e9 / r->stats.mean));
	s = json_object_new_array_ext((int)r->nsamples);
	for (size_t i = 0; i < r->nsamples; i++)
		json_object_array_add(s, json_object_new_double(r->samples[i]));
	json_put(o, "samples_ns", s);
	if (r->nproc) {
		s = json_object_new_array_ext((int)r->nproc);
		for (size_t i = 0; i < r->nproc; i++)
			json_object_array_add(s, json_object_new_double(r->proc_means[i]));
		json_put(o, "process_means_ns", s);
	}
	return o;
}

struct json_object *rec_to_json(const struct rec_run *run)
{
	struct json_object *doc = json_object_new_object(), *res;

	json_put_str(doc, "schema", UKB_JSON_SCHEMA, 1);
	json_put(doc, "schema_version", json_object_new_int(UKB_JSON_SCHEMA_VERSION));
	json_put_str(doc, "ukbench_version", run->ukbench_version, 1);
	json_put(doc, "id", run->id ? json_object_new_int64(run->id) : NULL);
	json_put_str(doc, "label", run->label, 1);
	json_put_str(doc, "host", run->host, 1);
	json_put_str(doc, "started", run->started, 1);
	json_put(doc, "duration_s", json_num(run->duration_s));
	json_put(doc, "interrupted", json_object_new_boolean(run->interrupted));
	json_put(doc, "settings", get_ref(run->settings));
	json_put(doc, "clock", get_ref(run->clock));
	json_put(doc, "vdso", get_ref(run->vdso));
	json_put(doc, "environment", get_ref(run->environment));
	res = json_object_new_array();
	for (size_t i = 0; i < run->nresults; i++)
		json_object_array_add(res, result_to_json(&run->results[i]));
	json_put(doc, "results", res);
	return doc;
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */

struct reader {
	const char *file;
	char *err;
	size_t errlen;
};

static int bad(struct reader *rd, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(rd->err, rd->errlen, "'%s': ", rd->file);

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < rd->errlen)
		vsnprintf(rd->err + n, rd->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A string member: absent or null gives "", another type is an error. */
static int get_str(struct reader *rd, struct json_object *o, const char *key, char *buf, size_t len,
		   const char *where)
{
	struct json_object *v;

	buf[0] = 0;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return bad(rd, "%s.%s is not a string", where, key);
	snprintf(buf, len, "%s", json_object_get_string(v));
	return 0;
}

static int get_num(struct reader *rd, struct json_object *o, const char *key, double *out,
		   const char *where)
{
	struct json_object *v;

	*out = 0;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return bad(rd, "%s.%s is not a number", where, key);
	*out = json_object_get_double(v);
	return 0;
}

/* An array of non-negative times at @key of @where into a new array. */
static int read_numbers(struct reader *rd, struct json_object *s, double **out, size_t *n,
			const char *where, const char *key)
{
	size_t len;

	if (!json_object_is_type(s, json_type_array))
		return bad(rd, "%s.%s is not an array", where, key);
	len = json_object_array_length(s);
	if (!len)
		return 0;
	*out = malloc(len * sizeof(double));
	if (!*out)
		return bad(rd, "out of memory");
	for (size_t k = 0; k < len; k++) {
		struct json_object *v = json_object_array_get_idx(s, k);

		if (!json_object_is_type(v, json_type_double) &&
		    !json_object_is_type(v, json_type_int))
			return bad(rd, "%s.%s[%zu] is not a number", where, key, k);
		(*out)[k] = json_object_get_double(v);
		if (!isfinite((*out)[k]) || (*out)[k] < 0)
			return bad(rd, "%s.%s[%zu] is not a time", where, key, k);
	}
	*n = len;
	return 0;
}

static int read_result(struct reader *rd, struct json_object *o, struct rec_result *r, size_t i)
{
	char where[64], status[32];
	struct json_object *s, *v;
	double d;
	int st;

	snprintf(where, sizeof(where), "results[%zu]", i);
	if (!json_object_is_type(o, json_type_object))
		return bad(rd, "%s is not an object", where);
	if (get_str(rd, o, "name", r->name, sizeof(r->name), where) ||
	    get_str(rd, o, "benchmark", r->benchmark, sizeof(r->benchmark), where) ||
	    get_str(rd, o, "variant", r->variant, sizeof(r->variant), where) ||
	    get_str(rd, o, "path", r->path, sizeof(r->path), where) ||
	    get_str(rd, o, "unit", r->unit, sizeof(r->unit), where) ||
	    get_str(rd, o, "detail", r->detail, sizeof(r->detail), where) ||
	    get_str(rd, o, "vdso_symbol", r->vdso_symbol, sizeof(r->vdso_symbol), where) ||
	    get_str(rd, o, "reason", r->reason, sizeof(r->reason), where) ||
	    get_str(rd, o, "params", r->params, sizeof(r->params), where) ||
	    get_str(rd, o, "status", status, sizeof(status), where))
		return -1;
	if (!r->name[0] || !r->path[0])
		return bad(rd, "%s has no name or path", where);
	st = rec_status_parse(status);
	if (st < 0)
		return bad(
		    rd, "%s.status '%s' is not one of ok, unsupported, skipped, error, interrupted",
		    where, status);
	r->status = (enum ukb_status)st;
	if (get_num(rd, o, "errno", &d, where))
		return -1;
	r->err = (int)d;
	if (json_object_object_get_ex(o, "cpu", &v) && v)
		r->cpu = json_object_get_int(v);
	if (json_object_object_get_ex(o, "threads", &v) && v)
		r->threads = (unsigned)json_object_get_int(v);
	if (json_object_object_get_ex(o, "bytes_per_call", &v) && v)
		r->bytes = (long)json_object_get_int64(v);
	if (get_num(rd, o, "batch_iterations", &d, where))
		return -1;
	r->batch_iters = (uint64_t)d;
	if (get_num(rd, o, "batch_target_ns", &r->batch_ns, where) ||
	    get_num(rd, o, "measure_s", &r->measure_s, where) ||
	    get_num(rd, o, "warmup_batches", &d, where))
		return -1;
	r->warmup_batches = (uint64_t)d;
	r->converged = json_object_get_boolean(json_object_object_get(o, "converged"));
	if (!r->benchmark[0])
		snprintf(r->benchmark, sizeof(r->benchmark), "%s", r->name);
	if (!r->unit[0])
		snprintf(r->unit, sizeof(r->unit), "call");

	if (json_object_object_get_ex(o, "samples_ns", &s) && s &&
	    read_numbers(rd, s, &r->samples, &r->nsamples, where, "samples_ns"))
		return -1;
	if (json_object_object_get_ex(o, "process_means_ns", &s) && s) {
		if (read_numbers(rd, s, &r->proc_means, &r->nproc, where, "process_means_ns"))
			return -1;
	}
	if (json_object_object_get_ex(o, "counters", &s) && s) {
		if (!json_object_is_type(s, json_type_array))
			return bad(rd, "%s.counters is not an array", where);
		for (size_t k = 0; k < json_object_array_length(s); k++) {
			struct json_object *co = json_object_array_get_idx(s, k), *pc;
			struct rec_counter *c = rec_add_counter(r);
			char cw[96];

			snprintf(cw, sizeof(cw), "%s.counters[%zu]", where, k);
			if (!c)
				return bad(rd, "out of memory");
			if (!json_object_is_type(co, json_type_object))
				return bad(rd, "%s is not an object", cw);
			if (get_str(rd, co, "event", c->name, sizeof(c->name), cw) ||
			    get_str(rd, co, "status", c->status, sizeof(c->status), cw) ||
			    get_str(rd, co, "reason", c->reason, sizeof(c->reason), cw) ||
			    get_num(rd, co, "total", &c->total, cw))
				return -1;
			pc = json_object_object_get(co, "per_call");
			c->per_call = pc ? json_object_get_double(pc) : NAN;
		}
	}
	if (r->status == UKB_OK && !r->nsamples)
		return bad(rd, "%s is 'ok' but has no samples", where);
	if (r->status == UKB_OK)
		rec_result_restat(r);
	return 0;
}

/* Line and column of byte @off in @text, for syntax errors. */
static void position(const char *text, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && text[i]; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static struct json_object *own_object(struct json_object *doc, const char *key)
{
	struct json_object *v;

	if (json_object_object_get_ex(doc, key, &v) && v &&
	    json_object_is_type(v, json_type_object))
		return json_object_get(v);
	return json_object_new_object();
}

int rec_from_json_text(struct rec_run *run, const char *text, size_t len, const char *file,
		       char *err, size_t errlen)
{
	struct reader rd = { file, err, errlen };
	struct json_tokener *tok = json_tokener_new();
	struct json_object *doc, *res, *v;
	enum json_tokener_error jerr;
	char schema[64];
	int ret = -1, line, col;
	double d;

	memset(run, 0, sizeof(*run));
	if (!tok)
		return bad(&rd, "out of memory");
	doc = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	if (!doc && jerr == json_tokener_continue) {
		position(text, len, &line, &col);
		bad(&rd, "truncated JSON: the document ends at line %d, column %d", line, col);
		goto out;
	}
	if (!doc) {
		position(text, json_tokener_get_parse_end(tok), &line, &col);
		bad(&rd, "not JSON: %s at line %d, column %d", json_tokener_error_desc(jerr), line,
		    col);
		goto out;
	}
	{
		size_t end = json_tokener_get_parse_end(tok);

		while (end < len && (text[end] == ' ' || text[end] == '\n' || text[end] == '\t' ||
				     text[end] == '\r'))
			end++;
		if (end < len) {
			position(text, end, &line, &col);
			bad(&rd, "not JSON: text after the document at line %d, column %d", line,
			    col);
			goto out;
		}
	}
	if (!json_object_is_type(doc, json_type_object)) {
		bad(&rd, "not a ukbench result: the document is not an object");
		goto out;
	}
	if (get_str(&rd, doc, "schema", schema, sizeof(schema), "$"))
		goto out;
	if (strcmp(schema, UKB_JSON_SCHEMA)) {
		bad(&rd, "not a ukbench result: schema is '%s', expected '%s'", schema,
		    UKB_JSON_SCHEMA);
		goto out;
	}
	if (get_num(&rd, doc, "schema_version", &d, "$"))
		goto out;
	if (d != UKB_JSON_SCHEMA_VERSION) {
		bad(&rd, "schema version %g is not supported: this ukbench reads version %d", d,
		    UKB_JSON_SCHEMA_VERSION);
		goto out;
	}
	if (get_str(&rd, doc, "label", run->label, sizeof(run->label), "$") ||
	    get_str(&rd, doc, "host", run->host, sizeof(run->host), "$") ||
	    get_str(&rd, doc, "started", run->started, sizeof(run->started), "$") ||
	    get_str(&rd, doc, "ukbench_version", run->ukbench_version, sizeof(run->ukbench_version),
		    "$") ||
	    get_num(&rd, doc, "duration_s", &run->duration_s, "$"))
		goto out;
	if (!run->started[0]) {
		bad(&rd, "$.started is missing");
		goto out;
	}
	run->interrupted = json_object_get_boolean(json_object_object_get(doc, "interrupted"));
	run->environment = own_object(doc, "environment");
	run->settings = own_object(doc, "settings");
	run->clock = own_object(doc, "clock");
	run->vdso = own_object(doc, "vdso");
	if (!run->host[0])
		snprintf(
		    run->host, sizeof(run->host), "%s",
		    json_object_get_string(json_object_object_get(run->environment, "hostname"))
			?: "unknown");
	v = json_object_object_get(run->environment, "kernel_release");
	snprintf(run->kernel_release, sizeof(run->kernel_release), "%s",
		 v ? json_object_get_string(v) : "");
	snprintf(run->source, sizeof(run->source), "%s", file);

	if (!json_object_object_get_ex(doc, "results", &res) ||
	    !json_object_is_type(res, json_type_array)) {
		bad(&rd, "$.results is missing or not an array");
		goto out;
	}
	for (size_t i = 0; i < json_object_array_length(res); i++) {
		struct rec_result *r = rec_add_result(run);

		if (!r) {
			bad(&rd, "out of memory");
			goto out;
		}
		if (read_result(&rd, json_object_array_get_idx(res, i), r, i))
			goto out;
	}
	ret = 0;
out:
	if (ret)
		rec_run_release(run);
	json_object_put(doc);
	json_tokener_free(tok);
	return ret;
}
