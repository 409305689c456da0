/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * events.h - the events of -e: perf's generic names and raw codes (the
 * core's table), and where ukbench is built with libpfm4 (Debian's
 * libpfm4-dev), the event names of this machine's PMU as perf stat -e
 * takes them ("INST_RETIRED.ANY", "inst_retired.any:u"). Each is resolved
 * here to a type and configuration, so that the processes measuring need
 * no names.
 */
#ifndef UKB_RUN_EVENTS_H
#define UKB_RUN_EVENTS_H

#include <stddef.h>

#include "counters.h"
#include "select.h"

/* Parses @list into @ev; the count, or -1 with @e said. */
int events_parse(const char *list, struct ukb_event *ev, unsigned max, struct ukb_err *e);

/* "libpfm4, PMUs here: perf amd64_fam19h" or "without libpfm4", into @buf. */
const char *events_pmu_info(char *buf, size_t len);

#endif
