#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kill-push.sh [-n TRIALS] [-s SEED] - SIGKILL at any instant of a push.
#
# A spool of 5 runs is pushed to a PostgreSQL server of the script's own
# (tests/fleet/pg.sh) and the push killed TRIALS times (default 40): half
# at a moment uniform over an uninterrupted push's life, half around its
# end, where its transactions commit. After each kill the spool passes
# PRAGMA integrity_check and holds every run (pushed or waiting), the
# server holds no run twice and each run it holds whole (its 3 results),
# and a run the spool calls pushed is on the server. Then one push more,
# not killed, must leave nothing waiting and every run on the server
# exactly once.
# Prints "kill-push: T trials, L landed, D damaged, K doubled" and exits 1
# when D or K is not 0; 2 when there is no server to start.
#
# UKBENCH names the binary (default build/ukbench).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${UKBENCH:=$top/build/ukbench}"
. "$top/tests/faults/lib.sh"
faults_args kill-push.sh 40 "$@"
command -v sqlite3 >/dev/null || { echo "kill-push.sh: needs sqlite3" >&2; exit 2; }

. "$top/tests/fleet/pg.sh"
faults_cleanup() { pg_stop; }
faults_work kill-push
pg_bindir >/dev/null || { echo "kill-push.sh: no PostgreSQL server (postgresql-15)" >&2; exit 2; }
PG_NOSYNC=1 pg_start >pg.log 2>&1 || { cat pg.log >&2; exit 2; }
pg_psql "CREATE ROLE ukb_push LOGIN" >/dev/null
"$UKBENCH" fleet-init --db "$(pg_uri)" --writer ukb_push >/dev/null || exit 2
W=$(pg_uri ukb_push)
q() { PGDB=ukb pg_psql "$1"; }

# the spool of 5 runs, made while the server is down, kept as base.db
"$UKBENCH" run -q -b 0.02 --warmup 0.01 -r 2 --no-store -j t.json time.time >/dev/null 2>&1 ||
	{ echo "kill-push.sh: could not make a run" >&2; exit 1; }
pg_halt
for k in 1 2 3 4 5; do
	jq --arg t "2026-01-0${k}T00:00:00Z" "del(.uuid) | .started = \$t" t.json >r$k.json
done
UKBENCH_SPOOL=$work/base.db "$UKBENCH" import --db "$W" --label kp r1.json r2.json r3.json r4.json \
	r5.json >/dev/null 2>&1
pg_resume || exit 2
[ "$(sqlite3 base.db "SELECT count(*) FROM pending")" = 5 ] ||
	{ echo "kill-push.sh: the spool does not hold 5 runs waiting" >&2; exit 1; }

# a push, uninterrupted, of the whole spool: its life in ms
cp base.db s.db
t0=$(date +%s%N)
UKBENCH_SPOOL=$work/s.db "$UKBENCH" push >/dev/null 2>&1
life=$((($(date +%s%N) - t0) / 1000000))
[ "$life" -gt 0 ] || life=1
q "DELETE FROM results; DELETE FROM runs" >/dev/null

# why the spool or the server is not right after a kill, or nothing
check() {
	ic=$(sqlite3 s.db "PRAGMA integrity_check" 2>&1)
	[ "$ic" = ok ] || { echo "the spool's integrity_check: $ic"; return; }
	n=$(sqlite3 s.db "SELECT count(*) FROM runs")
	[ "$n" = 5 ] || { echo "the spool holds $n runs, not 5"; return; }
	d=$(q "SELECT count(*) FROM (SELECT uuid FROM runs GROUP BY uuid HAVING count(*) > 1) x")
	[ "$d" = 0 ] || { echo "DOUBLED: $d runs twice on the server"; return; }
	p=$(q "SELECT count(*) FROM runs r WHERE (SELECT count(*) FROM results x
		WHERE x.run_uuid = r.uuid) <> 3")
	[ "$p" = 0 ] || { echo "$p runs on the server without their 3 results"; return; }
	for u in $(sqlite3 s.db "SELECT r.uuid FROM pushed p JOIN runs r ON r.id = p.run_id"); do
		[ "$(q "SELECT count(*) FROM runs WHERE uuid = '$u'")" = 1 ] ||
			{ echo "run $u is called pushed and is not on the server"; return; }
	done
}

k=0 landed=0 bad=0 doubled=0
while [ "$k" -lt "$trials" ]; do
	kill_moment "$k" "$life"
	cp base.db s.db
	q "DELETE FROM results; DELETE FROM runs" >/dev/null
	UKBENCH_SPOOL=$work/s.db setsid "$UKBENCH" push >/dev/null 2>&1 &
	pid=$!
	kill_at "$at" "$pid"
	why=$(check)
	# then a push to the end: every run there, once
	if [ -z "$why" ]; then
		UKBENCH_SPOOL=$work/s.db "$UKBENCH" push >/dev/null 2>push.err ||
			why="the push after the kill failed: $(head -1 push.err)"
	fi
	if [ -z "$why" ]; then
		w=$(sqlite3 s.db "SELECT count(*) FROM pending")
		on=$(q "SELECT count(*) FROM runs")
		distinct=$(q "SELECT count(DISTINCT uuid) FROM runs")
		[ "$w" = 0 ] && [ "$on" = 5 ] && [ "$distinct" = 5 ] ||
			why="after one more push: $w waiting, $on on the server ($distinct distinct)"
	fi
	if [ -n "$why" ]; then
		case $why in DOUBLED*) doubled=$((doubled + 1)) ;; *) bad=$((bad + 1)) ;; esac
		echo "not ok - push killed at $at ms: $why"
	fi
	k=$((k + 1))
done
printf "%-10s %7s %7s %7s %8s %8s\n" command ms trials landed damaged doubled
printf "%-10s %7s %7s %7s %8s %8s\n" push "$life" "$trials" "$landed" "$bad" "$doubled"
echo "kill-push: $trials trials, $landed landed, $bad damaged, $doubled doubled"
[ "$bad" = 0 ] && [ "$doubled" = 0 ]
