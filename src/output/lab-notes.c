// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lab-notes.c - what a run's labs show (see lab-notes.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab-align.h"
#include "lab-notes.h"
#include "width.h"

struct text {
	char *buf;
	size_t len, used, lines;
};

static void say(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->used >= t->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->used += (size_t)n < t->len - t->used ? (size_t)n : t->len - t->used - 1;
	if (t->used + 1 < t->len) {
		t->buf[t->used++] = '\n';
		t->buf[t->used] = 0;
	}
	t->lines++;
}

/* The OK result of benchmark @bench, variant @variant (NULL: any), path @path@suffix. */
static const struct rec_result *find(const struct rec_run *run, const char *bench,
				     const char *variant, const char *path, const char *suffix)
{
	size_t n = strlen(path);

	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];

		if (r->status == UKB_OK && r->nsamples && !strcmp(r->benchmark, bench) &&
		    (!variant || !strcmp(r->variant, variant)) && !strncmp(r->path, path, n) &&
		    !strcmp(r->path + n, suffix))
			return r;
	}
	return NULL;
}

/* Does @a differ from @b beyond both intervals? */
static int beyond(const struct rec_result *a, const struct rec_result *b)
{
	double d = a->stats.mean - b->stats.mean;
	double h = sqrt(a->stats.ci95 * a->stats.ci95 + b->stats.ci95 * b->stats.ci95);

	return isfinite(h) && fabs(d) > h;
}

static const char *abi_words(const char *suffix)
{
	return *suffix ? " (32-bit ABI)" : "";
}

static long param_of(const struct rec_result *r, const char *key, long def)
{
	const char *p = strstr(r->params, key);
	size_t n = strlen(key);

	if (p && p[n] == '=')
		return strtol(p + n + 1, NULL, 10);
	return def;
}

static void linkstack(struct text *t, const struct rec_run *run, const char *sfx)
{
	const char *b = "lab.linkstack";
	const struct rec_result *next = find(run, b, NULL, "next", sfx),
				*skip = find(run, b, NULL, "skip", sfx),
				*thunk = find(run, b, NULL, "thunk", sfx),
				*pcrel = find(run, b, NULL, "pcrel", sfx);
	long depth;

	if (!thunk || (!skip && !next))
		return;
	depth = param_of(thunk, "depth", 8);
	if (skip && beyond(skip, thunk) && skip->stats.mean > thunk->stats.mean)
		say(t,
		    "return stack%s: a call that never returns (skip) costs %.2f ns more than a "
		    "balanced one (thunk, %.2f ns a chain): %.2f ns on each of the %ld returns "
		    "after it",
		    abi_words(sfx), skip->stats.mean - thunk->stats.mean, thunk->stats.mean,
		    (skip->stats.mean - thunk->stats.mean) / (double)(depth + 1), depth + 1);
	else if (skip && beyond(skip, thunk))
		say(t,
		    "return stack%s: a call that never returns (skip, %.2f ns a chain) is "
		    "faster than a balanced one (thunk, %.2f ns): no cost of an address left on "
		    "the return stack shows here",
		    abi_words(sfx), skip->stats.mean, thunk->stats.mean);
	else if (skip)
		say(t,
		    "return stack%s: a call that never returns (skip, %.2f ns a chain) costs "
		    "nothing beyond the noise against a balanced one (thunk, %.2f ns)",
		    abi_words(sfx), skip->stats.mean, thunk->stats.mean);
	if (next) {
		int slower = beyond(next, thunk) && next->stats.mean > thunk->stats.mean;

		say(t, "return stack%s: a call to the next instruction (next, %.2f ns) is %s: %s",
		    abi_words(sfx), next->stats.mean,
		    slower ? "slower than the balanced call" : "no slower than the balanced call",
		    slower ? "this CPU pushes it as a call that is never returned"
			   : "this CPU does not leave it on the return stack");
	}
	if (pcrel)
		say(t, "return stack%s: the PC read without a call (pcrel): %.2f ns a chain",
		    abi_words(sfx), pcrel->stats.mean);
}

/* "3-9, 40-47" of the offsets in @set[0..128) */
static void ranges(char *buf, size_t len, const int *set)
{
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; i < 128 && o < len; i++) {
		int j = i;

		if (!set[i])
			continue;
		while (j + 1 < 128 && set[j + 1])
			j++;
		if (j > i)
			o += (size_t)snprintf(buf + o, len - o, "%s%d-%d", o ? ", " : "", i, j);
		else
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? ", " : "", i);
		i = j;
	}
}

static void align(struct text *t, const struct rec_run *run, const char *path, const char *sfx)
{
	const struct rec_result *at[128] = { 0 }, *lo = NULL, *hi = NULL;
	int bytes = *sfx ? -1 : lab_align_loop_bytes(path), lo_at = 0, hi_at = 0, n = 0;
	static const int windows[] = { 16, 32, 64 };
	static const char *const what[] = { "16-byte fetch window", "32-byte uop-cache window",
					    "64-byte line" };

	for (int off = 0; off < 128; off++) {
		char v[8];

		snprintf(v, sizeof(v), "%d", off);
		at[off] = find(run, "lab.align", v, path, sfx);
		if (!at[off])
			continue;
		n++;
		if (!lo || at[off]->stats.mean < lo->stats.mean)
			lo = at[off], lo_at = off;
		if (!hi || at[off]->stats.mean > hi->stats.mean)
			hi = at[off], hi_at = off;
	}
	if (n < 2)
		return;
	if (beyond(hi, lo))
		say(t,
		    "alignment%s, the %s loop: the worst of %d offsets, %d (%.3f ns an "
		    "iteration), is %.1f%% slower than the best, %d (%.3f ns)",
		    abi_words(sfx), path, n, hi_at, hi->stats.mean,
		    100 * (hi->stats.mean / lo->stats.mean - 1), lo_at, lo->stats.mean);
	else
		say(t,
		    "alignment%s, the %s loop: no offset of %d differs beyond the noise (%.3f to "
		    "%.3f ns an iteration)",
		    abi_words(sfx), path, n, lo->stats.mean, hi->stats.mean);
	if (bytes <= 0)
		return;
	for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
		int set[128] = { 0 }, ns = 0, no = 0;
		double in = 0, out = 0;
		char list[600];

		for (int off = 0; off < 128; off++) {
			if (!at[off])
				continue;
			set[off] = lab_align_straddles(bytes, off, windows[w]);
			if (set[off])
				in += at[off]->stats.mean, ns++;
			else
				out += at[off]->stats.mean, no++;
		}
		if (!ns) {
			say(t,
			    "alignment, the %s loop (%d bytes): it straddles no %s at the offsets "
			    "measured",
			    path, bytes, what[w]);
			continue;
		}
		ranges(list, sizeof(list), set);
		if (no)
			say(t,
			    "alignment, the %s loop (%d bytes): it straddles a %s at %s; there "
			    "it takes %.3f ns an iteration on average, elsewhere %.3f (x%.3f)",
			    path, bytes, what[w], list, in / ns, out / no, (in / ns) / (out / no));
		else
			say(t,
			    "alignment, the %s loop (%d bytes): it straddles a %s at every offset",
			    path, bytes, what[w]);
	}
}

/*
 * Paths @paths[0..n) of @bench against @base, joined into @line: each
 * named by @words (else its path) with its difference from @base in ns,
 * or with @ratio its figure and its ratio to @base; "within the noise"
 * where it does not differ beyond both intervals. The length written.
 */
static size_t against(char *line, size_t len, const struct rec_run *run, const char *bench,
		      const char *sfx, const struct rec_result *base, const char *const *paths,
		      const char *const *words, size_t n, int ratio)
{
	size_t o = 0;

	line[0] = 0;
	for (size_t i = 0; i < n && o < len; i++) {
		const struct rec_result *r = find(run, bench, NULL, paths[i], sfx);
		const char *name = words ? words[i] : paths[i];
		int w;

		if (!r)
			continue;
		if (ratio)
			w = snprintf(line + o, len - o, "%s%s %.2f ns (x%.2f%s)", o ? ", " : "",
				     name, r->stats.mean, r->stats.mean / base->stats.mean,
				     beyond(r, base) ? "" : ", within the noise");
		else
			w = snprintf(line + o, len - o, "%s%s %+.2f ns%s", o ? ", " : "", name,
				     r->stats.mean - base->stats.mean,
				     beyond(r, base) ? "" : " (within the noise)");
		o += w > 0 ? (size_t)w : 0;
	}
	return o < len ? o : len - 1;
}

static void calls(struct text *t, const struct rec_run *run, const char *sfx)
{
	static const char *const paths[] = { "indirect", "tramp", "patched", "retpol" };
	const struct rec_result *d = find(run, "lab.calls", NULL, "direct", sfx);
	char line[600];

	if (d && against(line, sizeof(line), run, "lab.calls", sfx, d, paths, NULL,
			 sizeof(paths) / sizeof(paths[0]), 0))
		say(t, "calls%s: a direct call %.2f ns; against it, %s", abi_words(sfx),
		    d->stats.mean, line);
}

static void div64(struct text *t, const struct rec_run *run, const char *sfx)
{
	static const char *const paths[] = { "mulshift", "iter", "u32" };
	static const char *const words[] = { "multiply-and-shift", "the vDSO's subtractions",
					     "32-bit arithmetic" };
	const struct rec_result *d = find(run, "lab.div64", NULL, "div64", sfx);
	char line[600];
	size_t o;

	if (!d)
		return;
	o = against(line, sizeof(line), run, "lab.div64", sfx, d, paths, words,
		    sizeof(paths) / sizeof(paths[0]), 1);
	say(t, "ns to timeval%s: 64-bit division %.2f ns a conversion%s%s", abi_words(sfx),
	    d->stats.mean, o ? "; " : "", line);
}

size_t lab_notes_text(char *buf, size_t len, const struct rec_run *run)
{
	static const char *const sfx[] = { "", "@32" };
	struct text t = { buf, len, 0, 0 };

	if (len)
		buf[0] = 0;
	for (size_t s = 0; s < 2; s++) {
		linkstack(&t, run, sfx[s]);
		align(&t, run, "store", sfx[s]);
		align(&t, run, "add", sfx[s]);
		calls(&t, run, sfx[s]);
		div64(&t, run, sfx[s]);
	}
	return t.lines;
}

size_t lab_notes_print(FILE *out, int wide, const struct rec_run *run)
{
	char buf[16384], *line, *save = NULL;
	size_t n = lab_notes_text(buf, sizeof(buf), run);
	int cols = out_columns(out, wide);

	if (!n)
		return 0;
	fprintf(out, "what this CPU shows (lab):\n");
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		fputs("  ", out);
		put_folded(out, line, 2, 4, cols ? cols : 80);
	}
	return n;
}
