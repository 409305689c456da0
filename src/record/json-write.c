// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json-write.c - the libc-only JSON emitter (see json-write.h).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
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

		/* C1 controls (UTF-8 c2 80..c2 9f) escaped too: the same string,
		 * and none of them reaches a terminal raw */
		while (*p >= 0x20 && *p != '"' && *p != '\\' && *p != 0x7f &&
		       !(*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			p++;
		put(w, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		if (*p == 0xc2) {
			snprintf(esc, sizeof(esc), "\\u%04x", *++p);
			puts_(w, esc);
			continue;
		}
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

#if FLT_EVAL_METHOD == 0
/* the powers of ten a double holds exactly */
static const double exact10[] = { 1e0,	1e1,  1e2,  1e3,  1e4,	1e5,  1e6,  1e7,
				  1e8,	1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
#endif

/* "%.*g" of the significant digits @dig[0..p) times 10^@x, as printf writes it */
static void g_style(char *buf, size_t len, int neg, const char *dig, int p, int x)
{
	char out[48];
	int o = 0, n = p, ax = x < 0 ? -x : x;

	while (n > 1 && dig[n - 1] == '0') /* %g drops the fraction's trailing zeros */
		n--;
	if (neg)
		out[o++] = '-';
	if (x < -4 || x >= p) {
		out[o++] = dig[0];
		if (n > 1) {
			out[o++] = '.';
			memcpy(out + o, dig + 1, (size_t)n - 1);
			o += n - 1;
		}
		out[o++] = 'e';
		out[o++] = x < 0 ? '-' : '+';
		if (ax >= 100)
			out[o++] = (char)('0' + ax / 100);
		out[o++] = (char)('0' + ax / 10 % 10);
		out[o++] = (char)('0' + ax % 10);
	} else if (x < 0) {
		out[o++] = '0';
		out[o++] = '.';
		for (int i = 0; i < -x - 1; i++)
			out[o++] = '0';
		memcpy(out + o, dig, (size_t)n);
		o += n;
	} else {
		for (int i = 0; i <= x; i++)
			out[o++] = i < n ? dig[i] : '0';
		if (n > x + 1) {
			out[o++] = '.';
			memcpy(out + o, dig + x + 1, (size_t)(n - x - 1));
			o += n - x - 1;
		}
	}
	if ((size_t)o >= len)
		o = (int)len - 1;
	memcpy(buf, out, (size_t)o);
	buf[o] = '\0';
}

/*
 * Does the decimal @dig[0..p) times 10^(@x - p + 1) read back as @a? Where
 * the digits fit a double exactly and so does the power of ten, one
 * division or product, rounded once, is what strtod() gives (Clinger's
 * fast path); elsewhere, and where arithmetic rounds twice (x87), strtod()
 * of it written into @buf.
 */
static int reads_back(const char *dig, int p, int x, double a, char *buf, size_t len, int neg)
{
#if FLT_EVAL_METHOD == 0
	int e = x - p + 1;
	uint64_t d = 0;

	for (int i = 0; i < p; i++)
		d = d * 10 + (uint64_t)(dig[i] - '0');
	if (d <= (1ULL << 53) && e >= -22 && e <= 22)
		return (e >= 0 ? (double)d * exact10[e] : (double)d / exact10[-e]) == a;
#endif
	g_style(buf, len, neg, dig, p, x);
	return fabs(strtod(buf, NULL)) == a;
}

/*
 * @a (> 0) as 15 significant digits or fewer that read back as it, when it
 * has such (a figure read from text mostly has): its digits and exponent
 * without a printf, for "%.15g" is then exactly them. 0 when it has none
 * or they cannot be found this way.
 */
static int short_digits(double a, char *dig, int *x)
{
#if FLT_EVAL_METHOD == 0
	int k = 14 - (int)floor(log10(a)), n = 0;
	double s, r;
	char t[24];

	if (k < 0 || k > 22)
		return 0;
	s = a * exact10[k];
	if (!(s >= 1 && s < 1e15))
		return 0;
	r = (double)(uint64_t)(s + 0.5);
	/* r / 10^k is rounded once (both exact): it is what strtod() reads */
	if (r / exact10[k] != a)
		return 0;
	for (uint64_t d = (uint64_t)r; d; d /= 10)
		t[n++] = (char)('0' + d % 10);
	for (int i = 0; i < 15; i++)
		dig[i] = i < n ? t[n - 1 - i] : '0';
	*x = n - 1 - k;
	return 1;
#else
	(void)a, (void)dig, (void)x;
	return 0;
#endif
}

/*
 * The shortest of "%.15g", "%.16g" and "%.17g" that reads back as @v: one
 * printf of 17 digits, the shorter ones rounded from them, each checked as
 * strtod() would read it. Where the digits cut off are a tie (a 5, then
 * zeros) the exact value decides, so printf does. A history of every host
 * writes a third of a million numbers; three printf and three strtod each
 * were a third of its time. A number of 15 digits or fewer needs no printf
 * (short_digits()).
 */
void jw_format_double(char *buf, size_t len, double v)
{
	char e[40], dig[18], cut[18];
	double a = fabs(v);
	int x, neg = v < 0;

	if (!isfinite(v) || v == 0 || len < 32)
		goto slow;
	if (short_digits(a, dig, &x)) {
		g_style(buf, len, neg, dig, 15, x);
		return;
	}
	snprintf(e, sizeof(e), "%.16e", a); /* d.dddddddddddddddde[+-]x */
	if (e[1] != '.' || e[18] != 'e')
		goto slow;
	dig[0] = e[0];
	memcpy(dig + 1, e + 2, 16);
	dig[17] = '\0';
	x = atoi(e + 19);
	for (int p = 15; p <= 16; p++) {
		int cx = x, i;

		if (dig[p] == '5' && (p == 16 || dig[16] == '0')) {
			snprintf(buf, len, "%.*g", p, v);
			if (strtod(buf, NULL) == v)
				return;
			continue;
		}
		memcpy(cut, dig, (size_t)p);
		if (dig[p] >= '5') {
			for (i = p - 1; i >= 0 && cut[i] == '9'; i--)
				cut[i] = '0';
			if (i < 0) {
				/* 9.99... up to 10: one more digit before the point */
				cut[0] = '1';
				cx++;
			} else {
				cut[i]++;
			}
		}
		if (reads_back(cut, p, cx, a, buf, len, neg)) {
			g_style(buf, len, neg, cut, p, cx);
			return;
		}
	}
	g_style(buf, len, neg, dig, 17, x);
	return;
slow:
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
