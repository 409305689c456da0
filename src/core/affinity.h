/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * affinity.h - pinning the measuring thread to one CPU.
 */
#ifndef UKB_CORE_AFFINITY_H
#define UKB_CORE_AFFINITY_H

/* Pins the calling thread to @cpu. 0, -EINVAL (no such CPU or not allowed). */
int ukb_pin_cpu(unsigned cpu);

#endif
