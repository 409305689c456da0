#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run --processes N: fresh processes, pooled samples, per-process means.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.02 --warmup 0.002 --min-samples 3 --batch 200"

test_expect_success '--processes 3: three process means per path, samples pooled' '
	ukbench run $tiny --processes 3 --db r.db -l A --json a.json time.time >out &&
	grep -q "each figure is the mean of 3 fresh processes" out &&
	jq -e "$JQ_DEFS all(.results[]; procs(3))" a.json &&
	jq -e "$JQ_DEFS all(.results[]; (figure | length) == .stats.n and (.samples_ns | length) >= 9)" a.json &&
	ukbench show --db r.db A --format json >shown.json &&
	jq -S "[.results[] | .process_means_ns]" a.json >x &&
	jq -S "[.results[] | .process_means_ns]" shown.json >y &&
	cmp x y
'

test_expect_success 'the CI of a --processes result is over its process means, with the floor' '
	ukbench run $tiny --processes 4 --no-store --json b.json syscall.null/syscall >/dev/null &&
	# a loaded machine may have taken one process whole: n of them, 2 to 4
	jq -e ".results[0] | (.process_means_ns | length) as \$n |
		(.process_means_ns | add / \$n) as \$m |
		([.process_means_ns[] | (. - \$m) * (. - \$m)] | add / (\$n - 1) | sqrt) as \$sd |
		(1.96 * \$sd / (\$n | sqrt)) as \$ci |
		\$n >= 2 and .floor_rel == 0.015 and .stats.ci95_ns > \$ci and
		.stats.ci95_ns >= 1.96 * 0.015 * \$m and (.stats.mean_ns - \$m | fabs) < 1e-9 * \$m" b.json
'

test_expect_success 'compare uses per-process means when both runs have them' '
	ukbench run $tiny --processes 3 --db r2.db -l A time.time >/dev/null &&
	ukbench run $tiny --processes 3 --db r2.db -l B time.time >/dev/null &&
	ukbench compare --db r2.db A B >out &&
	grep -q "^base .*, 3 processes$" out &&
	{ ! grep -q "unreplicated\|in one process on a side" out || { cat out; false; }; } &&
	ukbench run $tiny --processes 1 --db r2.db -l C time.time >/dev/null &&
	ukbench compare --db r2.db A C >out &&
	grep -q "^other .*, 1 process$" out &&
	grep -q "warning: 3 paths measured in one process on a side" out &&
	grep -q "  unreplicated$\|  no change$\|  not significant$\|  cannot tell$" out &&
	! grep -q "  improved$\|  regressed$" out
'

test_expect_success '--processes with a bad value, and no child or file left behind' '
	test_expect_code 2 ukbench run --processes 0 time.time 2>err &&
	grep -q "option .--processes. must be between 1 and 1000" err &&
	test_in_session sid "$UKBENCH" run $tiny --processes 2 --no-store harness.empty >/dev/null &&
	test_session_empty "$(cat sid)" &&
	test_tmpdir_empty
'

test_expect_success '--processes interrupted: exit 130, no worker left, nothing in TMPDIR' '
	test_in_session sid "$UKBENCH" run --budget 30 --precision 0.001 --processes 2 --no-store syscall.null/syscall >out 2>err &
	pid=$!
	sid=$(test_session_id sid)
	test_session_reaches $sid 2; up=$?
	kill -INT $sid
	wait $pid; rc=$?
	test "$up" = 0 &&
	echo "exit $rc" && cat err &&
	test "$rc" = 130 &&
	grep -q "interrupted by signal 2" err &&
	test_session_empty $sid &&
	test_tmpdir_empty
'

test_done
