// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rec-json-kept.c - a run's JSON as a fleet's server keeps it (record.h,
 * rec_json_for_server()).
 */
#include <stdio.h>

#include "jv.h"
#include "record.h"

static const char *const proc_keys[] = { "process_means_ns", "process_ref_ns" };
static const char *const made_again[] = { "mean_ns",	   "ci95_ns",	 "ci95_rel",
					  "between_sd_ns", "per_second", "bytes_per_second" };

char *rec_json_for_server(const char *text, size_t len, char *err, size_t errlen)
{
	struct jv_error e = { 0 };
	struct jv *run = jv_parse_span(text, len, 1, NULL, &e), *results;
	char *out;

	if (!run) {
		snprintf(err, errlen, "%s",
			 e.nomem ? "out of memory" : "the run's JSON cannot be read");
		return NULL;
	}
	results = jv_get(run, "results");
	if (!jv_is(run, JV_OBJECT) || !jv_is(results, JV_ARRAY)) {
		jv_free(run);
		snprintf(err, errlen, "the run's JSON has no results");
		return NULL;
	}
	for (size_t i = 0; i < jv_len(results); i++) {
		struct jv *r = jv_at(results, i), *st = jv_get(r, "stats");

		if (!jv_get(r, "batches"))
			continue;
		for (size_t k = 0; k < sizeof(proc_keys) / sizeof(proc_keys[0]); k++)
			jv_del(r, proc_keys[k]);
		for (size_t k = 0; st && k < sizeof(made_again) / sizeof(made_again[0]); k++)
			jv_del(st, made_again[k]);
	}
	out = jv_text(run, 0);
	jv_free(run);
	if (!out)
		snprintf(err, errlen, "out of memory");
	return out;
}
