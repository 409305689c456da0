#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Faults from below: an allocation that fails, at a sample of the places
# each command allocates (tests/faults/alloc.sh sweeps them all by hand).
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)

test_expect_success FAILALLOC 'a failed allocation: no crash, an error line, exit 1, the store whole' '
	"$top/tests/faults/alloc.sh" -n 10 >out 2>&1
	rc=$?
	cat out &&
	test "$rc" = 0 &&
	grep -Eq "^alloc: [0-9]+ trials, 0 crashed, 0 silent, 0 refused, 0 damaged$" out &&
	# every command was tried, and some trials did fail an allocation
	test "$(grep -Ec "^(run|import|compare|history|report|show) .* [0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +0 +0 +0$" out)" = 6 &&
	awk "/^(run|import|compare) / && \$(NF-4) > 0 { n++ } END { exit n != 3 }" out
'

test_done
