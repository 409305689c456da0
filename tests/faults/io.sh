#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# io.sh [-n TRIALS] - every write, sync, rename and close of a writing
# command fails in turn.
#
# run (into the store and a JSON file), import, runs --delete and a run
# into a fleet's spool (its server away, so the run waits there) are run
# under strace, which makes the Nth call of one system call (write,
# pwrite64, fsync, fdatasync, rename, close) fail with EIO, then ENOSPC;
# N swept over every call the command makes, or over TRIALS of them spread
# evenly. Each trial must end as promised:
#   - exit 0 only when the work is whole: the new run stored once and read
#     back, the JSON file complete;
#   - otherwise exit 1 with an "error:" line, never a signal or exit 2;
#   - the store passes PRAGMA integrity_check and holds every run it held;
#     a run the spool took on exit 0 waits there to be pushed.
# Prints a row a command and call (calls, trials, exits, bad) and
# "io: T trials, B bad"; exits 1 when B is not 0.
#
# UKBENCH names the binary (default build/ukbench).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${UKBENCH:=$top/build/ukbench}"
trials=0
while getopts n: o; do
	case $o in
	n) trials=$OPTARG ;;
	*) echo "usage: io.sh [-n TRIALS]" >&2; exit 2 ;;
	esac
done
for p in strace sqlite3 jq; do
	command -v $p >/dev/null || { echo "io.sh: needs $p" >&2; exit 2; }
done

. "$top/tests/faults/lib.sh"
faults_work io
# LeakSanitizer cannot run under ptrace: a sanitizer build checks the rest
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
tiny="-q -b 0.02 --warmup 0.01 -r 1"

for l in a b; do
	"$UKBENCH" run $tiny --db base.db -l $l time.time/vdso >/dev/null 2>&1 ||
		{ echo "io.sh: could not make the store" >&2; exit 1; }
done
"$UKBENCH" run $tiny --no-store -j new.json time.time/vdso >/dev/null 2>&1 ||
	{ echo "io.sh: could not make a run file" >&2; exit 1; }
before=$(sqlite3 base.db "SELECT count(*) FROM runs")

total=0 bad=0
printf "%-24s %-10s %6s %7s %6s %6s %6s %5s\n" command call calls trials exit0 exit1 other bad

# verdict CHANGE RC: why the trial broke a promise, or nothing
verdict() {
	if [ "$2" != 0 ] && [ "$2" != 1 ]; then
		echo "exit $2: $(grep -v '^$' err | head -1)"
		return
	fi
	if [ "$2" = 1 ] && ! grep -q "^error: " err; then
		echo "exit 1 without an error line"
		return
	fi
	ic=$(sqlite3 t.db "PRAGMA integrity_check" 2>&1)
	[ "$ic" = ok ] || { echo "integrity_check: $ic"; return; }
	n=$(sqlite3 t.db "SELECT count(*) FROM runs")
	want=$before
	[ "$2" = 0 ] && want=$((before + $1))
	# a failed command may have done its work all the same, never half
	if [ "$n" != "$want" ] && { [ "$2" = 0 ] || [ "$n" != $((before + $1)) ]; }; then
		echo "exit $2 and $n runs, expected $want"
		return
	fi
	if [ -n "${UKBENCH_SPOOL:-}" ] && [ "$2" = 0 ] &&
		[ "$(sqlite3 t.db "SELECT count(*) FROM pending")" != 1 ]; then
		echo "exit 0 and the run does not wait in the spool"
		return
	fi
	for id in $(sqlite3 t.db "SELECT id FROM runs"); do
		"$UKBENCH" show --db t.db "$id" >/dev/null 2>&1 ||
			{ echo "run #$id does not read back"; return; }
	done
	if [ "$2" = 0 ] && [ -n "$json" ] && ! jq -e '.results | length > 0' "$json" >/dev/null 2>&1; then
		echo "exit 0 and $json is not a whole run"
	fi
}

# sweep NAME CHANGE JSON CMD...: every call of each kind fails in turn
sweep() {
	name=$1 change=$2 json=$3
	shift 3
	cp base.db t.db
	rm -f "$json"
	strace -o calls.txt -e trace=openat,write,pwrite64,fsync,fdatasync,rename,close \
		"$UKBENCH" "$@" --db "$db" >/dev/null 2>&1
	for call in write pwrite64 fsync fdatasync rename close; do
		count=$(grep -c "^$call(" calls.txt)
		[ "$count" -gt 0 ] || continue
		# the dynamic loader's closes, up to the last library's, are not ours
		first=1
		[ "$call" = close ] && first=$(awk '/^openat\(.*\.so[.0-9]*"/ { so = 1 }
			/^close\(/ { c++; if (so) { last = c; so = 0 } } END { print last + 1 }' calls.txt)
		step=1
		[ "$trials" -gt 0 ] && [ "$trials" -lt "$count" ] && step=$((count / trials))
		n=0 e0=0 e1=0 eo=0 b=0
		at=$first
		while [ "$at" -le "$count" ]; do
			for errno in EIO ENOSPC; do
				cp base.db t.db
				rm -f "$json"
				strace -o /dev/null -e trace="$call" \
					-e inject="$call:error=$errno:when=$at" \
					"$UKBENCH" "$@" --db "$db" >out 2>err </dev/null
				rc=$?
				n=$((n + 1))
				case $rc in 0) e0=$((e0 + 1)) ;; 1) e1=$((e1 + 1)) ;; *) eo=$((eo + 1)) ;; esac
				why=$(verdict "$change" "$rc")
				if [ -n "$why" ]; then
					b=$((b + 1))
					echo "not ok - $name: $call #$at fails $errno: $why"
				fi
			done
			at=$((at + step))
		done
		printf "%-24s %-10s %6s %7s %6s %6s %6s %5s\n" "$name" "$call" "$count" "$n" "$e0" \
			"$e1" "$eo" "$b"
		total=$((total + n)) bad=$((bad + b))
	done
}

db=t.db
sweep "run -j FILE" 1 run.json run $tiny -l new -j run.json time.time/vdso
sweep "import" 1 "" import new.json
sweep "runs --delete a" -1 "" runs --delete a
# a fleet's server that is not there: the run is saved into the spool, t.db
db="postgresql:///ukb?host=$work/no-server&connect_timeout=2"
UKBENCH_SPOOL=$work/t.db
export UKBENCH_SPOOL
sweep "run into a spool" 1 "" run $tiny -l new time.time/vdso
unset UKBENCH_SPOOL

echo "io: $total trials, $bad bad"
[ "$bad" = 0 ]
