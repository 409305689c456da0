// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jv.c - JSON values read back, through jansson (see jv.h).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json-write.h"
#include "jv.h"

#define J(v) ((json_t *)(v))

/*
 * What JSON reading cannot go on without. jansson would unwind (2.14 frees
 * a table twice when growing it fails), and a half-read description is
 * worse than none: one line, and the store's open transaction is rolled
 * back by SQLite as for any exit.
 */
static void *oom_malloc(size_t n)
{
	void *p = malloc(n);
	char msg[96];
	int len;

	if (p)
		return p;
	len = snprintf(msg, sizeof(msg), "error: out of memory reading JSON (%zu bytes)\n", n);
	/* nothing is left to say it with when this write fails */
	if (write(STDERR_FILENO, msg, (size_t)len) < 0)
		exit(1);
	exit(1);
}

void jv_oom(void)
{
	static int done;

	if (!done) {
		json_set_alloc_funcs(oom_malloc, free);
		done = 1;
	}
}

struct jv *jv_parse(const char *text)
{
	json_error_t err;

	if (!text)
		return NULL;
	jv_oom();
	return (struct jv *)json_loads(text, JSON_DECODE_ANY, &err);
}

struct jv *jv_parse_span(const char *text, size_t len, int whole, size_t *end, struct jv_error *e)
{
	json_error_t err;
	json_t *v;

	jv_oom();
	v = json_loadb(text, len, JSON_DECODE_ANY | (whole ? 0 : JSON_DISABLE_EOF_CHECK), &err);
	memset(e, 0, sizeof(*e));
	if (!v) {
		snprintf(e->text, sizeof(e->text), "%s", err.text);
		e->line = err.line;
		e->column = err.column;
		e->truncated = json_error_code(&err) == json_error_premature_end_of_input;
		e->nomem = json_error_code(&err) == json_error_out_of_memory;
		return NULL;
	}
	if (end)
		*end = (size_t)err.position;
	return (struct jv *)v;
}

void jv_free(struct jv *v)
{
	json_decref(J(v));
}

struct jv *jv_get(const struct jv *o, const char *key)
{
	json_t *v = json_is_object(J(o)) ? json_object_get(J(o), key) : NULL;

	return json_is_null(v) ? NULL : (struct jv *)v;
}

int jv_has(const struct jv *o, const char *key)
{
	return json_is_object(J(o)) && json_object_get(J(o), key);
}

int jv_is(const struct jv *v, enum jv_type type)
{
	json_t *j = J(v);

	switch (type) {
	case JV_NULL:
		return !j || json_is_null(j);
	case JV_BOOL:
		return json_is_boolean(j);
	case JV_INT:
		return json_is_integer(j);
	case JV_REAL:
		return json_is_real(j);
	case JV_NUMBER:
		return json_is_number(j);
	case JV_STRING:
		return json_is_string(j);
	case JV_ARRAY:
		return json_is_array(j);
	case JV_OBJECT:
		return json_is_object(j);
	}
	return 0;
}

const char *jv_str(const struct jv *v)
{
	return json_string_value(J(v));
}

size_t jv_strlen(const struct jv *v)
{
	return json_is_string(J(v)) ? json_string_length(J(v)) : 0;
}

double jv_num(const struct jv *v, double fallback)
{
	return json_is_number(J(v)) ? json_number_value(J(v)) : fallback;
}

long long jv_int(const struct jv *v, long long fallback)
{
	if (json_is_integer(J(v)))
		return json_integer_value(J(v));
	if (json_is_real(J(v))) {
		double d = json_real_value(J(v));

		/* what a long long holds, else the fallback: no undefined cast */
		if (d > -9.2e18 && d < 9.2e18)
			return (long long)d;
	}
	return fallback;
}

int jv_bool(const struct jv *v, int fallback)
{
	return json_is_boolean(J(v)) ? json_is_true(J(v)) : fallback;
}

size_t jv_len(const struct jv *v)
{
	return json_is_array(J(v)) ? json_array_size(J(v)) : 0;
}

struct jv *jv_at(const struct jv *v, size_t i)
{
	json_t *e = json_is_array(J(v)) ? json_array_get(J(v), i) : NULL;

	return json_is_null(e) ? NULL : (struct jv *)e;
}

const char *jv_next(const struct jv *o, void **it, struct jv **val)
{
	if (!json_is_object(J(o)))
		return NULL;
	*it = *it ? json_object_iter_next(J(o), *it) : json_object_iter(J(o));
	if (!*it)
		return NULL;
	*val = (struct jv *)json_object_iter_value(*it);
	if (json_is_null(J(*val)))
		*val = NULL;
	return json_object_iter_key(*it);
}

static void write_value(struct jw *w, const char *key, json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		const char *k;
		json_t *m;

		jw_obj_begin(w, key);
		json_object_foreach(v, k, m) write_value(w, k, m);
		jw_obj_end(w);
		break;
	}
	case JSON_ARRAY: {
		size_t i;
		json_t *e;

		jw_arr_begin(w, key);
		json_array_foreach(v, i, e) write_value(w, NULL, e);
		jw_arr_end(w);
		break;
	}
	case JSON_STRING:
		jw_str(w, key, json_string_value(v));
		break;
	case JSON_INTEGER:
		jw_int(w, key, json_integer_value(v));
		break;
	case JSON_REAL:
		jw_num(w, key, json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		jw_bool(w, key, json_is_true(v));
		break;
	case JSON_NULL:
		jw_null(w, key);
		break;
	}
}

char *jv_text(const struct jv *v, int raw)
{
	struct jw w;
	char *text;

	if (raw && json_is_string(J(v)))
		return strdup(json_string_value(J(v)));
	if (!v)
		return strdup("null");
	jw_init(&w, 0);
	write_value(&w, NULL, J(v));
	if (w.err == -E2BIG) {
		/* deeper than the writer nests: the library's own text */
		jw_release(&w);
		return json_dumps(J(v), JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
	}
	text = jw_finish(&w, NULL);
	return text;
}

struct jv *jv_object(void)
{
	jv_oom();
	return (struct jv *)json_object();
}

int jv_set(struct jv *o, const char *key, struct jv *v)
{
	return json_object_set_new(J(o), key, v ? J(v) : json_null());
}

int jv_del(struct jv *o, const char *key)
{
	return json_object_del(J(o), key) ? -1 : 0;
}
