// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * select.c - from command-line patterns to the benchmark paths to run.
 *
 * A pattern is NAME or NAME/PATH. NAME is a shell glob matched against
 * the full name (time.clock_gettime.monotonic) and the benchmark's name
 * (time.clock_gettime), or a dotted prefix of them ("time" selects the
 * family). PATH is a glob on the path name (vdso, libc, syscall).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "match.h"
#include "measure.h"
#include "registry.h"
#include "select.h"

static int fail(struct ukb_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct ukb_err *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static int name_matches(const char *pat, const struct ukb_bench *b, const char *full)
{
	return ukb_name_matches(pat, full, b->name);
}

/* Up to three names closest to @pat, or a pointer to `list`, into @hint. */
static void suggest(const char *pat, char *hint, size_t len)
{
	struct {
		char name[128];
		size_t d;
	} best[3];
	size_t nb = 0, n, o, limit = strlen(pat) / 2 > 3 ? strlen(pat) / 2 : 3;
	const struct ukb_bench *const *t = ukb_registry(&n);

	for (size_t i = 0; i < n; i++) {
		size_t nv = ukb_bench_variant_count(t[i]);

		for (size_t k = 0; k < (nv ? nv : 1); k++) {
			char full[128];
			size_t d;

			ukb_bench_fullname(t[i], nv ? &t[i]->variants[k] : NULL, full,
					   sizeof(full));
			d = strstr(full, pat) ? 0 : ukb_edit_distance(pat, full);
			if (d > limit)
				continue;
			/* keep the three smallest distances, stable */
			size_t at = nb;

			while (at > 0 && best[at - 1].d > d)
				at--;
			if (at >= 3)
				continue;
			if (nb < 3)
				nb++;
			memmove(&best[at + 1], &best[at], (nb - 1 - at) * sizeof(best[0]));
			snprintf(best[at].name, sizeof(best[at].name), "%s", full);
			best[at].d = d;
		}
	}
	if (!nb) {
		snprintf(hint, len, "'ukbench list' shows every benchmark");
		return;
	}
	o = (size_t)snprintf(hint, len, "the closest %s:", nb > 1 ? "are" : "is");
	for (size_t i = 0; i < nb && o < len; i++)
		o += (size_t)snprintf(hint + o, len - o, "%s %s", i ? "," : "", best[i].name);
}

/* ------------------------------------------------------------------ */
/* Variants of sized and threaded benchmarks                           */

static void size_name(char *buf, size_t len, long v)
{
	if (v >= 1 << 20 && v % (1 << 20) == 0)
		snprintf(buf, len, "%ldm", v >> 20);
	else if (v >= 1024 && v % 1024 == 0)
		snprintf(buf, len, "%ldk", v >> 10);
	else
		snprintf(buf, len, "%ld", v);
}

/* The flag set named @name of @b, or NULL. "0" and "none" name the plain one. */
static const struct ukb_flagset *find_flagset(const struct ukb_bench *b, const char *name,
					      size_t len)
{
	for (const struct ukb_flagset *f = b->flagsets; f && f->name; f++) {
		if (strlen(f->name) == len && !strncmp(f->name, name, len))
			return f;
		if (!f->name[0] &&
		    ((len == 1 && name[0] == '0') || (len == 4 && !strncmp(name, "none", 4))))
			return f;
	}
	return NULL;
}

/* The flag sets --flags names (else the first); 0 with @bad when unknown. */
static size_t flag_sets(const struct ukb_bench *b, const struct select_opts *so,
			const struct ukb_flagset **sets, char *bad, size_t badlen)
{
	static const struct ukb_flagset plain = { "", 0 };
	size_t nsets = 0;

	/* a benchmark without flag sets has only its plain variant */
	if (!so || !so->flags || !b->flagsets) {
		sets[0] = b->flagsets ? &b->flagsets[0] : &plain;
		return 1;
	}
	for (const char *p = so->flags; *p && nsets < 16;) {
		size_t len = strcspn(p, ",");
		const struct ukb_flagset *f = find_flagset(b, p, len);

		if (!f) {
			snprintf(bad, badlen, "unknown flags '%.*s' for %s", (int)len, p, b->name);
			return 0;
		}
		sets[nsets++] = f;
		p += len + (p[len] == ',');
	}
	return nsets;
}

/* Threaded benchmarks: 1, 2, 4, ... up to --threads (else the CPUs); others 0. */
static unsigned thread_counts(const struct ukb_bench *b, const struct select_opts *so,
			      unsigned *threads)
{
	unsigned n = 0, max;

	if (!(b->flags & UKB_THREADED)) {
		threads[0] = 0;
		return 1;
	}
	max = so && so->threads ? so->threads : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	for (unsigned t = 1; t < max && n < 39; t *= 2)
		threads[n++] = t;
	threads[n++] = max;
	return n;
}

/*
 * Makes the variants of a sized benchmark: every size, flag set and thread
 * count, in storage @sel owns. A size out of range or an unknown flag set
 * name is an error here only when the benchmark is selected, so the caller
 * checks @bad. -ENOMEM, or 0.
 */
static int make_variants(struct ukb_selection *sel, const struct ukb_bench *b,
			 const struct select_opts *so, const struct ukb_variant **out, size_t *n,
			 char *bad, size_t badlen)
{
	enum { NAME_LEN = 48 };
	const long *sizes = so && so->sizes ? so->sizes : b->sizes;
	const struct ukb_flagset *sets[16];
	unsigned threads[40], nthreads;
	size_t nsets, nsizes = 0, total, k = 0;
	struct ukb_variant *vars, **chunks;
	char *names, **nblocks;

	bad[0] = 0;
	*n = 0;
	nsets = flag_sets(b, so, sets, bad, badlen);
	if (!nsets)
		return 0;
	nthreads = thread_counts(b, so, threads);
	for (const long *sz = sizes; *sz; sz++, nsizes++) {
		if (*sz < b->size_min || *sz > b->size_max) {
			char lo[24], hi[24], got[24];

			size_name(lo, sizeof(lo), b->size_min);
			size_name(hi, sizeof(hi), b->size_max);
			size_name(got, sizeof(got), *sz);
			snprintf(bad, badlen, "size %s is out of range for %s: %s to %s bytes", got,
				 b->name, lo, hi);
			return 0;
		}
	}
	total = nsizes * nsets * nthreads;
	vars = calloc(total ? total : 1, sizeof(*vars));
	names = calloc(total ? total : 1, NAME_LEN);
	chunks = realloc(sel->chunks, (sel->nchunks + 1) * sizeof(*chunks));
	if (chunks)
		sel->chunks = chunks;
	nblocks = realloc(sel->names, (sel->nchunks + 1) * sizeof(*nblocks));
	if (nblocks)
		sel->names = nblocks;
	if (!vars || !names || !chunks || !nblocks) {
		free(vars);
		free(names);
		return -ENOMEM;
	}
	sel->chunks[sel->nchunks] = vars;
	sel->names[sel->nchunks++] = names;
	for (const long *sz = sizes; *sz; sz++)
		for (size_t f = 0; f < nsets; f++)
			for (unsigned t = 0; t < nthreads; t++, k++) {
				char *name = names + k * NAME_LEN;
				int len;

				size_name(name, NAME_LEN, *sz);
				len = (int)strlen(name);
				if (sets[f]->name[0])
					len += snprintf(name + len, NAME_LEN - (size_t)len, "_%s",
							sets[f]->name);
				if (threads[t])
					snprintf(name + len, NAME_LEN - (size_t)len, "_t%u",
						 threads[t]);
				vars[k] = (struct ukb_variant){ .name = name,
								.arg = *sz,
								.arg2 = sets[f]->value,
								.threads = threads[t] };
			}
	*out = vars;
	*n = total;
	return 0;
}

static int add_case(struct ukb_selection *sel, const struct ukb_bench *b,
		    const struct ukb_variant *v, const struct ukb_path *p)
{
	struct ukb_case *c;

	for (size_t i = 0; i < sel->n; i++)
		if (sel->cases[i].bench == b && sel->cases[i].variant == v &&
		    sel->cases[i].path == p)
			return 0;
	if (sel->n == sel->cap) {
		size_t ncap = sel->cap ? 2 * sel->cap : 64;

		c = realloc(sel->cases, ncap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		sel->cases = c;
		sel->cap = ncap;
	}
	c = &sel->cases[sel->n++];
	memset(c, 0, sizeof(*c));
	c->bench = b;
	c->variant = v;
	c->path = p;
	ukb_bench_fullname(b, v, c->name, sizeof(c->name));
	return 0;
}

/* Adds what @pat selects (NULL: everything, or the default suite). */
static int expand(struct ukb_selection *sel, const char *pat, int default_suite,
		  const struct select_opts *so, struct ukb_err *e)
{
	char name[256], *slash;
	const char *ppat = NULL;
	size_t nb, before = sel->n;
	const struct ukb_bench *const *t = ukb_registry(&nb);
	int name_hit = 0;

	if (pat) {
		snprintf(name, sizeof(name), "%s", pat);
		slash = strrchr(name, '/');
		if (slash) {
			*slash = 0;
			ppat = slash + 1;
		}
	}
	for (size_t i = 0; i < nb; i++) {
		const struct ukb_variant *vars = t[i]->variants;
		size_t nv = ukb_bench_variant_count(t[i]), hits = 0;
		char bad[256] = "";

		if (!pat && default_suite && !(t[i]->flags & UKB_DEFAULT))
			continue;
		if (t[i]->sizes && make_variants(sel, t[i], so, &vars, &nv, bad, sizeof(bad)))
			return fail(e, "out of memory");
		for (size_t k = 0; k < (nv ? nv : 1); k++) {
			const struct ukb_variant *var = nv ? &vars[k] : NULL;
			char full[128];

			ukb_bench_fullname(t[i], var, full, sizeof(full));
			if (pat && !name_matches(name[0] ? name : "*", t[i], full))
				continue;
			name_hit = 1;
			hits++;
			for (const struct ukb_path *p = t[i]->paths; p->name; p++)
				if ((!ppat || !fnmatch(ppat, p->name, 0)) &&
				    add_case(sel, t[i], var, p))
					return fail(e, "out of memory");
		}
		/* a sized benchmark that the pattern names, with a bad size or flag */
		if (t[i]->sizes && bad[0] &&
		    (!pat || name_matches(name[0] ? name : "*", t[i], t[i]->name) || hits))
			return fail(e, "%s", bad);
	}
	if (sel->n == before && pat) {
		if (!name_hit) {
			suggest(name, e->hint, sizeof(e->hint));
			return fail(e, "no benchmark matches '%s'", pat);
		}
		snprintf(e->hint, sizeof(e->hint),
			 "paths are vdso, libc, syscall, or the benchmark's own; 'ukbench list' "
			 "shows them");
		return fail(e, "no path matches '%s' in the benchmarks named by '%s'", ppat, pat);
	}
	return 0;
}

/*
 * Resolves -P for every case and runs each benchmark's own check of its
 * parameters (descriptors, tasks), before anything runs.
 */
static int resolve_params(struct ukb_selection *sel, const char *spec, int validate,
			  struct ukb_err *e)
{
	char why[512];

	/* every -P name must belong to some selected benchmark */
	for (const char *p = validate ? spec : NULL; p && *p;) {
		size_t len = strcspn(p, ","), klen = strcspn(p, "=");
		int known = 0;

		for (size_t i = 0; i < sel->n && !known; i++)
			for (const struct ukb_param *q = sel->cases[i].bench->params; q && q->name;
			     q++)
				known |= strlen(q->name) == klen && !strncmp(q->name, p, klen);
		if (!known)
			return fail(e, "no selected benchmark has a parameter '%.*s'", (int)klen,
				    p);
		p += len + (p[len] == ',');
	}
	for (size_t i = 0; i < sel->n; i++) {
		struct ukb_case *c = &sel->cases[i];

		if (params_resolve(c->bench, spec, 0, c->params, e))
			return -1;
		if (validate &&
		    ukb_validate(c->bench, c->variant, c->path, c->params, why, sizeof(why)))
			return fail(e, "%s: %s", c->name, why);
	}
	return 0;
}

/* The index of parameter @key (of @klen bytes) of @b, or -1. */
static int param_index(const struct ukb_bench *b, const char *key, size_t klen)
{
	for (int i = 0; b->params && b->params[i].name; i++)
		if (strlen(b->params[i].name) == klen && !strncmp(b->params[i].name, key, klen))
			return i;
	return -1;
}

/*
 * -L NAME=V1,V2,...: each case of a benchmark that has NAME becomes one
 * case a value, NAME=V after -P, its name suffixed ".NAME=V"; the others
 * stay as they are.
 */
static int apply_scan(struct ukb_selection *sel, const struct select_opts *so, int validate,
		      struct ukb_err *e)
{
	const char *scan = so->scan, *eq = strchr(scan, '='), *vals;
	size_t klen = eq ? (size_t)(eq - scan) : 0, nvals = 1, n = 0, cap;
	struct ukb_case *out;
	int known = 0;
	char why[512];

	if (!eq || !klen || !eq[1] || klen >= 64)
		return fail(e, "-L expects NAME=V1,V2,..., got '%s'", scan);
	vals = eq + 1;
	for (const char *p = vals; *p; p++)
		nvals += *p == ',';
	for (const char *p = so->params; p && *p;) {
		size_t len = strcspn(p, ","), kl = strcspn(p, "=");

		if (kl == klen && !strncmp(p, scan, klen))
			return fail(e, "-P and -L both set '%.*s': a scan gives it its values",
				    (int)klen, scan);
		p += len + (p[len] == ',');
	}
	cap = sel->n * nvals + 1;
	out = calloc(cap, sizeof(*out));
	if (!out)
		return fail(e, "out of memory");
	for (size_t i = 0; i < sel->n; i++) {
		const struct ukb_case *c = &sel->cases[i];
		int k = param_index(c->bench, scan, klen);

		if (k < 0) {
			out[n++] = *c;
			continue;
		}
		known = 1;
		for (const char *v = vals; *v;) {
			size_t vlen = strcspn(v, ",");
			char spec[1200];
			struct ukb_case *d = &out[n];

			if (!vlen) {
				free(out);
				return fail(e, "-L '%s': an empty value", scan);
			}
			*d = *c;
			snprintf(spec, sizeof(spec), "%s%s%.*s=%.*s", so->params ? so->params : "",
				 so->params && *so->params ? "," : "", (int)klen, scan, (int)vlen,
				 v);
			if (params_resolve(c->bench, spec, 0, d->params, e)) {
				/* a value of the scan's is -L's, not -P's */
				if (!strncmp(e->msg, "-P ", 3) &&
				    !strncmp(e->msg + 3, scan, klen) &&
				    (e->msg[3 + klen] == '=' || e->msg[3 + klen] == ' '))
					e->msg[1] = 'L';
				free(out);
				return -1;
			}
			if ((size_t)snprintf(d->name, sizeof(d->name), "%s.%.*s=%ld", c->name,
					     (int)klen, scan, d->params[k]) >= sizeof(d->name)) {
				free(out);
				return fail(e, "-L: the name of %s with %.*s is too long", c->name,
					    (int)klen, scan);
			}
			if (validate && ukb_validate(d->bench, d->variant, d->path, d->params, why,
						     sizeof(why))) {
				fail(e, "%s: %s", d->name, why); /* d is in out */
				free(out);
				return -1;
			}
			/* the same value twice is one case */
			for (size_t j = 0; j < n; j++)
				if (!strcmp(out[j].name, d->name) && out[j].path == d->path) {
					n--;
					break;
				}
			n++;
			v += vlen + (v[vlen] == ',');
		}
	}
	if (validate && !known) {
		free(out);
		return fail(e, "no selected benchmark has a parameter '%.*s' to scan", (int)klen,
			    scan);
	}
	free(sel->cases);
	sel->cases = out;
	sel->n = n;
	sel->cap = cap;
	return 0;
}

int ukb_select(struct ukb_selection *sel, int npatterns, char **patterns, int default_suite,
	       const struct select_opts *so, int validate, struct ukb_err *e)
{
	int sized = 0;

	memset(sel, 0, sizeof(*sel));
	e->msg[0] = e->hint[0] = 0;
	if (!npatterns && expand(sel, NULL, default_suite, so, e))
		goto fail;
	for (int i = 0; i < npatterns; i++)
		if (expand(sel, patterns[i], 0, so, e))
			goto fail;
	for (size_t i = 0; i < sel->n; i++)
		sized |= sel->cases[i].bench->sizes != NULL;
	if (validate && so && (so->sizes || so->flags) && !sized) {
		fail(e, "--size and --flags apply to sized benchmarks (random.getrandom, ...), "
			"and none is selected");
		goto fail;
	}
	if (resolve_params(sel, so ? so->params : NULL, validate, e))
		goto fail;
	if (so && so->scan && apply_scan(sel, so, validate, e))
		goto fail;
	return 0;
fail:
	sel->n = 0;
	return -1;
}

void ukb_selection_release(struct ukb_selection *sel)
{
	for (size_t i = 0; i < sel->nchunks; i++) {
		free(sel->chunks[i]);
		free(sel->names[i]);
	}
	free(sel->chunks);
	free(sel->names);
	free(sel->cases);
	memset(sel, 0, sizeof(*sel));
}
