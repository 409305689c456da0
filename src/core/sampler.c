// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sampler.c - PERF_SAMPLE_IP samples of the calling thread through
 * perf_event_open's ring buffer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sampler.h"

#define DATA_PAGES 64 /* a power of two */

static int open_one(uint32_t type, uint64_t config, unsigned freq, int exclude_kernel)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.freq = 1;
	a.sample_freq = freq;
	a.sample_type = PERF_SAMPLE_IP;
	a.disabled = 1;
	a.exclude_kernel = (unsigned)exclude_kernel;
	a.exclude_hv = 1;
	a.wakeup_events = 0;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

int ukb_sampler_open(struct ukb_sampler *s, unsigned freq, char *why, size_t len)
{
	static const struct {
		const char *name;
		uint32_t type;
		uint64_t config;
	} events[] = {
		{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
		{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	};
	long page = sysconf(_SC_PAGESIZE);
	int err = ENOENT;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->freq = freq;
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]) && s->fd < 0; i++) {
		/* with the kernel first, then without it where paranoid forbids */
		for (int excl = 0; excl < 2 && s->fd < 0; excl++) {
			s->fd = open_one(events[i].type, events[i].config, freq, excl);
			if (s->fd >= 0) {
				snprintf(s->event, sizeof(s->event), "%s", events[i].name);
				s->kernel = !excl;
			} else if (errno != EACCES && errno != EPERM) {
				err = errno;
				break;
			} else {
				err = errno;
			}
		}
	}
	if (s->fd < 0) {
		snprintf(why, len, "sampling is %s: perf_event_open: %s",
			 err == EACCES || err == EPERM ? "not permitted" : "not supported",
			 strerror(err));
		return -err;
	}
	s->ring_len = (size_t)page * (1 + DATA_PAGES);
	s->ring = mmap(NULL, s->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (s->ring == MAP_FAILED) {
		err = errno;
		snprintf(why, len, "cannot map the sample buffer: %s", strerror(err));
		close(s->fd);
		s->fd = -1;
		s->ring = NULL;
		return -err;
	}
	return 0;
}

void ukb_sampler_enable(struct ukb_sampler *s)
{
	if (s->fd >= 0)
		ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0);
}

static void push(struct ukb_sampler *s, uint64_t ip, int kernel)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 4096;
		struct ukb_sample *p = realloc(s->s, cap * sizeof(*p));

		if (!p) {
			s->oom = 1;
			return;
		}
		s->s = p;
		s->cap = cap;
	}
	s->s[s->n].ip = ip;
	s->s[s->n].kernel = kernel;
	s->n++;
}

void ukb_sampler_drain(struct ukb_sampler *s)
{
	struct perf_event_mmap_page *h = s->ring;
	unsigned char *data;
	uint64_t head, tail, size;

	if (!h)
		return;
	data = (unsigned char *)h + h->data_offset;
	size = h->data_size;
	/*
	 * As perf reads it: the head, then a barrier before the data (a
	 * 64-bit atomic would need libatomic on 32-bit machines).
	 */
	head = *(volatile __typeof__(h->data_head) *)&h->data_head;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	tail = h->data_tail;
	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header eh;
		unsigned char rec[64];

		/* a record may wrap around the end of the buffer: copy it out */
		for (size_t i = 0; i < sizeof(eh); i++)
			((unsigned char *)&eh)[i] = data[(tail + i) % size];
		if (eh.size < sizeof(eh) || tail + eh.size > head)
			break;
		for (size_t i = 0; i < eh.size && i < sizeof(rec); i++)
			rec[i] = data[(tail + i) % size];
		if (eh.type == PERF_RECORD_SAMPLE && eh.size >= sizeof(eh) + 8) {
			uint64_t ip;

			memcpy(&ip, rec + sizeof(eh), sizeof(ip));
			push(s, ip,
			     (eh.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL);
		} else if (eh.type == PERF_RECORD_LOST && eh.size >= sizeof(eh) + 16) {
			uint64_t lost;

			memcpy(&lost, rec + sizeof(eh) + 8, sizeof(lost));
			s->lost += lost;
		}
		tail += eh.size;
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
	*(volatile __typeof__(h->data_tail) *)&h->data_tail = tail;
}

void ukb_sampler_disable(struct ukb_sampler *s)
{
	if (s->fd >= 0)
		ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0);
	ukb_sampler_drain(s);
}

void ukb_sampler_close(struct ukb_sampler *s)
{
	if (s->ring)
		munmap(s->ring, s->ring_len);
	if (s->fd >= 0)
		close(s->fd);
	free(s->s);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}
