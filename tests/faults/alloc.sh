#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# alloc.sh [-n TRIALS] [-s SEED] - every command fails an allocation.
#
# For each of run (one path), import, compare, history, report and show,
# the allocations the command makes are counted, then the command is run
# again and again with the Nth of them failing (tests/tools/failalloc.c,
# an LD_PRELOAD shim), N swept over all of them, or over TRIALS of them
# spread evenly from a random start. Each trial must end as promised:
#   - no crash: exit 0, 1 or 2, never a signal, never a glibc heap report
#     (MALLOC_CHECK_=3 makes those fatal);
#   - a failure says so: when the exit is not 0, stderr has an "error:" line,
#     and the exit is 1 (failed at its work), never 2 (the input refused);
#   - nothing damaged: the store passes PRAGMA integrity_check and holds
#     the runs it held, plus the new one whole when run or import said 0,
#     and nothing half-written when they did not.
# Prints a row a command (allocations, trials, exits, crashed, silent,
# damaged) and "alloc: T trials, C crashed, S silent, R refused, D damaged";
# exits 1 when any of the last four is not 0.
#
# UKBENCH names the binary (default build/ukbench), UKB_BUILD its build
# (for tests/failalloc.so); ALLOC_ONLY="compare show" sweeps those commands
# alone (by their first word), so that long sweeps can run side by side. glibc only; a sanitizer build has its own
# allocator, which the shim cannot replace: use the normal build.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${UKBENCH:=$top/build/ukbench}"
: "${UKB_BUILD:=$(dirname "$UKBENCH")}"
shim=$UKB_BUILD/tests/failalloc.so
. "$top/tests/faults/lib.sh"
faults_args alloc.sh 0 "$@"
for need in "$UKBENCH" "$shim"; do
	[ -e "$need" ] || { echo "alloc.sh: $need is not built" >&2; exit 2; }
done
command -v sqlite3 >/dev/null || { echo "alloc.sh: needs sqlite3" >&2; exit 2; }

faults_work alloc

# the store every trial starts from: two labels of three runs, two paths
tiny="-q -b 0.02 --warmup 0.01 -r 2"
for i in 1 2 3; do
	for l in w1 w2; do
		"$UKBENCH" run $tiny --db base.db -l $l time.time/vdso syscall.null/syscall \
			>/dev/null 2>&1 || { echo "alloc.sh: could not make the store" >&2; exit 1; }
	done
done
"$UKBENCH" run $tiny --no-store -j new.json time.time/vdso >/dev/null 2>&1 ||
	{ echo "alloc.sh: could not make a run file" >&2; exit 1; }
runs_before=$(sqlite3 base.db "SELECT count(*) FROM runs")

shimmed() {
	LD_PRELOAD=$shim MALLOC_CHECK_=3 MALLOC_PERTURB_=165 "$@"
}

total=0 crashed=0 silent=0 refused=0 damaged=0
printf "%-30s %11s %7s %6s %6s %6s %8s %7s %8s\n" command allocations trials "exit0" \
	"exit1" "exit2" crashed silent damaged

# sweep NAME WRITES ARGS...: the trials of one command
sweep() {
	name=$1 writes=$2
	shift 2
	if [ -n "${ALLOC_ONLY:-}" ]; then
		case " $ALLOC_ONLY " in *" ${name%% *} "*) ;; *) return ;; esac
	fi
	cp base.db t.db
	rm -f count.log
	UKB_FAIL_ALLOC_LOG=$work/count.log shimmed "$UKBENCH" "$@" --db t.db >/dev/null 2>&1
	allocs=$(sed -n 's/^allocations \([0-9]*\).*/\1/p' count.log 2>/dev/null | tail -1)
	[ -n "$allocs" ] && [ "$allocs" -gt 0 ] || { echo "not ok - $name: nothing counted"; crashed=$((crashed + 1)); return; }
	if [ "$trials" -gt 0 ] && [ "$trials" -lt "$allocs" ]; then
		step=$((allocs / trials))
		first=$((seed % step + 1))
	else
		step=1 first=1
	fi
	n=0 e0=0 e1=0 e2=0 c=0 s=0 d=0
	at=$first
	while [ "$at" -le "$allocs" ]; do
		[ "$writes" = 1 ] && cp base.db t.db
		UKB_FAIL_ALLOC=$at shimmed "$UKBENCH" "$@" --db t.db >out 2>err </dev/null
		rc=$?
		n=$((n + 1))
		case $rc in
		0) e0=$((e0 + 1)) ;;
		1) e1=$((e1 + 1)) ;;
		2)
			e2=$((e2 + 1))
			echo "not ok - $name: allocation $at: exit 2, as if the input were wrong: $(head -1 err)"
			;;
		*)
			c=$((c + 1))
			echo "not ok - $name: allocation $at: exit $rc: $(grep -v '^$' err | head -1)"
			;;
		esac
		if [ "$rc" != 0 ] && [ "$rc" -lt 128 ] && ! grep -q "^error: " err; then
			s=$((s + 1))
			echo "not ok - $name: allocation $at: exit $rc without an error line: $(head -1 err)"
		fi
		if [ "$writes" = 1 ] || [ "$at" -eq "$first" ]; then
			why=$(check_store "$rc" "$writes")
			if [ -n "$why" ]; then
				d=$((d + 1))
				echo "not ok - $name: allocation $at: $why"
			fi
		fi
		at=$((at + step))
	done
	printf "%-30s %11s %7s %6s %6s %6s %8s %7s %8s\n" "$name" "$allocs" "$n" "$e0" "$e1" "$e2" \
		"$c" "$s" "$d"
	total=$((total + n)) crashed=$((crashed + c)) silent=$((silent + s)) refused=$((refused + e2))
	damaged=$((damaged + d))
}

# check_store RC WRITES: why t.db is not as it must be, or nothing
check_store() {
	ic=$(sqlite3 t.db "PRAGMA integrity_check" 2>&1)
	[ "$ic" = ok ] || { echo "integrity_check: $ic"; return; }
	now=$(sqlite3 t.db "SELECT count(*) FROM runs")
	want=$runs_before
	[ "$2" = 1 ] && [ "$1" = 0 ] && want=$((runs_before + 1))
	# a run whose path failed (it could not allocate) is stored with the
	# failure, and exits 1: the new run whole, or none
	if [ "$now" != "$want" ] && ! { [ "$2" = 1 ] && [ "$1" = 1 ] &&
		[ "$now" = $((runs_before + 1)) ] && grep -q "^error: .* failed: " err; }; then
		echo "exit $1 and $now runs, expected $want"
		return
	fi
	# every run whole: each has its results, each result its samples
	part=$(sqlite3 t.db "SELECT count(*) FROM runs r WHERE NOT EXISTS
		(SELECT 1 FROM results s WHERE s.run_id = r.id)")
	[ "$part" = 0 ] || echo "$part runs without results"
}

sweep "run time.time/vdso" 1 run -q -b 0.02 --warmup 0.01 -r 1 -l new time.time/vdso
sweep "import" 1 import new.json
sweep "compare w1 w2" 0 compare w1 w2
sweep "history time.time/vdso" 0 history time.time/vdso
sweep "report -f markdown w1 w2" 0 report -f markdown -o - w1 w2
sweep "show w1" 0 show w1

echo "alloc: $total trials, $crashed crashed, $silent silent, $refused refused, $damaged damaged"
[ "$crashed" = 0 ] && [ "$silent" = 0 ] && [ "$refused" = 0 ] && [ "$damaged" = 0 ]
