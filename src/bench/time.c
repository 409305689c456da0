// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * time.c - the vDSO's time functions: gettimeofday, clock_gettime for each
 * clock, time and clock_getres, each through the vDSO directly, the C
 * library and the raw system call.
 *
 * The loops are as bare as the one a developer would write (tb.c in the
 * powerpc link-stack thread): one call per iteration, the result not
 * checked. Correctness is the setup's job: it makes one call through the
 * same path and refuses the path if that call fails, so a blocked or
 * unsupported call is reported as such and never timed as a fast no-op.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "ukbench.h"
#include "vdso-types.h"

static const struct ukb_variant clocks[] = {
	{ .name = "realtime", .arg = CLOCK_REALTIME },
	{ .name = "monotonic", .arg = CLOCK_MONOTONIC },
	{ .name = "monotonic_raw", .arg = CLOCK_MONOTONIC_RAW },
	{ .name = "boottime", .arg = CLOCK_BOOTTIME },
	{ .name = "tai", .arg = CLOCK_TAI },
	{ .name = "realtime_coarse", .arg = CLOCK_REALTIME_COARSE },
	{ .name = "monotonic_coarse", .arg = CLOCK_MONOTONIC_COARSE },
	{ NULL },
};

/* A probe's verdict: 0, or -errno with the reason written. */
static int probe_result(int ret, int err, const char *what, char *why, size_t len)
{
	if (ret == 0)
		return 0;
	snprintf(why, len, "%s failed: %s", what, strerror(err));
	return -err;
}

/* ------------------------------------------------------------------ */
/* gettimeofday                                                        */

static int gtod_vdso(struct ukb_ctx *c, uint64_t n)
{
	ukb_vdso_gettimeofday_t fn = (ukb_vdso_gettimeofday_t)c->vfn;
	struct ukb_kbuf tv;

	for (uint64_t i = 0; i < n; i++)
		fn(&tv, NULL);
	return 0;
}

static int gtod_libc(struct ukb_ctx *c, uint64_t n)
{
	struct timeval tv;

	(void)c;
	for (uint64_t i = 0; i < n; i++)
		gettimeofday(&tv, NULL);
	return 0;
}

#ifdef SYS_gettimeofday
static int gtod_syscall(struct ukb_ctx *c, uint64_t n)
{
	struct ukb_kbuf tv;

	(void)c;
	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_gettimeofday, &tv, NULL);
	return 0;
}
#else
/* Never run: gtod_setup() refuses the path first. */
static int gtod_syscall(struct ukb_ctx *c, uint64_t n)
{
	(void)c;
	(void)n;
	return -ENOSYS;
}
#endif

static int gtod_setup(struct ukb_ctx *c, char *why, size_t len)
{
	struct ukb_kbuf tv;
	struct timeval ltv;
	int ret;

	if (!strcmp(c->path->name, "vdso")) {
		ret = ((ukb_vdso_gettimeofday_t)c->vfn)(&tv, NULL);
		/* the vDSO returns -errno itself, or a positive one on powerpc */
		return probe_result(ret, ret < 0 ? -ret : ret, "vDSO gettimeofday", why, len);
	}
	if (!strcmp(c->path->name, "libc")) {
		ret = gettimeofday(&ltv, NULL);
		return probe_result(ret, errno, "gettimeofday()", why, len);
	}
#ifdef SYS_gettimeofday
	ret = (int)syscall(SYS_gettimeofday, &tv, NULL);
	return probe_result(ret, errno, "system call gettimeofday", why, len);
#else
	snprintf(why, len, "no gettimeofday system call on this architecture");
	return -ENOSYS;
#endif
}

/* ------------------------------------------------------------------ */
/* clock_gettime and clock_getres                                      */

static int cgt_vdso(struct ukb_ctx *c, uint64_t n)
{
	ukb_vdso_clock_gettime_t fn = (ukb_vdso_clock_gettime_t)c->vfn;
	int clk = (int)c->arg;
	struct ukb_kbuf ts;

	for (uint64_t i = 0; i < n; i++)
		fn(clk, &ts);
	return 0;
}

static int cgt_libc(struct ukb_ctx *c, uint64_t n)
{
	clockid_t clk = (clockid_t)c->arg;
	struct timespec ts;

	for (uint64_t i = 0; i < n; i++)
		clock_gettime(clk, &ts);
	return 0;
}

static int cgt_syscall(struct ukb_ctx *c, uint64_t n)
{
	long clk = c->arg;
	struct ukb_kbuf ts;

	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_clock_gettime, clk, &ts);
	return 0;
}

static int cgr_libc(struct ukb_ctx *c, uint64_t n)
{
	clockid_t clk = (clockid_t)c->arg;
	struct timespec ts;

	for (uint64_t i = 0; i < n; i++)
		clock_getres(clk, &ts);
	return 0;
}

static int cgr_syscall(struct ukb_ctx *c, uint64_t n)
{
	long clk = c->arg;
	struct ukb_kbuf ts;

	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_clock_getres, clk, &ts);
	return 0;
}

/* Both clock functions share a signature, so one probe serves them. */
static int clock_setup(struct ukb_ctx *c, char *why, size_t len)
{
	int getres = c->path->run == cgr_libc || c->path->run == cgr_syscall ||
		     (c->path->vdso_sym && !strcmp(c->path->vdso_sym, "clock_getres"));
	const char *fname = getres ? "clock_getres" : "clock_gettime";
	struct ukb_kbuf kts;
	struct timespec ts;
	char what[96];
	int ret;

	if (!strcmp(c->path->name, "vdso")) {
		ret = ((ukb_vdso_clock_gettime_t)c->vfn)((int)c->arg, &kts);
		snprintf(what, sizeof(what), "vDSO %s(%s)", fname, c->variant->name);
		return probe_result(ret, ret < 0 ? -ret : ret, what, why, len);
	}
	if (!strcmp(c->path->name, "libc")) {
		ret = getres ? clock_getres((clockid_t)c->arg, &ts)
			     : clock_gettime((clockid_t)c->arg, &ts);
		snprintf(what, sizeof(what), "%s(%s)", fname, c->variant->name);
		return probe_result(ret, errno, what, why, len);
	}
	ret = (int)syscall(getres ? SYS_clock_getres : SYS_clock_gettime, c->arg, &kts);
	snprintf(what, sizeof(what), "system call %s(%s)", fname, c->variant->name);
	return probe_result(ret, errno, what, why, len);
}

/* ------------------------------------------------------------------ */
/* clock_gettime64: the 64-bit time_t entry of 32-bit ABIs             */

#ifdef SYS_clock_gettime64
static int cgt64_syscall(struct ukb_ctx *c, uint64_t n)
{
	long clk = c->arg;
	struct ukb_kbuf ts;

	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_clock_gettime64, clk, &ts);
	return 0;
}
#else
/* Never run: cgt64_setup() refuses the path first. */
static int cgt64_syscall(struct ukb_ctx *c, uint64_t n)
{
	(void)c;
	(void)n;
	return -ENOSYS;
}
#endif

static int cgt64_setup(struct ukb_ctx *c, char *why, size_t len)
{
	struct ukb_kbuf ts;
	char what[96];
	int ret;

	if (!strcmp(c->path->name, "vdso")) {
		ret = ((ukb_vdso_clock_gettime_t)c->vfn)((int)c->arg, &ts);
		snprintf(what, sizeof(what), "vDSO clock_gettime64(%s)", c->variant->name);
		return probe_result(ret, ret < 0 ? -ret : ret, what, why, len);
	}
#ifdef SYS_clock_gettime64
	ret = (int)syscall(SYS_clock_gettime64, c->arg, &ts);
	snprintf(what, sizeof(what), "system call clock_gettime64(%s)", c->variant->name);
	return probe_result(ret, errno, what, why, len);
#else
	(void)ts;
	(void)what;
	(void)ret;
	snprintf(why, len,
		 "no clock_gettime64 system call: this ABI has a 64-bit time_t throughout");
	return -ENOSYS;
#endif
}

/* ------------------------------------------------------------------ */
/* time                                                                */

static int time_vdso(struct ukb_ctx *c, uint64_t n)
{
	ukb_vdso_time_t fn = (ukb_vdso_time_t)c->vfn;

	for (uint64_t i = 0; i < n; i++)
		fn(NULL);
	return 0;
}

static int time_libc(struct ukb_ctx *c, uint64_t n)
{
	(void)c;
	for (uint64_t i = 0; i < n; i++)
		time(NULL);
	return 0;
}

#ifdef SYS_time
static int time_syscall(struct ukb_ctx *c, uint64_t n)
{
	(void)c;
	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_time, NULL);
	return 0;
}
#endif

static int time_setup(struct ukb_ctx *c, char *why, size_t len)
{
	long t;

	if (!strcmp(c->path->name, "vdso"))
		t = ((ukb_vdso_time_t)c->vfn)(NULL);
	else if (!strcmp(c->path->name, "libc"))
		t = (long)time(NULL);
	else {
#ifdef SYS_time
		t = syscall(SYS_time, NULL);
#else
		snprintf(why, len, "no time system call on this architecture");
		return -ENOSYS;
#endif
	}
	if (t <= 0) {
		int err = t < 0 && t > -4096 ? (int)-t : errno ? errno : EINVAL;

		snprintf(why, len, "time() through %s returned %ld: %s", c->path->name, t,
			 strerror(err));
		return -err;
	}
	return 0;
}

#ifndef SYS_time
/* Never run: time_setup() refuses the path first. */
static int time_syscall(struct ukb_ctx *c, uint64_t n)
{
	(void)c;
	(void)n;
	return -ENOSYS;
}
#endif

/* ------------------------------------------------------------------ */

static const struct ukb_path time_gettimeofday_paths[] = {
	{ .name = "vdso",
	  .run = gtod_vdso,
	  .vdso_sym = "gettimeofday",
	  .setup = gtod_setup,
	  .detail = "direct call into the vDSO" },
	{ .name = "libc",
	  .run = gtod_libc,
	  .setup = gtod_setup,
	  .detail = "the C library's gettimeofday()" },
	{ .name = "syscall",
	  .run = gtod_syscall,
	  .setup = gtod_setup,
	  .detail = "syscall(SYS_gettimeofday)" },
	{ NULL },
};

const struct ukb_bench ukb_bench_time_gettimeofday = {
	.name = "time.gettimeofday",
	.summary = "gettimeofday(&tv, NULL)",
	.flags = UKB_DEFAULT,
	.paths = time_gettimeofday_paths,
};

static const struct ukb_path time_clock_gettime_paths[] = {
	{ .name = "vdso",
	  .run = cgt_vdso,
	  .vdso_sym = "clock_gettime",
	  .setup = clock_setup,
	  .detail = "direct call into the vDSO" },
	{ .name = "libc",
	  .run = cgt_libc,
	  .setup = clock_setup,
	  .detail = "the C library's clock_gettime()" },
	{ .name = "syscall",
	  .run = cgt_syscall,
	  .setup = clock_setup,
	  .detail = "syscall(SYS_clock_gettime)" },
	{ NULL },
};

const struct ukb_bench ukb_bench_time_clock_gettime = {
	.name = "time.clock_gettime",
	.summary = "clock_gettime(clock, &ts), one variant per clock",
	.flags = UKB_DEFAULT,
	.variants = clocks,
	.paths = time_clock_gettime_paths,
};

static const struct ukb_path time_time_paths[] = {
	{ .name = "vdso",
	  .run = time_vdso,
	  .vdso_sym = "time",
	  .setup = time_setup,
	  .detail = "direct call into the vDSO" },
	{ .name = "libc",
	  .run = time_libc,
	  .setup = time_setup,
	  .detail = "the C library's time()" },
	{ .name = "syscall",
	  .run = time_syscall,
	  .setup = time_setup,
	  .detail = "syscall(SYS_time)" },
	{ NULL },
};

static const struct ukb_path time_clock_gettime64_paths[] = {
	/* the same signature as clock_gettime, with a 64-bit timespec */
	{ .name = "vdso",
	  .run = cgt_vdso,
	  .vdso_sym = "clock_gettime64",
	  .setup = cgt64_setup,
	  .detail = "direct call into the vDSO (32-bit ABIs: i386, arm, powerpc)" },
	{ .name = "syscall",
	  .run = cgt64_syscall,
	  .setup = cgt64_setup,
	  .detail = "syscall(SYS_clock_gettime64)" },
	{ NULL },
};

/* Not in the default suite: it exists only on 32-bit ABIs (run --abi 32). */
const struct ukb_bench ukb_bench_time_clock_gettime64 = {
	.name = "time.clock_gettime64",
	.summary = "clock_gettime64(clock, &ts) of 32-bit ABIs, one variant per clock",
	.variants = clocks,
	.paths = time_clock_gettime64_paths,
};

const struct ukb_bench ukb_bench_time_time = {
	.name = "time.time",
	.summary = "time(NULL)",
	.flags = UKB_DEFAULT,
	.paths = time_time_paths,
};

static const struct ukb_path time_clock_getres_paths[] = {
	/* same signature as clock_gettime: the same loop serves */
	{ .name = "vdso",
	  .run = cgt_vdso,
	  .vdso_sym = "clock_getres",
	  .setup = clock_setup,
	  .detail = "direct call into the vDSO" },
	{ .name = "libc",
	  .run = cgr_libc,
	  .setup = clock_setup,
	  .detail = "the C library's clock_getres()" },
	{ .name = "syscall",
	  .run = cgr_syscall,
	  .setup = clock_setup,
	  .detail = "syscall(SYS_clock_getres)" },
	{ NULL },
};

const struct ukb_bench ukb_bench_time_clock_getres = {
	.name = "time.clock_getres",
	.summary = "clock_getres(clock, &ts), one variant per clock",
	.flags = UKB_DEFAULT,
	.variants = clocks,
	.paths = time_clock_getres_paths,
};
