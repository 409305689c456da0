// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * width.c - columns and display widths for the tables.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "width.h"

int out_columns(FILE *f, int wide)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long c;

	if (wide)
		return 0;
	/* COLUMNS, as ls and most tools take it, then the terminal, then 80 */
	if (env && *env && (c = strtol(env, &end, 10)) >= 40 && c <= 100000 && !*end)
		return (int)c;
	if (isatty(fileno(f)) && !ioctl(fileno(f), TIOCGWINSZ, &ws) && ws.ws_col >= 40)
		return ws.ws_col;
	return 80;
}

static const char *vis_into(const char *s, char *buf, size_t len, int lines)
{
	size_t o = 0;

	if (!len)
		return buf;
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p && o + 1 < len; p++) {
		char esc[12];
		size_t n;

		if ((*p < 0x20 && !(lines && *p == '\n')) || *p == 0x7f) {
			snprintf(esc, sizeof(esc), "^%c", *p == 0x7f ? '?' : *p + '@');
		} else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			snprintf(esc, sizeof(esc), "<U+%04X>", p[1]);
			p++;
		} else {
			buf[o++] = (char)*p;
			continue;
		}
		n = strlen(esc);
		if (o + n + 1 > len)
			break;
		memcpy(buf + o, esc, n);
		o += n;
	}
	buf[o] = 0;
	return buf;
}

const char *vis(const char *s, char *buf, size_t len)
{
	return vis_into(s, buf, len, 0);
}

const char *vis_lines(const char *s, char *buf, size_t len)
{
	return vis_into(s, buf, len, 1);
}

int disp_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

void cut_text(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (!len)
		return;
	if (n < len) {
		memcpy(buf, s, n + 1);
		return;
	}
	if (len == 1) {
		buf[0] = 0;
		return;
	}
	memcpy(buf, s, len - 2);
	buf[len - 2] = '~';
	buf[len - 1] = 0;
}

void put_cell(FILE *f, const char *text, int width, int right)
{
	char buf[1024];
	const char *s = vis(text, buf, sizeof(buf));
	int pad = width - disp_width(s);

	if (right)
		fprintf(f, "%*s%s", pad > 0 ? pad : 0, "", s);
	else
		fprintf(f, "%s%*s", s, pad > 0 ? pad : 0, "");
}

void put_folded(FILE *f, const char *raw, int at, int indent, int cols)
{
	char buf[4096] = "";
	const char *text = vis(raw, buf, sizeof(buf));
	int col = at;
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, " ");
		char word[512];
		int w;

		if (n >= sizeof(word))
			n = sizeof(word) - 1;
		memcpy(word, p, n);
		word[n] = 0;
		w = disp_width(word);
		if (cols && col > indent && col + 1 + w > cols) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > at || (p != text)) {
			fputc(' ', f);
			col++;
		}
		fputs(word, f);
		col += w;
		p += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}
