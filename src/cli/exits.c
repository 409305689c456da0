// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * exits.c - every command's exit statuses, in one table.
 *
 * --help and the man pages print them from here, and tests/cli/t0360
 * makes each command exit with each status it lists, so a status the
 * code gives and the table does not (or the other way round) is found.
 * The codes keep one meaning in every command: 1 is the command's own
 * failure (a benchmark that failed, a verdict of regressed, a store or an
 * output that refused a write), 2 is input it will not take (nothing
 * done), 125 and 128 speak to 'git bisect run', 128+N is a signal.
 */
#include <stdlib.h>
#include <string.h>

#include "exits.h"

/* what a command's row of 1 adds where it writes an output or a store */
#define REFUSED "; or an output or the store refused a write (nothing stored before is lost)"
/* how every row of 128+N begins */
#define SIGNALLED "stopped by signal N (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP): "

/* cmd NULL: a row of every command, after the command's own */
static const struct exit_row rows[] = {
	{ "run", "0", "every path measured, or not available here (said in its row)" },
	{ "run", "1",
	  "a benchmark failed; with --fail-on-regression, a path regressed beyond PCT" REFUSED },
	{ "run", "125", "with --fail-on-regression: a path cannot be told from noise at PCT" },
	{ "list", "0", "listed" },
	{ "check", "0", "nothing failed (a function not exported is skipped, with why)" },
	{ "check", "1", "a check failed: the vDSO and the system call disagreed" REFUSED },
	{ "exec", "0", "every run of the command exited 0 (or --allow-failure)" },
	{ "exec", "1", "a run of the command exited non-zero or timed out" REFUSED },
	{ "exec", "127", "the command cannot be started" },
	{ "compare", "0",
	  "compared; with --fail-on-regression or --bisect, no path "
	  "regressed beyond PCT" },
	{ "compare", "1",
	  "with --fail-on-regression or --bisect: a path regressed beyond PCT" REFUSED },
	{ "compare", "125",
	  "with --fail-on-regression or --bisect: a path cannot be told "
	  "from noise at PCT ('git bisect run' skips the commit)" },
	{ "compare", "128",
	  "with --bisect: any error, in place of 1 or 2, so that 'git "
	  "bisect run' stops instead of blaming the commit" },
	{ "report", "0", "written (a report without plots too, with a warning)" },
	{ "history", "0", "printed" },
	{ "runs", "0", "listed, deleted or relabelled" },
	{ "show", "0", "printed" },
	{ "import", "0", "every file stored" },
	{ "import", "1",
	  "the store refused a run, or an output a write: the files before it are stored, "
	  "none after it" },
	{ "push", "0", "nothing waits any more (or --status printed)" },
	{ "push", "1",
	  "a run could not be pushed: it waits in the spool, with the reason" REFUSED },
	{ "fleet-init", "0", "the schema and roles are made (or were already)" },
	{ "fleet-init", "1", "the server refused, or an output a write" },
	{ "prune", "0", "pruned (or counted, with --dry-run)" },
	{ "fleet-prune", "0", "pruned (or counted, with --dry-run)" },
	{ "fleet-prune", "1",
	  "the server refused (the role is not granted it), nothing pruned; or an output "
	  "refused a write" },
	{ "calibrate", "0", "measured and stored" },
	{ "env", "0", "printed" },
	{ "vdso", "0", "printed" },
	{ "vm", "0", "every boot measured (or checked, with --check, nothing failed)" },
	{ "vm", "1", "a boot failed (the console's end says why), or a check failed" REFUSED },
	/* what measures keeps what it measured when stopped */
	{ "run", "128+N",
	  SIGNALLED "what was measured is printed and stored, a half-written file removed" },
	{ "exec", "128+N",
	  SIGNALLED "the runs made are printed and stored, a half-written file removed" },
	{ "calibrate", "128+N", SIGNALLED "the rounds made are stored, none counted half" },
	{ "vm", "128+N", SIGNALLED "the boots made are stored, the emulator ended with it" },
	{ NULL, "1",
	  "failed at its work: an output or the store refused a write (a full "
	  "disk, a closed pipe), or what the machine holds (the vDSO, the store) "
	  "could not be read; nothing stored before is lost" },
	{ NULL, "2",
	  "bad usage or input: an unknown option, a value out of bounds, a name "
	  "or pattern that matches nothing, a run or file that cannot be read or "
	  "is stored already, a change not confirmed; nothing was done" },
	{ NULL, "128+N",
	  SIGNALLED "nothing half-written is left (a file being written is removed), "
		    "nothing stored before is lost" },
	{ NULL, NULL, NULL },
};

/* Where @code goes in the list: by number, 128+N last. */
static long rank(const char *code)
{
	return !strcmp(code, "128+N") ? 1000 : strtol(code, NULL, 10);
}

size_t exits_of(const char *cmd, const struct exit_row **out, size_t max)
{
	size_t n = 0;

	for (const struct exit_row *r = rows; r->code; r++) {
		size_t k;

		if (r->cmd && strcmp(r->cmd, cmd))
			continue;
		/* a command's own row of a code stands for the shared one: one row a code */
		if (!r->cmd) {
			size_t o = 0;

			while (o < n && strcmp(out[o]->code, r->code))
				o++;
			if (o < n)
				continue;
		}
		if (n == max)
			break;
		/* by code */
		for (k = n; k > 0 && rank(out[k - 1]->code) > rank(r->code); k--)
			out[k] = out[k - 1];
		out[k] = r;
		n++;
	}
	return n;
}

void exits_help(FILE *f, const char *cmd)
{
	const struct exit_row *list[16];
	size_t n = exits_of(cmd, list, 16);

	fputs("exit status:\n", f);
	for (size_t i = 0; i < n; i++) {
		const char *t = list[i]->text;
		int col = 9, first = 1;

		/* the meaning wrapped at 80 columns, under its start */
		fprintf(f, "  %-6s ", list[i]->code);
		while (*t) {
			size_t w = strcspn(t, " ");

			if (!first && col + 1 + (int)w > 79) {
				fprintf(f, "\n%9s", "");
				col = 9;
				first = 1;
			}
			fprintf(f, "%s%.*s", first ? "" : " ", (int)w, t);
			col += (int)w + !first;
			first = 0;
			t += w;
			while (*t == ' ')
				t++;
		}
		fputc('\n', f);
	}
}
