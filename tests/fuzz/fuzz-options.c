// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-options.c - libFuzzer target: command-line option values. The input
 * is split at the first byte into a field selector and a string, which is
 * given to the parser of numbers, size lists, -P parameters, event lists
 * or benchmark patterns.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "counters.h"
#include "registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ukb_event ev[UKB_MAX_COUNTERS];
	struct ukb_selection sel;
	struct ukb_err e;
	char *s, why[256], *pats[1];
	unsigned long u;
	long *sizes, vals[UKB_MAX_PARAMS];
	size_t nb;
	double d;

	if (!size)
		return 0;
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = 0;
	switch (data[0] % 6) {
	case 0:
		parse_double("--budget", s, 0.001, 86400, &d);
		break;
	case 1:
		parse_uint("--min-samples", s, 2, 10000000, &u);
		break;
	case 2:
		if (!parse_size_list("--size", s, &sizes, &e)) {
			for (long *p = sizes; *p; p++)
				if (*p <= 0)
					abort();
			free(sizes);
		}
		break;
	case 3: {
		const struct ukb_bench *const *t = ukb_registry(&nb);

		for (size_t i = 0; i < nb; i++)
			params_resolve(t[i], s, 0, vals, &e);
		break;
	}
	case 4:
		ukb_events_parse(s, ev, UKB_MAX_COUNTERS, why, sizeof(why));
		break;
	case 5:
		pats[0] = s;
		ukb_select(&sel, 1, pats, 0, NULL, 0, &e);
		ukb_selection_release(&sel);
		break;
	}
	free(s);
	return 0;
}
