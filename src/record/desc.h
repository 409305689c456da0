/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * desc.h - a run's environment and settings as typed members, read from
 * their JSON text once, on first use, and kept with the run until the text
 * changes (rec_settings_put()) or the run is released. The rest of the
 * program reads the descriptions through these and never parses them.
 */
#ifndef UKB_RECORD_DESC_H
#define UKB_RECORD_DESC_H

#include <stddef.h>

#include "record.h"

/* Every string is NULL where the run did not record it. */
struct rec_env {
	int recorded; /* the run kept an environment (a JSON object) */
	const char *machine, *cpu_model, *clocksource, *libc, *virtualization;
	const char *governor, *kernel_version, *boot_id;
	long long online_cpus; /* 0: not known */
	double load[3];	       /* the load averages over 1, 5, 15 minutes */
	size_t nload;	       /* how many of them the run recorded */
	const char **warnings;
	size_t nwarnings;
};

struct rec_plugin {
	const char *path, *build_id; /* build_id NULL: none was read */
};

struct rec_settings {
	double precision, budget_s; /* NAN: not recorded */
	long long cpu;		    /* pinned to; -1: not pinned */
	const char *reference;	    /* the reference's kind */
	const char *command;	    /* a run of `exec`: its command, run @repeat times */
	long long repeat;
	struct rec_plugin *plugins; /* the plug-ins loaded when it ran */
	size_t nplugins;
	const char *vm_image; /* a guest's run: the kernel image `vm` booted */
};

/* Never NULL: a run without (or with unreadable) descriptions gets empty ones. */
const struct rec_env *rec_env(const struct rec_run *run);
const struct rec_settings *rec_settings(const struct rec_run *run);

/*
 * The kind of reference work @run timed: UKB_REF_KIND with its digest, or
 * UKB_REF_KIND_BEFORE for a run that records none.
 */
const char *rec_ref_kind(const struct rec_run *run);

/* Did runs @a and @b time the same reference work. */
int rec_same_ref(const struct rec_run *a, const struct rec_run *b);

/*
 * Sets member @key of @run's settings to the JSON text @json (an object is
 * made when there are none). 0, or -1 when @json is not JSON or on ENOMEM,
 * the settings then unchanged.
 */
int rec_settings_put(struct rec_run *run, const char *key, const char *json);

/*
 * Calls @fn for each member of the JSON object @json, named "@prefix.key":
 * an object's members one level down as "@prefix.key.member" (every level
 * with REC_FLAT_DEEP, else one, deeper values as JSON text), an array's
 * items joined by "; ", a string as it is, other values as JSON text (NULL
 * for null one level down). REC_FLAT_NO_SCHEMA leaves out the schema's
 * members. 0 (nothing called when @json is not an object), or -1 on ENOMEM.
 */
enum { REC_FLAT_DEEP = 1 << 0, REC_FLAT_NO_SCHEMA = 1 << 1 };
int rec_flatten(const char *json, const char *prefix, int flags,
		void (*fn)(void *ctx, const char *key, const char *value), void *ctx);

#endif
