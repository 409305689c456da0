/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json-put.h - adding members to json-c objects, the way every ukbench
 * document does: a figure that does not exist (NaN, infinity) is null,
 * never a number JSON cannot carry.
 */
#ifndef UKB_CLI_JSON_PUT_H
#define UKB_CLI_JSON_PUT_H

#include <json-c/json.h>
#include <math.h>

static inline struct json_object *json_num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static inline void json_put(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

/* A string member; NULL (and, when @empty_is_null, "") becomes null. */
static inline void json_put_str(struct json_object *o, const char *key, const char *s,
				int empty_is_null)
{
	json_put(o, key, s && (s[0] || !empty_is_null) ? json_object_new_string(s) : NULL);
}

#endif
