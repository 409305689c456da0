#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# System calls blocked by a seccomp filter: reported as blocked, with the
# errno, never timed as a fast no-op. (A blocked path ends with the first
# process and is shown then, so its row may come before or after the
# measured ones: each row is matched with its name or without.)
. "$(dirname "$0")/../lib.sh"

# LeakSanitizer stops the world with ptrace, which the filter forbids: spins
tiny="--budget 0.01 --warmup 0.002 --min-samples 3 --batch 200 --no-store"
seccomp="${UKB_BUILD:-$(dirname "$UKBENCH")}/tests/seccomp-exec"

test_expect_success SECCOMP 'EPERM: the syscall paths are skipped as blocked, the vDSO still measured' '
	ASAN_OPTIONS=detect_leaks=0 "$seccomp" EPERM clock_gettime,getppid -- "$UKBENCH" run $tiny --json r.json \
		time.clock_gettime.monotonic syscall.null >out &&
	grep -q "^\(time.clock_gettime.monotonic\)\{0,1\}  *vdso  *[0-9.]" out &&
	grep -q "^\(time.clock_gettime.monotonic\)\{0,1\}  *syscall  *skipped  blocked: system call clock_gettime(monotonic) failed: Operation not permitted" out &&
	grep -q "^\(syscall.null\)\{0,1\}  *syscall  *skipped  blocked: getppid through syscall failed: Operation not permitted" out &&
	grep -q "^\(syscall.null\)\{0,1\}  *libc  *skipped  blocked: getppid through libc" out &&
	jq -e "[.results[] | select(.status == \"skipped\") | .errno] | all(. == 1) and length == 3" r.json &&
	jq -e "all(.results[] | select(.status == \"skipped\"); .stats == null and (.samples_ns | length) == 0)" r.json
'

test_expect_success SECCOMP 'ENOSYS: unavailable with the errno; getrandom everywhere, as the vDSO reseeds through it' '
	ASAN_OPTIONS=detect_leaks=0 "$seccomp" ENOSYS getrandom,getcpu -- "$UKBENCH" run $tiny --json r.json random.getrandom.4 cpu.getcpu >out &&
	jq -e "[.results[] | select(.name == \"random.getrandom.4\") | .status] | all(. == \"unsupported\")" r.json &&
	jq -e ".results[] | select(.name == \"cpu.getcpu\" and .path == \"syscall\") | .status == \"unsupported\" and .errno == 38" r.json &&
	jq -e ".results[] | select(.name == \"cpu.getcpu\" and .path == \"vdso\") | .status == \"ok\"" r.json
'

test_expect_success SECCOMP 'check under a filter: a blocked system call skips the check, never fails the vDSO' '
	ASAN_OPTIONS=detect_leaks=0 "$seccomp" EPERM clock_getres,time,getcpu,gettimeofday -- \
		"$UKBENCH" check --verify-only --duration 0.05 clock_getres time getcpu gettimeofday >out; rc=$?
	cat out
	test "$rc" = 0 &&
	grep -q "^verify  *clock_getres monotonic  *skipped  *blocked: the system call failed: Operation not permitted" out &&
	grep -q "^verify  *time  *skipped  *blocked" out &&
	grep -q "^verify  *getcpu  *skipped  *blocked" out &&
	grep -q "^verify  *gettimeofday  *skipped  *blocked" out &&
	! grep -q "  FAILED  " out
'

test_done
