#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The store: every run recorded, listed, shown, exported, imported; bad
# databases refused untouched; concurrent runs all kept.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.01 --warmup 0.002 --min-samples 3 --batch 200"

test_expect_success 'run stores into the XDG data directory by default' '
	ukbench run $tiny -l first time.time >out &&
	grep -q "stored as run #1 .first. in $XDG_DATA_HOME/ukbench/results.db" out &&
	test -f "$XDG_DATA_HOME/ukbench/results.db" &&
	ukbench runs >runs &&
	grep -q "^ *1  .*  first  " runs
'

test_expect_success '--db chooses the file; --no-store stores nothing' '
	ukbench run $tiny --db my.db time.time >/dev/null &&
	ukbench run $tiny --db my.db --no-store time.time >out &&
	! grep -q "^stored as run" out &&
	test "$(sqlite3 my.db "select count(*) from runs")" = 1 &&
	test "$(sqlite3 my.db "select count(*) from samples")" -gt 0 &&
	test "$(sqlite3 my.db "select count(*) from results r where (select count(*) from samples s
		where s.result_id = r.id) not in (r.n, r.n + r.disturbed)")" = 0
'

test_expect_success 'every sample of a run is stored, in order' '
	ukbench run $tiny --db s.db --json r.json syscall.null >/dev/null &&
	jq -r ".results[0].samples_ns[]" r.json >want &&
	sqlite3 s.db "select ns from samples join results on results.id = result_id
		where path = \"syscall\" order by samples.seq" >got &&
	awk "NR == FNR { a[FNR] = \$1; next } { d = a[FNR] - \$1; if (d < 0) d = -d;
		if (d > 1e-9 * \$1) exit 1 } END { exit NR != 2 * FNR }" want got
'

test_expect_success 'runs --size: the file'"'"'s bytes, its runs, results and samples' '
	ukbench run $tiny --db sz.db time.time time.gettimeofday >/dev/null &&
	ukbench run $tiny --db sz.db time.time >/dev/null &&
	ukbench runs --db sz.db --size -f json >sz.json &&
	jq -e ".[0].runs == 2 and .[0].bytes_per_run == ((.[0].bytes - .[0].free_bytes) / 2 | round)" sz.json &&
	test "$(jq ".[0].results" sz.json)" = "$(sqlite3 sz.db "SELECT count(*) FROM results")" &&
	test "$(jq ".[0].samples" sz.json)" = "$(sqlite3 sz.db "SELECT count(*) FROM samples")" &&
	test "$(jq ".[0].bytes" sz.json)" = \
		"$(($(sqlite3 sz.db "PRAGMA page_count") * $(sqlite3 sz.db "PRAGMA page_size")))" &&
	ukbench runs --db sz.db --size >out &&
	grep -q "^sz.db: [0-9.]* KiB in 2 runs ([0-9.]* KiB a run), [0-9]* results, [0-9]* samples\$" out &&
	test_expect_code 2 ukbench runs --db sz.db --size --host x 2>err &&
	grep -q "^error: --size is the whole store" err &&
	ukbench runs --db none.db --size >out && grep -q "^(no store at none.db yet)" out &&
	test ! -e none.db
'

test_expect_success 'run -> show json -> import elsewhere -> compare: identical figures' '
	ukbench run $tiny --db rt.db -l orig time.gettimeofday >/dev/null &&
	ukbench show --db rt.db 1 --format json >exported.json &&
	ukbench import --db rt2.db --label copy exported.json >out &&
	grep -q "imported exported.json as run #1 .copy." out &&
	ukbench runs --db rt2.db >runs &&
	grep -q "exported.json" runs &&
	ukbench show --db rt2.db copy --format json >copy.json &&
	ukbench compare --db rt.db orig copy.json >cmp &&
	test "$(grep -c "+0.00%~\{0,1\} *\[" cmp)" = 3 &&
	test "$(grep -Ec "(no change|not significant)$" cmp)" = 3 &&
	ukbench show --db rt2.db copy --format json >again.json &&
	jq -S ".results" exported.json >a && jq -S ".results" again.json >b && cmp a b
'

test_expect_success 'show prints the table again' '
	ukbench run $tiny --db sh.db -l tbl time.time >/dev/null &&
	ukbench show --db sh.db tbl >out &&
	grep -q "^time.time  *vdso  *[0-9]" out &&
	grep -q "run #1, label .tbl." out &&
	# a label given twice: its runs of the boot pooled, every one named
	ukbench run $tiny --db sh.db -l tbl time.time >/dev/null &&
	ukbench show --db sh.db tbl >out 2>err &&
	grep -q "^2 runs pooled (#2, #1), label .tbl., the latest started " out &&
	ukbench show --db sh.db 1 >out &&
	grep -q "^run #1, label .tbl., started " out
'

test_expect_success 'show and compare of a run that does not exist' '
	ukbench run $tiny --db e.db time.time >/dev/null &&
	test_expect_code 2 ukbench show --db e.db 42 2>err &&
	grep -q "no run #42" err &&
	test_expect_code 2 ukbench show --db e.db nolabel 2>err &&
	grep -q "no run labelled .nolabel." err
'

test_expect_success 'a file that is not a database: error, exit 2, bytes unchanged' '
	echo "my notes" >notes.db && cp notes.db before &&
	test_expect_code 2 ukbench run $tiny --db notes.db time.time >out 2>err &&
	grep -q "not an SQLite database; it was left untouched" err &&
	test ! -s out &&
	cmp notes.db before &&
	test_expect_code 2 ukbench runs --db notes.db 2>err &&
	cmp notes.db before
'

test_expect_success 'a database of another application: refused, unchanged' '
	sqlite3 other.db "create table inventory(item, qty); insert into inventory values (1, 2);" &&
	cp other.db before &&
	test_expect_code 2 ukbench run $tiny --db other.db time.time 2>err &&
	grep -q "another application" err &&
	cmp other.db before
'

test_expect_success 'a database of a newer schema: refused, versions named' '
	ukbench run $tiny --db new.db time.time >/dev/null &&
	sqlite3 new.db "pragma user_version = 11; pragma wal_checkpoint(truncate);" >/dev/null &&
	cp new.db before &&
	test_expect_code 2 ukbench runs --db new.db 2>err &&
	grep -q "schema version 11, newer than the 10 this ukbench knows" err &&
	cmp new.db before
'

test_expect_success 'concurrent runs into one database: every run and sample kept' '
	for i in 1 2 3 4; do
		"$UKBENCH" run $tiny --db c.db -l "w$i" harness.empty time.time >/dev/null &
	done &&
	wait &&
	test "$(sqlite3 c.db "select count(*) from runs")" = 4 &&
	test "$(sqlite3 c.db "select count(*) from results")" = 16 &&
	test "$(sqlite3 c.db "select count(*) from samples")" -gt 0 &&
	test "$(sqlite3 c.db "select count(*) from results r where (select count(*) from samples s
		where s.result_id = r.id) not in (r.n, r.n + r.disturbed)")" = 0
'

test_expect_success 'an interrupted run is not stored' '
	"$UKBENCH" run --db i.db --budget 30 --precision 0.001 time >out 2>err &
	pid=$! &&
	test_wait_child $pid &&
	kill -INT $pid
	wait $pid; rc=$?
	test "$rc" = 130 &&
	grep -q "not stored: the run was interrupted" out &&
	test "$(sqlite3 i.db "select count(*) from runs")" = 0
'

test_expect_success 'import refuses bad files, names file and position, stores nothing' '
	ukbench run $tiny --no-store --json good.json time.time >/dev/null &&
	head -c 300 good.json >trunc.json &&
	test_expect_code 2 ukbench import --db imp.db good.json trunc.json 2>err &&
	grep -q "trunc.json.: truncated JSON" err &&
	printf "{\n  \"schema\": \"ukbench-run\",\n  oops\n}\n" >bad.json &&
	test_expect_code 2 ukbench import --db imp.db bad.json 2>err &&
	grep -q "bad.json.: not JSON: .* at line 3, column" err &&
	jq ".schema_version = 7" good.json >v7.json &&
	test_expect_code 2 ukbench import --db imp.db v7.json 2>err &&
	grep -q "schema version 7 is not supported" err &&
	test_expect_code 2 ukbench import --db imp.db missing.json 2>err &&
	grep -q "cannot open .missing.json." err &&
	test "$(sqlite3 imp.db "select count(*) from runs" 2>/dev/null || echo 0)" = 0
'

# Every read loop ends on SQLITE_DONE only: a damaged page is an error,
# never a short answer that looks complete.
test_expect_success 'a damaged table or index: every read says so and exits non-zero' '
	ukbench run $tiny --db d.db -l a time.time syscall.null >/dev/null &&
	ukbench run $tiny --db d.db -l b time.time >/dev/null &&
	sqlite3 d.db "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null &&
	for t in runs results samples results_by_run; do
		cp d.db x.db &&
		pg=$(sqlite3 d.db "SELECT rootpage FROM sqlite_master WHERE name = '"'"'$t'"'"'") &&
		sz=$(sqlite3 d.db "PRAGMA page_size") &&
		awk "BEGIN { for (i = 0; i < $sz; i++) printf \"%c\", 65 + i % 26 }" |
			dd of=x.db bs=$sz seek=$((pg - 1)) count=1 conv=notrunc 2>/dev/null &&
		for c in "show 1" "history" "compare 1 2"; do
			# history reads the figures of each result: never a sample, nor
			# the results in the order of their run
			[ "$t $c" = "samples history" ] && continue
			[ "$t $c" = "results_by_run history" ] && continue
			test_expect_code_not 0 "$UKBENCH" $c --db x.db >/dev/null 2>err &&
			grep -q "malformed\|database .x.db. is damaged" err || { echo "$t: $c"; return 1; }
		done || return 1
	done &&
	cp d.db x.db &&
	pg=$(sqlite3 d.db "SELECT rootpage FROM sqlite_master WHERE name = '"'"'runs'"'"'") &&
	awk "BEGIN { for (i = 0; i < $sz; i++) printf \"%c\", 65 + i % 26 }" |
		dd of=x.db bs=$sz seek=$((pg - 1)) count=1 conv=notrunc 2>/dev/null &&
	test_expect_code_not 0 ukbench runs --db x.db >/dev/null 2>err &&
	grep -q "malformed\|database .x.db. is damaged" err
'

test_expect_success 'import of a run stored already, or given twice: refused, nothing stored' '
	ukbench run $tiny --db d.db --json d.json time.time >/dev/null &&
	test_expect_code 2 "$UKBENCH" import --db d.db d.json 2>err &&
	grep -q "d.json is already stored as run #1 in d.db; nothing imported" err &&
	test "$(sqlite3 d.db "SELECT count(*) FROM runs")" = 1 &&
	test_expect_code 2 "$UKBENCH" import --db e.db d.json d.json 2>err &&
	grep -q "d.json and d.json are the same run; nothing imported" err &&
	test "$(sqlite3 e.db "SELECT count(*) FROM runs")" = 0 &&
	ukbench import --db e.db -l relabelled d.json >out &&
	test_expect_code 2 "$UKBENCH" import --db e.db -l other d.json 2>err &&
	grep -q "already stored as run #1" err &&
	ukbench run $tiny --db e.db --json f.json time.time >/dev/null &&
	test "$(sqlite3 e.db "SELECT count(*) FROM runs")" = 2
'

# What a damaged store holds is never shown as if it were a run: a start
# that is not a time, a figure that is not what was stored, a page that
# fails SQLite's own check.
test_expect_success 'a malformed row or a changed figure: an error naming the file and the run' '
	ukbench run $tiny --db "$TEST_ROOT/m.db" -l a time.time >/dev/null &&
	ukbench run $tiny --db "$TEST_ROOT/m.db" -l b time.time >/dev/null &&
	cp "$TEST_ROOT/m.db" t.db &&
	sqlite3 t.db "UPDATE runs SET started = '"'"'2025,01-02T06:00:00Z'"'"' WHERE id = 1" &&
	for c in runs show compare history; do
		args=
		[ $c = show ] && args=1
		[ $c = compare ] && args="1 2"
		test_expect_code_not 0 ukbench $c --db t.db $args >out 2>err || return 1
		grep -q "database .t.db.: run #1 has a malformed start time" err || { cat err; return 1; }
	done &&
	cp "$TEST_ROOT/m.db" f.db &&
	sqlite3 f.db "UPDATE samples SET ns = ns * 1.0001 WHERE seq = 0 AND result_id = (SELECT min(id) FROM results WHERE run_id = 1)" &&
	test_expect_code_not 0 ukbench show --db f.db 1 >out 2>err &&
	grep -q "database .f.db.: run #1 is not what was stored" err &&
	ukbench show --db f.db 2 >/dev/null
'

test_expect_success 'show without a run shows the latest; compare of a run with itself says so' '
	ukbench run $tiny --db "$TEST_ROOT/l.db" -l first time.time >/dev/null &&
	ukbench run $tiny --db "$TEST_ROOT/l.db" -l second time.time >/dev/null &&
	ukbench show --db "$TEST_ROOT/l.db" >out &&
	grep -q "^run #2, label .second." out &&
	grep -q "^3 paths in" out &&
	ukbench compare --db "$TEST_ROOT/l.db" 2 2 >out &&
	grep -q "^warning: #2 .second. and #2 .second. are one run: it is compared with itself" out &&
	grep -q "^\* p < 0.05; ~ judged at one speed of the machine too$" out &&
	test_expect_code 2 ukbench show --db "$TEST_ROOT/none.db" 2>err &&
	grep -q "no run is stored yet" err
'

# Schema 7 keeps, per result, the share of its batches' wall time the
# thread waited; a store of schema 6 gets it from the samples it holds.
test_expect_success 'schema 6 to 7: the time waited, from the stored samples' '
	ukbench run $tiny --db w.db syscall.null/syscall >/dev/null &&
	sqlite3 w.db "SELECT waited FROM results" >now &&
	awk "{ exit !(\$1 >= 0 && \$1 <= 1) }" now &&
	sqlite3 w.db "SELECT max(0, 1 - sum(cpu_ns) / sum(ns)) FROM samples WHERE cpu_ns IS NOT NULL" >want &&
	sqlite3 w.db "ALTER TABLE results DROP COLUMN waited; ALTER TABLE results DROP COLUMN state_rel; ALTER TABLE results DROP COLUMN floor_df; ALTER TABLE runs DROP COLUMN summary; PRAGMA user_version = 6;" &&
	ukbench runs --db w.db >/dev/null &&
	test "$(sqlite3 w.db "PRAGMA user_version")" = 10 &&
	sqlite3 w.db "SELECT waited FROM results" >after &&
	if test -s want && test -n "$(cat want)"; then
		awk -v a="$(cat after)" -v b="$(cat want)" "BEGIN { d = a - b; exit !(a != \"\" && d < 1e-9 && d > -1e-9) }"
	else
		# a CPU clock too coarse to judge a batch by: no CPU time, none waited
		test -z "$(cat now)" && test -z "$(cat after)"
	fi
'

test_expect_success 'schema 7 to 8: the state a result held, kept with it' '
	ukbench run $tiny --db s8.db -l a syscall.null/syscall >/dev/null &&
	sqlite3 s8.db "ALTER TABLE results DROP COLUMN state_rel; ALTER TABLE results DROP COLUMN floor_df; ALTER TABLE runs DROP COLUMN summary; PRAGMA user_version = 7;" &&
	ukbench show --db s8.db a >before &&
	test "$(sqlite3 s8.db "PRAGMA user_version")" = 10 &&
	test "$(sqlite3 s8.db "SELECT count(*) FROM pragma_table_info(\"results\") WHERE name = \"state_rel\"")" = 1 &&
	grep -q "syscall.null" before
'

# Schema 9 keeps the floor'"'"'s degrees of freedom: show prints the ±CI95 run printed.
test_expect_success 'schema 9: show prints the interval run printed' '
	ukbench run $tiny -r 4 --db s9.db -l a syscall.null/syscall >r9.out &&
	ukbench run $tiny -r 4 --db s9.db -l a syscall.null/syscall >r9.out &&
	ukbench show --db s9.db 2 >s9.out &&
	awk "\$1 == \"syscall.null\" { print \$4 }" r9.out >want &&
	awk "\$1 == \"syscall.null\" { print \$4 }" s9.out >got &&
	test -s want && cmp want got &&
	test "$(sqlite3 s9.db "SELECT count(*) FROM results WHERE floor_df > 0")" -ge 1
'

# prune keeps old runs as their summaries (schema 10): the same figures,
# the same comparison and history, without their batches' samples
test_expect_success 'prune: old runs kept as their summaries, compared as before' '
	for f in "$UKB_TOP"/tests/golden/runs/*.json; do
		ukbench import --db pr.db "$f" >/dev/null || return 1
	done &&
	ukbench compare --db pr.db before after -f json >c0.json &&
	ukbench compare --db pr.db nightly before -f json >n0.json &&
	ukbench history --db pr.db -f csv time.clock_gettime.monotonic/vdso >h0.csv &&
	ukbench show --db pr.db 3 -f csv >s0.csv && ukbench show --db pr.db 4 >t0.txt &&
	n0=$(sqlite3 pr.db "SELECT count(*) FROM samples") &&
	ukbench prune --db pr.db --before 2026-03-01T10:30:00Z --dry-run >out &&
	grep -q "^would prune 3 runs started before 2026-03-01T10:30:00Z ([0-9]* samples)\$" out &&
	test "$(sqlite3 pr.db "SELECT count(*) FROM samples")" = "$n0" &&
	ukbench prune --db pr.db --before 2026-03-01T10:30:00Z --keep-labels nightly >out &&
	grep -q "^pruned 2 runs started before 2026-03-01T10:30:00Z ([1-9][0-9]* samples); kept whole 1 labelled .nightly.\$" out &&
	grep -q "^kept as their summaries; [0-9]* KiB free in pr.db for the runs to come\$" out &&
	test "$(sqlite3 pr.db "SELECT count(*) FROM runs WHERE summary IS NOT NULL")" = 2 &&
	test "$(sqlite3 pr.db "SELECT count(*) FROM samples s JOIN results x ON x.id = s.result_id
		JOIN runs r ON r.id = x.run_id WHERE r.label = '"'"'before'"'"'")" = 0 &&
	test "$(sqlite3 pr.db "SELECT count(*) FROM samples")" -lt "$n0" &&
	ukbench compare --db pr.db before after -f json >c1.json && cmp c0.json c1.json &&
	ukbench compare --db pr.db nightly before -f json >n1.json && cmp n0.json n1.json &&
	ukbench history --db pr.db -f csv time.clock_gettime.monotonic/vdso >h1.csv && cmp h0.csv h1.csv &&
	ukbench show --db pr.db 3 -f csv >s1.csv && cmp s0.csv s1.csv &&
	ukbench show --db pr.db 4 >t1.txt && cmp t0.txt t1.txt &&
	ukbench show --db pr.db 3 -f json | jq -e "[.results[] | select(.status == \"ok\") | .batches > 0] | all" >/dev/null &&
	ukbench prune --db pr.db --before 2026-03-01T10:30:00Z >out &&
	grep -q "^pruned 1 run started before" out &&
	ukbench prune --db pr.db --before 2027-01-01 >out &&
	grep -q "^pruned 2 runs started before 2027-01-01" out &&
	test "$(sqlite3 pr.db "SELECT count(*) FROM samples")" = 0 &&
	ukbench compare --db pr.db before after -f json >c2.json && cmp c0.json c2.json &&
	ukbench runs --db pr.db --size -f json | jq -e ".[0].samples == 0 and .[0].free_bytes > 0" >/dev/null &&
	ukbench prune --db pr.db --before 2027-01-01 >out && grep -q "^pruned 0 runs" out
'

test_expect_success 'prune: bad usage refused, nothing changed' '
	ukbench import --db pr.db "$UKB_TOP/tests/golden/runs/nightly.json" >/dev/null &&
	cp pr.db keep.db &&
	test_expect_code 2 ukbench prune --db pr.db 2>err && grep -q "needs --before DATE" err &&
	test_expect_code 2 ukbench prune --db pr.db --before yesterday 2>err &&
	test_expect_code 2 ukbench prune --db pr.db --before 2026-01-01 --keep-labels "" 2>err &&
	test_expect_code 2 ukbench prune --db postgresql://h/db --before 2026-01-01 2>err &&
	grep -q "fleet-prune" err &&
	test_expect_code 2 ukbench prune --db none.db --before 2026-01-01 2>err &&
	grep -q "^error: no store at none.db" err && test ! -e none.db &&
	test_expect_code 2 ukbench prune --db pr.db --before 2026-01-01 extra 2>err &&
	cmp pr.db keep.db
'

# A store an earlier version wrote (tests/fixtures/store-schema9.sql: its
# processes' means at double precision, its digests of them): read,
# compared, pruned and compared again as it was, nothing called damaged.
test_expect_success 'a store an earlier version wrote: read, compared and pruned' '
	sqlite3 old.db <"$UKB_TOP/tests/fixtures/store-schema9.sql" &&
	ukbench show --db old.db old-a -f json >a.json &&
	sqlite3 old.db "SELECT mean_ns FROM results WHERE run_id = 1" >stored &&
	jq -r ".results[0].stats.mean_ns" a.json >read &&
	awk -v a="$(cat read)" -v b="$(cat stored)" "BEGIN { d = a / b - 1; exit !(b > 0 && d < 1e-6 && d > -1e-6) }" &&
	ukbench compare --db old.db old-a old-b -f json >c0.json &&
	jq -e "length == 1 and .[0].path == \"syscall\"" c0.json >/dev/null &&
	ukbench history --db old.db -f csv syscall.null >h0.csv &&
	test "$(wc -l <h0.csv)" = 3 &&
	test_expect_code 2 ukbench import --db old.db a.json 2>err &&
	grep -q "is already stored as run #1" err &&
	ukbench prune --db old.db --before 2100-01-01 >out &&
	grep -q "^pruned 2 runs" out &&
	ukbench show --db old.db old-b >/dev/null &&
	ukbench compare --db old.db old-a old-b -f json >c1.json && cmp c0.json c1.json &&
	ukbench history --db old.db -f csv syscall.null >h1.csv && cmp h0.csv h1.csv
'

test_done
