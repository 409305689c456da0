/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pool.h - the runs of one label as one figure a path: what `compare`,
 * `report` and `show` read when a label names several runs.
 */
#ifndef UKB_COMPARE_POOL_H
#define UKB_COMPARE_POOL_H

#include <stddef.h>

#include "record.h"

/* The boot @run was measured in, into @buf ("" when not recorded). */
void cmp_boot_of(const struct rec_run *run, char *buf, size_t len);

/* Was @b measured on the host, kernel and boot of @a (the same thing measured again)? */
int cmp_same_boot(const struct rec_run *a, const char *boot_a, const struct rec_run *b,
		  const char *boot_b);

/*
 * Pools @runs[1..n) (one label, newest first) into @runs[0], path by path:
 * samples pooled, process means pooled within a boot; with several boots
 * each boot is one observation, the mean of its processes, since boots
 * differ by more than processes do. A path measured with other settings
 * is left out with a note on stderr; references that timed other work
 * are forgotten (the figure is compared as measured). 0, or -1 on ENOMEM.
 */
int cmp_pool(struct rec_run *runs, size_t n);

#endif
