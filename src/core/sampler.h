/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sampler.h - where a thread spends its time, by sampling: perf_event_open
 * on the calling thread with PERF_SAMPLE_IP, read from its ring buffer.
 * cycles where the machine has a hardware PMU, else cpu-clock (a software
 * event every kernel has); the kernel's share is sampled where
 * perf_event_paranoid allows, else left out and said so.
 */
#ifndef UKB_CORE_SAMPLER_H
#define UKB_CORE_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

struct ukb_sample {
	uint64_t ip;
	int kernel; /* taken in the kernel */
};

struct ukb_sampler {
	int fd;
	void *ring;
	size_t ring_len; /* the header page and the data pages */
	char event[32];	 /* "cycles" or "cpu-clock" */
	unsigned freq;	 /* samples per second asked */
	int kernel;	 /* kernel samples taken (perf_event_paranoid allowed it) */
	struct ukb_sample *s;
	size_t n, cap;
	uint64_t lost; /* samples the kernel could not write (PERF_RECORD_LOST) */
	int oom;
};

/*
 * Opens a sampler on the calling thread, disabled, at @freq samples per
 * second. 0, or -errno with the reason in @why (not permitted, not
 * supported).
 */
int ukb_sampler_open(struct ukb_sampler *s, unsigned freq, char *why, size_t len);

void ukb_sampler_enable(struct ukb_sampler *s);

/* Stops sampling and moves what the ring holds into s->s. */
void ukb_sampler_disable(struct ukb_sampler *s);

/* Moves what the ring holds into s->s; call often enough that it never fills. */
void ukb_sampler_drain(struct ukb_sampler *s);

void ukb_sampler_close(struct ukb_sampler *s);

#endif
