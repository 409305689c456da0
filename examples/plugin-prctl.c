// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin-prctl.c - a benchmark of your own, as a ukbench plug-in:
 * prctl(PR_GET_NAME) through the C library and as the raw system call.
 *
 *   cc -O2 -shared -fPIC $(pkg-config --cflags ukbench) -o plugin-prctl.so plugin-prctl.c
 *   ukbench run --plugin ./plugin-prctl.so example.prctl
 */
#include <errno.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ukbench.h>

static int libc_run(struct ukb_ctx *c, uint64_t n)
{
	char name[16];

	(void)c;
	for (uint64_t i = 0; i < n; i++)
		if (prctl(PR_GET_NAME, name, 0, 0, 0))
			return -errno;
	return 0;
}

static int syscall_run(struct ukb_ctx *c, uint64_t n)
{
	char name[16];

	(void)c;
	for (uint64_t i = 0; i < n; i++)
		if (syscall(SYS_prctl, PR_GET_NAME, name, 0, 0, 0))
			return -errno;
	return 0;
}

static const struct ukb_path prctl_paths[] = {
	{ .name = "libc", .run = libc_run, .detail = "prctl(PR_GET_NAME)" },
	{ .name = "syscall", .run = syscall_run, .detail = "syscall(SYS_prctl, PR_GET_NAME)" },
	{ NULL },
};

static const struct ukb_bench prctl_bench = {
	.name = "example.prctl",
	.summary = "prctl(PR_GET_NAME): the thread's name, a plug-in's example",
	.paths = prctl_paths,
};

UKB_PLUGIN(&prctl_bench);
