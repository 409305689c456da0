#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ref-drift, the tool behind the choice of the reference: its two modes
# print a table of the two paths against the five references, and refuse
# what they cannot measure. What the figures are depends on the machine:
# only their form and that they are figures is checked.
. "$(dirname "$0")/../lib.sh"

RD="${UKB_BUILD:-$(dirname "$UKBENCH")}/ref-drift"

test_expect_success 'windows: one row a path, a slope and a share left for each reference' '
	"$RD" 0.6 0.2 >out &&
	cat out &&
	grep -q "^between 3 windows" out &&
	grep -Eq "^getppid\(\) system call +[0-9.]+% +(-?[0-9.]+ +[0-9.]+% *){5}$" out &&
	grep -Eq "^clock_gettime\(\) vDSO +[0-9.]+% +(-?[0-9.]+ +[0-9.]+% *){5}$" out &&
	# the other work, timed beside them: two columns, three where CPUID traps (x86)
	sed -n "/^other work, not the reference:/,\$p" out >other &&
	grep -Eq "^getppid\(\) system call +[0-9.]+% +(-?[0-9.]+ +[0-9.]+% *){2,3}$" other &&
	grep -q "chase 64K" other
'

test_expect_success 'processes: fresh processes, then groups of five of them' '
	"$RD" --processes 15 0.05 >out &&
	cat out &&
	grep -q "^ref-drift: 15 fresh processes of 0.05 s" out &&
	grep -q "^between 15 processes" out &&
	grep -q "^between 3 groups of five processes" out &&
	test "$(grep -Ec "^getppid\(\) system call +[0-9.]+% +(-?[0-9.]+ +[0-9.]+% *){5}$" out)" = 2 &&
	! grep -q "failed and are left out" out
'

test_expect_success 'too few windows or processes: usage, exit 2' '
	test_expect_code 2 "$RD" 1 1 2>err &&
	grep -q "three windows at least" err &&
	test_expect_code 2 "$RD" --processes 9 2>err &&
	grep -q "N >= 10" err &&
	test_expect_code 2 "$RD" --processes ten 2>err &&
	test_expect_code 2 "$RD" --processes 12 0 2>err
'

test_done
