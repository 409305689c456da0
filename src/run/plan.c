// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plan.c - a plan to and from an argument vector (see plan.h). Libc only.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json-write.h"
#include "plan.h"
#include "strnum.h"

struct argv_buf {
	char **v;
	size_t n, cap;
	int err;
};

static void add(struct argv_buf *a, char *s)
{
	if (!s || a->err) {
		a->err = 1;
		free(s);
		return;
	}
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 32;
		char **v = realloc(a->v, cap * sizeof(*v));

		if (!v) {
			a->err = 1;
			free(s);
			return;
		}
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

static char *kv(const char *key, const char *val)
{
	size_t len = strlen(key) + strlen(val) + 2;
	char *s = malloc(len);

	if (s)
		snprintf(s, len, "%s=%s", key, val);
	return s;
}

static char *kv_num(const char *key, double v)
{
	char buf[40];

	jw_format_double(buf, sizeof(buf), v);
	return kv(key, buf);
}

static char *kv_uint(const char *key, unsigned long v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lu", v);
	return kv(key, buf);
}

double plan_default_budget(size_t n)
{
	double b = n ? PLAN_RUN_SECONDS / (double)n : PLAN_PATH_MAX_S;

	return b < PLAN_PATH_MIN_S ? PLAN_PATH_MIN_S : b > PLAN_PATH_MAX_S ? PLAN_PATH_MAX_S : b;
}

void plan_choose_processes(struct run_plan *p, int min_given)
{
	p->procs = 0;
	p->m.warmup_s = p->m.warmup_s / 20 > 0.002 ? p->m.warmup_s / 20 : 0.002;
	if (!min_given)
		p->m.min_samples = 3;
}

char **plan_argv(const struct run_plan *p, const char *const *prefix, size_t nprefix)
{
	struct argv_buf a = { 0 };
	/* 16 events of at most 47 characters and three 64-bit codes fit */
	char list[16 * 96];
	size_t o;

	for (size_t i = 0; i < nprefix; i++)
		add(&a, strdup(prefix[i]));
	add(&a, kv_num("precision", p->m.precision));
	add(&a, kv_num("budget", p->m.budget_s));
	add(&a, kv_num("min_time", p->m.min_time_s));
	add(&a, kv_num("warmup", p->m.warmup_s));
	if (p->m.limit_s > 0)
		add(&a, kv_num("limit", p->m.limit_s));
	if (p->seed)
		add(&a, kv_uint("seed", p->seed));
	add(&a, kv_uint("min_samples", p->m.min_samples));
	add(&a, kv_uint("max_samples", p->m.max_samples));
	add(&a, kv_num("batch_ns", p->m.batch_ns));
	if (p->m.cpu != UKB_CPU_ANY)
		add(&a, kv_uint("cpu", p->m.cpu));
	if (p->m.nevents) {
		list[0] = 0;
		o = 0;
		/* resolved here, so a process needs no name table (nor libpfm) */
		for (unsigned i = 0; i < p->m.nevents && o < sizeof(list); i++) {
			char spec[96];

			ukb_event_spec(&p->m.events[i], spec, sizeof(spec));
			o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? "," : "",
					      spec);
		}
		add(&a, kv("events", list));
	}
	if (p->plugins)
		add(&a, kv("plugins", p->plugins));
	if (p->sel.params)
		add(&a, kv("params", p->sel.params));
	if (p->sel.scan)
		add(&a, kv("scan", p->sel.scan));
	if (p->sel.flags)
		add(&a, kv("flags", p->sel.flags));
	if (p->sel.threads)
		add(&a, kv_uint("threads", p->sel.threads));
	if (p->sel.sizes) {
		list[0] = 0;
		o = 0;
		for (const long *s = p->sel.sizes; *s && o < sizeof(list); s++)
			o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%ld",
					      s == p->sel.sizes ? "" : ",", *s);
		add(&a, kv("sizes", list));
	}
	for (size_t i = 0; i < p->ncases; i++) {
		char spec[192];

		snprintf(spec, sizeof(spec), "%s/%s", p->cases[i].name, p->cases[i].path->name);
		add(&a, kv("case", spec));
	}
	if (a.err) {
		plan_argv_free(a.v);
		return NULL;
	}
	return a.v;
}

void plan_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

static int bad(char *err, size_t len, const char *item)
{
	snprintf(err, len, "bad plan item '%.100s'", item);
	return -1;
}

int plan_parse(int argc, char **argv, struct run_plan *p, const char ***specs, size_t *nspecs,
	       long **sizes, char *err, size_t errlen)
{
	unsigned long u;
	double d;

	memset(p, 0, sizeof(*p));
	ukb_measure_opts_init(&p->m);
	*specs = calloc((size_t)argc + 1, sizeof(**specs));
	*nspecs = 0;
	*sizes = NULL;
	if (!*specs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < argc; i++) {
		char *a = argv[i], *eq = strchr(a, '='), *v;

		if (!eq)
			return bad(err, errlen, a);
		v = eq + 1;
#define KEY(k) (eq - a == (long)strlen(k) && !strncmp(a, k, strlen(k)))
		if (KEY("precision") && !ukb_strtonum(v, 1e-6, 1, &d))
			p->m.precision = d;
		else if (KEY("budget") && !ukb_strtonum(v, 1e-6, 86400, &d))
			p->m.budget_s = d;
		else if (KEY("warmup") && !ukb_strtonum(v, 0, 3600, &d))
			p->m.warmup_s = d;
		else if (KEY("limit") && !ukb_strtonum(v, 0.001, 1e6, &d))
			p->m.limit_s = d;
		else if (KEY("min_time") && !ukb_strtonum(v, 0, 86400, &d))
			p->m.min_time_s = d;
		else if (KEY("seed") && !ukb_strtouint(v, (unsigned long)-1, &u))
			p->seed = u;
		else if (KEY("batch_ns") && !ukb_strtonum(v, 0, 1e12, &d))
			p->m.batch_ns = d;
		else if (KEY("min_samples") && !ukb_strtouint(v, 100000000, &u) && u >= 2)
			p->m.min_samples = (unsigned)u;
		else if (KEY("max_samples") && !ukb_strtouint(v, 100000000, &u) && u >= 2)
			p->m.max_samples = (unsigned)u;
		else if (KEY("cpu") && !ukb_strtouint(v, 65535, &u))
			p->m.cpu = (unsigned)u;
		else if (KEY("threads") && !ukb_strtouint(v, 4096, &u) && u >= 1)
			p->sel.threads = (unsigned)u;
		else if (KEY("params"))
			p->sel.params = v;
		else if (KEY("plugins"))
			p->plugins = v; /* loaded by the worker's program, where it can */
		else if (KEY("scan"))
			p->sel.scan = v;
		else if (KEY("flags"))
			p->sel.flags = v;
		else if (KEY("case") && strchr(v, '/'))
			(*specs)[(*nspecs)++] = v;
		else if (KEY("events")) {
			char why[256];
			int n = ukb_events_parse(v, p->events, UKB_MAX_COUNTERS, why, sizeof(why));

			if (n < 0) {
				snprintf(err, errlen, "%s", why);
				return -1;
			}
			p->m.nevents = (unsigned)n;
			p->m.events = p->events;
		} else if (KEY("sizes")) {
			struct ukb_err e;

			free(*sizes);
			*sizes = NULL;
			if (parse_size_list("sizes", v, sizes, &e)) {
				snprintf(err, errlen, "%s", e.msg);
				return -1;
			}
			p->sel.sizes = *sizes;
		} else
			return bad(err, errlen, a);
#undef KEY
	}
	if (p->m.min_samples > p->m.max_samples)
		return bad(err, errlen, "min_samples");
	return 0;
}
