/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin-opts.h - plug-ins loaded from the command line and the
 * environment (run/plugin.h), their errors said.
 */
#ifndef UKB_CLI_PLUGIN_OPTS_H
#define UKB_CLI_PLUGIN_OPTS_H

/* Loads the plug-in @path; 0, or -1 with the error printed. */
int plugin_load_said(const char *path);

/* --plugin FILE.so, as an OPT_FUNC: loads it, and keeps its name in the member. */
struct opt;
int plugin_option(const struct opt *o, const char *arg, void *member);

/* UKBENCH_PLUGIN_PATH's plug-ins; 0, or -1 with the error printed. */
int plugin_load_env_said(void);

#endif
