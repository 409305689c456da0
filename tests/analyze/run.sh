#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run.sh - the product's code read by two static analysers: clang's
# scan-build (every checker it enables by default) and gcc -fanalyzer.
# scan-build must find nothing. Every report of gcc -fanalyzer must be
# explained in tests/analyze/known (file, function, check, and why it is
# not a defect); a report not there fails, and so does an explanation that
# no longer matches a report (it would hide the next one). TAP output; an
# analyser that is not installed is a skip with its reason.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM HUP
jobs=$(nproc 2>/dev/null || echo 2)
status=0

echo "TAP version 13"
echo "1..2"

# 1. scan-build over everything make builds into ukbench
if ! command -v scan-build >/dev/null; then
	echo "ok 1 - scan-build # SKIP scan-build not installed (clang-tools)"
elif scan-build -o "$work/sb" --status-bugs make -s -j"$jobs" O="$work/build" WERROR=0 \
	"$work/build/ukbench" >"$work/sb.log" 2>&1; then
	echo "ok 1 - scan-build: no report"
else
	echo "not ok 1 - scan-build"
	grep -A3 'warning:\|error' "$work/sb.log" | sed 's/^/#   /' | head -60
	status=1
fi

# 2. gcc -fanalyzer, file by file, against the explained reports
if ! echo 'int main(void){return 0;}' | gcc -fanalyzer -x c -c - -o /dev/null 2>/dev/null; then
	echo "ok 2 - gcc -fanalyzer # SKIP this gcc has no -fanalyzer"
	exit $status
fi
inc="-Iinclude"
for p in $(ls src); do
	inc="$inc -Isrc/$p"
done
flags="$(pkg-config --cflags jansson libpq 2>/dev/null) $(pkg-config --exists capstone 2>/dev/null && echo "-DHAVE_CAPSTONE $(pkg-config --cflags capstone)")"
# each file on its own, $jobs at once: its log into $work/logs/
mkdir -p "$work/logs"
export work inc flags
# shellcheck disable=SC2016
ls src/*/*.c | xargs -P "$jobs" -n 1 sh -c '
	f=$1
	LC_ALL=C gcc -std=gnu11 -O0 -fanalyzer $inc $flags -DUKB_VERSION="\"analyze\"" \
		-c "$f" -o /dev/null >"$work/logs/$(echo "$f" | tr / _).log" 2>&1
	true' sh
for f in src/*/*.c; do
	one="$work/logs/$(echo "$f" | tr / _).log"
	# "file<TAB>function<TAB>check" for every report
	awk -v f="$f" '
		/In function/ { fn = $0; sub(/.*In function ./, "", fn); sub(/.:$/, "", fn) }
		/: warning: .*\[-Wanalyzer-/ {
			chk = $0; sub(/.*\[-W/, "", chk); sub(/\].*/, "", chk)
			print f "\t" fn "\t" chk
		}' "$one" >>"$work/found"
	cat "$one" >>"$work/gcc.log"
done
touch "$work/found"
sort -u "$work/found" >"$work/found.s"
grep -v '^#' tests/analyze/known | grep . | cut -f1-3 | sort -u >"$work/known.s"
new=$(comm -23 "$work/found.s" "$work/known.s")
stale=$(comm -13 "$work/found.s" "$work/known.s")
n=$(wc -l <"$work/found.s")
if [ -z "$new$stale" ]; then
	echo "ok 2 - gcc -fanalyzer: $n reports, each explained in tests/analyze/known"
else
	echo "not ok 2 - gcc -fanalyzer"
	[ -n "$new" ] && echo "$new" | sed 's/^/#   not explained: /'
	[ -n "$stale" ] && echo "$stale" | sed 's/^/#   explained but no longer reported: /'
	[ -n "$new" ] && grep -A25 "$(echo "$new" | head -1 | cut -f1)" "$work/gcc.log" |
		sed 's/^/#   /' | head -40
	status=1
fi
exit $status
