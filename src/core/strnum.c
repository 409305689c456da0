// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * strnum.c - numbers read strictly from text (see strnum.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strnum.h"

int ukb_strtonum(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !(*s == '-' || *s == '.' || (*s >= '0' && *s <= '9')) || strpbrk(s, "xXpP"))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int ukb_strtouint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!s || !(*s >= '0' && *s <= '9'))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || errno || v > max)
		return -1;
	*out = v;
	return 0;
}
