// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmp-floor.c - which floor a comparison uses, and why.
 */
#include <stdio.h>
#include <string.h>

#include "cmp-floor.h"

void cmp_choose_floor(struct floor_choice *fc, struct store *st, const struct rec_run *a,
		      const struct rec_run *b)
{
	struct store_floor f;
	char err[256];

	fc->floor = 0;
	fc->known = 0;
	if (fc->none) {
		snprintf(fc->from, sizeof(fc->from), "--no-floor");
		return;
	}
	if (fc->pct >= 0) {
		fc->floor = fc->pct / 100;
		fc->known = 1;
		snprintf(fc->from, sizeof(fc->from), "--floor");
		return;
	}
	if (strcmp(a->host, b->host)) {
		snprintf(fc->from, sizeof(fc->from), "the runs are of two hosts");
		return;
	}
	if (st && !store_floor_get(st, a->host, &f, err, sizeof(err))) {
		fc->floor = f.floor;
		fc->known = 1;
		snprintf(fc->from, sizeof(fc->from), "ukbench calibrate, %s, %u rounds", f.started,
			 f.rounds);
		return;
	}
	snprintf(fc->from, sizeof(fc->from), "'ukbench calibrate' measures it");
}
