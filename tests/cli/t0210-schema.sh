#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every JSON that ukbench writes validates against its schema in
# docs/schema (checked with Debian's python3-jsonschema), and a document
# that breaks the schema is caught.
. "$(dirname "$0")/../lib.sh"

validate=$(cd "$(dirname "$0")/.." && pwd)/schema/validate.py
tiny="--budget 0.05 --warmup 0.002 --min-samples 3 --batch 200"

test_expect_success JSONSCHEMA 'run, show, exec, env and every table as JSON: valid' '
	ukbench run $tiny --db s.db -l A --counters --json run.json time.time cpu.getcpu copy.read_zero >/dev/null &&
	ukbench run $tiny --processes 1 --db s.db -l B --json run1.json --profile time.time/vdso --profile-time 0.1 >/dev/null 2>&1 &&
	GLIBC_TUNABLES=glibc.pthread.rseq=0 ukbench run $tiny --no-store --json na.json cpu.getcpu/rseq >/dev/null &&
	ukbench show --db s.db A --format json >show.json &&
	ukbench exec --no-store -r 3 --json exec.json -- true >/dev/null &&
	"$validate" ukbench-run.schema.json run.json run1.json na.json show.json exec.json &&
	ukbench env --json >env.json &&
	"$validate" ukbench-env.schema.json env.json &&
	ukbench runs --db s.db -f json >runs.json &&
	"$validate" "ukbench-rows.schema.json#/\$defs/runs" runs.json &&
	ukbench history --db s.db -f json time.time >history.json &&
	"$validate" "ukbench-rows.schema.json#/\$defs/history" history.json &&
	ukbench compare --db s.db A B -f json >compare.json &&
	"$validate" "ukbench-rows.schema.json#/\$defs/compare" compare.json &&
	{ ukbench check -f json --duration 0.05 >check.json; test $? -le 1; } &&
	"$validate" "ukbench-rows.schema.json#/\$defs/check" check.json &&
	ukbench list --all -f json >list.json &&
	"$validate" "ukbench-rows.schema.json#/\$defs/list" list.json
'

test_expect_success JSONSCHEMA 'a document that breaks the schema is caught' '
	ukbench run $tiny --no-store --processes 1 --json r.json time.time/vdso >/dev/null &&
	jq ".results[0].status = \"fine\"" r.json >bad1.json &&
	jq "del(.host)" r.json >bad2.json &&
	jq ".results[0].stats.mean_ns = \"fast\"" r.json >bad3.json &&
	for b in bad1 bad2 bad3; do
		test_expect_code 1 "$validate" ukbench-run.schema.json $b.json >out || return 1
		grep -q "^FAILED $b.json" out || return 1
	done
'

test_done
