#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sweep.sh [SECONDS] [SEED] - the hostile-input matrix, randomised and
# bounded in time: every option of every command given a bad value
# (empty, negative, huge, NaN, hex, blanks, not a number, 4 KB of digits),
# and runs that get SIGINT, SIGTERM or SIGHUP at a random moment. Each case
# must end as promised: a bad value with exit 2 and an "error:" line; a
# signal with 128 + its number; never a crash (another signal, a sanitizer
# report); no process left in its session; nothing left in its TMPDIR.
# Besides: damaged copies of a store read by every read-only command (an
# error or a table, never a crash), runs whose strings carry terminal
# escapes (never printed raw), and sched.pipe's partner killed at a
# random moment (the run ends within seconds, saying so). report and
# import get their signals too.
# Prints a line per failed case, then "N cases, N failed".
# UKBENCH names the binary (default build/ukbench).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib.sh"
secs=${1:-20}
seed=${2:-$(date +%s)}
sweep_end=$(($(date +%s) + secs))
cases=0 failed=0

# rand N: R becomes a number in [0, N) (no subshell, so the seed moves on)
rand() {
	seed=$(((seed * 1103515245 + 12345) % 2147483648))
	R=$(((seed / 65536) % $1))
}

# pick ARGS...: P becomes one of them
pick() {
	rand $#
	shift "$R"
	P=$1
}

bad_values="'' -1 0x10 ' 1' 1e999 nan abc -- $(printf '9%.0s' $(seq 4096))"
# command:option for every option that takes a value
opts="run:--precision run:--budget run:--warmup run:--min-samples run:--max-samples
run:--batch run:--cpu run:--processes run:--abi run:--size run:--flags run:--threads run:--param
run:--events run:--format run:--baseline run:--fail-on-regression run:--db
exec:--repeat exec:--warmup-runs exec:--events exec:--timeout exec:--db exec:--cmd
compare:--threshold compare:--alpha compare:--fail-on-regression compare:--bisect
compare:--floor compare:--db history:--window history:--threshold history:--db
runs:--limit runs:--db show:--format show:--db import:--db check:--duration
calibrate:--rounds calibrate:--budget calibrate:--processes calibrate:--threshold
report:--output report:--format report:--gnuplot report:--threshold report:--alpha
report:--floor report:--window report:--db report:--since report:--until
runs:--since runs:--until history:--since history:--until push:--db push:--spool push:--format
fleet-init:--db fleet-init:--writer fleet-init:--reader fleet-prune:--db fleet-prune:--before
fleet-prune:--keep-labels list:--format env:--format
vdso:--file vdso:--dump vdso:--disasm"

fail() {
	failed=$((failed + 1))
	echo "not ok - $*"
	sed 's/^/#   /' "$dir/err" | head -5
}

one_bad_value() {
	pick $opts
	o=$P
	eval "pick $bad_values"
	v=$P
	cmd=${o%%:*}
	# what follows the option: a pattern, runs, or a command that exists
	case $cmd in
	exec) rest="-- true" ;;
	env | vdso) rest="" ;;
	*) rest="time.time a b" ;;
	esac
	(cd "$dir" && TMPDIR="$dir/tmp" "$UKBENCH" "$cmd" "${o#*:}" "$v" $rest >out 2>err)
	rc=$?
	# refused with a message (2; under --bisect 128, which stops 'git
	# bisect run' instead of blaming a commit), or a value that happens to
	# be valid (a database named "-1") run to its end (0, 1); never a crash
	[ "$rc" = 128 ] && [ "${o#*:}" = --bisect ] &&
		grep -q "stopping 'git bisect run' (exit 128)" "$dir/err" && rc=2
	if grep -q "Sanitizer\|runtime error" "$dir/err"; then
		fail "$cmd ${o#*:} '$(echo "$v" | cut -c1-20)': a sanitizer report"
	elif [ "$rc" -gt 2 ]; then
		fail "$cmd ${o#*:} '$(echo "$v" | cut -c1-20)': exit $rc"
	elif [ "$rc" = 2 ] && ! grep -q "^error: " "$dir/err"; then
		fail "$cmd ${o#*:} '$(echo "$v" | cut -c1-20)': exit 2 without an error line"
	elif [ "$(wc -c <"$dir/err")" -gt 4096 ]; then
		fail "$cmd ${o#*:} '$(echo "$v" | cut -c1-20)': a message of $(wc -c <"$dir/err") bytes"
	fi
}

# A store with two labelled runs, a run's JSON and a plotter that takes
# its time, made once; each case works on its own copy.
prepare() {
	p="$TEST_ROOT/prep"
	mkdir -p "$p"
	tiny="--budget 0.02 --warmup 0.002 --min-samples 3 --batch 200 --processes 2"
	"$UKBENCH" run $tiny --db "$p/s.db" -l a time.time syscall.null >/dev/null 2>&1 &&
		"$UKBENCH" run $tiny --db "$p/s.db" -l b time.time syscall.null >/dev/null 2>&1 &&
		"$UKBENCH" run $tiny --no-store -j "$p/r.json" time.time >/dev/null 2>&1 ||
		{ echo "sweep: cannot make the prepared store" >&2; exit 1; }
	printf '#!/bin/sh\nexec sleep 2\n' >"$p/slowplot"
	chmod +x "$p/slowplot"
}

# Flips a few random bytes of a copy of the store; a read-only command
# must answer with a table or an error, never a crash.
one_damaged() {
	cp "$TEST_ROOT/prep/s.db" "$dir/d.db"
	size=$(stat -c %s "$dir/d.db")
	rand 8
	for k in $(seq 0 "$R"); do
		rand "$size"
		printf "\\$(printf %o $((seed % 256)))" |
			dd of="$dir/d.db" bs=1 seek="$R" conv=notrunc 2>/dev/null
	done
	pick "runs" "show 1" "compare a b" "history" "history -w 2 time.time" \
		"report --no-plots -f markdown a b" "runs -f csv"
	what=$P
	(cd "$dir" && TMPDIR="$dir/tmp" "$UKBENCH" $what --db "$dir/d.db" >out 2>err)
	rc=$?
	if grep -q "Sanitizer\|runtime error" "$dir/err"; then
		fail "damaged store, $what: a sanitizer report"
	elif [ "$rc" -gt 2 ]; then
		fail "damaged store, $what: exit $rc"
	elif [ "$rc" != 0 ] && ! grep -q "^error: " "$dir/err"; then
		fail "damaged store, $what: exit $rc without an error line"
	fi
}

# A run whose label, host and kernel carry control characters, imported
# and read back: no ESC, BEL or CR reaches the output but the JSON's.
one_escape() {
	pick "$(printf '\033]0;owned\007')" "$(printf '\033[2J')" "$(printf 'a\rb')" \
		"$(printf 'x\ny')" "$(printf '\233c')"
	bad=$P
	jq --arg s "$bad" '.label = $s | .host = $s | .environment.kernel_release = $s' \
		"$TEST_ROOT/prep/r.json" >"$dir/e.json"
	(cd "$dir" && "$UKBENCH" import --db "$dir/e.db" e.json >/dev/null 2>err) || {
		fail "escapes: import refused it: $(head -1 "$dir/err")"
		return
	}
	pick "runs" "show 1" "history" "runs -f csv"
	what=$P
	(cd "$dir" && "$UKBENCH" $what --db "$dir/e.db" >out 2>err)
	if grep -q "Sanitizer\|runtime error" "$dir/err"; then
		fail "escapes, $what: a sanitizer report"
	elif LC_ALL=C grep -q "$(printf '[\033\007\r]')" "$dir/out" "$dir/err"; then
		fail "escapes, $what: a control character reached the terminal"
	fi
}

# sched.pipe's partner killed at a random moment: the run ends by itself.
one_partner() {
	(cd "$dir" && TMPDIR="$dir/tmp" test_in_session "$dir/sid" $UKBENCH run --no-store -b 3 \
		sched.pipe.process >out 2>err) &
	pid=$!
	sid=$(test_session_id "$dir/sid")
	rand 50
	sleep "0.$((R + 20))"
	partner=$(pgrep -s "$sid" -x ukbench | grep -vx "$sid" | head -1)
	[ -n "$partner" ] && kill -9 "$partner"
	n=0
	while kill -0 $pid 2>/dev/null && [ $n -lt 200 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	if kill -0 $pid 2>/dev/null; then
		fail "sched.pipe, partner $partner killed: still running after 10 s"
		kill -9 -- -"$sid" 2>/dev/null
	fi
	wait $pid
	rc=$?
	if grep -q "Sanitizer\|runtime error" "$dir/err"; then
		fail "sched.pipe, partner killed: a sanitizer report"
	elif [ "$rc" -gt 1 ]; then
		fail "sched.pipe, partner killed: exit $rc"
	fi
	test_session_empty "$sid" 10 2>/dev/null || fail "sched.pipe, partner killed: processes left"
}

one_signal() {
	pick INT TERM HUP
	sig=$P
	case $sig in INT) num=2 ;; TERM) num=15 ;; HUP) num=1 ;; esac
	pick "run --no-store -b 2 time.time syscall.null" \
		"run --no-store --processes 1 -b 2 time" \
		"run --no-store -b 2 -P groups=2,loops=200 sched.messaging.pipe_process" \
		"run --no-store -b 2 --json $dir/o.json time.time" \
		"exec --no-store -r 3 -- sleep 1" \
		"calibrate --no-store --rounds 2 --budget 0.2" \
		"report --db $TEST_ROOT/prep/s.db --gnuplot $TEST_ROOT/prep/slowplot -o $dir/r.html a b" \
		"import --db $dir/i.db $TEST_ROOT/prep/r.json"
	what=$P
	(cd "$dir" && TMPDIR="$dir/tmp" test_in_session "$dir/sid" $UKBENCH $what >out 2>err) &
	pid=$!
	sid=$(test_session_id "$dir/sid")
	rand 90
	sleep "0.$((R + 10))"
	kill -s "$sig" "$sid" 2>/dev/null
	wait $pid
	rc=$?
	if grep -q "Sanitizer\|runtime error" "$dir/err"; then
		fail "$what, SIG$sig: a sanitizer report"
	elif [ "$rc" != $((128 + num)) ] && [ "$rc" != 0 ]; then
		fail "$what, SIG$sig: exit $rc, not $((128 + num))"
	elif [ "$rc" = $((128 + num)) ] && ! grep -q "interrupted by signal $num" "$dir/err"; then
		fail "$what, SIG$sig: exit $rc without saying so"
	fi
	test_session_empty "$sid" 10 2>/dev/null || fail "$what, SIG$sig: processes left"
	[ -z "$(ls -A "$dir/tmp")" ] || fail "$what, SIG$sig: left in TMPDIR: $(ls "$dir/tmp")"
	[ -z "$(ls "$dir" | grep '\.tmp\.')" ] || fail "$what, SIG$sig: a temporary file left"
}

prepare
echo "# sweep: $secs s, seed $seed"
while [ "$(date +%s)" -lt "$sweep_end" ]; do
	cases=$((cases + 1))
	dir="$TEST_ROOT/$cases"
	mkdir -p "$dir/tmp"
	export XDG_DATA_HOME="$dir/data"
	rand 8
	case $R in
	0 | 1) one_signal ;;
	2) one_damaged ;;
	3) one_escape ;;
	4) one_partner ;;
	*) one_bad_value ;;
	esac
done
rm -rf "$TEST_ROOT"
echo "$cases cases, $failed failed"
[ "$failed" = 0 ]
