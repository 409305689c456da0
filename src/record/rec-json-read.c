// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rec-json-read.c - run records from JSON (schema "ukbench-run", v1), with
 * jansson (through jv.h).
 *
 * Reading is strict: a file of another schema or version, or with a field
 * of the wrong type or out of its range, is refused with the field named;
 * the statistics are recomputed from the samples rather than trusted (a
 * summary, which has none, keeps those it carries). The result's fields
 * come from the one table in fields.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jv.h"
#include "fields.h"
#include "record.h"
#include "reference.h"

/* ------------------------------------------------------------------ */
/* Reading                                                             */

struct reader {
	const char *file;
	char *err;
	size_t errlen;
	int procs_beside; /* a summary's processes may be kept beside it */
};

static int bad(struct reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

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

/* Is @s valid UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF)? */
static int utf8_valid(const unsigned char *s)
{
	while (*s) {
		unsigned c = *s, n = c < 0x80	      ? 0
				     : (c >> 5) == 6  ? 1
				     : (c >> 4) == 14 ? 2
				     : (c >> 3) == 30 ? 3
						      : 9;
		unsigned cp = n == 0 ? c : n == 1 ? c & 0x1f : n == 2 ? c & 0x0f : c & 0x07;

		if (n == 9)
			return 0;
		for (unsigned i = 1; i <= n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i] & 0x3f);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		s += n + 1;
	}
	return 1;
}

/*
 * @s (valid UTF-8) into @buf of @len bytes, cut where it does not fit at
 * the start of a character, never inside one: what is kept reads back.
 */
static void copy_utf8(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (n >= len) {
		n = len - 1;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(buf, s, n);
	buf[n] = 0;
}

/*
 * A description's member the record keeps beside it (the host name, the
 * kernel release) into @buf: a UTF-8 string, else @dflt.
 */
static int take_member(struct reader *rd, struct jv *o, const char *key, char *buf, size_t len,
		       const char *dflt)
{
	struct jv *v = jv_get(o, key);
	const char *s = v && jv_is(v, JV_STRING) ? jv_str(v) : NULL;

	/* kept as it is, or refused: a name cut short would be another host */
	if (s && (strlen(s) != jv_strlen(v)))
		return bad(rd, "$.environment.%s holds a NUL character", key);
	if (s && jv_strlen(v) >= len)
		return bad(rd, "$.environment.%s is %zu bytes long; it holds at most %zu", key,
			   jv_strlen(v), len - 1);
	copy_utf8(buf, len, s && utf8_valid((const unsigned char *)s) ? s : dflt);
	return 0;
}

/* A string member: absent or null gives "", another type is an error. */
static int get_str(struct reader *rd, struct jv *o, const char *key, char *buf, size_t len,
		   const char *where)
{
	struct jv *v;

	buf[0] = 0;
	if (!(v = jv_get(o, key)))
		return 0;
	if (!jv_is(v, JV_STRING))
		return bad(rd, "%s.%s is not a string", where, key);
	/* what cannot be kept as it is, is refused: never cut, never changed */
	if (strlen(jv_str(v)) != jv_strlen(v))
		return bad(rd, "%s.%s holds a NUL character", where, key);
	if (jv_strlen(v) >= len)
		return bad(rd, "%s.%s is %zu bytes long; it holds at most %zu", where, key,
			   jv_strlen(v), len - 1);
	if (!utf8_valid((const unsigned char *)jv_str(v)))
		return bad(rd, "%s.%s is not UTF-8", where, key);
	copy_utf8(buf, len, jv_str(v));
	return 0;
}

static int get_num(struct reader *rd, struct jv *o, const char *key, double *out, const char *where)
{
	struct jv *v;

	*out = 0;
	if (!(v = jv_get(o, key)))
		return 0;
	if (!jv_is(v, JV_REAL) && !jv_is(v, JV_INT))
		return bad(rd, "%s.%s is not a number", where, key);
	*out = jv_num(v, 0);
	if (!isfinite(*out))
		return bad(rd, "%s.%s is not a finite number", where, key);
	return 0;
}

/* An array of non-negative times at @key of @where into a new array. */
static int read_numbers(struct reader *rd, struct jv *s, double **out, size_t *n, const char *where,
			const char *key)
{
	size_t len;

	if (!jv_is(s, JV_ARRAY))
		return bad(rd, "%s.%s is not an array", where, key);
	len = jv_len(s);
	if (!len)
		return 0;
	*out = malloc(len * sizeof(double));
	if (!*out)
		return bad(rd, "out of memory");
	for (size_t k = 0; k < len; k++) {
		struct jv *v = jv_at(s, k);

		if (!jv_is(v, JV_REAL) && !jv_is(v, JV_INT))
			return bad(rd, "%s.%s[%zu] is not a number", where, key, k);
		(*out)[k] = jv_num(v, 0);
		if (!isfinite((*out)[k]) || (*out)[k] < 0)
			return bad(rd, "%s.%s[%zu] is not a time", where, key, k);
	}
	*n = len;
	return 0;
}

/*
 * One time a process from @s, an array of @n (its length checked by the
 * caller), null where it is not known (NAN); a known one is finite and
 * above 0, or 0 too with @zero_ok.
 */
static int read_per_process(struct reader *rd, struct jv *s, size_t n, double **out, int zero_ok,
			    const char *where, const char *key)
{
	*out = malloc((n ? n : 1) * sizeof(double));
	if (!*out)
		return bad(rd, "out of memory");
	for (size_t k = 0; k < n; k++) {
		struct jv *v = jv_at(s, k);
		double x;

		if (v && !jv_is(v, JV_REAL) && !jv_is(v, JV_INT))
			return bad(rd, "%s.%s[%zu] is not a number", where, key, k);
		x = v ? jv_num(v, 0) : NAN;
		if (v && !(isfinite(x) && (x > 0 || (zero_ok && x == 0))))
			return bad(rd, "%s.%s[%zu] is not a time", where, key, k);
		(*out)[k] = x;
	}
	return 0;
}

/*
 * The CPU time beside each sample (null where it was not known) and the
 * marks of the disturbed batches: as many as there are samples.
 */
/* An array of times beside the samples, null where unknown, into *@out. */
static int read_times_beside(struct reader *rd, struct jv *o, const char *key, struct rec_result *r,
			     double **out, const char *where)
{
	struct jv *s, *v;

	if (!(s = jv_get(o, key)))
		return 0;
	if (!jv_is(s, JV_ARRAY) || jv_len(s) != r->nsamples)
		return bad(rd, "%s.%s is not an array of %zu values", where, key, r->nsamples);
	*out = malloc((r->nsamples ? r->nsamples : 1) * sizeof(double));
	if (!*out)
		return bad(rd, "out of memory");
	for (size_t k = 0; k < r->nsamples; k++) {
		v = jv_at(s, k);
		if (v && !jv_is(v, JV_REAL) && !jv_is(v, JV_INT))
			return bad(rd, "%s.%s[%zu] is not a number", where, key, k);
		(*out)[k] = v ? jv_num(v, 0) : NAN;
		if (v && !(isfinite((*out)[k]) && (*out)[k] >= 0))
			return bad(rd, "%s.%s[%zu] is not a time", where, key, k);
	}
	return 0;
}

static int read_beside(struct reader *rd, struct jv *o, struct rec_result *r, const char *where)
{
	struct jv *s, *v;

	if (read_times_beside(rd, o, "cpu_samples_ns", r, &r->cpu_samples, where) ||
	    read_times_beside(rd, o, "ref_samples_ns", r, &r->ref_samples, where))
		return -1;
	if ((s = jv_get(o, "disturbed"))) {
		if (!jv_is(s, JV_ARRAY) || jv_len(s) != r->nsamples)
			return bad(rd, "%s.disturbed is not an array of %zu marks", where,
				   r->nsamples);
		r->disturbed = malloc(r->nsamples ? r->nsamples : 1);
		if (!r->disturbed)
			return bad(rd, "out of memory");
		for (size_t k = 0; k < r->nsamples; k++) {
			int64_t m;

			v = jv_at(s, k);
			m = v && jv_is(v, JV_INT) ? jv_int(v, 0) : -1;
			if (m < 0 || m > (UKB_DIST_SWITCHED | UKB_DIST_OFFCPU))
				return bad(rd, "%s.disturbed[%zu] is not a mark (0 to 3)", where,
					   k);
			r->disturbed[k] = (uint8_t)m;
		}
	}
	return 0;
}

/* One field of the table; absent or null leaves the default. */
static int read_field(struct reader *rd, struct jv *o, const struct rec_field *f,
		      struct rec_result *r, const char *where)
{
	struct jv *v;
	double d;

	if (!(v = jv_get(o, f->json))) {
		if (f->flags & RF_REQUIRED)
			return bad(rd, "%s has no %s", where, f->json);
		return 0;
	}
	if (f->type == RF_STR || f->type == RF_STATUS) {
		if (!jv_is(v, JV_STRING))
			return bad(rd, "%s.%s is not a string", where, f->json);
		if ((f->flags & RF_REQUIRED) && !jv_strlen(v))
			return bad(rd, "%s has no %s", where, f->json);
		if (rec_field_set_str(f, r, jv_str(v)))
			return bad(rd,
				   "%s.status '%s' is not one of ok, unsupported, skipped, error, "
				   "interrupted",
				   where, jv_str(v));
		return 0;
	}
	if (f->type == RF_BOOL && jv_is(v, JV_BOOL))
		d = jv_bool(v, 0);
	else if (jv_is(v, JV_INT))
		d = (double)jv_int(v, 0);
	else if (jv_is(v, JV_REAL))
		d = jv_num(v, 0);
	else
		return bad(rd, "%s.%s is not a number", where, f->json);
	if (!isfinite(d) || rec_field_set_num(f, r, d))
		return bad(rd, "%s.%s is out of range", where, f->json);
	return 0;
}

/* A counter's per-sample figures: numbers, or null where not counted. */
static int read_counts(struct reader *rd, struct jv *a, struct rec_counter *c, const char *where)
{
	size_t len;

	if (!a)
		return 0;
	if (!jv_is(a, JV_ARRAY))
		return bad(rd, "%s.per_sample is not an array", where);
	len = jv_len(a);
	if (!len)
		return 0;
	c->per_sample = malloc(len * sizeof(double));
	if (!c->per_sample)
		return bad(rd, "out of memory");
	for (size_t k = 0; k < len; k++) {
		struct jv *v = jv_at(a, k);

		if (v && !jv_is(v, JV_REAL) && !jv_is(v, JV_INT))
			return bad(rd, "%s.per_sample[%zu] is not a number", where, k);
		c->per_sample[k] = v ? jv_num(v, 0) : NAN;
	}
	c->n = len;
	return 0;
}

/*
 * A member of a summary's stats: a number, or null or absent (NAN) but for
 * the three every run has written.
 */
static int stat_num(struct reader *rd, struct jv *st, const char *key, double *out,
		    const char *where)
{
	struct jv *v = jv_get(st, key);

	*out = NAN;
	if (!v && (!strcmp(key, "n") || !strcmp(key, "mean_ns") || !strcmp(key, "median_ns")))
		return bad(rd, "%s.stats.%s is missing (a summary keeps its figures)", where, key);
	if (!v)
		return 0;
	if (jv_is(v, JV_NULL))
		return 0;
	return get_num(rd, st, key, out, where);
}

/*
 * A summary's result (rec_to_json_summary()): @batches counted, no
 * samples; its batch figures read from its stats, which cannot be redone.
 */
static int read_summary(struct reader *rd, struct jv *o, struct jv *batches, struct rec_result *r,
			const char *where)
{
	struct jv *st = jv_get(o, "stats"), *out;
	struct ukb_stats *x = &r->stats;
	double n, lo = 0, hi = 0, sev = 0, dist;
	int remade;

	if (jv_get(o, "samples_ns"))
		return bad(rd, "%s has both samples_ns and batches", where);
	/* at most a billion: far more than any run takes, and a size_t everywhere */
	if (!jv_is(batches, JV_INT) || jv_num(batches, 0) < 1 || jv_num(batches, 0) > 1e9)
		return bad(rd, "%s.batches is not a count of batches", where);
	if (r->status != UKB_OK || !jv_is(st, JV_OBJECT))
		return bad(rd, "%s: a summary is of an 'ok' result with its stats", where);
	r->summary = 1;
	r->nsamples = (size_t)jv_num(batches, 0);
	/* kept beside its processes, a summary's mean is made again from them */
	x->mean = NAN;
	remade = rd->procs_beside && !jv_has(o, "process_means_ns") && !jv_has(st, "mean_ns");
	if (stat_num(rd, st, "n", &n, where) ||
	    (!remade && stat_num(rd, st, "mean_ns", &x->mean, where)) ||
	    stat_num(rd, st, "median_ns", &x->median, where) ||
	    stat_num(rd, st, "stddev_ns", &x->stddev, where) ||
	    stat_num(rd, st, "cv", &x->cv, where) || stat_num(rd, st, "min_ns", &x->min, where) ||
	    stat_num(rd, st, "max_ns", &x->max, where) ||
	    stat_num(rd, st, "q1_ns", &x->q1, where) || stat_num(rd, st, "q3_ns", &x->q3, where) ||
	    stat_num(rd, st, "trimmed_mean_ns", &x->trimmed_mean, where) ||
	    stat_num(rd, st, "disturbed", &dist, where) ||
	    stat_num(rd, st, "cpu_ns", &r->sum.cpu_ns, where) ||
	    stat_num(rd, st, "waited", &r->sum.waited, where))
		return -1;
	if (!(n >= 1 && n <= (double)r->nsamples && n == floor(n)))
		return bad(rd, "%s.stats.n is not a count of at most %zu batches", where,
			   r->nsamples);
	if (isnan(dist))
		dist = 0;
	if (!(dist >= 0 && dist <= (double)r->nsamples && dist == floor(dist)))
		return bad(rd, "%s.stats.disturbed is not a count of at most %zu batches", where,
			   r->nsamples);
	x->n = (size_t)n;
	/* what each process's SE made, where they are not kept (absent: not known) */
	r->within_se = jv_num(jv_get(st, "within_se_ns"), NAN);
	r->sum.disturbed = (size_t)dist;
	r->sum.ref_ns = NAN;
	if ((out = jv_get(st, "outliers")) &&
	    (!jv_is(out, JV_OBJECT) || get_num(rd, out, "low", &lo, where) ||
	     get_num(rd, out, "high", &hi, where) || get_num(rd, out, "severe", &sev, where)))
		return bad(rd, "%s.stats.outliers is not three counts", where);
	x->outliers_low = (size_t)fmin(fmax(lo, 0), (double)r->nsamples);
	x->outliers_high = (size_t)fmin(fmax(hi, 0), (double)r->nsamples);
	x->outliers_severe = (size_t)fmin(fmax(sev, 0), (double)r->nsamples);
	return 0;
}

static int read_result(struct reader *rd, struct jv *o, struct rec_result *r, size_t i)
{
	char where[64];
	struct jv *s;

	snprintf(where, sizeof(where), "results[%zu]", i);
	if (!jv_is(o, JV_OBJECT))
		return bad(rd, "%s is not an object", where);
	for (size_t k = 0; k < rec_nfields; k++)
		if (read_field(rd, o, &rec_fields[k], r, where))
			return -1;
	if (!r->benchmark[0])
		snprintf(r->benchmark, sizeof(r->benchmark), "%s", r->name);
	if (!r->unit[0])
		snprintf(r->unit, sizeof(r->unit), "call");

	if ((s = jv_get(o, "batches"))) {
		if (read_summary(rd, o, s, r, where))
			return -1;
	} else if ((s = jv_get(o, "samples_ns")) &&
		   read_numbers(rd, s, &r->samples, &r->nsamples, where, "samples_ns")) {
		return -1;
	}
	if (!r->summary && read_beside(rd, o, r, where))
		return -1;
	if ((s = jv_get(o, "process_means_ns"))) {
		if (read_numbers(rd, s, &r->proc_means, &r->nproc, where, "process_means_ns"))
			return -1;
	}
	/* its process means are a summary's replicates: without them nothing is left */
	if (r->summary && (r->nproc < 2 || !r->proc_means) &&
	    !(rd->procs_beside && !jv_has(o, "process_means_ns")))
		return bad(rd, "%s is a summary without the means of two processes or more", where);
	if ((s = jv_get(o, "process_se_ns"))) {
		/* null where a process's own SE is not known (one batch left) */
		if (!jv_is(s, JV_ARRAY) || jv_len(s) != r->nproc)
			return bad(rd, "%s.process_se_ns has %zu entries for %zu processes", where,
				   jv_is(s, JV_ARRAY) ? jv_len(s) : 0, r->nproc);
		if (r->nproc &&
		    read_per_process(rd, s, r->nproc, &r->proc_se, 1, where, "process_se_ns"))
			return -1;
	}
	if ((s = jv_get(o, "process_ref_ns"))) {
		/* null where a process had no undisturbed reference batch */
		if (!jv_is(s, JV_ARRAY) || jv_len(s) != r->nproc)
			return bad(rd, "%s.process_ref_ns is not an array of %zu values", where,
				   r->nproc);
		if (read_per_process(rd, s, r->nproc, &r->proc_ref, 0, where, "process_ref_ns"))
			return -1;
	}
	if ((s = jv_get(o, "profile"))) {
		if (!jv_is(s, JV_OBJECT))
			return bad(rd, "%s.profile is not an object", where);
		r->profile = jv_text(s, 0);
		if (!r->profile)
			return bad(rd, "out of memory");
	}
	if ((s = jv_get(o, "counters"))) {
		if (!jv_is(s, JV_ARRAY))
			return bad(rd, "%s.counters is not an array", where);
		for (size_t k = 0; k < jv_len(s); k++) {
			struct jv *co = jv_at(s, k), *pc;
			struct rec_counter *c = rec_add_counter(r);
			char cw[96];

			snprintf(cw, sizeof(cw), "%s.counters[%zu]", where, k);
			if (!c)
				return bad(rd, "out of memory");
			if (!jv_is(co, JV_OBJECT))
				return bad(rd, "%s is not an object", cw);
			if (get_str(rd, co, "event", c->name, sizeof(c->name), cw) ||
			    get_str(rd, co, "status", c->status, sizeof(c->status), cw) ||
			    get_str(rd, co, "reason", c->reason, sizeof(c->reason), cw) ||
			    get_num(rd, co, "total", &c->total, cw))
				return -1;
			pc = jv_get(co, "per_call");
			c->per_call = pc ? jv_num(pc, 0) : NAN;
			if (read_counts(rd, jv_get(co, "per_sample"), c, cw))
				return -1;
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

static size_t skip_ws(const char *t, size_t i, size_t len)
{
	while (i < len && (t[i] == ' ' || t[i] == '\n' || t[i] == '\t' || t[i] == '\r'))
		i++;
	return i;
}

/* A description (environment, settings, ...) as JSON text; NULL on ENOMEM. */
static char *own_text(struct jv *doc, const char *key)
{
	struct jv *v = jv_get(doc, key);

	return jv_is(v, JV_OBJECT) ? jv_text(v, 0) : strdup("{}");
}

/* Parses @text as one JSON document, nothing after it; NULL with @rd's error. */
static struct jv *parse_doc(struct reader *rd, const char *text, size_t len)
{
	struct jv_error e;
	size_t end = 0;
	struct jv *doc = jv_parse_span(text, len, 0, &end, &e);
	int line, col;

	if (!doc) {
		if (e.nomem)
			return bad(rd, "out of memory"), NULL;
		if (e.truncated) {
			position(text, len, &line, &col);
			return bad(rd, "truncated JSON: the document ends at line %d, column %d",
				   line, col),
			       NULL;
		}
		if (!strncmp(e.text, "unable to decode byte", 21))
			return bad(rd, "not JSON: a string that is not UTF-8 at line %d, column %d",
				   e.line, e.column),
			       NULL;
		return bad(rd, "not JSON: %s at line %d, column %d", e.text, e.line, e.column),
		       NULL;
	}
	end = skip_ws(text, end, len);
	if (end < len) {
		position(text, end, &line, &col);
		jv_free(doc);
		return bad(rd, "not JSON: text after the document at line %d, column %d", line,
			   col),
		       NULL;
	}
	return doc;
}

/* The document is a ukbench run of the version this build reads. */
static int check_schema(struct reader *rd, struct jv *doc)
{
	char schema[64];
	double d;

	if (!jv_is(doc, JV_OBJECT))
		return bad(rd, "not a ukbench result: the document is not an object");
	if (get_str(rd, doc, "schema", schema, sizeof(schema), "$"))
		return -1;
	if (strcmp(schema, UKB_JSON_SCHEMA))
		return bad(rd, "not a ukbench result: schema is '%s', expected '%s'", schema,
			   UKB_JSON_SCHEMA);
	if (get_num(rd, doc, "schema_version", &d, "$"))
		return -1;
	if (d != UKB_JSON_SCHEMA_VERSION)
		return bad(rd, "schema version %g is not supported: this ukbench reads version %d",
			   d, UKB_JSON_SCHEMA_VERSION);
	return 0;
}

/*
 * The settings a run was measured with are kept as they came, but what
 * ukbench itself writes there must make sense: no negative count or time,
 * nothing that is not a number where a number stands.
 */
static int check_settings(struct reader *rd, struct jv *doc)
{
	static const char *const keys[] = { "precision", "budget_s",	"warmup_s",
					    "batch_ns",	 "min_samples", "max_samples",
					    "processes", "cpu",		"repeat" };
	struct jv *set = jv_get(doc, "settings");
	double d;

	if (!set)
		return 0;
	if (!jv_is(set, JV_OBJECT))
		return bad(rd, "$.settings is not an object");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (get_num(rd, set, keys[i], &d, "$.settings"))
			return -1;
		if (d < 0)
			return bad(rd, "$.settings.%s is negative", keys[i]);
	}
	return 0;
}

/* The run's own members: label, host, time, descriptions. */
static int read_run(struct reader *rd, struct jv *doc, struct rec_run *run)
{
	struct jv *env;

	if (get_str(rd, doc, "uuid", run->uuid, sizeof(run->uuid), "$"))
		return -1;
	if (run->uuid[0] && !rec_uuid_valid(run->uuid))
		return bad(rd, "$.uuid is not a UUID (8-4-4-4-12 lower-case hex digits)");
	if (get_str(rd, doc, "label", run->label, sizeof(run->label), "$") ||
	    get_str(rd, doc, "host", run->host, sizeof(run->host), "$") ||
	    get_str(rd, doc, "started", run->started, sizeof(run->started), "$") ||
	    get_str(rd, doc, "ukbench_version", run->ukbench_version, sizeof(run->ukbench_version),
		    "$") ||
	    get_num(rd, doc, "duration_s", &run->duration_s, "$"))
		return -1;
	if (!run->started[0])
		return bad(rd, "$.started is missing");
	{
		struct tm tm = { 0 };
		const char *end = strptime(run->started, "%Y-%m-%dT%H:%M:%SZ", &tm);

		if (!end || *end)
			return bad(rd,
				   "$.started '%.40s' is not a UTC time like 2026-11-30T12:00:00Z",
				   run->started);
	}
	if (get_str(rd, doc, "digest", run->digest, sizeof(run->digest), "$"))
		return -1;
	if (run->digest[0] &&
	    (strlen(run->digest) != 16 || strspn(run->digest, "0123456789abcdef") != 16))
		return bad(rd, "$.digest is not 16 lower-case hex digits");
	run->interrupted = jv_bool(jv_get(doc, "interrupted"), 0);
	run->environment = own_text(doc, "environment");
	run->settings = own_text(doc, "settings");
	run->clock = own_text(doc, "clock");
	run->vdso = own_text(doc, "vdso");
	if (!run->environment || !run->settings || !run->clock || !run->vdso)
		return bad(rd, "out of memory");
	env = jv_get(doc, "environment");
	if (!run->host[0] &&
	    take_member(rd, env, "hostname", run->host, sizeof(run->host), "unknown"))
		return -1;
	if (take_member(rd, env, "kernel_release", run->kernel_release, sizeof(run->kernel_release),
			""))
		return -1;
	snprintf(run->source, sizeof(run->source), "%s", rd->file);
	return 0;
}

/*
 * Reading a large run without holding all of it as a tree. A JSON library spends
 * about eight times a document's size on its tree, and a run's results are
 * nearly all of a run, so the results array is found in the text by a
 * scanner that knows only JSON's strings and brackets, the rest of the
 * document is parsed with an empty array in its place, and each result is
 * parsed, read into the record and freed in turn. Anything the scanner or
 * this way of reading does not take (a document that is not well formed,
 * above all) is read whole instead, which gives the messages with their
 * line and column.
 */

/* Past the string that starts at @i (a '"'); 0 when it does not end. */
static size_t skip_string(const char *t, size_t i, size_t len)
{
	for (i++; i < len; i++) {
		if (t[i] == '\\')
			i++;
		else if (t[i] == '"')
			return i + 1;
	}
	return 0;
}

/* Past the value that starts at @i; 0 when it does not end. */
static size_t skip_value(const char *t, size_t i, size_t len)
{
	size_t depth = 0;

	if (i >= len)
		return 0;
	if (t[i] == '"')
		return skip_string(t, i, len);
	if (t[i] != '{' && t[i] != '[') {
		/* a number, true, false or null: up to what ends it */
		while (i < len && !strchr(",}] \n\t\r", t[i]))
			i++;
		return i < len ? i : 0;
	}
	while (i < len) {
		if (t[i] == '"') {
			i = skip_string(t, i, len);
			if (!i)
				return 0;
			continue;
		}
		if (t[i] == '{' || t[i] == '[')
			depth++;
		else if ((t[i] == '}' || t[i] == ']') && !--depth)
			return i + 1;
		i++;
	}
	return 0;
}

/* The span [*lo, *hi) of the top-level member "results" (an array); 0 when found. */
static int find_results(const char *t, size_t len, size_t *lo, size_t *hi)
{
	size_t i = skip_ws(t, 0, len);
	int found = 0;

	if (i >= len || t[i] != '{')
		return -1;
	for (i = skip_ws(t, i + 1, len); i < len && t[i] != '}';) {
		size_t k = i, v;

		if (t[i] != '"' || !(i = skip_string(t, i, len)))
			return -1;
		i = skip_ws(t, i, len);
		if (i >= len || t[i] != ':')
			return -1;
		v = skip_ws(t, i + 1, len);
		if (!(i = skip_value(t, v, len)))
			return -1;
		if (!strncmp(t + k, "\"results\"", 9) && t[v] == '[') {
			*lo = v;
			*hi = i;
			found = 1;
		}
		i = skip_ws(t, i, len);
		if (i < len && t[i] == ',')
			i = skip_ws(t, i + 1, len);
	}
	return found ? 0 : -1;
}

/*
 * Reads the results of the array text [lo, hi) one at a time into @run.
 * 0; 1 when the array is not read this way (read the whole document);
 * -1 with the error in @rd (a result that is wrong, not malformed).
 */
static int read_results_streamed(struct reader *rd, const char *t, size_t lo, size_t hi,
				 struct rec_run *run)
{
	size_t i = skip_ws(t, lo + 1, hi), n = 0;

	while (i < hi && t[i] != ']') {
		struct jv_error e;
		struct rec_result *r;
		struct jv *o;
		size_t end;

		o = jv_parse_span(t + i, hi - i, 0, &end, &e);
		if (!o)
			return 1;
		end += i;
		r = rec_add_result(run);
		if (!r || read_result(rd, o, r, n++)) {
			jv_free(o);
			return r ? -1 : 1;
		}
		jv_free(o);
		i = skip_ws(t, end, hi);
		if (i < hi && t[i] == ',')
			i = skip_ws(t, i + 1, hi);
		else if (i < hi && t[i] != ']')
			return 1;
	}
	return i < hi ? 0 : 1;
}

/* The run read result by result; 0, 1 to read it whole instead, -1 with the error. */
static int read_streamed(struct reader *rd, struct rec_run *run, const char *text, size_t len)
{
	size_t lo = 0, hi = 0, hlen;
	struct jv *doc = NULL;
	char *head;
	int ret = 1;

	if (len < (1 << 20) || find_results(text, len, &lo, &hi))
		return 1;
	hlen = lo + 2 + (len - hi);
	head = malloc(hlen + 1);
	if (!head)
		return 1;
	memcpy(head, text, lo);
	memcpy(head + lo, "[]", 2);
	memcpy(head + lo + 2, text + hi, len - hi);
	head[hlen] = 0;
	{
		/* quietly: a document malformed outside the results is read whole */
		struct jv_error e;

		doc = jv_parse_span(head, hlen, 1, NULL, &e);
	}
	free(head);
	if (!doc)
		return 1;
	if (check_schema(rd, doc) || check_settings(rd, doc) || read_run(rd, doc, run)) {
		ret = -1;
		goto out;
	}
	ret = read_results_streamed(rd, text, lo, hi, run);
out:
	jv_free(doc);
	if (ret)
		rec_run_release(run);
	return ret;
}

static int from_json_text(struct rec_run *run, const char *text, size_t len, const char *file,
			  int procs_beside, char *err, size_t errlen)
{
	struct reader rd = { file, err, errlen, procs_beside };
	struct jv *doc, *res;
	int ret = -1;

	memset(run, 0, sizeof(*run));
	ret = read_streamed(&rd, run, text, len);
	if (ret <= 0)
		return ret;
	ret = -1;
	memset(run, 0, sizeof(*run));
	doc = parse_doc(&rd, text, len);
	if (!doc || check_schema(&rd, doc) || check_settings(&rd, doc) || read_run(&rd, doc, run))
		goto out;
	res = jv_get(doc, "results");
	if (!jv_is(res, JV_ARRAY)) {
		bad(&rd, "$.results is missing or not an array");
		goto out;
	}
	for (size_t i = 0; i < jv_len(res); i++) {
		struct rec_result *r = rec_add_result(run);

		if (!r) {
			bad(&rd, "out of memory");
			goto out;
		}
		if (read_result(&rd, jv_at(res, i), r, i))
			goto out;
	}
	ret = 0;
out:
	if (ret)
		rec_run_release(run);
	jv_free(doc);
	return ret;
}

int rec_from_json_text(struct rec_run *run, const char *text, size_t len, const char *file,
		       char *err, size_t errlen)
{
	return from_json_text(run, text, len, file, 0, err, errlen);
}

int rec_from_json_beside(struct rec_run *run, const char *text, size_t len, const char *file,
			 char *err, size_t errlen)
{
	return from_json_text(run, text, len, file, 1, err, errlen);
}
