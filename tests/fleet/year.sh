#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# year.sh [RUN.json] - a fleet's year on a real PostgreSQL server
# (tests/fleet/pg.sh; durable settings: fsync and synchronous commit on),
# measured as it grows. The year is made by year.py from RUN.json (a run of
# the default suite; without it one is measured first, about two minutes):
# hosts that differ, kernels every few weeks, slow states, planted steps,
# retention as fleet-prune leaves it. It is loaded through COPY in three
# stages of hosts (YEAR_STAGES, default "111 333 1000": about 1, 3 and 9
# million result rows), each host a run every 3.4 days (YEAR_EVERY).
# After each stage, ANALYZE, then each query as a user types it, the
# median of YEAR_REPEAT (default 5) timings:
#
#   history, one host    `history --host H PATH`          target < 100 ms
#   history, all hosts   `history -f csv PATH`            target < 1 s
#   history, -w 5, every path of one host's year          target < 1 s
#   compare              `compare --all ab-base ab-patch` (10 runs each)
#                                                         target < 300 ms
#   report               `report --all ab-base ab-patch`  target < 5 s
#
# and the plans of history's and compare's statements (auto_explain): the
# scans each uses, which must be indexes. Then, with YEAR_PUSH=1 (the
# default), 16 pushers at once, each a spool of 200 runs: runs a second in
# all (target >= 50), the slowest run's push (from the server's pushed_at
# times, target < 2 s), every run stored exactly once.
#
# Prints a table, a row a stage; exits 1 when a check of the plans or of
# exactly once fails (the timings are reported, not judged: a loaded machine
# is slower). The small version runs in t0250 (YEAR_STAGES="3 9").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ukbench=$(realpath "${UKBENCH:-$here/../../build/ukbench}")
py=${PYTHON:-/usr/bin/python3}
stages=${YEAR_STAGES:-111 333 1000}
every=${YEAR_EVERY:-3.4}
repeat=${YEAR_REPEAT:-5}
pushers=${YEAR_PUSHERS:-16}
per_spool=${YEAR_SPOOL_RUNS:-200}
. "$here/pg.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ukbench-fleet-year.XXXXXX")
chmod 755 "$work"
trap 'pg_stop; rm -rf "$work"' EXIT
cd "$work"
bad=0

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
now() { date +%s%N; }
ms() { echo $((($(now) - $1) / 1000000)); }
# timed NAME CMD...: the median of $repeat runs of CMD, in ms, into $NAME
timed() {
	name=$1
	shift
	: >t.ms
	i=0
	while [ $i -lt "$repeat" ]; do
		s=$(now)
		"$@" >q.out 2>q.err || { echo "year.sh: '$*' failed:" >&2; cat q.err >&2; exit 1; }
		ms "$s" >>t.ms
		i=$((i + 1))
	done
	eval "$name=\$(median <t.ms)"
}

if [ $# -ge 1 ]; then
	cp "$1" run.json
else
	echo "measuring the default suite once (ukbench run --no-store)..."
	"$ukbench" run --no-store -q -j run.json >/dev/null
fi
pg_start >/dev/null
pg_fleet "$ukbench"
export UKBENCH_SPOOL=$work/spool.db

# the template: the run as the server keeps it (pushed, read back, taken away)
"$ukbench" import --db "$W" run.json >/dev/null
pg_psql "SELECT encode(document_z, 'hex') FROM runs" >template.hex
"$py" -c 'import sys, zstandard
sys.stdout.write(zstandard.ZstdDecompressor().decompress(bytes.fromhex(open(sys.argv[1]).read())).decode())' \
	template.hex >template.json
pg_psql "DELETE FROM results; DELETE FROM runs" >/dev/null
paths=$(jq '[.results[] | select(.status == "ok")] | length' template.json)
p1=$(jq -r '[.results[] | select(.status == "ok")] | (map(select(.path == "syscall")) + .)[0] |
	"\(.name)/\(.path)"' template.json)

runcols="uuid, label, host, started, kernel_release, ukbench_version, source, duration_s,
	interrupted, digest, nresults, document_z, kernel_version, boot_id, reference, load, pruned"
rescols="run_uuid, seq, name, benchmark, path, status, samples, mean_ns, ci95_rel, median_ns,
	params, threads, bytes, waited, disturbed, process_means, process_ref, host, started"

# the plans of what ukbench asks, as the server ran them: every scan of the
# runs and results tables, by the statement it served
plans() {
	: >"$PGDIR/server.log"
	PGOPTIONS="-c session_preload_libraries=auto_explain -c auto_explain.log_min_duration=0 $seqscan" \
		"$@" >/dev/null 2>&1
	grep -o "\(Seq\|Index\|Index Only\|Bitmap Heap\|Bitmap Index\) Scan\( using [a-z_]*\)\{0,1\} on \(runs\|results\)[a-z_ ]*" \
		"$PGDIR/server.log" | sort | uniq -c | sed 's/^ */  /'
}

printf '%-9s %-9s %-7s %-9s %-10s %-10s %-10s %-10s %-9s %-9s\n' "hosts" "runs" "rows" "COPY s" \
	"KiB a run" "hist host" "hist all" "host -w 5" "compare" "report"
prev=0
for hosts in $stages; do
	"$py" "$here/year.py" template.json runs.copy results.copy --hosts "$prev:$hosts" \
		--every "$every" --seed 7
	s=$(now)
	pg_psql "\\copy runs ($(echo $runcols)) FROM 'runs.copy'" >/dev/null
	pg_psql "\\copy results ($(echo $rescols)) FROM 'results.copy'" >/dev/null
	copy_ms=$(ms "$s")
	pg_psql "VACUUM ANALYZE runs" >/dev/null
	pg_psql "VACUUM ANALYZE results" >/dev/null
	rm -f runs.copy results.copy
	nruns=$(pg_psql "SELECT count(*) FROM runs")
	nrows=$(pg_psql "SELECT count(*) FROM results")
	bytes=$(pg_psql "SELECT pg_total_relation_size('runs') + pg_total_relation_size('results')")
	h=board-$(printf %04d $((hosts / 2)))
	timed q_host "$ukbench" history --db "$R" --host "$h" "$p1"
	points=$(grep -c "^ *[0-9][0-9]* .*20[0-9][0-9]-" q.out || true)
	timed q_all "$ukbench" history --db "$R" -f csv "$p1"
	all_points=$(($(wc -l <q.out) - 1))
	timed q_w "$ukbench" history --db "$R" --host "$h" -w 5 -f csv
	timed q_cmp "$ukbench" compare --db "$R" --all ab-base ab-patch
	timed q_rep "$ukbench" report --db "$R" --all -f markdown -o r.md ab-base ab-patch
	printf '%-9s %-9s %-7s %-9s %-10s %-10s %-10s %-10s %-9s %-9s\n' "$hosts" "$nruns" \
		"$(awk -v n="$nrows" 'BEGIN { printf "%.2fM", n / 1e6 }')" \
		"$(awk -v t="$copy_ms" 'BEGIN { printf "%.1f", t / 1000 }')" \
		"$((bytes / 1024 / nruns))" "$q_host" "$q_all" "$q_w" "$q_cmp" "$q_rep"
	echo "$hosts $nruns $nrows $copy_ms $bytes $q_host $q_all $q_w $q_cmp $q_rep $points $all_points" >>stages.txt
	prev=$hosts
done
printf '%-9s %-9s %-7s %-9s %-10s %-10s %-10s %-10s %-9s %-9s\n' "target" "" "" "" "64 whole" \
	"< 100" "< 1000" "< 1000" "< 300" "< 5000"
echo "(ms, medians of $repeat; history of $p1: $points points on one host, $all_points on all; $paths paths a run)"

# the plans, on the largest stage; on a small one the planner may rightly
# read a whole table, so there seq scans are off and the plans show the
# index that serves the statement at any size
seqscan=
if [ "$nrows" -lt 1000000 ]; then
	seqscan="-c enable_seqscan=off"
	echo "(a small store: the plans with seq scans off)"
fi
echo "plans of history, one host (statement: scans):"
plans "$ukbench" history --db "$(pg_uri)" --host "$h" "$p1" | tee plan-history.txt
echo "plans of compare --all ab-base ab-patch:"
plans "$ukbench" compare --db "$(pg_uri)" --all ab-base ab-patch | tee plan-compare.txt
if grep -q "Seq Scan on results" plan-history.txt plan-compare.txt; then
	echo "year.sh: a query scans every result row (Seq Scan on results)" >&2
	bad=1
fi

[ "${YEAR_PUSH:-1}" = 1 ] || exit $bad

# 16 pushers, each a spool of 200 runs of its own host (copies of the run,
# as speed.sh makes them), all at once
pg_halt
export UKBENCH_SPOOL=$work/push.db
"$ukbench" import --db "$W" run.json >/dev/null 2>&1 || true
cols=$(sqlite3 push.db "SELECT group_concat(name, ', ') FROM pragma_table_info('results')
	WHERE name NOT IN ('id', 'run_id')")
uuid_sql="lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4'
	|| substr(lower(hex(randomblob(2))), 2) || '-a' || substr(lower(hex(randomblob(2))), 2) || '-'
	|| lower(hex(randomblob(6)))"
sqlite3 push.db <<SQL
PRAGMA foreign_keys = OFF;
CREATE TEMP TABLE k AS WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < $((per_spool - 1))) SELECT i FROM c;
BEGIN;
INSERT INTO runs (id, label, host, started, ukbench_version, kernel_release, duration_s, interrupted,
  environment, settings, clock, vdso, source, digest, uuid)
  SELECT 1 + k.i, r.label, r.host, r.started, r.ukbench_version, r.kernel_release, r.duration_s,
    r.interrupted, r.environment, r.settings, r.clock, r.vdso, r.source, r.digest, 'u' || k.i
  FROM runs r, k WHERE r.id = 1;
INSERT INTO results (run_id, $cols) SELECT 1 + k.i, $cols FROM results x, k WHERE x.run_id = 1;
INSERT INTO pending (run_id, target, since, tries, document)
  SELECT 1 + k.i, p.target, p.since, 0, p.document FROM pending p, k WHERE p.run_id = 1;
COMMIT;
SQL
i=0
while [ $i -lt "$pushers" ]; do
	cp push.db "spool$i.db"
	sqlite3 "spool$i.db" <<SQL
CREATE TEMP TABLE m AS SELECT id, uuid AS old, $uuid_sql AS new FROM runs;
UPDATE pending SET document = replace(replace(document,
  '"uuid": "' || (SELECT r.uuid FROM runs r WHERE r.id = 1) || '"',
  '"uuid": "' || (SELECT new FROM m WHERE m.id = pending.run_id) || '"'),
  '"host": "' || (SELECT r.host FROM runs r WHERE r.id = 1) || '"', '"host": "pusher-$i"');
UPDATE runs SET uuid = (SELECT new FROM m WHERE m.id = runs.id), host = 'pusher-$i';
SQL
	i=$((i + 1))
done
pg_resume
s=$(now)
i=0
while [ $i -lt "$pushers" ]; do
	UKBENCH_SPOOL=$work/spool$i.db "$ukbench" push >"push$i.out" 2>&1 &
	i=$((i + 1))
done
wait
push_ms=$(ms "$s")
want=$((pushers * per_spool))
got=$(pg_psql "SELECT count(DISTINCT uuid) FROM runs WHERE host LIKE 'pusher-%'")
rows=$(pg_psql "SELECT count(*) FROM runs WHERE host LIKE 'pusher-%'")
left=0
i=0
while [ $i -lt "$pushers" ]; do
	left=$((left + $(sqlite3 "spool$i.db" "SELECT count(*) FROM pending" 2>/dev/null || echo 0)))
	i=$((i + 1))
done
# a run's push: from the one before it of the same pusher to it, on the server's clock
slowest=$(pg_psql "SELECT round(max(d) * 1000) FROM (SELECT extract(epoch FROM pushed_at -
	lag(pushed_at) OVER (PARTITION BY host ORDER BY pushed_at)) AS d FROM runs
	WHERE host LIKE 'pusher-%') g")
echo "push: $pushers pushers of $per_spool runs each, at once, into the year: $want runs in $push_ms ms," \
	"$(awk -v n="$want" -v t="$push_ms" 'BEGIN { printf "%.1f", n / (t / 1000) }') runs/s;" \
	"slowest run's push $slowest ms; on the server $got distinct, $rows rows; left in the spools: $left"
if [ "$got" != "$want" ] || [ "$rows" != "$want" ] || [ "$left" != 0 ]; then
	echo "year.sh: not exactly once: $want runs pushed, $got distinct and $rows rows on the server, $left left" >&2
	bad=1
fi
exit $bad
