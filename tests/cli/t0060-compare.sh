#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# compare, history, calibrate, and the regression gate of run.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.01 --warmup 0.002 --min-samples 3 --batch 200"

# A measured run whose figures are then replaced by quiet, known ones (5
# processes of 10 samples per path, a 0.4% spread around 2, 3 and 100 ns),
# so that every figure below is exact whatever the machine's noise.
test_expect_success 'setup: a base file of known samples and process means' '
	ukbench run $tiny --no-store --json measured.json time.time >/dev/null &&
	known_figures measured.json "$TEST_ROOT/base.json" &&
	jq -e ".results | length == 3 and all(.[]; (.samples_ns | length) == 50 and (.process_means_ns | length) == 5)" "$TEST_ROOT/base.json"
'
base="$TEST_ROOT/base.json"
# the other runs the tests share live beside it
cd "$TEST_ROOT" || exit 1

test_expect_success 'a 20% slower syscall path: regressed, with CI and p-values' '
	scaled "$base" 1.2 syscall >$TEST_ROOT/slow.json &&
	ukbench compare --db c.db "$base" $TEST_ROOT/slow.json >out &&
	tr "\n" " " <out >flat &&
	grep -q "method: Welch.s t on the log ratio, the floor added; a verdict needs p < 0.05 and a change beyond 1% (--explain; docs/comparing.md)" flat &&
	ukbench compare --db c.db --explain "$base" $TEST_ROOT/slow.json >explained &&
	tr "\n" " " <explained | grep -q "come from one method, Welch.s t on the log ratio" &&
	grep -q "geometric mean of other/base over 3 paths: 1.06[0-9]* (+6.[0-9]*%), 95% CI \[[-+][0-9.]*%, +[0-9.]*%\] if they move together" flat &&
	grep -q "^floor: 1.50% a run (assumed: no other label given twice on this host teaches it yet)" out &&
	grep -q "^time.time  *syscall .* +20.00%\*  *\[+[0-9].[0-9]*%, +[23][0-9].[0-9]*%\]  *[0-9.]*%  .* regressed" out &&
	ukbench compare --db c.db --no-floor "$base" $TEST_ROOT/slow.json >out &&
	grep -q "^time.time  *syscall .* +20.00%\*  *\[+19.[0-9]*%, +20.[0-9]*%\]  *[0-9.]*%  .* regressed" out &&
	grep -q "^time.time  *vdso .* +0.00%  .*no change" out &&
	grep -q "geometric mean of other/base over 3 paths: 1.06" out
'

# 5 processes against 5, every one slower: the ranks alone say p < 0.01,
# the floor (assumed, 1.5% a run) says a 3% change is within how runs move
test_expect_success '--wide: where p(mwu) is small and p is not, a line says why' '
	scaled "$base" 1.03 syscall >$TEST_ROOT/s3.json &&
	COLUMNS=250 ukbench compare --db c3.db --wide "$base" $TEST_ROOT/s3.json >out &&
	awk "\$2 == \"syscall\" { ok = \$10 == \"0.008\" && \$9 + 0 >= 0.05 } END { exit !ok }" out &&
	tr "\n" " " <out | grep -q "p(mwu) ranks the processes. means alone; p adds the floor" &&
	ukbench compare --db c3.db --wide "$base" $TEST_ROOT/slow.json >out &&
	! grep -q "p(mwu) ranks" out
'

test_expect_success 'faster: improved; the exact Mann-Whitney p of 5 against 5 beside it' '
	scaled "$base" 0.8 vdso >$TEST_ROOT/fast.json &&
	ukbench compare --db c.db --no-floor "$base" $TEST_ROOT/fast.json >out &&
	grep -q "^time.time  *vdso .* -20.00%\* .* <0.001  *0.008 .*  improved$" out
'

test_expect_success 'a significant change below the threshold is within noise' '
	ukbench compare --db c.db --no-floor --threshold 5 "$base" $TEST_ROOT/slow.json >out &&
	grep -q "^time.time  *syscall .* regressed" out &&
	scaled "$base" 1.03 syscall >three.json &&
	ukbench compare --db c.db --no-floor --threshold 5 "$base" three.json >out &&
	grep -q "^time.time  *syscall .* +3.00%\* .*within noise" out &&
	ukbench compare --db c.db --threshold 5 "$base" three.json >out &&
	grep -q "^time.time  *syscall .* +3.00%  .*\(not significant\|cannot tell\)" out &&
	# the interval inside +-5%: shown to be no change of 5%
	scaled "$base" 1.002 syscall >small.json &&
	ukbench compare --db c.db --no-floor --threshold 5 "$base" small.json >out &&
	grep -q "^time.time  *syscall .* +0.20%  .*no change" out
'

test_expect_success '--fail-on-regression and --bisect: 1 beyond the limit, 0 within, 125 cannot tell' '
	test_expect_code 1 ukbench compare --db c.db --no-floor "$base" $TEST_ROOT/slow.json --fail-on-regression 5 >out 2>err &&
	grep -q "against a limit of 5%: 1 regressed beyond it, 2 within it, 0 cannot be told" out &&
	test_expect_code 1 ukbench compare --db c.db "$base" $TEST_ROOT/slow.json --fail-on-regression 5 >out 2>err &&
	grep -q "against a limit of 5%: 1 regressed beyond it, 0 within it, 2 cannot be told" out &&
	ukbench compare --db c.db --no-floor "$base" $TEST_ROOT/slow.json --fail-on-regression 25 >out &&
	ukbench compare --db c.db --no-floor "$base" $TEST_ROOT/fast.json --bisect 5 >out &&
	jq ".results |= map(if .path == \"syscall\" then .process_means_ns = [96, 104, 92, 108, 100] else . end)" \
		"$base" >noisy.json &&
	test_expect_code 125 ukbench compare --db c.db --no-floor "$base" noisy.json --bisect 5 >out &&
	grep -q "^time.time  *syscall .* \(not significant\|cannot tell\)" out &&
	grep -q "1 cannot be told" out
'

test_expect_success '--bisect: an error stops the bisection (128), it blames no commit' '
	test_expect_code 128 ukbench compare --db c.db "$base" $TEST_ROOT/slow.json --bisect 5 no.such.path >out 2>err &&
	grep -q "share no measured benchmark path that matches" err &&
	grep -q "stopping .git bisect run. (exit 128)" err &&
	test_expect_code 128 ukbench compare --db c.db "$base" missing.json --bisect 5 >out 2>err &&
	grep -q "stopping" err &&
	test_expect_code 128 ukbench compare --db c.db --bisect five "$base" $TEST_ROOT/slow.json >out 2>err &&
	grep -q "stopping" err &&
	test_expect_code 2 ukbench compare --db c.db --fail-on-regression five "$base" $TEST_ROOT/slow.json >out 2>err
'

test_expect_success GIT 'git bisect run with compare --bisect finds the commit that regressed' '
	git init -q bis && cd bis &&
	git config user.email t@example.org && git config user.name t &&
	for i in 1 2 3 4 5 6 7 8; do
		if [ $i -ge 6 ]; then cp $TEST_ROOT/slow.json result.json; else cp "$base" result.json; fi &&
		git add result.json && git commit -q --allow-empty -m "commit $i" || return 1
	done &&
	git bisect start HEAD HEAD~7 >/dev/null &&
	git bisect run "$UKBENCH" compare --db ../c.db --no-floor "$base" result.json --bisect 5 >../bisect.out 2>&1 &&
	{ grep -q "is the first bad commit" ../bisect.out || { cat ../bisect.out; false; }; } &&
	git bisect log | grep -q "first bad commit: .* commit 6$" &&
	git bisect reset
'

test_expect_success 'three runs: one block per other run' '
	ukbench compare --db c.db "$base" $TEST_ROOT/slow.json $TEST_ROOT/fast.json >out &&
	test "$(grep -c "^base " out)" = 2 &&
	grep -q "^other $TEST_ROOT/fast.json" out
'

# LKP's reports list only what their test found significant; here every
# path is listed, and a change not called is in parentheses.
test_expect_success 'compare -f lkp: a change not called is in parentheses, said under the table' '
	ukbench compare --db c.db -f lkp "$base" $TEST_ROOT/slow.json >out &&
	cat out &&
	grep -q "^ *100\.[0-9]*  .*  +20\.0%  .*  120\.[0-9]*  .*time.time/syscall$" out &&
	grep -q "^ *2\.0[0-9]  .*  (+0\.0%)  .*time.time/vdso$" out &&
	grep -q "^(%change): not called improved or regressed by compare (2 of 3)$" out &&
	ukbench compare --db c.db -f lkp "$base" "$base" >out &&
	grep -q "^ *100\.[0-9]*  .*  ([-+]0\.0%)  .*time.time/syscall$" out &&
	grep -q "^(%change): not called improved or regressed by compare (3 of 3)$" out
'

test_expect_success 'runs that share no path: says so, exit 2 (input)' '
	ukbench run $tiny --no-store --json other.json harness.empty >/dev/null &&
	test_expect_code 2 ukbench compare --db c.db "$base" other.json >out 2>err &&
	grep -q "share no measured benchmark path" err &&
	test ! -s out &&
	# a pattern that matches nothing: the error, and nothing printed before it
	for f in table mail markdown lkp; do
		test_expect_code 2 ukbench compare --db c.db -f $f "$base" $TEST_ROOT/slow.json no.such.path >out 2>err &&
		grep -q "share no measured benchmark path that matches" err &&
		test ! -s out || return 1
	done
'

test_expect_success 'labels: the runs of one boot pooled, --latest the newest, --all every boot' '
	scaled "$base" 1.2 syscall 2030-01-01T00:00:00Z >later.json &&
	ukbench import --db l.db --label lab "$base" >/dev/null &&
	ukbench import --db l.db --label lab later.json >/dev/null &&
	scaled "$base" 1 syscall 2029-01-01T00:00:00Z >ref.json &&
	ukbench import --db l.db --label ref ref.json >/dev/null &&
	ukbench compare --db l.db ref lab >out 2>err &&
	grep -q "^other .*lab. (2 runs of one boot pooled)" out &&
	grep -q "syscall .* +10.00%" out &&
	ukbench compare --db l.db --latest ref lab >out 2>err &&
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
	test_expect_code 2 ukbench compare --db c.db --test welch "$base" "$base" 2>err &&
	grep -q "unknown option .--test." err
'

test_expect_success 'history: the series, and the change point where the step is' '
	for i in 10 11 12 13 14 15; do
		scaled "$base" 1.00$((i % 3)) syscall "2026-02-${i}T00:00:00Z" >h$i.json
	done &&
	for i in 16 17 18 19 20 21; do
		scaled "$base" 1.15$((i % 3)) syscall "2026-02-${i}T00:00:00Z" >h$i.json
	done &&
	for i in 10 11 12 13 14 15 16 17 18 19 20 21; do
		ukbench import --db $TEST_ROOT/h.db --label "n$i" h$i.json >/dev/null || return 1
	done &&
	ukbench history --db $TEST_ROOT/h.db time.time/syscall >out &&
	grep -q "^time.time/syscall on .*, 12 runs" out &&
	test "$(grep -c "change point: step" out)" = 1 &&
	grep -q "^ *7  2026-02-16.*n16 .*  << change point: step +1[45]\\." out &&
	ukbench history --db $TEST_ROOT/h.db time.time/vdso >out &&
	grep -q "^0 change points" out
'

test_expect_success 'history: filters, and a pattern that matches nothing' '
	ukbench history --db $TEST_ROOT/h.db --with-label "n1[01]" time.time/syscall >out &&
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

# The three answers of run --baseline, as compare gives them: 0 when every
# interval excludes a regression of the limit, 1 when a path regressed
# beyond it, 125 when a path cannot be told from noise at it.
test_expect_success 'run --baseline --fail-on-regression: 0, 1 and 125' '
	ukbench run --no-store --budget 0.05 --json real.json time.time >/dev/null &&
	scaled real.json 1000 vdso >b1.json && scaled b1.json 1000 libc >b2.json &&
	scaled b2.json 1000 syscall >slowbase.json &&
	ukbench run --no-store --budget 0.05 --baseline slowbase.json --fail-on-regression 10 \
		time.time >out0 &&
	jq ".results |= map(if .path == \"syscall\" then (.process_means_ns | add / length) as \$m |
		.process_means_ns = [\$m * 0.5, \$m * 1.5, \$m * 0.6, \$m * 1.4, \$m] |
		del(.process_se_ns, .process_ref_ns) else . end)" b2.json >noisybase.json &&
	test_expect_code 125 ukbench run --no-store --budget 0.05 --baseline noisybase.json \
		--fail-on-regression 10 time.time >out125 2>err125 &&
	grep -q "time.time/syscall: .* cannot be told from noise at 10%" err125
'

test_expect_success 'calibrate: A/A of lab.spin and the paths named, every size, floors stored' '
	ukbench calibrate --db cal.db --busy --rounds 4 --budget 0.05 --threshold 5 time.time/vdso >out &&
	cat out &&
	grep -q "^A/A  *8 " out &&
	grep -q "^+10%  *4 " out &&
	grep -q "^  lab.spin.base  *[0-9.]*%  *[0-9.]*%  *[0-9.]*$" out &&
	grep -q "^  time.time  *[0-9.]*%  *[0-9.]*%  *[0-9.]*$" out &&
	grep -q "minimum detectable effect of lab.spin, one run against another" out &&
	grep -q "^measured at a load of [0-9.]* per CPU, [0-9.]*% of batches disturbed" out &&
	grep -q "^stored for host .* 8 runs labelled .calibrate." out &&
	test "$(sqlite3 cal.db "SELECT count(*) FROM runs WHERE label = '"'"'calibrate'"'"' AND source = '"'"'calibrate'"'"'")" = 8 &&
	sqlite3 cal.db "SELECT count(*), min(floor) >= 0, detail LIKE '"'"'%\"load\":%'"'"' FROM calibrations" >n &&
	test "$(cat n)" = "1|1|1"
'

# calibrate -s measures the sizes named: its runs teach the floor of that
# setting of the path (a floor is learned per size), and no other.
test_expect_success 'calibrate -s: the sizes named are calibrated, and teach their floor' '
	ukbench calibrate --db cs.db --busy --rounds 3 --budget 0.05 -s 12k copy.read_zero/read >out &&
	grep -q "^  copy.read_zero.12k  *[0-9.]*%" out &&
	test "$(sqlite3 cs.db "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.label = '"'"'calibrate'"'"' AND r.bytes = 12288")" = 6 &&
	test "$(sqlite3 cs.db "SELECT count(*) FROM results WHERE name LIKE '"'"'copy.read_zero%'"'"' AND bytes <> 12288")" = 0 &&
	ukbench run --db cs.db $tiny -s 12k -l x copy.read_zero/read >/dev/null &&
	ukbench run --db cs.db $tiny -s 12k -l y copy.read_zero/read >/dev/null &&
	ukbench compare --db cs.db x y >out &&
	# (a side the machine kept busy gets at least the assumed floor: a range;
	# a calibration run made while other tests kept it busy is left out)
	tr "\n" " " <out | grep -Eq "floor: [0-9.]*%( to [0-9.]*%)? a run \(learned from up to [1-6] runs? of 1 label given again" ||
		{ cat out; false; } &&
	ukbench run --db cs.db $tiny -s 4k -l x4 copy.read_zero/read >/dev/null &&
	ukbench run --db cs.db $tiny -s 4k -l y4 copy.read_zero/read >/dev/null &&
	ukbench compare --db cs.db x4 y4 >out &&
	grep -q "^floor: 1.50% a run (assumed" out &&
	test_expect_code 2 ukbench calibrate --no-store -s 12k,bogus copy.read_zero/read 2>err &&
	grep -q "expects sizes like" err && ! grep -q "^hint:" err &&
	test_expect_code 2 ukbench calibrate --no-store -s 4k time.time/vdso 2>err &&
	grep -q "apply to sized benchmarks" err
'

# Without --busy, a calibration on a busy machine is refused and one on a
# quiet machine stored: which this machine is, the output says; either way
# the store agrees with it.
test_expect_success 'calibrate: refused on a busy machine unless --busy, stored on a quiet one' '
	ukbench calibrate --db q.db --rounds 2 --budget 0.05 time.time/vdso >out 2>err
	rc=$?
	if grep -q "a busy machine$" out; then
		test "$rc" = 1 &&
		grep -q "not stored: this machine was busy while calibrating (load .*, .*% of batches disturbed, .*% of their time waited)" err &&
		grep -q "pass --busy" err &&
		test "$(sqlite3 q.db "SELECT count(*) FROM calibrations" 2>/dev/null || echo 0)" = 0
	else
		test "$rc" = 0 && grep -q "^stored for host" out &&
		test "$(sqlite3 q.db "SELECT count(*) FROM calibrations")" = 1
	fi
'

# The floor comes from repeated runs of one label (never the runs compared,
# never across labels), else calibrate; the options that name it change the
# interval.
test_expect_success 'the floor: learned from the host'"'"'s runs, said where from; --floor and --no-floor change the interval' '
	for i in 1 2 3 4; do ukbench run --db "$TEST_ROOT/fl.db" $tiny -l same time.time/vdso >/dev/null || return 1; done &&
	ukbench run --db "$TEST_ROOT/fl.db" $tiny -l x time.time/vdso >/dev/null &&
	ukbench run --db "$TEST_ROOT/fl.db" $tiny -l y time.time/vdso >/dev/null &&
	ukbench compare --db "$TEST_ROOT/fl.db" x y >out &&
	cat out &&
	# the four of "same", a group of their own; x and y, compared, teach nothing
	# (a side the machine kept busy gets at least the assumed floor: a range)
	grep -Eq "^floor: [0-9.]*%( to [0-9.]*%)? a run \(learned from up to 4 runs of 1 label given again on this host\)" out &&
	ukbench compare --db "$TEST_ROOT/fl.db" --format json x y >dflt.json &&
	ukbench compare --db "$TEST_ROOT/fl.db" --format json --no-floor x y >none.json &&
	ukbench compare --db "$TEST_ROOT/fl.db" --format json --floor 30 x y >thirty.json &&
	jq -e ".[0].floor == 0 and .[0].ci_low == .[0].ci_low_without_floor" none.json &&
	jq -e ".[0].floor > 0.4 and (.[0].ci_high - .[0].ci_low) > (.[0].ci_high_without_floor - .[0].ci_low_without_floor)" thirty.json &&
	w30=$(jq ".[0].ci_high - .[0].ci_low" thirty.json) &&
	w0=$(jq ".[0].ci_high - .[0].ci_low" none.json) &&
	awk -v a="$w30" -v b="$w0" "BEGIN { exit !(a > b) }" &&
	ukbench compare --db "$TEST_ROOT/fl.db" --floor 30 x y >out &&
	grep -q "^floor: 30.00% a run (--floor 30)" out &&
	ukbench compare --db "$TEST_ROOT/fl.db" --no-floor x y >out &&
	grep -q "^floor: none (--no-floor)" out
'

# Quiet runs of the host teach a narrow floor; a run whose thread waited a
# fifth of its batches' time (busy) gets at least the floor assumed where
# none is known, and the header says so; the same run quiet does not.
test_expect_success 'a busy run against a floor learned from quiet runs only: at least the assumed floor' '
	for i in 1 2 3 4 5 6; do
		jq --arg t "2026-01-01T00:0$i:00Z" --argjson f "1.00$i" "del(.uuid) | .started = \$t | .label = \"q\" |
			.results |= map(.process_means_ns |= map(. * \$f))" "$base" >q$i.json || return 1
	done &&
	ukbench import --db busy.db q1.json q2.json q3.json q4.json q5.json q6.json >/dev/null &&
	jq ".started = \"2026-01-01T00:10:00Z\" | .results |= map(.cpu_samples_ns = [.samples_ns[] * 0.8])" \
		$TEST_ROOT/slow.json >busyslow.json &&
	ukbench compare --db busy.db "$base" busyslow.json >out &&
	tr "\n" " " <out | grep -q "note: 3 paths measured on a busy machine, their floor learned from quiet runs only: the floor is at least the one assumed where none is known (1.5%)" &&
	grep -q "^time.time  *syscall .* +20.00%\*  *\[.*\] .* regressed$" out &&
	ukbench compare --db busy.db --format json "$base" busyslow.json >j &&
	jq -e ".[0].floor > 0.015" j &&
	ukbench compare --db busy.db --format json "$base" $TEST_ROOT/slow.json >j &&
	jq -e ".[0].floor < 0.015" j &&
	ukbench compare --db busy.db "$base" $TEST_ROOT/slow.json >out &&
	! grep -q "busy machine" out
'

# Nothing learned of this host: the floor is assumed, wide, and said.
test_expect_success 'no runs of the host teach the floor: it is assumed, and said' '
	jq ".environment.loadavg = [0, 0, 0]" "$base" >quiet.json &&
	ukbench compare --db nofloor.db quiet.json quiet.json >out &&
	grep -q "^floor: 1.50% a run (assumed: no other label given twice on this host teaches it yet)" out &&
	grep -q "^note: this host.s runs have not shown yet how far a run of some paths" out &&
	ukbench compare --db nofloor.db --floor 1 quiet.json quiet.json >out &&
	! grep -q "not shown yet" out
'

test_expect_success 'a label names its runs of one boot, pooled; --latest the newest; --all every boot' '
	ukbench compare --db "$TEST_ROOT/fl.db" same y 2>err >out &&
	grep -q "^base .*same. (4 runs of one boot pooled)" out &&
	ukbench compare --db "$TEST_ROOT/fl.db" --latest same y 2>err >out &&
	grep -q "using the latest" err &&
	grep -q "^base .*#4 .same." out &&
	ukbench compare --db "$TEST_ROOT/fl.db" --all same y >out &&
	grep -q "^base .*same. (4 runs pooled)" out
'

test_expect_success 'compare --paired: sides that alternated run against neighbour, said' '
	# two stores: runs of other labels would teach a usual spread, and a
	# side spreading more than it under load is not paired
	for l in p q p q r r s s; do
		db=alt.db &&
		case $l in r | s) db=alt2.db ;; esac &&
		ukbench run $tiny --processes 3 --db $db -l $l time.time syscall.null >/dev/null &&
		sleep 1 || return 1
	done &&
	ukbench compare --db alt.db --paired p q >out &&
	grep -q "^--paired: the sides alternated in time (2 runs each)" out &&
	ukbench compare --db alt.db --paired -f json p q >j &&
	jq -e "any(.[]; .paired == true)" j &&
	ukbench compare --db alt.db -f json p q >j &&
	jq -e "all(.[]; .paired == false)" j &&
	ukbench compare --db alt.db p q >out &&
	! grep -q "alternated" out &&
	ukbench compare --db alt2.db --paired -f json r s >j &&
	jq -e "all(.[]; .paired == false)" j &&
	ukbench compare --db alt2.db --paired r s >out &&
	grep -q "^--paired: the sides did not alternate in time" out
'

# 12 processes a side whose means follow their reference exactly (2 ns a
# reference ns); the other side ran on a machine 5% slower throughout.
# The change is always the figures' ratio; where the host's runs taught
# the slope, the interval holds the change at one speed too.
test_expect_success 'the reference: the machine'"'"'s move held in the interval where a slope is known, not between two kinds' '
	jq ".results |= map(select(.path == \"vdso\") | .process_ref_ns = [range(0; 12) | 5 + (. % 4) * 0.1] |
		.process_means_ns = [.process_ref_ns[] * 2] | .process_se_ns = [range(0; 12) | 0.001] |
		del(.ref_samples_ns))" "$base" >refa.json &&
	jq ".results |= map(.process_ref_ns |= map(. * 1.05) | .process_means_ns |= map(. * 1.05) |
		.samples_ns |= map(. * 1.05))" refa.json >refb.json &&
	jq -e ".settings.reference | test(\"^calls3,syscall:calls3-loop40,vdso:calls3-barrier@[0-9a-f]{8}\$\")" refa.json &&
	# a fresh store: the slope its processes show, where they show it clearly
	ukbench compare --db ref.db -f json refa.json refb.json >fresh.json &&
	jq -e ".[0].adjusted == true and (.[0].slope - 1 | fabs) < 0.01" fresh.json &&
	jq -e "(.[0].change - 0.05 | fabs) < 0.001 and (.[0].machine_change - 0.05 | fabs) < 0.001" fresh.json &&
	jq -e ".[0].ci_low < 0 and .[0].ci_high > 0.05 and (.[0].verdict | IN(\"not significant\", \"cannot tell\"))" fresh.json &&
	# eight runs of one label at speeds 4% apart teach the slope, 1
	for i in 0 1 2 3 4 5 6 7; do
		f=$(awk -v i=$i "BEGIN { print 1 + 0.01 * (i % 4) + 0.0003 * i }") &&
		jq --argjson f "$f" --arg t "2026-03-01T00:0$i:00Z" "del(.uuid) | .started = \$t | .label = \"s\" |
			.results |= map(.process_ref_ns |= map(. * \$f) | .process_means_ns |= map(. * \$f))" \
			refa.json >s$i.json || return 1
	done &&
	ukbench import --db ref.db s0.json s1.json s2.json s3.json s4.json s5.json s6.json s7.json >/dev/null &&
	ukbench compare --db ref.db -f json refa.json refb.json >same.json &&
	jq -e ".[0].adjusted == true and (.[0].slope - 1 | fabs) < 0.05" same.json &&
	jq -e "(.[0].change - 0.05 | fabs) < 0.001 and (.[0].adjusted_change | fabs) < 0.001" same.json &&
	jq -e ".[0].ci_low < 0 and .[0].ci_high > 0.05 and (.[0].verdict | IN(\"not significant\", \"cannot tell\"))" same.json &&
	ukbench compare --db ref.db refa.json refb.json >out &&
	grep -q "^time.time  *vdso .* +5.00%~ .*\(not significant\|cannot tell\)" out &&
	jq ".settings |= del(.reference)" refb.json >refold.json &&
	ukbench compare --db ref.db -f json refa.json refold.json >two.json &&
	jq -e ".[0].adjusted == false and (.[0].change - 0.05 | fabs) < 0.001" two.json &&
	ukbench compare --db ref.db refa.json refold.json >out &&
	tr "\n" " " <out >flat &&
	grep -Eq "compared as measured: the two runs timed different reference work beside their batches \(calls3,syscall:calls3-loop40,vdso:calls3-barrier@[0-9a-f]{8}, barrier: made by other versions or builds of ukbench\)" flat
'

# Runs of a host whose reference sits at its usual speed, and runs made
# while the machine ran 12% slower (reference and path alike): show,
# compare and history say so, and history takes no change point from
# them; a step the reference did not make is one.
state_run() { # $1 output, $2 start, $3 label, $4 machine (reference and path), $5 the path alone
	jq --arg t "$2" --arg l "$3" --argjson m "$4" --argjson p "$5" "del(.uuid) | .started = \$t | .label = \$l |
		.results |= map(select(.path == \"vdso\") | .process_ref_ns = [range(0; 8) | (5 + (. % 4) * 0.01) * \$m] |
		.process_means_ns = [.process_ref_ns[] * 2 * \$p] | .process_se_ns = [range(0; 8) | 0.001] |
		.samples_ns = [.process_means_ns[], .process_means_ns[]] | del(.ref_samples_ns, .cpu_samples_ns, .disturbed))" \
		"$base" >"$1"
}
test_expect_success 'the machine'"'"'s state: a run far from the host'"'"'s usual speed says so in show, compare and history' '
	for i in 10 11 12 13 14 15 16 17 18 19 20 21; do
		f=$(awk -v i=$i "BEGIN { print 1 + 0.002 * (i % 3) }") &&
		state_run u$i.json "2026-04-${i}T00:00:00Z" "u$i" "$f" 1 || return 1
	done &&
	for i in 22 23 24 25 26 27; do
		state_run s$i.json "2026-04-${i}T00:00:00Z" "s$i" 1.12 1 || return 1
	done &&
	ukbench import --db st.db u1?.json u2[01].json s2?.json >/dev/null &&
	ukbench show --db st.db s27 >out &&
	tr "\n" " " <out >flat &&
	grep -q "note: this run was made in another state of the machine: the reference timed beside time.time/vdso ran 1[12].[0-9]% slower than its median over this host.s newest 17 runs" flat &&
	ukbench show --db st.db u21 >out &&
	! grep -q "another state" out &&
	ukbench compare --db st.db u21 s27 >out &&
	tr "\n" " " <out >flat &&
	grep -q "note: .s27. was measured while the machine ran 1[12].[0-9]% slower than this host.s runs usually do" flat &&
	grep -q "^time.time  *vdso .* +1[12].[0-9]*%~  .*\(not significant\|cannot tell\)" out &&
	ukbench history --db st.db time.time/vdso >out &&
	test "$(grep -c "  ~$" out)" = 6 &&
	grep -q "^0 change points" out &&
	ukbench history --db st.db -f json time.time/vdso | jq -e "map(.other_state) | map(select(.)) | length == 6" &&
	# the same step made by the path alone: the reference where it was
	for i in 22 23 24 25 26 27; do
		state_run p$i.json "2026-04-${i}T00:00:00Z" "p$i" 1 1.12 || return 1
	done &&
	ukbench import --db step.db u1?.json u2[01].json p2?.json >/dev/null &&
	ukbench history --db step.db time.time/vdso >out &&
	! grep -q "  ~$" out &&
	grep -q "^1 change point" out &&
	grep -q "p22 .*<< change point: step +1[12]\." out
'

# Two runs of one label in one boot, one of them measured with other
# parameters: pooling them would mix two things.
test_expect_success 'a label pools only the runs measured the same way, and says which it left out' '
	jq ".label = \"pp1\" | del(.uuid) | .started = \"2026-02-01T00:00:00Z\"" "$base" >pp1.json &&
	scaled "$base" 1.5 syscall 2026-02-01T00:01:00Z |
		jq ".label = \"pp2\" | .results |= map(if .path == \"syscall\" then .params = \"x=2\" else . end)" >pp2b.json &&
	scaled "$base" 1.1 syscall 2026-02-01T00:02:00Z | jq ".label = \"pp2\"" >pp2a.json &&
	ukbench import --db pp.db pp1.json pp2b.json pp2a.json >/dev/null &&
	ukbench compare --db pp.db -f json pp1 pp2 >pp.json 2>err &&
	cat err &&
	grep -q "note: run #2 measured time.time/syscall with other settings (x=2, not no parameters): not pooled with #3" err &&
	jq -e "[.[] | select(.path == \"syscall\")][0].change | . - 0.1 | fabs < 0.001" pp.json
'

# A process left with one undisturbed batch has no SE of its own: the JSON
# says null, and the run reads back (a loaded machine made one in a fleet).
test_expect_success 'a process whose own SE is not known (null) reads back, in compare and import' '
	jq ".results[0].process_se_ns[0] = null" "$base" >nullse.json &&
	ukbench compare --db ns.db "$base" nullse.json >out &&
	grep -q "^geometric mean of other/base over 3 paths: 1.0000" out &&
	ukbench import --db ns.db nullse.json >out &&
	grep -q "^imported nullse.json as run #1 (3 paths)" out
'

test_expect_success 'colour: --color always, never, auto; NO_COLOR turns auto off' '
	scaled "$base" 1.2 syscall 2030-01-01T00:00:00Z >slow.json &&
	ukbench compare --color always "$base" slow.json >c1 &&
	grep -q "$(printf "\033")\[31mregressed" c1 &&
	ukbench compare --color never "$base" slow.json >c2 &&
	! grep -q "$(printf "\033")" c2 &&
	ukbench compare "$base" slow.json >c3 &&
	! grep -q "$(printf "\033")" c3 &&
	NO_COLOR=1 ukbench compare --color always "$base" slow.json >c4 &&
	grep -q "$(printf "\033")\[31m" c4 &&
	test_expect_code 2 "$UKBENCH" compare --color sometimes "$base" slow.json 2>err &&
	grep -q "takes auto, always or never, not .sometimes." err
'

# b's processes spread $2 times as much as a's, around the same means
spread_by() {
	jq --argjson f "$2" 'del(.uuid) | .started = "2026-01-01T00:10:00Z" | .results |= map(
		(.process_means_ns | add / length) as $m | .process_means_ns |= map($m + (. - $m) * $f))' "$1"
}

test_expect_success 'a side spreading more is another state only where an F test tells it' '
	# 5 processes a side: 3 times the spread is F = 9 on 4 and 4 degrees
	# of freedom, p = 0.06 both ways: not shown; 10 times is
	scaled "$base" 1.2 syscall >slow20.json &&
	spread_by slow20.json 3 >wide3.json &&
	ukbench compare --db sp.db "$base" wide3.json >out &&
	! grep -q "other state" out &&
	grep -q "^time.time  *syscall .* +20.00%\*.* regressed$" out &&
	spread_by slow20.json 10 >wide10.json &&
	ukbench compare --db sp.db "$base" wide10.json >out &&
	grep -q "^time.time  *syscall .* +20.00%\*.*other state$" out &&
	grep -q "a side was made in another state of the machine" out
'

test_done
