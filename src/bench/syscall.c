// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * syscall.c - the cost of entering and leaving the kernel.
 *
 * getppid() does no work in the kernel beyond reading a pointer under RCU,
 * takes no argument and cannot fail: what is left is the entry and exit
 * path, with whatever mitigations the kernel applies on it. The libc path
 * is the library's getppid(), a plain system call in every libc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ukbench.h"

static int null_syscall(struct ukb_ctx *c, uint64_t n)
{
	(void)c;
	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}

static int null_libc(struct ukb_ctx *c, uint64_t n)
{
	(void)c;
	for (uint64_t i = 0; i < n; i++)
		getppid();
	return 0;
}

static int null_setup(struct ukb_ctx *c, char *why, size_t len)
{
	long ret;

	errno = 0;
	ret = strcmp(c->path->name, "libc") ? syscall(SYS_getppid) : (long)getppid();
	if (ret < 0) {
		/* glibc's getppid() cannot fail, so it returns the raw -errno */
		int err = errno ? errno : (int)-ret;

		snprintf(why, len, "getppid through %s failed: %s", c->path->name, strerror(err));
		return -err;
	}
	return 0;
}

static const struct ukb_path syscall_null_paths[] = {
	{ .name = "syscall",
	  .run = null_syscall,
	  .setup = null_setup,
	  .detail = "syscall(SYS_getppid)" },
	{ .name = "libc",
	  .run = null_libc,
	  .setup = null_setup,
	  .detail = "the C library's getppid()" },
	{ NULL },
};

const struct ukb_bench ukb_bench_syscall_null = {
	.name = "syscall.null",
	.summary = "getppid(): a system call that does nothing, entry and exit only",
	.flags = UKB_DEFAULT,
	.paths = syscall_null_paths,
};
