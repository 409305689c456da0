// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-options.c - every command's option table: each option has a line
 * of help, and --help shows every option; no two options share a name or
 * a letter, and a letter means one option in every command; each parses
 * (its handler called, or its member set within its bounds), and an
 * unknown one is refused.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "filter-opts.h"
#include "kcidb-opts.h"
#include "plugin-opts.h"
#include "options.h"

static void test_every_option_has_help(void **state)
{
	(void)state;
	for (size_t i = 0; commands[i]; i++) {
		const struct command *c = commands[i];

		assert_non_null(c->name);
		assert_non_null(c->fn);
		assert_non_null(c->synopsis);
		assert_true(c->about && c->about[0]);
		for (const struct opt *o = c->opts; o && o->name; o++) {
			if (!o->help || !o->help[0])
				fail_msg("ukbench %s --%s has no help line", c->name, o->name);
			/* the command's handler gets an id; a bound option has none */
			assert_true(o->kind == OPT_K_CALL ? o->id > 0 : o->id == 0);
		}
	}
}

static void test_help_shows_every_option(void **state)
{
	(void)state;
	for (size_t i = 0; commands[i]; i++) {
		const struct command *c = commands[i];
		char *text = NULL, want[64];
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		assert_non_null(f);
		opts_help(f, c);
		fclose(f);
		assert_non_null(strstr(text, "usage: ukbench "));
		assert_non_null(strstr(text, "  -h, --help"));
		for (const struct opt *o = c->opts; o && o->name; o++) {
			snprintf(want, sizeof(want), "--%s%s", o->name, o->arg ? " " : "");
			if (!strstr(text, want))
				fail_msg("'ukbench %s --help' does not show --%s", c->name,
					 o->name);
			if (o->shrt) {
				snprintf(want, sizeof(want), "-%c, --%s", o->shrt, o->name);
				if (!strstr(text, want))
					fail_msg("'ukbench %s --help' does not show -%c", c->name,
						 o->shrt);
			}
		}
		free(text);
	}
}

static void test_names_are_unique(void **state)
{
	(void)state;
	for (size_t i = 0; commands[i]; i++) {
		assert_ptr_equal(command_find(commands[i]->name), commands[i]);
		for (const struct opt *a = commands[i]->opts; a && a->name; a++) {
			assert_true(strcmp(a->name, "help") && a->shrt != 'h');
			for (const struct opt *b = a + 1; b->name; b++) {
				assert_true(strcmp(a->name, b->name));
				assert_true(!a->shrt || a->shrt != b->shrt);
				assert_true(a->kind != OPT_K_CALL || a->id != b->id);
			}
		}
	}
}

static int seen_id;
static const char *seen_arg;

static int record(void *ctx, int id, const char *arg)
{
	(void)ctx;
	seen_id = id;
	seen_arg = arg;
	return 0;
}

/* Room for any command's options struct, for the options bound to a member. */
static union {
	char bytes[1 << 16];
	double align;
} scratch;

/* A value an option takes: its first word, or a number within its bounds. */
static void value_for(const struct opt *o, char *buf, size_t len)
{
	double v = 7;

	if (o->arg && strchr(o->arg, '|')) {
		snprintf(buf, len, "%.*s", (int)strcspn(o->arg, "|"), o->arg);
		return;
	}
	if (o->kind == OPT_K_FUNC) {
		/*
		 * the readers of their own: a date; a plug-in, loaded (t0330
		 * tests it); KCIDB's origin and checkout (t0380)
		 */
		assert_true(o->parse == filter_parse_date || o->parse == plugin_option ||
			    o->parse == kcidb_parse_origin || o->parse == kcidb_parse_checkout ||
			    o->parse == opt_parse_sizes);
		snprintf(buf, len,
			 o->parse == kcidb_parse_origin ? "my_lab"
			 : o->parse == opt_parse_sizes	? "64,4k"
							: "2026-11-30");
		return;
	}
	if (o->kind != OPT_K_CALL && o->kind != OPT_K_STRING && (v < o->lo || v > o->hi))
		v = o->lo;
	snprintf(buf, len, "%.17g", v);
}

/*
 * Each option of each table is taken by its long name, with a value when
 * it takes one: one the command handles reaches its handler with its id;
 * one bound to a member is set there, as its kind says.
 */
static void test_each_option_parses(void **state)
{
	(void)state;
	for (size_t i = 0; commands[i]; i++) {
		const struct command *c = commands[i];

		for (const struct opt *o = c->opts; o && o->name; o++) {
			char name[64], word[64], *argv[4] = { (char *)c->name, name, word, NULL };

			if (o->kind == OPT_K_FUNC && o->parse == plugin_option)
				continue;
			const char *at = scratch.bytes + o->off;
			int first;

			snprintf(name, sizeof(name), "--%s", o->name);
			value_for(o, word, sizeof(word));
			memset(&scratch, 0, sizeof(scratch));
			assert_true(o->off + sizeof(double) <= sizeof(scratch));
			seen_id = 0;
			assert_int_equal(
			    opts_parse(c, o->arg ? 3 : 2, argv, 0, record, &scratch, &first), 0);
			assert_int_equal(first, o->arg ? 3 : 2);
			switch (o->kind) {
			case OPT_K_CALL:
				assert_int_equal(seen_id, o->id);
				if (o->arg)
					assert_string_equal(seen_arg, word);
				break;
			case OPT_K_BOOL:
				assert_int_equal(*(const int *)at, 1);
				break;
			case OPT_K_STRING:
				assert_ptr_equal(*(const char *const *)at, word);
				break;
			case OPT_K_UNSIGNED:
				assert_int_equal(*(const unsigned *)at, (unsigned)atof(word));
				break;
			case OPT_K_ULONG:
				assert_int_equal(*(const unsigned long *)at,
						 (unsigned long)atof(word));
				break;
			case OPT_K_SIZE:
				assert_int_equal(*(const size_t *)at, (size_t)atof(word));
				break;
			case OPT_K_DOUBLE:
				assert_true(*(const double *)at ==
					    atof(word) * (o->scale ? o->scale : 1));
				break;
			case OPT_K_PERCENT:
				assert_true(*(const double *)at == atof(word) / 100);
				break;
			case OPT_K_CHOICE:
				assert_int_equal(*(const int *)at, 0);
				break;
			case OPT_K_FUNC:
				if (o->parse == opt_parse_sizes) {
					long *l = *(long *const *)at;

					assert_true(l[0] == 64 && l[1] == 4096 && !l[2]);
					free(l);
					break;
				}
				assert_ptr_equal(*(const char *const *)at, word);
				break;
			}
			/* given: its member says so */
			if (o->given)
				assert_int_equal(*(const int *)(scratch.bytes + o->given - 1), 1);
			if (o->named)
				assert_string_equal(
				    *(const char *const *)(scratch.bytes + o->named - 1), o->name);
			if (o->kind != OPT_K_CALL)
				assert_int_equal(seen_id, 0);
		}
	}
}

/* A number bound to a member is refused outside its bounds, naming the option. */
static void test_bounds_refused(void **state)
{
	const struct command *c = command_find("history");
	char *argv[4] = { "history", "--window", "0", NULL };
	int first;

	(void)state;
	memset(&scratch, 0, sizeof(scratch));
	assert_int_equal(opts_parse(c, 3, argv, 0, NULL, &scratch, &first), -1);
	argv[2] = "1001";
	assert_int_equal(opts_parse(c, 3, argv, 0, NULL, &scratch, &first), -1);
	argv[2] = "12";
	assert_int_equal(opts_parse(c, 3, argv, 0, NULL, &scratch, &first), 0);
}

/*
 * One letter, one meaning: a short letter is the same long option in
 * every command that has it.
 */
static void test_letters_mean_one_thing(void **state)
{
	const char *meaning[128] = { 0 };
	const char *where[128] = { 0 };

	(void)state;
	for (size_t i = 0; commands[i]; i++)
		for (const struct opt *o = commands[i]->opts; o && o->name; o++) {
			int k = o->shrt;

			if (!k)
				continue;
			assert_true(k > 0 && k < 128);
			if (!meaning[k]) {
				meaning[k] = o->name;
				where[k] = commands[i]->name;
			} else if (strcmp(meaning[k], o->name) &&
				   /* -r: fresh processes, each a repetition (options.h) */
				   !(k == 'r' && strstr("processes|repeat", meaning[k]) &&
				     strstr("processes|repeat", o->name))) {
				fail_msg("-%c is --%s in %s but --%s in %s", k, meaning[k],
					 where[k], o->name, commands[i]->name);
			}
		}
}

/*
 * An old spelling names an option its command has, and neither its name
 * nor its letter is one of the command's own options.
 */
static void test_old_spellings_lead_somewhere(void **state)
{
	size_t n = 0;

	(void)state;
	for (size_t i = 0; commands[i]; i++)
		for (const struct opt_old *o = commands[i]->old; o && o->name; o++, n++) {
			if (!opt_find(commands[i], o->now))
				fail_msg("%s: --%s stands for --%s, which it has not",
					 commands[i]->name, o->name, o->now);
			assert_null(opt_find(commands[i], o->name));
			for (const struct opt *p = commands[i]->opts; o->shrt && p->name; p++)
				assert_int_not_equal(p->shrt, o->shrt);
		}
	assert_true(n >= 6);
}

/* A value outside an option's words is refused before its handler sees it. */
static void test_words_refuse_others(void **state)
{
	const struct command *c = command_find("run");
	char *argv[4] = { "report", "--format", "yaml", NULL };
	const struct opt *fmt = c->opts;
	int first;

	(void)state;
	/* one the command handles: its handler never sees another word */
	seen_id = 0;
	memset(&scratch, 0, sizeof(scratch));
	assert_int_equal(opts_parse(command_find("report"), 3, argv, 0, record, &scratch, &first),
			 -1);
	assert_int_equal(seen_id, 0);
	argv[2] = "markdown";
	assert_int_equal(opts_parse(command_find("report"), 3, argv, 0, record, &scratch, &first),
			 0);
	assert_string_equal(seen_arg, "markdown");
	/* one bound to a member: the index of its word, the others refused */
	argv[0] = "run";
	while (strcmp(fmt->name, "format"))
		fmt++;
	assert_int_equal(fmt->kind, OPT_K_CHOICE);
	argv[1] = "--format";
	argv[2] = "yaml";
	memset(&scratch, 0, sizeof(scratch));
	assert_int_equal(opts_parse(c, 3, argv, 0, record, &scratch, &first), -1);
	assert_int_equal(*(const int *)(scratch.bytes + fmt->off), 0);
	argv[2] = "ktap";
	assert_int_equal(opts_parse(c, 3, argv, 0, record, &scratch, &first), 0);
	assert_int_equal(*(const int *)(scratch.bytes + fmt->off), 3);
}

static void test_unknown_and_missing_values(void **state)
{
	char *bad[] = { "run", "--no-such-option", NULL };
	char *novalue[] = { "run", "--budget", NULL };
	int first;

	(void)state;
	assert_int_equal(opts_parse(command_find("run"), 2, bad, 0, record, &scratch, &first), -1);
	assert_int_equal(opts_parse(command_find("run"), 2, novalue, 0, record, &scratch, &first),
			 -1);
}

/*
 * A default the table declares is set through the option's own reader
 * before the command line is read, and --help shows it as written.
 */
static void test_defaults_from_the_table(void **state)
{
	const struct command *c = command_find("history");
	const struct opt *w = opt_find(c, "window");
	char *argv[2] = { "history", NULL }, text[1024];
	int first, n = 0;

	(void)state;
	assert_non_null(w);
	assert_string_equal(w->def, "5");
	memset(&scratch, 0, sizeof(scratch));
	assert_int_equal(opts_parse(c, 1, argv, 0, NULL, &scratch, &first), 0);
	assert_int_equal(*(const unsigned long *)(scratch.bytes + w->off), 5);
	assert_non_null(strstr(opt_help(w, text, sizeof(text)), " (default 5)"));
	/* every default of every table is one its option takes */
	for (size_t i = 0; commands[i]; i++)
		for (const struct opt *o = commands[i]->opts; o && o->name; o++)
			if (o->def) {
				char *one[2] = { (char *)commands[i]->name, NULL };

				memset(&scratch, 0, sizeof(scratch));
				assert_int_equal(
				    opts_parse(commands[i], 1, one, 0, record, &scratch, &first),
				    0);
				assert_null(strstr(o->help, "(default"));
				n++;
			}
	assert_true(n >= 10);
	/* run binds its numbers: what it hands to a handler of its own is few */
	n = 0;
	for (const struct opt *o = command_find("run")->opts; o->name; o++)
		n += o->kind == OPT_K_CALL;
	assert_true(n <= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_option_has_help),
		cmocka_unit_test(test_help_shows_every_option),
		cmocka_unit_test(test_names_are_unique),
		cmocka_unit_test(test_each_option_parses),
		cmocka_unit_test(test_unknown_and_missing_values),
		cmocka_unit_test(test_words_refuse_others),
		cmocka_unit_test(test_bounds_refused),
		cmocka_unit_test(test_defaults_from_the_table),
		cmocka_unit_test(test_letters_mean_one_thing),
		cmocka_unit_test(test_old_spellings_lead_somewhere),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
