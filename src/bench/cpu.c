// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpu.c - getcpu(): on which CPU and NUMA node the caller runs.
 *
 * The C library's path is getcpu() where the library has it (glibc 2.29
 * and later) and sched_getcpu() otherwise; note that glibc's sched_getcpu()
 * reads the rseq area rather than calling the vDSO, which is why getcpu()
 * is preferred here: it is the same operation as the other two paths.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ukbench.h"
#include "vdso-types.h"

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
#define HAVE_LIBC_GETCPU 1
#define LIBC_GETCPU	 "getcpu()"
#else
#define LIBC_GETCPU "sched_getcpu()"
#endif

static int getcpu_vdso(struct ukb_ctx *c, uint64_t n)
{
	ukb_vdso_getcpu_t fn = (ukb_vdso_getcpu_t)c->vfn;
	unsigned cpu, node;

	for (uint64_t i = 0; i < n; i++)
		fn(&cpu, &node, NULL);
	return 0;
}

static int getcpu_libc(struct ukb_ctx *c, uint64_t n)
{
	unsigned cpu, node;

	(void)c;
	for (uint64_t i = 0; i < n; i++) {
#ifdef HAVE_LIBC_GETCPU
		getcpu(&cpu, &node);
#else
		cpu = (unsigned)sched_getcpu();
		(void)node;
#endif
	}
	(void)cpu;
	return 0;
}

static int getcpu_syscall(struct ukb_ctx *c, uint64_t n)
{
	unsigned cpu, node;

	(void)c;
	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_getcpu, &cpu, &node, NULL);
	return 0;
}

static int getcpu_setup(struct ukb_ctx *c, char *why, size_t len)
{
	unsigned cpu = ~0u, node = ~0u;
	long ret;
	int err = 0;

	if (!strcmp(c->path->name, "vdso")) {
		ret = ((ukb_vdso_getcpu_t)c->vfn)(&cpu, &node, NULL);
		err = ret < 0 ? (int)-ret : (int)ret;
	} else if (!strcmp(c->path->name, "libc")) {
#ifdef HAVE_LIBC_GETCPU
		ret = getcpu(&cpu, &node);
#else
		ret = sched_getcpu();
		cpu = (unsigned)ret;
		ret = ret < 0 ? -1 : 0;
#endif
		err = ret ? errno : 0;
	} else {
		ret = syscall(SYS_getcpu, &cpu, &node, NULL);
		err = ret ? errno : 0;
	}
	if (err) {
		snprintf(why, len, "getcpu through %s failed: %s", c->path->name, strerror(err));
		return -err;
	}
	if (c->cpu != UKB_CPU_ANY && cpu != c->cpu) {
		snprintf(why, len, "getcpu through %s says CPU %u, pinned to %u", c->path->name,
			 cpu, c->cpu);
		return -EIO;
	}
	return 0;
}

static const struct ukb_path cpu_getcpu_paths[] = {
	{ .name = "vdso",
	  .run = getcpu_vdso,
	  .vdso_sym = "getcpu",
	  .setup = getcpu_setup,
	  .detail = "direct call into the vDSO" },
	{ .name = "libc",
	  .run = getcpu_libc,
	  .setup = getcpu_setup,
	  .detail = "the C library's " LIBC_GETCPU },
	{ .name = "syscall",
	  .run = getcpu_syscall,
	  .setup = getcpu_setup,
	  .detail = "syscall(SYS_getcpu)" },
	{ NULL },
};

const struct ukb_bench ukb_bench_cpu_getcpu = {
	.name = "cpu.getcpu",
	.summary = "getcpu(&cpu, &node): the CPU and node the caller runs on",
	.flags = UKB_DEFAULT,
	.paths = cpu_getcpu_paths,
};
