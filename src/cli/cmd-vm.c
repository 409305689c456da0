// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-vm.c - `ukbench vm -k IMAGE [-k IMAGE...] [PATTERN...]`: kernels
 * booted under QEMU, each boot one replicate. The boots alternate between
 * the images in an order shuffled each round, so that the host's drift
 * falls on every image alike; each boot measures the plan in the guest
 * (ukbench-guest as the initramfs's /init), answers in the run JSON on
 * the second serial port, and is stored as a run of its own, labelled
 * with the guest's kernel release (or -l). `compare --all` then pools the
 * boots of each label, each boot one observation.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "desc.h"
#include "json-write.h"
#include "check.h"
#include "cli.h"
#include "describe.h"
#include "env.h"
#include "initramfs.h"
#include "options.h"
#include "plan.h"
#include "runner.h"
#include "runref.h"
#include "select.h"
#include "spool-push.h"
#include "stats.h"
#include "store.h"
#include "vm.h"
#include "width.h"

#define MAX_IMAGES     8
#define MAX_MODULES    16
#define PLAN_LINES_MAX 512

enum accel { ACCEL_AUTO, ACCEL_KVM, ACCEL_TCG };
#define ACCEL_WORDS "auto|kvm|tcg"

enum { O_KERNEL = 1, O_LABEL, O_MODULE };

struct vm_opts {
	const char *images[MAX_IMAGES], *labels[MAX_IMAGES], *modules[MAX_MODULES];
	const char *module_machines[MAX_MODULES]; /* each module's, read with its option */
	unsigned nimages, nlabels, nmodules;
	unsigned long boots;
	enum accel accel;
	const char *qemu, *db, *append;
	unsigned long memory_mb;
	double timeout_s, budget_s, precision;
	int check, no_store;
};

static const struct opt vm_opts_table[] = {
	OPT_CALL(
	    "image", 'k', "IMAGE",
	    "a kernel to boot (an x86-64 bzImage, an arm64 Image,\na ppc64el or s390x vmlinux); "
	    "once for each, at most 8",
	    O_KERNEL),
	OPT_CALL("module", 0, "FILE.ko",
		 "a module of the kernel's the guest loads before it answers (Debian's s390x "
		 "kernel has its virtio console as one: virtio_console.ko from its package); "
		 "once for each, loaded in order, into the kernels of its machine",
		 O_MODULE),
	OPT_ULONG("boots", 0, "N", "boots of each kernel", 1, 100, struct vm_opts, boots,
		  OPT_DEF("2")),
	OPT_CALL("label", 'l', "NAME",
		 "the label of the runs of each kernel, in -k's order\n(default: the release "
		 "the guest reports)",
		 O_LABEL),
	OPT_CHOICE("accel", 0, ACCEL_WORDS,
		   "kvm, tcg (QEMU's emulator), or auto (default): KVM\nwhen a first boot of it "
		   "prints, else tcg",
		   struct vm_opts, accel),
	OPT_STRING(
	    "qemu", 0, "PROGRAM",
	    "the system emulator (default: the image's:\nqemu-system-x86_64, -aarch64, -ppc64, "
	    "-s390x)",
	    struct vm_opts, qemu),
	OPT_ULONG("memory", 0, "MB", "the guest's memory", 64, 65536, struct vm_opts, memory_mb,
		  OPT_DEF("512")),
	OPT_DOUBLE("timeout", 0, "SEC", "the longest a boot may take", 1, 86400, struct vm_opts,
		   timeout_s, OPT_DEF("300")),
	OPT_STRING("append", 0, "ARGS", "more of the guest kernel's command line", struct vm_opts,
		   append),
	OPT_PERCENT("precision", 'p', "PCT", "target half-width of the 95% CI, in %", 0.001, 100,
		    struct vm_opts, precision, OPT_DEF("1")),
	OPT_DOUBLE("budget", 'b', "SEC", "measuring time per path in each boot", 0.001, 3600,
		   struct vm_opts, budget_s, OPT_DEF("0.5")),
	OPT_BOOL("check", 0, "run 'ukbench check' in each guest instead of measuring",
		 struct vm_opts, check),
	OPT_STRING("db", 0, "PATH", "the store (default: $UKBENCH_DB, else the XDG data dir)",
		   struct vm_opts, db),
	OPT_BOOL("no-store", 0, "do not store the runs", struct vm_opts, no_store),
	OPT_END,
};

const struct command cmd_vm_def = {
	.name = "vm",
	.fn = cmd_vm,
	.summary = "boot kernels under QEMU and measure each boot",
	.synopsis = "-k IMAGE [-k IMAGE...] [options] [PATTERN...]",
	.about = "Boots each kernel image under QEMU, the boots of the images alternating in\n"
		 "an order shuffled each round, and measures the selected paths in every\n"
		 "guest (as 'ukbench run' would, in one process of it). The guest needs\n"
		 "nothing: its initramfs, made here in memory, holds ukbench-guest (a static\n"
		 "program) and the plan; the run comes back on a second serial port (a\n"
		 "virtio console on arm64). Each boot is stored as a run of its own,\n"
		 "labelled with the kernel release the guest reports (or -l), with QEMU's\n"
		 "accelerator, version, memory and CPUs and the host beside the guest's\n"
		 "environment. 'ukbench compare --all' then takes each boot as one\n"
		 "observation: the variation between boots, which no single boot shows, is\n"
		 "in its interval.\n"
		 "\n"
		 "KVM is used when a first boot of it prints within 30 s (where QEMU cannot\n"
		 "set MSR 0x10a, with -cpu host,-arch-capabilities); a nested guest may\n"
		 "hang before its kernel starts, and then QEMU's emulator (TCG) is used,\n"
		 "with a warning: an emulator's timings suit a check of the pipeline and\n"
		 "--check, not a per-call cost. A kernel that prints nothing on its console\n"
		 "within 60 s is given up, with what the console shows it lacks.\n"
		 "\n"
		 "Other machines' kernels boot under the emulator with a guest cross-built\n"
		 "for them: an arm64 Image (qemu-system-aarch64, virt), a ppc64el vmlinux\n"
		 "(qemu-system-ppc64, pseries), an s390x image (qemu-system-s390x; its\n"
		 "answer needs virtio_console built in). So a powerpc vDSO is checked\n"
		 "against a powerpc kernel on any host. tools/build-kernel builds a kernel\n"
		 "from source with what a guest needs (docs/kernels.md).",
	.opts = vm_opts_table,
	.old = (const struct opt_old[]){ { "kernel", 0, "image" }, { NULL, 0, NULL } },
	.footer = "examples:\n"
		  "  ukbench vm -k /boot/vmlinuz-6.1.0-47-cloud-amd64 \\\n"
		  "      -k /boot/vmlinuz-6.1.0-50-cloud-amd64 --boots 3 syscall.null\n"
		  "  ukbench compare --all 6.1.0-47-cloud-amd64 6.1.0-50-cloud-amd64\n"
		  "  ukbench vm --check -k arch/x86/boot/bzImage\n"
		  "  ukbench vm --check -k vmlinuz-6.1.0-50-s390x --module virtio_console.ko\n",
};

static volatile sig_atomic_t vm_stop;

static void on_signal(int sig)
{
	vm_stop = sig;
}

static int set_option(void *ctx, int id, const char *arg)
{
	struct vm_opts *o = ctx;

	switch (id) {
	case O_KERNEL:
		if (o->nimages == MAX_IMAGES)
			return error("at most %d kernels (-k) at once", MAX_IMAGES);
		if (access(arg, R_OK))
			return error("-k %s: %s", arg, strerror(errno));
		o->images[o->nimages++] = arg;
		return 0;
	case O_MODULE: {
		unsigned char h[64];
		int fd = open(arg, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, h, sizeof(h));
		const char *mm = n < 0 ? NULL : vm_module_machine(h, (size_t)n);

		if (fd >= 0)
			close(fd);
		if (n < 0)
			return error("--module %s: %s", arg, strerror(errno));
		if (!mm)
			return error("--module %s: not a kernel module (a 64-bit ELF relocatable "
				     "object, FILE.ko, uncompressed)",
				     arg);
		if (o->nmodules == MAX_MODULES)
			return error("at most %d modules (--module) at once", MAX_MODULES);
		o->module_machines[o->nmodules] = mm;
		o->modules[o->nmodules++] = arg;
		return 0;
	}
	case O_LABEL:
		if (o->nlabels == MAX_IMAGES)
			return error("at most %d labels (-l), one for each -k", MAX_IMAGES);
		o->labels[o->nlabels++] = arg;
		return 0;
	}
	return -1;
}

/* The first line QEMU prints of its version ("QEMU emulator version 7.2.19 ..."). */
static void qemu_version(const char *qemu, char *buf, size_t len)
{
	char cmd[PATH_MAX + 32];
	FILE *p;

	snprintf(buf, len, "unknown");
	if (strchr(qemu, '\'') || strlen(qemu) > PATH_MAX)
		return;
	snprintf(cmd, sizeof(cmd), "'%s' -version 2>/dev/null", qemu);
	p = popen(cmd, "r");
	if (!p)
		return;
	if (fgets(buf, (int)len, p))
		buf[strcspn(buf, "\n")] = 0;
	else
		snprintf(buf, len, "unknown");
	pclose(p);
}

/* The plan's lines for /plan: "run" or "check", then its arguments. */
static char **plan_lines(const struct vm_opts *o, struct ukb_selection *sel, int argc, char **argv,
			 size_t *n)
{
	static const char *const run_prefix[] = { "run" };
	struct run_plan p = { 0 };
	struct ukb_err e;
	char **lines;

	if (o->check) {
		lines = calloc(3, sizeof(*lines));
		if (!lines)
			return NULL;
		lines[0] = strdup("check");
		lines[1] = strdup("duration=0.2");
		*n = 2;
		return lines;
	}
	ukb_measure_opts_init(&p.m);
	if (ukb_select(sel, argc, argv, 1, &p.sel, 1, &e)) {
		error_hint(&e);
		return NULL;
	}
	p.cases = sel->cases;
	p.ncases = sel->n;
	p.procs = 1;
	p.m.budget_s = o->budget_s;
	p.m.precision = o->precision;
	lines = plan_argv(&p, run_prefix, 1);
	for (*n = 0; lines && lines[*n]; (*n)++)
		;
	return lines;
}

/* /dev/kvm can be opened: KVM may work. */
static int kvm_here(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* The host's facts beside the guest's, and the emulator's, in the run's settings. */
static int add_vm_settings(struct rec_run *run, const struct vm_boot *b, const char *qver,
			   unsigned boot, const struct vm_opts *o, const struct vm_result *r)
{
	struct ukb_env env;
	struct jw w;
	char *host, *vm;
	int ret;

	ukb_env_capture(&env);
	/* the host's whole environment, as a run records its own */
	host = describe_env(&env);
	if (!host)
		return -1;
	jw_init(&w, 0);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "accel", b->accel);
	if (b->cpu)
		jw_str(&w, "cpu", b->cpu);
	jw_str(&w, "qemu", qver);
	jw_str(&w, "image", b->image);
	jw_uint(&w, "boot", boot);
	jw_uint(&w, "memory_mb", o->memory_mb);
	jw_int(&w, "cpus", 1);
	jw_num(&w, "kernel_s", r->kernel_s);
	jw_num(&w, "boot_s", r->total_s);
	jw_raw(&w, "host", host);
	jw_obj_end(&w);
	free(host);
	vm = jw_finish(&w, NULL);
	ret = vm ? rec_settings_put(run, "vm", vm) : -1;
	free(vm);
	return ret;
}

/* What a failed boot showed: its status, the console's last lines. */
static void say_failure(const char *image, const char *machine, const struct vm_result *r)
{
	const char *lacks = vm_lacks(r, machine);
	const char *tail = r->console;
	int lines = 0;

	for (const char *p = r->console + strlen(r->console); p > r->console; p--)
		if (p[-1] == '\n' && ++lines > 12) {
			tail = p;
			break;
		}
	const char *panic = strstr(r->console, "Kernel panic");
	char why[256] = "", shown[768];

	if (panic)
		snprintf(why, sizeof(why), ": %.*s", (int)strcspn(panic, "\r\n"), panic);
	error("%s: %s after %.1f s%s%s", image, vm_status_text(r->status), r->total_s,
	      r->kernel_s < 0 && r->status != VM_SILENT ? " (the kernel printed no line)" : "",
	      vis(why, shown, sizeof(shown)));
	if (tail[0]) {
		char line[512], out[1600];

		fprintf(stderr, "the console's end:\n");
		for (const char *p = tail; *p;) {
			size_t l = strcspn(p, "\n");

			snprintf(line, sizeof(line), "%.*s", (int)(l < 400 ? l : 400), p);
			line[strcspn(line, "\r")] = 0;
			fprintf(stderr, "  | %s\n", vis(line, out, sizeof(out)));
			p += l + (p[l] == '\n');
		}
	}
	if (lacks)
		fprintf(stderr,
			"hint: the kernel seems to lack %s; tools/kernel/vm.config lists what a "
			"guest needs, and tools/build-kernel builds a kernel with it\n",
			lacks);
}

/* One boot's answer, stored. 0, or -1 (printed). */
static int keep_run(const struct vm_opts *o, struct store *st, char (*labels)[128], unsigned image,
		    unsigned boot, const struct vm_boot *b, const char *qver,
		    const struct vm_result *r)
{
	struct rec_run run = { 0 };
	char err[1024], name[64], iv[PATH_MAX], rv[256];
	int ret = -1;

	snprintf(name, sizeof(name), "the answer of boot %u", boot);
	if (rec_from_json_text(&run, r->answer, r->answer_len, name, err, sizeof(err))) {
		error("%s: %s", o->images[image], err);
		return -1;
	}
	if (image < o->nlabels)
		snprintf(run.label, sizeof(run.label), "%s", o->labels[image]);
	else
		snprintf(run.label, sizeof(run.label), "%s", run.kernel_release);
	snprintf(run.source, sizeof(run.source), "vm");
	run.duration_s = r->total_s;
	if (add_vm_settings(&run, b, qver, boot, o, r)) {
		error("out of memory");
		goto out;
	}
	/* what the guest says is shown, never obeyed: a release with escapes stays text */
	printf("boot %u: %s, Linux %s (%s%s%s), kernel up in %.1f s, %.1f s in all, %zu paths",
	       boot, vis(o->images[image], iv, sizeof(iv)), vis(run.kernel_release, rv, sizeof(rv)),
	       b->accel, b->cpu ? ", -cpu " : "", b->cpu ? b->cpu : "", r->kernel_s, r->total_s,
	       run.nresults);
	if (st && store_save(st, &run, err, sizeof(err))) {
		printf("\n");
		error("%s", err);
		goto out;
	}
	if (st)
		printf(", stored as %s", stored_as(&run, rv, sizeof(rv)));
	printf("\n");
	snprintf(labels[image], sizeof(labels[image]), "%s", run.label);
	ret = 0;
out:
	rec_run_release(&run);
	return ret;
}

/*
 * A check's lines, under the image's name, then check's summary line of
 * them; 1 when one failed, or none passed (an answer that is no check's).
 */
static int show_check(const char *image, const struct vm_result *r)
{
	size_t count[CHECK_KNOWN + 1] = { 0 };
	char iv[PATH_MAX];

	printf("%s:\n", vis(image, iv, sizeof(iv)));
	for (const char *p = r->answer; p && *p;) {
		size_t l = strcspn(p, "\n");
		char line[1024], out[3200];

		snprintf(line, sizeof(line), "%.*s", (int)(l < 1000 ? l : 1000), p);
		/* the guest's line starts with check's name of its verdict */
		for (int v = CHECK_OK; v <= CHECK_KNOWN; v++) {
			const char *name = check_verdict_name((enum check_verdict)v);

			if (!strncmp(line, name, strlen(name)) && line[strlen(name)] == ' ')
				count[v]++;
		}
		printf("  %s\n", vis(line, out, sizeof(out)));
		p += l + (p[l] == '\n');
	}
	printf("  %zu ok, %zu FAILED, %zu skipped, %zu known behaviour\n", count[CHECK_OK],
	       count[CHECK_FAILED], count[CHECK_SKIPPED], count[CHECK_KNOWN]);
	return count[CHECK_FAILED] > 0 || !count[CHECK_OK];
}

/* What boots the kernels of one machine: its emulator, its guest, their initramfs. */
struct kit {
	const char *machine;
	char qemu[PATH_MAX], qver[256];
	char *initrd;
	size_t initrd_len;
};

/* The kit of @machine, made once. 0, or -1 (printed). */
static int kit_make(struct kit *k, const char *machine, const struct vm_opts *o, char **plan,
		    size_t nplan)
{
	struct utsname u;
	char guest[PATH_MAX], name[64], err[512], first[64];
	const char *package;
	char *init;
	size_t init_len;
	FILE *m;
	int ret;

	k->machine = machine;
	vm_qemu_of(machine, k->qemu, sizeof(k->qemu), &package);
	if (o->qemu)
		snprintf(k->qemu, sizeof(k->qemu), "%s", o->qemu);
	qemu_version(k->qemu, k->qver, sizeof(k->qver));
	if (!strcmp(k->qver, "unknown"))
		return error("cannot run %s: install Debian's %s (or name the emulator with "
			     "--qemu)",
			     k->qemu, package),
		       -1;
	/* the guest of this machine, or one cross-built for another */
	snprintf(name, sizeof(name), "ukbench-guest");
	if (uname(&u) || strcmp(u.machine, machine))
		snprintf(name, sizeof(name), "ukbench-guest-%s", machine);
	if (guest_helper(name, guest, sizeof(guest)))
		return error("the guest program '%s' was not built (a static build needs "
			     "libc6-dev%s)",
			     guest,
			     strcmp(name, "ukbench-guest") ? ", and a cross compiler for it" : ""),
		       -1;
	init = read_file(guest, &init_len, err, sizeof(err));
	if (!init)
		return error("%s", err);
	/* the first line: what to do, and the port this machine answers on */
	snprintf(first, sizeof(first), "%s %s", plan[0], vm_answer_port(machine));
	{
		const char *lines[PLAN_LINES_MAX];

		lines[0] = first;
		for (size_t i = 1; i < nplan && i < PLAN_LINES_MAX; i++)
			lines[i] = plan[i];
		struct initramfs_file mods[MAX_MODULES];
		size_t nmods = 0;

		/* the modules of this machine, in the order given */
		ret = 0;
		for (unsigned i = 0; i < o->nmodules && !ret; i++) {
			char *data = read_file(o->modules[i], &mods[nmods].len, err, sizeof(err));
			const char *mm;

			if (!data) {
				ret = error("%s", err);
				break;
			}
			/* read again: a file changed since its option was taken is judged anew */
			mm = vm_module_machine((unsigned char *)data, mods[nmods].len);
			if (!mm || strcmp(mm, machine)) {
				free(data);
				continue;
			}
			mods[nmods++].data = data;
		}
		if (!ret) {
			m = open_memstream(&k->initrd, &k->initrd_len);
			ret = !m || initramfs_write(m, init, init_len, lines,
						    nplan < PLAN_LINES_MAX ? nplan : PLAN_LINES_MAX,
						    mods, nmods);
			if (m && fclose(m))
				ret = 1;
			if (ret)
				error("cannot make the initramfs: out of memory");
		}
		for (size_t i = 0; i < nmods; i++)
			free((void *)mods[i].data);
	}
	free(init);
	return ret ? -1 : 0;
}

/* What no boot can start with, said; 0 when none. */
static int usage_wrong(const struct vm_opts *o, int npatterns)
{
	if (!o->nimages)
		return error("'ukbench vm' needs a kernel to boot: -k IMAGE (see 'ukbench vm "
			     "--help')");
	if (o->nlabels > o->nimages)
		return error("%u labels (-l) for %u kernels (-k): one for each at most", o->nlabels,
			     o->nimages);
	if (o->check && npatterns)
		return error("--check checks every function; it takes no pattern");
	return 0;
}

/*
 * Each image's machine, and the kit that boots it (at most one a machine):
 * 0, or an exit status (printed).
 */
static int make_kits(const struct vm_opts *o, char **plan, size_t nplan, struct kit *kits,
		     unsigned *nkits, unsigned *kit_of)
{
	for (unsigned i = 0; i < o->nimages; i++) {
		const char *machine = vm_image_machine(o->images[i]);
		unsigned j = 0;

		if (!machine) {
			error("-k %s: not a kernel image ukbench boots (an x86-64 bzImage, an "
			      "arm64 Image, a ppc64 or s390x vmlinux)",
			      o->images[i]);
			return UKB_EXIT_USAGE;
		}
		while (j < *nkits && strcmp(kits[j].machine, machine))
			j++;
		if (j == *nkits && kit_make(&kits[(*nkits)++], machine, o, plan, nplan))
			return UKB_EXIT_FAIL;
		kit_of[i] = j;
	}
	/* a module no kernel given can load is a mistake, said before any boot */
	for (unsigned i = 0; i < o->nmodules; i++) {
		int used = 0;

		for (unsigned j = 0; j < *nkits; j++)
			used |= !strcmp(kits[j].machine, o->module_machines[i]);
		if (!used) {
			error("--module %s is for %s: no kernel given (-k) is", o->modules[i],
			      o->module_machines[i]);
			return UKB_EXIT_USAGE;
		}
	}
	return 0;
}

/* Where an emulator's timings stand for the hardware's, the warning that they do not. */
static void say_emulated(const struct vm_opts *o, const char *accel, const struct kit *kits,
			 unsigned nkits, const char *host)
{
	if (o->accel == ACCEL_AUTO && !strcmp(accel, "tcg"))
		warning("no KVM here (/dev/kvm cannot be opened): QEMU's emulator (TCG) boots "
			"the kernels; its timings are an emulator's, not the hardware's");
	else if (o->accel == ACCEL_TCG)
		warning("QEMU's emulator (TCG), as --accel tcg asks: its timings are an "
			"emulator's, not the hardware's");
	for (unsigned i = 0; i < nkits; i++)
		if (strcmp(kits[i].machine, host))
			warning("the %s kernels boot under QEMU's emulator (TCG), on this %s host: "
				"their timings are an emulator's, not the hardware's",
				kits[i].machine, host);
}

/*
 * Boots @b into @r, and QEMU's first line on the console (what it said
 * when it stopped before the kernel) into @why. 0, or -1 (printed).
 */
static int boot_one(const struct vm_boot *b, struct vm_result *r, char *why, size_t len)
{
	char err[1024];

	if (vm_boot(b, r, err, sizeof(err))) {
		free(r->answer);
		return error("%s", err);
	}
	snprintf(why, len, "%.*s", (int)strcspn(r->console, "\n"), r->console);
	return 0;
}

/*
 * One boot of @b into @r. Where QEMU names an MSR KVM cannot set, another
 * CPU model is tried first (*@cpu). KVM on trial (@b->first_line_s) that
 * prints nothing, or whose QEMU fails before the kernel starts, is said
 * and left for the emulator, in this boot and every later one (*@accel).
 * 0, or -1 (printed).
 */
static int boot_once(struct vm_boot *b, struct vm_result *r, const char **accel, const char **cpu)
{
	char why[256], shown[768];
	const char *next;

	if (boot_one(b, r, why, sizeof(why)))
		return -1;
	/* a CPU model the host's KVM takes, where QEMU said which MSR it could not set */
	while (!strcmp(b->accel, "kvm") && r->status == VM_QEMU && r->kernel_s < 0 &&
	       (next = vm_kvm_cpu_next(b->machine, b->cpu, r->console))) {
		warning("KVM: QEMU failed before the kernel started (%s); trying -cpu %s",
			vis(why, shown, sizeof(shown)), next);
		free(r->answer);
		*cpu = b->cpu = next;
		/* a kernel under KVM prints within a second or two */
		if (b->first_line_s > 0)
			b->first_line_s = 10;
		if (boot_one(b, r, why, sizeof(why)))
			return -1;
	}
	if (!(b->first_line_s > 0 && r->kernel_s < 0 &&
	      (r->status == VM_SILENT || r->status == VM_QEMU)))
		return 0;
	if (r->status == VM_SILENT)
		warning("KVM: the first boot printed nothing in %.0f s (a nested guest that hangs "
			"before its kernel starts); QEMU's emulator (TCG) boots the kernels "
			"instead: its timings are an emulator's, not the hardware's",
			b->first_line_s);
	else
		warning("KVM: QEMU failed before the kernel started (%s); QEMU's emulator (TCG) "
			"boots the kernels instead: its timings are an emulator's, not the "
			"hardware's",
			vis(why, shown, sizeof(shown)));
	free(r->answer);
	*accel = b->accel = "tcg";
	*cpu = b->cpu = NULL;
	b->first_line_s = 0;
	return boot_one(b, r, why, sizeof(why));
}

/* A boot of image @k of @o under @accel (KVM runs this machine's guests only). */
static struct vm_boot boot_of(const struct vm_opts *o, const struct kit *kt, unsigned k,
			      const char *accel)
{
	return (struct vm_boot){ .machine = kt->machine,
				 .qemu = kt->qemu,
				 .image = o->images[k],
				 .accel = accel,
				 .append = o->append,
				 .memory_mb = (unsigned)o->memory_mb,
				 .cpus = 1,
				 .timeout_s = o->timeout_s,
				 .initrd = kt->initrd,
				 .initrd_len = kt->initrd_len,
				 .stop = &vm_stop };
}

/* After the boots of two kernels or more, stored: how to compare them. */
static void say_next(char (*labels)[128])
{
	char a[512], b[512];

	/* a label may be the release a guest gave */
	if (strcmp(labels[0], labels[1]))
		printf("each boot one observation: ukbench compare --all '%s' '%s'\n",
		       vis(labels[0], a, sizeof(a)), vis(labels[1], b, sizeof(b)));
	else
		warning("the kernels report one release, '%s': give each its label (-l before "
			"-l after) to compare them",
			labels[0]);
}

int cmd_vm(int argc, char **argv)
{
	struct vm_opts o = { 0 };
	struct ukb_selection sel = { 0 };
	struct store *st = NULL;
	char dbpath[PATH_MAX] = "", err[1024];
	char **plan = NULL, labels[MAX_IMAGES][128] = { { 0 } };
	struct kit kits[2] = { { 0 } };
	unsigned kit_of[MAX_IMAGES], nkits = 0;
	size_t nplan = 0;
	struct utsname u;
	const char *accel, *host = uname(&u) ? "" : u.machine;
	uint64_t seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() ^ 0x9e3779b97f4a7c15ull;
	size_t order[MAX_IMAGES];
	char silent[MAX_IMAGES] = { 0 };
	unsigned boot = 0, failed = 0, kvm_tried = 0;
	const char *kvm_cpu = NULL;
	int first, rc, ret = UKB_EXIT_USAGE;

	rc = opts_parse(&cmd_vm_def, argc, argv, 0, set_option, &o, &first);
	if (rc)
		return rc > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (usage_wrong(&o, argc - first))
		return UKB_EXIT_USAGE;
	plan = plan_lines(&o, &sel, argc - first, argv + first, &nplan);
	if (!plan)
		goto out;
	ret = make_kits(&o, plan, nplan, kits, &nkits, kit_of);
	if (ret)
		goto out;
	ret = UKB_EXIT_FAIL;
	if (!o.check && !o.no_store &&
	    (store_default_path(o.db, dbpath, sizeof(dbpath), err, sizeof(err)) ||
	     store_open(dbpath, &st, err, sizeof(err)))) {
		error("%s", err);
		goto out;
	}
	accel = o.accel == ACCEL_TCG ? "tcg" : o.accel == ACCEL_KVM || kvm_here() ? "kvm" : "tcg";
	say_emulated(&o, accel, kits, nkits, host);
	run_catch_stops(on_signal);
	for (unsigned long round = 0; round < o.boots && !vm_stop; round++) {
		ukb_shuffle(order, o.nimages, &seed);
		for (unsigned i = 0; i < o.nimages && !vm_stop; i++) {
			unsigned k = (unsigned)order[i];
			const struct kit *kt = &kits[kit_of[k]];
			int native = !strcmp(kt->machine, host);
			struct vm_boot b = boot_of(&o, kt, k, native ? accel : "tcg");
			struct vm_result r;

			/* the CPU model KVM took in an earlier boot */
			b.cpu = !strcmp(b.accel, "kvm") ? kvm_cpu : NULL;
			if (silent[k])
				continue;
			/* KVM on trial: its first boot must print, or the emulator takes over */
			if (o.accel == ACCEL_AUTO && native && !strcmp(accel, "kvm") &&
			    !kvm_tried++)
				b.first_line_s = 30;
			boot++;
			if (boot_once(&b, &r, &accel, &kvm_cpu))
				goto out;
			/* a signal ends QEMU too: what it left is not a failure of the kernel */
			if (r.status == VM_STOPPED || vm_stop) {
				free(r.answer);
				break;
			}
			if (r.status != VM_OK) {
				say_failure(o.images[k], kt->machine, &r);
				failed++;
				/* a kernel that printed nothing will not print next time */
				if (r.status == VM_SILENT && o.boots > round + 1) {
					silent[k] = 1;
					fprintf(stderr, "%s: not booted again\n", o.images[k]);
				}
			} else if (o.check) {
				failed += (unsigned)show_check(o.images[k], &r);
			} else if (keep_run(&o, st, labels, k, boot, &b, kt->qver, &r)) {
				failed++;
			}
			free(r.answer);
		}
	}
	if (st)
		push_after_save(st, 0);
	if (vm_stop) {
		error("interrupted by signal %d after %u boots", (int)vm_stop, boot);
		ret = 128 + (int)vm_stop;
		goto out;
	}
	if (!o.check && st && !failed && o.nimages > 1)
		say_next(labels);
	ret = failed ? UKB_EXIT_FAIL : UKB_EXIT_OK;
out:
	store_close(st);
	plan_argv_free(plan);
	ukb_selection_release(&sel);
	for (unsigned i = 0; i < nkits; i++)
		free(kits[i].initrd);
	return ret;
}
