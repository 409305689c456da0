// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpu.c - getcpu(): on which CPU and NUMA node the caller runs.
 *
 * The C library's path is getcpu() where the library has it (glibc 2.29
 * and later) and sched_getcpu() otherwise; note that glibc's sched_getcpu()
 * reads the rseq area rather than calling the vDSO, which is why getcpu()
 * is preferred here: it is the same operation as the vdso and syscall paths.
 *
 * Two more ways of asking stand beside them: glibc's sched_getcpu() as
 * programs call it, and what it does since glibc 2.35, a load of cpu_id
 * from the thread's rseq area (the kernel keeps it current on every
 * return to user space). Where rseq is not registered (the
 * glibc.pthread.rseq=0 tunable, a kernel without rseq, another libc) the
 * rseq path is n/a with that reason.
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

/* the thread pointer: GCC has it for x86 since 11, for the others long before */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35)) &&          \
    defined(__has_include) &&                                                                      \
    (!(defined(__x86_64__) || defined(__i386__)) || __GNUC__ >= 11 || defined(__clang__))
#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#define HAVE_RSEQ 1
#endif
#endif

#ifdef HAVE_RSEQ
/*
 * __rseq_offset is relative to the thread pointer as GCC's builtin gives
 * it; GCC 12 has no builtin on powerpc, where the ABI keeps it in r13
 * (64-bit) or r2 (32-bit).
 */
static volatile struct rseq *rseq_area(void)
{
	char *tp;

#if defined(__powerpc64__)
	__asm__("mr %0, 13" : "=r"(tp));
#elif defined(__powerpc__)
	__asm__("mr %0, 2" : "=r"(tp));
#else
	tp = __builtin_thread_pointer();
#endif
	return (volatile struct rseq *)(tp + __rseq_offset);
}
#endif

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

static int getcpu_sched(struct ukb_ctx *c, uint64_t n)
{
	(void)c;
	for (uint64_t i = 0; i < n; i++)
		sched_getcpu();
	return 0;
}

#ifdef HAVE_RSEQ
static int getcpu_rseq(struct ukb_ctx *c, uint64_t n)
{
	volatile struct rseq *rs = rseq_area();

	(void)c;
	/* a volatile load each time: the compiler may neither hoist nor drop it */
	for (uint64_t i = 0; i < n; i++)
		(void)rs->cpu_id;
	return 0;
}
#else
static int getcpu_rseq(struct ukb_ctx *c, uint64_t n)
{
	(void)c;
	(void)n;
	return -ENOSYS;
}
#endif

/* The rseq area's cpu_id, or -1 with why. */
static long rseq_cpu(char *why, size_t len)
{
#ifdef HAVE_RSEQ
	int32_t id;

	if (!__rseq_size) {
		snprintf(why, len,
			 "rseq is not registered in this thread (the "
			 "glibc.pthread.rseq=0 tunable, or a kernel without rseq)");
		return -1;
	}
	id = (int32_t)rseq_area()->cpu_id;
	if (id < 0) {
		snprintf(why, len, "the rseq area's cpu_id is %d (%s)", id,
			 id == -2 ? "registration failed" : "not yet set");
		return -1;
	}
	return id;
#else
	snprintf(why, len,
		 "built without <sys/rseq.h> (glibc 2.35 or later) or the thread "
		 "pointer builtin");
	return -1;
#endif
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
	} else if (!strcmp(c->path->name, "sched")) {
		ret = sched_getcpu();
		cpu = (unsigned)ret;
		err = ret < 0 ? errno : 0;
	} else if (!strcmp(c->path->name, "rseq")) {
		ret = rseq_cpu(why, len);
		if (ret < 0)
			return -ENOTSUP;
		cpu = (unsigned)ret;
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
	{ .name = "sched",
	  .run = getcpu_sched,
	  .setup = getcpu_setup,
	  .detail = "the C library's sched_getcpu() (glibc 2.35+: reads rseq)" },
	{ .name = "rseq",
	  .run = getcpu_rseq,
	  .setup = getcpu_setup,
	  .detail = "cpu_id of the thread's rseq area, one load" },
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
