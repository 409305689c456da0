// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * helpers.c - where the static helpers are: beside this program
 * (ukbench-abi32, built from the same sources as a static i386 program;
 * ukbench-guest, the init of a guest `ukbench vm` boots), or where
 * UKBENCH_ABI32 and UKBENCH_GUEST say, for an installation that keeps them
 * elsewhere.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

/* The program @name beside this one, or where the variable @env says. */
static int beside(const char *name, const char *env_name, char *path, size_t len)
{
	const char *env = getenv(env_name);
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		snprintf(path, len, "%s", env);
		return access(path, X_OK) ? -1 : 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = 0;
	slash = strrchr(self, '/');
	snprintf(path, len, "%.*s/%s", slash ? (int)(slash - self) : 1, slash ? self : ".", name);
	return access(path, X_OK) ? -1 : 0;
}

int abi32_helper(char *path, size_t len)
{
	return beside("ukbench-abi32", "UKBENCH_ABI32", path, len);
}

int guest_helper(const char *name, char *path, size_t len)
{
	/* UKBENCH_GUEST names this machine's guest; another machine's is beside it */
	return beside(name, strcmp(name, "ukbench-guest") ? "" : "UKBENCH_GUEST", path, len);
}
