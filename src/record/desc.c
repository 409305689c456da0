// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * desc.c - a run's environment and settings read once into typed members.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desc.h"
#include "jv.h"
#include "reference.h"

struct rec_desc {
	struct jv *env_doc, *set_doc; /* the strings below point into these */
	struct rec_env env;
	struct rec_settings set;
};

static void desc_release(struct rec_desc *d)
{
	jv_free(d->env_doc);
	jv_free(d->set_doc);
	free(d->env.warnings);
	free(d->set.plugins);
	free(d);
}

static const char *str_of(const struct jv *o, const char *key)
{
	return jv_str(jv_get(o, key));
}

static void read_env(struct rec_desc *d, const char *text)
{
	struct rec_env *e = &d->env;
	struct jv *o = text ? jv_parse(text) : NULL, *l, *w;

	*e = (struct rec_env){ .load = { NAN, NAN, NAN } };
	if (!jv_is(o, JV_OBJECT)) {
		jv_free(o);
		return;
	}
	d->env_doc = o;
	e->recorded = 1;
	e->machine = str_of(o, "machine");
	e->cpu_model = str_of(o, "cpu_model");
	e->clocksource = str_of(o, "clocksource");
	e->libc = str_of(o, "libc");
	e->virtualization = str_of(o, "virtualization");
	e->governor = str_of(o, "governor");
	e->kernel_version = str_of(o, "kernel_version");
	e->boot_id = str_of(o, "boot_id");
	e->online_cpus = jv_int(jv_get(o, "online_cpus"), 0);
	l = jv_get(o, "loadavg");
	for (size_t i = 0; jv_is(l, JV_ARRAY) && i < jv_len(l) && i < 3; i++)
		e->load[e->nload++] = jv_num(jv_at(l, i), 0);
	w = jv_get(o, "warnings");
	if (jv_is(w, JV_ARRAY) && jv_len(w) && (e->warnings = calloc(jv_len(w), sizeof(char *))))
		for (size_t i = 0; i < jv_len(w); i++)
			if (jv_str(jv_at(w, i)))
				e->warnings[e->nwarnings++] = jv_str(jv_at(w, i));
}

static void read_settings(struct rec_desc *d, const char *text)
{
	struct rec_settings *s = &d->set;
	struct jv *o = text ? jv_parse(text) : NULL, *p;

	*s = (struct rec_settings){ .precision = NAN, .budget_s = NAN, .cpu = -1 };
	if (!jv_is(o, JV_OBJECT)) {
		jv_free(o);
		return;
	}
	d->set_doc = o;
	s->precision = jv_num(jv_get(o, "precision"), NAN);
	s->budget_s = jv_num(jv_get(o, "budget_s"), NAN);
	s->cpu = jv_int(jv_get(o, "cpu"), -1);
	s->reference = str_of(o, "reference");
	s->command = str_of(o, "command");
	s->repeat = jv_int(jv_get(o, "repeat"), 0);
	s->vm_image = str_of(jv_get(o, "vm"), "image");
	p = jv_get(o, "plugins");
	if (jv_is(p, JV_ARRAY) && jv_len(p) &&
	    (s->plugins = calloc(jv_len(p), sizeof(*s->plugins))))
		for (size_t i = 0; i < jv_len(p); i++) {
			const char *path = str_of(jv_at(p, i), "path");

			if (path)
				s->plugins[s->nplugins++] = (struct rec_plugin){
					.path = path, .build_id = str_of(jv_at(p, i), "build_id")
				};
		}
}

/*
 * The descriptions of @run, read on first use. The cache is not part of
 * the run's value, so a const run may fill it; NULL on ENOMEM.
 */
static struct rec_desc *desc_of(const struct rec_run *run)
{
	struct rec_run *r = (struct rec_run *)run;

	if (!r->desc) {
		struct rec_desc *d = calloc(1, sizeof(*d));

		if (!d)
			return NULL;
		read_env(d, run->environment);
		read_settings(d, run->settings);
		rec_desc_release = desc_release;
		r->desc = d;
	}
	return r->desc;
}

const struct rec_env *rec_env(const struct rec_run *run)
{
	static const struct rec_env none = { .load = { NAN, NAN, NAN } };
	struct rec_desc *d = desc_of(run);

	return d ? &d->env : &none;
}

const struct rec_settings *rec_settings(const struct rec_run *run)
{
	static const struct rec_settings none = { .precision = NAN, .budget_s = NAN, .cpu = -1 };
	struct rec_desc *d = desc_of(run);

	return d ? &d->set : &none;
}

int rec_settings_put(struct rec_run *run, const char *key, const char *json)
{
	struct jv *s = jv_parse(run->settings ? run->settings : "{}");
	struct jv *v = jv_parse(json);
	char *text = NULL;

	if (!jv_is(s, JV_OBJECT)) {
		jv_free(s);
		s = jv_object();
	}
	if (!s || !v) {
		jv_free(s);
		jv_free(v);
		return -1;
	}
	/* the object takes @v, even when it fails */
	if (!jv_set(s, key, v))
		text = jv_text(s, 0);
	jv_free(s);
	if (!text)
		return -1;
	free(run->settings);
	run->settings = text;
	if (run->desc) {
		desc_release(run->desc);
		run->desc = NULL;
	}
	return 0;
}

struct flat {
	void (*fn)(void *ctx, const char *key, const char *value);
	void *ctx;
	int flags, nomem;
};

/* An array's items as text, joined by "; "; NULL on ENOMEM. */
static char *joined(const struct jv *a)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int bad = !m;

	for (size_t i = 0; m && i < jv_len(a); i++) {
		/* a scalar as text: strings as they are, the rest as JSON */
		char *s = jv_text(jv_at(a, i), 1);

		bad |= !s;
		fprintf(m, "%s%s", i ? "; " : "", s ? s : "");
		free(s);
	}
	/* glibc's fclose says 0 when its last realloc failed: no text */
	if ((m && fclose(m)) || !text || bad) {
		free(text);
		return NULL;
	}
	return text;
}

static void flat_value(struct flat *f, const char *key, const struct jv *v, int depth)
{
	char *text;

	if (jv_is(v, JV_OBJECT) && (depth <= 1 || (f->flags & REC_FLAT_DEEP))) {
		void *it = NULL;
		struct jv *m;
		const char *k;
		char sub[512];

		while ((k = jv_next(v, &it, &m))) {
			if ((f->flags & REC_FLAT_NO_SCHEMA) &&
			    (!strcmp(k, "schema") || !strcmp(k, "schema_version")))
				continue;
			snprintf(sub, sizeof(sub), "%s%s%s", key ? key : "", key ? "." : "", k);
			flat_value(f, sub, m, depth + 1);
		}
		return;
	}
	if (!v && !(f->flags & REC_FLAT_DEEP)) {
		f->fn(f->ctx, key, NULL);
		return;
	}
	if (jv_is(v, JV_ARRAY) && (depth <= 1 || (f->flags & REC_FLAT_DEEP)))
		text = joined(v);
	else
		text = jv_text(v, 1);
	if (!text) {
		f->nomem = 1;
		return;
	}
	f->fn(f->ctx, key, text);
	free(text);
}

int rec_flatten(const char *json, const char *prefix, int flags,
		void (*fn)(void *ctx, const char *key, const char *value), void *ctx)
{
	struct jv *o = json ? jv_parse(json) : NULL;
	struct flat f = { fn, ctx, flags, 0 };

	if (!jv_is(o, JV_OBJECT)) {
		jv_free(o);
		return 0;
	}
	flat_value(&f, prefix && prefix[0] ? prefix : NULL, o, 0);
	jv_free(o);
	return f.nomem ? -1 : 0;
}

const char *rec_ref_kind(const struct rec_run *run)
{
	const char *k = rec_settings(run)->reference;

	return k ? k : UKB_REF_KIND_BEFORE;
}

int rec_same_ref(const struct rec_run *a, const struct rec_run *b)
{
	return !strcmp(rec_ref_kind(a), rec_ref_kind(b));
}
