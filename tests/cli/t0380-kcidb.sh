#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --format kcidb: a run, a comparison with each verdict and a history as
# KCIDB I/O documents, each valid by KCIDB's own schema (v5.3, kept in
# tests/schema/kcidb), the figures those of the JSON beside them.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.02 --warmup 0.002 --min-samples 3 --batch 200"
valid="$UKB_TOP/tests/schema/kcidb-validate.py"

test_expect_success JSONSCHEMA 'run: a test a path, DONE with its mean in seconds, SKIP with why' '
	GLIBC_TUNABLES=glibc.pthread.rseq=0 ukbench run $tiny --no-store -j r.json -f kcidb \
		time.time cpu.getcpu/rseq >k.json &&
	"$valid" k.json &&
	jq -e ".version == {major: 5, minor: 3} and (.checkouts | length) == 1 and (.builds | length) == 1" k.json &&
	test "$(jq ".tests | length" k.json)" = "$(jq ".results | length" r.json)" &&
	jq -e --slurpfile r r.json "[.tests[] | select(.status == \"DONE\")] | length == 3 and
		all(.[]; .path | test(\"^ukbench[.]time[.]time[.](vdso|syscall|libc)$\")) and
		all(.[]; .misc.run == \$r[0].uuid and .number.unit == \"s\" and .number.prefix == \"metric\")" k.json &&
	for p in vdso syscall libc; do
		jq -e --slurpfile r r.json --arg p $p "(.tests[] | select(.path == \"ukbench.time.time.\" + \$p) | .number.value) as \$v |
			(\$r[0].results[] | select(.name == \"time.time\" and .path == \$p) | .stats.mean_ns) as \$m |
			((\$v / (\$m * 1e-9)) - 1 | fabs) < 1e-12" k.json || return 1
	done &&
	jq -e ".tests[] | select(.path == \"ukbench.cpu.getcpu.rseq\") | .status == \"SKIP\" and (.comment | length > 0) and (has(\"number\") | not)" k.json &&
	jq -e --slurpfile r r.json ".builds[0].architecture == \"x86_64\" or (\$r[0].environment.machine != \"x86_64\")" k.json &&
	jq -e --slurpfile r r.json ".checkouts[0].id == \"ukbench:\" + \$r[0].environment.kernel_release" k.json
'

test_expect_success JSONSCHEMA 'origin and checkout from options; a bad origin is refused, nothing run' '
	h=0123456789abcdef0123456789abcdef01234567 &&
	ukbench run $tiny --no-store -f kcidb --kcidb-origin my_lab --kcidb-checkout $h time.time/vdso >k.json &&
	"$valid" k.json &&
	jq -e --arg h $h ".checkouts[0].id == \"my_lab:\" + \$h and .checkouts[0].git_commit_hash == \$h and
		all(.tests[]; .origin == \"my_lab\" and (.id | startswith(\"my_lab:\")))
		and .builds[0].checkout_id == .checkouts[0].id" k.json &&
	ukbench run $tiny --no-store -f kcidb --kcidb-checkout v6.18-rc3 time.time/vdso >k2.json &&
	jq -e ".checkouts[0].id == \"ukbench:v6.18-rc3\" and (.checkouts[0] | has(\"git_commit_hash\") | not)" k2.json &&
	test_expect_code 2 ukbench run --no-store -f kcidb --kcidb-origin My-Lab time.time >out 2>err &&
	grep -q "^error: --kcidb-origin .My-Lab.: KCIDB takes an origin of lower-case letters, digits and ._." err &&
	test ! -s out &&
	test_expect_code 2 ukbench show --kcidb-checkout "" 2>err &&
	grep -q "kcidb-checkout: an id of one line, not empty" err
'

test_expect_success JSONSCHEMA 'show: any name a legal path, any label kept whole; one id a result' '
	ukbench run $tiny --no-store -j r.json time.time >/dev/null &&
	jq ".results[0].name = \"a b..c\\\"d\" | .results[1].path = \"é/x\"" r.json >odd.json &&
	ukbench import --db s.db --label "$(printf "x\"y\\\\z\001\tq")" odd.json >/dev/null &&
	ukbench show --db s.db -f kcidb >k.json &&
	"$valid" k.json &&
	ukbench show --db s.db -f json >j.json &&
	jq -e --slurpfile j j.json ".tests[0].misc.label == \$j[0].label and
		(\$j[0].label | test(\"^x\\\"y.*q\$\") and contains(\"\\u0001\"))" k.json &&
	jq -e "[.tests[].path] | .[0] == \"ukbench.a_b._.c_d.vdso\" and .[1] == \"ukbench.time.time.___x\"" k.json &&
	jq -e "[.tests[].id] | length == (unique | length)" k.json
'

test_expect_success JSONSCHEMA 'setup: known figures for the comparisons' '
	ukbench run $tiny --no-store --json measured.json time.time >/dev/null &&
	known_figures measured.json "$TEST_ROOT/base.json" &&
	scaled "$TEST_ROOT/base.json" 1.2 syscall >"$TEST_ROOT/slow.json" &&
	jq "del(.uuid) | .results |= map(select(.path != \"libc\"))" "$TEST_ROOT/base.json" >"$TEST_ROOT/nolibc.json"
'
base="$TEST_ROOT/base.json"
cd "$TEST_ROOT" || exit 1

test_expect_success JSONSCHEMA 'compare: FAIL where it regressed, PASS where the interval excludes it' '
	ukbench compare --db c.db --no-floor -f kcidb "$base" "$TEST_ROOT/slow.json" >k.json &&
	"$valid" k.json &&
	ukbench compare --db c.db --no-floor -f json "$base" "$TEST_ROOT/slow.json" >j.json &&
	jq -e ".tests | length == 3" k.json &&
	jq -e ".tests[] | select(.path == \"ukbench.time.time.syscall\") | .status == \"FAIL\" and
		(.comment | startswith(\"regressed: +20.00% [\")) and .misc.verdict == \"regressed\"" k.json &&
	jq -e "[.tests[] | select(.path != \"ukbench.time.time.syscall\") | .status] == [\"PASS\", \"PASS\"]" k.json &&
	# the figures are the JSON rows'"'"': the number the other side'"'"'s, the change theirs
	jq -e --slurpfile j j.json "all(.tests[]; . as \$t | (\$j[0][] | select(\"ukbench.time.time.\" + .path == \$t.path)) as \$row |
		\$t.misc.change == \$row.change and \$t.misc.base_ns == \$row.base_ns and
		((\$t.number.value / (\$row.other_ns * 1e-9)) - 1 | fabs) < 1e-12 and
		((\$t.misc.other_ns / \$t.misc.base_ns - 1) - \$t.misc.change | fabs) < 1e-9)" k.json &&
	ukbench compare --db c.db --no-floor --fail-on-regression 50 -f kcidb "$base" "$TEST_ROOT/slow.json" >k50.json &&
	jq -e "[.tests[].status] == [\"PASS\", \"PASS\", \"PASS\"]" k50.json
'

test_expect_success JSONSCHEMA 'compare: DONE when it cannot tell or gives no verdict, SKIP with why' '
	ukbench compare --db c.db -f kcidb "$base" "$base" >k.json &&
	"$valid" k.json &&
	jq -e "all(.tests[]; .status == \"DONE\" and (.comment | test(\"cannot tell at 1%: the interval holds a regression of it\")))" k.json &&
	ukbench run $tiny --no-store --processes 1 -j one.json time.time >/dev/null &&
	ukbench compare --db c.db -f kcidb "$base" one.json >k1.json &&
	"$valid" k1.json &&
	jq -e "all(.tests[]; .status == \"DONE\" and (.comment | test(\"no verdict: a side was measured in one process\")))" k1.json &&
	ukbench compare --db c.db --no-floor -f kcidb "$base" "$TEST_ROOT/nolibc.json" >ks.json &&
	"$valid" ks.json &&
	jq -e ".tests[] | select(.path == \"ukbench.time.time.libc\") | .status == \"SKIP\" and (.comment | startswith(\"not compared with \")) and (has(\"number\") | not)" ks.json &&
	ukbench compare --db c.db --no-floor -f kcidb "$base" "$TEST_ROOT/slow.json" "$TEST_ROOT/nolibc.json" >k2.json &&
	"$valid" k2.json &&
	jq -e ".tests | length == 6 and ([.[].id] | unique | length) == 6" k2.json
'

test_expect_success JSONSCHEMA 'history: every point the test its run'"'"'s document names, change points under misc' '
	for i in 10 11 12 13 14 15 16 17 18 19 20 21; do
		f=1.00$((i % 3)); [ $i -ge 16 ] && f=1.15$((i % 3))
		scaled "$base" $f syscall "2026-02-${i}T00:00:00Z" >h$i.json &&
		ukbench import --db h.db h$i.json >/dev/null || return 1
	done &&
	ukbench history --db h.db -f kcidb time.time/syscall >k.json &&
	"$valid" k.json &&
	jq -e ".tests | length == 12 and all(.[]; .status == \"DONE\")" k.json &&
	jq -e "[.tests[] | select(.misc.change_point)] | length == 1 and .[0].start_time == \"2026-02-16T00:00:00Z\" and .[0].misc.step > 0.1" k.json &&
	ukbench show --db h.db -f kcidb 7 >run5.json &&
	jq -e --slurpfile h k.json ".tests[] | select(.path == \"ukbench.time.time.syscall\") | . as \$t |
		(\$h[0].tests[] | select(.id == \$t.id)) | .build_id == \$t.build_id and .number == \$t.number" run5.json
'

test_done
