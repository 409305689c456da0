#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Counters in run, and ukbench exec.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.02 --warmup 0.002 --min-samples 3 --batch 500 --no-store"

test_expect_success 'run --counters: per call in the table and the JSON, each missing one says why' '
	ukbench run $tiny --counters --json r.json syscall.null/syscall >out &&
	grep -q "^  *per call: task-clock [0-9.]* ns context-switches" out &&
	jq -e ".results[0].counters | length == 9" r.json &&
	jq -e ".results[0].counters[] | select(.event == \"task-clock\") | .status == \"ok\" and .per_call > 0" r.json &&
	# the same unit as the wall time per call: within a factor of 5 even on
	# a machine so loaded that a batch waits as long as it runs
	jq -e ".results[0] | (.counters[] | select(.event == \"task-clock\") | .per_call) as \$t |
		(\$t / .stats.mean_ns) > 0.2 and (\$t / .stats.mean_ns) < 5" r.json &&
	jq -e "all(.results[0].counters[]; .status == \"ok\" or (.reason | test(\"^not (supported|permitted|counted)\")))" r.json &&
	jq -e "all(.results[0].counters[] | select(.status == \"ok\"); (.per_sample | length) == 0 or (.per_sample | length) >= 3)" r.json
'

test_expect_success 'counters are stored and shown again' '
	ukbench run --budget 0.02 --min-samples 3 --db c.db -l ctr -e context-switches,page-faults time.time/vdso >/dev/null &&
	test "$(sqlite3 c.db "select count(*) from counters")" = 2 &&
	ukbench show --db c.db ctr >out &&
	grep -q "per call: context-switches" out
'

test_expect_success 'an unknown event: error listing the known names, exit 2' '
	test_expect_code 2 ukbench run -e cycles,bogus time.time 2>err &&
	grep -q "unknown event .bogus.: not one of perf.s generic names" err &&
	grep -q "hint: generic names: cycles, cpu-cycles, instructions" err &&
	test_expect_code 2 ukbench exec -e nope -- true 2>err &&
	grep -q "unknown event .nope." err
'

test_expect_success 'exec: N runs, statistics, counters, stored and comparable' '
	ukbench exec --db e.db -l one -r 4 -- sh -c "for i in 1 2 3 4 5 6 7 8; do true; done" >out &&
	grep -q "^ukbench exec: .sh -c for i in 1 2 3 4 5 6 7 8; do true; done., 4 runs (1 warm-up)" out &&
	grep -q "^  wall  *[0-9.]* ms  *± " out &&
	grep -q "^  task-clock  *[0-9.]* ms" out &&
	grep -q "95% confidence interval of the mean" out &&
	ukbench exec --db e.db -l two -r 4 --json two.json -- sh -c "for i in 1 2 3 4 5 6 7 8; do true; done" >/dev/null &&
	jq -e ".results[0] | .name == \"exec.sh\" and .path == \"wall\" and (.samples_ns | length) == 4" two.json &&
	jq -e "[.results[0].counters[].event] | index(\"user-ns\") != null and index(\"max-rss-kb\") != null" two.json &&
	ukbench compare --db e.db one two >cmp &&
	grep -q "^exec.sh  *wall " cmp
'

test_expect_success 'exec -q: nothing printed, the run stored; -q -f json: the JSON alone' '
	ukbench exec --db q.db -q -l quiet -r 2 -- true >out 2>err &&
	test ! -s out && test ! -s err &&
	test "$(ukbench runs --db q.db -f json | jq "[.[] | select(.label == \"quiet\")] | length")" = 1 &&
	ukbench exec --no-store -q -r 2 -f json -- true >j.json 2>err &&
	test ! -s err &&
	jq -e ".results[0].path == \"wall\"" j.json
'

test_expect_success 'history -f json: two commands of one name are two series, each named' '
	ukbench exec --db h.db -q -r 2 -- sh -c "true" &&
	ukbench exec --db h.db -q -r 2 -- sh -c ":" &&
	ukbench history --db h.db exec.sh >text &&
	ukbench history --db h.db -f json exec.sh >h.json &&
	jq -e "length == 2 and (map(.params) | unique | length) == 2" h.json &&
	jq -r ".[].params" h.json >params &&
	while read -r p; do grep -qF "($p)" text || return 1; done <params
'

test_expect_success 'exec: counters see the children and the pages of the command' '
	ukbench exec --no-store -r 2 --json k.json -- sh -c "for i in \$(seq 30); do /bin/true; done" >/dev/null &&
	jq -e ".results[0].counters[] | select(.event == \"context-switches\") | .per_call >= 30" k.json &&
	ukbench exec --no-store -r 2 --json p.json -- dd if=/dev/zero of=/dev/null bs=64M count=1 status=none >/dev/null &&
	jq -e ".results[0].counters[] | select(.event == \"page-faults\") | .per_call >= 16000" p.json
'

test_expect_success 'exec: a failing command fails the run, unless allowed' '
	test_expect_code 1 ukbench exec --no-store -r 2 -- false >out 2>err &&
	grep -q "error: run 1 of .false. exited with status 1" err &&
	ukbench exec --no-store -r 2 --allow-failure -- false >out 2>err &&
	grep -q "exited non-zero (allowed)" out
'

test_expect_success 'exec: a command that cannot start exits 127' '
	test_expect_code 127 ukbench exec --no-store -- ./no-such-command 2>err &&
	grep -q "cannot run ..\/no-such-command.: No such file or directory" err
'

test_expect_success 'exec: a command that hangs is ended by --timeout, and says so' '
	test_expect_code 1 test_in_session sid "$UKBENCH" exec --no-store -r 1 --warmup-runs 0 --timeout 0.3 -- sh -c "sleep 30; :" >out 2>err &&
	grep -q "timed out after 0.3 s and was ended" err &&
	grep -q "1 runs timed out after 0.3 s" out &&
	test_session_empty "$(cat sid)"
'

test_expect_success 'exec: Ctrl-C ends the command and all it started, exit 130' '
	test_in_session sid "$UKBENCH" exec --no-store -r 5 -- sh -c "sleep 40 & sleep 41; :" >out 2>err &
	pid=$! &&
	sid=$(test_session_id sid)
	test_session_reaches $sid 4; up=$?
	kill -INT $sid
	wait $pid; rc=$?
	test "$up" = 0 &&
	test "$rc" = 130 &&
	grep -q "interrupted by signal 2 in run 1 of 6; nothing stored" err &&
	test_session_empty $sid
'

test_expect_success 'exec: usage errors' '
	test_expect_code 2 ukbench exec 2>err &&
	grep -q "needs a command" err &&
	test_expect_code 2 ukbench exec -r 0 -- true 2>err &&
	grep -q "option .--repeat. must be between 1" err
'

test_expect_success 'exec -c A -c B: interleaved, each against the first, stored as one run' '
	ukbench exec --db e.db -r 10 --no-counters --json ab.json \
		-c "sleep 0.01" -c "sleep 0.2" -c "sleep 0.01" >out &&
	grep -q "interleaved in a shuffled order" out &&
	# twenty times as long: no load makes a sleep of 0.2 s shorter
	grep -q "^exec.cmd2  *wall .*regressed$" out &&
	# each change is against the first command, recomputed from the
	# process means the JSON holds: what load cannot change (a stall of one
	# run of a 10 ms sleep moves its mean by any amount)
	jq -r "(.results[0].process_means_ns | add / length) as \$b |
		.results[1:][] | \"\(.name) \((.process_means_ns | add / length) / \$b * 100 - 100)\"" ab.json >want &&
	# a wide terminal prints the path on the benchmark'"'"'s line, a narrow one below
	awk "function put(n, c) { gsub(/[%*+~]/, \"\", c); print n, c }
		/^exec.cmd[23] / { put(\$1, \$5); next } /^exec.cmd[23]\$/ { name = \$1; next }
		/^  wall / && name { put(name, \$4); name = \"\" }" out >got &&
	test "$(wc -l <got)" = 2 &&
	join want got | awk "{ d = \$2 - \$3; print; if (d < -0.006 || d > 0.006) bad = 1 } END { exit bad }" &&
	jq -e "[.results[] | .name] == [\"exec.cmd1\", \"exec.cmd2\", \"exec.cmd3\"]" ab.json &&
	jq -e "all(.results[]; (.process_means_ns | length) == 10)" ab.json &&
	test_expect_code 2 ukbench exec -c "true" -- true 2>err &&
	grep -q "either with -c or after --" err &&
	test_expect_code 2 ukbench exec -c "" 2>err &&
	grep -q "needs a command" err
'

test_expect_success ':u and :k: kept in the name, the event counted or refused honestly' '
	ukbench run --no-store --processes 2 --budget 0.05 --json m.json -e task-clock:u,cycles:k,context-switches syscall.null/syscall >/dev/null &&
	jq -e "[.results[0].counters[].event] == [\"task-clock:u\", \"cycles:k\", \"context-switches\"]" m.json &&
	jq -e ".results[0].counters[0].status == \"ok\"" m.json &&
	jq -e ".results[0].counters[1] | .status == \"ok\" or (.status == \"not supported\" and (.reason | length) > 0)" m.json
'

test_expect_success LIBPFM 'the PMU event names of libpfm4: resolved, or refused naming the PMUs' '
	ukbench run --no-store --processes 2 --budget 0.05 --json p.json -e PERF_COUNT_SW_TASK_CLOCK,PERF_COUNT_HW_CPU_CYCLES:u syscall.null/syscall >/dev/null &&
	jq -e ".results[0].counters[0] | .event == \"PERF_COUNT_SW_TASK_CLOCK\" and .status == \"ok\" and .per_call > 0" p.json &&
	jq -e ".results[0].counters[1] | .event == \"PERF_COUNT_HW_CPU_CYCLES:u\" and (.status == \"ok\" or .status == \"not supported\")" p.json &&
	test_expect_code 2 "$UKBENCH" run --no-store -e NO_SUCH.EVENT syscall.null 2>err &&
	grep -q "unknown event .NO_SUCH.EVENT.: .* PMU (libpfm4, PMUs here: perf" err &&
	grep -q "hint: generic names: cycles" err
'

test_done
