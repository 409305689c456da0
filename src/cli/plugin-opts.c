// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin-opts.c - plug-ins loaded for a command, their errors said.
 */
#include "cli.h"
#include "plugin-opts.h"
#include "plugin.h"

int plugin_load_said(const char *path)
{
	char err[1024];

	if (plugin_load(path, err, sizeof(err)))
		return error("%s", err);
	return 0;
}

int plugin_option(const struct opt *o, const char *arg, void *member)
{
	(void)o;
	*(const char **)member = arg;
	return plugin_load_said(arg);
}

int plugin_load_env_said(void)
{
	char err[1024];

	if (plugin_load_env(err, sizeof(err)))
		return error("%s", err);
	return 0;
}
