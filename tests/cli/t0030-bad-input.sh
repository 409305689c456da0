#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input: a clear error, exit 2, nothing run, nothing lost.
. "$(dirname "$0")/../lib.sh"

test_expect_success 'unknown pattern: closest matches, exit 2, nothing run' '
	test_expect_code 2 ukbench run time.gettimeofdy >out 2>err &&
	grep -q "no benchmark matches .time.gettimeofdy." err &&
	grep -q "closest.*time.gettimeofday" err &&
	test ! -s out
'

for bad in "--precision abc" "--precision 0" "--precision 101" "--budget -1" \
	"--budget 1e999" "--min-samples 1" "--min-samples 2.5" "--min-samples -3" \
	"--max-samples x" "--cpu -1" "--cpu one" "--batch 0" "--warmup nan"; do
	test_expect_success "malformed or out-of-range: $bad" "
		test_expect_code 2 ukbench run $bad harness.empty >out 2>err &&
		grep -q \"^error: option '${bad%% *}'\" err &&
		test ! -s out
	"
done

test_expect_success 'min-samples above max-samples is refused' '
	test_expect_code 2 ukbench run --min-samples 50 --max-samples 10 harness.empty 2>err &&
	grep -q "above --max-samples" err
'

test_expect_success 'unknown option and missing value' '
	test_expect_code 2 ukbench run --frobnicate 2>err &&
	grep -q "unknown option .--frobnicate." err &&
	test_expect_code 2 ukbench run --budget 2>err &&
	grep -q "needs a value" err
'

test_expect_success 'a CPU that does not exist: error before anything runs' '
	test_expect_code 2 ukbench run --cpu 4095 harness.empty >out 2>err &&
	grep -q "cannot pin to CPU 4095" err &&
	test ! -s out
'

test_expect_success 'an unwritable --json path: error before anything runs' '
	test_expect_code 2 ukbench run --json /nonexistent/dir/r.json harness.empty >out 2>err &&
	grep -q "cannot write ./nonexistent/dir/r.json." err &&
	test ! -s out
'

test_expect_success 'a failed run leaves an existing JSON file untouched' '
	echo "{\"keep\": true}" >r.json &&
	cp r.json before.json &&
	test_expect_code 2 ukbench run --json r.json no.such.bench 2>err &&
	cmp r.json before.json &&
	test "$(ls | grep -c tmp)" = 0
'

test_done
