// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * guest.c - ukbench-guest: the init of a guest `ukbench vm` boots.
 *
 * A static program with libc alone, the only file of its initramfs
 * besides the plan. As process 1 it mounts /proc, /sys and /dev, reads
 * /plan (its first line "run PORT" or "check PORT", then an argument a
 * line), runs it with its answer on PORT (raw; the second serial port,
 * /dev/ttyS1, on x86, a virtio console, /dev/hvc0, elsewhere): a run
 * is the run JSON of this boot, with the guest's environment; a check is
 * one line a check ("verdict kind func what: detail"). Modules in
 * /modules (00.ko, 01.ko, ...: a driver the kernel has as a module, such as
 * s390's virtio console) are loaded first, in order. Its messages go
 * to the console. Then it reboots, which ends QEMU (started with
 * -no-reboot): a kernel without ACPI cannot power off. Given arguments and not
 * process 1, it is the worker of run_procs(), for a test on the host.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "runner.h"

#define PLAN_MAX_ARGS 512

static void say(const char *what, int err)
{
	fprintf(stderr, "ukbench-guest: %s%s%s\n", what, err ? ": " : "", err ? strerror(err) : "");
}

/* The answer's port (/dev/ttyS1, /dev/hvc0), raw: no \r added, nothing echoed. */
static int answer_port(const char *port)
{
	struct termios t;
	int fd = open(port, O_WRONLY | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (!tcgetattr(fd, &t)) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	if (dup2(fd, STDOUT_FILENO) < 0)
		return -1;
	if (fd != STDOUT_FILENO)
		close(fd);
	return 0;
}

/*
 * /modules/00.ko, 01.ko, ... loaded in order; a module already in the
 * kernel is no error. Returns how many there were.
 */
static int load_modules(void)
{
	int i;

	for (i = 0; i < 100; i++) {
		char path[32], msg[64];
		int fd;

		snprintf(path, sizeof(path), "/modules/%02d.ko", i);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			break;
		if (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST) {
			int e = errno;

			snprintf(msg, sizeof(msg), "cannot load %s", path);
			say(msg, e);
		}
		close(fd);
	}
	return i;
}

/*
 * A port a module's driver makes appears once the device is probed: up to
 * 30 s, as an emulator on a loaded host may take (a port built in is there).
 */
static void wait_for(const char *port)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	for (int i = 0; i < 600 && access(port, W_OK); i++)
		nanosleep(&ts, NULL);
}

static int run_check(int argc, char **argv)
{
	struct check_opts o = { .duration_s = 0.2, .verify = 1, .abi = 1 };
	struct check_result *r;
	size_t n;

	for (int i = 0; i < argc; i++)
		if (!strncmp(argv[i], "duration=", 9))
			o.duration_s = strtod(argv[i] + 9, NULL);
	if (check_run(&o, &r, &n))
		return 1;
	for (size_t i = 0; i < n; i++)
		printf("%s %s %s %s: %s\n", check_verdict_name(r[i].verdict), r[i].kind, r[i].func,
		       r[i].what, r[i].detail);
	free(r);
	return 0;
}

int main(int argc, char **argv)
{
	static char text[1 << 16];
	char *args[PLAN_MAX_ARGS + 1], *mode, *port;
	int n = 0, rc;
	ssize_t len;
	int fd;

	if (getpid() != 1)
		return worker_run(argc - 1, argv + 1, 1);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	sethostname("ukbench-guest", 13);
	fd = open("/plan", O_RDONLY);
	len = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);
	if (len <= 0) {
		say("cannot read /plan", errno);
		rc = 2;
		goto off;
	}
	text[len] = 0;
	for (char *p = strtok(text, "\n"); p && n < PLAN_MAX_ARGS; p = strtok(NULL, "\n"))
		args[n++] = p;
	args[n] = NULL;
	/* the first line: "run PORT" or "check PORT" */
	mode = n ? strtok(args[0], " ") : NULL;
	port = mode ? strtok(NULL, " ") : NULL;
	port = port ? port : "/dev/ttyS1";
	if (load_modules())
		wait_for(port);
	if (answer_port(port)) {
		say("no port for the answer", errno);
		rc = 2;
		goto off;
	}
	if (mode && !strcmp(mode, "check"))
		rc = run_check(n - 1, args + 1);
	else if (mode && !strcmp(mode, "run"))
		rc = worker_run(n - 1, args + 1, 1);
	else {
		say("the plan names neither run nor check", 0);
		rc = 2;
	}
	fflush(stdout);
	tcdrain(STDOUT_FILENO);
off:
	fprintf(stderr, "ukbench-guest: exit %d\n", rc);
	sync();
	reboot(RB_AUTOBOOT);
	return rc;
}
