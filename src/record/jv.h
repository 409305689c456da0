/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jv.h - JSON values read back: the one door to the JSON library.
 *
 * What ukbench keeps as JSON text (a run's environment and settings, a
 * guest's answer, a profile) is read through these calls, and only the
 * record part includes the library itself. The library is jansson: it
 * checks every allocation it makes, where json-c 0.16 went on with a NULL
 * (a crash, or an object silently short of members). Its allocator is
 * ours: an allocation JSON reading cannot have ends the command with one
 * line, exit 1, rather than a half-read value (see jv_oom).
 *
 * A NULL value is JSON's null or nothing; every call takes one.
 */
#ifndef UKB_RECORD_JV_H
#define UKB_RECORD_JV_H

#include <stddef.h>

struct jv; /* a parsed value (jansson's json_t) */

enum jv_type { JV_NULL, JV_BOOL, JV_INT, JV_REAL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

/* Any JSON value in @text (NUL-terminated); NULL when it is not JSON. */
struct jv *jv_parse(const char *text);
void jv_free(struct jv *v);

/* Why @text was not read, and where (1-based). */
struct jv_error {
	char text[160];
	int line, column;
	int truncated; /* the text ended inside the value */
	int nomem;
};

/*
 * The value at the start of @len bytes of @text; with @whole, nothing but
 * white space may follow it. *@end: the bytes it took. NULL with @e set.
 */
struct jv *jv_parse_span(const char *text, size_t len, int whole, size_t *end, struct jv_error *e);

/* @o's member @key; NULL when @o is no object, the member absent or null. */
struct jv *jv_get(const struct jv *o, const char *key);
/* Is @key a member of @o, null included? */
int jv_has(const struct jv *o, const char *key);

/* Is @v of @type? JV_NUMBER: an integer or a real; NULL is JV_NULL. */
int jv_is(const struct jv *v, enum jv_type type);

/* The string, or NULL when @v is not one. */
const char *jv_str(const struct jv *v);
size_t jv_strlen(const struct jv *v);
/* A number's value, @fallback when @v is not a number. */
double jv_num(const struct jv *v, double fallback);
long long jv_int(const struct jv *v, long long fallback);
/* true or false; @fallback otherwise. */
int jv_bool(const struct jv *v, int fallback);

/* An array's length (0 for anything else) and its element @i. */
size_t jv_len(const struct jv *v);
struct jv *jv_at(const struct jv *v, size_t i);

/*
 * The members of an object in order: start with *@it = NULL; each call gives
 * the next key and its value in *@val, NULL after the last.
 */
const char *jv_next(const struct jv *o, void **it, struct jv **val);

/*
 * @v as compact JSON text, numbers in the fewest digits that read back;
 * a string as itself when @raw. The caller frees; NULL: out of memory.
 */
char *jv_text(const struct jv *v, int raw);

/* Building: a new object, and members set on it (the value is taken). */
struct jv *jv_object(void);
int jv_set(struct jv *o, const char *key, struct jv *v);
/* Removes @o's member @key; -1 when @o is no object or has none. */
int jv_del(struct jv *o, const char *key);

/*
 * Installs the allocator that ends the command when an allocation for
 * JSON fails; done by jv_parse and the reader, callable earlier.
 */
void jv_oom(void);

#endif
