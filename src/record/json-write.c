// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json-write.c - the libc-only JSON emitter (see json-write.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json-write.h"

void jw_init(struct jw *w, int pretty)
{
	memset(w, 0, sizeof(*w));
	w->pretty = pretty;
}

void jw_release(struct jw *w)
{
	free(w->buf);
	memset(w, 0, sizeof(*w));
}

static void put(struct jw *w, const char *s, size_t n)
{
	if (w->err)
		return;
	if (!w->buf || w->len + n + 2 > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		char *b;

		while (w->len + n + 2 > cap)
			cap *= 2;
		b = realloc(w->buf, cap);
		if (!b) {
			w->err = -ENOMEM;
			return;
		}
		w->buf = b;
		w->cap = cap;
	}
	if (n)
		memcpy(w->buf + w->len, s, n);
	w->len += n;
	w->buf[w->len] = 0;
}

static void puts_(struct jw *w, const char *s)
{
	put(w, s, strlen(s));
}

static void newline(struct jw *w, int depth)
{
	if (!w->pretty)
		return;
	put(w, "\n", 1);
	for (int i = 0; i < depth; i++)
		put(w, "  ", 2);
}

static void string(struct jw *w, const char *s)
{
	char esc[8];

	put(w, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		const unsigned char *run = p;

		while (*p >= 0x20 && *p != '"' && *p != '\\')
			p++;
		put(w, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		switch (*p) {
		case '"':
			puts_(w, "\\\"");
			break;
		case '\\':
			puts_(w, "\\\\");
			break;
		case '\n':
			puts_(w, "\\n");
			break;
		case '\t':
			puts_(w, "\\t");
			break;
		case '\r':
			puts_(w, "\\r");
			break;
		default:
			snprintf(esc, sizeof(esc), "\\u%04x", *p);
			puts_(w, esc);
		}
	}
	put(w, "\"", 1);
}

/* The separator, indentation and key before a member. */
static void member(struct jw *w, const char *key)
{
	int d = w->depth;

	if (d > 0 && w->count[d - 1]) {
		put(w, ",", 1);
		if (w->inline_[d - 1] && w->pretty)
			put(w, " ", 1);
	}
	if (d > 0 && w->count[d - 1] < 255)
		w->count[d - 1]++;
	if (d > 0 && !w->inline_[d - 1])
		newline(w, d);
	if (key) {
		string(w, key);
		puts_(w, w->pretty ? ": " : ":");
	}
}

static void open_(struct jw *w, const char *key, const char *brace, int inline_)
{
	member(w, key);
	put(w, brace, 1);
	if (w->depth >= JW_MAX_DEPTH) {
		w->err = -E2BIG;
		return;
	}
	w->count[w->depth] = 0;
	w->inline_[w->depth] = (unsigned char)inline_;
	w->depth++;
}

static void close_(struct jw *w, const char *brace)
{
	if (w->depth <= 0)
		return;
	w->depth--;
	if (w->count[w->depth] && !w->inline_[w->depth])
		newline(w, w->depth);
	put(w, brace, 1);
}

void jw_obj_begin(struct jw *w, const char *key)
{
	open_(w, key, "{", 0);
}

void jw_obj_end(struct jw *w)
{
	close_(w, "}");
}

/* Arrays are written on one line: ukbench's arrays are of figures. */
void jw_arr_begin(struct jw *w, const char *key)
{
	open_(w, key, "[", 1);
}

void jw_arr_end(struct jw *w)
{
	close_(w, "]");
}

void jw_list_begin(struct jw *w, const char *key)
{
	open_(w, key, "[", 0);
}

void jw_str(struct jw *w, const char *key, const char *s)
{
	member(w, key);
	if (s)
		string(w, s);
	else
		puts_(w, "null");
}

void jw_format_double(char *buf, size_t len, double v)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
}

void jw_num(struct jw *w, const char *key, double v)
{
	char buf[40];

	member(w, key);
	if (!isfinite(v)) {
		puts_(w, "null");
		return;
	}
	jw_format_double(buf, sizeof(buf), v);
	puts_(w, buf);
}

void jw_int(struct jw *w, const char *key, long long v)
{
	char buf[32];

	member(w, key);
	snprintf(buf, sizeof(buf), "%lld", v);
	puts_(w, buf);
}

void jw_uint(struct jw *w, const char *key, unsigned long long v)
{
	char buf[32];

	member(w, key);
	snprintf(buf, sizeof(buf), "%llu", v);
	puts_(w, buf);
}

void jw_bool(struct jw *w, const char *key, int v)
{
	member(w, key);
	puts_(w, v ? "true" : "false");
}

void jw_null(struct jw *w, const char *key)
{
	member(w, key);
	puts_(w, "null");
}

/*
 * Copies valid JSON text, re-indented to the writer's style: white space
 * outside strings is dropped and made anew.
 */
void jw_raw(struct jw *w, const char *key, const char *json)
{
	unsigned char inl[JW_MAX_DEPTH + 1] = { 0 }, has[JW_MAX_DEPTH + 1] = { 0 };
	int in_str = 0, base = w->depth, d = 0;

	member(w, key);
	if (!json || !*json) {
		puts_(w, "{}");
		return;
	}
	for (const char *p = json; *p && !w->err; p++) {
		if (in_str) {
			put(w, p, 1);
			if (*p == '\\' && p[1])
				put(w, ++p, 1);
			else if (*p == '"')
				in_str = 0;
			continue;
		}
		if (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
			continue;
		if (*p == '}' || *p == ']') {
			if (d > 0) {
				d--;
				if (has[d + 1] && !inl[d + 1])
					newline(w, base + d);
			}
			put(w, p, 1);
			continue;
		}
		if (*p == ',') {
			put(w, p, 1);
			if (inl[d])
				put(w, w->pretty ? " " : "", w->pretty ? 1 : 0);
			else
				newline(w, base + d);
			continue;
		}
		if (*p == ':') {
			puts_(w, w->pretty ? ": " : ":");
			continue;
		}
		/* a value or key begins: the first of its container starts a line */
		if (d > 0 && !has[d]) {
			has[d] = 1;
			if (!inl[d])
				newline(w, base + d);
		}
		put(w, p, 1);
		if (*p == '"') {
			in_str = 1;
		} else if ((*p == '{' || *p == '[') && d < JW_MAX_DEPTH) {
			d++;
			inl[d] = *p == '[';
			has[d] = 0;
		}
	}
}

char *jw_finish(struct jw *w, size_t *len)
{
	char *text;

	if (w->pretty)
		put(w, "\n", 1);
	if (w->err) {
		jw_release(w);
		return NULL;
	}
	if (!w->buf)
		put(w, "", 0);
	text = w->buf;
	if (len)
		*len = w->len;
	w->buf = NULL;
	jw_release(w);
	return text;
}
