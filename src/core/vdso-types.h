/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vdso-types.h - the C types of the vDSO's functions and of their results.
 *
 * The vDSO and the raw system calls speak the kernel's ABI, not the C
 * library's: on 32-bit architectures glibc's struct timespec may carry a
 * 64-bit time_t (_TIME_BITS=64) while __vdso_clock_gettime fills the old
 * one of two longs. The results are written into a buffer large enough for
 * either and are not read by the timing loops.
 */
#ifndef UKB_CORE_VDSO_TYPES_H
#define UKB_CORE_VDSO_TYPES_H

#include <stdint.h>

/* Big enough and aligned for any kernel timespec, timeval or timezone. */
struct ukb_kbuf {
	int64_t word[4];
};

/* The kernel's old (native long) time types, as the vDSO fills them. */
struct ukb_old_timespec {
	long tv_sec;
	long tv_nsec;
};

struct ukb_old_timeval {
	long tv_sec;
	long tv_usec;
};

typedef int (*ukb_vdso_clock_gettime_t)(int clk, void *ts);
typedef int (*ukb_vdso_clock_getres_t)(int clk, void *ts);
typedef int (*ukb_vdso_gettimeofday_t)(void *tv, void *tz);
typedef long (*ukb_vdso_time_t)(long *t);
typedef long (*ukb_vdso_getcpu_t)(unsigned *cpu, unsigned *node, void *cache);

#endif
