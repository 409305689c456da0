#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The recipes of docs/ARCHITECTURE.md ("Where to add"), followed to the
# letter in a scratch copy of the sources: a benchmark, a field of a
# result, an output format and a subcommand are added by the edits the recipe names and
# nothing else, the copy is built, and each is seen in what ukbench does:
# listed and measured, written to the JSON and the CSV and kept by the
# store (its new schema version), printed by run and show; and a
# subcommand, listed, helped and parsed. (A store backend's recipe is held
# by tests/unit/test-store.c, which dispatches to a backend of its own.)
. "$(dirname "$0")/../lib.sh"

top=${UKB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
copy="$TEST_ROOT/copy"


# python3 edits the copy's files: each edit must find the text it changes
edit() {
	python3 - "$@" <<-\PY
	import sys
	path, old, new = sys.argv[1:4]
	s = open(path).read()
	if old not in s:
	    sys.exit("%s: the recipe's anchor is gone: %r" % (path, old))
	open(path, "w").write(s.replace(old, new, 1))
	PY
}

test_expect_success NOT_SANITIZER_SUITE 'a scratch copy of the sources' '
	mkdir -p "$copy" &&
	cp -R "$top/src" "$top/include" "$top/Makefile" "$copy/" &&
	test -f "$copy/src/bench/registry.h"
'

# A benchmark: a file in src/bench/ ending with its struct ukb_bench, and
# one line in UKB_BENCHMARKS().
test_expect_success NOT_SANITIZER_SUITE 'recipe: a benchmark (a file, a line in the registry)' '
	cat >"$copy/src/bench/recipe.c" <<-\EOF &&
	// SPDX-License-Identifier: GPL-2.0-or-later
	/* recipe.c - a benchmark added by the recipe test. */
	#include "ukbench.h"

	static int recipe_run(struct ukb_ctx *c, uint64_t n)
	{
		(void)c;
		for (uint64_t i = 0; i < n; i++)
			__asm__ __volatile__("" ::: "memory");
		return 0;
	}

	static const struct ukb_path recipe_paths[] = {
		{ .name = "loop", .run = recipe_run, .detail = "the recipe" },
		{ NULL },
	};

	const struct ukb_bench ukb_bench_recipe_noop = {
		.name = "recipe.noop",
		.summary = "a benchmark the recipe test added",
		.unit = "iteration",
		.paths = recipe_paths,
	};
	EOF
	edit "$copy/src/bench/registry.h" "X(lab_spin)" "X(lab_spin) X(recipe_noop)"
'

# A field of a result: the member in struct rec_result, a line in
# rec_fields[] with the schema version its column arrives in, and that
# migration (one more entry of migrations[], the version one up).
test_expect_success NOT_SANITIZER_SUITE 'recipe: a field (a member, a line in rec_fields[], a migration)' '
	v=$(sed -n "s/^#define UKB_STORE_SCHEMA_VERSION \([0-9]*\)$/\1/p" "$copy/src/store/store.h") &&
	test -n "$v" &&
	next=$((v + 1)) &&
	edit "$copy/src/record/record.h" "struct rec_result {" \
		"struct rec_result {
	int recipe_field;" &&
	edit "$copy/src/record/fields.c" "const struct rec_field rec_fields[] = {" \
		"const struct rec_field rec_fields[] = {
	F(\"recipe_field\", \"recipe_field\", RF_INT, recipe_field, RF_CSV, $next)," &&
	edit "$copy/src/store/store-sqlite.c" "\"ALTER TABLE results ADD COLUMN process_ref TEXT;\"," \
		"\"ALTER TABLE results ADD COLUMN process_ref TEXT;\",
	\"ALTER TABLE results ADD COLUMN recipe_field INTEGER;\"," &&
	edit "$copy/src/store/store.h" "#define UKB_STORE_SCHEMA_VERSION $v" \
		"#define UKB_STORE_SCHEMA_VERSION $next"
'

# An output format: its value in enum out_format and its word in
# OUT_FORMATS (output.h), its writer and its case in print_run()
# (formats.c). run, show and exec take it from there.
test_expect_success NOT_SANITIZER_SUITE 'recipe: an output format (output.h, formats.c)' '
	edit "$copy/src/output/output.h" "OUT_KCIDB };" "OUT_KCIDB, OUT_NAMES };" &&
	edit "$copy/src/output/output.h" "|kcidb\"" "|kcidb|names\"" &&
	edit "$copy/src/output/formats.c" "int print_run(" \
		"static int names_print(FILE *f, const struct rec_run *run)
{
	for (size_t i = 0; i < run->nresults; i++)
		fprintf(f, \"%s/%s\\n\", run->results[i].name, run->results[i].path);
	return ferror(f) ? -1 : 0;
}

int print_run(" &&
	edit "$copy/src/output/formats.c" "	case OUT_KCIDB:" "	case OUT_NAMES:
		return names_print(f, run);
	case OUT_KCIDB:"
'

# A subcommand: src/cli/cmd-NAME.c with its option table and its struct
# command, both declared in cli.h, listed once in commands.c.
test_expect_success NOT_SANITIZER_SUITE 'recipe: a subcommand (cmd-NAME.c, cli.h, commands.c)' '
	cat >"$copy/src/cli/cmd-recipe.c" <<-\EOF &&
	// SPDX-License-Identifier: GPL-2.0-or-later
	/* cmd-recipe.c - a subcommand added by the recipe test. */
	#include <stdio.h>

	#include "cli.h"
	#include "options.h"

	struct recipe_opts {
		const char *who;
		unsigned times;
	};

	static const struct opt recipe_opts_table[] = {
		OPT_STRING("who", 0, "NAME", "whom to greet", struct recipe_opts, who),
		OPT_UNSIGNED("times", 0, "N", "how often (default 1)", 1, 9, struct recipe_opts,
			     times),
		OPT_END,
	};

	const struct command cmd_recipe_def = {
		.name = "recipe",
		.fn = cmd_recipe,
		.summary = "greet, as the recipe test added it",
		.synopsis = "[--who NAME] [--times N]",
		.about = "Greets.",
		.opts = recipe_opts_table,
	};

	int cmd_recipe(int argc, char **argv)
	{
		struct recipe_opts o = { .who = "world", .times = 1 };
		int first, rc = opts_parse(&cmd_recipe_def, argc, argv, 0, NULL, &o, &first);

		if (rc)
			return rc > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
		for (unsigned i = 0; i < o.times; i++)
			printf("hello %s\n", o.who);
		return UKB_EXIT_OK;
	}
	EOF
	edit "$copy/src/cli/cli.h" "int cmd_run(int argc, char **argv);" \
		"int cmd_run(int argc, char **argv);
int cmd_recipe(int argc, char **argv);
extern const struct command cmd_recipe_def;" &&
	edit "$copy/src/cli/commands.c" "&cmd_vdso_def," "&cmd_vdso_def, &cmd_recipe_def,"
'

test_expect_success NOT_SANITIZER_SUITE 'the copy builds with the four added, warnings as errors' '
	make -s -C "$copy" -j"$(nproc 2>/dev/null || echo 2)" WERROR=1 ABI32_CC= O=build \
		>build.log 2>&1 || { tail -30 build.log; false; } &&
	test -x "$copy/build/ukbench"
'

test_expect_success NOT_SANITIZER_SUITE 'the benchmark is listed and measured' '
	"$copy/build/ukbench" list recipe >out &&
	grep -q "recipe.noop" out &&
	"$copy/build/ukbench" run --db "$TEST_ROOT/r.db" -Q -f names recipe.noop >names &&
	test "$(cat names)" = "recipe.noop/loop"
'

test_expect_success NOT_SANITIZER_SUITE 'the field is in the JSON, the CSV and the store' '
	"$copy/build/ukbench" show --db "$TEST_ROOT/r.db" -f json >r.json &&
	jq -e ".results[0].recipe_field == 0" r.json &&
	"$copy/build/ukbench" show --db "$TEST_ROOT/r.db" -f csv >r.csv &&
	head -1 r.csv | tr , "\n" | grep -qx recipe_field &&
	sqlite3 "$TEST_ROOT/r.db" "SELECT recipe_field FROM results" | grep -qx 0 &&
	test "$(sqlite3 "$TEST_ROOT/r.db" "PRAGMA user_version")" = \
		"$(sed -n "s/^#define UKB_STORE_SCHEMA_VERSION \([0-9]*\)$/\1/p" "$copy/src/store/store.h")"
'

test_expect_success NOT_SANITIZER_SUITE 'the format is refused by this ukbench, taken by the copy' '
	test_expect_code 2 ukbench show --db "$TEST_ROOT/r.db" -f names 2>err &&
	grep -q "unknown format" err &&
	"$copy/build/ukbench" show --db "$TEST_ROOT/r.db" -f names >shown &&
	test "$(cat shown)" = "recipe.noop/loop" &&
	"$copy/build/ukbench" run --help | grep -q "table|json|csv|ktap|gbench|lava|kcidb|names"
'

test_expect_success NOT_SANITIZER_SUITE 'the subcommand is listed, helps, and parses its options' '
	"$copy/build/ukbench" --help | grep -q "^   recipe  *greet" &&
	"$copy/build/ukbench" recipe --help | grep -q -- "--times N" &&
	test "$("$copy/build/ukbench" recipe --who kernel --times 2)" = "hello kernel
hello kernel" &&
	test_expect_code 2 "$copy/build/ukbench" recipe --times 10 2>err &&
	grep -q "between 1 and 9" err
'

test_done
