#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad values and combinations a hostile user tries: each is refused with a
# clear error and exit 2, or works; nothing crashes (the sanitizer build
# runs these too).
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.02 --warmup 0.002 --min-samples 3 --batch 200"

test_expect_success '--processes with --counters: every process counted, nothing freed twice' '
	ukbench run $tiny --processes 2 --counters --no-store --json r.json time.time >out &&
	jq -e "$JQ_DEFS all(.results[]; procs(2) and (.counters | length) > 0)" r.json &&
	jq -e "all(.results[].counters[] | select(.status == \"ok\"); (.per_sample | length) > 0)" r.json
'

test_expect_success 'compare --all: a path only an older run of the label has is pooled whole' '
	ukbench run $tiny --counters --db a.db -l L time.time syscall.null >/dev/null &&
	ukbench run $tiny --counters --db a.db -l L time.time >/dev/null &&
	ukbench run $tiny --db a.db -l B time.time syscall.null >/dev/null &&
	ukbench compare --db a.db --all L B >out &&
	grep -q "^syscall.null  *syscall " out &&
	grep -q "(2 runs pooled)" out
'

test_expect_success 'numbers: no hex, no blanks, no trailing units; long values cut in the message' '
	for v in 0x10 " 1" "1 " 1s inf nan ""; do
		test_expect_code 2 ukbench run --no-store -b "$v" time.time 2>err &&
		grep -q "option .--budget. expects a number" err || return 1
	done &&
	long=$(printf "%01000d" 7) &&
	test_expect_code 2 ukbench run --no-store --min-samples "x$long" time.time 2>err &&
	test "$(wc -c <err)" -lt 200
'

test_expect_success 'empty values: --db, --events, exec -e are refused' '
	test_expect_code 2 ukbench runs --db "" 2>err &&
	grep -q "needs a path, got an empty one" err &&
	test_expect_code 2 ukbench run --no-store -e "" time.time 2>err &&
	grep -q "needs a list of events" err &&
	test_expect_code 2 ukbench exec --no-store -e "" -- true 2>err &&
	grep -q "needs a list of events" err
'

test_expect_success 'UKBENCH_VDSO_HIDE: an unknown name is an error that lists the known ones' '
	test_expect_code 2 env UKBENCH_VDSO_HIDE=all "$UKBENCH" list time.time 2>err &&
	grep -q "UKBENCH_VDSO_HIDE: .all. is not a vDSO function" err &&
	grep -q "known: .*clock_gettime.*getrandom" err &&
	UKBENCH_VDSO_HIDE=time ukbench list time.time >out &&
	grep -q "simulated: UKBENCH_VDSO_HIDE" out
'

test_expect_success 'a new database is readable by its owner only' '
	ukbench run $tiny --processes 1 --db new.db time.time >/dev/null &&
	test "$(stat -c %a new.db)" = 600
'

# The session's leader is ukbench; "kill -- -SID" is what a terminal's
# hangup or a job control TERM sends to the whole group.
test_expect_success 'SIGTERM to the group while hackbench tasks start: exit 143, none left' '
	for i in 1 2; do
		test_in_session sid$i "$UKBENCH" run --no-store -b 3 -P groups=10 \
			sched.messaging.socket_process sched.messaging.pipe_process >out 2>err &
		pid=$!
		sid=$(test_session_id sid$i)
		test_session_reaches $sid 2 10 || return 1
		kill -s TERM -- -$sid
		wait $pid; rc=$?
		echo "trial $i: exit $rc" &&
		test "$rc" = 143 &&
		grep -q "interrupted by signal 15" err &&
		test_session_empty $sid 5 || return 1
	done
'

test_expect_success 'SIGINT early in hackbench: exit 130 with the message, in any runner' '
	for runs in 1 5; do
		"$UKBENCH" run --processes $runs --no-store -b 3 -P groups=10 sched.messaging.pipe_process >out 2>err &
		pid=$!
		test_wait_child $pid || return 1
		kill -INT $pid
		wait $pid; rc=$?
		echo "--processes $runs: exit $rc" &&
		test "$rc" = 130 &&
		grep -q "interrupted by signal 2" err || return 1
	done
'

test_expect_success 'SIGHUP: exit 129, the JSON in place and marked, no temporary file' '
	"$UKBENCH" run --no-store --json h.json -b 30 --precision 0.001 time >out 2>err &
	pid=$!
	test_wait_file h.json.tmp.$pid &&
	kill -HUP $pid
	wait $pid; rc=$?
	{ test "$rc" = 129 || { echo "run: exit $rc"; cat err; false; }; } &&
	grep -q "interrupted by signal 1" err &&
	jq -e ".interrupted == true" h.json &&
	{ test "$(ls | grep -c "h.json.tmp")" = 0 || { echo "run: left"; ls; false; }; } ||
		return 1
	# (the list ends above: "&" puts exec alone in the background, so that
	# the signal goes to it, not to a shell running the checks before it)
	"$UKBENCH" exec --no-store -r 3 -- sleep 5 >out 2>err &
	pid=$!
	test_wait_child_named $pid sleep &&
	kill -HUP $pid
	wait $pid; rc=$?
	test "$rc" = 129 || { echo "exec: exit $rc"; cat err; false; }
'

# Every command that runs for a while, every signal that stops one, sent
# to the whole process group: 128 + N with the message, no process of the
# session left, no temporary file, the store as it was.
test_expect_success 'INT, TERM and HUP the same way in run, exec, check and calibrate' '
	ukbench run $tiny --processes 1 --db m.db time.time >/dev/null &&
	before=$(sqlite3 m.db "SELECT (SELECT count(*) FROM runs) || \" \" || (SELECT count(*) FROM calibrations)") &&
	for c in "run --db m.db -b 30 time" "exec --db m.db -r 3 -- sleep 5" \
		"check --duration 30" "calibrate --db m.db --rounds 50"; do
		for sig in INT:2 TERM:15 HUP:1; do
			rm -f sidfile err
			test_in_session sidfile "$UKBENCH" $c >out 2>err &
			pid=$!
			sid=$(test_session_id sidfile)
			# check measures in its own process: only its start to wait for
			case $c in
			check*) sleep 0.6 ;;
			*) test_session_reaches $sid 2 10 || return 1 ;;
			esac
			kill -s ${sig%:*} -- -$sid
			wait $pid; rc=$?
			echo "$c, SIG${sig%:*}: exit $rc: $(cat err)" &&
			test "$rc" = $((128 + ${sig#*:})) &&
			grep -q "interrupted by signal ${sig#*:}" err &&
			test_session_empty $sid 5 &&
			test "$(ls -a | grep -c "\.tmp\.")" = 0 &&
			test "$(sqlite3 m.db "SELECT (SELECT count(*) FROM runs) || \" \" || (SELECT count(*) FROM calibrations)")" = "$before" &&
			test "$(sqlite3 m.db "PRAGMA integrity_check")" = ok || return 1
		done
	done
'

test_expect_success 'standard output that cannot be written: exit 1, said why' '
	ukbench run $tiny --processes 1 --db d.db time.time >/dev/null &&
	for c in "runs --db d.db" "show --db d.db 1" "list time.time" "env"; do
		test_expect_code 1 "$UKBENCH" $c >/dev/full 2>err &&
		grep -q "cannot write to standard output: No space left on device" err || return 1
	done
'

test_expect_success '-q: a failed path still says why, on stderr' '
	printf "short\n" >short &&
	test_expect_code 1 env UKBENCH_ZERO_DEVICE=short "$UKBENCH" run -q --no-store $tiny \
		--size 1k copy.read_zero >out 2>err &&
	test ! -s out &&
	grep -q "^error: copy.read_zero.1k/read failed: read short" err
'

test_expect_success 'import of a device that never ends stops, bounded, with a message' '
	test_expect_code 2 timeout 60 "$UKBENCH" import --db i.db /dev/zero 2>err &&
	grep -q "larger than 256 MiB: not a ukbench result" err &&
	test "$(sqlite3 i.db "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" = 0
'

test_expect_success '--json: a FIFO is written in place, a link followed, a device kept' '
	mkfifo ff &&
	{ cat ff >fifo.out & } &&
	ukbench run $tiny --processes 1 --no-store -q --json ff time.time &&
	wait &&
	test -p ff &&
	jq -e ".results | length == 3" fifo.out &&
	echo "{}" >real.json && chmod 640 real.json && ln -s real.json link.json &&
	ukbench run $tiny --processes 1 --no-store -q --json link.json time.time &&
	test -L link.json &&
	jq -e ".results | length == 3" real.json &&
	test "$(stat -c %a real.json)" = 640 &&
	ukbench exec --no-store -r 1 --json link.json -- true >/dev/null &&
	test -L link.json && jq -e ".results[0].name == \"exec.true\"" real.json &&
	ukbench run $tiny --processes 1 --no-store -q --json new.json time.time &&
	test "$(stat -c %a new.json)" = 600 &&
	test_expect_code 1 ukbench run $tiny --processes 1 --no-store -q --json /dev/full time.time 2>err &&
	grep -q "No space left on device" err &&
	test -c /dev/full
'

test_expect_success 'read-only commands make nothing: no file, no directory, an empty file stays empty' '
	: >empty.db && ln -s empty.db l.db &&
	ukbench runs --db l.db >out &&
	grep -q "no runs in l.db" out &&
	test -L l.db && test ! -s empty.db &&
	ukbench runs --db deep/a/b/q.db >out &&
	test ! -e deep &&
	# an empty store is an answer (exit 0) to runs and history alike
	ukbench history --db q.db >out &&
	grep -q "^(no results in q.db yet; .ukbench run. stores them)$" out &&
	ukbench history --db q.db -f json >out && test "$(cat out)" = "[]" &&
	test_expect_code 2 ukbench history --db q.db --host nosuch 2>err &&
	grep -q "no stored result matches the filter given" err &&
	test_expect_code 2 ukbench history --db q.db no.such.path 2>err &&
	ukbench run --db r.db $tiny --processes 1 -q -l a time.time/vdso &&
	test_expect_code 2 ukbench runs --db r.db --with-label nosuch >out 2>err &&
	grep -q "no run in r.db matches the filter" err && test ! -s out &&
	ukbench runs --db r.db --names --with-label nosuch >out && test ! -s out &&
	test_expect_code 2 ukbench history --db r.db --with-label nosuch 2>err &&
	grep -q "no stored result in r.db matches the filter" err &&
	test_expect_code 2 ukbench show --db q.db 1 2>err &&
	test_expect_code 2 ukbench compare --db q.db 1 2 2>err &&
	test ! -e q.db && test ! -e q.db-wal && test ! -e q.db-shm
'

test_expect_success 'a refused database gets no -wal or -shm beside it' '
	sqlite3 foreign.db "PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1);" >/dev/null &&
	cp foreign.db before &&
	test_expect_code 2 ukbench runs --db foreign.db 2>err &&
	grep -q "another application" err &&
	test_expect_code 2 ukbench run $tiny --db foreign.db time.time 2>err &&
	test ! -e foreign.db-wal && test ! -e foreign.db-shm &&
	cmp foreign.db before
'

test_expect_success 'a database in a directory its reader may not write is read' '
	id nobody >/dev/null &&
	mkdir ro &&
	ukbench run $tiny --processes 1 --db ro/w.db -l x time.time >/dev/null &&
	chmod 644 ro/w.db && chmod 555 ro && chmod 755 . "$TEST_ROOT" &&
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$UKBENCH" runs --db ro/w.db >out 2>err;
	rc=$?
	chmod 755 ro
	cat err
	test "$rc" = 0 && grep -q " x  " out
'

test_expect_success 'a descriptor limit too low for one group: what to raise it to, no negative count' '
	test_expect_code 2 sh -c "ulimit -n 8; exec \"$UKBENCH\" run --no-store sched.messaging.pipe_process" 2>err &&
	grep -q "the limit (RLIMIT_NOFILE, ulimit -n) is 8: raise it to at least 56" err &&
	test_expect_code 2 sh -c "ulimit -n 8; exec \"$UKBENCH\" run --no-store sched.messaging.pipe_thread" 2>err &&
	grep -q "raise it to at least" err &&
	! grep -q "=-\| -[0-9]" err
'

test_expect_success 'import: values no run can have are refused, nothing stored' '
	ukbench run $tiny --processes 1 --no-store -q --json g.json time.time &&
	for edit in ".started = \"yesterday\"" ".results[0].threads = -1" \
		".results[0].threads = 18446744073709551616" ".results[0].cpu = 9223372036854775807" \
		".results[0].errno = 1099511627776" ".settings.min_samples = -1"; do
		jq "$edit" g.json >b.json &&
		test_expect_code 2 ukbench import --db i.db b.json 2>err || { echo "$edit"; return 1; }
	done &&
	sed "s/\"duration_s\": [0-9.e-]*/\"duration_s\": NaN/" g.json >n.json &&
	test_expect_code 2 ukbench import --db i.db n.json 2>err &&
	grep -q "not JSON: invalid token near .NaN." err &&
	printf "%s" "$(jq -c ".label = \"LABEL\"" g.json)" | sed "s/LABEL/a\xffb/" >u.json &&
	test_expect_code 2 ukbench import --db i.db u.json 2>err &&
	grep -q "not JSON: a string that is not UTF-8 at line 1, column" err &&
	test ! -e i.db
'

test_done
