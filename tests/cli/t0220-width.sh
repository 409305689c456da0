#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Tables fit: 80 columns when standard output is not a terminal (or
# $COLUMNS), every column with --wide, cells aligned by the columns they
# take on screen ("±" is two bytes and one column).
. "$(dirname "$0")/../lib.sh"

unset COLUMNS
# a CPU whose name is long (60 characters): the layout must not depend on it
UKBENCH_TEST_CPU_NAME="Example(R) Processor Family 9 Model 1234567 @ 3.40GHz Rev. 8"
export UKBENCH_TEST_CPU_NAME
tiny="--budget 0.05 --warmup 0.002 --min-samples 3 --batch 200"

# no line of the files wider than $1 display columns
fits() {
	w=$1
	shift
	for f in "$@"; do
		LC_ALL=C.UTF-8 awk -v w="$w" -v f="$f" '{ l = $0; gsub(/±|…/, "+", l) }
			length(l) > w { print f ": " length(l) ": " $0; bad = 1 } END { exit bad }' "$f" || return 1
	done
}

test_expect_success 'run, show, compare, history, runs, list, check, env, exec: 80 columns' '
	ukbench run $tiny --db w.db -l first --counters time.clock_gettime.monotonic_coarse cpu.getcpu >run.out &&
	ukbench run $tiny --db w.db -l second time.clock_gettime.monotonic_coarse cpu.getcpu >/dev/null &&
	ukbench show --db w.db first >show.out &&
	ukbench compare --db w.db first second >compare.out &&
	ukbench history --db w.db >history.out &&
	ukbench runs --db w.db >runs.out &&
	ukbench list --all >list.out && ukbench list >list2.out &&
	{ ukbench check --duration 0.05 >check.out; test $? -le 1; } &&
	ukbench env >env.out &&
	ukbench exec --no-store -r 2 -c true -c "true 1" >exec.out &&
	fits 80 run.out show.out compare.out history.out runs.out list.out list2.out check.out env.out exec.out &&
	grep -q "^time.clock_gettime.monotonic_coarse$" run.out &&
	grep -q "^  vdso  " compare.out
'

# Two processes a side a hundred times apart, and a floor of 100%: an
# interval of 22 characters, past its column; its verdict goes under its own
# column on the next line, never past 80.
test_expect_success 'an interval past its column: the verdict under it, 80 columns kept' '
	ukbench run $tiny --no-store --json m.json time.time >/dev/null &&
	known_figures m.json base.json &&
	jq ".results |= map(if .path == \"syscall\" then .process_means_ns = [0.1, 1000] |
		.process_se_ns = [0.01, 1] | del(.process_ref_ns) else . end)" base.json >wb.json &&
	jq "del(.uuid) | .results |= map(if .path == \"syscall\" then .process_means_ns = [0.2, 900] |
		.process_se_ns = [0.01, 1] | del(.process_ref_ns) else . end)" base.json >wo.json &&
	ukbench compare --db c.db --floor 100 wb.json wo.json >wide.out &&
	cat wide.out &&
	fits 80 wide.out &&
	grep -Eq "^  syscall .* \[-[0-9.]+%, \+[0-9]{6}\.[0-9]{2}%\]$" wide.out &&
	grep -Eq "^ {64}not significant$" wide.out
'

test_expect_success 'COLUMNS=60: run, show, compare, history, runs fit; the names on lines of their own' '
	ukbench run $tiny --db s.db -l left --counters time.clock_gettime.monotonic_coarse cpu.getcpu >/dev/null &&
	ukbench run $tiny --db s.db -l right time.clock_gettime.monotonic_coarse cpu.getcpu >/dev/null &&
	COLUMNS=60 ukbench run $tiny --no-store --counters time.clock_gettime.monotonic_coarse cpu.getcpu >run60.out &&
	COLUMNS=60 ukbench show --db s.db left >show60.out &&
	COLUMNS=60 ukbench compare --db s.db left right >compare60.out &&
	COLUMNS=60 ukbench history --db s.db >history60.out &&
	COLUMNS=60 ukbench history --db s.db -v >historyv60.out &&
	COLUMNS=60 ukbench runs --db s.db >runs60.out &&
	fits 60 run60.out show60.out compare60.out history60.out historyv60.out runs60.out &&
	grep -q "^benchmark$" run60.out &&
	grep -q "^time.clock_gettime.monotonic_coarse$" run60.out &&
	grep -q "^  vdso  *[0-9.]* " run60.out &&
	grep -q "^  vdso  *[0-9.]*  *[0-9.]*  *[-+][0-9.]*%" compare60.out &&
	grep -q "^  *\[[-+][0-9.]*%, [-+][0-9.]*%\]$" compare60.out &&
	grep -q "^ *[0-9][0-9]*  [0-9-]* [0-9:]*  left" runs60.out
'

test_expect_success '--wide: every column, one line a row' '
	ukbench run $tiny --db v.db -l a --wide time.time >run.out &&
	ukbench run $tiny --db v.db -l b time.time >/dev/null &&
	grep -q "^benchmark  *path  *ns/call  *±CI95  *±proc  *median  *cpu ns  *calls/s  *samples$" run.out &&
	ukbench compare --db v.db a b --wide >cmp.out &&
	grep -q "^benchmark  *path  *base ns  *other ns  *change  *95% CI  *MDE  *p  *p(mwu)  *one speed  *machine  *95% CI, no floor  *verdict$" cmp.out &&
	grep -q "^time.time  *vdso  " cmp.out &&
	ukbench show --db v.db a -W | grep -q "calls/s" &&
	ukbench history --db v.db -W time.time/vdso | grep -q "±CI95" &&
	COLUMNS=250 ukbench compare --db v.db a b | grep -q "p(mwu)"
'

test_expect_success 'cells aligned by display columns, not bytes' '
	ukbench run $tiny --no-store time.time >narrow.out &&
	ukbench run $tiny --no-store --wide time.time >wide.out &&
	for f in narrow.out wide.out; do
		head=$(grep "^benchmark" $f | sed "s/±/+/g" | awk "{ print length }") &&
		row=$(grep "^time.time " $f | sed "s/±/+/g" | awk "{ print length }") &&
		echo "$f: header $head, row $row" &&
		test "$head" = "$row" || return 1
	done
'

test_done
