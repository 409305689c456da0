#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# dead-code.sh - functions of src/ that no program calls: the product built
# unoptimised with one section a function, each program (ukbench, the guest
# of `vm`, the 32-bit helper, perf-check) linked from every object with
# --gc-sections, and the functions every link dropped listed. A function
# only the tests call is listed too, unless tests/dead-code.known names it
# with why it stays. TAP: one test.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
o=$(mktemp -d "${TMPDIR:-/tmp}/ukbench-dead.XXXXXX")
trap 'rm -rf "$o"' EXIT INT TERM

echo "1..1"
# -O0 makes gcc guess at truncations the optimised builds rule out: warnings
# are the shipped builds' to judge, not this one's
if ! make -s -j"$(nproc 2>/dev/null || echo 2)" O="$o" WERROR=0 CFLAGS="-O0 -ffunction-sections" \
	"$o/ukbench" "$o/tools/perf-check.o" >"$o/build.log" 2>&1; then
	sed 's/^/#   /' "$o/build.log" | tail -20
	echo "not ok 1 - functions without a caller: the build failed"
	exit 1
fi
# the mains that may be built here too (each needs what its program needs)
make -s O="$o" CFLAGS="-O0 -ffunction-sections" "$o/src/main/guest.o" \
	"$o/src/main/abi32.o" >/dev/null 2>&1
libs="-ljansson -lpq -lzstd -lcapstone -lpfm -lsqlite3 -lm -lpthread"
common=$(find "$o/src" -name '*.o' ! -path '*/src/main/*' | sort)

# dropped MAIN: the functions the link of MAIN with every object dropped
dropped() {
	# shellcheck disable=SC2086
	cc -o "$o/a.out" -Wl,--gc-sections -Wl,--print-gc-sections "$1" $common $libs 2>&1 |
		sed -n "s/.*unused section '\.text\.\([A-Za-z0-9_]*\)' in file '.*\/src\/\([^']*\)'.*/\1 src\/\2/p" |
		sort -u
}
dropped "$o/src/main/ukbench.o" >"$o/all"
for m in "$o/src/main/guest.o" "$o/src/main/abi32.o" "$o/tools/perf-check.o"; do
	[ -f "$m" ] || continue
	dropped "$m" >"$o/one"
	comm -12 "$o/all" "$o/one" >"$o/both"
	mv "$o/both" "$o/all"
done
sed 's/ .*//' "$o/all" | sort -u >"$o/names"
sed -n 's/^\([A-Za-z0-9_]*\) .*/\1/p' tests/dead-code.known | sort -u >"$o/known"
comm -23 "$o/names" "$o/known" >"$o/new"
comm -13 "$o/names" "$o/known" >"$o/gone"
while read -r f; do
	echo "# $(grep "^$f " "$o/all" | head -1): no caller"
done <"$o/new"
while read -r f; do
	echo "# $f is in tests/dead-code.known but has a caller now (or is gone): take it out"
done <"$o/gone"
if [ -s "$o/new" ] || [ -s "$o/gone" ]; then
	echo "not ok 1 - functions without a caller: $(wc -l <"$o/new") new, $(wc -l <"$o/gone") known no more"
	exit 1
fi
echo "ok 1 - functions without a caller: none but the $(wc -l <"$o/known") test hooks known"
