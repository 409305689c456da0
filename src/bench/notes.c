// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * notes.c - the benchmarks that explain their figures, and their lines
 * (see notes.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "notes.h"

/* Each benchmark family that explains its figures, in the order said. */
static void (*const explainers[])(struct ukb_notes *n) = { ukb_lab_explain };

void ukb_explain(struct ukb_notes *n)
{
	for (size_t i = 0; i < sizeof(explainers) / sizeof(explainers[0]); i++)
		explainers[i](n);
}

void ukb_note(struct ukb_notes *t, const char *fmt, ...)
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
