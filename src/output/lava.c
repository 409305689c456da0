// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lava.c - a run as the lines a LAVA test definition runs: one
 * `lava-test-case` a path, its mean the measurement.
 *
 *   lava-test-case ukbench.syscall.null.syscall --result pass --measurement 171.2 --units ns
 *
 * A path not available here is a skip, a failed or interrupted one a
 * fail. The output is a shell script (examples/lava/ukbench.yaml runs it
 * where LAVA puts lava-test-case on the PATH): every name is made of the
 * characters LAVA takes in a test case's name, the rest turned to '_', so
 * that nothing in a label or a plug-in's name reaches the shell.
 */
#include <stdio.h>
#include <string.h>

#include "output.h"

/* @s with every character LAVA does not take in a name as '_' */
static void lava_name(FILE *f, const char *s)
{
	for (; *s; s++) {
		char c = *s;

		fputc((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			      c == '.' || c == '-' || c == '_'
			  ? c
			  : '_',
		      f);
	}
}

int lava_print(FILE *f, const struct rec_run *run)
{
	fprintf(
	    f,
	    "#!/bin/sh\n# ukbench: one lava-test-case a path, its mean in ns a call (or a unit)\n");
	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];

		fputs("lava-test-case ukbench.", f);
		lava_name(f, r->name);
		fputc('.', f);
		lava_name(f, r->path);
		if (r->status == UKB_OK && r->nsamples) {
			fprintf(f, " --result pass --measurement %.6g --units ns", r->stats.mean);
			/* a figure a byte (or another unit) says so */
			if (r->unit[0] && strcmp(r->unit, "call")) {
				fputc('/', f);
				lava_name(f, r->unit);
			}
			fputc('\n', f);
		} else if (r->status == UKB_UNSUPPORTED || r->status == UKB_SKIPPED)
			fputs(" --result skip\n", f);
		else
			fputs(" --result fail\n", f);
	}
	return ferror(f) ? -1 : 0;
}
