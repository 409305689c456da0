/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * env.h - the environment a result was measured in.
 *
 * A per-call figure means little without the kernel, the CPU, the
 * clocksource and the mitigations it was measured under; all of it is
 * captured with every run and stored beside the samples. Fields that the
 * machine does not expose hold "unknown" or a reason, never a guess.
 */
#ifndef UKB_CORE_ENV_H
#define UKB_CORE_ENV_H

#define UKB_ENV_MAX_MITIGATIONS 48
#define UKB_ENV_MAX_WARNINGS	16

struct ukb_env {
	char hostname[65];
	char kernel_release[65];
	char kernel_version[129];
	char machine[65]; /* uname -m */
	char cmdline[2048];
	char cpu_model[256];
	int online_cpus;
	char clocksource[64];
	char clocksources_available[256];
	char governor[64];
	char turbo[64];
	char smt[64];
	char virtualization[128];
	char perf_event_paranoid[16];
	/* this boot: runs of one boot share what a reboot would change */
	char boot_id[40];
	char libc[64];
	char compiler[128];
	char ukbench_version[64];
	double loadavg[3];
	unsigned nmitigations;
	struct {
		char name[64];
		char state[192];
	} mitigations[UKB_ENV_MAX_MITIGATIONS];
	unsigned nwarnings;
	char warnings[UKB_ENV_MAX_WARNINGS][256];
};

/*
 * Reads the environment from uname(), /proc and /sys, and derives the
 * warnings: a governor other than performance, turbo on, a VM, a
 * clocksource the vDSO cannot read, a loaded machine. Never fails: what
 * cannot be read is recorded as unknown.
 */
void ukb_env_capture(struct ukb_env *env);

/* Adds a warning; silently drops it past UKB_ENV_MAX_WARNINGS. */
void ukb_env_warn(struct ukb_env *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Is @clocksource one the vDSO reads directly? 1 yes, 0 no (time calls
 * fall back to the system call), -1 not known to ukbench.
 */
int ukb_clocksource_vdso_capable(const char *clocksource);

#endif
