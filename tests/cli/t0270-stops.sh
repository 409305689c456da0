#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every command stops cleanly, reads with a bound and answers bad usage
# with exit 2: INT, TERM and HUP end the commands without handlers of
# their own (push, import, report, ...) with 128+N and a message, a
# killed writer's temporary file is removed by the next writer (a live
# one's never), a file-size limit is an error, a FIFO nobody writes to
# and a huge or endless file end, a history's windows cost the same at
# any width, and typos get a suggestion.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.02 --warmup 0.002 --min-samples 3 --batch 200"

# A server that takes the connection and never answers: libpq waits.
# It writes "accepted" to $1 once a client is in, and ends after 60 s.
silent_server() {
	/usr/bin/python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
open(sys.argv[1] + ".port", "w").write(str(s.getsockname()[1]))
s.settimeout(60)
conns = []
end = time.time() + 60
while time.time() < end:
    try:
        c, _ = s.accept()
    except socket.timeout:
        break
    conns.append(c)
    open(sys.argv[1], "a").write("accepted\n")
' "$1" >/dev/null 2>&1 &
	n=0
	while [ ! -s "$1.port" ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
	cat "$1.port"
}

wait_for_file() {
	n=0
	while [ ! -s "$1" ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n + 1)); done
	test -s "$1"
}

test_expect_success BINUTILS 'the binary exports none of its own names (libkrb5 has a profile_release)' '
	# a sanitizer build also exports its runtime'"'"'s own (__asan_...)
	nm -D --defined-only "$UKBENCH" | awk "{print \$3}" | grep -v "@" |
		grep -v "^__\(asan\|ubsan\|lsan\|sanitizer\)_" >own || true
	cat own &&
	test ! -s own
'

test_expect_success 'import and push: TERM, INT and HUP while the server does not answer' '
	port=$(silent_server acc) || return 1
	db="postgresql://127.0.0.1:$port/x"
	export UKBENCH_SPOOL="$PWD/spool.db"
	ukbench run $tiny --processes 1 --no-store -j r.json time.time >/dev/null || return 1
	"$UKBENCH" import --db "$db" r.json >out 2>err &
	pid=$!
	wait_for_file acc || return 1
	kill -TERM $pid
	wait $pid; rc=$?
	echo "import: exit $rc" &&
	test "$rc" = 143 &&
	grep -q "interrupted by signal 15 (SIGTERM)" err &&
	ukbench push --status --db "$db" --format json >st &&
	jq -e "length == 1" st || return 1
	for sig in INT:2 HUP:1; do
		: >acc
		"$UKBENCH" push --db "$db" >out 2>err &
		pid=$!
		wait_for_file acc || return 1
		kill -s ${sig%:*} $pid
		wait $pid; rc=$?
		echo "push, SIG${sig%:*}: exit $rc" &&
		test "$rc" = $((128 + ${sig#*:})) &&
		grep -q "interrupted by signal ${sig#*:}" err || return 1
	done
	ukbench push --status --db "$db" --format json >st &&
	jq -e "length == 1" st
'

test_expect_success 'report: TERM while its plots are drawn leaves no file' '
	ukbench run $tiny --processes 2 -l a time.time >/dev/null &&
	ukbench run $tiny --processes 2 -l b time.time >/dev/null &&
	printf "#!/bin/sh\necho started >\"%s/drawing\"\nexec sleep 60\n" "$PWD" >slowplot &&
	chmod +x slowplot || return 1
	"$UKBENCH" report --gnuplot ./slowplot -o r.html a b >out 2>err &
	pid=$! &&
	wait_for_file drawing &&
	kill -TERM $pid;
	wait $pid; rc=$?
	echo "report: exit $rc" &&
	test "$rc" = 143 &&
	grep -q "interrupted by signal 15 (SIGTERM)" err &&
	test ! -e r.html &&
	test "$(ls | grep -c "r.html.tmp")" = 0
'

test_expect_success 'a run killed outright: its temporary file goes with the next run, a live one stays' '
	"$UKBENCH" run --no-store -b 30 -j k.json time.time >out 2>err &
	pid=$! &&
	n=0 &&
	while ! ls | grep -q "^k.json.tmp.$pid\$" && [ $n -lt 400 ]; do sleep 0.05; n=$((n + 1)); done &&
	kill -KILL $pid;
	wait $pid;
	test -e k.json.tmp.$pid || return 1
	sleep 60 &
	live=$!
	: >k.json.tmp.$live &&
	ukbench run $tiny --processes 1 --no-store -j k.json time.time >/dev/null &&
	kill $live &&
	jq -e ".results | length > 0" k.json &&
	test ! -e k.json.tmp.$pid &&
	test -e k.json.tmp.$live
'

test_expect_success 'a file-size limit is an error (File too large), not a signal' '
	(ulimit -f 1 && "$UKBENCH" run $tiny --processes 1 --no-store -j big.json time.time >out 2>err);
	rc=$?
	echo "exit $rc" &&
	test "$rc" = 1 &&
	grep -q "big.json.*File too large" err &&
	test ! -e big.json &&
	test "$(ls | grep -c "big.json.tmp")" = 0
'

test_expect_success 'reads with a bound: a FIFO nobody writes to, a sparse file, /dev/zero' '
	mkfifo ff &&
	test_expect_code 2 ukbench import ff 2>err &&
	grep -q "nothing came from .ff. in 10 s" err &&
	truncate -s 1G sparse &&
	test_expect_code 2 ukbench import sparse 2>err &&
	grep -q "larger than 256 MiB" err &&
	test_expect_code 2 ukbench import /dev/zero 2>err &&
	grep -q "larger than 256 MiB" err &&
	test_expect_code 2 ukbench vdso --file sparse 2>err &&
	grep -q "larger than 16 MiB: not a vDSO" err &&
	test_expect_code 2 ukbench vdso --file /dev/zero 2>err &&
	grep -q "larger than 16 MiB: not a vDSO" err &&
	ukbench run $tiny --processes 1 --no-store -j r.json time.time >/dev/null &&
	cat r.json | ukbench import /dev/stdin >out &&
	grep -q "imported" out
'

test_expect_success 'bad usage is exit 2 with the option named: fleet-init, report -o, long values' '
	for uri in "postgresql://[::1" "postgres:" "postgresql://x/y?bogusparam=1" \
		"postgresql://u:pw@x/y" "postgresql://x/y?sslpassword=s"; do
		test_expect_code 2 ukbench fleet-init --db "$uri" 2>err || return 1
		! grep -q "pw\|=s\b" err || return 1
	done &&
	UKBENCH_DB="postgresql://[::1" test_expect_code 2 ukbench fleet-init 2>err &&
	grep -q "cannot be read" err &&
	test_expect_code 2 ukbench report -o "" a b 2>err &&
	grep -q "^error: --output needs a file name" err &&
	long=$(head -c 5000 /dev/zero | tr "\0" a) &&
	test_expect_code 2 ukbench runs --with-label "$long" 2>err &&
	grep -q "^error: --with-label: a value of 5000 bytes; an option.s value holds at most 4096" err
'

test_expect_success 'report to a closed standard output names the report, once' '
	ukbench run $tiny --processes 2 -l a time.time >/dev/null &&
	ukbench run $tiny --processes 2 -l b time.time >/dev/null &&
	test_expect_code 1 ukbench report --no-plots -f markdown a b >&- 2>err &&
	cat err &&
	test "$(wc -l <err)" = 1 &&
	grep -q "cannot write the report to standard output" err
'

test_expect_success TMPFS_MOUNT 'a full disk: the reason said, and a spool that cannot be made is not left empty' '
	mkdir full &&
	mount -t tmpfs -o size=1m tmpfs full || return 1
	ukbench run $tiny --processes 2 --db full/s.db -j r.json -l a time.time >/dev/null &&
	rm -f full/s.db-wal full/s.db-shm &&
	{ dd if=/dev/zero of=full/fill bs=4k 2>/dev/null; true; } &&
	ukbench runs --db full/s.db >out 2>err; rc=$?
	cat err
	UKBENCH_SPOOL=$PWD/full/spool.db ukbench import --db postgresql://127.0.0.1:1/x r.json \
		>out 2>err2; rc2=$?
	cat err2
	ls -la full
	spool_left=$(ls full | grep -c spool)
	umount full
	# a full disk is the machine failing, not the input refused: exit 1
	test "$rc" = 1 && grep -q "the file system of .*full/. is full" err &&
	test "$rc2" = 1 && grep -q "the file system of .*full/. is full" err2 &&
	test "$spool_left" = 0
'

test_expect_success 'did you mean: commands and options a few edits away' '
	test_expect_code 2 ukbench rnu 2>err &&
	grep -q "did you mean .run." err &&
	test_expect_code 2 ukbench comapre 2>err &&
	grep -q "did you mean .compare." err &&
	test_expect_code 2 ukbench run --precison 1 2>err &&
	grep -q "did you mean .--precision." err &&
	test_expect_code 2 ukbench runs --lable x 2>err &&
	grep -q "did you mean .--with-label." err &&
	test_expect_code 2 ukbench xyzzy 2>err &&
	! grep -q "did you mean" err
'

test_expect_success 'history: a window of 50 costs about what one of 60 does (one run, a ratio)' '
	ukbench run $tiny --processes 1 --no-store -j one.json time.time >/dev/null &&
	/usr/bin/python3 - <<-\PY &&
	import json, random, uuid
	run = json.load(open("one.json"))
	random.seed(7)
	for i in range(300):
	    r = json.loads(json.dumps(run))
	    r["uuid"] = str(uuid.uuid4())
	    r["started"] = "2026-01-01T%02d:%02d:00Z" % (i // 60, i % 60)
	    f = (1.1 if i >= 150 else 1.0) * (1 + random.gauss(0, 0.01))
	    for res in r["results"]:
	        for k in ("samples_ns", "cpu_samples_ns", "process_means_ns", "process_se_ns"):
	            if res.get(k) is not None:
	                res[k] = [s * f if s is not None else None for s in res[k]]
	    json.dump(r, open("h%03d.json" % i, "w"))
	PY
	ukbench import h*.json >/dev/null &&
	t0=$(date +%s%N) && ukbench history -w 60 time.time/vdso >w60 && t1=$(date +%s%N) &&
	ukbench history -w 50 time.time/vdso >w50 && t2=$(date +%s%N) &&
	echo "w60 $(( (t1 - t0) / 1000000 )) ms, w50 $(( (t2 - t1) / 1000000 )) ms" &&
	grep -q "change point" w50 &&
	test $(( t2 - t1 )) -lt $(( (t1 - t0) * 10 + 1000000000 ))
'

test_done
