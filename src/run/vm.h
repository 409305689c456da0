/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vm.h - one boot of a kernel under QEMU, for `ukbench vm`: the runner
 * whose process is a boot. The kernel is given the initramfs (in memory,
 * as /dev/fd/N: no file is left behind), its console on the first serial
 * port and the guest's answer on the second, both read through pipes.
 * The boot is bounded in time; QEMU is killed when it runs over, when the
 * kernel prints nothing within the first limit (an accelerator that hangs
 * a nested guest before its kernel starts), or when @stop is set.
 */
#ifndef UKB_RUN_VM_H
#define UKB_RUN_VM_H

#include <signal.h>
#include <stddef.h>

struct vm_boot {
	const char *machine; /* "x86_64", "aarch64", "ppc64le", ...: vm_image_machine()'s */
	const char *qemu;    /* the system emulator: "qemu-system-x86_64" */
	const char *image;   /* the kernel: a bzImage or vmlinuz */
	const char *accel;   /* "kvm" or "tcg" */
	const char *cpu;     /* QEMU's -cpu; NULL: host under KVM, the machine's under TCG */
	const char *append;  /* more of the kernel's command line, or NULL */
	unsigned memory_mb, cpus;
	double timeout_s;    /* the whole boot */
	double first_line_s; /* the kernel's first line within this; 0: timeout_s */
	const void *initrd;  /* the initramfs */
	size_t initrd_len;
	volatile sig_atomic_t *stop;
};

enum vm_status {
	VM_OK,	      /* the guest answered and powered off */
	VM_NO_ANSWER, /* it powered off, and nothing came on the answer's port */
	VM_PANIC,     /* the kernel panicked */
	VM_SILENT,    /* the kernel printed nothing within first_line_s, or at all */
	VM_TIMEOUT,   /* it ran past timeout_s */
	VM_QEMU,      /* QEMU could not start, or failed */
	VM_STOPPED,   /* @stop was set */
};

struct vm_result {
	enum vm_status status;
	char *answer; /* what the guest wrote on the second port (NUL-ended); free() it */
	size_t answer_len;
	char console[4096]; /* the console's end, as printed */
	int qemu_status;    /* its wait status */
	double kernel_s;    /* from QEMU's start to the kernel's first line; < 0: never */
	double total_s;
};

/*
 * The machine a kernel image is for, from its boot header: "x86_64" (a
 * bzImage: "HdrS" at 0x202), "aarch64" (an arm64 Image: "ARMd" at 0x38),
 * "ppc64le" or "ppc64" (a powerpc vmlinux, ELF), "s390x" (a vmlinux, or
 * an image: "S390EP" at 0x10008); NULL when it is none of them (or
 * cannot be read).
 */
const char *vm_image_machine(const char *path);

/*
 * The machine a kernel module (@h, its first @n bytes: an ELF relocatable
 * object) is for, as vm_image_machine() names it; NULL for no module.
 */
const char *vm_module_machine(const unsigned char *h, size_t n);

/*
 * The CPU model to try under KVM after @cpu (NULL: "host") failed with
 * @console (QEMU's words) on @machine, or NULL: an x86 host whose KVM
 * cannot set IA32_ARCH_CAPABILITIES ("failed to set MSR 0x10a", as nested
 * guests see) may boot "host,-arch-capabilities".
 */
const char *vm_kvm_cpu_next(const char *machine, const char *cpu, const char *console);

/* The guest's port for its answer on @machine: "/dev/ttyS1", "/dev/hvc1", "/dev/hvc0". */
const char *vm_answer_port(const char *machine);

/* The system emulator of @machine into @qemu, and Debian's package of it. */
void vm_qemu_of(const char *machine, char *qemu, size_t len, const char **package);

/* What @s says, in a few words ("the kernel panicked"). */
const char *vm_status_text(enum vm_status s);

/*
 * @n bytes at @buf as they came on port @port (0 the console, 1 the
 * answer) @t_s seconds into the boot: the console's tail kept, the
 * kernel's first line timed, the answer appended (*@cap its room, 0 at
 * first). 0, or -1 when the answer cannot grow.
 */
int vm_take(struct vm_result *r, size_t *cap, int port, const char *buf, size_t n, double t_s);

/*
 * What the kernel of a boot that went wrong (@r, on @machine) lacks, as far
 * as its console tells: the configuration option and what it is for (NULL
 * when the console does not tell). tools/kernel/vm.config lists them all.
 */
const char *vm_lacks(const struct vm_result *r, const char *machine);

/*
 * The longest a kernel may take to print its first line on the console
 * before its boot is given up (VM_SILENT), unless the whole boot's limit
 * is shorter: a kernel with no serial console never prints, and the
 * emulator prints the banner within seconds.
 */
#define VM_FIRST_LINE_S 60.0

/* Boots @b once. 0 with @r filled (its status says how it went), or -1 with @err. */
int vm_boot(const struct vm_boot *b, struct vm_result *r, char *err, size_t errlen);

#endif
