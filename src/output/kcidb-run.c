// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kcidb-run.c - a run as a KCIDB document: a test a path, DONE with its
 * figure in seconds (a measurement, no verdict on the kernel), SKIP where
 * the path is not available here, ERROR where it failed; the figure's
 * interval, processes and the run's name under the test's misc.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json-write.h"
#include "desc.h"
#include "kcidb.h"

void kcidb_src_of(const struct rec_run *run, struct kcidb_src *src)
{
	const struct rec_env *env = rec_env(run);

	*src = (struct kcidb_src){
		.kernel_release = run->kernel_release,
		.kernel_version = env->kernel_version,
		.machine = env->machine,
		.host = run->host,
		/* the environment's text, where it is an object */
		.environment = env->recorded ? run->environment : NULL,
		/* a guest's run names the image it booted (settings.vm.image) */
		.image = rec_settings(run)->vm_image,
	};
}

static const char *status_of(const struct rec_result *r)
{
	if (r->status == UKB_OK && r->nsamples)
		return "DONE";
	if (r->status == UKB_UNSUPPORTED || r->status == UKB_SKIPPED)
		return "SKIP";
	return "ERROR";
}

static char *run_misc(const struct rec_run *run, const struct rec_result *r)
{
	struct jw w;

	jw_init(&w, 0);
	jw_obj_begin(&w, NULL);
	if (run->uuid[0])
		jw_str(&w, "run", run->uuid);
	if (run->label[0])
		jw_str(&w, "label", run->label);
	jw_str(&w, "benchmark", r->benchmark);
	jw_str(&w, "name", r->name);
	jw_str(&w, "path", r->path);
	if (r->params[0])
		jw_str(&w, "params", r->params);
	if (r->detail[0])
		jw_str(&w, "detail", r->detail);
	if (r->vdso_symbol[0])
		jw_str(&w, "vdso_symbol", r->vdso_symbol);
	if (r->status == UKB_OK && r->nsamples) {
		/* KCIDB takes no null: a figure not known is left out */
		kcidb_num(&w, "mean_ns", r->stats.mean);
		kcidb_num(&w, "median_ns", r->stats.median);
		kcidb_num(&w, "ci95_rel", r->stats.ci95_rel);
		jw_uint(&w, "processes", r->nproc ? r->nproc : 1);
		jw_uint(&w, "batches", r->nsamples);
		jw_uint(&w, "calls_per_batch", r->batch_iters);
	}
	jw_str(&w, "ukbench_version", run->ukbench_version);
	jw_obj_end(&w);
	return jw_finish(&w, NULL);
}

int kcidb_run_print(FILE *f, const struct kcidb_ids *ids, const struct rec_run *run)
{
	struct kcidb_test *t = calloc(run->nresults ? run->nresults : 1, sizeof(*t));
	struct kcidb_src src;
	int ret = -1;

	kcidb_src_of(run, &src);
	if (!t)
		goto out;
	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];

		t[i] = (struct kcidb_test){
			.src = &src,
			.name = r->name,
			.path = r->path,
			.started = run->started,
			.status = status_of(r),
			.comment = r->status == UKB_OK || !r->reason[0] ? NULL : strdup(r->reason),
			.seconds = r->status == UKB_OK && r->nsamples ? r->stats.mean * 1e-9 : NAN,
			.unit = r->unit,
			.misc = run_misc(run, r),
		};
		/* a run without a UUID (an old record) is named by its host and start */
		if (run->uuid[0])
			snprintf(t[i].id, sizeof(t[i].id), "%s.%zu", run->uuid, i);
		else
			snprintf(t[i].id, sizeof(t[i].id), "%s.%s.%zu", run->host, run->started, i);
		if (!t[i].misc || (r->status != UKB_OK && r->reason[0] && !t[i].comment))
			goto out;
	}
	ret = kcidb_print(f, ids, t, run->nresults);
out:
	kcidb_tests_free(t, run->nresults);
	return ret;
}
