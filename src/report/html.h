/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html.h - text that goes into a page or a markdown document as text:
 * every string from a run (labels, host names, command lines, parameters)
 * passes through these, so that "<script>" is shown, never run.
 */
#ifndef UKB_REPORT_HTML_H
#define UKB_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

/* @s with & < > " ' as character references (text and attribute values). */
void html_text(FILE *f, const char *s);

/* @len bytes of @data in base64 (RFC 4648), for a data: URL. */
void html_base64(FILE *f, const void *data, size_t len);

/*
 * @s as markdown text: each character that can start markup in running
 * text (\ ` * _ [ ] < > | & ~) backslash-escaped (CommonMark), so that
 * nothing in it is emphasis, a link, code, a tag, an entity or a table's
 * |; line breaks become spaces.
 */
void md_text(FILE *f, const char *s);

#endif
