#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-suite.sh BUILD_DIR - runs every unit test binary and CLI test script
# against one build and prints their TAP lines, then one summary line:
#   BUILD_DIR: N passed, N failed, N skipped
set -u
build=${1:?usage: run-suite.sh BUILD_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$top" && cd "$build" && pwd)
log=$(mktemp)
export UKBENCH="$build/ukbench" UKB_BUILD="$build" UKB_TOP="$top"
export CMOCKA_MESSAGE_OUTPUT=TAP

run() {
	echo "# $1"
	shift
	t0=$(date +%s)
	"$@" 2>&1 | tee -a "$log"
	echo "# took $(($(date +%s) - t0)) s"
}

run "layers: tests/layers.sh" sh "$top/tests/layers.sh"
for t in "$build"/tests/test-*; do
	[ -x "$t" ] || continue
	run "unit: ${t##*/}" "$t"
done
for t in "$top"/tests/cli/t[0-9]*.sh; do
	run "cli: ${t##*/}" sh "$t"
done

skipped=$(grep -c '^\(not \)\{0,1\}ok .*# SKIP' "$log")
passed=$(grep -v '# SKIP' "$log" | grep -c '^ok ')
failed=$(grep -v '# SKIP' "$log" | grep -c '^not ok ')
rm -f "$log"
echo "${build##*/}: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
