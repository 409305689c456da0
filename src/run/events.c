// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * events.c - -e names: the core's, then libpfm4's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "events.h"

#ifdef HAVE_LIBPFM
#include <perfmon/pfmlib_perf_event.h>

static int pfm_ready = -1; /* -1: not tried; else PFM_SUCCESS or the error */

static int pfm_init(void)
{
	if (pfm_ready == -1)
		pfm_ready = pfm_initialize();
	return pfm_ready;
}

/* @name through libpfm4 into @e; 0, or -1 with why. */
static int pfm_event(const char *name, struct ukb_event *e, char *why, size_t len)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	int ret;

	if (pfm_init() != PFM_SUCCESS) {
		snprintf(why, len, "libpfm4 cannot start: %s", pfm_strerror(pfm_ready));
		return -1;
	}
	if (strlen(name) >= sizeof(e->name)) {
		snprintf(why, len, "the name is longer than %zu characters", sizeof(e->name) - 1);
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS) {
		snprintf(why, len, "%s", pfm_strerror(ret));
		return -1;
	}
	memset(e, 0, sizeof(*e));
	memcpy(e->name, name, strlen(name) + 1);
	e->type = attr.type;
	e->config = attr.config;
	e->config1 = attr.config1;
	e->exclude =
	    (attr.exclude_kernel ? UKB_EXCL_KERNEL : 0) | (attr.exclude_user ? UKB_EXCL_USER : 0);
	return 0;
}

const char *events_pmu_info(char *buf, size_t len)
{
	size_t o;
	int i;

	if (pfm_init() != PFM_SUCCESS) {
		snprintf(buf, len, "libpfm4 (not started: %s)", pfm_strerror(pfm_ready));
		return buf;
	}
	o = (size_t)snprintf(buf, len, "libpfm4, PMUs here:");
	pfm_for_all_pmus(i)
	{
		pfm_pmu_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info((pfm_pmu_t)i, &info) == PFM_SUCCESS && info.is_present &&
		    o < len)
			o += (size_t)snprintf(buf + o, len - o, " %s", info.name);
	}
	return buf;
}

#else

static int pfm_event(const char *name, struct ukb_event *e, char *why, size_t len)
{
	(void)name;
	(void)e;
	snprintf(why, len, "built without libpfm4 (libpfm4-dev): only perf's generic names");
	return -1;
}

const char *events_pmu_info(char *buf, size_t len)
{
	snprintf(buf, len, "without libpfm4");
	return buf;
}

#endif

int events_parse(const char *list, struct ukb_event *ev, unsigned max, struct ukb_err *e)
{
	unsigned n = 0;

	e->msg[0] = e->hint[0] = 0;
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		char tok[160], why[256];
		int r;

		if (!l || l >= sizeof(tok)) {
			snprintf(e->msg, sizeof(e->msg), "bad event name '%.*s'", (int)(l % 200),
				 p);
			return -1;
		}
		if (n == max) {
			snprintf(e->msg, sizeof(e->msg), "at most %u events", max);
			return -1;
		}
		memcpy(tok, p, l);
		tok[l] = 0;
		r = ukb_events_parse(tok, &ev[n], 1, why, sizeof(why));
		if (r == -ENOENT) {
			char pwhy[256], pmus[512], known[512];

			if (pfm_event(tok, &ev[n], pwhy, sizeof(pwhy))) {
				ukb_events_known(known, sizeof(known));
				snprintf(
				    e->msg, sizeof(e->msg),
				    "unknown event '%s': not one of perf's generic names, and not "
				    "an event of this machine's PMU (%.120s: %.120s)",
				    tok, events_pmu_info(pmus, sizeof(pmus)), pwhy);
				snprintf(e->hint, sizeof(e->hint), "generic names: %.480s", known);
				return -1;
			}
			r = 1;
		}
		if (r < 0) {
			snprintf(e->msg, sizeof(e->msg), "%s", why);
			return -1;
		}
		n++;
		p += l + (p[l] == ',');
	}
	return (int)n;
}
