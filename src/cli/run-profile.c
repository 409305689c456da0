// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run-profile.c - the profile phase of `run`: sample, attribute, print,
 * keep as JSON with the result.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "json-write.h"
#include "measure.h"
#include "profile.h"
#include "run-profile.h"
#include "sampler.h"

static char *to_json(const struct profile *p)
{
	struct jw w;
	char addr[32];
	size_t len;

	jw_init(&w, 0);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "event", p->event);
	jw_uint(&w, "frequency_hz", p->freq);
	jw_bool(&w, "kernel_sampled", p->kernel_sampled);
	jw_uint(&w, "samples", p->total);
	jw_uint(&w, "lost", p->lost);
	jw_arr_begin(&w, "where");
	for (size_t i = 0; i < p->nwhere; i++) {
		jw_obj_begin(&w, NULL);
		jw_str(&w, "name", p->where[i].name);
		jw_uint(&w, "samples", p->where[i].n);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_arr_begin(&w, "vdso_ips");
	for (size_t i = 0; i < p->nvdso; i++) {
		snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)p->vdso[i].va);
		jw_obj_begin(&w, NULL);
		jw_str(&w, "address", addr);
		jw_uint(&w, "samples", p->vdso[i].n);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_obj_end(&w);
	return jw_finish(&w, &len);
}

static int one(const struct ukb_case *c, const struct run_plan *plan,
	       const struct ukb_clock_info *clk, double seconds, struct rec_result *r, FILE *out,
	       volatile sig_atomic_t *stop)
{
	struct ukb_measure_opts m = plan->m;
	struct ukb_sampler smp;
	struct ukb_result res;
	struct profile p;
	char why[256];
	int err;

	err = ukb_sampler_open(&smp, RUN_PROFILE_HZ, why, sizeof(why));
	if (err) {
		error("no profile: %s", why);
		fprintf(stderr, "hint: sampling needs perf_event_paranoid <= 2 (it is read from "
				"/proc/sys/kernel/perf_event_paranoid) or CAP_PERFMON\n");
		return 1;
	}
	m.params = c->params;
	m.stop = stop;
	m.nevents = 0;
	m.events = NULL;
	ukb_profile(c->bench, c->variant, c->path, &m, clk, seconds, &smp, &res);
	if (res.status != UKB_OK) {
		error("%s/%s: no profile: %s", c->name, c->path->name, res.reason);
		ukb_sampler_close(&smp);
		ukb_result_release(&res);
		return 0;
	}
	if (smp.oom || profile_build(&smp, &p)) {
		ukb_sampler_close(&smp);
		ukb_result_release(&res);
		return -1;
	}
	free(r->profile);
	r->profile = to_json(&p);
	if (out) {
		fprintf(out,
			"\nprofile of %s/%s, the measured loop run for %.1f s (%zu batches):\n",
			c->name, c->path->name, res.measure_s, res.nsamples);
		profile_print(out, &p, 12);
	}
	profile_release(&p);
	ukb_sampler_close(&smp);
	ukb_result_release(&res);
	return r->profile ? 0 : -1;
}

int run_profiles(const struct run_plan *plan, const char *pattern, double seconds,
		 struct rec_run *run, FILE *out, volatile sig_atomic_t *stop)
{
	struct ukb_clock_info clk;

	if (ukb_clock_probe(&clk))
		return 0;
	for (size_t i = 0; i < plan->ncases && !(stop && *stop); i++) {
		const struct ukb_case *c = &plan->cases[i];
		struct rec_result *r = NULL;
		int rc;

		for (size_t k = 0; k < run->nresults && !r; k++)
			if (!strcmp(run->results[k].name, c->name) &&
			    !strcmp(run->results[k].path, c->path->name))
				r = &run->results[k];
		if (!r || r->status != UKB_OK ||
		    !pattern_matches(pattern, c->name, c->bench->name, c->path->name))
			continue;
		rc = one(c, plan, &clk, seconds, r, out, stop);
		if (rc)
			return rc < 0 ? -1 : 0;
	}
	return 0;
}
