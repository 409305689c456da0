#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# compare, history, calibrate, and the regression gate of run.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.01 --warmup 0.002 --min-samples 3 --batch 200"

# A copy of run file $1 with the samples of path $3 scaled by $2, started at $4.
scaled() {
	jq --argjson f "$2" --arg p "$3" --arg t "${4:-2026-01-01T00:00:00Z}" \
		'.started = $t | .results |= map(if .path == $p then .samples_ns |= map(. * $f) else . end)' "$1"
}

# A measured run whose samples are then replaced by quiet, known ones
# (50 per path, a 0.4% spread around 2, 3 and 100 ns), so that every
# figure below is exact whatever the machine's noise.
test_expect_success 'setup: a base file of known samples' '
	ukbench run $tiny --no-store --json measured.json time.time >/dev/null &&
	jq ".results |= map(. as \$r | .samples_ns = [range(0; 50) |
		((. % 5) * 0.002 + 1) * (if \$r.path == \"vdso\" then 2 elif \$r.path == \"libc\" then 3 else 100 end)])" \
		measured.json >"$TEST_ROOT/base.json" &&
	jq -e ".results | length == 3 and all(.[]; (.samples_ns | length) == 50)" "$TEST_ROOT/base.json"
'
base="$TEST_ROOT/base.json"
# the other runs the tests share live beside it
cd "$TEST_ROOT" || exit 1

test_expect_success 'a 20% slower syscall path: regressed, with CI and p-values' '
	scaled "$base" 1.2 syscall >$TEST_ROOT/slow.json &&
	ukbench compare --db c.db "$base" $TEST_ROOT/slow.json >out &&
	grep -q "verdict by Welch.s t-test (p < 0.05), noise threshold 1%" out &&
	grep -q "^time.time  *syscall .* +20.00%\*  *\[+1[0-9].[0-9]*%, +2[0-9].[0-9]*%\] .* regressed" out &&
	grep -q "^time.time  *vdso .* +0.00%  .*no change" out &&
	grep -q "geometric mean of other/base over 3 paths: 1.06" out
'

test_expect_success 'faster: improved; --test mwu names the method' '
	scaled "$base" 0.8 vdso >$TEST_ROOT/fast.json &&
	ukbench compare --db c.db --test mwu "$base" $TEST_ROOT/fast.json >out &&
	grep -q "verdict by Mann-Whitney U test" out &&
	grep -q "^time.time  *vdso .* -20.00%\* .* improved" out
'

test_expect_success 'a significant change below the threshold is within noise' '
	ukbench compare --db c.db --threshold 5 "$base" $TEST_ROOT/slow.json >out &&
	grep -q "^time.time  *syscall .* regressed" out &&
	scaled "$base" 1.03 syscall >three.json &&
	ukbench compare --db c.db --threshold 5 "$base" three.json >out &&
	grep -q "^time.time  *syscall .* +3.00%\* .*within noise" out
'

test_expect_success '--fail-on-regression: exit 1 beyond the limit, 0 within' '
	test_expect_code 1 ukbench compare --db c.db "$base" $TEST_ROOT/slow.json --fail-on-regression 5 >out 2>err &&
	grep -q "1 path regressed by more than 5%" err &&
	ukbench compare --db c.db "$base" $TEST_ROOT/slow.json --fail-on-regression 25 >out &&
	ukbench compare --db c.db "$base" $TEST_ROOT/fast.json --fail-on-regression 5 >out
'

test_expect_success 'three runs: one block per other run' '
	ukbench compare --db c.db "$base" $TEST_ROOT/slow.json $TEST_ROOT/fast.json >out &&
	test "$(grep -c "^base " out)" = 2 &&
	grep -q "^other $TEST_ROOT/fast.json" out
'

test_expect_success 'runs that share no path: says so, exit 1' '
	ukbench run $tiny --no-store --json other.json harness.empty >/dev/null &&
	test_expect_code 1 ukbench compare --db c.db "$base" other.json >out 2>err &&
	grep -q "share no measured benchmark path" err
'

test_expect_success 'labels: the latest of several, and --all pools them' '
	scaled "$base" 1.2 syscall 2030-01-01T00:00:00Z >later.json &&
	ukbench import --db l.db --label lab "$base" >/dev/null &&
	ukbench import --db l.db --label lab later.json >/dev/null &&
	ukbench import --db l.db --label ref "$base" >/dev/null &&
	ukbench compare --db l.db ref lab >out 2>err &&
	grep -q "label .lab. matches 2 runs; using the latest, #2" err &&
	grep -q "syscall .* regressed" out &&
	ukbench compare --db l.db --all ref lab >out 2>err &&
	grep -q "(2 runs pooled)" out &&
	grep -q "syscall .* +10.00%" out
'

test_expect_success 'compare refuses bad references' '
	test_expect_code 2 ukbench compare --db c.db "$base" 2>err &&
	grep -q "needs a base run and at least one other" err &&
	test_expect_code 2 ukbench compare --db c.db "$base" nosuch.json 2>err &&
	grep -q "cannot open .nosuch.json." err &&
	test_expect_code 2 ukbench compare --db c.db --test z "$base" "$base" 2>err &&
	grep -q "unknown test" err
'

test_expect_success 'history: the series, and the change point where the step is' '
	for i in 1 2 3 4 5 6; do
		scaled "$base" 1 syscall "2026-02-0${i}T00:00:00Z" >h$i.json
	done &&
	for i in 7 8 9; do
		scaled "$base" 1.15 syscall "2026-02-0${i}T00:00:00Z" >h$i.json
	done &&
	for i in 1 2 3 4 5 6 7 8 9; do ukbench import --db $TEST_ROOT/h.db --label "n$i" h$i.json >/dev/null; done &&
	ukbench history --db $TEST_ROOT/h.db time.time/syscall >out &&
	grep -q "^time.time/syscall on .*, 9 runs" out &&
	test "$(grep -c "change point: step" out)" = 1 &&
	grep -q "^ *7  2026-02-07.*n7 .*+15.00%  << change point: step +15.00%" out &&
	ukbench history --db $TEST_ROOT/h.db time.time/vdso >out &&
	grep -q "^0 change points" out
'

test_expect_success 'history: filters, and a pattern that matches nothing' '
	ukbench history --db $TEST_ROOT/h.db --label "n[12]" time.time/syscall >out &&
	grep -q ", 2 runs" out &&
	test_expect_code 2 ukbench history --db $TEST_ROOT/h.db no.such 2>err &&
	grep -q "no stored result matches .no.such." err
'

test_expect_success 'run --baseline --fail-on-regression: KTAP not ok and exit 1' '
	scaled "$base" 0.0001 syscall >fastsys.json &&
	scaled fastsys.json 1000 vdso >a.json && scaled a.json 1000 libc >fastbase.json &&
	test_expect_code 1 ukbench run --no-store --budget 0.05 --format ktap \
		--baseline fastbase.json --fail-on-regression 10 time.time >ktap 2>err &&
	head -1 ktap | grep -qx "KTAP version 1" &&
	grep -qx "1..3" ktap &&
	grep -q "^not ok 3 time.time/syscall" ktap &&
	grep -q "^# regressed +[0-9.]*% against fastbase.json" ktap &&
	grep -q "^ok 1 time.time/vdso" ktap &&
	test_expect_code 2 ukbench run --no-store --fail-on-regression 10 time.time 2>err &&
	grep -q "needs --baseline" err
'

test_expect_success 'calibrate: A/A false alarms at a 5% threshold within the 5% level' '
	ukbench calibrate --rounds 20 --budget 0.02 --threshold 5 >out &&
	cat out &&
	grep -q "^A/A  *20 " out &&
	grep -q "^+5%  *20 " out &&
	grep -q "^false-alarm rate on A/A: [0-9]*%" out &&
	grep -q "^on this machine, " out &&
	aa=$(awk "\$1 == \"A/A\" { print \$3 }" out) &&
	test "$aa" -le 1
'

test_done
