// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seccomp-slow.c - runs a command with every system call made slower by
 * real kernel work, and nothing else changed.
 *
 *   seccomp-slow N -- COMMAND [ARGS...]
 *
 * N = 0 installs a seccomp filter that allows every system call by its
 * number alone: the kernel decides it once (its action cache), and each
 * system call of COMMAND and its children then pays only the seccomp check
 * on its way in, a fixed cost (on a 2-vCPU x86 guest, about 12% of a null
 * system call, 6% of a 10 KiB read of /dev/zero, under 1% of a 100 KiB
 * one). N > 0 installs N comparisons with the first argument ending in
 * "allow", which the kernel must run at every call: a larger cost that
 * grows with N. It plants a real change in the kernel path a patch author
 * measures (system-call entry), outside ukbench, for tests/validation/sensitivity.sh:
 * the vDSO paths and the reference loop make no system call and must not
 * move.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sock_filter *f;
	struct sock_fprog prog;
	char *end;
	long n;

	if (argc < 4 || strcmp(argv[2], "--")) {
		fprintf(stderr, "usage: seccomp-slow N -- COMMAND [ARGS...]\n");
		return 2;
	}
	errno = 0;
	n = strtol(argv[1], &end, 10);
	if (errno || *end || n < 0 || n > 4000) {
		fprintf(stderr, "seccomp-slow: '%s' is not a filter length (0 to 4000)\n", argv[1]);
		return 2;
	}
	f = calloc((size_t)n + 2, sizeof(*f));
	if (!f)
		return 1;
	/* the number alone (cached), or the first argument (run every time) */
	f[0] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					    n ? offsetof(struct seccomp_data, args)
					      : offsetof(struct seccomp_data, nr));
	/* comparisons with values no first argument takes: each falls through */
	for (long i = 1; i <= n; i++)
		f[i] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						    0x7fff0000u + (unsigned)i, 0, 0);
	f[n + 1] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)(n + 2);
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fprintf(stderr, "seccomp-slow: cannot install the filter: %s\n", strerror(errno));
		return 1;
	}
	execvp(argv[3], argv + 3);
	fprintf(stderr, "seccomp-slow: cannot run '%s': %s\n", argv[3], strerror(errno));
	return 127;
}
