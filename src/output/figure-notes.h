/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * figure-notes.h - what the lab benchmarks of a run show of this CPU, in a
 * few lines under its table: the verdict each lab's figures support
 * (beyond their intervals or not), never the one expected.
 */
#ifndef UKB_OUTPUT_FIGURE_NOTES_H
#define UKB_OUTPUT_FIGURE_NOTES_H

#include <stddef.h>
#include <stdio.h>

#include "record.h"

/* Prints the lines of @run's lab paths, if it has any; how many lines. */
size_t lab_notes_print(FILE *out, int wide, const struct rec_run *run);

/* The same into @buf (for tests): how many lines. */
size_t lab_notes_text(char *buf, size_t len, const struct rec_run *run);

#endif
