#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What every reading command prints of a fixed store, byte for byte: the
# runs of tests/golden/runs imported into a new store, each command of
# tests/golden/commands run against it, its output (standard output, then
# standard error, then the exit status) held against the file of its
# command in tests/golden/expected/ (compare.txt holds every compare, in
# the order of tests/golden/commands). A change of output is then a change
# of these files, seen in review; moving code changes nothing here.
#
# After a change of output that is meant:
#   UKBENCH_GOLDEN_UPDATE=1 sh tests/cli/t0300-golden.sh
# writes tests/golden/expected/ anew (git diff shows what changed).
. "$(dirname "$0")/../lib.sh"

golden=$(cd "$(dirname "$0")/../golden" && pwd)

# the store, its runs imported oldest first (ids 1 to 5)
make_store() {
	for f in nightly before-1 before-2 after-1 after-2; do
		cp "$golden/runs/$f.json" . || return 1
	done
	ukbench import --db g.db nightly.json before-1.json before-2.json after-1.json \
		after-2.json >/dev/null
}

# what ukbench $1... prints, as the expected file holds it: this version
# of ukbench and the time a report was made are the only words replaced
record() {
	echo "\$ ukbench $*"
	# shellcheck disable=SC2086 # the words of a command line
	ukbench "$@" --db g.db >out 2>err
	rc=$?
	cat out err
	echo "[exit $rc]"
}

ver=$(ukbench --version | sed 's/^ukbench //')

normalise() {
	sed -e "s/$ver/VERSION/g" \
		-e 's/at [0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:]*Z\(<\/p>\)/at TIME\1/' \
		-e 's/"generated": "[^"]*"/"generated": "TIME"/'
}

# the commands of tests/golden/commands, one a line
commands() { grep -v '^#' "$golden/commands" | grep -v '^$'; }

# the subcommands they run, each once
subcommands() { commands | awk '{ print $1 }' | sort -u; }

# what the commands of subcommand $1 print, in their order
run_all() {
	commands | awk -v c="$1" '$1 == c' | while read -r line; do
		# shellcheck disable=SC2086 # the words of a command line
		record $line | normalise
	done
}

export NO_COLOR=1 COLUMNS=100 TZ=UTC LC_ALL=C.UTF-8

test_expect_success 'a store of the fixed runs is made' '
	cd "$TEST_ROOT" && make_store &&
	test "$(ukbench runs --db g.db --names | grep -c "^[0-9]")" = 5
'

if [ -n "${UKBENCH_GOLDEN_UPDATE:-}" ]; then
	rm -f "$golden"/expected/*.txt
	mkdir -p "$golden/expected"
	for c in $(subcommands); do
		(cd "$TEST_ROOT" && run_all "$c") >"$golden/expected/$c.txt"
	done
	echo "# wrote $golden/expected/"
fi

# each command a test of its own, so that a failure names it: the k-th
# command of its subcommand is the k-th block of that subcommand's file
for c in $(subcommands); do
	(cd "$TEST_ROOT" && run_all "$c") >"$TEST_ROOT/got-$c"
done
commands >"$TEST_ROOT/commands"
n=0
while read -r line; do
	n=$((n + 1))
	c=${line%% *}
	k=$(head -n "$n" "$TEST_ROOT/commands" | awk -v c="$c" '$1 == c' | wc -l)
	test_expect_success "ukbench $line: as recorded" "
		awk -v n=$k '/^\\\$ ukbench /{k++} k==n' \"$golden/expected/$c.txt\" >want &&
		awk -v n=$k '/^\\\$ ukbench /{k++} k==n' \"$TEST_ROOT/got-$c\" >got &&
		test -s want && diff -u want got
	"
done <"$TEST_ROOT/commands"

test_expect_success 'every recorded command is still run (none left over), no file of none' '
	test "$(cat "$golden"/expected/*.txt | grep -c "^\\\$ ukbench ")" = "$n" &&
	for f in "$golden"/expected/*.txt; do
		c=$(basename "$f" .txt) &&
		commands | awk "\$1 == \"$c\"" | grep -q . || return 1
	done
'

test_done
