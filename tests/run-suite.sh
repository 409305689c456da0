#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-suite.sh BUILD_DIR - runs every unit test binary and CLI test script
# against one build and prints their TAP lines, each file's with the
# seconds it took, then one summary line:
#   BUILD_DIR: N passed, N failed, N skipped
#
# UKB_TEST_JOBS files run at once (default 1); their output is printed in
# the files' order all the same. Each file's tests hold under load (they
# wait on events, and compare within one run), which is what lets them
# share the CPUs. A file still running after UKB_TEST_FILE_LIMIT seconds
# (default 1200) is stopped and counted as a failure, so that a hang is
# said, with the output it gave, instead of taking the whole time.
set -u
build=${1:?usage: run-suite.sh BUILD_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$top" && cd "$build" && pwd)
export UKBENCH="$build/ukbench" UKB_BUILD="$build" UKB_TOP="$top"
export CMOCKA_MESSAGE_OUTPUT=TAP
jobs=${UKB_TEST_JOBS:-1}
limit=${UKB_TEST_FILE_LIMIT:-1200}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# one line a file: its number (the output's order), its title, its command
{
	echo "layers: tests/layers.sh|sh $top/tests/layers.sh"
	for t in "$build"/tests/test-*; do
		[ -x "$t" ] && echo "unit: ${t##*/}|$t"
	done
	for t in "$top"/tests/cli/t[0-9]*.sh; do
		echo "cli: ${t##*/}|sh $t"
	done
} | awk '{ printf "%03d|%s\n", NR, $0 }' >"$out/list"

# one file: its output into $out/NNN, its seconds and status after it
run_one() {
	n=${1%%|*}
	rest=${1#*|}
	title=${rest%%|*}
	cmd=${rest#*|}
	t0=$(date +%s)
	# shellcheck disable=SC2086
	timeout -k 10 "$limit" $cmd </dev/null >"$out/$n.tap" 2>&1
	rc=$?
	{
		echo "# $title"
		cat "$out/$n.tap"
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			echo "not ok - $title: stopped after $limit s (UKB_TEST_FILE_LIMIT)"
		fi
		echo "# took $(($(date +%s) - t0)) s"
	} >"$out/$n"
	rm -f "$out/$n.tap"
}

if [ "$jobs" -le 1 ]; then
	while IFS= read -r line; do
		run_one "$line"
		cat "$out/${line%%|*}"
	done <"$out/list" | tee "$out/all"
else
	# each job a shell given run_one's text; the output in the files'
	# order once all have run
	export out limit
	fn=$(sed -n '/^run_one() {$/,/^}$/p' "$0")
	tr '\n' '\0' <"$out/list" |
		xargs -0 -P "$jobs" -n 1 sh -c "$fn
run_one \"\$1\"" sh
	while IFS= read -r line; do
		cat "$out/${line%%|*}"
	done <"$out/list" | tee "$out/all"
fi

skipped=$(grep -c '^\(not \)\{0,1\}ok .*# SKIP' "$out/all")
passed=$(grep -v '# SKIP' "$out/all" | grep -c '^ok ')
failed=$(grep -v '# SKIP' "$out/all" | grep -c '^not ok ')
echo "${build##*/}: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
