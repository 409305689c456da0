/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress.h - the one progress line of run, exec and calibrate: on
 * standard error, redrawn in place, "[WHERE] T s, about L s left: WHAT",
 * cut to the terminal's width so it never wraps (a wrapped line cannot be
 * cleared by \r).
 */
#ifndef UKB_CLI_PROGRESS_H
#define UKB_CLI_PROGRESS_H

/*
 * Draws the line: @where (the step, "1/3 paths"), @elapsed seconds,
 * @left seconds (negative: no estimate yet, none said), @what (NULL: none).
 */
void progress_draw(const char *where, double elapsed, double left, const char *what);

/* Clears the line, so that what follows starts on a clean one. */
void progress_clear(void);

#endif
