// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counters.c - perf_event_open(2) without libpfm: the generic hardware and
 * software events under perf's names, and raw rNNNN codes.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters.h"

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
};

static const char *const default_events[] = {
	"task-clock",	"context-switches", "cpu-migrations", "page-faults",  "cycles",
	"instructions", "branches",	    "branch-misses",  "cache-misses",
};

/* ":u", ":k", ":uk", ":ku" at the end of @name: cut off, as exclude bits */
static int modifiers(char *name, unsigned *exclude)
{
	char *colon = strrchr(name, ':');
	int u = 0, k = 0;

	*exclude = 0;
	if (!colon || !colon[1] || strspn(colon + 1, "uk") != strlen(colon + 1))
		return 0;
	u = strchr(colon + 1, 'u') != NULL;
	k = strchr(colon + 1, 'k') != NULL;
	*colon = 0;
	if (u && !k)
		*exclude = UKB_EXCL_KERNEL;
	else if (k && !u)
		*exclude = UKB_EXCL_USER;
	return 1;
}

/* "TYPE/CONFIG/CONFIG1" in hexadecimal, all of it; 0 or -1 */
static int numeric(const char *s, struct ukb_event *e)
{
	unsigned long long v[3];
	char *end;

	for (int i = 0; i < 3; i++) {
		if (!strchr("0123456789abcdefABCDEF", *s) || !*s)
			return -1;
		v[i] = strtoull(s, &end, 16);
		if (*end != (i < 2 ? '/' : 0))
			return -1;
		s = end + 1;
	}
	if (v[0] > UINT32_MAX)
		return -1;
	e->type = (uint32_t)v[0];
	e->config = v[1];
	e->config1 = v[2];
	return 0;
}

int ukb_event_spec(const struct ukb_event *e, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s=%x/%llx/%llx", e->name, e->type,
			 (unsigned long long)e->config, (unsigned long long)e->config1);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int ukb_events_parse(const char *list, struct ukb_event *ev, unsigned max, char *why, size_t len)
{
	unsigned n = 0;

	for (const char *p = list; *p;) {
		size_t tok = strcspn(p, ","), l = tok, i;
		char name[128], *eq;

		if (!l || l >= sizeof(name)) {
			snprintf(why, len, "bad event name '%.*s'", (int)l, p);
			return -EINVAL;
		}
		if (n == max) {
			snprintf(why, len, "at most %u events", max);
			return -EINVAL;
		}
		memcpy(name, p, l);
		name[l] = 0;
		memset(&ev[n], 0, sizeof(ev[n]));
		eq = strchr(name, '=');
		if (eq)
			*eq = 0;
		if (strlen(name) >= sizeof(ev[n].name)) {
			snprintf(why, len, "event name '%s' is longer than %zu characters", name,
				 sizeof(ev[n].name) - 1);
			return -EINVAL;
		}
		snprintf(ev[n].name, sizeof(ev[n].name), "%s", name);
		modifiers(name, &ev[n].exclude);
		l = strlen(name);
		if (eq) {
			/* the spelling of ukb_event_spec(): any event, already resolved */
			if (numeric(eq + 1, &ev[n])) {
				snprintf(why, len,
					 "bad event code '%s' (TYPE/CONFIG/CONFIG1 in hex)",
					 eq + 1);
				return -EINVAL;
			}
		} else if (name[0] == 'r' && l > 1 &&
			   strspn(name + 1, "0123456789abcdefABCDEF") == l - 1) {
			ev[n].type = PERF_TYPE_RAW;
			ev[n].config = strtoull(name + 1, NULL, 16);
		} else {
			for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
				if (!strcmp(events[i].name, name))
					break;
			if (i == sizeof(events) / sizeof(events[0])) {
				snprintf(why, len, "unknown event '%s'", name);
				return -ENOENT;
			}
			ev[n].type = events[i].type;
			ev[n].config = events[i].config;
		}
		n++;
		p += tok + (p[tok] == ',');
	}
	return (int)n;
}

void ukb_events_known(char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]) && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", events[i].name);
	if (o < len)
		snprintf(buf + o, len - o, ", rNNNN (a raw event code in hex)");
}

int ukb_events_default(struct ukb_event *ev, unsigned max)
{
	char list[256] = "", why[64];
	size_t o = 0;

	for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++)
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? "," : "",
				      default_events[i]);
	return ukb_events_parse(list, ev, max, why, sizeof(why));
}

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = 99;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 99;
		fclose(f);
	}
	return v;
}

static void classify(struct ukb_counters *c, unsigned i, int err)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		c->status[i] = UKB_CTR_NOT_SUPPORTED;
		snprintf(c->reason[i], sizeof(c->reason[i]), "not supported (%s)", strerror(err));
		break;
	case EACCES:
	case EPERM:
		c->status[i] = UKB_CTR_NOT_PERMITTED;
		snprintf(c->reason[i], sizeof(c->reason[i]),
			 "not permitted (perf_event_paranoid is %d; -1 or CAP_PERFMON allows it)",
			 paranoid());
		break;
	default:
		c->status[i] = UKB_CTR_ERROR;
		snprintf(c->reason[i], sizeof(c->reason[i]), "cannot open: %s", strerror(err));
	}
}

static int open_one(const struct ukb_event *e, pid_t pid, int group, int inherit, int on_exec)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = e->type;
	a.config = e->config;
	a.config1 = e->config1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.disabled = group < 0; /* the leader starts the group */
	a.inherit = (unsigned)inherit;
	a.enable_on_exec = (unsigned)(on_exec && group < 0);
	/* the kernel's share is what a system call costs: counted unless :u */
	a.exclude_kernel = !!(e->exclude & UKB_EXCL_KERNEL);
	a.exclude_user = !!(e->exclude & UKB_EXCL_USER);
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, group, PERF_FLAG_FD_CLOEXEC);
}

void ukb_counters_open(struct ukb_counters *c, const struct ukb_event *ev, unsigned n, pid_t pid,
		       int inherit, int on_exec)
{
	int leader = -1;

	memset(c, 0, sizeof(*c));
	c->n = n > UKB_MAX_COUNTERS ? UKB_MAX_COUNTERS : n;
	for (unsigned i = 0; i < c->n; i++) {
		c->ev[i] = ev[i];
		c->fd[i] = open_one(&ev[i], pid, leader, inherit, on_exec);
		/* a member the group refuses may still count on its own */
		if (c->fd[i] < 0 && leader >= 0 && errno == EINVAL)
			c->fd[i] = open_one(&ev[i], pid, -1, inherit, on_exec);
		if (c->fd[i] < 0) {
			classify(c, i, errno);
			continue;
		}
		c->status[i] = UKB_CTR_OK;
		if (leader < 0)
			leader = c->fd[i];
	}
	if (!on_exec)
		for (unsigned i = 0; i < c->n; i++)
			if (c->fd[i] >= 0)
				ioctl(c->fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

void ukb_counters_close(struct ukb_counters *c)
{
	for (unsigned i = 0; i < c->n; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	c->n = 0;
}

void ukb_counters_read(const struct ukb_counters *c, struct ukb_reading *r)
{
	for (unsigned i = 0; i < c->n; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		if (c->fd[i] >= 0 && read(c->fd[i], &r[i], sizeof(r[i])) != (ssize_t)sizeof(r[i]))
			memset(&r[i], 0, sizeof(r[i]));
	}
}

int ukb_counter_delta(const struct ukb_reading *a, const struct ukb_reading *b, double *out)
{
	uint64_t dv = b->value - a->value, de = b->enabled - a->enabled,
		 dr = b->running - a->running;

	if (!dr) {
		*out = 0;
		return de ? -1 : 0;
	}
	*out = (double)dv * (de > dr ? (double)de / (double)dr : 1.0);
	return 0;
}

const char *ukb_counter_status_name(enum ukb_counter_status s)
{
	switch (s) {
	case UKB_CTR_OK:
		return "ok";
	case UKB_CTR_NOT_SUPPORTED:
		return "not supported";
	case UKB_CTR_NOT_PERMITTED:
		return "not permitted";
	case UKB_CTR_NOT_COUNTED:
		return "not counted";
	case UKB_CTR_ERROR:
		return "error";
	}
	return "?";
}
