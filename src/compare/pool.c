// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pool.c - the runs of one label pooled into one figure a path.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comparison.h"
#include "desc.h"
#include "pool.h"
#include "width.h"

void cmp_boot_of(const struct rec_run *run, char *buf, size_t len)
{
	const char *b = rec_env(run)->boot_id;

	snprintf(buf, len, "%s", b && strcmp(b, "unknown") ? b : "");
}

int cmp_same_boot(const struct rec_run *a, const char *boot_a, const struct rec_run *b,
		  const char *boot_b)
{
	return boot_a[0] && !strcmp(boot_a, boot_b) && !strcmp(a->host, b->host) &&
	       !strcmp(a->kernel_release, b->kernel_release);
}

/* The process means of @s (a run of one process counts as one). */
static const double *means_of(const struct rec_result *s, size_t *n)
{
	*n = s->nproc ? s->nproc : 1;
	return s->nproc ? s->proc_means : &s->stats.mean;
}

/* The reference beside process @j of @s; NAN when not known. */
static double ref_of(const struct rec_result *s, size_t j)
{
	if (!s->nproc)
		return rec_ref_mean(s, 0, s->nsamples);
	return s->proc_ref && j < s->nproc ? s->proc_ref[j] : NAN;
}

/* The same path of @n runs into @d (the path of runs[0]), as cmp_pool() says. */
static int pool_path(struct rec_result *d, struct rec_run *runs, size_t n, char (*boot)[40])
{
	const struct rec_result *src[n];
	size_t nboots = 0, k, total = 0, nm, *run;
	char seen[64][40];
	double *out, *ref;

	if (d->status != UKB_OK)
		return 0;
	src[0] = d;
	total = d->nproc ? d->nproc : 1;
	for (size_t i = 1; i < n; i++) {
		src[i] = rec_find(&runs[i], d->name, d->path);
		if (src[i] && src[i]->status != UKB_OK)
			src[i] = NULL;
		/* measured another way, it is another thing: not pooled */
		if (src[i] && !cmp_same_settings(d, src[i])) {
			char vn[300], pa[300], pb[300];

			fprintf(stderr,
				"note: run #%lld measured %s/%s with other settings (%s, not %s): "
				"not pooled with #%lld\n",
				(long long)runs[i].id, vis(d->name, vn, sizeof(vn)), d->path,
				vis(src[i]->params[0] ? src[i]->params : "no parameters", pa,
				    sizeof(pa)),
				vis(d->params[0] ? d->params : "no parameters", pb, sizeof(pb)),
				(long long)runs[0].id);
			src[i] = NULL;
		}
		if (src[i])
			total += src[i]->nproc ? src[i]->nproc : 1;
	}
	for (size_t i = 0; i < n && nboots < 64; i++) {
		for (k = 0; k < nboots && strcmp(seen[k], boot[i]); k++)
			;
		if (src[i] && k == nboots)
			snprintf(seen[nboots++], sizeof(seen[0]), "%s", boot[i]);
	}
	out = calloc(total + 1, sizeof(*out));
	ref = calloc(total + 1, sizeof(*ref));
	run = nboots < 2 && n > 1 ? calloc(total + 1, sizeof(*run)) : NULL;
	if (!out || !ref || (nboots < 2 && n > 1 && !run)) {
		free(out);
		free(ref);
		free(run);
		return -1;
	}
	d->boots = nboots;
	k = 0;
	for (size_t b = 0; b < nboots; b++) {
		double sum = 0, rsum = 0;
		size_t cnt = 0;

		for (size_t i = 0; i < n; i++) {
			const double *m;

			if (!src[i] || strcmp(boot[i], seen[b]))
				continue;
			m = means_of(src[i], &nm);
			for (size_t j = 0; j < nm; j++, cnt++) {
				sum += m[j];
				rsum += ref_of(src[i], j);
				if (nboots < 2) {
					if (run)
						run[k] = i;
					ref[k] = ref_of(src[i], j);
					out[k++] = m[j];
				}
			}
		}
		if (nboots >= 2) {
			ref[k] = rsum / (double)cnt;
			out[k++] = sum / (double)cnt;
		}
	}
	d->pooled = 1;
	for (size_t i = 1; i < n; i++) {
		if (!src[i])
			continue;
		d->pooled++;
		if (rec_append_samples(d, src[i])) {
			free(out);
			free(ref);
			free(run);
			return -1;
		}
		d->converged = d->converged && src[i]->converged;
	}
	free(d->proc_se);
	free(d->proc_means);
	free(d->proc_ref);
	d->proc_se = NULL;
	d->proc_means = out;
	d->proc_ref = ref;
	free(d->proc_run);
	d->proc_run = run;
	d->nproc = k;
	rec_result_restat(d);
	return 0;
}

/* Forgets what @run's references said: it is compared as measured. */
static void forget_ref(struct rec_run *run)
{
	for (size_t i = 0; i < run->nresults; i++) {
		struct rec_result *r = &run->results[i];

		free(r->proc_ref);
		free(r->ref_samples);
		r->proc_ref = r->ref_samples = NULL;
	}
}

int cmp_pool(struct rec_run *runs, size_t n)
{
	char(*boot)[40] = calloc(n, sizeof(*boot));
	int ret = 0;

	if (!boot)
		return -1;
	for (size_t i = 0; i < n; i++)
		cmp_boot_of(&runs[i], boot[i], sizeof(boot[i]));
	for (size_t r = 0; r < runs[0].nresults && !ret; r++)
		ret = pool_path(&runs[0].results[r], runs, n, boot);
	/* paths the newest run lacks, from the older ones */
	for (size_t i = 1; i < n && !ret; i++)
		for (size_t r = 0; r < runs[i].nresults && !ret; r++) {
			struct rec_result *s = &runs[i].results[r];

			if (rec_find(&runs[0], s->name, s->path))
				continue;
			if (!rec_take_result(&runs[0], s))
				ret = -1;
			else
				ret = pool_path(&runs[0].results[runs[0].nresults - 1], runs + i,
						n - i, boot + i);
		}
	free(boot);
	for (size_t i = 1; !ret && i < n; i++)
		if (!rec_same_ref(&runs[0], &runs[i])) {
			/* references that did other work pooled say nothing */
			forget_ref(&runs[0]);
			break;
		}
	return ret;
}
