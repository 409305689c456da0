/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * envdiff.h - the environments of two runs side by side, line by line:
 * what the report shows so that a changed mitigation, clocksource or
 * governor is seen before a "regression" is believed.
 *
 * Every member of each run's environment, settings, clock and vDSO
 * description becomes a line (nested members as "vulnerabilities.mds"),
 * the ones that most often explain a change first: the kernel and its
 * command line, the mitigations, the clocksource, the governor, the CPU,
 * the C library, the compiler and ukbench's version.
 */
#ifndef UKB_REPORT_ENVDIFF_H
#define UKB_REPORT_ENVDIFF_H

#include <stddef.h>

#include "record.h"

struct env_line {
	char *key;    /* "kernel command line", "mitigation: mds", "setting: precision" */
	char *a, *b;  /* the values as text; NULL: absent on that side */
	int differs;  /* the values are not the same */
	int expected; /* differs between any two runs (the load average) */
};

/* The lines of @a against @b; 0, or -ENOMEM. envdiff_free() releases them. */
int envdiff(const struct rec_run *a, const struct rec_run *b, struct env_line **lines, size_t *n);

void envdiff_free(struct env_line *lines, size_t n);

#endif
