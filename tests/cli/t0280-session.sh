#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a before/after session expects without reading the manual: compare
# with no run compares the two latest, with one label its two latest; a
# label that looks like a path is a label when no such file exists; a
# value outside an option's words is refused with the words named. Each
# test keeps its own store, so that run ids are its own.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.02 --warmup 0.002 --min-samples 3 --batch 200 --processes 3"

test_expect_success 'compare without runs: the two latest, the older the base' '
	export UKBENCH_DB="$PWD/s.db" &&
	test_expect_code 2 ukbench compare 2>err &&
	grep -q "compares the two latest, and no run is stored" err &&
	ukbench run $tiny -l first time.time >/dev/null &&
	test_expect_code 2 ukbench compare 2>err &&
	grep -q "one run is stored" err &&
	ukbench run $tiny -l second time.time >/dev/null &&
	ukbench run $tiny -l third time.time >/dev/null &&
	ukbench compare >out &&
	head -1 out | grep -q "^the two latest runs: #3 .third. against #2 .second." &&
	grep -q "^base #2 .second." out &&
	ukbench compare -f json >j &&
	jq -e "length > 0" j >/dev/null
'

test_expect_success 'compare LABEL: the two latest runs of that label, each alone' '
	export UKBENCH_DB="$PWD/s.db" &&
	ukbench run $tiny -l same time.time >/dev/null &&
	ukbench run $tiny -l other time.time >/dev/null &&
	ukbench run $tiny -l same time.time >/dev/null &&
	ukbench compare same >out &&
	head -1 out | grep -q "^the two latest runs of .same.: #3 .same. against #1 .same." &&
	test_expect_code 2 ukbench compare other 2>err &&
	grep -q "the label has one run" err &&
	test_expect_code 2 ukbench compare nosuch 2>err &&
	grep -q "needs a base run and at least one other, or one label" err
'

test_expect_success 'a label with a slash is a label when no such file exists' '
	export UKBENCH_DB="$PWD/s.db" &&
	ukbench run $tiny -l v6.18/base time.time >/dev/null &&
	ukbench run $tiny -l v6.18/patched time.time >/dev/null &&
	ukbench compare v6.18/base v6.18/patched >out &&
	grep -q "^base #1 .v6.18/base." out &&
	ukbench report --no-plots -f markdown v6.18/base v6.18/patched >md &&
	grep -q "v6.18/base" md &&
	test_expect_code 2 ukbench compare v6.18/base v6.19/none 2>err &&
	grep -q "no such file, and no stored run has that label" err
'

# A short commit hash is all digits one time in 27: as a label under
# git bisect run it must name its runs, not a run number that is not there.
test_expect_success 'a label of digits: the label when no run has that number' '
	export UKBENCH_DB="$PWD/d.db" &&
	ukbench run $tiny -l 1234567 time.time >/dev/null &&
	ukbench run $tiny -l 1 time.time >/dev/null &&
	ukbench run $tiny -l 7654321 time.time >/dev/null &&
	ukbench compare 1234567 7654321 >out &&
	grep -q "^base #1 .1234567." out &&
	grep -q "^other #3 .7654321." out &&
	test_expect_code 2 ukbench compare 1 2 2>err &&
	grep -q "^error: .1. is both run #1 and a label; say id:1 or label:1" err &&
	ukbench compare label:1 id:3 >out &&
	grep -q "^base #2 .1." out &&
	ukbench compare --bisect 50 1234567 7654321 >/dev/null; rc=$? &&
	case $rc in 0 | 1 | 125) ;; *) echo "exit $rc"; false ;; esac
'

test_expect_success 'a value outside an option'"'"'s words: refused, the words named, nothing run' '
	test_expect_code 2 ukbench run --no-store -f yaml time.time 2>err &&
	grep -q "^error: unknown format .yaml.: table, json, csv, ktap, gbench, lava or kcidb" err &&
	test_expect_code 2 ukbench compare -f pdf a b 2>err &&
	grep -q "^error: unknown format .pdf.: table, json, csv, mail, markdown, lkp or kcidb" err &&
	ukbench run --help >h &&
	grep -q -- "--format table|json|csv|ktap|gbench|lava" h
'

test_expect_success '--quick: a short budget and a wider target, said under the table' '
	ukbench run --no-store --quick -j q.json time.time syscall.null >out &&
	grep -q "^quick (--quick): 0.05 s a path at a precision of 5%" out &&
	jq -e ".settings.budget_s == 0.05 and .settings.precision == 0.05" q.json &&
	ukbench run --no-store --quick -p 2 -b 0.1 -j q2.json time.time >out &&
	jq -e ".settings.budget_s == 0.1 and .settings.precision == 0.02" q2.json
'

test_expect_success 'exec: machine-readable means only that; A/B as times faster' '
	ukbench exec --no-store -r 3 -j - -- true >j 2>h &&
	jq -e ".results[0].name == \"exec.true\"" j >/dev/null &&
	grep -q "^ukbench exec: .true., 3 runs" h &&
	ukbench exec --no-store -r 3 -f csv -- true >c 2>h &&
	head -1 c | grep -q "^run_id,label,host" &&
	test "$(wc -l <c)" = 2 &&
	grep -q "^  wall " h &&
	test_expect_code 2 ukbench exec --no-store -j - -f csv -- true 2>err &&
	grep -q "both want standard output" err &&
	# the direction on a difference no load can turn (a tenth of a second
	# of sleep against a process that exits at once); the lines elsewhere
	# are checked for their form only
	ukbench exec --no-store -r 4 -c "sleep 0.1" -c "true" >ab &&
	grep -q "^  exec.cmd2 ran [0-9.]* ± [0-9.]* times faster than exec.cmd1" ab
'

test_expect_success 'marks: ! an interval wider than asked, ^ a mean far from its median, each said' '
	ukbench run --no-store -r 1 -b 0.1 -j one.json time.time/vdso >/dev/null &&
	# every batch counted (load marks some disturbed, which the figure
	# leaves out: those could be the very ones made four times as long);
	# the samples set, not scaled: under load the measured ones have a
	# slow tail of their own, which can pull the median up to the mean.
	# A slow tail that ran on the CPU throughout: its CPU time the same.
	jq ".results[0].converged = false |
		.results[0].disturbed |= (if . then map(0) else . end) |
		.results[0].samples_ns |= (to_entries | map(if .key % 3 == 0 then 8.0 else 2.0 end)) |
		.results[0].cpu_samples_ns |= (if . then (to_entries | map(if .key % 3 == 0 then 8.0 else 2.0 end)) else . end)" \
		one.json >tail.json &&
	ukbench show tail.json >out &&
	{
		grep -q "^time.time  *vdso  *[0-9.]*^  *[0-9.]*%!" out &&
		grep -q "^! 1 path.s processes left an interval wider than the 1% asked" out &&
		grep -q "^^ 1 path.s mean is more than 20% from the median" out &&
		! grep -q "%\*" out ||
		{ cat out; jq -c ".results[0] | [.stats, .keeps_disturbed, (.samples_ns | length)]" tail.json; false; }
	}
'

# The processes met the precision, the interval printed did not: the rest
# is the floor (set wide here), and the footer says what narrows it.
test_expect_success 'marks: ! an interval wider than asked by what moves between runs, said so' '
	ukbench run --no-store -r 3 -b 0.1 -j three.json time.time/vdso >/dev/null &&
	jq ".results[0].converged = true | .results[0].floor_rel = 0.2 | .results[0].floor_df = 1000" \
		three.json >wide.json &&
	ukbench show wide.json >out &&
	grep -q "^time.time  *vdso  *[0-9.^]*  *[0-9.]*%!" out &&
	tr "\n" " " <out | sed "s/  */ /g" >flat &&
	grep -q "! 1 path prints an interval wider than the 1% asked though its processes met it: the rest is what a run.s mean moves between runs (the floor, up to 20.00% a run" flat &&
	! grep -q "processes left an interval" out &&
	jq ".results[0].floor_rel = 0.0001 | .settings.precision = 0.9" wide.json >narrow.json &&
	ukbench show narrow.json >out &&
	! grep -q "%!" out && ! grep -q "^! " out
'

test_expect_success 'exec --prepare before every run, --cleanup after each command, --command-name' '
	ukbench exec --no-store -r 3 --prepare "echo p >>log" --cleanup "echo c >>log" \
		--command-name old -c "sleep 0.02" --command-name new -c "sleep 0.01" -j r.json >out &&
	test "$(grep -c p log)" = 8 &&
	test "$(grep -c c log)" = 2 &&
	jq -e "[.results[].name] == [\"exec.old\", \"exec.new\"]" r.json &&
	grep -q "^  exec.new ran [0-9.]* ± [0-9.]* times \(faster\|slower\) than exec.old" out &&
	test_expect_code 1 ukbench exec --no-store -r 2 --prepare false -- true 2>err &&
	grep -q "^error: --prepare .false. exited with status 1 before run 1" err &&
	test_expect_code 2 ukbench exec --no-store --command-name "a b" -- true 2>err &&
	grep -q "a name is 1 to 24 letters" err &&
	test_expect_code 2 ukbench exec --no-store --command-name x --command-name y -- true 2>err &&
	grep -q "2 command names for 1 command" err
'

test_expect_success 'messages that are true: an exec run shown, --no-store, throughput per second' '
	export UKBENCH_DB="$PWD/s.db" &&
	ukbench exec -r 3 -- sleep 0.005 >/dev/null &&
	ukbench show >out &&
	grep -q "^exec: .sleep 0.005., 3 runs" out &&
	grep -q "^benchmark  *path  *per run " out &&
	! grep -q "precision 0%\|budget 0 s\|ns/call" out &&
	ukbench run --no-store -r 2 -b 0.05 time.time copy.write_null.1m >out &&
	grep -q "^the store was not read (--no-store)" out &&
	grep -q "^copy.write_null.1m  *write  *1048576  *[0-9.]* [kMGT]*B/s\$" out
'

test_expect_success 'history without a pattern: a line a series past four; -v every one in full' '
	export UKBENCH_DB="$PWD/s.db" &&
	ukbench run -r 2 -b 0.05 -l a time.time syscall.null >/dev/null &&
	ukbench run -r 2 -b 0.05 -l b time.time syscall.null >/dev/null &&
	ukbench history >out &&
	head -1 out | grep -q "^5 series over 2 runs; a pattern (or -v) shows each in full" &&
	grep -q "^time.time/vdso  *vm  *2 " out &&
	test "$(wc -l <out)" = 8 &&
	ukbench history -v >all &&
	test "$(grep -c "^time.time/vdso on \|^syscall.null/syscall on " all)" = 2 &&
	ukbench history time.time/vdso >one &&
	grep -q "^time.time/vdso on " one
'

test_expect_success 'exec -L NAME=V1,V2: one command a value, interleaved and compared' '
	ukbench exec --no-store -r 3 -L t=0.01,0.02 -j r.json -- sleep "{t}" >out &&
	jq -e "[.results[].name] == [\"exec.t=0.01\", \"exec.t=0.02\"]" r.json &&
	grep -q "^  exec.t=0.02 ran [0-9.]* ± [0-9.]* times \(faster\|slower\) than exec.t=0.01" out &&
	test_expect_code 2 ukbench exec --no-store -L t 1,2 -- sleep "{t}" 2>err &&
	grep -q "in one word" err &&
	test_expect_code 2 ukbench exec --no-store -L t=1,2 -- true 2>err &&
	grep -q "has no {t} to replace" err
'

test_done
