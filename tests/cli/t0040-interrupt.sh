#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Ctrl-C: the run stops cleanly, says so, keeps what it measured, exits 130.
. "$(dirname "$0")/../lib.sh"

# The signal comes once the run has begun (its JSON file is open); how
# far it got depends on the machine, so what is checked holds at any
# point: what was measured is kept, the rest is marked, nothing failed
# (a path this machine lacks is unsupported, as in any run).
test_expect_success 'SIGINT stops the run: exit 130, message, partial JSON' '
	"$UKBENCH" run --budget 30 --precision 0.001 --json r.json time >out 2>err &
	pid=$! &&
	test_wait_file r.json.tmp.$pid 20 &&
	kill -INT $pid
	wait $pid; rc=$?
	echo "exit $rc" && cat err &&
	test "$rc" = 130 &&
	grep -q "interrupted by signal 2 after [0-9]* of [0-9]* paths" err &&
	jq -e ".interrupted == true" r.json &&
	jq -e "all(.results[]; .status != \"error\")" r.json
'

# The default action of SIGTERM also exits 143: the message and the
# partial JSON are what only the handler gives.
test_expect_success 'SIGTERM stops it too, exit 143, says so, keeps the JSON' '
	"$UKBENCH" run --budget 30 --precision 0.001 --json r.json time >out 2>err &
	pid=$! &&
	test_wait_file r.json.tmp.$pid &&
	kill -TERM $pid
	wait $pid; rc=$?
	test "$rc" = 143 &&
	grep -q "interrupted by signal 15" err &&
	jq -e ".interrupted == true" r.json &&
	test_tmpdir_empty
'

test_done
