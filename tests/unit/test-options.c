// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-options.c - every command's option table: each option has a line
 * of help, and --help shows every option; no two options share a name or
 * a letter; each parses, and an unknown one is refused.
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
			assert_true(o->id > 0);
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
				assert_true(a->id != b->id);
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

/* Each option of each table is taken by its long name, with a value when it takes one. */
static void test_each_option_parses(void **state)
{
	(void)state;
	for (size_t i = 0; commands[i]; i++) {
		const struct command *c = commands[i];

		for (const struct opt *o = c->opts; o && o->name; o++) {
			char name[64], word[64], *argv[4] = { (char *)c->name, name, "7", NULL };
			int first;

			snprintf(name, sizeof(name), "--%s", o->name);
			/* an option of a few words takes its first */
			if (o->arg && strchr(o->arg, '|')) {
				snprintf(word, sizeof(word), "%.*s", (int)strcspn(o->arg, "|"),
					 o->arg);
				argv[2] = word;
			}
			seen_id = 0;
			assert_int_equal(
			    opts_parse(c, o->arg ? 3 : 2, argv, 0, record, NULL, &first), 0);
			assert_int_equal(seen_id, o->id);
			if (o->arg)
				assert_string_equal(seen_arg, argv[2]);
			assert_int_equal(first, o->arg ? 3 : 2);
		}
	}
}

/* A value outside an option's words is refused before its handler sees it. */
static void test_words_refuse_others(void **state)
{
	const struct command *c = command_find("run");
	char *argv[4] = { "run", "--format", "yaml", NULL };
	int first;

	(void)state;
	seen_id = 0;
	assert_int_equal(opts_parse(c, 3, argv, 0, record, NULL, &first), -1);
	assert_int_equal(seen_id, 0);
	argv[2] = "csv";
	assert_int_equal(opts_parse(c, 3, argv, 0, record, NULL, &first), 0);
	assert_string_equal(seen_arg, "csv");
}

static void test_unknown_and_missing_values(void **state)
{
	char *bad[] = { "run", "--no-such-option", NULL };
	char *novalue[] = { "run", "--budget", NULL };
	int first;

	(void)state;
	assert_int_equal(opts_parse(command_find("run"), 2, bad, 0, record, NULL, &first), -1);
	assert_int_equal(opts_parse(command_find("run"), 2, novalue, 0, record, NULL, &first), -1);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
