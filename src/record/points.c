// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * points.c - a history's points gathered, then laid in one block (series.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"

/* a point's texts while gathering: offsets into b->txt, stored in its pointers */
#define OFF(o) ((const char *)(uintptr_t)(o))

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/*
 * The longest text of each kind kept: a series' key (series.h) holds as
 * much, so a point and its series compare the same
 */
static const size_t text_max[RP_NTEXT] = {
	[RP_UUID] = 39,	      [RP_LABEL] = 127,	 [RP_HOST] = 127,
	[RP_STARTED] = 31,    [RP_KERNEL] = 127, [RP_NAME] = 127,
	[RP_BENCHMARK] = 127, [RP_PATH] = 31,	 [RP_PARAMS] = 159,
};

static size_t text_len(const char *t, int i)
{
	return strnlen(t ? t : "", text_max[i]);
}

int rec_points_add(struct rec_points *b, int64_t run, size_t seq, double mean, double ci95_rel,
		   const char *const text[RP_NTEXT])
{
	size_t off[RP_NTEXT], need = b->ntxt;
	struct rec_point *p;

	for (int i = 0; i < RP_NTEXT; i++)
		need += text_len(text[i], i) + 1;
	if (grow((void **)&b->txt, &b->captxt, need, 1) ||
	    grow((void **)&b->pts, &b->cap, b->n + 1, sizeof(*b->pts)))
		return -1;
	for (int i = 0; i < RP_NTEXT; i++) {
		size_t l = text_len(text[i], i);

		off[i] = b->ntxt;
		memcpy(b->txt + b->ntxt, text[i] ? text[i] : "", l);
		b->txt[b->ntxt + l] = '\0';
		b->ntxt += l + 1;
	}
	p = &b->pts[b->n++];
	*p = (struct rec_point){
		.run = run,
		.seq = seq,
		.mean = mean,
		.ci95_rel = ci95_rel,
		.uuid = OFF(off[RP_UUID]),
		.label = OFF(off[RP_LABEL]),
		.host = OFF(off[RP_HOST]),
		.started = OFF(off[RP_STARTED]),
		.kernel_release = OFF(off[RP_KERNEL]),
		.name = OFF(off[RP_NAME]),
		.benchmark = OFF(off[RP_BENCHMARK]),
		.path = OFF(off[RP_PATH]),
		.params = OFF(off[RP_PARAMS]),
	};
	return 0;
}

struct rec_point *rec_points_take(struct rec_points *b, size_t *n)
{
	size_t head = (b->n + 1) * sizeof(struct rec_point);
	struct rec_point *out = malloc(head + b->ntxt + 1);
	char *txt;

	*n = 0;
	if (!out) {
		rec_points_free(b);
		return NULL;
	}
	txt = (char *)out + head;
	if (b->ntxt)
		memcpy(txt, b->txt, b->ntxt);
	for (size_t i = 0; i < b->n; i++) {
		struct rec_point p = b->pts[i];

#define FIX(f) p.f = txt + (uintptr_t)p.f
		FIX(uuid);
		FIX(label);
		FIX(host);
		FIX(started);
		FIX(kernel_release);
		FIX(name);
		FIX(benchmark);
		FIX(path);
		FIX(params);
#undef FIX
		out[i] = p;
	}
	memset(&out[b->n], 0, sizeof(*out));
	*n = b->n;
	rec_points_free(b);
	return out;
}

void rec_points_free(struct rec_points *b)
{
	free(b->pts);
	free(b->txt);
	*b = (struct rec_points){ 0 };
}
