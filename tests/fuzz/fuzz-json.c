// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-json.c - libFuzzer target: the reader of ukbench's JSON results (the
 * import and compare input). Any bytes: a record or a clear error, and a
 * record that is read must write back out.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[512];
	struct rec_run run;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	if (!rec_from_json_text(&run, text, size, "fuzz.json", err, sizeof(err))) {
		struct rec_run back;
		size_t len;
		char *out = rec_to_json(&run, 1, &len);

		/* what was read is written again, and reads back */
		if (!out || rec_from_json_text(&back, out, len, "again.json", err, sizeof(err)))
			abort();
		if (back.nresults != run.nresults)
			abort();
		rec_run_release(&back);
		free(out);
		rec_run_release(&run);
	} else if (!err[0]) {
		abort(); /* a refusal always says why */
	}
	free(text);
	return 0;
}
