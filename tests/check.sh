#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check.sh - every test, twice: in the normal build and in a build with
# AddressSanitizer and UndefinedBehaviorSanitizer. Ends with the line
#   N passed, N failed, N skipped
# summed over both, and exits non-zero if anything failed or did not build.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
sums=$(mktemp)
status=0
jobs=$(nproc 2>/dev/null || echo 2)
# test files at once in each suite (run-suite.sh): one a CPU
: "${UKB_TEST_JOBS:=$jobs}"
export UKB_TEST_JOBS
start=$(date +%s)
# "## NAME: done after N s" as each part ends: where the time went
lap() {
	echo "## $1: done after $(($(date +%s) - start)) s"
}
# what git sees before: the tests must add nothing to it (made at the end)
tree_before=$(git status --porcelain 2>/dev/null)

# the kernels t0325 boots, built before the suites share the CPUs (minutes
# of building, past a test file's limit under load); kept in the build
# directory for the next run
echo "## kernels: the series of t0325 from source"
sh tests/vm/build-series.sh build/vm-source ||
	echo "(not built: t0325 builds what it needs itself, or skips)"
lap kernels

for variant in "build" "build-san SAN=1"; do
	set -- $variant
	dir=$1
	shift
	echo "## $dir: building"
	if ! make -s -j"$jobs" O="$dir" "$@" tests; then
		echo "## $dir: build failed"
		echo "0 1 0" >>"$sums"
		status=1
		continue
	fi
	log="$dir/test-suite.log"
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		tests/run-suite.sh "$dir" >"$log" 2>&1
	rc=$?
	cat "$log"
	counts=$(tail -n 1 "$log" | sed -n 's/^[^:]*: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p')
	# a suite that died without its summary, or failed uncounted, is a failure
	if [ -z "$counts" ] || { [ "$rc" != 0 ] && [ "${counts#* }" = "0 ${counts##* }" ]; }; then
		counts="${counts:-0 0 0}"
		set -- $counts
		counts="$1 $(($2 + 1)) $3"
	fi
	[ "$rc" = 0 ] || status=1
	echo "$counts" >>"$sums"
	lap "$dir"
done

# the hostile-input sweep, short, on the sanitizer build: one test
echo "## sweep: bad values and signals, ${SWEEP_SECONDS:-20} s"
if UKBENCH="$top/build-san/ukbench" UKB_BUILD="$top/build-san" ASAN_OPTIONS=detect_leaks=0 \
	tests/sweep.sh "${SWEEP_SECONDS:-20}" >sweep.log 2>&1; then
	echo "ok - sweep: $(tail -1 sweep.log)"
	echo "1 0 0" >>"$sums"
else
	grep "^not ok\|^#" sweep.log | head -40
	echo "not ok - sweep: $(tail -1 sweep.log)"
	echo "0 1 0" >>"$sums"
	status=1
fi
rm -f sweep.log
lap sweep

# the code against the repository's .clang-format: one test
if make -s format-check >format.log 2>&1; then
	echo "ok - format-check"
	echo "1 0 0" >>"$sums"
else
	echo "not ok - format-check"
	sed 's/^/#   /' format.log | head -40
	echo "0 1 0" >>"$sums"
	status=1
fi
rm -f format.log

# tap_sums LOG RC: the TAP results of LOG summed into $sums; a script that
# failed without a failing test counts as one failure
tap_sums() {
	p=$(grep -v "# SKIP" "$1" | grep -c "^ok ")
	f=$(grep -c "^not ok " "$1")
	k=$(grep -c "^ok .*# SKIP" "$1")
	if [ "$2" != 0 ] && [ "$f" = 0 ]; then
		f=1
	fi
	echo "$p $f $k" >>"$sums"
	[ "$f" = 0 ] || status=1
	rm -f "$1"
}

# functions no program calls (tests/dead-code.known: the tests' hooks): one test
sh tests/dead-code.sh >dead.log 2>&1
rc=$?
grep "^\(not \)\{0,1\}ok \|^#" dead.log | head -40
tap_sums dead.log $rc

# the product's code read by scan-build and gcc -fanalyzer: two tests
echo "## static analysis: scan-build and gcc -fanalyzer"
tests/analyze/run.sh >analyze.log 2>&1
rc=$?
grep "^\(not \)\{0,1\}ok \|^#" analyze.log | head -60
tap_sums analyze.log $rc
lap "static analysis"

# every architecture: cross builds under qemu-user, and their ELF images
echo "## cross: building and running"
tests/cross/run.sh >cross.log 2>&1
rc=$?
cat cross.log
tap_sums cross.log $rc
lap cross

# fuzzing: every target for a bounded time, with ASan and UBSan
if command -v clang >/dev/null && echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
	clang -x c -fsanitize=fuzzer -o /dev/null - 2>/dev/null; then
	echo "## fuzz: building and running"
	make -s fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-15}" >fuzz.log 2>&1
	rc=$?
	grep -v "warning\|^ *[{}]\|^ *\^\|generated\.$\|^ *[0-9]* |" fuzz.log | grep "^\(not \)\{0,1\}ok \|^#" | head -60
	p=$(grep -c "^ok " fuzz.log)
	f=$(grep -c "^not ok " fuzz.log)
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=1
		tail -20 fuzz.log
	fi
	echo "$p $f 0" >>"$sums"
	[ "$f" = 0 ] || status=1
	rm -f fuzz.log
	lap fuzz
else
	echo "ok - fuzz # SKIP clang with libFuzzer is not installed"
	echo "0 0 1" >>"$sums"
fi

# hermetic: every test wrote into its own directories, not into the tree
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	tree_after=$(git status --porcelain)
	if [ "$tree_after" = "$tree_before" ]; then
		echo "ok - the tests left the tree as they found it (git status)"
		echo "1 0 0" >>"$sums"
	else
		echo "not ok - the tests left files in the tree:"
		printf '%s\n' "$tree_after" |
			if [ -n "$tree_before" ]; then grep -vxF "$tree_before"; else cat; fi |
			sed 's/^/#   /' | head -20
		echo "0 1 0" >>"$sums"
		status=1
	fi
else
	echo "ok - the tests left the tree as they found it # SKIP not a git work tree"
	echo "0 0 1" >>"$sums"
fi

# what this machine lacks, once per reason
if [ -n "$(cat build*/test-suite.log 2>/dev/null | grep '# SKIP')" ]; then
	echo "## skipped, and why:"
	cat build*/test-suite.log | sed -n 's/^ok [0-9]* - .* # SKIP /#   /p' | sort | uniq -c
fi
# where a suite's time goes: its slowest files
echo "## the slowest test files (seconds, suite, file):"
for l in build*/test-suite.log; do
	[ -f "$l" ] || continue
	awk -v b="${l%%/*}" '/^# (cli|unit|layers): / { f = $3 } /^# took / { print $3, b, f }' "$l"
done | sort -rn | head -8 | sed 's/^/#   /'
set -- $(awk '{ p += $1; f += $2; s += $3 } END { print p + 0, f + 0, s + 0 }' "$sums")
rm -f "$sums"
[ "$2" = 0 ] || status=1
echo "$1 passed, $2 failed, $3 skipped"
exit $status
