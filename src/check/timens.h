/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timens.h - the vDSO in a new time namespace (unshare(CLONE_NEWTIME)) with
 * clock offsets set: CLOCK_MONOTONIC and CLOCK_BOOTTIME read through the
 * vDSO must include the offsets and lie between two system calls, as in
 * the namespace the vDSO reads the namespace's data page; and getrandom's
 * vDSO path must not fall back to the system call there once its state is
 * seeded (the kernel's
 * selftest checks this with ptrace; here a seccomp filter makes the system
 * call fail with an errno nothing else returns, so a fallback shows).
 */
#ifndef UKB_CHECK_TIMENS_H
#define UKB_CHECK_TIMENS_H

#include <signal.h>

/* the offsets set in the namespace, in seconds */
#define TIMENS_MONOTONIC_S 86400
#define TIMENS_BOOTTIME_S  172800

struct timens_item {
	int verdict; /* enum check_verdict */
	char detail[200];
	unsigned long checks;
};

struct timens_report {
	int ran; /* 0: the namespace could not be made; why says why */
	char why[200];
	struct timens_item mono, boot, grnd; /* grnd.verdict -1: not checked */
};

/*
 * Runs the checks in a child in a new time namespace, for @seconds. @cgt
 * is the vDSO's clock_gettime (NULL: the clocks are not checked), @vgr its
 * getrandom (NULL: not checked). @stop ends them early.
 */
void timens_check(void *cgt, void *vgr, double seconds, const volatile sig_atomic_t *stop,
		  struct timens_report *r);

#endif
