// SPDX-License-Identifier: GPL-2.0-or-later
/* version.c - the one place the version string is compiled in. */
#include "version.h"

#ifndef UKB_VERSION
#define UKB_VERSION "unknown"
#endif

const char *ukb_version(void)
{
	return UKB_VERSION;
}
