/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * strnum.h - numbers read strictly from text: the whole string, decimal,
 * finite, in range. strtod() alone would take leading blanks, hex
 * ("0x10" is 16), "inf" and "nan", and stop early without saying so.
 */
#ifndef UKB_CORE_STRNUM_H
#define UKB_CORE_STRNUM_H

/* A decimal number in [min, max]: 0, or -1 (the value is then untouched). */
int ukb_strtonum(const char *s, double min, double max, double *out);

/* A decimal whole number in [0, max]: 0, or -1. */
int ukb_strtouint(const char *s, unsigned long max, unsigned long *out);

#endif
