// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * progress.c - the one progress line (see progress.h).
 */
#include <stdio.h>
#include <string.h>

#include "width.h"
#include "progress.h"

void progress_draw(const char *where, double elapsed, double left, const char *what)
{
	char line[512], shown[256];
	int w = out_columns(stderr, 0) - 1, n;

	n = snprintf(line, sizeof(line), "[%s] %.0f s", where, elapsed);
	if (left >= 0 && n >= 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", about %.0f s left", left);
	if (what && n >= 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ": %s",
			      vis(what, shown, sizeof(shown)));
	if (n > w && w > 3) {
		line[w - 3] = 0;
		strcat(line, "...");
	}
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
}

void progress_clear(void)
{
	fputs("\r\033[K", stderr);
	fflush(stderr);
}
