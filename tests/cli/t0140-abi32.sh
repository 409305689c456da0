#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run --abi 32|both: the i386 vDSO and compat system calls beside the
# native figures.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.01 --warmup 0.002 --min-samples 3 --batch 200 --no-store"

test_expect_success RUNS_32BIT '--abi both: every path twice, the 32-bit ones marked @32' '
	ukbench run $tiny --abi both --json r.json time.gettimeofday syscall.null >out &&
	jq -r "[.results[] | .path] | join(\" \")" r.json >paths &&
	test "$(cat paths)" = "vdso libc syscall syscall libc vdso@32 libc@32 syscall@32 syscall@32 libc@32" &&
	jq -e "all(.results[]; .status == \"ok\" and .stats.mean_ns > 0)" r.json &&
	grep -q "^time.gettimeofday  *vdso@32  *[0-9.]" out
'

test_expect_success RUNS_32BIT 'clock_gettime64: the i386 vDSO has it, the native ABI says why not' '
	ukbench run $tiny --abi both --json r.json time.clock_gettime64.monotonic >out &&
	jq -e ".results[] | select(.path == \"vdso@32\") | .status == \"ok\"" r.json &&
	jq -e ".results[] | select(.path == \"vdso\") | .status == \"unsupported\" and (.reason | test(\"clock_gettime64\"))" r.json
'

test_expect_success RUNS_32BIT '--abi 32 only, stored; sized and threaded variants measured too' '
	ukbench run --budget 0.01 --min-samples 3 --db a.db -l a32 --abi 32 --size 4 --threads 2 \
		time.time random.getrandom random.getrandom_mt >out &&
	ukbench show --db a.db a32 --format json >s.json &&
	jq -e "[.results[] | .path] | all(endswith(\"@32\"))" s.json &&
	jq -e "[.results[] | select(.name == \"random.getrandom.4\" and .path == \"libc@32\")][0] |
		.status == \"ok\" and .stats.mean_ns > 0" s.json &&
	jq -e "[.results[] | select(.name == \"random.getrandom_mt.4_t2\" and .path == \"syscall@32\")][0] |
		.status == \"ok\" and .threads == 2" s.json &&
	jq -e "all(.results[]; .status == \"ok\" or (.status == \"unsupported\" and (.reason | test(\"not found in this vDSO\"))))" s.json
'

test_expect_success RUNS_32BIT '--abi both --processes 2: process means on both ABIs' '
	ukbench run $tiny --abi both --processes 2 --json r.json time.time/vdso >out &&
	jq -e "[.results[] | .path] == [\"vdso\", \"vdso@32\"]" r.json &&
	jq -e "$JQ_DEFS all(.results[]; procs(2))" r.json
'

# A kernel built without IA32 emulation, or booted with ia32_emulation=0,
# answers ENOEXEC to the helper: a program of another format stands in.
test_expect_success 'a kernel that refuses 32-bit programs: @32 rows n/a, exit 0' '
	printf "\\177ELF garbage, not a program\\n" >not-a-program &&
	chmod +x not-a-program &&
	UKBENCH_ABI32=$PWD/not-a-program ukbench run $tiny --abi both --json r.json time.time >out &&
	jq -e "[.results[] | select(.path | endswith(\"@32\"))] | length == 3 and
	all(.status == \"unsupported\" and (.reason | test(\"cannot run 32-bit programs\")))" r.json &&
	jq -e "[.results[] | select(.path | endswith(\"@32\") | not)] | all(.status == \"ok\")" r.json &&
	grep -q "^time.time  *vdso@32  *n/a  this kernel cannot run 32-bit programs" out
'

test_expect_success '--abi 32 without the helper is a usage error that says what to install' '
	test_expect_code 2 env UKBENCH_ABI32=$PWD/absent "$UKBENCH" run --abi 32 time.time 2>err &&
	grep -q "libc6-dev-i386-cross" err
'

test_expect_success '--abi takes 64, 32 or both' '
	test_expect_code 2 ukbench run --abi 16 time.time 2>err &&
	grep -q "takes 64, 32 or both" err
'

test_done
