#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The labs: lab.linkstack, lab.align, lab.calls and lab.div64 listed, run,
# stored and compared as any benchmark; what this CPU shows printed under
# the table as the figures support it; the alignment sweep plotted by
# report; code made at run time refused by a policy said so and why, the
# other paths measured; lab.div64 through the 32-bit ABI. What the lines
# say of this CPU is the machine's; the tests hold that they are made from
# the figures, not what they find.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.02 --warmup 0.002 --min-samples 3 --batch 200"
seccomp="${UKB_BUILD:-$(dirname "$UKBENCH")}/tests/seccomp-exec"

test_expect_success 'ukbench list lab: the five labs and their paths' '
	ukbench list lab >out &&
	cat out &&
	for b in lab.spin lab.linkstack lab.align lab.calls lab.div64; do
		grep -q "^  $b" out || return 1
	done &&
	ukbench list lab.linkstack >ls &&
	for p in next skip thunk pcrel; do grep -q "^    $p  *[a-z/]" ls || return 1; done &&
	ukbench list lab.calls >lc &&
	for p in direct indirect tramp patched retpol; do grep -q "^    $p  *[a-z/]" lc || return 1; done &&
	ukbench list --format json lab.align >la.json &&
	jq -e "[.[] | select(.benchmark == \"lab.align\")] | length == 256" la.json &&
	grep -q "^  lab.align.N, N = 0 to 127$" out
'

test_expect_success 'the labs run: each path a figure or the reason it has none; the lab lines' '
	ukbench run --db "$TEST_ROOT/lab.db" -l one $tiny --processes 2 \
		lab.linkstack lab.calls lab.div64 >out 2>err &&
	cat out &&
	ukbench show --db "$TEST_ROOT/lab.db" -f json >r.json &&
	jq -e "[.results[] | select(.benchmark | startswith(\"lab.\"))] | length == 13" r.json &&
	jq -e "all(.results[]; .status == \"ok\" or (.status == \"unsupported\" and (.reason | length) > 0))" r.json &&
	jq -e "[.results[] | select(.status == \"ok\")] | length >= 4" r.json &&
	grep -q "^what this CPU shows (lab):" out &&
	grep -q "^  ns to timeval: 64-bit division [0-9.]* ns a conversion; multiply-and-shift" out &&
	if jq -e ".results[] | select(.name == \"lab.calls\" and .path == \"direct\") | .status == \"ok\"" r.json >/dev/null; then
		grep -q "^  calls: a direct call [0-9.]* ns; against it, indirect [-+][0-9.]* ns" out
	fi &&
	if jq -e "[.results[] | select(.name == \"lab.linkstack\" and (.path == \"skip\" or .path == \"thunk\")) | .status] == [\"ok\", \"ok\"]" r.json >/dev/null; then
		grep -q "^  return stack: a call that never returns (skip" out
	fi
'

test_expect_success 'lab.linkstack -P depth: the chain is longer, and it is kept with the run' '
	ukbench run --no-store -j d.json $tiny --processes 1 -P depth=0 lab.linkstack/thunk >/dev/null &&
	ukbench run --no-store -j d32.json $tiny --processes 1 -P depth=32 lab.linkstack/thunk >/dev/null &&
	jq -e ".results[0].params == \"depth=0\"" d.json &&
	jq -e ".results[0].params == \"depth=32\"" d32.json &&
	test_expect_code 2 ukbench run --no-store -P depth=65 lab.linkstack 2>err &&
	grep -q "depth" err
'

test_expect_success 'lab.align: the offsets of a sweep, the worst and best, where the loop straddles' '
	ukbench run --db "$TEST_ROOT/lab.db" -l sweep-a $tiny --processes 2 "lab.align.6?" lab.align.0 >out &&
	cat out &&
	ukbench show --db "$TEST_ROOT/lab.db" -f json >r.json &&
	jq -e "[.results[] | select(.benchmark == \"lab.align\" and .status == \"ok\")] | length == 22" r.json &&
	grep -q "^  alignment, the store loop: \(the worst of 11 offsets, [0-9]* (\|no offset of 11 differs\)" out &&
	grep -q "^  alignment, the add loop: " out &&
	grep -q "^  alignment, the store loop ([0-9]* bytes): it straddles a 64-byte line at [-0-9, ]*63" out &&
	ukbench run --db "$TEST_ROOT/lab.db" -l sweep-b $tiny --processes 2 "lab.align.6?" lab.align.0 >/dev/null
'

test_expect_success GNUPLOT 'report: the alignment sweep as a plot of ns against the offset' '
	ukbench report --db "$TEST_ROOT/lab.db" -o s.html sweep-a sweep-b &&
	grep -q "lab.align: the store loop at each offset" s.html &&
	grep -q "lab.align: the add loop at each offset" s.html &&
	grep -q "alt=\"lab.align store sweep\"" s.html
'

test_expect_success SECCOMP 'a policy that refuses executable memory: said, and why; the rest measured' '
	ASAN_OPTIONS=detect_leaks=0 "$seccomp" EPERM mprotect-exec -- "$UKBENCH" run --no-store -j r.json \
		$tiny --processes 1 lab.calls lab.align.5 >out &&
	cat out &&
	jq -e "[.results[] | select(.name == \"lab.calls\" and (.path == \"direct\" or .path == \"indirect\")) | .status] == [\"ok\", \"ok\"]" r.json &&
	jq -e "[.results[] | select(.name == \"lab.align.5\") | .status] == [\"skipped\", \"skipped\"]" r.json &&
	jq -e "all(.results[] | select(.status == \"skipped\"); .reason | test(\"refuses executable memory .*W\\\\^X.*never both.*seccomp\"))" r.json &&
	grep -q "never both" out
'

test_expect_success RUNS_32BIT 'lab.div64 --abi both: the conversions through the 32-bit ABI too' '
	ukbench run --no-store $tiny --processes 2 --abi both lab.div64 >out &&
	cat out &&
	grep -q "^  ns to timeval: 64-bit division" out &&
	grep -q "^  ns to timeval (32-bit ABI): 64-bit division [0-9.]* ns a conversion; multiply-and-shift" out
'

test_done
