/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filter-opts.h - the options that choose stored runs, one group the same
 * in runs, history and report: --with-label, --host, --kernel, --since,
 * --until, bound to a struct store_filter member of the command's options.
 * A label is set with -l/--label (run, exec, vm, import) and matched with
 * --with-label: one name, one meaning.
 */
#ifndef UKB_CLI_FILTER_OPTS_H
#define UKB_CLI_FILTER_OPTS_H

#include "options.h"
#include "store.h"

/* --since and --until: a date or a UTC time, as the store keeps them. */
int filter_parse_date(const struct opt *o, const char *arg, void *member);

/* Does @f choose among the runs (a label, host, kernel or date given)? */
int filter_given(const struct store_filter *f);

/* The options a "matches nothing" error names, as the user typed them. */
#define FILTER_OPT_NAMES "--with-label, --host, --kernel, --since, --until"

/*
 * Five table rows setting the store_filter member F of struct T; PRE goes
 * before each help line ("" or "--history: ").
 */
#define FILTER_OPTS(T, F, PRE)                                                                     \
	OPT_STRING("with-label", 0, "GLOB", PRE "only runs whose label matches", T, F.label),      \
	    OPT_STRING("host", 0, "HOST", PRE "only runs of this host", T, F.host),                \
	    OPT_STRING("kernel", 0, "GLOB", PRE "only runs whose kernel release matches", T,       \
		       F.kernel),                                                                  \
	    OPT_FUNC("since", 0, "DATE",                                                           \
		     PRE "only runs started on or after DATE\n(2026-11-30, or a UTC time: "        \
			 "2026-11-30T08:00:00Z)",                                                  \
		     filter_parse_date, const char *, T, F.since),                                 \
	    OPT_FUNC("until", 0, "DATE",                                                           \
		     PRE "only runs started on or before DATE\n(a date: that whole day)",          \
		     filter_parse_date, const char *, T, F.until)

/*
 * prune's and fleet-prune's rows: --before, --keep-labels and --dry-run,
 * setting the members before, keep and dry of struct T.
 */
#define PRUNE_OPTS(T)                                                                              \
	OPT_FUNC("before", 0, "DATE",                                                              \
		 "prune the runs started before DATE (2026-01-01: before that\nday; or a UTC "     \
		 "time: 2026-01-01T08:00:00Z)",                                                    \
		 filter_parse_date, const char *, T, before),                                      \
	    OPT_STRING("keep-labels", 0, "GLOB",                                                   \
		       "keep whole the runs whose label matches GLOB\n(v6.*: the releases)", T,    \
		       keep),                                                                      \
	    OPT_BOOL("dry-run", 0, "count what would be pruned; change nothing", T, dry)

/* The old spelling of --with-label, for a command's .old (-l, --label). */
#define FILTER_OLD                                                                                 \
	{                                                                                          \
		"label", 'l', "with-label"                                                         \
	}

#endif
