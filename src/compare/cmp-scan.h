/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmp-scan.h - a run made with -L NAME=V1,V2,...: each value's result
 * against the first value's, path by path, as compare prints them.
 */
#ifndef UKB_COMPARE_CMP_SCAN_H
#define UKB_COMPARE_CMP_SCAN_H

#include <stdio.h>

#include "record.h"

/* The rows of @run's scan @scan ("groups=1,2,4"), under a note; nothing when none. */
void cmp_scan_print(FILE *out, int wide, const struct rec_run *run, const char *scan);

#endif
