/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * registry.h - the table of every built-in benchmark.
 *
 * UKB_BENCHMARKS() is the one list: add a family's entries there and they
 * are declared, registered, listed, validated and runnable.
 */
#ifndef UKB_BENCH_REGISTRY_H
#define UKB_BENCH_REGISTRY_H

#include <stddef.h>

#include "ukbench.h"

#define UKB_BENCHMARKS(X)                                                                          \
	X(harness_empty)                                                                           \
	X(syscall_null)                                                                            \
	X(time_gettimeofday)                                                                       \
	X(time_clock_gettime)                                                                      \
	X(time_clock_gettime64)                                                                    \
	X(time_time)                                                                               \
	X(time_clock_getres)                                                                       \
	X(cpu_getcpu)                                                                              \
	X(random_getrandom)                                                                        \
	X(random_getrandom_mt)                                                                     \
	X(copy_read_zero)                                                                          \
	X(copy_pread_zero)                                                                         \
	X(copy_write_null)                                                                         \
	X(sched_messaging)                                                                         \
	X(sched_pipe)                                                                              \
	X(lab_spin)                                                                                \
	X(lab_linkstack)                                                                           \
	X(lab_align)                                                                               \
	X(lab_calls)                                                                               \
	X(lab_div64)

/* Every registered benchmark, in list order; the count in @n. */
const struct ukb_bench *const *ukb_registry(size_t *n);

/* The registered benchmark named @name, or NULL. */
const struct ukb_bench *ukb_registry_find(const char *name);

/* Path @path of benchmark @bench (its bench in *@b), or NULL. */
const struct ukb_path *ukb_registry_path(const char *bench, const char *path,
					 const struct ukb_bench **b);

/* At most this many benchmarks come from plug-ins. */
#define UKB_REGISTRY_ADDED_MAX 256

/*
 * Adds a plug-in's benchmark @b after the built-ins: checked as they are,
 * and refused when its name, or a case name it makes, is taken already.
 * 0, or -errno with why in @why.
 */
int ukb_registry_add(const struct ukb_bench *b, char *why, size_t len);

/* Is @b one of the built-ins? */
int ukb_registry_is_builtin(const struct ukb_bench *b);

/*
 * Checks every entry: a name, a summary, at least one path, a run() for
 * each path, unique benchmark and path names. Returns 0, or -EINVAL with
 * the first problem in @why.
 */
int ukb_registry_validate(char *why, size_t len);

#endif
