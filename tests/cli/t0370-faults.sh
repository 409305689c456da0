#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Faults, each class a script in tests/faults run here in a short version
# (by hand for the long one): an allocation that fails, many writers at
# one store (and through one spool to a fleet's server), SIGKILL at any instant of a writing command or of a push to
# the fleet's server, a write, sync, rename or close that fails.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)

test_expect_success FAILALLOC 'a failed allocation: no crash, an error line, exit 1, the store whole' '
	"$top/tests/faults/alloc.sh" -n 10 >out 2>&1
	rc=$?
	cat out &&
	test "$rc" = 0 &&
	grep -Eq "^alloc: [0-9]+ trials, 0 crashed, 0 silent, 0 refused, 0 damaged$" out &&
	# every command was tried, and some trials did fail an allocation
	test "$(grep -Ec "^(run|import|compare|history|report|show) .* [0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +0 +0 +0$" out)" = 6 &&
	awk "/^(run|import|compare) / && \$(NF-4) > 0 { n++ } END { exit n != 3 }" out
'

prereq_SQLITE3() { have_program sqlite3 sqlite3; }
prereq_SETSID() { have_program setsid util-linux; }

test_expect_success SQLITE3 'many writers and readers at one store: none fails, none lost or doubled' '
	"$top/tests/faults/writers.sh" -w 4 -n 6 -r 2 >out 2>&1
	rc=$?
	cat out &&
	test "$rc" = 0 &&
	grep -q "^writers: 24 commands, 0 failed, 0 lost, 0 doubled, integrity ok$" out
'

test_expect_success SQLITE3,SETSID 'SIGKILL at any instant: the store whole, every run read back' '
	"$top/tests/faults/kill.sh" -n 4 >out 2>&1
	rc=$?
	cat out &&
	test "$rc" = 0 &&
	grep -q "^kill: 16 trials, 0 damaged$" out
'

prereq_PGSERVER() {
	. "$top/tests/fleet/pg.sh"
	pg_bindir >/dev/null && { [ "$(id -u)" != 0 ] || id postgres >/dev/null 2>&1; } && return 0
	prereq_why="no PostgreSQL server to start (postgresql-15)"
	return 1
}

test_expect_success SQLITE3,SETSID,PGSERVER 'SIGKILL at any instant of a push: the spool whole, each run once' '
	"$top/tests/faults/kill-push.sh" -n 6 >out 2>&1
	rc=$?
	cat out &&
	test "$rc" = 0 &&
	grep -Eq "^kill-push: 6 trials, [0-9]+ landed, 0 damaged, 0 doubled$" out
'

prereq_STRACE() {
	have_program strace strace || return 1
	strace -o /dev/null -e trace=close -e inject=close:error=EIO:when=9999 true 2>/dev/null &&
		return 0
	prereq_why="strace cannot trace here (ptrace refused)"
	return 1
}

test_expect_success SQLITE3,PGSERVER 'many writers through one spool to a fleet'"'"'s server: each run there once' '
	"$top/tests/faults/writers.sh" -p -w 4 -n 6 -r 2 >out 2>&1
	rc=$?
	cat out &&
	test "$rc" = 0 &&
	grep -Eq "^writers: 24 commands by 4 writers, [0-9]+ reads by 2 readers, [0-9]+ pushes of the spool in" out &&
	grep -q "^writers: 24 commands, 0 failed, 0 lost, 0 doubled, integrity ok$" out
'

test_expect_success SQLITE3,STRACE 'a write, sync, rename or close that fails: exit 1 and said, or the work whole' '
	"$top/tests/faults/io.sh" -n 2 >out 2>&1
	rc=$?
	cat out &&
	test "$rc" = 0 &&
	grep -Eq "^io: [0-9]+ trials, 0 bad$" out &&
	grep -q "^run -j FILE  *rename " out &&
	grep -q "^import  *pwrite64 " out &&
	grep -q "^run into a spool  *pwrite64 " out
'

test_done
