/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin.h - benchmarks of a user's own, in shared objects written
 * against include/ukbench.h (struct ukb_plugin, UKB_PLUGIN()).
 *
 * A plug-in is loaded in ukbench to list and validate its benchmarks, and
 * in every worker process to measure them (the plan names it). Its API
 * version is checked, each benchmark is validated as a built-in is and a
 * name that is taken refused; its path and build id are kept with every
 * run that loaded it (settings.plugins), so that compare can say it
 * changed between two runs.
 */
#ifndef UKB_RUN_PLUGIN_H
#define UKB_RUN_PLUGIN_H

#include <stddef.h>

/* Loads the plug-in @path (once; again is nothing). 0, or -1 with @err. */
int plugin_load(const char *path, char *err, size_t len);

/* Loads every *.so of the directories in UKBENCH_PLUGIN_PATH (':'-separated). 0, or -1 with @err.
 */
int plugin_load_env(char *err, size_t len);

/* The paths of the plug-ins loaded, ':'-joined, for a worker's plan; NULL: none. */
const char *plugin_paths(void);

/*
 * The plug-ins loaded as JSON, [{"path": ..., "build_id": ..., "benchmarks":
 * [...]}], into a new string (the caller frees it); NULL when none.
 */
char *plugin_describe(void);

#endif
