#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# random.getrandom: sizes, flags, threads, the unavailable vDSO, bad input.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.01 --warmup 0.002 --min-samples 3 --batch 200 --no-store"

test_expect_success 'every size and flag set, every path' '
	ukbench run $tiny --json r.json random.getrandom --size 1,4,16,64,256,4k --flags 0,nonblock >out &&
	jq -r ".results[] | \"\(.name)/\(.path) \(.status)\"" r.json >got &&
	test "$(wc -l <got)" = 36 &&
	for s in 1 4 16 64 256 4k; do
		for f in "" _nonblock; do
			for p in vdso libc syscall; do
				grep -qx "random.getrandom.$s$f/$p ok" got || { echo "no $s$f/$p"; exit 1; }
			done
		done
	done
'

test_expect_success 'the default sizes are 4 and 256 bytes' '
	ukbench list --names random.getrandom >names &&
	test "$(cat names | tr "\n" " ")" = "random.getrandom.4/vdso random.getrandom.4/libc random.getrandom.4/syscall random.getrandom.256/vdso random.getrandom.256/libc random.getrandom.256/syscall "
'

test_expect_success 'the vDSO path is much cheaper than the system call' '
	ukbench run --no-store --budget 0.2 --json r.json random.getrandom.4 >/dev/null &&
	v=$(jq ".results[] | select(.path == \"vdso\") | .stats.median_ns" r.json) &&
	s=$(jq ".results[] | select(.path == \"syscall\") | .stats.median_ns" r.json) &&
	echo "vdso $v ns, syscall $s ns" &&
	awk -v v="$v" -v s="$s" "BEGIN { exit !(3 * v < s) }"
'

test_expect_success 'threads: 1, 2, 4 ... N and a scaling table' '
	ukbench run $tiny --threads 3 --json t.json random.getrandom_mt >out &&
	jq -r "[.results[] | .name] | unique | join(\" \")" t.json >names &&
	test "$(cat names)" = "random.getrandom_mt.4_t1 random.getrandom_mt.4_t2 random.getrandom_mt.4_t3" &&
	jq -e "all(.results[]; .status == \"ok\" and .threads >= 1)" t.json &&
	grep -q "^thread scaling" out &&
	grep -q "^random.getrandom_mt.4_t3  *vdso  *3 .*x$" out &&
	grep -q "^random.getrandom_mt.4_t1  *syscall  *1 .* 1.00x$" out
'

test_expect_success 'the default thread count is the online CPUs' '
	n=$(nproc) &&
	ukbench list --names random.getrandom_mt/vdso >names &&
	tail -1 names | grep -qx "random.getrandom_mt.4_t$n/vdso"
'

test_expect_success 'a kernel without vDSO getrandom: n/a with the reason, other paths run' '
	UKBENCH_VDSO_HIDE=getrandom ukbench run $tiny --json r.json random.getrandom >out &&
	grep -q "^random.getrandom.4  *vdso  *n/a  .getrandom. not exported" out &&
	jq -e "[.results[] | select(.path == \"vdso\") | .status] | all(. == \"unsupported\")" r.json &&
	jq -e "[.results[] | select(.path != \"vdso\") | .status] | all(. == \"ok\")" r.json &&
	UKBENCH_VDSO_HIDE=getrandom ukbench list random.getrandom >list &&
	grep -q "vdso  *n/a .*not exported" list
'

test_expect_success 'bad sizes and flags: a clear error, exit 2, nothing run' '
	test_expect_code 2 ukbench run --size 0 random.getrandom >out 2>err &&
	grep -q "a size of 0 bytes measures nothing" err && test ! -s out &&
	test_expect_code 2 ukbench run --size 64m random.getrandom >out 2>err &&
	grep -q "size 64m is out of range for random.getrandom: 1 to 33554431 bytes" err &&
	test ! -s out &&
	test_expect_code 2 ukbench run --flags random random.getrandom 2>err &&
	grep -q "unknown flags .random. for random.getrandom" err &&
	test_expect_code 2 ukbench run --size 1x random.getrandom 2>err &&
	grep -q "expects sizes like" err &&
	test_expect_code 2 ukbench run --size 16 time.time 2>err &&
	grep -q "apply to sized benchmarks" err &&
	test_expect_code 2 ukbench run --threads 0 random 2>err &&
	grep -q "option .--threads. must be between 1" err
'

test_expect_success '--processes carries sizes, flags and threads to each process' '
	ukbench run $tiny --processes 2 --size 8 --flags nonblock --threads 2 --json r.json random >/dev/null &&
	jq -r "[.results[].name] | unique | join(\" \")" r.json >names &&
	test "$(cat names)" = "random.getrandom.8_nonblock random.getrandom_mt.8_nonblock_t1 random.getrandom_mt.8_nonblock_t2" &&
	jq -e ".settings.processes == 2" r.json &&
	jq -e "$JQ_DEFS all(.results[]; procs(2))" r.json
'

test_done
