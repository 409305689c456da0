// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm.c - one boot of a kernel under QEMU (see vm.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vm.h"

#define ANSWER_MAX (256u << 20)

const char *vm_status_text(enum vm_status s)
{
	switch (s) {
	case VM_OK:
		return "answered";
	case VM_NO_ANSWER:
		return "powered off without an answer";
	case VM_PANIC:
		return "the kernel panicked";
	case VM_SILENT:
		return "the kernel printed nothing";
	case VM_TIMEOUT:
		return "the boot ran out of time";
	case VM_QEMU:
		return "QEMU failed";
	case VM_STOPPED:
		return "stopped";
	}
	return "?";
}

/* @n bytes of @fd at @off into @buf: 0, or -1 when there are fewer. */
static int read_at(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off) == (ssize_t)n ? 0 : -1;
}

const char *vm_image_machine(const char *path)
{
	unsigned char h[0x210];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	const char *m = NULL;

	if (fd < 0)
		return NULL;
	if (read_at(fd, h, 0x40, 0))
		goto out;
	if (!memcmp(h, "\177ELF", 4)) {
		/* a vmlinux: powerpc's pseries and s390's machines boot one */
		int le = h[5] == 1;
		unsigned em = le ? h[18] | (unsigned)h[19] << 8 : h[19] | (unsigned)h[18] << 8;

		if (em == 21)
			m = le ? "ppc64le" : "ppc64";
		else if (em == 22)
			m = "s390x";
	} else if (!memcmp(h + 0x38, "ARMd", 4)) {
		m = "aarch64";
	} else if (!read_at(fd, h, 0x206, 0) && !memcmp(h + 0x202, "HdrS", 4)) {
		m = "x86_64";
	} else if (!read_at(fd, h, 6, 0x10008) && !memcmp(h, "S390EP", 6)) {
		/* s390's image: its IPL parameters' mark */
		m = "s390x";
	}
out:
	close(fd);
	return m;
}

const char *vm_module_machine(const unsigned char *h, size_t n)
{
	int le;
	unsigned type, em;

	if (n < 20 || memcmp(h, "\177ELF", 4) || (h[5] != 1 && h[5] != 2))
		return NULL;
	le = h[5] == 1;
	type = le ? h[16] | (unsigned)h[17] << 8 : h[17] | (unsigned)h[16] << 8;
	em = le ? h[18] | (unsigned)h[19] << 8 : h[19] | (unsigned)h[18] << 8;
	/* a module is relocatable (ET_REL), of a 64-bit class */
	if (type != 1 || h[4] != 2)
		return NULL;
	switch (em) {
	case 62:
		return "x86_64";
	case 183:
		return "aarch64";
	case 21:
		return le ? "ppc64le" : "ppc64";
	case 22:
		return "s390x";
	}
	return NULL;
}

const char *vm_kvm_cpu_next(const char *machine, const char *cpu, const char *console)
{
	if (strcmp(machine, "x86_64") || (cpu && strcmp(cpu, "host")))
		return NULL;
	return strstr(console, "failed to set MSR 0x10a") ? "host,-arch-capabilities" : NULL;
}

/*
 * What booting each machine takes, one row a machine (vm_image_machine()'s
 * names): its emulator and Debian's package of it, its board, whether the
 * emulator is given -cpu max (pseries and s390 emulate their newest CPU by
 * default), the kernel's console, the guest's answer's port and the
 * virtio-serial bus behind it (NULL: a second -serial, a 16550 UART on x86,
 * a VTY on pseries), what the command line gets under the emulator, and
 * what a kernel lacks that prints nothing or gives the guest no port.
 */
struct machine {
	const char *name, *qemu, *package, *board;
	int tcg_cpu_max;
	const char *console, *port, *virtio_serial, *tcg_append;
	const char *no_console, *no_port;
};

static const struct machine machines[] = {
	{ "x86_64", "qemu-system-x86_64", "qemu-system-x86", NULL, 1, "ttyS0", "/dev/ttyS1", NULL,
	  /*
	   * Under the emulator x86's TSC is the host's, taken as reliable: the
	   * kernel's watchdog checks it against emulated timers, which a loaded
	   * host delays, and a TSC given up leaves the vDSO no clock to read
	   */
	  " tsc=reliable",
	  "a serial console: CONFIG_SERIAL_8250, CONFIG_SERIAL_8250_CONSOLE and CONFIG_PRINTK (its "
	  "console is ttyS0)",
	  "a second serial port: CONFIG_SERIAL_8250 with two UARTs or more (the answer comes on "
	  "ttyS1)" },
	{ "aarch64", "qemu-system-aarch64", "qemu-system-arm", "virt", 1, "ttyAMA0", "/dev/hvc0",
	  "virtio-serial-pci", "",
	  "a serial console: CONFIG_SERIAL_AMBA_PL011_CONSOLE and CONFIG_PRINTK (its console is "
	  "ttyAMA0)",
	  "a virtio console: CONFIG_VIRTIO_PCI and CONFIG_VIRTIO_CONSOLE=y (the answer comes on "
	  "hvc0)" },
	{ "ppc64le", "qemu-system-ppc64", "qemu-system-ppc", "pseries", 0, "hvc0", "/dev/hvc1",
	  NULL, "", "a console: CONFIG_HVC_CONSOLE and CONFIG_PRINTK (its console is hvc0)",
	  "a second console: CONFIG_HVC_CONSOLE (the answer comes on hvc1)" },
	{ "ppc64", "qemu-system-ppc64", "qemu-system-ppc", "pseries", 0, "hvc0", "/dev/hvc1", NULL,
	  "", "a console: CONFIG_HVC_CONSOLE and CONFIG_PRINTK (its console is hvc0)",
	  "a second console: CONFIG_HVC_CONSOLE (the answer comes on hvc1)" },
	/* Debian's s390x kernel builds virtio_console as a module: --module loads it */
	{ "s390x", "qemu-system-s390x", "qemu-system-misc", "s390-ccw-virtio", 0, "ttysclp0",
	  "/dev/hvc0", "virtio-serial-ccw", "",
	  "a console: CONFIG_SCLP_VT220_CONSOLE and CONFIG_PRINTK (its console is ttysclp0)",
	  "a virtio console: CONFIG_VIRTIO_CCW and CONFIG_VIRTIO_CONSOLE=y, or its module given "
	  "with --module virtio_console.ko (the answer comes on hvc0)" },
};

/* @name's row; x86's for a name no row has (vm_image_machine() gives none such). */
static const struct machine *machine_of(const char *name)
{
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (!strcmp(machines[i].name, name))
			return &machines[i];
	return &machines[0];
}

const char *vm_answer_port(const char *machine)
{
	return machine_of(machine)->port;
}

void vm_qemu_of(const char *machine, char *qemu, size_t len, const char **package)
{
	const struct machine *m = machine_of(machine);

	snprintf(qemu, len, "%s", m->qemu);
	*package = m->package;
}

const char *vm_lacks(const struct vm_result *r, const char *machine)
{
	const struct machine *m = machine_of(machine);

	if (r->status == VM_SILENT || (r->kernel_s < 0 && r->status == VM_TIMEOUT))
		return m->no_console;
	if (strstr(r->console, "Unable to mount root fs") ||
	    strstr(r->console, "No working init found"))
		return "an initramfs: CONFIG_BLK_DEV_INITRD (the guest is its /init), "
		       "and CONFIG_DEVTMPFS";
	if (strstr(r->console, "Failed to execute /init (error -8)"))
		return "ELF programs: CONFIG_BINFMT_ELF (the guest is a static ELF program)";
	if (strstr(r->console, "ukbench-guest: no port for the answer"))
		return m->no_port;
	return NULL;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The console's end: its last bytes kept, the oldest dropped. */
static void keep_tail(char *tail, size_t cap, const char *buf, size_t n)
{
	size_t have = strlen(tail);

	if (n >= cap - 1) {
		memcpy(tail, buf + n - (cap - 1), cap - 1);
		tail[cap - 1] = 0;
		return;
	}
	if (have + n >= cap) {
		size_t drop = have + n - (cap - 1);

		memmove(tail, tail + drop, have - drop + 1);
		have -= drop;
	}
	memcpy(tail + have, buf, n);
	tail[have + n] = 0;
}

int vm_take(struct vm_result *r, size_t *cap, int port, const char *buf, size_t n, double t_s)
{
	if (port == 0) {
		/* QEMU writes the port a byte at a time: the banner is found in the tail */
		keep_tail(r->console, sizeof(r->console), buf, n);
		if (r->kernel_s < 0 && strstr(r->console, "Linux version"))
			r->kernel_s = t_s;
		return 0;
	}
	if (r->answer_len + n + 1 > *cap) {
		size_t want = *cap ? 2 * *cap : 1 << 16;
		char *more;

		while (want < r->answer_len + n + 1)
			want *= 2;
		more = want <= ANSWER_MAX ? realloc(r->answer, want) : NULL;
		if (!more)
			return -1;
		r->answer = more;
		*cap = want;
	}
	memcpy(r->answer + r->answer_len, buf, n);
	r->answer_len += n;
	r->answer[r->answer_len] = 0;
	return 0;
}

static int fail(char *err, size_t len, const char *what, int e)
{
	snprintf(err, len, "%s: %s", what, strerror(e));
	return -1;
}

/* The initramfs as a file QEMU can open by name, in memory. */
static int initrd_fd(const struct vm_boot *b)
{
	int fd = memfd_create("ukbench-initramfs", 0);
	size_t o = 0;

	if (fd < 0)
		return -1;
	while (o < b->initrd_len) {
		ssize_t w = write(fd, (const char *)b->initrd + o, b->initrd_len - o);

		if (w <= 0) {
			close(fd);
			return -1;
		}
		o += (size_t)w;
	}
	return fd;
}

static void child(const struct vm_boot *b, int ird, int con, int ans)
{
	char kernel[8192], initrd[64], mem[32], cpus[32], serial0[64], serial1[64], cmdline[2048];
	const char *argv[48];
	int n = 0, devnull = open("/dev/null", O_RDWR);

	if (devnull >= 0) {
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
	}
	/* QEMU's own messages end up with the console's, where a failure is read */
	dup2(con, STDERR_FILENO);
	snprintf(kernel, sizeof(kernel), "%s", b->image);
	snprintf(initrd, sizeof(initrd), "/dev/fd/%d", ird);
	snprintf(mem, sizeof(mem), "%u", b->memory_mb);
	snprintf(cpus, sizeof(cpus), "%u", b->cpus);
	snprintf(serial0, sizeof(serial0), "file:/dev/fd/%d", con);
	snprintf(serial1, sizeof(serial1), "file:/dev/fd/%d", ans);
	const struct machine *m = machine_of(b->machine);
	int kvm = !strcmp(b->accel, "kvm");
	char answer[96];

	snprintf(answer, sizeof(answer), "file,id=answer,path=/dev/fd/%d", ans);
	snprintf(cmdline, sizeof(cmdline), "console=%s loglevel=6 panic=-1 rdinit=/init%s%s%s",
		 m->console, kvm ? "" : m->tcg_append, b->append ? " " : "",
		 b->append ? b->append : "");
	argv[n++] = b->qemu;
	argv[n++] = "-nodefaults";
	argv[n++] = "-no-reboot";
	argv[n++] = "-display";
	argv[n++] = "none";
	argv[n++] = "-monitor";
	argv[n++] = "none";
	if (m->board) {
		argv[n++] = "-machine";
		argv[n++] = m->board;
	}
	argv[n++] = "-accel";
	argv[n++] = b->accel;
	if (b->cpu || kvm || m->tcg_cpu_max) {
		argv[n++] = "-cpu";
		argv[n++] = b->cpu ? b->cpu : kvm ? "host" : "max";
	}
	argv[n++] = "-m";
	argv[n++] = mem;
	argv[n++] = "-smp";
	argv[n++] = cpus;
	argv[n++] = "-kernel";
	argv[n++] = kernel;
	argv[n++] = "-initrd";
	argv[n++] = initrd;
	argv[n++] = "-append";
	argv[n++] = cmdline;
	argv[n++] = "-serial";
	argv[n++] = serial0;
	if (m->virtio_serial) {
		argv[n++] = "-device";
		argv[n++] = m->virtio_serial;
		argv[n++] = "-chardev";
		argv[n++] = answer;
		argv[n++] = "-device";
		argv[n++] = "virtconsole,chardev=answer";
	} else {
		argv[n++] = "-serial";
		argv[n++] = serial1;
	}
	argv[n] = NULL;
	execvp(b->qemu, (char *const *)argv);
	dprintf(STDERR_FILENO, "cannot run %s: %s\n", b->qemu, strerror(errno));
	_exit(127);
}

/* A boot that ended on its own, told by what it printed and how QEMU exited (@st). */
static void settle(struct vm_result *r, int st)
{
	r->qemu_status = st;
	if (r->status != VM_OK)
		return;
	if (strstr(r->console, "Kernel panic"))
		r->status = VM_PANIC;
	else if (!WIFEXITED(st) || WEXITSTATUS(st))
		r->status = VM_QEMU;
	else if (!r->answer_len)
		r->status = VM_NO_ANSWER;
}

int vm_boot(const struct vm_boot *b, struct vm_result *r, char *err, size_t len)
{
	int con[2] = { -1, -1 }, ans[2] = { -1, -1 }, ird, st = 0, open_fds = 2;
	size_t cap = 0;
	double t0, limit, first = b->first_line_s > 0 ? b->first_line_s : VM_FIRST_LINE_S;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->kernel_s = -1;
	if (len)
		err[0] = 0;
	ird = initrd_fd(b);
	if (ird < 0)
		return fail(err, len, "cannot hold the initramfs in memory", errno);
	if (pipe2(con, O_CLOEXEC) || pipe2(ans, O_CLOEXEC)) {
		fail(err, len, "cannot make the serial ports' pipes", errno);
		goto out_fds;
	}
	t0 = now_s();
	pid = fork();
	if (pid < 0) {
		fail(err, len, "cannot start QEMU", errno);
		goto out_fds;
	}
	if (pid == 0) {
		/* the three the emulator opens by name stay open across exec */
		fcntl(ird, F_SETFD, 0);
		fcntl(con[1], F_SETFD, 0);
		fcntl(ans[1], F_SETFD, 0);
		child(b, ird, con[1], ans[1]);
	}
	close(con[1]);
	close(ans[1]);
	con[1] = ans[1] = -1;
	r->status = VM_OK;
	while (open_fds) {
		struct pollfd p[2] = { { con[0], POLLIN, 0 }, { ans[0], POLLIN, 0 } };
		double t = now_s() - t0;
		char buf[65536];
		int k;

		limit = b->timeout_s;
		if (r->kernel_s < 0 && first < limit)
			limit = first;
		if (b->stop && *b->stop) {
			r->status = VM_STOPPED;
			break;
		}
		if (t >= limit) {
			r->status = r->kernel_s < 0 ? VM_SILENT : VM_TIMEOUT;
			break;
		}
		k = poll(p, 2,
			 (int)((limit - t) * 1000) + 1 > 500 ? 500 : (int)((limit - t) * 1000) + 1);
		if (k < 0 && errno == EINTR)
			continue;
		for (int i = 0; i < 2 && k > 0; i++) {
			ssize_t n;

			if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)) || p[i].fd < 0)
				continue;
			n = read(p[i].fd, buf, sizeof(buf));
			if (n <= 0) {
				close(p[i].fd);
				*(i ? &ans[0] : &con[0]) = -1;
				open_fds--;
				continue;
			}
			if (vm_take(r, &cap, i, buf, (size_t)n, now_s() - t0)) {
				r->status = VM_QEMU;
				snprintf(err, len,
					 "the guest's answer is over %u MiB or cannot be held",
					 ANSWER_MAX >> 20);
				goto stop;
			}
		}
	}
stop:
	if (r->status != VM_OK)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	r->total_s = now_s() - t0;
	settle(r, st);
out_fds:
	for (int i = 0; i < 2; i++) {
		if (con[i] >= 0)
			close(con[i]);
		if (ans[i] >= 0)
			close(ans[i]);
	}
	close(ird);
	return err[0] && r->status == VM_OK ? -1 : 0;
}
