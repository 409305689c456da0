// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reseed.c - makes the kernel reseed its random number generator, as a
 * guest just booted does every second or so, for SECONDS (root only).
 *
 *   reseed SECONDS
 *
 * Each reseed changes the generation the vDSO's getrandom() sees, so its
 * next call fetches a new key through the system call. Exits 1 with why
 * where the ioctl is not permitted.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/random.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec now, end, pause = { 0, 200000 };
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: reseed SECONDS\n");
		return 2;
	}
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, RNDRESEEDCRNG) < 0) {
		fprintf(stderr, "reseed: %s\n", strerror(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += atoi(argv[1]);
	do {
		ioctl(fd, RNDRESEEDCRNG);
		nanosleep(&pause, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec ||
		 (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	return 0;
}
