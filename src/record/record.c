// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record.c - building, finding and freeing run records (libc only).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "fnv.h"
#include "readall.h"
#include "record.h"
#include "vdso.h"

struct rec_result *rec_add_result(struct rec_run *run)
{
	struct rec_result *r = realloc(run->results, (run->nresults + 1) * sizeof(*r));

	if (!r)
		return NULL;
	run->results = r;
	r = &run->results[run->nresults++];
	memset(r, 0, sizeof(*r));
	r->cpu = -1;
	return r;
}

struct rec_counter *rec_add_counter(struct rec_result *r)
{
	struct rec_counter *c = realloc(r->counters, (r->ncounters + 1) * sizeof(*c));

	if (!c)
		return NULL;
	r->counters = c;
	c = &c[r->ncounters++];
	memset(c, 0, sizeof(*c));
	c->per_call = NAN;
	return c;
}

/*
 * A process's mean and reference are kept to single precision (24 bits, 6
 * parts in 10^8): the closest processes of a default run's path differ by
 * 3% (SD), and a fleet's server holds them in 4 bytes. Every record is
 * made so here, as it is made and as it is read from any store, so that a
 * comparison from one store equals one from another, bit for bit.
 */
static void single(double *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		if (isfinite(v[i]) && fabs(v[i]) < FLT_MAX)
			v[i] = (double)(float)v[i];
}

void rec_result_restat(struct rec_result *r)
{
	struct ukb_stats per;
	double w = 0;
	size_t known = 0;

	single(r->proc_means, r->nproc);
	single(r->proc_ref, r->nproc);

	/* a summary without each process's SE keeps the figure its run made of them */
	r->within_se = r->summary && !r->proc_se ? r->within_se : NAN;
	r->between_sd = NAN;
	/* a summary's batch figures are those its run computed: no samples to redo them */
	if (!r->summary) {
		memset(&r->stats, 0, sizeof(r->stats));
		if (r->nsamples)
			ukb_figure_stats(r->samples, r->disturbed, r->nsamples, r->keeps_disturbed,
					 &r->stats);
	}
	if (r->nproc < 2 || ukb_stats_compute(r->proc_means, r->nproc, &per))
		return;
	/*
	 * One figure everywhere: the mean of the process means. Its CI covers
	 * the spread of the processes and, when known, the movement between
	 * runs that no single run can see (the floor, an estimate on floor_df
	 * degrees of freedom: Welch-Satterthwaite over the two), and how far
	 * the machine's state during the run may have moved it (state_rel).
	 */
	r->stats.mean = per.mean;
	r->stats.ci95 = per.ci95;
	if (r->floor_rel > 0 && per.n >= 2) {
		double vp = per.stddev * per.stddev / (double)per.n / (per.mean * per.mean);
		double vf = r->floor_rel * r->floor_rel;
		double den =
		    vp * vp / (double)(per.n - 1) + (r->floor_df > 0 ? vf * vf / r->floor_df : 0);
		double df = den > 0 ? (vp + vf) * (vp + vf) / den : (double)(per.n - 1);

		r->stats.ci95 = ukb_t_quantile(0.975, df) * sqrt(vp + vf) * per.mean;
	}
	if (r->state_rel > 0)
		r->stats.ci95 += r->state_rel * per.mean;
	r->stats.ci95_rel = r->stats.ci95 / per.mean;
	r->between_sd = per.stddev;
	if (!r->proc_se)
		return;
	/* over the processes whose own SE is known */
	for (size_t i = 0; i < r->nproc; i++)
		if (isfinite(r->proc_se[i])) {
			w += r->proc_se[i] * r->proc_se[i];
			known++;
		}
	r->within_se = known ? sqrt(w / (double)known) : NAN;
}

int rec_new_uuid(char *buf, size_t len)
{
	unsigned char b[16];
	size_t got = 0;

	if (len < 37)
		return -EINVAL;
	while (got < sizeof(b)) {
		ssize_t r = getrandom(b + got, sizeof(b) - got, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		got += (size_t)r;
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
	snprintf(buf, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
		 b[13], b[14], b[15]);
	return 0;
}

int rec_uuid_valid(const char *s)
{
	for (int i = 0; i < 36; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-'
			 : !((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	}
	return s[36] == 0;
}

void rec_run_begin(struct rec_run *run, const struct ukb_env *env, time_t started,
		   const char *label)
{
	memset(run, 0, sizeof(*run));
	strftime(run->started, sizeof(run->started), "%Y-%m-%dT%H:%M:%SZ", gmtime(&started));
	snprintf(run->label, sizeof(run->label), "%s", label ? label : "");
	snprintf(run->source, sizeof(run->source), "run");
	if (rec_new_uuid(run->uuid, sizeof(run->uuid)))
		run->uuid[0] = 0; /* the store gives it one */
	if (!env)
		return;
	snprintf(run->host, sizeof(run->host), "%s", env->hostname);
	snprintf(run->kernel_release, sizeof(run->kernel_release), "%s", env->kernel_release);
	snprintf(run->ukbench_version, sizeof(run->ukbench_version), "%s", env->ukbench_version);
}

struct rec_result *rec_take_result(struct rec_run *run, struct rec_result *src)
{
	struct rec_result *r = rec_add_result(run);

	if (!r)
		return NULL;
	*r = *src;
	memset(src, 0, sizeof(*src));
	return r;
}

int rec_append_numbers(double **a, size_t *n, const double *v, size_t k)
{
	double *p;

	if (!k)
		return 0;
	p = realloc(*a, (*n + k) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	memcpy(p + *n, v, k * sizeof(*p));
	*a = p;
	*n += k;
	return 0;
}

/* Appends @k figures beside samples (NAN where @src is NULL) to *@dst of @n. */
static int append_beside(double **dst, size_t n, const double *src, size_t k)
{
	double *c;

	if (!*dst && !src)
		return 0;
	c = realloc(*dst, (n + k) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	if (!*dst)
		for (size_t i = 0; i < n; i++)
			c[i] = NAN;
	*dst = c;
	for (size_t i = 0; i < k; i++)
		c[n + i] = src ? src[i] : NAN;
	return 0;
}

/*
 * Either side a summary: the pooled result is one, its counts summed and
 * its CPU time and waiting weighed by batches; the batch figures (median,
 * quartiles) stay @d's, as no samples are left to pool.
 */
static void append_summary(struct rec_result *d, const struct rec_result *s)
{
	double n = (double)d->nsamples, k = (double)s->nsamples;

	if (!d->summary) {
		d->sum.disturbed = rec_disturbed_count(d);
		d->sum.cpu_ns = rec_cpu_per_call(d);
		d->sum.waited = rec_waited_share(d);
		d->sum.ref_ns = rec_ref_mean(d, 0, d->nsamples);
	}
	d->sum.disturbed += rec_disturbed_count(s);
	d->sum.cpu_ns = (n * d->sum.cpu_ns + k * rec_cpu_per_call(s)) / (n + k);
	d->sum.waited = (n * d->sum.waited + k * rec_waited_share(s)) / (n + k);
	d->sum.ref_ns = (n * d->sum.ref_ns + k * rec_ref_mean(s, 0, s->nsamples)) / (n + k);
	d->nsamples += s->nsamples;
	d->summary = 1;
	free(d->samples);
	free(d->cpu_samples);
	free(d->ref_samples);
	free(d->disturbed);
	d->samples = d->cpu_samples = d->ref_samples = NULL;
	d->disturbed = NULL;
}

int rec_append_samples(struct rec_result *d, const struct rec_result *s)
{
	size_t n = d->nsamples, k = s->nsamples, total = n + k;
	int dist = d->disturbed || s->disturbed;
	uint8_t *m = NULL;

	if (!k)
		return 0;
	if (d->summary || s->summary) {
		append_summary(d, s);
		return 0;
	}
	if (append_beside(&d->cpu_samples, n, s->cpu_samples, k) ||
	    append_beside(&d->ref_samples, n, s->ref_samples, k))
		return -ENOMEM;
	if (dist) {
		m = realloc(d->disturbed, total * sizeof(*m));
		if (!m)
			return -ENOMEM;
		if (!d->disturbed)
			memset(m, 0, n);
		d->disturbed = m;
		if (s->disturbed)
			memcpy(m + n, s->disturbed, k);
		else
			memset(m + n, 0, k);
	}
	return rec_append_numbers(&d->samples, &d->nsamples, s->samples, k);
}

size_t rec_disturbed_count(const struct rec_result *r)
{
	size_t n = 0;

	if (r->summary)
		return r->sum.disturbed;
	for (size_t i = 0; r->disturbed && i < r->nsamples; i++)
		n += r->disturbed[i] != 0;
	return n;
}

double rec_cpu_per_call(const struct rec_result *r)
{
	double sum = 0;
	size_t n = 0;

	if (r->summary)
		return r->sum.cpu_ns;
	for (size_t i = 0; r->cpu_samples && i < r->nsamples; i++)
		if (isfinite(r->cpu_samples[i])) {
			sum += r->cpu_samples[i];
			n++;
		}
	return n ? sum / (double)n : NAN;
}

double rec_waited_share(const struct rec_result *r)
{
	double cpu = 0, wall = 0;

	/* a threaded benchmark's CPU time is all its threads': not one that waits */
	if (r->threads)
		return NAN;
	if (r->summary)
		return r->sum.waited;
	for (size_t i = 0; r->cpu_samples && i < r->nsamples; i++)
		if (isfinite(r->cpu_samples[i]) && isfinite(r->samples[i])) {
			cpu += r->cpu_samples[i];
			wall += r->samples[i];
		}
	if (!(wall > 0))
		return NAN;
	return cpu < wall ? 1 - cpu / wall : 0;
}

double rec_ref_mean(const struct rec_result *r, size_t from, size_t to)
{
	double sum = 0;
	size_t n = 0;

	if (r->summary)
		return !from && to >= r->nsamples ? r->sum.ref_ns : NAN;
	for (size_t i = from; r->ref_samples && i < to && i < r->nsamples; i++)
		if (isfinite(r->ref_samples[i])) {
			sum += r->ref_samples[i];
			n++;
		}
	return n ? sum / (double)n : NAN;
}

size_t rec_run_end(const struct rec_result *r, size_t i)
{
	size_t j = i + 1;

	while (j < r->nproc && (!r->proc_run || r->proc_run[j] == r->proc_run[i]))
		j++;
	return j;
}

int rec_proc_refs(const struct rec_result *r, double *out)
{
	if (!r->proc_ref || r->nproc < 1)
		return -1;
	/* a pooled side's runs each on its own */
	for (size_t i = 0, j; i < r->nproc; i = j) {
		j = rec_run_end(r, i);
		if (ukb_fill_unknown(r->proc_ref + i, j - i, out + i))
			return -1;
	}
	return 0;
}

int rec_excludes_disturbed(const struct rec_result *r)
{
	size_t k = rec_disturbed_count(r);

	return !r->keeps_disturbed && k && r->nsamples - k >= 2;
}

int rec_wholly_disturbed(const struct rec_result *r)
{
	size_t k = rec_disturbed_count(r);

	return !r->keeps_disturbed && k && r->nsamples - k < 2;
}

void rec_run_digest(const struct rec_run *run, char *buf, size_t len)
{
	uint64_t h = UKB_FNV_OFFSET;

	/*
	 * a summary has not the samples its digest was made of: the one it
	 * carries; a whole run's is always made again, whatever its file says
	 */
	for (size_t i = 0; run->digest[0] && i < run->nresults; i++)
		if (run->results[i].summary) {
			snprintf(buf, len, "%s", run->digest);
			return;
		}
	ukb_fnv1a(&h, run->host, strlen(run->host) + 1);
	ukb_fnv1a(&h, run->started, strlen(run->started) + 1);
	ukb_fnv1a(&h, run->ukbench_version, strlen(run->ukbench_version) + 1);
	ukb_fnv1a(&h, run->kernel_release, strlen(run->kernel_release) + 1);
	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];

		ukb_fnv1a(&h, r->name, strlen(r->name) + 1);
		ukb_fnv1a(&h, r->path, strlen(r->path) + 1);
		if (r->nsamples)
			ukb_fnv1a(&h, r->samples, r->nsamples * sizeof(double));
		/* marks only where a batch has one: a record without any digests as before */
		if (rec_disturbed_count(r))
			ukb_fnv1a(&h, r->disturbed, r->nsamples);
		if (r->nproc)
			ukb_fnv1a(&h, r->proc_means, r->nproc * sizeof(double));
	}
	snprintf(buf, len, "%016llx", (unsigned long long)h);
}

int rec_summarizable(const struct rec_result *r)
{
	return r->status == UKB_OK && r->nsamples && r->nproc >= 2 && r->proc_means;
}

void rec_result_release(struct rec_result *r)
{
	free(r->samples);
	free(r->cpu_samples);
	free(r->ref_samples);
	free(r->disturbed);
	free(r->proc_means);
	free(r->proc_se);
	free(r->proc_ref);
	free(r->proc_run);
	free(r->profile);
	for (size_t k = 0; k < r->ncounters; k++)
		free(r->counters[k].per_sample);
	free(r->counters);
	memset(r, 0, sizeof(*r));
	r->cpu = -1;
}

struct rec_result *rec_add_measured(struct rec_run *run, const struct ukb_result *u)
{
	struct rec_result *r = rec_add_result(run);

	if (!r)
		return NULL;
	snprintf(r->name, sizeof(r->name), "%s", u->name);
	snprintf(r->benchmark, sizeof(r->benchmark), "%s", u->bench->name);
	snprintf(r->variant, sizeof(r->variant), "%s", u->variant ? u->variant->name : "");
	snprintf(r->path, sizeof(r->path), "%s", u->path->name);
	snprintf(r->unit, sizeof(r->unit), "%s", u->bench->unit ? u->bench->unit : "call");
	snprintf(r->detail, sizeof(r->detail), "%s", u->path->detail ? u->path->detail : "");
	ukb_vdso_symbol_of(u->path->vdso_sym, r->vdso_symbol, sizeof(r->vdso_symbol));
	r->status = u->status;
	r->err = -u->err;
	snprintf(r->reason, sizeof(r->reason), "%s", u->reason);
	r->cpu = u->cpu == UKB_CPU_ANY ? -1 : (int)u->cpu;
	r->threads = u->variant ? u->variant->threads : 0;
	r->bytes = u->bench->flags & UKB_BYTES && u->variant ? u->variant->arg : 0;
	r->batch_iters = u->batch_iters;
	r->batch_ns = u->batch_ns;
	r->warmup_batches = u->warmup_batches;
	r->measure_s = u->measure_s;
	r->converged = u->converged;
	if (u->nsamples) {
		r->samples = malloc(u->nsamples * sizeof(double));
		if (!r->samples) {
			run->nresults--;
			return NULL;
		}
		memcpy(r->samples, u->samples, u->nsamples * sizeof(double));
		r->nsamples = u->nsamples;
		r->cpu_samples = malloc(u->nsamples * sizeof(double));
		r->ref_samples = malloc(u->nsamples * sizeof(double));
		r->disturbed = malloc(u->nsamples);
		if (!r->cpu_samples || !r->ref_samples || !r->disturbed) {
			rec_result_release(r);
			run->nresults--;
			return NULL;
		}
		memcpy(r->cpu_samples, u->cpu_samples, u->nsamples * sizeof(double));
		memcpy(r->ref_samples, u->ref_samples, u->nsamples * sizeof(double));
		memcpy(r->disturbed, u->disturbed, u->nsamples);
	}
	r->keeps_disturbed = u->keeps_disturbed;
	if (u->status == UKB_OK)
		r->stats = u->stats;
	for (unsigned i = 0; i < u->ncounters; i++) {
		const struct ukb_counter_result *uc = &u->counters[i];
		struct rec_counter *c = rec_add_counter(r);

		if (!c)
			return NULL;
		snprintf(c->name, sizeof(c->name), "%s", uc->ev.name);
		snprintf(c->status, sizeof(c->status), "%s", ukb_counter_status_name(uc->status));
		snprintf(c->reason, sizeof(c->reason), "%s", uc->reason);
		c->total = uc->total;
		c->per_call = uc->status == UKB_CTR_OK ? uc->per_call : NAN;
		if (uc->n) {
			c->per_sample = malloc(uc->n * sizeof(double));
			if (!c->per_sample)
				return NULL;
			memcpy(c->per_sample, uc->per_sample, uc->n * sizeof(double));
			c->n = uc->n;
		}
	}
	return r;
}

void (*rec_desc_release)(struct rec_desc *d);

void rec_run_release(struct rec_run *run)
{
	if (run->desc && rec_desc_release)
		rec_desc_release(run->desc);
	for (size_t i = 0; i < run->nresults; i++)
		rec_result_release(&run->results[i]);
	free(run->results);
	free(run->environment);
	free(run->settings);
	free(run->clock);
	free(run->vdso);
	free(run->pooled_ids);
	free(run->pooled_started);
	memset(run, 0, sizeof(*run));
}

int rec_status_parse(const char *s)
{
	for (int i = UKB_OK; i <= UKB_INTERRUPTED; i++)
		if (s && !strcmp(s, ukb_status_name((enum ukb_status)i)))
			return i;
	return -1;
}

const struct rec_result *rec_find(const struct rec_run *run, const char *name, const char *path)
{
	for (size_t i = 0; i < run->nresults; i++)
		if (!strcmp(run->results[i].name, name) && !strcmp(run->results[i].path, path))
			return &run->results[i];
	return NULL;
}

char *read_file(const char *path, size_t *len, char *err, size_t errlen)
{
	enum ukb_read_why why;
	char *buf;
	int rc = ukb_read_all(path, UKB_READ_MAX, &buf, len, &why);

	if (rc) {
		ukb_read_describe(err, errlen, path, rc, why, UKB_READ_MAX, "a ukbench result");
		return NULL;
	}
	return buf;
}
