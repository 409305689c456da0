#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ukbench check: the vDSO against the system call.
. "$(dirname "$0")/../lib.sh"

test_expect_success 'check: every function, verify and abi, a summary' '
	ukbench check --duration 0.2 >out; rc=$?
	cat out &&
	for f in "clock_gettime monotonic" "clock_gettime realtime_coarse" gettimeofday time \
		"clock_getres monotonic" getcpu "getrandom after fork"; do
		grep -q "^verify  $f  *ok " out || { echo "no ok verify $f"; exit 1; }
	done &&
	grep -q "^abi     clock_gettime PROT_NONE page  *known  *vDSO killed by Segmentation fault, system call Bad address" out &&
	grep -q "^abi     clock_gettime clock id -1  *ok  *vDSO Invalid argument, system call Invalid argument" out &&
	grep -q "^[0-9]* ok, [0-9]* FAILED, [0-9]* skipped, [0-9]* known behaviour$" out &&
	failed=$(sed -n "s/^[0-9]* ok, \([0-9]*\) FAILED.*/\1/p" out) &&
	test "$failed" = "$(grep -c " FAILED " out)" &&
	if [ "$failed" = 0 ]; then test "$rc" = 0; else test "$rc" = 1; fi
'

test_expect_success 'check FUNCTION: only that one; --verify-only, --abi-only' '
	ukbench check --duration 0.1 --verify-only time >out &&
	test "$(grep -c "" out)" = 3 &&
	grep -q "^verify  time  *ok" out &&
	ukbench check --abi-only gettimeofday >out &&
	! grep -q "^verify" out &&
	grep -q "^abi     gettimeofday NULL pointer  *ok" out
'

test_expect_success 'check --ktap: a plan, one test per check, known as ok, skipped as SKIP' '
	UKBENCH_VDSO_HIDE=getcpu ukbench check --ktap --duration 0.1 getcpu time >out &&
	head -1 out | grep -qx "KTAP version 1" &&
	grep -q "^ok [0-9]* verify getcpu # SKIP .getcpu. not exported" out &&
	n=$(sed -n "s/^1\.\.\([0-9]*\)$/\1/p" out) &&
	test "$(grep -c "^\(not \)\{0,1\}ok " out)" = "$n"
'

test_expect_success 'a function this vDSO lacks is skipped with the reason, not failed' '
	UKBENCH_VDSO_HIDE=getrandom ukbench check getrandom >out &&
	grep -q "^verify  getrandom  *skipped  .getrandom. not exported" out &&
	grep -q "^0 ok, 0 FAILED, 1 skipped, 0 known behaviour" out
'

# A reseed changes the generation the vDSO sees: its next call fetches a
# new key through the system call, by design; that is not a fall-back.
test_expect_success RESEED 'the kernel reseeding as the checks run: no getrandom check fails' '
	"$UKB_BUILD/tests/reseed" 3 &
	pid=$!
	for i in 1 2 3 4 5; do
		ukbench check --verify-only -W getrandom >out && ! grep -q " FAILED " out ||
			{ cat out; kill $pid; exit 1; }
	done
	wait $pid &&
	cat out &&
	grep -q "^verify  getrandom time namespace  *\(ok .* not one falling back\|skipped\)" out
'

test_expect_success 'unknown function: error, the known ones, exit 2' '
	test_expect_code 2 ukbench check clock_gettim 2>err &&
	grep -q "unknown function .clock_gettim." err &&
	grep -q "hint: the functions are clock_gettime, gettimeofday" err &&
	test_expect_code 2 ukbench check --verify-only --abi-only 2>err
'

test_done
