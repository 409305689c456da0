// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * envdiff.c - two runs' descriptions flattened to lines and paired.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desc.h"
#include "envdiff.h"

/* A side: flattened members, in the order of its JSON. */
struct flat {
	char **key, **val;
	size_t n;
	int nomem;
};

/* The members shown first, in this order, with the names they are shown by. */
static const struct {
	const char *key, *name;
} first[] = {
	{ "env.kernel_release", "kernel release" },
	{ "env.kernel_version", "kernel build" },
	{ "env.cmdline", "kernel command line" },
	{ "env.vulnerabilities.", "mitigation: " }, /* every member */
	{ "env.clocksource", "clocksource" },
	{ "env.clocksources_available", "clocksources available" },
	{ "env.governor", "cpufreq governor" },
	{ "env.turbo", "turbo" },
	{ "env.smt", "SMT" },
	{ "env.cpu_model", "CPU" },
	{ "env.online_cpus", "CPUs online" },
	{ "env.machine", "architecture" },
	{ "env.virtualization", "virtualization" },
	{ "env.libc", "C library" },
	{ "env.compiler", "compiler" },
	{ "env.ukbench_version", "ukbench version" },
	{ "env.hostname", "host" },
	{ "env.boot_id", "boot" },
	{ "env.perf_event_paranoid", "perf_event_paranoid" },
	{ "env.loadavg", "load average (1, 5, 15 min)" },
};

static void add(struct flat *fl, const char *key, const char *val)
{
	char **k = realloc(fl->key, (fl->n + 1) * sizeof(*k)), **v;

	if (k)
		fl->key = k;
	v = k ? realloc(fl->val, (fl->n + 1) * sizeof(*v)) : NULL;
	if (v)
		fl->val = v;
	if (!k || !v) {
		fl->nomem = 1;
		return;
	}
	fl->key[fl->n] = strdup(key);
	fl->val[fl->n] = strdup(val);
	if (!fl->key[fl->n] || !fl->val[fl->n]) {
		free(fl->key[fl->n]);
		free(fl->val[fl->n]);
		fl->nomem = 1;
		return;
	}
	fl->n++;
}

static void take(void *ctx, const char *key, const char *value)
{
	add(ctx, key, value);
}

static void flatten_text(struct flat *fl, const char *prefix, const char *json)
{
	if (rec_flatten(json, prefix, REC_FLAT_DEEP | REC_FLAT_NO_SCHEMA, take, fl))
		fl->nomem = 1;
}

static const char *lookup(const struct flat *fl, const char *key)
{
	for (size_t i = 0; i < fl->n; i++)
		if (!strcmp(fl->key[i], key))
			return fl->val[i];
	return NULL;
}

static void flat_free(struct flat *fl)
{
	for (size_t i = 0; i < fl->n; i++) {
		free(fl->key[i]);
		free(fl->val[i]);
	}
	free(fl->key);
	free(fl->val);
}

struct out {
	struct env_line *l;
	size_t n;
	const struct flat *a, *b;
	int nomem;
};

static int taken(const struct out *o, const char *key)
{
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->l[i].key, key))
			return 1;
	return 0;
}

/* The name a member is shown by. */
static void display(char *buf, size_t len, const char *key)
{
	static const struct {
		const char *prefix, *name;
	} part[] = { { "settings.", "setting: " },
		     { "clock.", "clock: " },
		     { "vdso.", "vDSO: " },
		     { "env.", "" } };

	for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++) {
		size_t k = strlen(first[i].key);

		if (first[i].key[k - 1] == '.' && !strncmp(key, first[i].key, k)) {
			snprintf(buf, len, "%s%s", first[i].name, key + k);
			return;
		}
		if (!strcmp(key, first[i].key)) {
			snprintf(buf, len, "%s", first[i].name);
			return;
		}
	}
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		if (!strncmp(key, part[i].prefix, strlen(part[i].prefix))) {
			snprintf(buf, len, "%s%s", part[i].name, key + strlen(part[i].prefix));
			return;
		}
	snprintf(buf, len, "%s", key);
}

static void line(struct out *o, const char *key)
{
	const char *a = lookup(o->a, key), *b = lookup(o->b, key);
	struct env_line *l;

	if (taken(o, key))
		return;
	l = realloc(o->l, (o->n + 1) * sizeof(*l));
	if (!l) {
		o->nomem = 1;
		return;
	}
	o->l = l;
	l = &l[o->n];
	memset(l, 0, sizeof(*l));
	/* the key until every line is placed, then its display name */
	l->key = strdup(key);
	l->a = a ? strdup(a) : NULL;
	l->b = b ? strdup(b) : NULL;
	if (!l->key || (a && !l->a) || (b && !l->b)) {
		free(l->key);
		free(l->a);
		free(l->b);
		o->nomem = 1;
		return;
	}
	l->differs = !a || !b || strcmp(a, b);
	/* measured afresh by each run: a difference says nothing of the set-up */
	l->expected = !strcmp(key, "env.loadavg") || !strcmp(key, "clock.read_cost_ns");
	o->n++;
}

/* Each member of either side whose key starts with @prefix, a's order then b's. */
static void lines_under(struct out *o, const char *prefix, int whole)
{
	const struct flat *side[2] = { o->a, o->b };
	size_t k = strlen(prefix);

	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < side[s]->n; i++)
			if (whole ? !strcmp(side[s]->key[i], prefix)
				  : !strncmp(side[s]->key[i], prefix, k))
				line(o, side[s]->key[i]);
}

int envdiff(const struct rec_run *a, const struct rec_run *b, struct env_line **lines, size_t *n)
{
	struct flat fa = { 0 }, fb = { 0 };
	struct out o = { .a = &fa, .b = &fb };
	const struct rec_run *side[2] = { a, b };
	struct flat *fl[2] = { &fa, &fb };

	for (int s = 0; s < 2; s++) {
		flatten_text(fl[s], "env", side[s]->environment);
		flatten_text(fl[s], "settings", side[s]->settings);
		flatten_text(fl[s], "clock", side[s]->clock);
		flatten_text(fl[s], "vdso", side[s]->vdso);
		if (!lookup(fl[s], "env.kernel_release") && side[s]->kernel_release[0])
			add(fl[s], "env.kernel_release", side[s]->kernel_release);
		if (!lookup(fl[s], "env.ukbench_version") && side[s]->ukbench_version[0])
			add(fl[s], "env.ukbench_version", side[s]->ukbench_version);
	}
	for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++) {
		size_t k = strlen(first[i].key);

		lines_under(&o, first[i].key, first[i].key[k - 1] != '.');
	}
	lines_under(&o, "env.", 0);
	lines_under(&o, "settings.", 0);
	lines_under(&o, "clock.", 0);
	lines_under(&o, "vdso.", 0);
	lines_under(&o, "", 0);
	/* the display names, now that every key is placed */
	for (size_t i = 0; i < o.n && !o.nomem; i++) {
		char name[512], *d;

		display(name, sizeof(name), o.l[i].key);
		d = strdup(name);
		if (!d) {
			o.nomem = 1;
			break;
		}
		free(o.l[i].key);
		o.l[i].key = d;
	}
	o.nomem |= fa.nomem | fb.nomem;
	flat_free(&fa);
	flat_free(&fb);
	if (o.nomem) {
		envdiff_free(o.l, o.n);
		return -ENOMEM;
	}
	*lines = o.l;
	*n = o.n;
	return 0;
}

void envdiff_free(struct env_line *lines, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(lines[i].key);
		free(lines[i].a);
		free(lines[i].b);
	}
	free(lines);
}
