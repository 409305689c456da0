#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Ctrl-C: the run stops cleanly, says so, keeps what it measured, exits 130.
. "$(dirname "$0")/../lib.sh"

test_expect_success 'SIGINT stops the run: exit 130, message, partial JSON' '
	"$UKBENCH" run --budget 30 --precision 0.001 --json r.json time >out 2>err &
	pid=$! &&
	sleep 1 &&
	kill -INT $pid
	wait $pid; rc=$?
	test "$rc" = 130 &&
	grep -q "interrupted by signal 2" err &&
	jq -e ".interrupted == true" r.json &&
	jq -e "[.results[] | select(.status == \"interrupted\")] | length == 1" r.json &&
	jq -e ".results | length < 40" r.json &&
	grep -q "1 interrupted" out
'

# The default action of SIGTERM also exits 143: the message and the
# partial JSON are what only the handler gives.
test_expect_success 'SIGTERM stops it too, exit 143, says so, keeps the JSON' '
	"$UKBENCH" run --budget 30 --precision 0.001 --json r.json time >out 2>err &
	pid=$! &&
	sleep 0.5 &&
	kill -TERM $pid
	wait $pid; rc=$?
	test "$rc" = 143 &&
	grep -q "interrupted by signal 15" err &&
	jq -e ".interrupted == true" r.json &&
	test_tmpdir_empty
'

test_done
