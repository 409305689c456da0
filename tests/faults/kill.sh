#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kill.sh [-n TRIALS] [-s SEED] - SIGKILL at any instant of a writing command.
#
# run, import, runs --delete and calibrate are each killed TRIALS times
# (default 40): half at a moment uniform over the whole of an uninterrupted
# one's life, half around its end, where the store's transaction is. After
# each kill the store must pass PRAGMA integrity_check, hold every run it
# held before (run, import, calibrate) or lose at most the one deleted,
# hold each new run whole (`show` reads it back, its digest checked), and
# answer `runs` and `history`.
# Prints a row a command (trials, kills that landed, whole, damaged) and
# "kill: T trials, D damaged"; exits 1 when D is not 0.
#
# UKBENCH names the binary (default build/ukbench); KILL_ONLY=NAME kills
# that command alone (run, import, runs --delete, calibrate).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${UKBENCH:=$top/build/ukbench}"
. "$top/tests/faults/lib.sh"
faults_args kill.sh 40 "$@"
command -v sqlite3 >/dev/null || { echo "kill.sh: needs sqlite3" >&2; exit 2; }

faults_work kill
tiny="-q -b 0.05 --warmup 0.01 -r 2"

for l in a b; do
	"$UKBENCH" run $tiny --db base.db -l $l time.time/vdso syscall.null/syscall >/dev/null 2>&1 ||
		{ echo "kill.sh: could not make the store" >&2; exit 1; }
done
"$UKBENCH" run $tiny --no-store -j new.json time.time/vdso >/dev/null 2>&1 ||
	{ echo "kill.sh: could not make a run file" >&2; exit 1; }
before=$(sqlite3 base.db "SELECT count(*) FROM runs")

# ms CMD...: how long the command takes, uninterrupted, in milliseconds
ms() {
	cp base.db t.db
	t0=$(date +%s%N)
	"$UKBENCH" "$@" --db t.db >/dev/null 2>&1
	echo $((($(date +%s%N) - t0) / 1000000))
}

# check LOW HIGH: why t.db is not whole with LOW..HIGH runs, or nothing
check() {
	ic=$(sqlite3 t.db "PRAGMA integrity_check" 2>&1)
	[ "$ic" = ok ] || { echo "integrity_check: $ic"; return; }
	n=$(sqlite3 t.db "SELECT count(*) FROM runs")
	[ "$n" -ge "$1" ] && [ "$n" -le "$2" ] || { echo "$n runs, expected $1 to $2"; return; }
	for id in $(sqlite3 t.db "SELECT id FROM runs"); do
		"$UKBENCH" show --db t.db "$id" >/dev/null 2>show.err ||
			{ echo "run #$id does not read back: $(head -1 show.err)"; return; }
	done
	"$UKBENCH" runs --db t.db >/dev/null 2>show.err ||
		{ echo "runs fails after the kill: $(head -1 show.err)"; return; }
	"$UKBENCH" history --db t.db time.time/vdso >/dev/null 2>show.err ||
		{ echo "history fails after the kill: $(head -1 show.err)"; return; }
}

total=0 damaged=0
printf "%-28s %7s %7s %7s %8s\n" command "ms" trials landed damaged

# sweep NAME LOW HIGH CMD...: kills of one command
sweep() {
	name=$1 low=$2 high=$3
	shift 3
	# KILL_ONLY=NAME: that command alone
	[ -n "${KILL_ONLY:-}" ] && [ "$name" != "$KILL_ONLY" ] && return
	life=$(ms "$@")
	[ "$life" -gt 0 ] || life=1
	k=0 landed=0 bad=0
	while [ "$k" -lt "$trials" ]; do
		kill_moment "$k" "$life"
		cp base.db t.db
		# a session of its own: the kill takes the command and its workers
		setsid "$UKBENCH" "$@" --db t.db >/dev/null 2>&1 &
		pid=$!
		kill_at "$at" "$pid"
		why=$(check "$low" "$high")
		if [ -n "$why" ]; then
			bad=$((bad + 1))
			kept=$(mktemp "${TMPDIR:-/tmp}/ukbench-kill-damaged.XXXXXX")
			cp t.db "$kept"
			echo "not ok - $name: killed at $at ms: $why (the store: $kept)"
		fi
		k=$((k + 1))
	done
	printf "%-28s %7s %7s %7s %8s\n" "$name" "$life" "$trials" "$landed" "$bad"
	total=$((total + trials)) damaged=$((damaged + bad))
}

sweep "run" "$before" $((before + 1)) run $tiny -l new time.time/vdso syscall.null/syscall
sweep "import" "$before" $((before + 1)) import new.json
sweep "runs --delete" $((before - 1)) "$before" runs --delete a
# a calibration stores its rounds, two runs each, unless the machine was busy
sweep "calibrate" "$before" $((before + 4)) calibrate --rounds 2 -b 0.05 -r 2

echo "kill: $total trials, $damaged damaged"
[ "$damaged" = 0 ]
