// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kcidb.c - a KCIDB I/O document (kcidb.h).
 *
 * The ids: a checkout is ORIGIN:ID, ID from --kcidb-checkout or the kernel
 * release; a build is the checkout's id, the architecture and a digest of
 * what tells two builds of one release apart (uname -v, the image booted);
 * a test is ORIGIN: and what the caller makes unique (a run's UUID and the
 * path's place in it). The test's path is ukbench.NAME.PATH, each character
 * KCIDB does not take in a path turned to '_'.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fnv.h"
#include "json-write.h"
#include "kcidb.h"

int kcidb_origin_ok(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

void kcidb_num(struct jw *w, const char *key, double v)
{
	if (isfinite(v))
		jw_num(w, key, v);
}

static int known(const char *s)
{
	return s && *s;
}

/* The kernel's name for the architecture (ARCH=), as KernelCI names builds. */
static const char *kernel_arch(const char *machine, char *buf, size_t len)
{
	static const struct {
		const char *prefix, *arch;
	} map[] = {
		{ "x86_64", "x86_64" }, { "i386", "i386" },   { "i486", "i386" },
		{ "i586", "i386" },	{ "i686", "i386" },   { "aarch64", "arm64" },
		{ "arm", "arm" },	{ "ppc", "powerpc" }, { "riscv", "riscv" },
		{ "s390", "s390" },	{ "mips", "mips" },   { "loongarch", "loongarch" },
	};
	size_t k = 0;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strncmp(machine, map[i].prefix, strlen(map[i].prefix)))
			return map[i].arch;
	/* another: itself, in the characters KCIDB takes */
	for (; *machine && k + 1 < len; machine++)
		if ((*machine >= 'a' && *machine <= 'z') || (*machine >= '0' && *machine <= '9') ||
		    *machine == '_')
			buf[k++] = *machine;
	buf[k] = '\0';
	return buf;
}

/* @s into @buf as path components: [a-zA-Z0-9_-], '.' between, none empty */
static void path_part(char *buf, size_t len, size_t *k, const char *s, int keep_dots)
{
	int empty = 1;

	for (; *s && *k + 2 < len; s++) {
		char c = *s;

		if (c == '.' && keep_dots) {
			if (empty)
				buf[(*k)++] = '_';
			buf[(*k)++] = '.';
			empty = 1;
			continue;
		}
		buf[(*k)++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				      (c >= '0' && c <= '9') || c == '-' || c == '_'
				  ? c
				  : '_';
		empty = 0;
	}
	if (empty && *k + 1 < len)
		buf[(*k)++] = '_';
	buf[*k] = '\0';
}

static void test_path(char *buf, size_t len, const char *name, const char *path)
{
	size_t k = 0;

	snprintf(buf, len, "ukbench.");
	k = strlen(buf);
	path_part(buf, len, &k, name, 1);
	if (k + 1 < len)
		buf[k++] = '.';
	path_part(buf, len, &k, path, 0);
}

static void checkout_id(const struct kcidb_ids *ids, const struct kcidb_src *s, char *buf,
			size_t len)
{
	snprintf(buf, len, "%s:%s", ids->origin ? ids->origin : KCIDB_ORIGIN,
		 ids->checkout		    ? ids->checkout
		 : known(s->kernel_release) ? s->kernel_release
					    : "unknown");
}

static void build_id(const struct kcidb_ids *ids, const struct kcidb_src *s, char *buf, size_t len)
{
	uint64_t h = UKB_FNV_OFFSET;
	char co[256], ab[64];
	const char *parts[] = { s->kernel_release, s->kernel_version, s->machine, s->image };

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i])
			ukb_fnv1a(&h, parts[i], strlen(parts[i]) + 1);
	checkout_id(ids, s, co, sizeof(co));
	snprintf(buf, len, "%s:%s:%08" PRIx32, co,
		 known(s->machine) ? kernel_arch(s->machine, ab, sizeof(ab)) : "unknown",
		 (uint32_t)(h ^ (h >> 32)));
}

static int is_hash(const char *s)
{
	size_t n = 0;

	for (; s && ((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')); n++)
		;
	return s && n == 40 && !s[n];
}

struct keyed {
	char *id;
	size_t i;
};

static int by_id(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/*
 * Each distinct id @fn gives the tests' sources, written once by @put in
 * the order of its first test; sorted, so that a history of many runs
 * costs n log n. -1 when out of memory.
 */
static int each_once(struct jw *w, const struct kcidb_ids *ids, const struct kcidb_test *t,
		     size_t n,
		     void (*fn)(const struct kcidb_ids *, const struct kcidb_src *, char *, size_t),
		     void (*put)(struct jw *, const struct kcidb_ids *, const struct kcidb_src *))
{
	struct keyed *k = calloc(n, sizeof(*k));
	unsigned char *first = calloc(n, 1);
	char buf[600];
	size_t i;
	int ret = -1;

	if (!k || !first)
		goto out;
	for (i = 0; i < n; i++) {
		fn(ids, t[i].src, buf, sizeof(buf));
		k[i] = (struct keyed){ .id = strdup(buf), .i = i };
		if (!k[i].id)
			goto out;
	}
	qsort(k, n, sizeof(*k), by_id);
	for (i = 0; i < n; i++)
		if (!i || strcmp(k[i].id, k[i - 1].id))
			first[k[i].i] = 1;
	for (i = 0; i < n; i++)
		if (first[i])
			put(w, ids, t[i].src);
	ret = 0;
out:
	for (i = 0; k && i < n; i++)
		free(k[i].id);
	free(k);
	free(first);
	return ret;
}

static void write_checkout(struct jw *w, const struct kcidb_ids *ids, const struct kcidb_src *s)
{
	char id[512];

	checkout_id(ids, s, id, sizeof(id));
	jw_obj_begin(w, NULL);
	jw_str(w, "id", id);
	jw_str(w, "origin", ids->origin ? ids->origin : KCIDB_ORIGIN);
	if (is_hash(ids->checkout))
		jw_str(w, "git_commit_hash", ids->checkout);
	if (known(s->kernel_release)) {
		jw_obj_begin(w, "misc");
		jw_str(w, "kernel_release", s->kernel_release);
		jw_obj_end(w);
	}
	jw_obj_end(w);
}

static void write_build(struct jw *w, const struct kcidb_ids *ids, const struct kcidb_src *s)
{
	char id[600], co[512], ab[64];

	build_id(ids, s, id, sizeof(id));
	checkout_id(ids, s, co, sizeof(co));
	jw_obj_begin(w, NULL);
	jw_str(w, "id", id);
	jw_str(w, "origin", ids->origin ? ids->origin : KCIDB_ORIGIN);
	jw_str(w, "checkout_id", co);
	if (known(s->machine))
		jw_str(w, "architecture", kernel_arch(s->machine, ab, sizeof(ab)));
	jw_obj_begin(w, "misc");
	if (known(s->kernel_release))
		jw_str(w, "kernel_release", s->kernel_release);
	if (known(s->kernel_version))
		jw_str(w, "kernel_version", s->kernel_version);
	if (known(s->machine))
		jw_str(w, "machine", s->machine);
	if (known(s->image))
		jw_str(w, "image", s->image);
	jw_obj_end(w);
	jw_obj_end(w);
}

static void write_test(struct jw *w, const struct kcidb_ids *ids, const struct kcidb_test *t)
{
	const char *origin = ids->origin ? ids->origin : KCIDB_ORIGIN;
	char id[600], path[512], unit[64];

	jw_obj_begin(w, NULL);
	snprintf(id, sizeof(id), "%s:%s", origin, t->id);
	jw_str(w, "id", id);
	jw_str(w, "origin", origin);
	build_id(ids, t->src, id, sizeof(id));
	jw_str(w, "build_id", id);
	test_path(path, sizeof(path), t->name, t->path);
	jw_str(w, "path", path);
	jw_str(w, "status", t->status);
	if (known(t->started))
		jw_str(w, "start_time", t->started);
	if (known(t->comment))
		jw_str(w, "comment", t->comment);
	if (isfinite(t->seconds)) {
		/* seconds a call; a figure a byte says so in its unit */
		snprintf(unit, sizeof(unit), "s%s%s",
			 known(t->unit) && strcmp(t->unit, "call") ? "/" : "",
			 known(t->unit) && strcmp(t->unit, "call") ? t->unit : "");
		jw_obj_begin(w, "number");
		jw_num(w, "value", t->seconds);
		jw_str(w, "unit", unit);
		jw_str(w, "prefix", "metric");
		jw_obj_end(w);
	}
	if (known(t->src->host) || known(t->src->environment)) {
		jw_obj_begin(w, "environment");
		if (known(t->src->host))
			jw_str(w, "comment", t->src->host);
		if (known(t->src->environment))
			jw_raw(w, "misc", t->src->environment);
		jw_obj_end(w);
	}
	if (t->misc)
		jw_raw(w, "misc", t->misc);
	jw_obj_end(w);
}

int kcidb_print(FILE *f, const struct kcidb_ids *ids, const struct kcidb_test *t, size_t n)
{
	struct jw w;
	size_t len;
	char *text;
	int err, nomem = 0;

	jw_init(&w, 1);
	jw_obj_begin(&w, NULL);
	jw_obj_begin(&w, "version");
	jw_int(&w, "major", KCIDB_MAJOR);
	jw_int(&w, "minor", KCIDB_MINOR);
	jw_obj_end(&w);
	if (n) {
		jw_list_begin(&w, "checkouts");
		nomem |= each_once(&w, ids, t, n, checkout_id, write_checkout);
		jw_arr_end(&w);
		jw_list_begin(&w, "builds");
		nomem |= each_once(&w, ids, t, n, build_id, write_build);
		jw_arr_end(&w);
		jw_list_begin(&w, "tests");
		for (size_t i = 0; i < n; i++)
			write_test(&w, ids, &t[i]);
		jw_arr_end(&w);
	}
	jw_obj_end(&w);
	text = jw_finish(&w, &len);
	if (nomem) {
		free(text);
		return -1;
	}
	err = text && fwrite(text, 1, len, f) == len ? 0 : -1;
	free(text);
	return err || ferror(f) ? -1 : 0;
}

void kcidb_tests_free(struct kcidb_test *t, size_t n)
{
	for (size_t i = 0; t && i < n; i++) {
		free(t[i].misc);
		free(t[i].comment);
	}
	free(t);
}
