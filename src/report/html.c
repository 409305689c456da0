// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * html.c - escaping for HTML and markdown, base64 for data: URLs.
 */
#include <stdlib.h>
#include <string.h>

#include "html.h"

void html_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* a stored string's controls made visible, as vis() does */
			if (((unsigned char)*s < 0x20 && *s != '\n') || *s == 0x7f)
				fprintf(f, "^%c", *s == 0x7f ? '?' : *s + '@');
			else if ((unsigned char)*s == 0xc2 && (unsigned char)s[1] >= 0x80 &&
				 (unsigned char)s[1] <= 0x9f)
				fprintf(f, "&lt;U+%04X&gt;", (unsigned char)*++s);
			else
				fputc(*s, f);
		}
	}
}

void html_base64(FILE *f, const void *data, size_t len)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i + 3 <= len; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];

		fputc(a[v >> 18], f);
		fputc(a[v >> 12 & 63], f);
		fputc(a[v >> 6 & 63], f);
		fputc(a[v & 63], f);
	}
	if (len - i == 1) {
		unsigned v = (unsigned)p[i] << 16;

		fprintf(f, "%c%c==", a[v >> 18], a[v >> 12 & 63]);
	} else if (len - i == 2) {
		unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8;

		fprintf(f, "%c%c%c=", a[v >> 18], a[v >> 12 & 63], a[v >> 6 & 63]);
	}
}

void md_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n' || c == '\r' || c == '\t')
			fputc(' ', f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "^%c", c == 0x7f ? '?' : c + '@'); /* as vis() does */
		else if (c == 0xc2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f)
			fprintf(f, "<U+%04X>", (unsigned char)*++s);
		else if (strchr("\\`*_[]<>|&~", c))
			fprintf(f, "\\%c", c);
		else
			fputc(c, f);
	}
}
