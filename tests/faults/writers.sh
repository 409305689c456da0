#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# writers.sh [-p] [-w WRITERS] [-n RUNS] [-r READERS] - many processes at
# one store at once.
#
# WRITERS processes (default 8) each make RUNS runs (default 50) into one
# store, in turn a short `run` of two paths, an `exec` and an `import` of a
# run file of its own, while READERS processes (default 2) read the store
# in a loop (history, runs, report -f markdown) until the writers are done.
# Then: every command exited 0, none said "locked" or "busy", the store
# holds each writer's runs once (none lost, none doubled, by label and by
# uuid), and passes PRAGMA integrity_check.
# Prints a row a writer and "writers: C commands, F failed, L lost,
# D doubled, integrity ok"; exits 1 unless all are 0 and the check is ok.
#
# -p: the store is a PostgreSQL server of the script's own (tests/fleet/
# pg.sh), written as a fleet's board writes it: every writer saves into one
# spool (UKBENCH_SPOOL) and pushes from it, and a `push` of the whole spool
# runs beside them in a loop; the readers read the server as its reader
# role. Then the server holds each writer's runs once, each with all its
# results, the spool has nothing waiting and passes integrity_check. Exits
# 2 when there is no server to start.
#
# UKBENCH names the binary (default build/ukbench).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${UKBENCH:=$top/build/ukbench}"
writers=8 runs=50 readers=2 pg=
while getopts pw:n:r: o; do
	case $o in
	p) pg=1 ;;
	w) writers=$OPTARG ;;
	n) runs=$OPTARG ;;
	r) readers=$OPTARG ;;
	*) echo "usage: writers.sh [-p] [-w WRITERS] [-n RUNS] [-r READERS]" >&2; exit 2 ;;
	esac
done
command -v sqlite3 >/dev/null || { echo "writers.sh: needs sqlite3" >&2; exit 2; }

# the readers and writers still running go first, then the server
faults_cleanup() {
	kill $(jobs -p) 2>/dev/null
	wait
	[ -n "$pg" ] && pg_stop
}
. "$top/tests/faults/lib.sh"
[ -n "$pg" ] && . "$top/tests/fleet/pg.sh"
faults_work writers
db=$work/s.db read=$db
tiny="-q -b 0.02 --warmup 0.01 -r 1"
if [ -n "$pg" ]; then
	pg_bindir >/dev/null || { echo "writers.sh: no PostgreSQL server (postgresql-15)" >&2; exit 2; }
	PG_NOSYNC=1 pg_start >pg.log 2>&1 || { cat pg.log >&2; exit 2; }
	pg_psql "CREATE ROLE ukb_push LOGIN; CREATE ROLE ukb_read LOGIN" >/dev/null
	"$UKBENCH" fleet-init --db "$(pg_uri)" --writer ukb_push --reader ukb_read >/dev/null || exit 2
	db=$(pg_uri ukb_push) read=$(pg_uri ukb_read)
	export UKBENCH_SPOOL="$work/spool.db"
fi
# a count from the store the writers wrote
count() {
	if [ -n "$pg" ]; then
		PGDB=ukb pg_psql "$1"
	else
		sqlite3 "$db" "$1"
	fi
}

# one run file; each import gets a copy with its own uuid
"$UKBENCH" run $tiny --no-store -j one.json time.time/vdso >/dev/null 2>&1 ||
	{ echo "writers.sh: could not make a run file" >&2; exit 1; }
# the store exists before the crowd arrives, as a user's would
"$UKBENCH" run $tiny --db "$db" -l seed time.time/vdso >/dev/null 2>&1 ||
	{ echo "writers.sh: could not make the store" >&2; exit 1; }

writer() {
	w=$1
	i=0
	while [ "$i" -lt "$runs" ]; do
		case $((i % 3)) in
		0) set -- run $tiny --db "$db" -l "w$w" time.time/vdso syscall.null/syscall ;;
		1) set -- exec -q -r 2 --warmup-runs 0 --db "$db" -l "w$w" -- true ;;
		2)
			# a run of its own: its own uuid and start, which the store keys on
			u=$(printf "%08x-0000-4000-8000-%012x" "$w" "$i")
			t=$(printf "2026-01-%02dT%02d:%02d:00Z" $((w % 28 + 1)) $((i / 60 % 24)) $((i % 60)))
			sed "s/\"uuid\": *\"[^\"]*\"/\"uuid\": \"$u\"/
				s/\"started\": *\"[^\"]*\"/\"started\": \"$t\"/
				" one.json >"w$w.$i.json"
			set -- import --db "$db" -l "w$w" "w$w.$i.json"
			;;
		esac
		if ! "$UKBENCH" "$@" >"w$w.out" 2>"w$w.err"; then
			echo "fail w$w $i: $* : $(head -1 "w$w.err")" >>failures
		elif grep -qi "locked\|busy" "w$w.err"; then
			echo "fail w$w $i: $* said: $(grep -i "locked\|busy" "w$w.err" | head -1)" >>failures
		fi
		echo "$w" >>commands
		i=$((i + 1))
	done
}

reader() {
	while [ ! -e done ]; do
		for c in "history time.time/vdso" "runs" "report -f markdown -o - seed w1"; do
			# the labels may not exist yet: only a crash or a lock is a failure
			"$UKBENCH" $c --db "$read" >/dev/null 2>"r$1.err"
			rc=$?
			if [ "$rc" -gt 2 ] || grep -qi "locked\|busy" "r$1.err"; then
				echo "fail reader $1: $c: exit $rc: $(head -1 "r$1.err")" >>failures
			fi
			echo r >>reads
		done
	done
}

# a push of the whole spool in a loop, as a user's `ukbench push` beside
# the boards' runs: it and the runs' own pushes send the same runs
pusher() {
	while [ ! -e done ]; do
		if ! "$UKBENCH" push >/dev/null 2>push.err; then
			echo "fail push: $(head -1 push.err)" >>failures
		elif grep -qi "locked\|busy" push.err; then
			echo "fail push said: $(grep -i "locked\|busy" push.err | head -1)" >>failures
		fi
		echo p >>pushes
	done
}

start=$(date +%s)
[ -n "$pg" ] && pusher &
k=1
while [ "$k" -le "$readers" ]; do
	reader "$k" &
	k=$((k + 1))
done
pids=""
w=1
while [ "$w" -le "$writers" ]; do
	writer "$w" &
	pids="$pids $!"
	w=$((w + 1))
done
wait $pids
touch done
wait
secs=$(($(date +%s) - start))

touch failures pushes
failed=$(wc -l <failures)
[ -s failures ] && sed 's/^/not ok - /' failures | head -20
commands=$(wc -l <commands)
lost=0 doubled=0
printf "%-8s %8s %8s\n" writer expected stored
w=1
while [ "$w" -le "$writers" ]; do
	n=$(count "SELECT count(*) FROM runs WHERE label = 'w$w'")
	printf "%-8s %8s %8s\n" "w$w" "$runs" "$n"
	[ "$n" -lt "$runs" ] && lost=$((lost + runs - n))
	[ "$n" -gt "$runs" ] && doubled=$((doubled + n - runs))
	w=$((w + 1))
done
dup=$(count "SELECT count(*) - count(DISTINCT uuid) FROM runs")
doubled=$((doubled + dup))
if [ -n "$pg" ]; then
	ic=$(sqlite3 "$UKBENCH_SPOOL" "PRAGMA integrity_check")
	waiting=$(sqlite3 "$UKBENCH_SPOOL" "SELECT count(*) FROM pending")
	[ "$waiting" = 0 ] || { echo "not ok - $waiting runs still wait in the spool"; failed=$((failed + 1)); }
	# a run on the server without all its results is half a run
	half=$(count "SELECT count(*) FROM runs r WHERE (SELECT count(*) FROM results x
		WHERE x.run_uuid = r.uuid) = 0")
	[ "$half" = 0 ] || { echo "not ok - $half runs on the server without results"; failed=$((failed + 1)); }
else
	ic=$(sqlite3 "$db" "PRAGMA integrity_check")
fi
echo "writers: $commands commands by $writers writers, $(wc -l <reads) reads by $readers readers${pg:+, $(wc -l <pushes) pushes of the spool} in $secs s"
echo "writers: $commands commands, $failed failed, $lost lost, $doubled doubled, integrity $ic"
[ "$failed" = 0 ] && [ "$lost" = 0 ] && [ "$doubled" = 0 ] && [ "$ic" = ok ]
