#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A fleet on a real PostgreSQL server (Debian's postgresql, started here by
# tests/fleet/pg.sh on a private socket, stopped on every exit path): runs
# stored in the spool and pushed exactly once, through an unreachable
# server, 16 pushers at once and a server stopped mid-push; reads across
# hosts; a newer schema refused; least privilege of the writer and reader
# roles; credentials only from libpq's own places.
. "$(dirname "$0")/../lib.sh"
. "$(cd "$(dirname "$0")/.." && pwd)/fleet/pg.sh"

tiny="--budget 0.05 --warmup 0.002 --min-samples 3 --batch 200"
mkrun=$(cd "$(dirname "$0")/.." && pwd)/report/mkrun.py
validate=$(cd "$(dirname "$0")/.." && pwd)/schema/validate.py

prereq_POSTGRES() {
	if ! pg_bindir >/dev/null; then
		prereq_why="no PostgreSQL server (postgresql-15: initdb, pg_ctl)"
		return 1
	fi
	if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
		prereq_why="as root, the server needs the postgres user (made by postgresql-15)"
		return 1
	fi
	return 0
}

# a test that stopped the server and failed leaves it stopped: the next starts it
pg_up() { pg_running || pg_resume; }

# the number of rows of a query on the server, as the superuser
count() { PGDB=ukb pg_psql "$1"; }

trap 'pg_stop' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# started once for the file; a server that does not start fails the set-up
if pg_bindir >/dev/null && { [ "$(id -u)" != 0 ] || id postgres >/dev/null 2>&1; }; then
	PG_NOSYNC=1 pg_start >"$TEST_ROOT/pg-start.log" 2>&1 || PGDIR=
fi

test_expect_success POSTGRES 'set up: the server, the schema, a writer and a reader' '
	{ [ -n "$PGDIR" ] || { cat "$TEST_ROOT/pg-start.log"; false; }; } &&
	PGDB=ukb pg_psql "CREATE ROLE ukb_push LOGIN; CREATE ROLE ukb_read LOGIN;
		CREATE ROLE pwuser LOGIN PASSWORD '"'"'sekrit-pw'"'"'" &&
	ukbench fleet-init --db "$(pg_uri)" --writer ukb_push --reader ukb_read >out &&
	grep -q "fleet schema version 7 (made)" out &&
	grep -q "^granted ukb_push: INSERT on runs and results" out &&
	ukbench fleet-init --db "$(pg_uri)" --writer pwuser >out &&
	grep -q "fleet schema version 7 (already)" out &&
	ukbench run $tiny --no-store -j "$TEST_ROOT/t.json" time.time >/dev/null
'
W=$(pg_uri ukb_push 2>/dev/null)
R=$(pg_uri ukb_read 2>/dev/null)

test_expect_success POSTGRES 'run: stored in the spool, pushed; runs, show and history read the server' '
	pg_up &&
	export UKBENCH_SPOOL=$PWD/spool.db &&
	ukbench run $tiny --db "$W" -l first time.time >out &&
	grep -q "^stored as run #1 .first. in $PWD/spool.db\$" out &&
	grep -q "^pushed 1 run to $W\$" out &&
	u=$(sqlite3 spool.db "SELECT uuid FROM runs") &&
	test "$(count "SELECT uuid FROM runs WHERE label = '"'"'first'"'"'")" = "$u" &&
	test "$(count "SELECT count(*) FROM results WHERE run_uuid = '"'"'$u'"'"'")" = 3 &&
	ukbench runs --db "$R" -f json >runs.json &&
	jq -e "map(select(.label == \"first\")) | length == 1" runs.json &&
	id=$(jq -r "map(select(.label == \"first\"))[0].id" runs.json) &&
	ukbench show --db "$R" "$id" -f json >show.json &&
	test "$(jq -r .uuid show.json)" = "$u" &&
	test "$(jq "[.results[] | .batches // (.samples_ns | length)] | add" show.json)" = \
		"$(sqlite3 spool.db "SELECT count(*) FROM samples")" &&
	ukbench history --db "$R" time.time/vdso -f json | jq -e "length >= 1" &&
	# the server names a point as the run'"'"'s own KCIDB document does
	ukbench history --db "$R" --with-label first time.time/vdso -f kcidb >hk.json &&
	ukbench show --db "$R" "$id" -f kcidb >sk.json &&
	jq -e --slurpfile s sk.json ".tests | length == 1 and (.[0] as \$t | \$s[0].tests |
		any(.id == \$t.id and .build_id == \$t.build_id and .number == \$t.number))" hk.json &&
	ukbench push --status >st &&
	grep -q "^spool $PWD/spool.db: 0 runs waiting, 1 pushed\$" st
'

test_expect_success POSTGRES 'the server unreachable: the run waits; push sends it once' '
	pg_up &&
	export UKBENCH_SPOOL=$PWD/spool.db &&
	before=$(count "SELECT count(*) FROM runs") &&
	pg_halt &&
	ukbench run $tiny --db "$W" -l offline time.time >out 2>err &&
	grep -q "^warning: not pushed to $W: cannot reach" err &&
	grep -q "1 run waits in the spool $PWD/spool.db" err &&
	ukbench push --status >st &&
	grep -q "1 run waiting, 0 pushed" st &&
	grep -q "offline.*1 try: cannot reach" st &&
	test_expect_code 1 ukbench push >out 2>err &&
	grep -q "^error: 1 run not pushed: cannot reach" err &&
	pg_resume &&
	ukbench push >out &&
	grep -q "^pushed 1 run to its server\$" out &&
	test "$(count "SELECT count(*) FROM runs")" = $((before + 1)) &&
	ukbench push >out &&
	grep -q "^nothing waits in $PWD/spool.db\$" out &&
	test "$(count "SELECT count(*) FROM runs")" = $((before + 1))
'

test_expect_success POSTGRES 'import goes the same way; a run the server has is not stored twice' '
	pg_up &&
	"$mkrun" "$TEST_ROOT/t.json" i.json --spread 0.01 --seed 11 --label imported &&
	UKBENCH_SPOOL=$PWD/a.db ukbench import --db "$W" i.json >out &&
	grep -q "^pushed 1 run to" out &&
	before=$(count "SELECT count(*) FROM runs") &&
	UKBENCH_SPOOL=$PWD/b.db ukbench import --db "$W" i.json >out &&
	grep -q "^pushed 1 run to .* (the server had some already: not stored twice)\$" out &&
	test "$(count "SELECT count(*) FROM runs")" = "$before" &&
	test "$(count "SELECT count(*) FROM runs WHERE label = '"'"'imported'"'"'")" = 1
'

test_expect_success POSTGRES '16 pushers at once: no run lost, none doubled' '
	pg_up &&
	before=$(count "SELECT count(*) FROM runs") &&
	pg_halt &&
	for s in $(seq 1 16); do
		for k in 1 2 3 4 5; do
			"$mkrun" "$TEST_ROOT/t.json" r$s-$k.json --seed $((100 * s + k)) --spread 0.01 --label "p$s" || return 1
		done
		UKBENCH_SPOOL=$PWD/s$s.db ukbench import --db "$W" r$s-1.json r$s-2.json r$s-3.json \
			r$s-4.json r$s-5.json >/dev/null 2>&1 || return 1
	done &&
	pg_resume &&
	for s in $(seq 1 16); do
		UKBENCH_SPOOL=$PWD/s$s.db ukbench push >push$s.out 2>&1 &
	done &&
	for x in 1 2 3 4; do
		UKBENCH_SPOOL=$PWD/s1.db ukbench push >again$x.out 2>&1 &
	done &&
	wait &&
	test "$(count "SELECT count(*) FROM runs")" = $((before + 80)) &&
	test "$(count "SELECT count(DISTINCT uuid) FROM runs WHERE label LIKE '"'"'p%'"'"'")" = 80 &&
	test "$(count "SELECT count(*) FROM results r JOIN runs u ON u.uuid = r.run_uuid WHERE u.label LIKE '"'"'p%'"'"'")" = 240 &&
	for s in $(seq 1 16); do
		UKBENCH_SPOOL=$PWD/s$s.db ukbench push --status >st || return 1
		grep -q ": 0 runs waiting, 5 pushed" st || { cat st; return 1; }
	done
'

test_expect_success POSTGRES 'the server stopped in the middle of a push: nothing lost, nothing doubled' '
	pg_up &&
	export UKBENCH_SPOOL=$PWD/mid.db &&
	before=$(count "SELECT count(*) FROM runs") &&
	# each result row takes the server 20 ms: a push of 30 runs takes 2 s
	count "CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS
		\$\$BEGIN PERFORM pg_sleep(0.02); RETURN NEW; END\$\$;
		CREATE TRIGGER slow BEFORE INSERT ON results FOR EACH ROW EXECUTE FUNCTION slow()" &&
	pg_halt &&
	for k in $(seq 1 30); do
		"$mkrun" "$TEST_ROOT/t.json" m$k.json --seed $((5000 + k)) --spread 0.01 --label mid || return 1
	done &&
	ukbench import --db "$W" $(seq -f m%g.json 1 30) >/dev/null 2>&1 &&
	pg_resume &&
	{ ukbench push >push.out 2>&1 & } &&
	n=0 && while [ "$(count "SELECT count(*) FROM runs WHERE label = '"'"'mid'"'"'")" -lt 3 ] &&
		[ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done &&
	pg_halt &&
	{ wait $! ; true; } &&
	landed=$(sqlite3 mid.db "SELECT count(*) FROM pushed") &&
	waiting=$(sqlite3 mid.db "SELECT count(*) FROM pending") &&
	test "$landed" -ge 3 && test "$waiting" -ge 1 && test $((landed + waiting)) = 30 &&
	pg_resume &&
	count "DROP TRIGGER slow ON results; DROP FUNCTION slow()" &&
	ukbench push >out &&
	test "$(sqlite3 mid.db "SELECT count(*) FROM pending")" = 0 &&
	test "$(count "SELECT count(*) FROM runs WHERE label = '"'"'mid'"'"'")" = 30 &&
	test "$(count "SELECT count(DISTINCT uuid) FROM runs WHERE label = '"'"'mid'"'"'")" = 30 &&
	test "$(count "SELECT count(*) FROM results r JOIN runs u ON u.uuid = r.run_uuid WHERE u.label = '"'"'mid'"'"'")" = 90 &&
	test "$(count "SELECT count(*) FROM runs")" = $((before + 30))
'

# The server turns the writer away in the middle: its backend terminated
# inside the transaction, a statement timeout, the grant revoked. Each
# time the run stays in the spool, none of it on the server, until a
# push that the server takes; then it is there once.
test_expect_success POSTGRES 'a backend terminated, a statement timeout, a grant revoked: the run waits, then lands once' '
	pg_up &&
	export UKBENCH_SPOOL=$PWD/faults.db &&
	"$mkrun" "$TEST_ROOT/t.json" f.json --spread 0.01 --seed 31 --label faults &&
	on_server() { count "SELECT count(*) FROM runs WHERE label = '"'"'faults'"'"'"; } &&
	waiting() { sqlite3 faults.db "SELECT count(*) FROM pending"; } &&
	# each result row takes the server 2 s: the push is inside its transaction long enough
	count "CREATE FUNCTION slow2() RETURNS trigger LANGUAGE plpgsql AS
		\$\$BEGIN PERFORM pg_sleep(2); RETURN NEW; END\$\$;
		CREATE TRIGGER slow2 BEFORE INSERT ON results FOR EACH ROW EXECUTE FUNCTION slow2()" &&
	pg_halt &&
	ukbench import --db "$W" f.json >/dev/null 2>&1 &&
	test "$(waiting)" = 1 &&
	pg_resume &&
	{ ukbench push >push.out 2>&1 & } &&
	pid=$! &&
	n=0 && while [ "$(count "SELECT count(*) FROM pg_stat_activity WHERE usename = '"'"'ukb_push'"'"'
			AND state = '"'"'active'"'"'")" = 0 ] && [ $n -lt 1200 ]; do
		sleep 0.05; n=$((n + 1)); done &&
	test "$(count "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE usename = '"'"'ukb_push'"'"'")" -ge 1 &&
	{ wait $pid; rc=$?; } &&
	cat push.out &&
	test "$rc" = 1 &&
	grep -q "^error: 1 run not pushed: .*\(terminat\|closed the connection\)" push.out &&
	test "$(waiting)" = 1 && test "$(on_server)" = 0 &&
	count "ALTER ROLE ukb_push SET statement_timeout = '"'"'500ms'"'"'" &&
	test_expect_code 1 ukbench push >out 2>err &&
	grep -q "^error: 1 run not pushed: .*statement timeout" err &&
	count "ALTER ROLE ukb_push RESET statement_timeout" &&
	count "DROP TRIGGER slow2 ON results; DROP FUNCTION slow2()" &&
	test "$(waiting)" = 1 && test "$(on_server)" = 0 &&
	count "REVOKE INSERT ON results FROM ukb_push" &&
	test_expect_code 1 ukbench push >out 2>err &&
	grep -q "^error: 1 run not pushed: .*permission denied for table results" err &&
	test "$(waiting)" = 1 && test "$(on_server)" = 0 &&
	count "GRANT INSERT ON results TO ukb_push" &&
	ukbench push >out &&
	grep -q "^pushed 1 run to its server\$" out &&
	test "$(waiting)" = 0 && test "$(on_server)" = 1 &&
	test "$(count "SELECT count(*) FROM results r JOIN runs u ON u.uuid = r.run_uuid WHERE u.label = '"'"'faults'"'"'")" = 3
'

test_expect_success POSTGRES 'a schema newer than this ukbench: refused, the run kept in the spool' '
	pg_up &&
	export UKBENCH_SPOOL=$PWD/new.db &&
	v=$(count "SELECT version FROM ukbench_schema") &&
	count "UPDATE ukbench_schema SET version = 99" &&
	ukbench run $tiny --db "$W" -l newer time.time >out 2>err;
	count "UPDATE ukbench_schema SET version = $v" &&
	grep -q "has the fleet schema version 99, newer than the 7 this ukbench knows; upgrade ukbench" err &&
	grep -q "1 run waits in the spool" err &&
	test "$(count "SELECT count(*) FROM runs WHERE label = '"'"'newer'"'"'")" = 0 &&
	count "UPDATE ukbench_schema SET version = 99" &&
	test_expect_code 2 ukbench runs --db "$R" 2>err2;
	count "UPDATE ukbench_schema SET version = $v" &&
	grep -q "newer than the 7 this ukbench knows" err2 &&
	ukbench push >/dev/null &&
	test "$(count "SELECT count(*) FROM runs WHERE label = '"'"'newer'"'"'")" = 1
'

test_expect_success POSTGRES 'least privilege: the reader cannot write, the writer can only insert' '
	pg_up &&
	export UKBENCH_SPOOL=$PWD/ro.db &&
	"$mkrun" "$TEST_ROOT/t.json" ro.json --spread 0.01 --seed 12 --label by-reader &&
	ukbench import --db "$R" ro.json >out 2>err &&
	grep -q "^warning: not pushed to $R: .*permission denied for table runs" err &&
	test "$(count "SELECT count(*) FROM runs WHERE label = '"'"'by-reader'"'"'")" = 0 &&
	as() { "$PGBIN/psql" -X -q -h "$PGHOST" -p "$PGPORT" -U "$1" -d ukb -At -c "$2" 2>&1; } &&
	as ukb_push "DELETE FROM runs" | grep -q "permission denied for table runs" &&
	as ukb_push "UPDATE runs SET label = '"'"'x'"'"'" | grep -q "permission denied for table runs" &&
	as ukb_push "SELECT count(*) FROM runs" | grep -q "permission denied for table runs" &&
	as ukb_push "DROP TABLE results" | grep -q "must be owner of table results" &&
	as ukb_push "CREATE TABLE mine (x int)" | grep -q "permission denied for schema public" &&
	as ukb_read "DELETE FROM runs" | grep -q "permission denied for table runs" &&
	as ukb_read "INSERT INTO ukbench_schema VALUES (2)" | grep -q "permission denied" &&
	ukbench runs --db "$W" 2>err >/dev/null; grep -q "permission denied for table runs" err
'

test_expect_success POSTGRES 'credentials: a password or any secret in the URI is refused; libpq password file works' '
	pg_up &&
	export UKBENCH_SPOOL=$PWD/pw.db &&
	uri="postgresql://pwuser:sekrit-pw@/ukb?host=$PGHOST&port=$PGPORT" &&
	test_expect_code 2 ukbench runs --db "$uri" 2>err &&
	grep -q "a secret in the database URI (password) is refused.*~/.pgpass" err &&
	! grep -q sekrit err &&
	test_expect_code 2 ukbench run $tiny --db "$(pg_uri pwuser)&password=sekrit-pw" time.time 2>err &&
	grep -q "a secret in the database URI (password) is refused" err && ! grep -q sekrit err &&
	test_expect_code 2 ukbench run $tiny --db "$(pg_uri pwuser)&sslpassword=sekrit-pw" time.time 2>err &&
	grep -q "a secret in the database URI (sslpassword) is refused" err && ! grep -q sekrit err &&
	test ! -e pw.db &&
	test_expect_code 2 env PGPASSFILE=/dev/null "$UKBENCH" runs --db "$(pg_uri pwuser)" 2>err &&
	grep -q "cannot reach .*password" err &&
	printf "*:*:*:pwuser:sekrit-pw\n" >pgpass && chmod 600 pgpass &&
	PGPASSFILE=$PWD/pgpass ukbench run $tiny --db "$(pg_uri pwuser)" -l pw time.time >out 2>err &&
	grep -q "^pushed 1 run" out &&
	PGPASSFILE=$PWD/pgpass ukbench runs --db "$R" --with-label pw -f json | jq -e "length == 1" &&
	! sqlite3 pw.db .dump | grep -q sekrit &&
	! grep -q sekrit out err &&
	id=$(count "SELECT id FROM runs WHERE label = '"'"'pw'"'"'") &&
	ukbench show --db "$R" "$id" -f json >pw.json &&
	jq -e ".label == \"pw\"" pw.json >/dev/null &&
	! grep -q "sekrit\|postgresql:" pw.json
'

test_expect_success POSTGRES 'a service of pg_service.conf; TLS settings go to libpq as they are' '
	pg_up &&
	printf "[lab]\nhost=%s\nport=%s\ndbname=ukb\nuser=ukb_read\n" "$PGHOST" "$PGPORT" >services &&
	PGSERVICEFILE=$PWD/services ukbench runs --db postgres:lab -f json | jq -e "length >= 1" &&
	PGSERVICEFILE=$PWD/services UKBENCH_DB=postgres:lab ukbench runs --with-label first -f json |
		jq -e "length == 1" &&
	# (over a Unix socket libpq uses no TLS: a value it refuses shows it got it)
	test_expect_code 2 ukbench runs --db "$R&sslmode=bogus" 2>err &&
	grep -q "cannot reach .*invalid sslmode value: \"bogus\"" err
'

test_expect_success POSTGRES 'reads across the fleet: hosts, kernels, labels, dates; one host against another' '
	pg_up &&
	export UKBENCH_SPOOL=$PWD/hosts.db &&
	"$mkrun" "$TEST_ROOT/t.json" a1.json --host board-a --kernel 6.1.0 --label rc1 --started 2026-03-01T00:00:00Z --spread 0.01 --seed 21 &&
	"$mkrun" "$TEST_ROOT/t.json" a2.json --host board-a --kernel 6.2.0 --label rc2 --started 2026-03-02T00:00:00Z --scale 1.1 --spread 0.01 --seed 22 &&
	"$mkrun" "$TEST_ROOT/t.json" b1.json --host board-b --kernel 6.1.0 --label rc1 --started 2026-03-01T12:00:00Z --seed 7 --spread 0.01 &&
	"$mkrun" "$TEST_ROOT/t.json" b2.json --host board-b --kernel 6.2.0 --label rc2 --started 2026-03-02T12:00:00Z --seed 8 --scale 1.1 --spread 0.01 &&
	ukbench import --db "$W" a1.json a2.json b1.json b2.json >/dev/null &&
	ukbench runs --db "$R" --host board-a -f json | jq -e "length == 2 and all(.[]; .host == \"board-a\")" &&
	ukbench runs --db "$R" --kernel "6.2*" -f json | jq -e "length == 2 and all(.[]; .kernel_release == \"6.2.0\")" &&
	ukbench runs --db "$R" --since 2026-03-01T06:00:00Z --until 2026-03-02 -f json |
		jq -e "map(.label) | sort == [\"rc1\", \"rc2\", \"rc2\"]" &&
	ukbench runs --db "$R" --with-label rc1 -f json | jq -e "length == 2" &&
	a=$(ukbench runs --db "$R" --host board-a --with-label rc1 -f json | jq ".[0].id") &&
	b=$(ukbench runs --db "$R" --host board-b --with-label rc1 -f json | jq ".[0].id") &&
	ukbench compare --db "$R" "$a" "$b" >cmp &&
	grep -q "^base  *#$a .rc1.: 2026-03-01T00:00:00Z, board-a" cmp &&
	grep -q "^other  *#$b .rc1.: 2026-03-01T12:00:00Z, board-b" cmp &&
	grep -q "the runs are of two hosts" cmp &&
	ukbench compare --db "$R" --all rc1 rc2 -f json | jq -e "length == 3 and all(.[]; .change > 0.05)" &&
	ukbench history --db "$R" --host board-b time.time/vdso -f json | jq -e "length == 2 and all(.[]; .host == \"board-b\")" &&
	ukbench report --db "$R" --history --no-plots --kernel "6.*" -o h.html time.time/vdso &&
	grep -q "time.time/vdso on board-a" h.html && grep -q "time.time/vdso on board-b" h.html
'

test_expect_success POSTGRES 'the same runs in SQLite and on the server: the same floors, the same comparison' '
	pg_up &&
	export UKBENCH_SPOOL=$PWD/floors.db &&
	for i in 1 2 3 4 5 6 7 8; do
		"$mkrun" "$TEST_ROOT/t.json" f$i.json --host board-f --label f-x --procs 4 \
			--started 2026-04-0${i}T00:00:00Z --spread 0.02 --seed 6$i --scale 1.0$i || return 1
	done &&
	"$mkrun" "$TEST_ROOT/t.json" fb.json --host board-f --label f-before --procs 4 \
		--started 2026-04-10T00:00:00Z --spread 0.01 --seed 70 &&
	"$mkrun" "$TEST_ROOT/t.json" fa.json --host board-f --label f-after --procs 4 \
		--started 2026-04-11T00:00:00Z --spread 0.01 --seed 71 --scale 1.03 &&
	ukbench import --db "$W" f[0-9].json fb.json fa.json >/dev/null &&
	ukbench import --db local.db f[0-9].json fb.json fa.json >/dev/null &&
	ukbench compare --db local.db f-before f-after >lt &&
	ukbench compare --db "$R" f-before f-after >st &&
	grep -q "^floor: .* (learned from up to 8 runs of 1 label given again on this host)" lt &&
	grep "^floor:" lt >lf && grep "^floor:" st >sf && diff -u lf sf &&
	ukbench compare --db local.db f-before f-after -f json |
		jq -S "map(del(.base, .other))" >lj &&
	ukbench compare --db "$R" f-before f-after -f json |
		jq -S "map(del(.base, .other))" >sj &&
	jq -e "length > 0 and all(.[]; .floor > 0)" lj &&
	diff -u lj sj &&
	# a second host: a comparison across the two, history of both at once
	# (the server fetches the floor'"'"'s rows a host or a path at a time)
	for i in 1 2 3 4 5 6; do
		"$mkrun" "$TEST_ROOT/t.json" g$i.json --host board-g --label g-x --procs 4 \
			--started 2026-04-0${i}T12:00:00Z --spread 0.02 --seed 8$i --scale 1.1$i || return 1
	done &&
	"$mkrun" "$TEST_ROOT/t.json" ga.json --host board-g --label g-after --procs 4 \
		--started 2026-04-12T00:00:00Z --spread 0.01 --seed 90 --scale 1.05 &&
	ukbench import --db "$W" g[0-9].json ga.json >/dev/null &&
	ukbench import --db local.db g[0-9].json ga.json >/dev/null &&
	ukbench compare --db local.db f-before g-after -f json | jq -S "map(del(.base, .other))" >lj2 &&
	ukbench compare --db "$R" f-before g-after -f json | jq -S "map(del(.base, .other))" >sj2 &&
	jq -e "length > 0 and all(.[]; .floor > 0)" lj2 &&
	diff -u lj2 sj2 &&
	ukbench history --db local.db --with-label "[fg]-*" -f json >lh &&
	ukbench history --db "$R" --with-label "[fg]-*" -f json >sh &&
	jq -e "map(.host) | unique == [\"board-f\", \"board-g\"]" lh &&
	jq -S "map(del(.run))" lh >lh.s && jq -S "map(del(.run))" sh >sh.s &&
	diff -u lh.s sh.s
'

# vacuumed first: an autovacuum between the two reads would add its
# free-space and visibility maps to the tables' size
test_expect_success POSTGRES 'runs --size on the server: its tables'"'"' bytes, runs and results' '
	pg_up &&
	count "VACUUM runs, results" &&
	ukbench runs --db "$R" --size -f json >sz.json &&
	jq -e ".[0].bytes > 0 and .[0].samples == null and .[0].free_bytes == null" sz.json &&
	test "$(jq ".[0].runs" sz.json)" = "$(count "SELECT count(*) FROM runs")" &&
	test "$(jq ".[0].results" sz.json)" = "$(count "SELECT count(*) FROM results")" &&
	test "$(jq ".[0].bytes" sz.json)" = \
		"$(count "SELECT pg_total_relation_size('"'"'runs'"'"') + pg_total_relation_size('"'"'results'"'"')")" &&
	ukbench runs --db "$R" --size >out &&
	grep -q " in [0-9]* runs ([0-9.]* [KM]iB a run), [0-9]* results\$" out
'

test_expect_success POSTGRES 'the server keeps a summary, the spool the samples; --samples sends them' '
	pg_up &&
	export UKBENCH_SPOOL=$PWD/sum.db &&
	ukbench run $tiny --processes 3 --db "$W" -l summ time.time cpu.getcpu >/dev/null &&
	UKBENCH_PUSH_SAMPLES=1 ukbench run $tiny --processes 3 --db "$W" -l whole \
		time.time cpu.getcpu >/dev/null &&
	ukbench show --db "$R" summ -f json >sum.json &&
	ukbench show --db "$R" whole -f json >whole.json &&
	ukbench show --db sum.db summ -f json >local.json &&
	# a summary: no sample, every batch counted, the process means and figures kept
	jq -e "[.results[] | select(.status == \"ok\")] | length > 0 and
		all(.[]; has(\"samples_ns\") | not) and all(.[]; .batches >= 3) and
		all(.[]; .process_means_ns | length >= 2)" sum.json &&
	jq -e ".digest | test(\"^[0-9a-f]{16}\$\")" sum.json &&
	test "$(jq -r .digest sum.json)" = "$(sqlite3 sum.db "SELECT digest FROM runs WHERE label = '"'"'summ'"'"'")" &&
	test "$(jq "[.results[] | .batches // 0] | add" sum.json)" = \
		"$(sqlite3 sum.db "SELECT count(*) FROM samples s JOIN results r ON r.id = s.result_id
			JOIN runs u ON u.id = r.run_id WHERE u.label = '"'"'summ'"'"'")" &&
	jq -S "[.results[] | {name, path, process_means_ns, process_ref_ns, stats}]" sum.json >a &&
	jq -S "[.results[] | {name, path, process_means_ns, process_ref_ns, stats}]" local.json >b &&
	diff -u b a &&
	# each process'"'"'s SE is left to the local store: what they made is kept
	jq -e "all(.results[] | select(.status == \"ok\"); (has(\"process_se_ns\") | not)
		and .stats.within_se_ns > 0)" sum.json &&
	# the server keeps the processes once, in the rows, not in the document too
	test "$(count "SELECT count(*) FROM runs WHERE label = '"'"'summ'"'"'
		AND document LIKE '"'"'%process_means_ns%'"'"'")" = 0 &&
	test "$(count "SELECT count(*) FROM results x JOIN runs r ON r.uuid = x.run_uuid
		WHERE r.label = '"'"'summ'"'"' AND x.process_means IS NOT NULL")" -ge 2 &&
	"$validate" run sum.json &&
	jq -e "all(.results[] | select(.status == \"ok\"); .samples_ns | length >= 3)" whole.json &&
	jq -e "has(\"digest\") | not" whole.json &&
	# the summary is what the server stores: a fraction of the whole document
	test "$(count "SELECT length(document) FROM runs WHERE label = '"'"'summ'"'"'")" -lt \
		"$(count "SELECT length(document) / 2 FROM runs WHERE label = '"'"'whole'"'"'")" &&
	# a summary is not a run a local store keeps: refused, nothing written
	ukbench runs --db keep.db >/dev/null 2>&1; n0=$(sqlite3 keep.db "SELECT count(*) FROM runs" 2>/dev/null || echo 0) &&
	test_expect_code 1 ukbench import --db keep.db sum.json 2>err &&
	grep -q "is a run.s summary, its samples left out" err &&
	test "$(sqlite3 keep.db "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" = "$n0" &&
	# compare and history read a summary as they read the whole run
	ukbench compare --db "$R" summ whole >cs &&
	grep -q "^time.time" cs &&
	ukbench push --help | grep -q -- "--samples"
'

test_expect_success POSTGRES 'a server of schema 1 with runs in it: migrated, every run kept, the columns filled' '
	pg_up &&
	cols="SELECT x.run_uuid, x.seq, x.params, x.threads, x.bytes, x.waited, x.disturbed,
		x.process_means, x.process_ref, r.kernel_version, r.boot_id, r.reference, r.load,
		x.host, x.started
		FROM results x JOIN runs r ON r.uuid = x.run_uuid ORDER BY 1, 2" &&
	count "$cols" >pushed.cols &&
	nruns=$(count "SELECT count(*) FROM runs") && nres=$(count "SELECT count(*) FROM results") &&
	test "$nruns" -gt 10 &&
	test "$(count "SELECT count(*) FROM results WHERE process_means IS NOT NULL")" -gt 10 &&
	ukbench compare --db "$R" f-before f-after -f json >before.json &&
	# back to schema 1 as it was made: its documents whole as JSON text (a
	# summary held its processes and every figure; schema 5 keeps the
	# processes in the rows only, 6 the document packed), each as show
	# reads it back; the columns of 6 and 4, the function of 3, the
	# columns of 2 dropped
	for id in $(count "SELECT id FROM runs WHERE document_z IS NOT NULL"); do
		ukbench show --db "$R" "$id" -f json >doc.json &&
		jq -e ".results | length > 0" doc.json >/dev/null &&
		{ printf "UPDATE runs SET document = \$d\$" && cat doc.json &&
			printf "\$d\$, document_z = NULL WHERE id = %s;\n" "$id"; } |
			PGDB=ukb pg_psql_in || return 1
	done &&
	test "$(count "SELECT count(*) FROM runs WHERE document NOT LIKE '"'"'%process_means_ns%'"'"'")" = 0 &&
	count "ALTER TABLE runs DROP COLUMN document_z; DROP INDEX results_of_run;
		ALTER TABLE results ADD PRIMARY KEY (run_uuid, seq), REPLICA IDENTITY DEFAULT;
		DROP INDEX results_by_host, results_detail;
		ALTER TABLE results DROP COLUMN host, DROP COLUMN started;
		CREATE INDEX results_by_path ON results (name, path, benchmark);
		DROP FUNCTION ukbench_prune; ALTER TABLE runs DROP COLUMN pruned,
		ALTER COLUMN document SET NOT NULL;
		ALTER TABLE runs DROP COLUMN kernel_version, DROP COLUMN boot_id,
		DROP COLUMN reference, DROP COLUMN load;
		ALTER TABLE results DROP COLUMN params, DROP COLUMN threads, DROP COLUMN bytes,
		DROP COLUMN waited, DROP COLUMN disturbed, DROP COLUMN process_means,
		DROP COLUMN process_ref; UPDATE ukbench_schema SET version = 1" &&
	test_expect_code 2 ukbench runs --db "$R" 2>err &&
	grep -q "older than this ukbench.s 7: its owner runs .ukbench fleet-init. to migrate it" err &&
	vacuums="SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = '"'"'results'"'"'" &&
	v0=$(count "$vacuums") &&
	ukbench fleet-init --db "$(pg_uri)" --writer ukb_push --reader ukb_read >out &&
	grep -q "fleet schema version 7 (migrated)" out &&
	# the rewritten rows vacuumed after (the server reports it within a second or so)
	for i in 1 2 3 4 5 6 7 8 9 10; do
		test "$(count "$vacuums")" -gt "$v0" && break
		sleep 0.5
	done &&
	test "$(count "$vacuums")" -gt "$v0" &&
	test "$(count "SELECT count(*) FROM runs")" = "$nruns" &&
	test "$(count "SELECT count(*) FROM results")" = "$nres" &&
	count "$cols" >migrated.cols &&
	diff -u pushed.cols migrated.cols &&
	ukbench compare --db "$R" f-before f-after -f json >after.json &&
	diff -u before.json after.json
'

# on tables this small the planner may rightly scan them: seq scans off,
# the plans of ukbench's own statements (auto_explain, in the server's log)
# show the index that serves them whatever the store's size
test_expect_success POSTGRES 'history and the floor read an index, not every result row' '
	pg_up &&
	count "ANALYZE" &&
	explain="-c session_preload_libraries=auto_explain -c auto_explain.log_min_duration=0
		-c enable_seqscan=off" &&
	: >"$PGDIR/server.log" &&
	PGOPTIONS="$explain" ukbench history --db "$(pg_uri)" --host board-f time.time/vdso >out &&
	grep -q "Index Only Scan using results_by_host on results" "$PGDIR/server.log" &&
	! grep -q "Seq Scan on results" "$PGDIR/server.log" &&
	: >"$PGDIR/server.log" &&
	PGOPTIONS="$explain" ukbench compare --db "$(pg_uri)" f-before f-after >out &&
	grep -q "Scan.* results_by_host\|Scan.* results_detail" "$PGDIR/server.log" &&
	! grep -q "Seq Scan on results" "$PGDIR/server.log"
'

# history of the paths of every host learns each host's floor: the rows
# are read path by path, four paths' every host a statement, asked ahead
# on a second connection, not a statement for each host (t.json holds
# time.time's paths: two or more; mkrun --paths 9 makes nine)
test_expect_success POSTGRES 'history of paths over every host reads the floor path by path' '
	pg_up &&
	export UKBENCH_SPOOL=$PWD/many.db &&
	for h in 1 2 3 4 5 6 7 8 9 10; do
		for d in 01 02; do
			"$mkrun" "$TEST_ROOT/t.json" m.json --spread 0.01 --seed "$h$d" \
				--label many --host "board-m$h" --started "2025-03-${d}T10:00:00Z" &&
			ukbench import --db "$W" m.json >/dev/null || return 1
		done &&
		"$mkrun" "$TEST_ROOT/t.json" s.json --paths 9 --spread 0.01 --seed "$h" \
			--label synth --host "board-s$h" --started "2025-04-01T10:00:00Z" &&
		ukbench import --db "$W" s.json >/dev/null || return 1
	done &&
	npaths=$(jq "[.results[] | select(.status == \"ok\")] | length" "$TEST_ROOT/t.json") &&
	test "$npaths" -ge 2 &&
	floors() {
		: >"$PGDIR/server.log" &&
		PGOPTIONS="-c log_min_duration_statement=0" \
			ukbench history --db "$(pg_uri)" -f csv "$1" >out &&
		grep -c "execute .*SELECT name, path, host, id::text" "$PGDIR/server.log"
	} &&
	n=$(floors time.time) &&
	echo "$n statements of the floor for $npaths paths" &&
	grep -q ",board-m10," out &&
	test "$n" = $(((npaths + 3) / 4)) &&
	n=$(floors "synthetic.*") &&
	echo "$n statements of the floor for 9 paths" &&
	test "$(grep -c ",board-s10," out)" = 9 &&
	test "$n" = 3 &&
	# a reader allowed one connection asks when it needs: the same history
	ukbench history --db "$R" -f csv "synthetic.*" >all.csv &&
	count "ALTER ROLE ukb_read CONNECTION LIMIT 1" &&
	: >"$PGDIR/server.log" &&
	{ ukbench history --db "$R" -f csv "synthetic.*" >one.csv; rc=$?; } &&
	count "ALTER ROLE ukb_read CONNECTION LIMIT -1" &&
	test "$rc" = 0 &&
	grep -q "too many connections for role \"ukb_read\"" "$PGDIR/server.log" &&
	diff -u all.csv one.csv
'

test_expect_success POSTGRES 'fleet-prune: old runs lose their detail, history keeps them; the reader refused' '
	pg_up &&
	export UKBENCH_SPOOL=$PWD/prune.db &&
	seed=20 &&
	for d in 2024-03-01 2024-06-01 2024-09-01 2025-02-01; do
		for l in old v6.1; do
			seed=$((seed + 1))
			"$mkrun" "$TEST_ROOT/t.json" p.json --spread 0.01 --seed $seed \
				--label "$l" --host board-p --started "${d}T10:00:00Z" || return 1
			ukbench import --db "$W" p.json >/dev/null || return 1
			ukbench import --db lp.db p.json >/dev/null || return 1
		done
	done &&
	ukbench history --db "$R" --host board-p -f json time.time/vdso >h-before.json &&
	# the floor of "old" is learned from its runs, pruned ones among them
	cmpj() { ukbench compare --db "$1" --latest old v6.1 -f json | jq -S "map(del(.base, .other))"; } &&
	cmpj "$R" >c-server.json && cmpj lp.db >c-local.json &&
	jq -e "length > 0 and all(.[]; .floor > 0)" c-server.json &&
	diff -u c-server.json c-local.json &&
	jq -e "length == 8" h-before.json &&
	all=$(count "SELECT count(*) FROM runs WHERE host = '"'"'board-p'"'"'") &&
	test "$all" = 8 &&
	# the reader may not, nor anyone not granted it
	test_expect_code 1 ukbench fleet-prune --db "$R" --before 2025-01-01 2>err &&
	grep -q "refuses this role: pruning is granted to the writer" err &&
	test "$(count "SELECT count(*) FROM runs WHERE pruned IS NOT NULL")" = 0 &&
	# a dry run counts and changes nothing
	ukbench fleet-prune --db "$W" --before 2025-01-01 --keep-labels "v6.*" --dry-run >out &&
	grep -q "^would prune [0-9]* runs started before 2025-01-01; kept whole [0-9]* labelled .v6\.\*.\$" out &&
	test "$(count "SELECT count(*) FROM runs WHERE pruned IS NOT NULL")" = 0 &&
	n=$(count "SELECT count(*) FROM runs WHERE started < '"'"'2025-01-01'"'"' AND label !~ '"'"'^v6'"'"'") &&
	k=$(count "SELECT count(*) FROM runs WHERE started < '"'"'2025-01-01'"'"' AND label ~ '"'"'^v6'"'"'") &&
	grep -q "^would prune $n runs started before 2025-01-01; kept whole $k labelled" out &&
	test "$n" -ge 3 && test "$k" = 3 &&
	ukbench fleet-prune --db "$W" --before 2025-01-01 --keep-labels "v6.*" >out &&
	grep -q "^pruned $n runs started before 2025-01-01; kept whole $k labelled" out &&
	test "$(count "SELECT count(*) FROM runs WHERE pruned IS NOT NULL AND document IS NULL
		AND document_z IS NULL")" = "$n" &&
	test "$(count "SELECT count(*) FROM runs WHERE pruned IS NULL AND document IS NULL AND document_z IS NULL")" = 0 &&
	test "$(count "SELECT count(*) FROM runs WHERE label ~ '"'"'^v6'"'"' AND pruned IS NOT NULL")" = 0 &&
	test "$(count "SELECT count(*) FROM runs WHERE started >= '"'"'2025-01-01'"'"' AND pruned IS NOT NULL")" = 0 &&
	# history draws every run as before, its marks too: the processes'"'"' means
	# and references stay (what the floor reads), as the local store'"'"'s prune
	# keeps them
	ukbench history --db "$R" --host board-p -f json time.time/vdso >h-after.json &&
	diff -u h-before.json h-after.json &&
	# both stores pruned alike: the same floors, the same comparison as before
	ukbench prune --db lp.db --before 2025-01-01 --keep-labels "v6.*" >/dev/null &&
	cmpj "$R" >c-server2.json && cmpj lp.db >c-local2.json &&
	diff -u c-server.json c-server2.json && diff -u c-local.json c-local2.json &&
	test "$(count "SELECT count(*) FROM runs r JOIN results x ON x.run_uuid = r.uuid
		WHERE r.pruned IS NOT NULL AND x.process_means IS NULL AND x.status = '"'"'ok'"'"'")" = 0 &&
	ukbench runs --db "$R" --host board-p -f json >runs.json &&
	test "$(jq "map(select(.source | test(\" \\\\(pruned [0-9-]+\\\\)$\"))) | length" runs.json)" = "$n" &&
	id=$(jq -r "map(select(.label == \"old\" and (.started | startswith(\"2024-03\"))))[0].id" runs.json) &&
	test_expect_code 2 ukbench show --db "$R" "$id" 2>err &&
	grep -q "was pruned on [0-9-]* (fleet-prune): history keeps its figures" err &&
	kept=$(jq -r "map(select(.label == \"v6.1\" and (.started | startswith(\"2024-03\"))))[0].id" runs.json) &&
	ukbench show --db "$R" "$kept" >/dev/null &&
	# pruned once: a second prune finds nothing more; bad usage
	ukbench fleet-prune --db "$W" --before 2025-01-01 --keep-labels "v6.*" >out &&
	grep -q "^pruned 0 runs" out &&
	test_expect_code 2 ukbench fleet-prune --db "$W" 2>err &&
	grep -q "needs --db TARGET (or UKBENCH_DB) naming a server .*--before DATE" err &&
	test_expect_code 2 ukbench fleet-prune --db "$W" --before yesterday 2>err &&
	grep -q "^error: --before .yesterday. is not a date" err &&
	# a month 13 would be read as after every day of the year: refused
	test_expect_code 2 ukbench fleet-prune --db "$W" --before 2026-13-01 2>err &&
	grep -q "^error: --before .2026-13-01. is not a date" err &&
	test_expect_code 2 ukbench fleet-prune --db "$W" --before 2026-02-29 2>err &&
	test "$(count "SELECT count(*) FROM runs WHERE pruned IS NOT NULL")" = "$n"
'

# the year of tests/fleet/year.sh, small: 9 hosts, 4 pushers of 10 runs
test_expect_success POSTGRES 'a simulated year, small: loaded by COPY, read through indexes, pushed once' '
	YEAR_STAGES="3 9" YEAR_REPEAT=1 YEAR_PUSHERS=4 YEAR_SPOOL_RUNS=10 \
		sh "$UKB_TOP/tests/fleet/year.sh" "$TEST_ROOT/t.json" >year.out 2>&1 ||
		{ cat year.out; false; } &&
	cat year.out &&
	awk "\$1 == 9 && \$2 > 800 { ok = 1 } END { exit !ok }" year.out &&
	grep -q "^plans of history, one host" year.out &&
	grep -q "using results_by_host on results" year.out &&
	grep -q "^push: 4 pushers of 10 runs each, at once, into the year: 40 runs in .* on the server 40 distinct, 40 rows; left in the spools: 0$" year.out
'

test_expect_success POSTGRES 'push --status as JSON; bad usage' '
	pg_up &&
	export UKBENCH_SPOOL=$PWD/js.db &&
	pg_halt &&
	ukbench run $tiny --db "$W" -l waiting time.time >/dev/null 2>&1;
	ukbench push --status -f json >st.json;
	pg_resume &&
	{ ! test_have_prereq JSONSCHEMA ||
		"$validate" "ukbench-rows.schema.json#/\$defs/push" st.json; } &&
	jq -e "length == 1 and .[0].label == \"waiting\" and .[0].tries == 1 and (.[0].last_error | startswith(\"cannot reach\")) and (.[0].uuid | test(\"^[0-9a-f-]{36}\$\"))" st.json &&
	test_expect_code 2 ukbench push --db /tmp/x.db 2>err &&
	grep -q "names no fleet server" err &&
	test_expect_code 2 ukbench push extra 2>err &&
	test_expect_code 2 ukbench fleet-init 2>err &&
	test_expect_code 2 ukbench runs --db postgres:no/such 2>err &&
	grep -q "is not a service name" err &&
	# a run waiting in the spool keeps its samples: push --samples may want them
	ukbench prune --db "$UKBENCH_SPOOL" --before 2100-01-01 >out &&
	grep -q "^pruned 0 runs started before 2100-01-01 (0 samples); kept whole 1 waiting to be pushed\$" out &&
	ukbench push >/dev/null &&
	ukbench prune --db "$UKBENCH_SPOOL" --before 2100-01-01 >out &&
	grep -q "^pruned 1 run started before" out &&
	ukbench show --db "$UKBENCH_SPOOL" 1 -f json | jq -e ".label == \"waiting\"" >/dev/null
'

test_done
