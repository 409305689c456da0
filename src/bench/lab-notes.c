// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lab-notes.c - what the lab's figures show of this CPU, beyond their
 * intervals or not, never the verdict expected (see notes.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab-align.h"
#include "notes.h"

/* @slot filled with the figure of @bench/@path in the run, or NULL */
static const struct ukb_figure *get(struct ukb_notes *t, struct ukb_figure *slot, const char *bench,
				    const char *variant, const char *path)
{
	return t->find(t, bench, variant, path, slot) ? slot : NULL;
}

/* Does @a differ from @b beyond both intervals? */
static int beyond(const struct ukb_figure *a, const struct ukb_figure *b)
{
	double d = a->mean - b->mean;
	double h = sqrt(a->ci95 * a->ci95 + b->ci95 * b->ci95);

	return isfinite(h) && fabs(d) > h;
}

static const char *abi_words(const char *suffix)
{
	return *suffix ? " (32-bit ABI)" : "";
}

static long param_of(const struct ukb_figure *r, const char *key, long def)
{
	const char *p = strstr(r->params, key);
	size_t n = strlen(key);

	if (p && p[n] == '=')
		return strtol(p + n + 1, NULL, 10);
	return def;
}

static void linkstack(struct ukb_notes *t)
{
	const char *b = "lab.linkstack", *sfx = t->sfx;
	struct ukb_figure f[4];
	const struct ukb_figure *next = get(t, &f[0], b, NULL, "next"),
				*skip = get(t, &f[1], b, NULL, "skip"),
				*thunk = get(t, &f[2], b, NULL, "thunk"),
				*pcrel = get(t, &f[3], b, NULL, "pcrel");
	long depth;

	if (!thunk || (!skip && !next))
		return;
	depth = param_of(thunk, "depth", 8);
	if (skip && beyond(skip, thunk) && skip->mean > thunk->mean)
		ukb_note(
		    t,
		    "return stack%s: a call that never returns (skip) costs %.2f ns more than a "
		    "balanced one (thunk, %.2f ns a chain): %.2f ns on each of the %ld returns "
		    "after it",
		    abi_words(sfx), skip->mean - thunk->mean, thunk->mean,
		    (skip->mean - thunk->mean) / (double)(depth + 1), depth + 1);
	else if (skip && beyond(skip, thunk))
		ukb_note(
		    t,
		    "return stack%s: a call that never returns (skip, %.2f ns a chain) is "
		    "faster than a balanced one (thunk, %.2f ns): no cost of an address left on "
		    "the return stack shows here",
		    abi_words(sfx), skip->mean, thunk->mean);
	else if (skip)
		ukb_note(t,
			 "return stack%s: a call that never returns (skip, %.2f ns a chain) costs "
			 "nothing beyond the noise against a balanced one (thunk, %.2f ns)",
			 abi_words(sfx), skip->mean, thunk->mean);
	if (next) {
		int slower = beyond(next, thunk) && next->mean > thunk->mean;

		ukb_note(
		    t, "return stack%s: a call to the next instruction (next, %.2f ns) is %s: %s",
		    abi_words(sfx), next->mean,
		    slower ? "slower than the balanced call" : "no slower than the balanced call",
		    slower ? "this CPU pushes it as a call that is never returned"
			   : "this CPU does not leave it on the return stack");
	}
	if (pcrel)
		ukb_note(t, "return stack%s: the PC read without a call (pcrel): %.2f ns a chain",
			 abi_words(sfx), pcrel->mean);
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

static void align(struct ukb_notes *t, const char *path)
{
	const char *sfx = t->sfx;
	struct ukb_figure f[128];
	const struct ukb_figure *at[128] = { 0 }, *lo = NULL, *hi = NULL;
	int bytes = *sfx ? -1 : lab_align_loop_bytes(path), lo_at = 0, hi_at = 0, n = 0;
	static const int windows[] = { 16, 32, 64 };
	static const char *const what[] = { "16-byte fetch window", "32-byte uop-cache window",
					    "64-byte line" };

	for (int off = 0; off < 128; off++) {
		char v[8];

		snprintf(v, sizeof(v), "%d", off);
		at[off] = get(t, &f[off], "lab.align", v, path);
		if (!at[off])
			continue;
		n++;
		if (!lo || at[off]->mean < lo->mean)
			lo = at[off], lo_at = off;
		if (!hi || at[off]->mean > hi->mean)
			hi = at[off], hi_at = off;
	}
	if (n < 2)
		return;
	if (beyond(hi, lo))
		ukb_note(t,
			 "alignment%s, the %s loop: the worst of %d offsets, %d (%.3f ns an "
			 "iteration), is %.1f%% slower than the best, %d (%.3f ns)",
			 abi_words(sfx), path, n, hi_at, hi->mean, 100 * (hi->mean / lo->mean - 1),
			 lo_at, lo->mean);
	else
		ukb_note(
		    t,
		    "alignment%s, the %s loop: no offset of %d differs beyond the noise (%.3f to "
		    "%.3f ns an iteration)",
		    abi_words(sfx), path, n, lo->mean, hi->mean);
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
				in += at[off]->mean, ns++;
			else
				out += at[off]->mean, no++;
		}
		if (!ns) {
			ukb_note(
			    t,
			    "alignment, the %s loop (%d bytes): it straddles no %s at the offsets "
			    "measured",
			    path, bytes, what[w]);
			continue;
		}
		ranges(list, sizeof(list), set);
		if (no)
			ukb_note(
			    t,
			    "alignment, the %s loop (%d bytes): it straddles a %s at %s; there "
			    "it takes %.3f ns an iteration on average, elsewhere %.3f (x%.3f)",
			    path, bytes, what[w], list, in / ns, out / no, (in / ns) / (out / no));
		else
			ukb_note(
			    t,
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
static size_t against(char *line, size_t len, struct ukb_notes *t, const char *bench,
		      const struct ukb_figure *base, const char *const *paths,
		      const char *const *words, size_t n, int ratio)
{
	size_t o = 0;

	line[0] = 0;
	for (size_t i = 0; i < n && o < len; i++) {
		struct ukb_figure f;
		const struct ukb_figure *r = get(t, &f, bench, NULL, paths[i]);
		const char *name = words ? words[i] : paths[i];
		int w;

		if (!r)
			continue;
		if (ratio)
			w = snprintf(line + o, len - o, "%s%s %.2f ns (x%.2f%s)", o ? ", " : "",
				     name, r->mean, r->mean / base->mean,
				     beyond(r, base) ? "" : ", within the noise");
		else
			w = snprintf(line + o, len - o, "%s%s %+.2f ns%s", o ? ", " : "", name,
				     r->mean - base->mean,
				     beyond(r, base) ? "" : " (within the noise)");
		o += w > 0 ? (size_t)w : 0;
	}
	return o < len ? o : len - 1;
}

static void calls(struct ukb_notes *t)
{
	static const char *const paths[] = { "indirect", "tramp", "patched", "retpol" };
	struct ukb_figure f;
	const struct ukb_figure *d = get(t, &f, "lab.calls", NULL, "direct");
	char line[600];

	if (d && against(line, sizeof(line), t, "lab.calls", d, paths, NULL,
			 sizeof(paths) / sizeof(paths[0]), 0))
		ukb_note(t, "calls%s: a direct call %.2f ns; against it, %s", abi_words(t->sfx),
			 d->mean, line);
}

static void div64(struct ukb_notes *t)
{
	static const char *const paths[] = { "mulshift", "iter", "u32" };
	static const char *const words[] = { "multiply-and-shift", "the vDSO's subtractions",
					     "32-bit arithmetic" };
	struct ukb_figure f;
	const struct ukb_figure *d = get(t, &f, "lab.div64", NULL, "div64");
	char line[600];
	size_t o;

	if (!d)
		return;
	o = against(line, sizeof(line), t, "lab.div64", d, paths, words,
		    sizeof(paths) / sizeof(paths[0]), 1);
	ukb_note(t, "ns to timeval%s: 64-bit division %.2f ns a conversion%s%s", abi_words(t->sfx),
		 d->mean, o ? "; " : "", line);
}

void ukb_lab_explain(struct ukb_notes *t)
{
	linkstack(t);
	align(t, "store");
	align(t, "add");
	calls(t);
	div64(t);
}
