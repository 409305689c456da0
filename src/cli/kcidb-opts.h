/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kcidb-opts.h - --kcidb-origin and --kcidb-checkout, the same in every
 * command that writes --format kcidb, bound to a struct kcidb_ids member.
 */
#ifndef UKB_CLI_KCIDB_OPTS_H
#define UKB_CLI_KCIDB_OPTS_H

#include "kcidb.h"
#include "options.h"

/* The origin as KCIDB takes one: lower-case letters, digits, '_'. */
int kcidb_parse_origin(const struct opt *o, const char *arg, void *member);
/* A checkout's id: not empty, one line. */
int kcidb_parse_checkout(const struct opt *o, const char *arg, void *member);

#define KCIDB_OPTS(T, F)                                                                           \
	OPT_FUNC("kcidb-origin", 0, "NAME",                                                        \
		 "--format kcidb: the CI system named in every id\n(default " KCIDB_ORIGIN ")",    \
		 kcidb_parse_origin, const char *, T, F.origin),                                   \
	    OPT_FUNC("kcidb-checkout", 0, "ID",                                                    \
		     "--format kcidb: the kernel source's id (a 40-hex\ncommit is its "            \
		     "git_commit_hash too; default: the\nkernel release)",                         \
		     kcidb_parse_checkout, const char *, T, F.checkout)

#endif
