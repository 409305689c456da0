#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run.sh BUILD_DIR SECONDS - runs every fuzz target for SECONDS, seeded with
# the corpus kept in tests/fuzz/corpus/TARGET, after replaying every crash
# reproducer kept in tests/fuzz/crashes/TARGET-* (each must now pass).
# New inputs that raise coverage stay in a scratch copy; a crash is written
# to tests/fuzz/crashes/ and fails the run. Prints TAP lines.
set -u
build=${1:?usage: run.sh BUILD_DIR SECONDS}
secs=${2:-20}
top=$(cd "$(dirname "$0")/../.." && pwd)
status=0
i=0
for t in elf json options vm; do
	bin="$build/fuzz/fuzz-$t"
	i=$((i + 1))
	work=$(mktemp -d)
	cp "$top/tests/fuzz/corpus/$t/"* "$work/" 2>/dev/null
	# replay the kept reproducers: they must no longer crash
	for r in "$top/tests/fuzz/crashes/$t-"*; do
		[ -f "$r" ] || continue
		if ! "$bin" "$r" >"$work.log" 2>&1; then
			echo "not ok $i - fuzz $t: reproducer ${r##*/} still crashes"
			status=1
			continue 2
		fi
	done
	if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 \
		-artifact_prefix="$top/tests/fuzz/crashes/$t-" "$work" >"$work.log" 2>&1; then
		runs=$(sed -n 's/^#\([0-9]*\).*DONE.*/\1/p' "$work.log" | tail -1)
		echo "ok $i - fuzz $t: ${runs:-?} inputs in ${secs} s, no crash"
	else
		echo "not ok $i - fuzz $t: crashed; reproducer in tests/fuzz/crashes/"
		tail -30 "$work.log" | sed 's/^/#   /'
		status=1
	fi
	rm -rf "$work" "$work.log"
done
echo "1..$i"
exit $status
