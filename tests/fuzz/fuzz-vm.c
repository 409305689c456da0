// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-vm.c - libFuzzer target: what a guest of `ukbench vm` sends as it
 * arrives, then what is made of it. The input is split into pieces of the
 * sizes its own bytes choose (a byte at a time, as QEMU writes a port, up
 * to whole blocks), each to the console or to the answer's port; then the
 * answer is read as the run it should be (a record, or a refusal that
 * says why) and shown line by line as vm --check shows a check's lines.
 *
 * What must hold: the answer is every byte sent to its port, in order,
 * NUL-ended; the console's tail stays within its room; the kernel's
 * first line is timed only from what came on the console; nothing
 * crashes or reads beyond what it holds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "vm.h"
#include "width.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vm_result r;
	struct rec_run run;
	size_t cap = 0, at = 0, sent[2] = { 0, 0 }, piece = 0;
	char *want = malloc(size + 1), err[512], line[1024], out[3200];
	uint8_t mode = size ? data[0] : 0;

	if (!want)
		return 0;
	memset(&r, 0, sizeof(r));
	r.kernel_s = -1;
	at = size ? 1 : 0;
	while (at < size) {
		/* a piece's size and port from the input's first byte and its position */
		size_t n = (mode & 3) == 0 ? 1 : (size_t)((mode >> 2) + piece * 7) % 97 + 1;
		int port = (mode & 4) ? (int)(piece & 1) : (mode & 8) ? 1 : (int)((piece % 5) == 0);

		if (n > size - at)
			n = size - at;
		if (port == 1)
			memcpy(want + sent[1], data + at, n);
		if (vm_take(&r, &cap, port, (const char *)data + at, n, (double)piece))
			abort(); /* far below the answer's limit */
		sent[port] += n;
		at += n;
		piece++;
	}
	want[sent[1]] = 0;
	if (r.answer_len != sent[1] || (sent[1] && memcmp(r.answer, want, sent[1])) ||
	    (r.answer && r.answer[r.answer_len]))
		abort();
	if (strlen(r.console) >= sizeof(r.console))
		abort();
	if (r.kernel_s >= 0 && !sent[0])
		abort();
	if (r.answer) {
		if (!rec_from_json_text(&run, r.answer, r.answer_len, "the answer of boot 1", err,
					sizeof(err)))
			rec_run_release(&run);
		else if (!err[0])
			abort(); /* a refusal always says why */
		for (const char *p = r.answer; *p;) {
			size_t l = strcspn(p, "\n");

			snprintf(line, sizeof(line), "%.*s", (int)(l < 1000 ? l : 1000), p);
			vis(line, out, sizeof(out));
			if (strlen(out) >= sizeof(out))
				abort();
			p += l + (p[l] == '\n');
		}
	}
	vis(r.console, out, sizeof(out));
	free(r.answer);
	free(want);
	return 0;
}
