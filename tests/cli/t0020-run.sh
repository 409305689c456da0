#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `ukbench run`: every benchmark with a tiny budget, the table, the JSON.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.01 --warmup 0.002 --min-samples 3 --batch 200"

test_expect_success 'every benchmark runs; the JSON holds every path and sample' '
	ukbench run $tiny -P groups=1,fds=2,loops=5 --json all.json "*" >out &&
	ukbench list --names "*" | sort >want &&
	jq -r ".results[] | \"\(.name)/\(.path)\"" all.json | sort >got &&
	cmp want got &&
	jq -e "[.results[] | select(.status == \"ok\")] | length > 40" all.json &&
	jq -e "$JQ_DEFS all(.results[] | select(.status == \"ok\");
		(figure | length) == .stats.n and .stats.n >= 3 and .batch_iterations >= 1 and
		((.disturbed // []) | length) as \$d | (\$d == 0 or \$d == (.samples_ns | length)))" all.json &&
	jq -e "all(.results[] | select(.status != \"ok\"); .reason != null and .stats == null)" all.json
'

test_expect_success 'the mean is that of the process means; with --processes 1, of the samples' '
	ukbench run $tiny --json r.json syscall.null >/dev/null &&
	jq -e "all(.results[]; (.process_means_ns | length) >= 4 and .stats.processes == (.process_means_ns | length) and
		((.process_means_ns | add / length) - .stats.mean_ns | fabs) < 1e-9 * .stats.mean_ns)" r.json &&
	jq -e "all(.results[]; (.process_se_ns | length) == (.process_means_ns | length) and .stats.within_se_ns > 0 and
		.stats.between_sd_ns > 0)" r.json &&
	jq -e "all(.results[]; .stats.min_ns <= .stats.median_ns and .stats.median_ns <= .stats.max_ns)" r.json &&
	ukbench run $tiny --processes 1 --json r1.json syscall.null >/dev/null &&
	jq -e "$JQ_DEFS all(.results[]; ((figure | add / length) - .stats.mean_ns | fabs) < 1e-6 * .stats.mean_ns and
		.stats.processes == 1 and (has(\"process_means_ns\") | not))" r1.json
'

test_expect_success 'the JSON carries schema, settings, clock, vDSO and environment' '
	ukbench run $tiny --cpu 0 --precision 2 --json r.json harness.empty >/dev/null &&
	jq -e ".schema == \"ukbench-run\" and .schema_version == 1" r.json &&
	jq -e ".settings.precision == 0.02 and .settings.cpu == 0 and .settings.min_samples == 3" r.json &&
	jq -e ".clock.id == \"CLOCK_MONOTONIC_RAW\" and .clock.resolution_ns > 0" r.json &&
	jq -e ".vdso | has(\"present\")" r.json &&
	jq -e --arg r "$(uname -r)" ".environment.kernel_release == \$r" r.json &&
	jq -e ".environment | has(\"clocksource\") and has(\"governor\") and has(\"vulnerabilities\")" r.json &&
	jq -e ".interrupted == false and .results[0].cpu == 0" r.json
'

test_expect_success 'the table: header, grouped paths, summary' '
	ukbench run $tiny time.gettimeofday >out &&
	grep -q "^benchmark  *path  *ns/call  *±CI95  *±proc  *median  *cpu ns  *calls/s  *samples" out &&
	grep -q "^time.gettimeofday  *vdso  *[0-9.]" out &&
	grep -q "^  *libc  *[0-9.]" out &&
	grep -q "^  *syscall  *[0-9.]" out &&
	grep -q "^3 paths in .*: 3 measured" out &&
	grep -q "mean of [0-9]* to [0-9]* fresh processes\|mean of [0-9]* fresh processes" out &&
	ukbench run $tiny --processes 1 time.gettimeofday >out1 &&
	grep -q "variation between" out1 && grep -q "not measured" out1
'

test_expect_success 'the vDSO is cheaper than the system call' '
	ukbench run --budget 0.2 --json r.json "time.clock_gettime.monotonic" >/dev/null &&
	v=$(jq ".results[] | select(.path == \"vdso\") | .stats.median_ns" r.json) &&
	s=$(jq ".results[] | select(.path == \"syscall\") | .stats.median_ns" r.json) &&
	echo "vdso $v ns, syscall $s ns" &&
	awk -v v="$v" -v s="$s" "BEGIN { exit !(v < s) }"
'

test_expect_success '--quiet prints nothing; --json - writes JSON to stdout' '
	ukbench run $tiny --quiet harness.empty >out 2>err &&
	test ! -s out && test ! -s err &&
	ukbench run $tiny --json - harness.empty >out.json 2>table &&
	jq -e ".results | length == 1" out.json &&
	grep -q "^harness.empty" table
'

test_expect_success 'no progress line when stderr is not a terminal' '
	ukbench run $tiny harness.empty >out 2>err &&
	test ! -s err
'

test_expect_success 'the default suite is what list marks, and runs' '
	ukbench list | grep -c "^\* " >n &&
	test "$(cat n)" -ge 9
'

# a path this machine lacks (clock_gettime64 outside the 32-bit ABIs)
prereq_NO_GETTIME64() {
	"$UKBENCH" run --quick --no-store -f json time.clock_gettime64.realtime/vdso 2>/dev/null |
		jq -e ".results[0].status == \"unsupported\"" >/dev/null && return 0
	prereq_why="this vDSO has clock_gettime64"
	return 1
}

# The table shows a path as soon as it and those before it have enough:
# one the machine lacks (clock_gettime64 outside the 32-bit ABIs) ends with
# the first process, and its row is out while the path after it still
# measures for its budget.
test_expect_success NO_GETTIME64 'rows appear as the paths end, in the plan'"'"'s order' '
	"$UKBENCH" run --no-store -b 4 time.clock_gettime64.realtime/vdso time.time/syscall >out &
	pid=$! &&
	n=0 &&
	while ! grep -q "^time.clock_gettime64.realtime  *vdso  *n/a" out && [ $n -lt 400 ]; do
		sleep 0.05; n=$((n + 1))
	done &&
	kill -0 $pid &&
	! grep -q "^time.time " out &&
	wait $pid &&
	cat out &&
	first=$(grep -n "^time.clock_gettime64.realtime " out | cut -d: -f1) &&
	second=$(grep -n "^time.time " out | cut -d: -f1) &&
	test "$first" -lt "$second"
'

test_done
