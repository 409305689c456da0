/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lab-code.h - code made at run time, for the labs (lab.align's copies of
 * a loop, lab.calls' patched call sites and trampolines).
 *
 * The code is written into memory mapped readable and writable, then the
 * mapping is made readable and executable, and no longer writable: never
 * writable and executable at once (W^X), as hardened kernels, SELinux's
 * execmem rule and seccomp filters demand. Where a policy refuses the
 * change to executable, the lab says so and why, and measures nothing.
 */
#ifndef UKB_BENCH_LAB_CODE_H
#define UKB_BENCH_LAB_CODE_H

#include <stddef.h>

#define LAB_CODE_ENTRIES 8

struct lab_code {
	unsigned char *base; /* page aligned */
	size_t len;
	int sealed;
	/* powerpc64 ELFv1: a function pointer is a descriptor, one an entry */
	void *desc[LAB_CODE_ENTRIES][3];
	unsigned ndesc;
};

/* Maps @len bytes, writable: 0, or -errno with the reason in @why. */
int lab_code_map(struct lab_code *c, size_t len, char *why, size_t whylen);

/*
 * Makes the mapping executable and read-only, and the instruction cache
 * see what was written: 0, or -errno with the reason (a policy that
 * refuses executable memory) in @why.
 */
int lab_code_seal(struct lab_code *c, char *why, size_t whylen);

/* A pointer to call the code at @at by (a descriptor where the ABI has them). */
void *lab_code_entry(struct lab_code *c, void *at);

void lab_code_unmap(struct lab_code *c);

#endif
