#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# On a terminal: one progress line on stderr that never wraps, with the
# paths done, the time so far and what is left; colour unless NO_COLOR.
# Not on a terminal: neither.
. "$(dirname "$0")/../lib.sh"

test_expect_success SCRIPT 'progress: one line cut to the terminal, paths done and time left' '
	# the terminal says 50 columns; then COLUMNS does, as for a table
	for runs in 1 5 c; do
		case $runs in
		c) script -qec "stty cols 120; COLUMNS=50 \"$UKBENCH\" run --no-store --processes 1 -b 0.3 time.time >/dev/null" /dev/null >tty.out ;;
		*) script -qec "stty cols 50; unset COLUMNS; \"$UKBENCH\" run --no-store --processes $runs -b 0.3 time.time >/dev/null" /dev/null >tty.out ;;
		esac || return 1
		# the updates, one per carriage return
		tr "\r" "\n" <tty.out | sed "s/$(printf "\033")\[K//g" | grep . >lines || return 1
		cat lines
		grep -q "^\[\(1/3 paths\|process [0-9]/5\)\] [0-9]* s, about [0-9]* s left: " lines || return 1
		awk "length(\$0) > 49 { print \"too wide: \" length(\$0); bad = 1 } END { exit bad }" lines || return 1
	done
'

# Redraws are counted, not timed: a run of about three seconds must have
# been redrawn more often than once a process (its clock moves while a
# worker measures), and exec's line moves while its command runs.
test_expect_success SCRIPT 'progress moves while a worker measures and while a command runs' '
	script -qec "\"$UKBENCH\" run --no-store --processes 3 -b 3 time.time >/dev/null" /dev/null >tty.out &&
	tr "\r" "\n" <tty.out | sed "s/$(printf "\033")\[K//g" | grep "^\[process" >lines &&
	cat lines | uniq -c &&
	test "$(wc -l <lines)" -ge 6 &&
	test "$(grep -c "^\[process 1/3\]" lines)" -ge 2 &&
	script -qec "\"$UKBENCH\" exec --no-store -r 2 -- sleep 1" /dev/null >tty2.out &&
	tr "\r" "\n" <tty2.out | sed "s/$(printf "\033")\[K//g" | grep "^\[run" >lines2 &&
	cat lines2 | uniq -c &&
	grep -q "^\[run 2/3\] [0-9]* s, about [0-9]* s left: sleep 1" lines2 &&
	test "$(grep -c "^\[run 2/3\]" lines2)" -ge 2
'

test_expect_success 'no progress and no escape sequence when stderr is not a terminal' '
	ukbench run --no-store --processes 1 -b 0.1 time.time >out 2>err &&
	! grep -q "$(printf "\r")" err &&
	! grep -q "$(printf "\033")" err out
'

test_expect_success SCRIPT 'colour on a terminal, none with NO_COLOR' '
	ukbench run --no-store --json base.json --budget 0.05 time.time >/dev/null &&
	jq ".started = \"2030-01-01T00:00:00Z\" | .results |= map(.samples_ns |= map(. * 1.5) |
		.process_means_ns |= map(. * 1.5) | .process_se_ns |= map(if . == null then . else . * 1.5 end))" base.json >slow.json &&
	script -qec "\"$UKBENCH\" compare base.json slow.json" /dev/null >tty1 &&
	grep -q "$(printf "\033")\[31mregressed" tty1 &&
	NO_COLOR=1 script -qec "\"$UKBENCH\" compare base.json slow.json" /dev/null >tty2 &&
	grep -q "regressed" tty2 &&
	! grep -q "$(printf "\033")\[31m" tty2
'

test_done
