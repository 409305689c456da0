// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seccomp-exec.c - runs a command with some system calls made to fail.
 *
 *   seccomp-exec ERRNO SYSCALL[,SYSCALL...] -- COMMAND [ARGS...]
 *
 * Installs a seccomp filter that answers the named system calls with
 * -ERRNO (EPERM, ENOSYS, ...) and executes COMMAND under it, as a
 * container runtime or a sandbox would. The name "mprotect-exec" fails
 * only an mprotect() that asks for PROT_EXEC, as a policy against code
 * made at run time does (the loader's own mappings are made by mmap). The tests use it to show that
 * a blocked path is reported as blocked, with its errno, not as a fast one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <endian.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct {
	const char *name;
	long nr;
} calls[] = {
	{ "clock_gettime", SYS_clock_gettime },
	{ "clock_getres", SYS_clock_getres },
#ifdef SYS_gettimeofday
	{ "gettimeofday", SYS_gettimeofday },
#endif
#ifdef SYS_time
	{ "time", SYS_time },
#endif
	{ "getcpu", SYS_getcpu },
	{ "getppid", SYS_getppid },
	{ "getrandom", SYS_getrandom },
	{ "perf_event_open", SYS_perf_event_open },
};

int main(int argc, char **argv)
{
	struct sock_filter f[64];
	struct sock_fprog prog;
	unsigned n = 0, err;
	char *list, *name;
	int exec_mem = 0;

	if (argc < 5 || strcmp(argv[3], "--")) {
		fprintf(stderr, "usage: seccomp-exec ERRNO SYSCALL[,...] -- COMMAND [ARGS...]\n");
		return 2;
	}
	err = !strcmp(argv[1], "EPERM")	   ? EPERM
	      : !strcmp(argv[1], "ENOSYS") ? ENOSYS
					   : (unsigned)atoi(argv[1]);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	list = strdup(argv[2]);
	for (name = strtok(list, ","); name && n < 60; name = strtok(NULL, ",")) {
		size_t i;

		if (!strcmp(name, "mprotect-exec")) {
			exec_mem = 1;
			continue;
		}
		for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
			if (!strcmp(calls[i].name, name))
				break;
		if (i == sizeof(calls) / sizeof(calls[0])) {
			fprintf(stderr, "seccomp-exec: unknown system call '%s'\n", name);
			return 2;
		}
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      (unsigned)calls[i].nr, 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						      SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA));
	}
	if (exec_mem) {
		/* mprotect(addr, len, prot & PROT_EXEC): the low word of prot */
		f[n++] =
		    (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mprotect, 0, 3);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						      offsetof(struct seccomp_data, args[2]) +
							  (__BYTE_ORDER == __BIG_ENDIAN ? 4 : 0));
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						      SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA));
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("seccomp-exec: cannot install the filter");
		return 1;
	}
	execvp(argv[4], argv + 4);
	perror("seccomp-exec: cannot execute");
	return 127;
}
