#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The output formats: CSV, KTAP, Google Benchmark JSON, JSON on stdout.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.01 --warmup 0.002 --min-samples 3 --batch 200"

test_expect_success 'csv: a header and one row per path, numbers parse' '
	ukbench run $tiny --no-store --format csv time.time harness.empty >out.csv &&
	head -1 out.csv | grep -q "^run_id,label,host,started,kernel,name,path,status,n,mean_ns," &&
	test "$(wc -l <out.csv)" = 5 &&
	awk -F, "NR > 1 && \$8 == \"ok\" && !(\$10 > 0) { exit 1 }" out.csv &&
	grep -q ",time.time,syscall,ok," out.csv
'

test_expect_success 'ktap: version, plan, one ok per path, figures as diagnostics' '
	ukbench run $tiny --no-store --format ktap time.gettimeofday >out.ktap &&
	head -1 out.ktap | grep -qx "KTAP version 1" &&
	grep -qx "1..3" out.ktap &&
	test "$(grep -c "^ok [1-3] time.gettimeofday/" out.ktap)" = 3 &&
	grep -q "^# time.gettimeofday/vdso: [0-9.]* ns/call ±" out.ktap &&
	! grep -v "^#" out.ktap | grep -vq "^\(KTAP version 1\|1\.\.3\|ok [1-3] .*\)$"
'

test_expect_success 'ktap: a path not available here is a SKIP' '
	ukbench run $tiny --no-store -P groups=1,fds=2,loops=5 --format ktap "*" >all.ktap &&
	n=$(ukbench list --names "*" | wc -l) &&
	grep -qx "1..$n" all.ktap &&
	test "$(grep -c "^\(not \)\{0,1\}ok " all.ktap)" = "$n" &&
	! grep -q "^not ok" all.ktap
'

test_expect_success 'gbench: context, a repetition per process, aggregates of them' '
	ukbench run $tiny --no-store --json r.json --format gbench syscall.null >g.json &&
	jq -e ".context.executable == \"ukbench\" and (.context.num_cpus > 0)" g.json &&
	n=$(jq "[.results[] | select(.path == \"syscall\") | .process_means_ns[]] | length" r.json) &&
	test "$n" -ge 4 &&
	test "$(jq "[.benchmarks[] | select(.run_name == \"syscall.null/syscall\" and .run_type == \"iteration\")] | length" g.json)" = "$n" &&
	jq -e --slurpfile r r.json "[.benchmarks[] | select(.run_name == \"syscall.null/syscall\" and .run_type == \"iteration\") | .real_time] ==
		(\$r[0].results[] | select(.path == \"syscall\") | .process_means_ns)" g.json &&
	jq -e "[.benchmarks[] | select(.run_type == \"aggregate\") | .aggregate_name] | index(\"mean\") != null" g.json &&
	jq -e "all(.benchmarks[]; .time_unit == \"ns\" and .real_time > 0 and .iterations > 0)" g.json &&
	jq -e --slurpfile r r.json "([.benchmarks[] | select(.name == \"syscall.null/syscall_mean\")][0].real_time) as \$m |
		(\$r[0].results[] | select(.path == \"syscall\") | .stats.mean_ns) as \$x | ((\$m - \$x) | fabs) < 1e-9 * \$x" g.json
'

# Google Benchmark's own compare.py (Debian's libbenchmark-tools) reads
# the repetitions as runs of the benchmark: a change of 10% is read as
# 10%; the same repetitions in another order are read as no change, with
# a U test on the repetitions of every path (what two runs of one binary
# look like to it, whatever the machine's load does to two real runs).
test_expect_success GBENCH_COMPARE 'gbench: compare.py reads a 10% change as 10%, and the same repetitions as no change' '
	ukbench run $tiny --no-store --format gbench time.time syscall.null >a.json &&
	jq ".benchmarks |= map(if .run_name == \"syscall.null/syscall\" then .real_time *= 1.1 | .cpu_time *= 1.1 else . end)" a.json >b.json &&
	/usr/bin/python3 /usr/share/benchmark/compare.py --no-color -d ab.json benchmarks a.json b.json >ab.txt 2>&1 || { cat ab.txt; return 1; }
	jq -e "[.[] | select(.name == \"syscall.null/syscall_mean\") | .measurements[0].time][0] | (. - 0.1) | fabs < 1e-9" ab.json &&
	jq -e "[.[] | select(.name == \"time.time/vdso_mean\") | .measurements[0].time][0] == 0" ab.json &&
	jq ".benchmarks |= reverse" a.json >a2.json &&
	/usr/bin/python3 /usr/share/benchmark/compare.py --no-color -d aa.json benchmarks a.json a2.json >aa.txt 2>&1 || { cat aa.txt; return 1; }
	grep OVERALL_GEOMEAN aa.txt &&
	jq -e "[.[] | select(.name == \"OVERALL_GEOMEAN\") | .measurements[0].time][0] | fabs < 1e-9" aa.json &&
	jq -e "[.[] | select(.utest.time_pvalue != null) | .utest.time_pvalue] | length == 5 and min > 0.5" aa.json
'

# compare.py's OVERALL_GEOMEAN is over every repetition row: it gives each
# path the same weight, as the change of the geometric means of the paths
# says, when each file has as many processes for every path (--processes
# N; the two files may differ). docs/formats.md says so.
test_expect_success GBENCH_COMPARE 'gbench: with --processes N, OVERALL_GEOMEAN is the paths'"'"' geomean change' '
	ukbench run $tiny --no-store --processes 3 --format gbench time.time syscall.null >a.json &&
	ukbench run $tiny --no-store --processes 4 --format gbench time.time syscall.null >b.json &&
	/usr/bin/python3 /usr/share/benchmark/compare.py --no-color -d ab.json benchmarks a.json b.json >ab.txt 2>&1 || { cat ab.txt; return 1; }
	cat >gm.jq <<-\EOF &&
	def lg(f; p): [f.benchmarks[] | select(.run_type == "iteration" and .run_name == p) | .real_time | log] | add / length;
	[$a[0].benchmarks[] | select(.run_type == "iteration") | .run_name] | unique as $p
	| ([$p[] as $x | lg($b[0]; $x) - lg($a[0]; $x)] | add / length | exp - 1)
	EOF
	want=$(jq -n --slurpfile a a.json --slurpfile b b.json -f gm.jq) &&
	got=$(jq "[.[] | select(.name == \"OVERALL_GEOMEAN\") | .measurements[0].time][0]" ab.json) &&
	echo "paths: $want, OVERALL_GEOMEAN: $got" &&
	jq -n -e "($want - $got) | fabs < 1e-9"
'

test_expect_success 'show renders a stored run in every format' '
	ukbench run $tiny --db f.db -l fmt time.time >/dev/null &&
	for f in table json csv ktap gbench lava; do
		ukbench show --db f.db fmt --format $f >out.$f || exit 1
	done &&
	test "$(grep -c "^lava-test-case ukbench\.time\.time\." out.lava)" = 3 &&
	jq -e ".label == \"fmt\" and .id == 1" out.json &&
	grep -qx "1..3" out.ktap &&
	test "$(wc -l <out.csv)" = 4 &&
	jq -e ".benchmarks | length > 3" out.gbench
'

test_expect_success 'an unknown format, and two outputs on stdout, are refused' '
	test_expect_code 2 ukbench run --format xml time.time 2>err &&
	grep -q "unknown format .xml." err &&
	test_expect_code 2 ukbench run --json - --format csv time.time 2>err &&
	grep -q "both want standard output" err
'

# a run as a fleet's server keeps it: the samples of the paths measured in
# processes left out, the batches counted (the form rec_to_json_summary() writes)
summary='.digest = "0123456789abcdef" | .results |= map(if .status == "ok" and
	((.process_means_ns // []) | length) >= 2 then (.batches = (.samples_ns | length)) |
	del(.samples_ns, .cpu_samples_ns, .ref_samples_ns, .disturbed) else . end)'

test_expect_success 'a summary shows and compares as its whole run' '
	g="$UKB_TOP/tests/golden/runs" &&
	# written again first: a file of an older ukbench lacks figures a summary keeps
	ukbench show -f json "$g/before-1.json" | jq "$summary" >b.json &&
	ukbench show -f json "$g/after-1.json" | jq "$summary" >a.json &&
	jq -e "all(.results[]; has(\"samples_ns\") | not)" b.json &&
	for f in table csv json; do
		ukbench show --wide -f $f b.json | sed "s|b.json||" >s.$f &&
		ukbench show --wide -f $f "$g/before-1.json" | sed "s|$g/before-1.json||" >w.$f || return 1
	done &&
	diff -u w.table s.table && diff -u w.csv s.csv &&
	# a summary writes what each process'"'"'s SE made (stats.within_se_ns), not each
	jq -e "[.results[] | select(.batches)] | length > 0 and
		all(.[]; (has(\"process_se_ns\") | not) and .stats.within_se_ns > 0)" s.json &&
	jq -S "del(.source, .digest) | .results |= map(del(.samples_ns, .cpu_samples_ns, .ref_samples_ns,
		.disturbed, .batches))" s.json >s.j &&
	jq -S "del(.source, .digest) | .results |= map(del(.samples_ns, .cpu_samples_ns, .ref_samples_ns,
		.disturbed, .batches) | if (.process_means_ns // []) | length >= 2
		then del(.process_se_ns) else . end)" w.json >w.j &&
	diff -u w.j s.j &&
	ukbench compare --wide -f json b.json a.json | jq -S "map(del(.base, .other))" >cs &&
	ukbench compare --wide -f json "$g/before-1.json" "$g/after-1.json" |
		jq -S "map(del(.base, .other))" >cw &&
	jq -e "length > 0" cw && diff -u cw cs
'

test_done
