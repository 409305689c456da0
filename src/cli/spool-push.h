/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spool-push.h - a fleet's spool pushed after a save, and what is said
 * of it.
 */
#ifndef UKB_CLI_SPOOL_PUSH_H
#define UKB_CLI_SPOOL_PUSH_H

#include <stdio.h>

#include "store.h"

/* "run #N 'LABEL'" of a stored @run, the label made safe to print; @buf */
const char *stored_as(const struct rec_run *run, char *buf, size_t len);

/*
 * Saves @run into @st and says "stored as run #N 'LABEL' in WHERE" on @out
 * (NULL: nothing; WHERE is @path for a file), then pushes a fleet's spool
 * (push_after_save(), @quiet). 0, or -1 when it could not be saved
 * (printed).
 */
int save_and_say(struct store *st, struct rec_run *run, FILE *out, const char *path, int quiet);

/*
 * After runs were saved into @st: when it is a fleet's spool, pushes what
 * waits and says so (nothing when @quiet), or warns that it waits. 0, or
 * -1 when something could not be pushed (the run is safe in the spool).
 */
int push_after_save(struct store *st, int quiet);

/*
 * How runs are pushed: whole with @samples (push --samples) or with
 * UKBENCH_PUSH_SAMPLES set (not 0), else as the summary the server keeps.
 */
unsigned push_flags(int samples);

/* "pushed N runs to TARGET", when any were. */
void say_pushed(const struct push_stats *ps, const char *target);

#endif
