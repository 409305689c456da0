/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * match.h - names matched by patterns, as run selects benchmarks and the
 * store, compare and history select stored results: NAME or NAME/PATH,
 * NAME a shell glob on the full name (time.clock_gettime.monotonic) or the
 * benchmark's (time.clock_gettime), a dotted prefix ("time") or one dotted
 * word ("monotonic"); PATH a glob on the path (vdso). And the distance
 * between two words, for "did you mean".
 */
#ifndef UKB_CORE_MATCH_H
#define UKB_CORE_MATCH_H

#include <stddef.h>

/* Does NAME pattern @pat match @name, or @benchmark (NULL: none)? */
int ukb_name_matches(const char *pat, const char *name, const char *benchmark);

/*
 * Does a result named @name, of @benchmark (NULL: not known), through
 * @path match @pattern (NAME[/PATH])? For stored results, whose benchmark
 * may not be registered here.
 */
int pattern_matches(const char *pattern, const char *name, const char *benchmark, const char *path);

/* Levenshtein's distance between @a and @b, swaps of two neighbours one
 * edit; (size_t)-1 without memory. */
size_t ukb_edit_distance(const char *a, const char *b);

#endif
