/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json-write.h - writing JSON text with nothing but libc.
 *
 * The run JSON is written by the 32-bit helper as well as by ukbench
 * itself, and the helper is a static i386 program with no json-c: so the
 * one writer of ukbench's documents is this small emitter. (Reading is
 * json-c's job, in the front end.)
 *
 * Members are added in order to a growing buffer; a figure that does not
 * exist (NaN, infinity) is written as null, never as a number JSON cannot
 * carry; doubles are written with the fewest digits that read back to the
 * same value. An allocation failure is remembered and reported once, by
 * jw_finish().
 */
#ifndef UKB_RECORD_JSON_WRITE_H
#define UKB_RECORD_JSON_WRITE_H

#include <stddef.h>

#define JW_MAX_DEPTH 32

struct jw {
	char *buf;
	size_t len, cap;
	int depth;
	int pretty;
	int err;			     /* -ENOMEM once anything failed */
	unsigned char count[JW_MAX_DEPTH];   /* members so far at each depth (saturating) */
	unsigned char inline_[JW_MAX_DEPTH]; /* arrays written on one line */
};

/* @pretty: two-space indentation, arrays of numbers on one line. */
void jw_init(struct jw *w, int pretty);

/*
 * Each call adds one member: @key names it inside an object and must be
 * NULL inside an array or at the top.
 */
void jw_obj_begin(struct jw *w, const char *key);
void jw_obj_end(struct jw *w);
void jw_arr_begin(struct jw *w, const char *key);
void jw_arr_end(struct jw *w);
/* An array of objects: a member per line block, not on one line. */
void jw_list_begin(struct jw *w, const char *key);
void jw_str(struct jw *w, const char *key, const char *s); /* NULL: null */
void jw_num(struct jw *w, const char *key, double v);	   /* not finite: null */
void jw_int(struct jw *w, const char *key, long long v);
void jw_uint(struct jw *w, const char *key, unsigned long long v);
void jw_bool(struct jw *w, const char *key, int v);
void jw_null(struct jw *w, const char *key);
/* Valid JSON text (a sub-document written earlier), re-indented; NULL: {} */
void jw_raw(struct jw *w, const char *key, const char *json);

/*
 * Ends the document: the text (NUL-terminated, with a final newline when
 * pretty) is the caller's to free; NULL after an allocation failure.
 */
char *jw_finish(struct jw *w, size_t *len);

/* Frees what an unfinished writer holds. */
void jw_release(struct jw *w);

/* The shortest "%.*g" of @v that reads back as @v, into @buf (>= 32). */
void jw_format_double(char *buf, size_t len, double v);

#endif
