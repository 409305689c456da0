/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.h - the samples of a measured loop attributed: to the vDSO's
 * symbols and to instructions within them (an annotated disassembly, as
 * perf annotate shows it), to the kernel (its symbols where /proc/kallsyms
 * gives addresses, else one bucket), and to the mappings of this process
 * (ukbench itself, the C library).
 */
#ifndef UKB_INSPECT_PROFILE_H
#define UKB_INSPECT_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include "sampler.h"

struct prof_where {
	char name[160]; /* "[vdso] __vdso_clock_gettime", "[kernel] do_syscall_64", "ukbench" */
	unsigned long n;
};

struct prof_ip {
	uint64_t va; /* link-time address in the vDSO image */
	unsigned long n;
};

struct profile {
	char event[32];
	unsigned freq;
	int kernel_sampled;
	unsigned long total, lost;
	struct prof_where *where; /* most samples first */
	size_t nwhere;
	struct prof_ip *vdso; /* vDSO instructions sampled, by address */
	size_t nvdso;
};

/* Attributes the samples of @s. 0, or -ENOMEM. */
int profile_build(const struct ukb_sampler *s, struct profile *p);

void profile_release(struct profile *p);

/*
 * The shares to @f (at most @top places), then an annotated disassembly of
 * each vDSO function sampled.
 */
void profile_print(FILE *f, const struct profile *p, size_t top);

#endif
