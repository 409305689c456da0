// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plain-loop.c - the loop a developer writes, for contrast.
 *
 *   plain-loop clock_gettime|syscall|read:SIZE [CALLS]
 *
 * Times CALLS calls (default 10,000,000) of clock_gettime(CLOCK_MONOTONIC)
 * through the C library (the vDSO), of the null system call getppid(), or
 * of read() of SIZE bytes of /dev/zero,
 * with the clock read once before and once after the whole loop, as tb.c
 * and a hundred mailing-list loops do, and prints ns per call. Every
 * moment the thread was not running counts, as it does for them.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long calls = argc > 2 ? atol(argv[2]) : 10000000L, size = 0;
	struct timespec ts;
	double t0, t1;
	char *buf = NULL;
	int fd = -1;

	if (argc >= 2 && !strncmp(argv[1], "read:", 5)) {
		size = atol(argv[1] + 5);
		buf = malloc(size > 0 ? (size_t)size : 1);
		fd = open("/dev/zero", O_RDONLY);
		if (size <= 0 || !buf || fd < 0) {
			fprintf(stderr, "plain-loop: cannot read '%s' of /dev/zero\n", argv[1] + 5);
			return 1;
		}
	} else if (argc < 2 || (strcmp(argv[1], "clock_gettime") && strcmp(argv[1], "syscall"))) {
		fprintf(stderr, "usage: plain-loop clock_gettime|syscall|read:SIZE [CALLS]\n");
		return 2;
	}
	if (calls <= 0)
		return 2;
	t0 = now();
	if (fd >= 0) {
		for (long i = 0; i < calls; i++)
			if (read(fd, buf, (size_t)size) != size)
				return 1;
	} else if (!strcmp(argv[1], "syscall")) {
		for (long i = 0; i < calls; i++)
			syscall(SYS_getppid);
	} else {
		for (long i = 0; i < calls; i++)
			clock_gettime(CLOCK_MONOTONIC, &ts);
	}
	t1 = now();
	printf("%.3f\n", (t1 - t0) / (double)calls);
	return 0;
}
