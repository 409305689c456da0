/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h - does the vDSO give the same answers as the system call, and
 * fail the same way?
 *
 * verify: the vDSO's result must lie between two system-call results read
 * around it (no tolerance, equality allowed), be well formed, and never go
 * backwards; clock_getres equal; time within the same second boundary;
 * getcpu equal on every allowed CPU; getrandom the length asked, changing,
 * and different in parent and child after fork().
 * abi: bad output pointers and invalid clock ids, each case in a child
 * process of its own so that a crash is a result: the vDSO's return value
 * and errno against the system call's. A vDSO that dies with SIGSEGV on a
 * bad pointer where the system call returns EFAULT is reported as the
 * known behaviour (it cannot check user pointers), neither pass nor fail.
 */
#ifndef UKB_CHECK_CHECK_H
#define UKB_CHECK_CHECK_H

#include <signal.h>
#include <stddef.h>

enum check_verdict { CHECK_OK, CHECK_FAILED, CHECK_SKIPPED, CHECK_KNOWN };

struct check_result {
	char kind[8];  /* "verify" or "abi" */
	char func[32]; /* "clock_gettime" */
	char what[64]; /* "monotonic", "NULL pointer", "clock id -1" */
	enum check_verdict verdict;
	char detail[256]; /* the values, or why */
	unsigned long checks;
};

struct check_opts {
	double duration_s;	  /* verify: per function */
	const char *const *funcs; /* NULL: all; else a NULL-ended list of names */
	int verify, abi;
	/*
	 * Non-zero stops the checks at the next look (a signal handler sets
	 * it); what ran is returned. The children a check forks inherit the
	 * caller's handlers, so a signal to the process group lets them
	 * finish their one call and be reaped.
	 */
	const volatile sig_atomic_t *stop;
};

/* The functions check knows, NULL-ended. */
extern const char *const check_functions[];

/*
 * Runs the checks. The caller frees *@out. Returns 0, or -ENOMEM.
 */
int check_run(const struct check_opts *o, struct check_result **out, size_t *n);

const char *check_verdict_name(enum check_verdict v);

#endif
