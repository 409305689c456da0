// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gendoc.c - the man pages and the bash and zsh completions, made from the
 * same command and option tables as --help, so none can fall behind:
 *
 *   ukbench __doc man [COMMAND]   roff: ukbench(1), or ukbench-COMMAND(1)
 *   ukbench __doc bash            a bash completion script
 *   ukbench __doc zsh             a zsh completion function (_ukbench)
 *
 * The build runs these into build/man and build/completion; make install
 * puts them in place. Benchmark names are completed at completion time
 * from 'ukbench list --names --all', so they follow the binary too.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "exits.h"
#include "options.h"
#include "version.h"

static const struct opt help_entry = OPT_CALL("help", 'h', NULL, "this text", 'h');

/* @s with roff's special characters escaped: backslashes, leading dots and quotes. */
static void roff(FILE *f, const char *s)
{
	int bol = 1;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

/* a help line's "\n" continuations joined with spaces */
static void roff_joined(FILE *f, const char *s)
{
	char buf[1024];
	size_t n = 0;

	for (; *s && n + 1 < sizeof(buf); s++)
		buf[n++] = *s == '\n' ? ' ' : *s;
	buf[n] = 0;
	roff(f, buf);
}

/*
 * A description or notes as a man page reads them at any width: prose (a
 * line that starts with no blank) filled, so that man folds it to the
 * terminal; an indented line (an example, a list) kept as it is, in a
 * no-fill block indented less than the prose, so that it fits 80 columns.
 */
static void roff_text(FILE *f, const char *text)
{
	int nofill = 0;

	while (*text) {
		size_t len = strcspn(text, "\n");
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int)len, text);
		if (!line[0]) {
			fputs(nofill ? ".fi\n.in\n.PP\n" : ".PP\n", f);
			nofill = 0;
		} else if (line[0] == ' ') {
			if (!nofill)
				fputs(".nf\n.in 2n\n", f);
			nofill = 1;
			roff(f, line);
			fputc('\n', f);
		} else {
			if (nofill)
				fputs(".fi\n.in\n", f);
			nofill = 0;
			roff(f, line);
			fputc('\n', f);
		}
		text += len + (text[len] == '\n');
	}
	if (nofill)
		fputs(".fi\n.in\n", f);
}

static void man_option(FILE *f, const struct opt *o)
{
	char text[1024];

	fputs(".TP\n.B ", f);
	if (o->shrt)
		fprintf(f, "\\-%c, ", o->shrt);
	fprintf(f, "\\-\\-");
	roff(f, o->name);
	if (o->arg) {
		fputs(" \\fI", f);
		roff(f, o->arg);
		fputs("\\fR", f);
	}
	fputc('\n', f);
	roff_joined(f, opt_help(o, text, sizeof(text)));
	fputc('\n', f);
}

static void man_command(FILE *f, const struct command *c)
{
	fputs(".TH UKBENCH\\-", f);
	for (const char *p = c->name; *p; p++)
		fputc(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p, f);
	fprintf(f, " 1 \"\" \"ukbench %s\" \"ukbench manual\"\n", ukb_version());
	fputs(".SH NAME\n", f);
	fprintf(f, "ukbench\\-%s \\- ", c->name);
	roff(f, c->summary ? c->summary : "");
	fputs("\n.SH SYNOPSIS\n.B ukbench ", f);
	roff(f, c->name);
	fputs("\n", f);
	roff(f, c->synopsis ? c->synopsis : "");
	fputs("\n.SH DESCRIPTION\n", f);
	roff_text(f, c->about ? c->about : "");
	fputs(".SH OPTIONS\n", f);
	for (const struct opt *o = c->opts; o && o->name; o++)
		man_option(f, o);
	man_option(f, &help_entry);
	for (const struct opt_old *o = c->old; o && o->name; o++) {
		if (o == c->old)
			fputs(".SS Old spellings, still taken with a note\n", f);
		fputs(".TP\n.B ", f);
		if (o->shrt)
			fprintf(f, "\\-%c, ", o->shrt);
		fputs("\\-\\-", f);
		roff(f, o->name);
		fputs("\nnow \\-\\-", f);
		roff(f, o->now);
		fputc('\n', f);
	}
	{
		const struct exit_row *rows[16];
		size_t n = exits_of(c->name, rows, 16);

		fputs(".SH EXIT STATUS\n", f);
		for (size_t i = 0; i < n; i++) {
			fputs(".TP\n.B ", f);
			roff(f, rows[i]->code);
			fputc('\n', f);
			roff(f, rows[i]->text);
			fputc('\n', f);
		}
	}
	if (c->footer) {
		fputs(".SH NOTES\n", f);
		roff_text(f, c->footer);
	}
	fputs(".SH SEE ALSO\n.BR ukbench (1)\n", f);
}

static void man_main(FILE *f)
{
	fprintf(f, ".TH UKBENCH 1 \"\" \"ukbench %s\" \"ukbench manual\"\n", ukb_version());
	fputs(".SH NAME\nukbench \\- the cost of the paths where user space meets the kernel\n"
	      ".SH SYNOPSIS\n.B ukbench\n\\fIcommand\\fR [\\fIoptions\\fR] [\\fIargs\\fR]\n"
	      ".br\n.B ukbench\n\\-\\-version | \\-\\-help\n"
	      ".SH DESCRIPTION\nukbench measures vDSO calls, system calls, copy paths and "
	      "scheduler messaging, with confidence intervals over fresh processes, perf "
	      "counters, a significance verdict between runs, and a store of every result.\n"
	      ".SH COMMANDS\n",
	      f);
	for (size_t i = 0; commands[i]; i++) {
		if (!commands[i]->summary)
			continue;
		fprintf(f, ".TP\n.BR ukbench\\-%s (1)\n", commands[i]->name);
		roff(f, commands[i]->summary);
		fputc('\n', f);
	}
	fputs(".SH ENVIRONMENT\n.TP\n.B UKBENCH_DB\nthe store (default: the XDG data "
	      "directory's ukbench/results.db)\n.TP\n.B UKBENCH_VDSO_HIDE\nvDSO functions to "
	      "treat as absent\n.TP\n.B UKBENCH_ABI32\nthe 32\\-bit helper\n.TP\n.B NO_COLOR\n"
	      "no colour in any output\n",
	      f);
}

/* A value that is a file (FILE, PATH, IMAGE): completed with file names. */
static int takes_file(const struct opt *o)
{
	return o->arg &&
	       (strstr(o->arg, "FILE") || strstr(o->arg, "PATH") || strstr(o->arg, "IMAGE"));
}

/* The commands whose operands are benchmark patterns. */
static int takes_benchmarks(const struct command *c)
{
	return !strcmp(c->name, "run") || !strcmp(c->name, "list") || !strcmp(c->name, "compare") ||
	       !strcmp(c->name, "history") || !strcmp(c->name, "report");
}

/* The commands whose operands are stored runs (labels, ids), then patterns. */
static int takes_runs(const struct command *c)
{
	return !strcmp(c->name, "compare") || !strcmp(c->name, "report") ||
	       !strcmp(c->name, "show");
}

/* The commands whose operands are files. */
static int takes_files(const struct command *c)
{
	return !strcmp(c->name, "import") || !strcmp(c->name, "show");
}

static void bash(FILE *f)
{
	fputs("# bash completion for ukbench, made by 'ukbench __doc bash'\n"
	      "_ukbench() {\n"
	      "\tlocal cur prev cmd i\n"
	      "\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	      "\tprev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tcmd=\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tcase ${COMP_WORDS[i]} in -*) ;; *) cmd=${COMP_WORDS[i]}; break ;; esac\n"
	      "\tdone\n"
	      "\tif [ -z \"$cmd\" ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"--help --version",
	      f);
	for (size_t i = 0; commands[i]; i++)
		if (commands[i]->summary)
			fprintf(f, " %s", commands[i]->name);
	fputs("\" -- \"$cur\"))\n\t\treturn\n\tfi\n\tcase $cmd in\n", f);
	for (size_t i = 0; commands[i]; i++) {
		const struct command *c = commands[i];

		if (!c->summary)
			continue;
		fprintf(f, "\t%s)\n\t\tcase $prev in\n", c->name);
		for (const struct opt *o = c->opts; o && o->name; o++) {
			if (!o->arg)
				continue;
			fprintf(f, "\t\t--%s", o->name);
			if (o->shrt)
				fprintf(f, " | -%c", o->shrt);
			/* values that are files get file names; others nothing to guess */
			if (takes_file(o))
				fputs(")\n\t\t\tCOMPREPLY=($(compgen -f -- "
				      "\"$cur\"))\n\t\t\treturn ;;\n",
				      f);
			else if (strchr(o->arg, '|'))
				fprintf(f,
					")\n\t\t\tCOMPREPLY=($(compgen -W \"$(echo '%s' | tr '|' "
					"' ')\" -- \"$cur\"))\n\t\t\treturn ;;\n",
					o->arg);
			else if (!strcmp(o->name, "label"))
				fputs(")\n\t\t\tCOMPREPLY=($(compgen -W \"$(ukbench runs --names "
				      "2>/dev/null)\" -- \"$cur\"))\n\t\t\treturn ;;\n",
				      f);
			else
				fputs(")\n\t\t\treturn ;;\n", f);
		}
		fputs("\t\tesac\n\t\tif [[ $cur == -* ]]; then\n\t\t\tCOMPREPLY=($(compgen -W \"",
		      f);
		for (const struct opt *o = c->opts; o && o->name; o++)
			fprintf(f, "--%s ", o->name);
		fputs("--help\" -- \"$cur\"))\n", f);
		if (takes_runs(c))
			fprintf(f,
				"\t\telse\n\t\t\tCOMPREPLY=($(compgen -W \"$(ukbench runs --names "
				"2>/dev/null)%s\" -- \"$cur\") $(compgen -f -- \"$cur\"))\n",
				takes_benchmarks(c) ? " $(ukbench list --names --all 2>/dev/null)"
						    : "");
		else if (takes_benchmarks(c))
			fputs("\t\telse\n\t\t\tCOMPREPLY=($(compgen -W \"$(ukbench list --names "
			      "--all "
			      "2>/dev/null)\" -- \"$cur\"))\n",
			      f);
		else if (takes_files(c))
			fputs("\t\telse\n\t\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n", f);
		fputs("\t\tfi\n\t\t;;\n", f);
	}
	fputs("\tesac\n}\ncomplete -F _ukbench ukbench\n", f);
}

/* zsh's _arguments wants [ and ] and : escaped in descriptions */
static void zsh_desc(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			fputc(' ', f);
		else if (*s == '\'')
			fputs("'\\''", f);
		else if (*s == '[' || *s == ']' || *s == ':')
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
	}
}

static void zsh(FILE *f)
{
	fputs("#compdef ukbench\n# zsh completion for ukbench, made by 'ukbench __doc zsh'\n\n"
	      "_ukbench() {\n"
	      "\tlocal -a cmds\n"
	      "\tcmds=(\n",
	      f);
	for (size_t i = 0; commands[i]; i++) {
		if (!commands[i]->summary)
			continue;
		fprintf(f, "\t\t'%s:", commands[i]->name);
		zsh_desc(f, commands[i]->summary);
		fputs("'\n", f);
	}
	fputs("\t)\n"
	      "\tif (( CURRENT == 2 )); then\n"
	      "\t\t_describe 'command' cmds\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tlocal cmd=${words[2]}\n"
	      "\tshift words\n"
	      "\t(( CURRENT-- ))\n"
	      "\tcase $cmd in\n",
	      f);
	for (size_t i = 0; commands[i]; i++) {
		const struct command *c = commands[i];

		if (!c->summary)
			continue;
		fprintf(f, "\t%s)\n\t\t_arguments -s \\\n", c->name);
		for (const struct opt *o = c->opts; o && o->name; o++) {
			const char *action = takes_file(o) ? "_files" : " ";
			char text[1024];

			fputs("\t\t\t'", f);
			if (o->shrt)
				fprintf(f, "(-%c --%s)'{-%c,--%s}'", o->shrt, o->name, o->shrt,
					o->name);
			else
				fprintf(f, "--%s", o->name);
			fputc('[', f);
			zsh_desc(f, opt_help(o, text, sizeof(text)));
			fputc(']', f);
			if (o->arg && strchr(o->arg, '|')) {
				/* its words, as a zsh list: (table json csv) */
				fputs(":value:(", f);
				for (const char *w = o->arg; *w; w++)
					fputc(*w == '|' ? ' ' : *w, f);
				fputc(')', f);
			} else if (o->arg) {
				fputc(':', f);
				zsh_desc(f, o->arg);
				fprintf(f, ":%s", action);
			}
			fputs("' \\\n", f);
		}
		fputs("\t\t\t'(-h --help)'{-h,--help}'[this text]'", f);
		if (takes_benchmarks(c))
			fputs(
			    " \\\n\t\t\t'*:benchmark:($(ukbench list --names --all 2>/dev/null))'",
			    f);
		else if (takes_files(c))
			fputs(" \\\n\t\t\t'*:file:_files'", f);
		fputs("\n\t\t;;\n", f);
	}
	fputs("\tesac\n}\n\n_ukbench \"$@\"\n", f);
}

int cmd_doc(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "bash")) {
		bash(stdout);
		return UKB_EXIT_OK;
	}
	if (argc == 2 && !strcmp(argv[1], "zsh")) {
		zsh(stdout);
		return UKB_EXIT_OK;
	}
	if (argc == 2 && !strcmp(argv[1], "man")) {
		man_main(stdout);
		return UKB_EXIT_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "man")) {
		const struct command *c = command_find(argv[2]);

		if (!c || !c->summary) {
			error("no command '%s'", argv[2]);
			return UKB_EXIT_USAGE;
		}
		man_command(stdout, c);
		return UKB_EXIT_OK;
	}
	error("usage: ukbench __doc man [COMMAND] | bash | zsh");
	return UKB_EXIT_USAGE;
}
