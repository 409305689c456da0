// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timens.c - the vDSO's clocks and getrandom in a time namespace with
 * offsets. The process that calls unshare(CLONE_NEWTIME) stays in its
 * namespace; its next child is the first in the new one, so: fork a
 * child that unshares and writes the offsets, which forks the grandchild
 * that checks and writes its report into a pipe.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"
#include "timens.h"
#include "vdso-types.h"
#include "vgetrandom.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

static int64_t ns_of(const struct ukb_old_timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* One clock through the vDSO, between two system calls, with its offset seen. */
static void one_clock(ukb_vdso_clock_gettime_t fn, int clk, const char *name, int64_t host_ns,
		      int64_t offset_s, double seconds, const volatile sig_atomic_t *stop,
		      struct timens_item *it)
{
	uint64_t end = ukb_now_ns() + (uint64_t)(seconds * 1e9);
	struct ukb_old_timespec a, v, b;

	it->verdict = CHECK_OK;
	do {
		for (int k = 0; k < 64; k++, it->checks++) {
			/* a clock the system call refuses (a seccomp filter) has nothing
			 * to hold the vDSO's answer between: say so, read nothing */
			if (syscall(SYS_clock_gettime, clk, &a) || fn(clk, &v) ||
			    syscall(SYS_clock_gettime, clk, &b)) {
				it->verdict = CHECK_SKIPPED;
				snprintf(it->detail, sizeof(it->detail),
					 "%s: clock_gettime failed: %s", name, strerror(errno));
				return;
			}
			if (ns_of(&v) - host_ns < offset_s * 1000000000) {
				it->verdict = CHECK_FAILED;
				snprintf(
				    it->detail, sizeof(it->detail),
				    "%s lacks the namespace's offset of %lld s: %.3f s ahead of "
				    "the parent's",
				    name, (long long)offset_s, (double)(ns_of(&v) - host_ns) / 1e9);
				return;
			}
			if (ns_of(&v) < ns_of(&a) || ns_of(&b) < ns_of(&v)) {
				it->verdict = CHECK_FAILED;
				snprintf(it->detail, sizeof(it->detail),
					 "%s not between the system calls: %lld, vDSO %lld, %lld",
					 name, (long long)ns_of(&a), (long long)ns_of(&v),
					 (long long)ns_of(&b));
				return;
			}
		}
	} while (ukb_now_ns() < end && !(stop && *stop));
	snprintf(it->detail, sizeof(it->detail),
		 "offset of +%lld s included, %lu reads between system calls", (long long)offset_s,
		 it->checks);
}

#ifdef SYS_getrandom
/* The 32-bit half of a 64-bit argument that holds small values. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG_LO(n) (offsetof(struct seccomp_data, args) + 8 * (n))
#else
#define ARG_LO(n) (offsetof(struct seccomp_data, args) + 8 * (n) + 4)
#endif
#define ARG_HI(n) (ARG_LO(n) ^ 4)
#define KEY_BYTES 32

/*
 * From here on getrandom(2) fails with EHWPOISON, which nothing else
 * returns, but for getrandom(p, 32, 0): the vDSO fetches its state's new
 * key so after the kernel reseeds (every second or more often in a guest
 * just booted), by design. The checks never ask 32 bytes after this, so
 * that call is the key's and any other is a fall-back.
 */
static int trap_getrandom(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getrandom, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(1)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, KEY_BYTES, 0, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_HI(1)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(2)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EHWPOISON & SECCOMP_RET_DATA)),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) ? -errno : 0;
}
#endif

static void getrandom_in_ns(void *vgr, struct timens_item *it)
{
	/* never KEY_BYTES: a getrandom(2) of that length is the key's */
	static const size_t sizes[] = { 1, 16, 31, 64, 256, 4096 };
	unsigned char buf[4096];
	struct ukb_vgr_pool p;
	char why[160];
	void *st;

	it->verdict = -1;
	if (!vgr)
		return;
#ifndef SYS_getrandom
	it->verdict = CHECK_SKIPPED;
	snprintf(it->detail, sizeof(it->detail), "no getrandom system call here");
	return;
#else
	if (ukb_vgr_pool_init(&p, (ukb_vgetrandom_t)vgr, 1, why, sizeof(why))) {
		it->verdict = CHECK_FAILED;
		snprintf(it->detail, sizeof(it->detail), "%s", why);
		return;
	}
	st = ukb_vgr_state(&p);
	/*
	 * A fresh state (the pool's pages are wiped on fork) is seeded with a
	 * key from the system call, by design; from then on no call may need it.
	 */
	if (ukb_vgr_call(&p, st, buf, 32, 0) != 32) {
		it->verdict = CHECK_FAILED;
		snprintf(it->detail, sizeof(it->detail), "the first call did not return 32 bytes");
		ukb_vgr_pool_release(&p);
		return;
	}
	if (trap_getrandom()) {
		it->verdict = CHECK_SKIPPED;
		snprintf(it->detail, sizeof(it->detail), "cannot install a seccomp filter: %s",
			 strerror(errno));
		ukb_vgr_pool_release(&p);
		return;
	}
	it->verdict = CHECK_OK;
	for (int round = 0; round < 64; round++)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++, it->checks++) {
			ssize_t r = ukb_vgr_call(&p, st, buf, sizes[i], 0);

			/*
			 * A call that meets the kernel reseeding may fall back once;
			 * the fault this check finds falls back on every call, so it
			 * is asked again, twice, before it fails.
			 */
			for (int again = 0; again < 2 && r == -EHWPOISON; again++)
				r = ukb_vgr_call(&p, st, buf, sizes[i], 0);
			if (r != (ssize_t)sizes[i]) {
				it->verdict = CHECK_FAILED;
				snprintf(it->detail, sizeof(it->detail),
					 "%s (%zu bytes asked, %zd)",
					 r == -EHWPOISON ? "fell back to the getrandom system call"
							 : "did not return the length asked",
					 sizes[i], r);
				ukb_vgr_pool_release(&p);
				return;
			}
		}
	snprintf(it->detail, sizeof(it->detail),
		 "%lu calls of 1 to 4096 bytes after the first (which seeds the state), not one "
		 "falling back to the getrandom system call",
		 it->checks);
	ukb_vgr_pool_release(&p);
#endif
}

/* In the new namespace: the checks, the report into @fd. */
static void grandchild(int fd, void *cgt, void *vgr, double seconds,
		       const volatile sig_atomic_t *stop, int64_t host_mono, int64_t host_boot)
    __attribute__((noreturn));

static void grandchild(int fd, void *cgt, void *vgr, double seconds,
		       const volatile sig_atomic_t *stop, int64_t host_mono, int64_t host_boot)
{
	struct timens_report r;

	memset(&r, 0, sizeof(r));
	r.ran = 1;
	r.mono.verdict = r.boot.verdict = -1;
	if (cgt) {
		one_clock(cgt, CLOCK_MONOTONIC, "monotonic", host_mono, TIMENS_MONOTONIC_S,
			  seconds / 2, stop, &r.mono);
		one_clock(cgt, CLOCK_BOOTTIME, "boottime", host_boot, TIMENS_BOOTTIME_S,
			  seconds / 2, stop, &r.boot);
	}
	/* last: the seccomp filter stays with this process */
	getrandom_in_ns(vgr, &r.grnd);
	_exit(write(fd, &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 1);
}

/* "@what: strerror(@err)" as the reason nothing ran */
static void skip(int fd, const char *what, int err) __attribute__((noreturn));

static void skip(int fd, const char *what, int err)
{
	struct timens_report r;

	memset(&r, 0, sizeof(r));
	snprintf(r.why, sizeof(r.why), "%s: %s", what, strerror(err));
	_exit(write(fd, &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 1);
}

static void child(int fd, void *cgt, void *vgr, double seconds, const volatile sig_atomic_t *stop)
{
	char offsets[64];
	struct ukb_old_timespec m, b;
	int o, status;
	pid_t pid;

	if (unshare(CLONE_NEWTIME))
		skip(fd, "unshare(CLONE_NEWTIME)", errno);
	snprintf(offsets, sizeof(offsets), "%d %d 0\n%d %d 0\n", CLOCK_MONOTONIC,
		 TIMENS_MONOTONIC_S, CLOCK_BOOTTIME, TIMENS_BOOTTIME_S);
	o = open("/proc/self/timens_offsets", O_WRONLY | O_CLOEXEC);
	if (o < 0 || write(o, offsets, strlen(offsets)) != (ssize_t)strlen(offsets))
		skip(fd, "cannot set the offsets in /proc/self/timens_offsets", errno);
	close(o);
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &m);
	syscall(SYS_clock_gettime, CLOCK_BOOTTIME, &b);
	pid = fork();
	if (pid == 0)
		grandchild(fd, cgt, vgr, seconds, stop, ns_of(&m), ns_of(&b));
	if (pid < 0)
		skip(fd, "fork into the namespace", errno);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	_exit(0);
}

void timens_check(void *cgt, void *vgr, double seconds, const volatile sig_atomic_t *stop,
		  struct timens_report *r)
{
	int fds[2], status;
	pid_t pid;

	memset(r, 0, sizeof(r[0]));
	if (pipe(fds)) {
		snprintf(r->why, sizeof(r->why), "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], cgt, vgr, seconds, stop);
	}
	close(fds[1]);
	if (pid < 0) {
		snprintf(r->why, sizeof(r->why), "fork: %s", strerror(errno));
		close(fds[0]);
		return;
	}
	for (size_t got = 0; got < sizeof(*r);) {
		ssize_t n = read(fds[0], (char *)r + got, sizeof(*r) - got);

		if (n > 0) {
			got += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		memset(r, 0, sizeof(*r));
		snprintf(r->why, sizeof(r->why), "the namespace's process died before it reported");
		break;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}
