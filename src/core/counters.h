/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * counters.h - perf_event_open counters, by the names perf uses.
 *
 * A set of counters is opened as one group on a thread or a process (and,
 * with inherit, its children), kernel side included: the kernel's share is
 * the point of measuring system calls. Each counter is read with its
 * enabled and running times and scaled when the PMU multiplexed it. A
 * counter the machine cannot give keeps the reason exactly as the machine
 * answered: not supported (ENOENT, EOPNOTSUPP), not permitted (EACCES,
 * EPERM, with perf_event_paranoid), or not counted (multiplexed to zero).
 * No figure is ever invented.
 */
#ifndef UKB_CORE_COUNTERS_H
#define UKB_CORE_COUNTERS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define UKB_MAX_COUNTERS 16

enum ukb_counter_status {
	UKB_CTR_OK,
	UKB_CTR_NOT_SUPPORTED,
	UKB_CTR_NOT_PERMITTED,
	UKB_CTR_NOT_COUNTED,
	UKB_CTR_ERROR,
};

/* modifiers: count in user space only (:u), in the kernel only (:k) */
enum { UKB_EXCL_KERNEL = 1, UKB_EXCL_USER = 2 };

struct ukb_event {
	char name[48]; /* as given, modifiers included: "cycles:u" */
	uint32_t type;
	uint64_t config, config1;
	unsigned exclude; /* UKB_EXCL_* */
};

/* A reading: the raw count and the times the counter was enabled and ran. */
struct ukb_reading {
	uint64_t value, enabled, running;
};

struct ukb_counters {
	unsigned n;
	struct ukb_event ev[UKB_MAX_COUNTERS];
	int fd[UKB_MAX_COUNTERS];
	enum ukb_counter_status status[UKB_MAX_COUNTERS];
	char reason[UKB_MAX_COUNTERS][128];
};

/*
 * @e spelled so that ukb_events_parse() reads it back without looking the
 * name up: "NAME=TYPE/CONFIG/CONFIG1" (hexadecimal), modifiers kept in
 * the name. How a plan hands resolved events to its processes. 0 or -1.
 */
int ukb_event_spec(const struct ukb_event *e, char *buf, size_t len);

/*
 * Parses a comma list of perf event names ("cycles,instructions:u,
 * context-switches,r01c2", or the spelling of ukb_event_spec()) into @ev;
 * ":u" counts user space only, ":k" the kernel only. Returns the count,
 * -ENOENT with the unknown name in @why (the caller may know more names),
 * or -EINVAL.
 */
int ukb_events_parse(const char *list, struct ukb_event *ev, unsigned max, char *why, size_t len);

/* The names ukb_events_parse() knows, for messages: "cycles, instructions, ...". */
void ukb_events_known(char *buf, size_t len);

/* The default set: task-clock, context switches, migrations, page faults,
 * cycles, instructions, branches, branch misses, cache misses. */
int ukb_events_default(struct ukb_event *ev, unsigned max);

/*
 * Opens @n events on @pid (0: the calling thread), as one group, counting
 * user and kernel, inherited by children when @inherit, enabled at exec
 * when @on_exec (else enabled at once). Counters that cannot open keep
 * their reason; the others count. Never fails as a whole.
 */
void ukb_counters_open(struct ukb_counters *c, const struct ukb_event *ev, unsigned n, pid_t pid,
		       int inherit, int on_exec);
void ukb_counters_close(struct ukb_counters *c);

/* Reads every open counter into @r (zeroes for the others). */
void ukb_counters_read(const struct ukb_counters *c, struct ukb_reading *r);

/*
 * The count between two readings, scaled by enabled/running when the
 * counter was multiplexed. Returns 0 and the value in *@out, or -1 when
 * the counter did not run at all in that interval (not counted).
 */
int ukb_counter_delta(const struct ukb_reading *a, const struct ukb_reading *b, double *out);

const char *ukb_counter_status_name(enum ukb_counter_status s);

#endif
