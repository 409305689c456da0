/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filter-opts.h - the options that choose stored runs by kernel and date,
 * the same in runs, history and report (with --label and --host, which
 * each command declares beside them).
 */
#ifndef UKB_CLI_FILTER_OPTS_H
#define UKB_CLI_FILTER_OPTS_H

#include "store.h"

/* Three table rows of struct opt, their ids @base, @base + 1, @base + 2. */
#define FILTER_OPTS(base)                                                                          \
	OPT_CALL("kernel", 0, "GLOB", "only runs of a kernel release that matches", (base)),       \
	    OPT_CALL("since", 0, "DATE",                                                           \
		     "only runs started on or after DATE (2026-11-30, or a\nUTC time: "            \
		     "2026-11-30T08:00:00Z)",                                                      \
		     (base) + 1),                                                                  \
	    OPT_CALL("until", 0, "DATE",                                                           \
		     "only runs started on or before DATE (a date: that\nwhole day)", (base) + 2)

/*
 * Sets @f by option @id when it is one of the three (@base...): 0, or -1
 * with the error printed; 1 when @id is another option.
 */
int filter_option(struct store_filter *f, int id, int base, const char *arg);

#endif
