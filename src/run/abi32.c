// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abi32.c - where the 32-bit helper is: beside this program
 * (ukbench-abi32, built from the same sources as a static i386 program),
 * or where UKBENCH_ABI32 says, for an installation that keeps it
 * elsewhere.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

int abi32_helper(char *path, size_t len)
{
	const char *env = getenv("UKBENCH_ABI32");
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
	snprintf(path, len, "%.*s/ukbench-abi32", slash ? (int)(slash - self) : 1,
		 slash ? self : ".");
	return access(path, X_OK) ? -1 : 0;
}
