// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fields.c - the fields of a result, declared once (see fields.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"

#define F(j, s, t, m, fl, v)                                                                       \
	{                                                                                          \
		.json = j, .sql = s, .type = t, .off = offsetof(struct rec_result, m),             \
		.size = sizeof(((struct rec_result *)0)->m), .flags = fl, .since = v               \
	}

const struct rec_field rec_fields[] = {
	F("name", "name", RF_STR, name, RF_CSV | RF_REQUIRED, 1),
	F("benchmark", "benchmark", RF_STR, benchmark, RF_NULL_EMPTY, 1),
	F("variant", "variant", RF_STR, variant, RF_NULL_EMPTY, 1),
	F("path", "path", RF_STR, path, RF_CSV | RF_REQUIRED, 1),
	F("detail", "detail", RF_STR, detail, RF_NULL_EMPTY, 1),
	F("vdso_symbol", "vdso_symbol", RF_STR, vdso_symbol, RF_NULL_EMPTY, 1),
	F("unit", "unit", RF_STR, unit, RF_NULL_EMPTY, 1),
	F("status", "status", RF_STATUS, status, RF_CSV | RF_REQUIRED, 1),
	F("reason", "reason", RF_STR, reason, RF_NULL_EMPTY | RF_CSV_TAIL, 1),
	F("errno", "errno", RF_INT, err, RF_NULL_ZERO, 1),
	F("cpu", "cpu", RF_INT, cpu, RF_NULL_NEG, 1),
	F("threads", "threads", RF_UINT, threads, RF_NULL_ZERO, 2),
	F("bytes_per_call", "bytes", RF_LONG, bytes, RF_NULL_ZERO, 2),
	F("params", "params", RF_STR, params, RF_NULL_EMPTY, 2),
	F("batch_iterations", "batch_iterations", RF_U64, batch_iters, 0, 1),
	F("batch_target_ns", "batch_target_ns", RF_DOUBLE, batch_ns, 0, 1),
	F("warmup_batches", "warmup_batches", RF_U64, warmup_batches, 0, 1),
	F("measure_s", "measure_s", RF_DOUBLE, measure_s, 0, 1),
	F("converged", "converged", RF_BOOL, converged, RF_CSV_TAIL, 1),
	F("floor_rel", "floor_rel", RF_DOUBLE, floor_rel, RF_NULL_ZERO, 3),
	F("state_rel", "state_rel", RF_DOUBLE, state_rel, RF_NULL_ZERO, 8),
	F("floor_df", "floor_df", RF_DOUBLE, floor_df, RF_NULL_ZERO, 9),
	F("keeps_disturbed", "keeps_disturbed", RF_BOOL, keeps_disturbed, 0, 6),
};
const size_t rec_nfields = sizeof(rec_fields) / sizeof(rec_fields[0]);

static int has_stats(const struct rec_result *r)
{
	return r->status == UKB_OK && r->nsamples;
}

#define S(j, s, expr, fl)                                                                          \
	static double get_##j(const struct rec_result *r)                                          \
	{                                                                                          \
		return has_stats(r) ? (double)(expr) : NAN;                                        \
	}
#define STATS(X)                                                                                   \
	X(n, "n", r->stats.n, RF_CSV)                                                              \
	X(mean_ns, "mean_ns", r->stats.mean, RF_CSV)                                               \
	X(median_ns, "median_ns", r->stats.median, RF_CSV)                                         \
	X(stddev_ns, "stddev_ns", r->stats.stddev, RF_CSV)                                         \
	X(cv, "cv", r->stats.cv, RF_CSV)                                                           \
	X(min_ns, "min_ns", r->stats.min, RF_CSV)                                                  \
	X(max_ns, "max_ns", r->stats.max, RF_CSV)                                                  \
	X(q1_ns, NULL, r->stats.q1, 0)                                                             \
	X(q3_ns, NULL, r->stats.q3, 0)                                                             \
	X(ci95_ns, "ci95_ns", r->stats.ci95, RF_CSV)                                               \
	X(ci95_rel, "ci95_rel", r->stats.ci95_rel, RF_CSV)                                         \
	X(trimmed_mean_ns, "trimmed_mean_ns", r->stats.trimmed_mean, RF_CSV)                       \
	X(per_second, NULL, r->stats.mean > 0 ? 1e9 / r->stats.mean : NAN, RF_CSV)                 \
	X(processes, NULL, r->nproc >= 2 ? r->nproc : 1, RF_CSV)                                   \
	X(between_sd_ns, NULL, r->between_sd, RF_CSV)                                              \
	X(within_se_ns, NULL, r->within_se, RF_CSV)                                                \
	X(disturbed, "disturbed", rec_disturbed_count(r), RF_CSV)                                  \
	X(cpu_ns, "cpu_ns", rec_cpu_per_call(r), RF_CSV)                                           \
	X(waited, "waited", rec_waited_share(r), 0)

STATS(S)
#undef S
#define S(j, s, expr, fl) { #j, s, get_##j, fl },
const struct stat_field stat_fields[] = { STATS(S) };
#undef S
const size_t stat_nfields = sizeof(stat_fields) / sizeof(stat_fields[0]);

static const void *at(const struct rec_field *f, const struct rec_result *r)
{
	return (const char *)r + f->off;
}

static void *at_mut(const struct rec_field *f, struct rec_result *r)
{
	return (char *)r + f->off;
}

double rec_field_num(const struct rec_field *f, const struct rec_result *r)
{
	const void *p = at(f, r);

	switch (f->type) {
	case RF_INT:
	case RF_BOOL:
		return *(const int *)p;
	case RF_UINT:
		return *(const unsigned *)p;
	case RF_LONG:
		return (double)*(const long *)p;
	case RF_U64:
		return (double)*(const uint64_t *)p;
	case RF_DOUBLE:
		return *(const double *)p;
	case RF_STATUS:
		return *(const enum ukb_status *)p;
	case RF_STR:
		break;
	}
	return NAN;
}

const char *rec_field_str(const struct rec_field *f, const struct rec_result *r)
{
	if (f->type == RF_STATUS)
		return ukb_status_name(*(const enum ukb_status *)at(f, r));
	return f->type == RF_STR ? (const char *)at(f, r) : NULL;
}

int rec_field_is_null(const struct rec_field *f, const struct rec_result *r)
{
	if (f->type == RF_STR)
		return (f->flags & RF_NULL_EMPTY) && !*(const char *)at(f, r);
	if (f->type == RF_STATUS)
		return 0;
	if ((f->flags & RF_NULL_ZERO) && rec_field_num(f, r) == 0)
		return 1;
	if ((f->flags & RF_NULL_NEG) && rec_field_num(f, r) < 0)
		return 1;
	return f->type == RF_DOUBLE && !isfinite(rec_field_num(f, r));
}

int rec_field_set_num(const struct rec_field *f, struct rec_result *r, double v)
{
	void *p = at_mut(f, r);

	if (isnan(v) && f->type != RF_DOUBLE)
		return -ERANGE;
	switch (f->type) {
	case RF_INT:
		if (v != floor(v) || v < INT_MIN || v > INT_MAX)
			return -ERANGE;
		*(int *)p = (int)v;
		return 0;
	case RF_BOOL:
		if (v != 0 && v != 1)
			return -ERANGE;
		*(int *)p = (int)v;
		return 0;
	case RF_UINT:
		if (v != floor(v) || v < 0 || v > UINT_MAX)
			return -ERANGE;
		*(unsigned *)p = (unsigned)v;
		return 0;
	case RF_LONG:
		if (v != floor(v) || v < -9.2e18 || v > 9.2e18)
			return -ERANGE;
		*(long *)p = (long)v;
		return 0;
	case RF_U64:
		if (v != floor(v) || v < 0 || v > 1.8e19)
			return -ERANGE;
		*(uint64_t *)p = (uint64_t)v;
		return 0;
	case RF_DOUBLE:
		*(double *)p = v;
		return 0;
	case RF_STATUS:
	case RF_STR:
		break;
	}
	return -EINVAL;
}

int rec_field_set_str(const struct rec_field *f, struct rec_result *r, const char *s)
{
	int st;

	if (f->type == RF_STR) {
		snprintf(at_mut(f, r), f->size, "%s", s ? s : "");
		return 0;
	}
	if (f->type != RF_STATUS)
		return -EINVAL;
	st = rec_status_parse(s);
	if (st < 0)
		return -EINVAL;
	*(enum ukb_status *)at_mut(f, r) = (enum ukb_status)st;
	return 0;
}
