/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmp-floor.h - the floor a comparison adds to each interval (compare.h):
 * --no-floor, --floor PCT, else what `calibrate` stored for the base's
 * host when both runs are of that host. Shared by compare and report.
 */
#ifndef UKB_CLI_CMP_FLOOR_H
#define UKB_CLI_CMP_FLOOR_H

#include "record.h"
#include "store.h"

struct floor_choice {
	double pct; /* --floor, in %; < 0: not given */
	int none;   /* --no-floor */
	/* out */
	double floor; /* as a fraction */
	int known;    /* measured or given, even as 0 */
	char from[96];
};

/* Fills the out members of @fc for @a against @b; @st may be NULL. */
void cmp_choose_floor(struct floor_choice *fc, struct store *st, const struct rec_run *a,
		      const struct rec_run *b);

#endif
