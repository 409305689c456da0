// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * env.c - capture of the environment and the warnings it calls for.
 *
 * Everything is read from files the kernel exports; a missing file is a
 * fact about the machine (no cpufreq in a VM, no SMT control on powerpc)
 * and is recorded as such.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "env.h"
#include "version.h"

#define SYS_CPU "/sys/devices/system/cpu"

/* Reads the first line of @path into @buf, without the newline. 0 or -1. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static void read_or(const char *path, char *buf, size_t len, const char *fallback)
{
	if (read_line(path, buf, len))
		snprintf(buf, len, "%s", fallback);
}

/* The value of the first "key : value" line of /proc/cpuinfo with @key. */
static int cpuinfo_value(const char *key, char *buf, size_t len)
{
	char line[1024];
	FILE *f = fopen("/proc/cpuinfo", "re");
	size_t klen = strlen(key);
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *v;
		size_t n;

		if (strncmp(line, key, klen) || !colon)
			continue;
		/* the key may be padded with tabs and spaces up to the colon */
		for (n = klen; line + n < colon; n++)
			if (!isspace((unsigned char)line[n]))
				break;
		if (line + n != colon)
			continue;
		for (v = colon + 1; isspace((unsigned char)*v); v++)
			;
		v[strcspn(v, "\n")] = 0;
		snprintf(buf, len, "%s", v);
		found = 1;
	}
	fclose(f);
	return found;
}

void ukb_env_warn(struct ukb_env *env, const char *fmt, ...)
{
	va_list ap;

	if (env->nwarnings >= UKB_ENV_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(env->warnings[env->nwarnings++], sizeof(env->warnings[0]), fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ */
/* CPU                                                                 */

static void cpu_model(struct ukb_env *env)
{
	/* x86 and loongarch, powerpc, riscv, s390x, in that order */
	static const char *const keys[] = { "model name", "Model Name", "cpu",
					    "uarch",	  "machine",	"vendor_id" };
	const char *given = getenv("UKBENCH_TEST_CPU_NAME");
	char impl[32], part[32];

	/*
	 * The tests name the CPU themselves, so that what they check of
	 * the layout holds on a machine whose CPU has a long name.
	 */
	if (given && *given) {
		snprintf(env->cpu_model, sizeof(env->cpu_model), "%s", given);
		return;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (cpuinfo_value(keys[i], env->cpu_model, sizeof(env->cpu_model)))
			return;
	/* arm64 names its cores by implementer and part number only */
	if (cpuinfo_value("CPU implementer", impl, sizeof(impl)) &&
	    cpuinfo_value("CPU part", part, sizeof(part))) {
		snprintf(env->cpu_model, sizeof(env->cpu_model), "implementer %s part %s", impl,
			 part);
		return;
	}
	snprintf(env->cpu_model, sizeof(env->cpu_model), "unknown");
}

static void frequency(struct ukb_env *env)
{
	char v[64];

	read_or(SYS_CPU "/cpu0/cpufreq/scaling_governor", env->governor, sizeof(env->governor),
		"none (no cpufreq)");
	if (!read_line(SYS_CPU "/intel_pstate/no_turbo", v, sizeof(v)))
		snprintf(env->turbo, sizeof(env->turbo), "%s", atoi(v) ? "off" : "on");
	else if (!read_line(SYS_CPU "/cpufreq/boost", v, sizeof(v)))
		snprintf(env->turbo, sizeof(env->turbo), "%s", atoi(v) ? "on" : "off");
	else if (!read_line(SYS_CPU "/cpufreq/policy0/boost", v, sizeof(v)))
		snprintf(env->turbo, sizeof(env->turbo), "%s", atoi(v) ? "on" : "off");
	else
		snprintf(env->turbo, sizeof(env->turbo), "unknown (no boost control)");
}

static void smt(struct ukb_env *env)
{
	char active[16], control[32];

	if (read_line(SYS_CPU "/smt/control", control, sizeof(control))) {
		snprintf(env->smt, sizeof(env->smt), "unknown (no smt control)");
		return;
	}
	if (!read_line(SYS_CPU "/smt/active", active, sizeof(active)))
		snprintf(env->smt, sizeof(env->smt), "%s (control %s)",
			 atoi(active) ? "active" : "inactive", control);
	else
		snprintf(env->smt, sizeof(env->smt), "control %s", control);
}

static int cmp_mitigation(const void *a, const void *b)
{
	/* name is the first member of each entry */
	return strcmp((const char *)a, (const char *)b);
}

static void mitigations(struct ukb_env *env)
{
	DIR *d = opendir(SYS_CPU "/vulnerabilities");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) && env->nmitigations < UKB_ENV_MAX_MITIGATIONS) {
		char path[512];
		unsigned i = env->nmitigations;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), SYS_CPU "/vulnerabilities/%s", de->d_name);
		snprintf(env->mitigations[i].name, sizeof(env->mitigations[i].name), "%.63s",
			 de->d_name);
		read_or(path, env->mitigations[i].state, sizeof(env->mitigations[i].state),
			"unreadable");
		env->nmitigations++;
	}
	closedir(d);
	/* readdir() order is arbitrary: sort for a stable output */
	qsort(env->mitigations, env->nmitigations, sizeof(env->mitigations[0]), cmp_mitigation);
}

/* ------------------------------------------------------------------ */
/* Virtualization                                                      */

#if defined(__x86_64__) || defined(__i386__)
/* The hypervisor's signature in CPUID leaf 0x40000000, when the flag is set. */
static int x86_hypervisor(char *buf, size_t len)
{
	unsigned a, b, c, d;
	char sig[13];

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return 0;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = 0;
	if (!strncmp(sig, "KVMKVMKVM", 9))
		snprintf(buf, len, "kvm");
	else if (!strcmp(sig, "Microsoft Hv"))
		snprintf(buf, len, "hyper-v");
	else if (!strcmp(sig, "VMwareVMware"))
		snprintf(buf, len, "vmware");
	else if (!strcmp(sig, "XenVMMXenVMM"))
		snprintf(buf, len, "xen");
	else if (!strcmp(sig, "TCGTCGTCGTCG"))
		snprintf(buf, len, "qemu-tcg");
	else {
		/* another one's signature, as it reads: printable, trailing blanks cut */
		size_t n = strlen(sig);

		for (size_t i = 0; i < n; i++)
			if (sig[i] < 0x20 || sig[i] > 0x7e)
				sig[i] = ' ';
		while (n && sig[n - 1] == ' ')
			sig[--n] = 0;
		snprintf(buf, len, "%s", n ? sig : "unknown hypervisor");
	}
	return 1;
}
#else
static int x86_hypervisor(char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return 0;
}
#endif

static void virtualization(struct ukb_env *env)
{
	char v[128], line[256];
	FILE *f;

	if (x86_hypervisor(env->virtualization, sizeof(env->virtualization)))
		return;
	if (!read_line("/sys/hypervisor/type", v, sizeof(v)) ||
	    !read_line("/proc/device-tree/hypervisor/compatible", v, sizeof(v))) {
		snprintf(env->virtualization, sizeof(env->virtualization), "%s", v);
		return;
	}
	/* s390x: the control program of the LPAR or guest */
	f = fopen("/proc/sysinfo", "re");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "VM00 Control Program:", 21)) {
				char *p = line + 21;

				while (isspace((unsigned char)*p))
					p++;
				p[strcspn(p, "\n")] = 0;
				snprintf(env->virtualization, sizeof(env->virtualization), "%.127s",
					 p);
				fclose(f);
				return;
			}
		}
		fclose(f);
	}
	if (!read_line("/sys/class/dmi/id/sys_vendor", v, sizeof(v)) &&
	    (strstr(v, "QEMU") || strstr(v, "VMware") || strstr(v, "innotek") || strstr(v, "Xen") ||
	     strstr(v, "Microsoft"))) {
		snprintf(env->virtualization, sizeof(env->virtualization), "%s", v);
		return;
	}
	snprintf(env->virtualization, sizeof(env->virtualization), "none detected");
}

/* ------------------------------------------------------------------ */
/* Clocksource                                                         */

int ukb_clocksource_vdso_capable(const char *cs)
{
	/* clocksources with a vDSO clock mode, per architecture */
	static const char *const good[] = {
		"tsc",	    "kvm-clock", "hyperv_clocksource_tsc_page", "arch_sys_counter",
		"timebase", "tod",	 "riscv_clocksource",		"Constant",
		"xen",	    "MIPS",	 "arm,armv7-timer-mem"
	};
	/* read only through the system call */
	static const char *const bad[] = { "hpet",    "acpi_pm",
					   "jiffies", "refined-jiffies",
					   "pit",     "hyperv_clocksource_msr" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (!strcmp(cs, good[i]))
			return 1;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!strcmp(cs, bad[i]))
			return 0;
	return -1;
}

/* ------------------------------------------------------------------ */

static void libc_version(struct ukb_env *env)
{
#ifdef _CS_GNU_LIBC_VERSION
	if (confstr(_CS_GNU_LIBC_VERSION, env->libc, sizeof(env->libc)) > 0)
		return;
#endif
	snprintf(env->libc, sizeof(env->libc), "unknown (not glibc)");
}

static void warnings(struct ukb_env *env)
{
	int capable = ukb_clocksource_vdso_capable(env->clocksource);

	if (strncmp(env->governor, "none", 4) && strcmp(env->governor, "performance"))
		ukb_env_warn(env,
			     "cpufreq governor is '%s', not 'performance': the clock speed may "
			     "change during a run",
			     env->governor);
	if (!strcmp(env->turbo, "on"))
		ukb_env_warn(env,
			     "turbo/boost is on: the clock speed depends on temperature and load");
	if (strcmp(env->virtualization, "none detected"))
		ukb_env_warn(
		    env,
		    "running in a virtual machine (%s): timings include the hypervisor's noise",
		    env->virtualization);
	if (capable == 0)
		ukb_env_warn(env,
			     "clocksource '%s' cannot be read by the vDSO: vDSO time calls fall "
			     "back to the system call",
			     env->clocksource);
	if (env->online_cpus > 0 && env->loadavg[0] > 0.5 * env->online_cpus &&
	    env->loadavg[0] >= 1.0)
		ukb_env_warn(env, "the machine is loaded (load average %.2f on %d CPUs)",
			     env->loadavg[0], env->online_cpus);
}

void ukb_env_capture(struct ukb_env *env)
{
	struct utsname u;

	memset(env, 0, sizeof(*env));
	if (!uname(&u)) {
		snprintf(env->hostname, sizeof(env->hostname), "%s", u.nodename);
		snprintf(env->kernel_release, sizeof(env->kernel_release), "%s", u.release);
		snprintf(env->kernel_version, sizeof(env->kernel_version), "%s", u.version);
		snprintf(env->machine, sizeof(env->machine), "%s", u.machine);
	}
	read_or("/proc/cmdline", env->cmdline, sizeof(env->cmdline), "unknown");
	cpu_model(env);
	env->online_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	read_or("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		env->clocksource, sizeof(env->clocksource), "unknown");
	read_or("/sys/devices/system/clocksource/clocksource0/available_clocksource",
		env->clocksources_available, sizeof(env->clocksources_available), "unknown");
	env->clocksources_available[strcspn(env->clocksources_available, "\n")] = 0;
	/* the kernel ends the list with a blank */
	for (size_t n = strlen(env->clocksources_available);
	     n && env->clocksources_available[n - 1] == ' ';)
		env->clocksources_available[--n] = 0;
	frequency(env);
	smt(env);
	virtualization(env);
	mitigations(env);
	read_or("/proc/sys/kernel/perf_event_paranoid", env->perf_event_paranoid,
		sizeof(env->perf_event_paranoid), "unknown");
	read_or("/proc/sys/kernel/random/boot_id", env->boot_id, sizeof(env->boot_id), "unknown");
	libc_version(env);
#ifdef __clang__
	snprintf(env->compiler, sizeof(env->compiler), "clang %s", __clang_version__);
#elif defined(__GNUC__)
	snprintf(env->compiler, sizeof(env->compiler), "gcc %s", __VERSION__);
#else
	snprintf(env->compiler, sizeof(env->compiler), "unknown");
#endif
	snprintf(env->ukbench_version, sizeof(env->ukbench_version), "%s", ukb_version());
	if (getloadavg(env->loadavg, 3) != 3)
		env->loadavg[0] = env->loadavg[1] = env->loadavg[2] = -1;
	warnings(env);
}
