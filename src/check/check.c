// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check.c - the vDSO against the system call: same answers, same failures.
 *
 * Results are written through the kernel's own types (two longs for a
 * timespec or timeval, as the vDSO and the raw system call fill them on
 * every architecture). The vDSO functions are those ukbench resolves
 * itself, so a test can put a wrong one in their place (ukb_vdso_override)
 * and see the check fail.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"
#include "timens.h"
#include "vdso-types.h"
#include "vdso.h"
#include "vgetrandom.h"

/* set by the caller's signal handler: the checks stop at the next look */
static const volatile sig_atomic_t *stop_flag;

static int stopping(void)
{
	return stop_flag && *stop_flag;
}

const char *const check_functions[] = {
	"clock_gettime", "gettimeofday", "time", "clock_getres", "getcpu", "getrandom", NULL,
};

static const struct {
	const char *name;
	int id;
} clocks[] = {
	{ "realtime", CLOCK_REALTIME },
	{ "monotonic", CLOCK_MONOTONIC },
	{ "monotonic_raw", CLOCK_MONOTONIC_RAW },
	{ "boottime", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
	{ "realtime_coarse", CLOCK_REALTIME_COARSE },
	{ "monotonic_coarse", CLOCK_MONOTONIC_COARSE },
};
#define NCLOCKS (sizeof(clocks) / sizeof(clocks[0]))

struct list {
	struct check_result *r;
	size_t n, cap;
	int oom;
};

static struct check_result *add(struct list *l, const char *kind, const char *func,
				const char *what, enum check_verdict v, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static struct check_result *add(struct list *l, const char *kind, const char *func,
				const char *what, enum check_verdict v, const char *fmt, ...)
{
	struct check_result *r;
	va_list ap;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;

		r = realloc(l->r, cap * sizeof(*r));
		if (!r) {
			l->oom = 1;
			return NULL;
		}
		l->r = r;
		l->cap = cap;
	}
	r = &l->r[l->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->kind, sizeof(r->kind), "%s", kind);
	snprintf(r->func, sizeof(r->func), "%s", func);
	snprintf(r->what, sizeof(r->what), "%s", what);
	r->verdict = v;
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
	return r;
}

static void set_checks(struct check_result *r, unsigned long n)
{
	if (r)
		r->checks = n;
}

const char *check_verdict_name(enum check_verdict v)
{
	switch (v) {
	case CHECK_OK:
		return "ok";
	case CHECK_FAILED:
		return "FAILED";
	case CHECK_SKIPPED:
		return "skipped";
	case CHECK_KNOWN:
		return "known";
	}
	return "?";
}

/* The vDSO's error: -errno on most architectures, +errno on powerpc. */
static int vdso_errno(long ret)
{
	return ret < 0 ? (int)-ret : (int)ret;
}

/*
 * A system call that a filter blocks (seccomp, an LSM) or this kernel lacks
 * cannot judge the vDSO: the check is skipped, as `run` skips the path.
 */
static int blocked(int err)
{
	return err == EPERM || err == EACCES || err == ENOSYS;
}

static int before(const struct ukb_old_timespec *a, const struct ukb_old_timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* ------------------------------------------------------------------ */
/* verify                                                              */

static void verify_clock_gettime(struct list *l, ukb_vdso_clock_gettime_t fn, double seconds)
{
	for (size_t c = 0; c < NCLOCKS && !stopping(); c++) {
		uint64_t end = ukb_now_ns() + (uint64_t)(seconds / NCLOCKS * 1e9);
		struct ukb_old_timespec a, v, b;
		unsigned long n = 0;
		int ret, failed = 0;

		if (syscall(SYS_clock_gettime, clocks[c].id, &a)) {
			add(l, "verify", "clock_gettime", clocks[c].name, CHECK_SKIPPED,
			    "the system call refuses this clock: %s", strerror(errno));
			continue;
		}
		while (!failed && ukb_now_ns() < end && !stopping()) {
			for (int k = 0; k < 64 && !failed; k++, n++) {
				syscall(SYS_clock_gettime, clocks[c].id, &a);
				ret = fn(clocks[c].id, &v);
				syscall(SYS_clock_gettime, clocks[c].id, &b);
				if (ret) {
					add(l, "verify", "clock_gettime", clocks[c].name,
					    CHECK_FAILED, "the vDSO returned %d (%s)", ret,
					    strerror(vdso_errno(ret)));
					failed = 1;
				} else if (v.tv_nsec < 0 || v.tv_nsec >= 1000000000L) {
					add(l, "verify", "clock_gettime", clocks[c].name,
					    CHECK_FAILED, "malformed: tv_nsec %ld", v.tv_nsec);
					failed = 1;
				} else if (before(&v, &a) || before(&b, &v)) {
					add(l, "verify", "clock_gettime", clocks[c].name,
					    CHECK_FAILED,
					    "not between the system calls: %ld.%09ld, vDSO "
					    "%ld.%09ld, %ld.%09ld",
					    a.tv_sec, a.tv_nsec, v.tv_sec, v.tv_nsec, b.tv_sec,
					    b.tv_nsec);
					failed = 1;
				}
			}
		}
		if (!failed)
			set_checks(add(l, "verify", "clock_gettime", clocks[c].name, CHECK_OK,
				       "%lu reads between two system calls", n),
				   n);
	}
}

static void verify_gettimeofday(struct list *l, ukb_vdso_gettimeofday_t fn, double seconds)
{
	uint64_t end = ukb_now_ns() + (uint64_t)(seconds * 1e9);
	struct ukb_old_timeval a, v, b;
	unsigned long n = 0;

#ifndef SYS_gettimeofday
	(void)fn;
	(void)end;
	add(l, "verify", "gettimeofday", "", CHECK_SKIPPED,
	    "no gettimeofday system call on this architecture");
	return;
#else
	if (syscall(SYS_gettimeofday, &a, NULL) && blocked(errno)) {
		add(l, "verify", "gettimeofday", "", CHECK_SKIPPED,
		    "blocked: the system call failed: %s", strerror(errno));
		return;
	}
	while (ukb_now_ns() < end && !stopping()) {
		for (int k = 0; k < 64; k++, n++) {
			int ret;

			syscall(SYS_gettimeofday, &a, NULL);
			ret = fn(&v, NULL);
			syscall(SYS_gettimeofday, &b, NULL);
			if (ret) {
				add(l, "verify", "gettimeofday", "", CHECK_FAILED,
				    "the vDSO returned %d", ret);
				return;
			}
			if (v.tv_usec < 0 || v.tv_usec >= 1000000L) {
				add(l, "verify", "gettimeofday", "", CHECK_FAILED,
				    "malformed: tv_usec %ld", v.tv_usec);
				return;
			}
			if (v.tv_sec < a.tv_sec ||
			    (v.tv_sec == a.tv_sec && v.tv_usec < a.tv_usec) ||
			    b.tv_sec < v.tv_sec ||
			    (b.tv_sec == v.tv_sec && b.tv_usec < v.tv_usec)) {
				add(l, "verify", "gettimeofday", "", CHECK_FAILED,
				    "not between the system calls: %ld.%06ld, vDSO %ld.%06ld, "
				    "%ld.%06ld",
				    a.tv_sec, a.tv_usec, v.tv_sec, v.tv_usec, b.tv_sec, b.tv_usec);
				return;
			}
		}
	}
	set_checks(
	    add(l, "verify", "gettimeofday", "", CHECK_OK, "%lu reads between two system calls", n),
	    n);
#endif
}

static long sys_time(void)
{
#ifdef SYS_time
	return syscall(SYS_time, NULL);
#else
	struct ukb_old_timespec t;

	syscall(SYS_clock_gettime, CLOCK_REALTIME, &t);
	return t.tv_sec;
#endif
}

/*
 * At a second boundary the two views of the seconds do not turn at the
 * same instant (the vDSO's data and the timekeeper are updated one after
 * the other), so one may read the new second a few microseconds before the
 * other. Such a read passes when the other side turns to the same second
 * within 10 ms; a vDSO that is really a second off never does.
 */
static int boundary_race(ukb_vdso_time_t fn, long a, long v, long b)
{
	uint64_t end = ukb_now_ns() + 10000000;

	while (ukb_now_ns() < end && !stopping()) {
		if (v == b + 1 && sys_time() == v)
			return 1;
		if (v == a - 1 && fn(NULL) == a)
			return 1;
	}
	return 0;
}

static void verify_time(struct list *l, ukb_vdso_time_t fn, double seconds)
{
	uint64_t end = ukb_now_ns() + (uint64_t)(seconds * 1e9);
	unsigned long n = 0, races = 0;

	errno = 0;
	if (sys_time() == -1 && blocked(errno)) {
		add(l, "verify", "time", "", CHECK_SKIPPED, "blocked: the system call failed: %s",
		    strerror(errno));
		return;
	}
	while (ukb_now_ns() < end && !stopping()) {
		for (int k = 0; k < 64; k++, n++) {
			long a = sys_time(), v = fn(NULL), b = sys_time();

			if (v >= a && v <= b)
				continue;
			if (boundary_race(fn, a, v, b)) {
				races++;
				continue;
			}
			add(l, "verify", "time", "", CHECK_FAILED,
			    "not within the same second: system call %ld, vDSO %ld, system call "
			    "%ld",
			    a, v, b);
			return;
		}
	}
	set_checks(add(l, "verify", "time", "", CHECK_OK,
		       "%lu reads within the system calls' seconds (%lu at a second boundary)", n,
		       races),
		   n);
}

static void verify_clock_getres(struct list *l, ukb_vdso_clock_getres_t fn)
{
	for (size_t c = 0; c < NCLOCKS; c++) {
		struct ukb_old_timespec s = { -1, -1 }, v = { -2, -2 };
		long sr = syscall(SYS_clock_getres, clocks[c].id, &s);
		int se = sr ? errno : 0, vr = fn(clocks[c].id, &v);

		if (se && blocked(se) && !vr)
			add(l, "verify", "clock_getres", clocks[c].name, CHECK_SKIPPED,
			    "blocked: the system call failed: %s", strerror(se));
		else if (se != vdso_errno(vr))
			add(l, "verify", "clock_getres", clocks[c].name, CHECK_FAILED,
			    "system call %s, vDSO %s", se ? strerror(se) : "ok",
			    vr ? strerror(vdso_errno(vr)) : "ok");
		else if (!se && (s.tv_sec != v.tv_sec || s.tv_nsec != v.tv_nsec))
			add(l, "verify", "clock_getres", clocks[c].name, CHECK_FAILED,
			    "system call %ld.%09ld, vDSO %ld.%09ld", s.tv_sec, s.tv_nsec, v.tv_sec,
			    v.tv_nsec);
		else
			set_checks(add(l, "verify", "clock_getres", clocks[c].name, CHECK_OK,
				       se ? "both refuse it: %s" : "%s",
				       se ? strerror(se) : "equal"),
				   1);
	}
}

static void verify_getcpu(struct list *l, ukb_vdso_getcpu_t fn)
{
	cpu_set_t saved, one;
	unsigned long n = 0;

	if (sched_getaffinity(0, sizeof(saved), &saved)) {
		add(l, "verify", "getcpu", "", CHECK_SKIPPED, "cannot read the affinity: %s",
		    strerror(errno));
		return;
	}
	{
		unsigned c, nd;

		if (syscall(SYS_getcpu, &c, &nd, NULL) && blocked(errno)) {
			add(l, "verify", "getcpu", "", CHECK_SKIPPED,
			    "blocked: the system call failed: %s", strerror(errno));
			return;
		}
	}
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		unsigned vc = ~0u, vn = ~0u, sc = ~1u, sn = ~1u;

		if (!CPU_ISSET(cpu, &saved))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		fn(&vc, &vn, NULL);
		syscall(SYS_getcpu, &sc, &sn, NULL);
		n++;
		if (vc != sc || vn != sn || vc != (unsigned)cpu) {
			sched_setaffinity(0, sizeof(saved), &saved);
			add(l, "verify", "getcpu", "", CHECK_FAILED,
			    "pinned to CPU %d: vDSO says CPU %u node %u, system call CPU %u node "
			    "%u",
			    cpu, vc, vn, sc, sn);
			return;
		}
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	set_checks(add(l, "verify", "getcpu", "", CHECK_OK, "agrees on each of %lu CPUs", n), n);
}

static void verify_getrandom(struct list *l, ukb_vgetrandom_t fn)
{
	unsigned char a[32], b[32], child[32];
	struct ukb_vgr_pool p;
	char why[256];
	int fds[2], status;
	void *st;
	pid_t pid;

	if (ukb_vgr_pool_init(&p, fn, 1, why, sizeof(why))) {
		add(l, "verify", "getrandom", "", CHECK_FAILED, "%s", why);
		return;
	}
	st = ukb_vgr_state(&p);
	if (ukb_vgr_call(&p, st, a, sizeof(a), 0) != (ssize_t)sizeof(a) ||
	    ukb_vgr_call(&p, st, b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		add(l, "verify", "getrandom", "length", CHECK_FAILED, "did not return 32 bytes");
		goto out;
	}
	add(l, "verify", "getrandom", "length", CHECK_OK, "returns the length asked");
	if (!memcmp(a, b, sizeof(a)))
		add(l, "verify", "getrandom", "calls differ", CHECK_FAILED,
		    "two calls returned the same 32 bytes");
	else
		add(l, "verify", "getrandom", "calls differ", CHECK_OK, "two calls differ");
	if (pipe(fds))
		goto out;
	pid = fork();
	if (pid == 0) {
		if (ukb_vgr_call(&p, st, child, sizeof(child), 0) != (ssize_t)sizeof(child) ||
		    write(fds[1], child, sizeof(child)) != (ssize_t)sizeof(child))
			_exit(1);
		_exit(0);
	}
	ukb_vgr_call(&p, st, a, sizeof(a), 0);
	if (pid > 0 && read(fds[0], child, sizeof(child)) == (ssize_t)sizeof(child))
		add(l, "verify", "getrandom", "after fork",
		    memcmp(a, child, sizeof(a)) ? CHECK_OK : CHECK_FAILED, "%s",
		    memcmp(a, child, sizeof(a)) ? "parent and child differ"
						: "parent and child drew the same bytes");
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	close(fds[0]);
	close(fds[1]);
out:
	ukb_vgr_pool_release(&p);
}

/* ------------------------------------------------------------------ */
/* abi                                                                 */

struct outcome {
	int signal; /* the child died of it; 0 when it returned */
	int err;    /* errno (positive), 0 for success */
	int nout;   /* bytes of out[] the call wrote (tz, cpu and node) */
	unsigned char out[16];
};

enum op { OP_VDSO, OP_SYSCALL };

struct abi_case {
	const char *func;
	void *fn;
	int clk;
	void *ptr;
	/*
	 * gettimeofday: @p2 is tz. getcpu: @ptr is cpu, @p2 node, @p3 tcache.
	 * CASE_OUT in one of them: a buffer of the child's whose bytes after
	 * the call are compared between the vDSO and the system call.
	 */
	void *p2, *p3;
};

/* stands for a valid pointer whose contents are compared after the call */
static char case_out_marker;
#define CASE_OUT ((void *)&case_out_marker)

/* The lowest CPU this process may run on, so both children run on it. */
static void pin_lowest(void)
{
	cpu_set_t s, one;

	if (sched_getaffinity(0, sizeof(s), &s))
		return;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &s)) {
			CPU_ZERO(&one);
			CPU_SET(c, &one);
			sched_setaffinity(0, sizeof(one), &one);
			return;
		}
}

/* Runs one call in a child: a crash is a result, not the end of the run. */
static struct outcome in_child(const struct abi_case *c, enum op op)
{
	struct outcome o = { .signal = 0 };
	int fds[2], status, err = 0;
	pid_t pid;

	if (pipe(fds))
		return (struct outcome){ .err = errno };
	pid = fork();
	if (pid == 0) {
		struct {
			int err;
			unsigned char out[16];
		} msg;
		unsigned cpu = ~0u, node = ~0u;
		struct ukb_old_timeval tv;
		/* tz_minuteswest, tz_dsttime */
		int tz[2] = { -12345, -12345 };
		void *a1 = c->ptr == CASE_OUT ? (void *)&cpu : c->ptr;
		void *a2 = c->p2 == CASE_OUT
			       ? (!strcmp(c->func, "getcpu") ? (void *)&node : (void *)tz)
			       : c->p2;
		void *a3 = c->p3 == CASE_OUT ? (void *)msg.out : c->p3;
		long r = 0;

		/* die of the fault, whatever handler the parent had (tests, sanitizers) */
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		close(fds[0]);
		memset(&msg, 0, sizeof(msg));
		if (!strcmp(c->func, "getcpu"))
			pin_lowest();
		if (!strcmp(c->func, "gettimeofday") && c->ptr == CASE_OUT)
			a1 = &tv;
		if (!strcmp(c->func, "clock_gettime"))
			r = op == OP_VDSO
				? ((ukb_vdso_clock_gettime_t)c->fn)(c->clk, c->ptr)
				: (syscall(SYS_clock_gettime, c->clk, c->ptr) ? -errno : 0);
		else if (!strcmp(c->func, "clock_getres"))
			r = op == OP_VDSO
				? ((ukb_vdso_clock_getres_t)c->fn)(c->clk, c->ptr)
				: (syscall(SYS_clock_getres, c->clk, c->ptr) ? -errno : 0);
#ifdef SYS_gettimeofday
		else if (!strcmp(c->func, "gettimeofday"))
			r = op == OP_VDSO ? ((ukb_vdso_gettimeofday_t)c->fn)(a1, a2)
					  : (syscall(SYS_gettimeofday, a1, a2) ? -errno : 0);
#endif
		else if (!strcmp(c->func, "getcpu"))
			r = op == OP_VDSO ? ((ukb_vdso_getcpu_t)c->fn)(a1, a2, a3)
					  : (syscall(SYS_getcpu, a1, a2, a3) ? -errno : 0);
#ifdef SYS_time
		else if (!strcmp(c->func, "time"))
			r = op == OP_VDSO ? (((ukb_vdso_time_t)c->fn)(c->ptr) < 0 ? -EFAULT : 0)
					  : (syscall(SYS_time, c->ptr) < 0 ? -errno : 0);
#endif
		msg.err = vdso_errno(r);
		/* what the call wrote through the compared pointers */
		if (!strcmp(c->func, "getcpu")) {
			memcpy(msg.out, &cpu, sizeof(cpu));
			memcpy(msg.out + 4, &node, sizeof(node));
		} else if (!strcmp(c->func, "gettimeofday")) {
			memcpy(msg.out, tz, sizeof(tz));
		}
		if (write(fds[1], &msg, sizeof(msg)) < 0)
			_exit(2);
		_exit(0);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return (struct outcome){ .err = errno };
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		o.signal = WTERMSIG(status);
	} else {
		struct {
			int err;
			unsigned char out[16];
		} msg;

		if (read(fds[0], &msg, sizeof(msg)) == (ssize_t)sizeof(msg)) {
			o.err = msg.err;
			memcpy(o.out, msg.out, sizeof(o.out));
			o.nout = (int)sizeof(o.out);
		}
	}
	(void)err;
	close(fds[0]);
	return o;
}

static void describe(char *buf, size_t len, struct outcome o)
{
	if (o.signal)
		snprintf(buf, len, "killed by %s", strsignal(o.signal));
	else
		snprintf(buf, len, "%s", o.err ? strerror(o.err) : "success");
}

static void abi_one(struct list *l, const struct abi_case *c, const char *what)
{
	struct outcome v = in_child(c, OP_VDSO), s = in_child(c, OP_SYSCALL);
	char dv[64], ds[64];

	describe(dv, sizeof(dv), v);
	describe(ds, sizeof(ds), s);
	if (!v.signal && !s.signal && v.err == s.err && v.nout && s.nout &&
	    memcmp(v.out, s.out, sizeof(v.out))) {
		const unsigned *a = (const unsigned *)(const void *)v.out,
			       *b = (const unsigned *)(const void *)s.out;

		add(l, "abi", c->func, what, CHECK_FAILED,
		    "both %s, but the vDSO wrote %d %d where the system call wrote %d %d", dv,
		    (int)a[0], (int)a[1], (int)b[0], (int)b[1]);
	} else if (!v.signal && !s.signal && v.err == s.err && v.nout &&
		   (c->ptr == CASE_OUT || c->p2 == CASE_OUT)) {
		const unsigned *a = (const unsigned *)(const void *)v.out;

		set_checks(add(l, "abi", c->func, what, CHECK_OK,
			       "vDSO %s, system call %s, both wrote %d %d", dv, ds, (int)a[0],
			       (int)a[1]),
			   1);
	} else if (!v.signal && !s.signal && v.err == s.err)
		set_checks(
		    add(l, "abi", c->func, what, CHECK_OK, "vDSO %s, system call %s", dv, ds), 1);
	else if ((v.signal == SIGSEGV || v.signal == SIGBUS) && s.err == EFAULT)
		add(l, "abi", c->func, what, CHECK_KNOWN,
		    "vDSO %s, system call %s: the vDSO cannot check user pointers", dv, ds);
	else
		add(l, "abi", c->func, what, CHECK_FAILED, "vDSO %s, system call %s", dv, ds);
}

static void abi_checks(struct list *l, const char *func, void *fn)
{
	long page = sysconf(_SC_PAGESIZE);
	char *ro = mmap(NULL, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *none = mmap(NULL, (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *gone = mmap(NULL, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct {
		const char *what;
		void *ptr;
	} ptrs[] = {
		{ "NULL pointer", NULL },
		{ "unmapped pointer", gone },
		{ "read-only page", ro },
		{ "PROT_NONE page", none },
	};
	static const struct {
		const char *what;
		int id;
	} bad_ids[] = {
		{ "clock id -1", -1 },
		{ "clock id INT_MIN", INT_MIN },
		{ "clock id INT_MAX", INT_MAX },
		{ "clock id 10 (removed)", 10 },
		{ "clock id 16 (CLOCK_AUX)", 16 },
		{ "clock id 64", 64 },
	};
	struct ukb_old_timespec ts[4];

	if (gone != MAP_FAILED)
		munmap(gone, (size_t)page);
	for (size_t i = 0; i < sizeof(ptrs) / sizeof(ptrs[0]) && !stopping(); i++) {
		struct abi_case c = {
			.func = func, .fn = fn, .clk = CLOCK_MONOTONIC, .ptr = ptrs[i].ptr
		};

		if (ptrs[i].ptr == MAP_FAILED)
			continue;
		abi_one(l, &c, ptrs[i].what);
	}
	/* gettimeofday's timezone: filled alike, or absent, or a bad pointer */
	if (!strcmp(func, "gettimeofday")) {
		void *tzs[] = { CASE_OUT, NULL, gone };
		const char *names[] = { "tz valid", "tz NULL", "tz unmapped" };

		for (size_t i = 0; i < 3 && !stopping(); i++) {
			struct abi_case c = { func, fn, 0, CASE_OUT, tzs[i], NULL };

			if (tzs[i] != MAP_FAILED)
				abi_one(l, &c, names[i]);
		}
	}
	/* getcpu's cpu, node and tcache pointers, each given or NULL: the same CPU and node */
	if (!strcmp(func, "getcpu"))
		for (int m = 0; m < 8 && !stopping(); m++) {
			struct abi_case c = { func,
					      fn,
					      0,
					      m & 4 ? CASE_OUT : NULL,
					      m & 2 ? CASE_OUT : NULL,
					      m & 1 ? CASE_OUT : NULL };
			char what[64];

			snprintf(what, sizeof(what), "cpu %s, node %s, tcache %s",
				 m & 4 ? "ptr" : "NULL", m & 2 ? "ptr" : "NULL",
				 m & 1 ? "ptr" : "NULL");
			abi_one(l, &c, what);
		}
	if (!strcmp(func, "clock_gettime") || !strcmp(func, "clock_getres"))
		for (size_t i = 0; i < sizeof(bad_ids) / sizeof(bad_ids[0]) && !stopping(); i++) {
			struct abi_case c = {
				.func = func, .fn = fn, .clk = bad_ids[i].id, .ptr = ts
			};

			abi_one(l, &c, bad_ids[i].what);
		}
	if (ro != MAP_FAILED)
		munmap(ro, (size_t)page);
	if (none != MAP_FAILED)
		munmap(none, (size_t)page);
}

/* ------------------------------------------------------------------ */

static int wanted(const struct check_opts *o, const char *func)
{
	if (!o->funcs)
		return 1;
	for (const char *const *f = o->funcs; *f; f++)
		if (!strcmp(*f, func))
			return 1;
	return 0;
}

static void timens_item(struct list *l, const char *func, const char *what,
			const struct timens_item *it)
{
	if (it->verdict >= 0)
		set_checks(
		    add(l, "verify", func, what, (enum check_verdict)it->verdict, "%s", it->detail),
		    it->checks);
}

/* clock_gettime and getrandom in a new time namespace with offsets */
static void verify_timens(struct list *l, const struct check_opts *o)
{
	char why[256];
	void *cgt =
	    wanted(o, "clock_gettime") ? ukb_vdso_func("clock_gettime", why, sizeof(why)) : NULL;
	void *vgr = wanted(o, "getrandom") ? ukb_vdso_func("getrandom", why, sizeof(why)) : NULL;
	struct timens_report r;

	if (!cgt && !vgr)
		return;
	timens_check(cgt, vgr, o->duration_s, stop_flag, &r);
	if (!r.ran) {
		if (cgt)
			add(l, "verify", "clock_gettime", "time namespace", CHECK_SKIPPED, "%s",
			    r.why);
		if (vgr)
			add(l, "verify", "getrandom", "time namespace", CHECK_SKIPPED, "%s", r.why);
		return;
	}
	timens_item(l, "clock_gettime", "monotonic, time namespace", &r.mono);
	timens_item(l, "clock_gettime", "boottime, time namespace", &r.boot);
	timens_item(l, "getrandom", "time namespace", &r.grnd);
}

int check_run(const struct check_opts *o, struct check_result **out, size_t *n)
{
	struct list l = { 0 };

	stop_flag = o->stop;
	for (const char *const *f = check_functions; *f && !stopping(); f++) {
		char why[256];
		void *fn;

		if (!wanted(o, *f))
			continue;
		fn = ukb_vdso_func(*f, why, sizeof(why));
		if (!fn) {
			add(&l, "verify", *f, "", CHECK_SKIPPED, "%s", why);
			continue;
		}
		if (o->verify) {
			double secs = o->duration_s;

			if (!strcmp(*f, "clock_gettime"))
				verify_clock_gettime(&l, fn, secs);
			else if (!strcmp(*f, "gettimeofday"))
				verify_gettimeofday(&l, fn, secs);
			else if (!strcmp(*f, "time"))
				verify_time(&l, fn, secs);
			else if (!strcmp(*f, "clock_getres"))
				verify_clock_getres(&l, fn);
			else if (!strcmp(*f, "getcpu"))
				verify_getcpu(&l, fn);
			else if (!strcmp(*f, "getrandom"))
				verify_getrandom(&l, fn);
		}
		if (o->abi && strcmp(*f, "getrandom"))
			abi_checks(&l, *f, fn);
	}
	if (o->verify && !stopping())
		verify_timens(&l, o);
	*out = l.r;
	*n = l.n;
	return l.oom ? -ENOMEM : 0;
}
