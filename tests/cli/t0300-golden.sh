#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What every reading command prints of a fixed store, byte for byte: the
# runs of tests/golden/runs imported into a new store, each command of
# tests/golden/commands run against it, its output (standard output, then
# standard error, then the exit status) held against tests/golden/expected.
# A change of output is then a change of this file, seen in review; moving
# code changes nothing here.
#
# After a change of output that is meant:
#   UKBENCH_GOLDEN_UPDATE=1 sh tests/cli/t0300-golden.sh
# writes tests/golden/expected anew (git diff shows what changed).
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

run_all() {
	grep -v '^#' "$golden/commands" | grep -v '^$' | while read -r line; do
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
	(cd "$TEST_ROOT" && run_all) >"$golden/expected"
	echo "# wrote $golden/expected"
fi

# each command a test of its own, so that a failure names it
n=0
grep -v '^#' "$golden/commands" | grep -v '^$' >"$TEST_ROOT/commands"
(cd "$TEST_ROOT" && run_all) >"$TEST_ROOT/got"
while read -r line; do
	n=$((n + 1))
	test_expect_success "ukbench $line: as recorded" "
		awk -v n=$n '/^\\\$ ukbench /{k++} k==n' \"$golden/expected\" >want &&
		awk -v n=$n '/^\\\$ ukbench /{k++} k==n' \"$TEST_ROOT/got\" >got &&
		test -s want && diff -u want got
	"
done <"$TEST_ROOT/commands"

test_expect_success 'every recorded command is still run (none left over)' '
	test "$(grep -c "^\\\$ ukbench " "$golden/expected")" = "$n"
'

test_done
