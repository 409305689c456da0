#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# speed.sh [RUN.json] - how fast the fleet's store is, on a real PostgreSQL
# server started here (tests/fleet/pg.sh; durable settings: fsync and
# synchronous commit on), over its Unix socket:
#
#   push      a spool of 1,000 runs of the default suite, each as the
#             summary the server keeps (every figure and process mean,
#             not the batches' samples), sent by one `ukbench push` (one
#             transaction a run); the target is under a minute
#   server    what the server then keeps a run: at most 64 KiB
#   history   `ukbench history` of one path over 10,000 stored runs; the
#             target is under a second
#
# RUN.json is a run of the default suite (`ukbench run --no-store -j
# RUN.json`); without it one is measured first (about two minutes). The
# spool is made from it: one run imported, then copied 999 times in SQL
# (every sample row, a new UUID, its JSON with it), as 1,000 runs stored
# while the server was away would be. For the history, the server gets
# 9,000 more runs of the same results (made in SQL; their JSON is that of a
# small run: history never reads a run's JSON).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ukbench=$(realpath "${UKBENCH:-$here/../../build/ukbench}")
. "$here/pg.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ukbench-fleet-speed.XXXXXX")
trap 'pg_stop; rm -rf "$work"' EXIT
cd "$work"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ms() { echo $((($(date +%s%N) - $1) / 1000000)); }

if [ $# -ge 1 ]; then
	cp "$1" run.json
else
	echo "measuring the default suite once (ukbench run --no-store)..."
	"$ukbench" run --no-store -q -j run.json >/dev/null
fi
pg_start
pg_fleet "$ukbench"
export UKBENCH_SPOOL=$work/spool.db

# the spool: one run imported while the server is away, then 999 copies
pg_halt
"$ukbench" import --db "$W" run.json >/dev/null 2>&1
# every column the store has now, whatever its schema's version
cols=$(sqlite3 spool.db "SELECT group_concat(name, ', ') FROM pragma_table_info('results')
	WHERE name NOT IN ('id', 'run_id')")
xcols=$(sqlite3 spool.db "SELECT group_concat('x.' || name, ', ') FROM pragma_table_info('results')
	WHERE name NOT IN ('id', 'run_id')")
sqlite3 spool.db <<SQL
PRAGMA foreign_keys = OFF;
CREATE TEMP TABLE k AS WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 999) SELECT i FROM c;
CREATE TEMP TABLE u AS SELECT i, lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4'
  || substr(lower(hex(randomblob(2))), 2) || '-a' || substr(lower(hex(randomblob(2))), 2) || '-'
  || lower(hex(randomblob(6))) AS uuid FROM k;
BEGIN;
INSERT INTO runs (id, label, host, started, ukbench_version, kernel_release, duration_s, interrupted,
  environment, settings, clock, vdso, source, digest, uuid)
  SELECT 1 + u.i, r.label, r.host, r.started, r.ukbench_version, r.kernel_release, r.duration_s,
    r.interrupted, r.environment, r.settings, r.clock, r.vdso, r.source, r.digest, u.uuid
  FROM runs r, u WHERE r.id = 1;
CREATE TEMP TABLE rmap AS SELECT x.id AS old, u.i AS i, (SELECT max(id) FROM results) + u.i * 1000 + x.seq AS new
  FROM results x, u WHERE x.run_id = 1;
INSERT INTO results (id, run_id, $cols) SELECT m.new, 1 + m.i, $xcols
  FROM rmap m JOIN results x ON x.id = m.old;
INSERT INTO samples (result_id, seq, ns, cpu_ns, ref_ns, disturbed)
  SELECT m.new, s.seq, s.ns, s.cpu_ns, s.ref_ns, s.disturbed FROM rmap m JOIN samples s ON s.result_id = m.old;
INSERT INTO pending (run_id, target, since, tries, document)
  SELECT 1 + u.i, p.target, p.since, 0, replace(p.document, r.uuid, u.uuid)
  FROM pending p, runs r, u WHERE p.run_id = 1 AND r.id = 1;
COMMIT;
SQL
runs=$(sqlite3 spool.db "SELECT count(*) FROM pending")
samples=$(sqlite3 spool.db "SELECT count(*) FROM samples")
bytes=$(sqlite3 spool.db "SELECT sum(length(document)) FROM pending")
pg_resume

s=$(date +%s%N)
"$ukbench" push >push.out
push_ms=$(ms "$s")
on_server=$(pg_psql "SELECT count(*) FROM runs")
left=$(sqlite3 spool.db "SELECT count(*) FROM pending")
# what the server keeps of a run: its tables with their indexes and TOAST, over the runs
server_bytes=$(pg_psql "SELECT pg_total_relation_size('runs') + pg_total_relation_size('results')")
echo "server: $on_server runs in $((server_bytes / 1024)) KiB: $((server_bytes / 1024 / on_server)) KiB a run (target: at most 64 KiB; the spool keeps the samples)"
# where those bytes are: each table, its documents (TOAST) and each index, a run
echo "  a run: $(pg_psql "SELECT string_agg(n || ' ' || round(b / 1024.0 / $on_server, 1) || ' KiB', ', '
	ORDER BY b DESC) FROM (SELECT CASE WHEN c.relkind = 't' THEN 'documents' ELSE c.relname END AS n,
	pg_relation_size(c.oid) AS b FROM pg_class c WHERE c.relname IN ('runs', 'results')
	OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid IN ('runs'::regclass, 'results'::regclass))
	OR c.oid = (SELECT reltoastrelid FROM pg_class WHERE relname = 'runs')) s WHERE b > 0")"
echo "push: $runs runs waiting ($samples samples, $((bytes / 1048576)) MiB of JSON) sent in $push_ms ms: $(awk -v n="$runs" -v t="$push_ms" 'BEGIN { printf "%.1f", n / (t / 1000) }') runs/s; on the server: $on_server runs, left in the spool: $left (target: under 60000 ms)"

# 10,000 runs on the server: 9,000 more of the same results, made in SQL
"$ukbench" run --no-store -j small.json -b 0.01 --processes 2 harness.empty >/dev/null
pg_psql "CREATE TEMP TABLE d AS SELECT \$\$$(cat small.json | tr -d '\n' | sed 's/\$\$//g')\$\$::text AS doc;
	INSERT INTO runs (uuid, label, host, started, kernel_release, ukbench_version, source, duration_s,
	  interrupted, digest, nresults, document)
	  SELECT gen_random_uuid(), 'n' || g, r.host,
	    to_char(timestamp '2026-01-01' + g * interval '1 minute', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),
	    r.kernel_release, r.ukbench_version, r.source, r.duration_s, false, 'speed-' || g, r.nresults, d.doc
	  FROM generate_series(1, 9000) g, d, (SELECT * FROM runs ORDER BY id LIMIT 1) r;
	UPDATE runs n SET (kernel_version, boot_id, reference, load) =
	  (r.kernel_version, r.boot_id, r.reference, r.load)
	  FROM (SELECT * FROM runs ORDER BY id LIMIT 1) r WHERE n.label LIKE 'n%';
	INSERT INTO results (run_uuid, seq, name, benchmark, path, status, samples, mean_ns, ci95_rel,
	  median_ns, params, threads, bytes, waited, disturbed, process_means, process_ref, host, started)
	  SELECT n.uuid, x.seq, x.name, x.benchmark, x.path, x.status, x.samples,
	  x.mean_ns * (1 + 0.01 * sin(n.id)), x.ci95_rel, x.median_ns, x.params, x.threads, x.bytes,
	  x.waited, x.disturbed, x.process_means, x.process_ref, n.host, n.started
	  FROM runs n CROSS JOIN (SELECT * FROM results WHERE run_uuid = (SELECT uuid FROM runs ORDER BY id LIMIT 1)) x
	  WHERE n.label LIKE 'n%';
	ANALYZE" >/dev/null
total=$(pg_psql "SELECT count(*) FROM runs")
rows=$(pg_psql "SELECT count(*) FROM results")
: >h.ms
for i in 1 2 3 4 5; do
	s=$(date +%s%N)
	"$ukbench" history --db "$R" syscall.null/syscall >h.out
	ms "$s" >>h.ms
done
points=$(grep -c "^ *[0-9][0-9]*  20" h.out || true)
echo "history: one path (syscall.null/syscall) over $total runs ($rows result rows): $points points in $(median <h.ms) ms (median of 5; target: under 1000 ms)"
