#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `ukbench list`: every benchmark and path, and whether it runs here.
. "$(dirname "$0")/../lib.sh"

test_expect_success 'list: a line a benchmark, the paths it has here, within 80 columns' '
	COLUMNS=80 ukbench list >short &&
	grep -q "^\* time.clock_gettime\.\*  *vdso libc syscall  *clock_gettime" short &&
	grep -q "^\* syscall.null  *syscall libc " short &&
	grep -q "^  lab.div64 " short &&
	n=$(grep -c "^[* ] [a-z]" short) &&
	test "$n" -ge 15 && test "$n" -le 40 &&
	awk "length(\$0) > 80 { print; bad = 1 } END { exit bad }" short &&
	grep -q "list -v. every variant and path" short
'

test_expect_success 'list -v shows every family and path' '
	ukbench list -v >out &&
	for b in harness.empty syscall.null time.gettimeofday time.clock_gettime.monotonic \
		time.clock_gettime.tai time.clock_gettime.monotonic_coarse time.time \
		time.clock_getres.realtime cpu.getcpu; do
		grep -q "^\* $b$" out || { echo "missing $b"; exit 1; }
	done &&
	grep -q "^    vdso  *available  *direct call into the vDSO (__" out &&
	grep -q "^    syscall  *available" out
'

test_expect_success 'list --names: one NAME/PATH per line' '
	ukbench list --names >names &&
	grep -qx "time.gettimeofday/vdso" names &&
	grep -qx "time.gettimeofday/libc" names &&
	grep -qx "time.gettimeofday/syscall" names &&
	grep -qx "harness.empty/loop" names &&
	test "$(grep -c "^time.clock_gettime\." names)" = 21
'

test_expect_success 'patterns: glob, family prefix, path' '
	ukbench list --names "time.clock_gettime.*/vdso" >a &&
	test "$(wc -l <a)" = 7 &&
	ukbench list --names time >b &&
	test "$(grep -vc "^time\." b)" = 0 &&
	ukbench list --names cpu.getcpu/libc >c &&
	test "$(cat c)" = "cpu.getcpu/libc"
'

test_expect_success 'unknown pattern: closest names, exit 2' '
	test_expect_code 2 ukbench list time.clok_gettime 2>err &&
	grep -q "no benchmark matches .time.clok_gettime." err &&
	grep -q "hint: the closest.*time.clock_gettime" err
'

test_expect_success 'unknown path: says which, exit 2' '
	test_expect_code 2 ukbench list time.time/vsdo 2>err &&
	grep -q "no path matches .vsdo." err
'

test_expect_success 'list shows what runs here; --all the rest, with why; the count said' '
	ukbench list -v >out &&
	ukbench list --names >here &&
	ukbench list --all --names >every &&
	ukbench list -v --all >all &&
	! grep -q " n/a " out &&
	hidden=$(( $(wc -l <every) - $(wc -l <here) )) &&
	echo "hidden: $hidden" &&
	if [ "$hidden" -gt 0 ]; then
		grep -q "^$hidden paths\{0,1\} this machine cannot run .* not shown: .ukbench list --all. shows them" out &&
		test "$(grep -c "^    [a-z_0-9]*  *\(n/a\|not allowed\) " all)" = "$hidden"
	else
		! grep -q "not shown" out
	fi
'

test_expect_success 'a bare word of the names selects its benchmarks: getrandom, getcpu' '
	ukbench list --names getrandom >g &&
	test -s g &&
	test "$(grep -vc "^random\.getrandom\.[^/]*/" g)" = 0 &&
	ukbench list --names getcpu >c &&
	grep -qx "cpu.getcpu/vdso" c &&
	ukbench run --processes 1 --no-store --budget 0.02 --json r.json getcpu/syscall >/dev/null &&
	jq -e ".results | length == 1 and .[0].name == \"cpu.getcpu\"" r.json
'

test_done
