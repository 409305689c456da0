/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spool-push.h - a fleet's spool pushed after a save, and what is said
 * of it.
 */
#ifndef UKB_CLI_SPOOL_PUSH_H
#define UKB_CLI_SPOOL_PUSH_H

#include "store.h"

/*
 * After runs were saved into @st: when it is a fleet's spool, pushes what
 * waits and says so (nothing when @quiet), or warns that it waits. 0, or
 * -1 when something could not be pushed (the run is safe in the spool).
 */
int push_after_save(struct store *st, int quiet);

/* "pushed N runs to TARGET", when any were. */
void say_pushed(const struct push_stats *ps, const char *target);

#endif
