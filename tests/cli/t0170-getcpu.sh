#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpu.getcpu: the ways of asking "which CPU am I on?" side by side, the rseq
# area's cpu_id among them, and n/a with the reason where rseq is off.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.02 --warmup 0.002 --min-samples 3 --batch 200"

test_expect_success 'cpu.getcpu: vdso, libc, sched, rseq and syscall paths' '
	ukbench list --names cpu.getcpu >names &&
	for p in vdso libc sched rseq syscall; do
		grep -qx "cpu.getcpu/$p" names || return 1
	done
'

test_expect_success 'rseq: measured where glibc registered it, its CPU checked when pinned' '
	ukbench run $tiny --processes 1 --no-store --json r.json cpu.getcpu/rseq cpu.getcpu/syscall >out &&
	st=$(jq -r ".results[] | select(.path == \"rseq\") | .status" r.json) &&
	echo "rseq: $st" &&
	if [ "$st" = ok ]; then
		jq -e ".results[] | select(.path == \"rseq\") | .stats.mean_ns > 0" r.json &&
		ukbench run $tiny --processes 1 --no-store --cpu 0 cpu.getcpu/rseq >pinned &&
		grep -q "rseq .* [0-9]" pinned
	else
		jq -e ".results[] | select(.path == \"rseq\") | .reason | test(\"rseq\")" r.json
	fi
'

test_expect_success 'rseq turned off (glibc.pthread.rseq=0): n/a with the reason, the rest measured' '
	GLIBC_TUNABLES=glibc.pthread.rseq=0 ukbench run $tiny --processes 1 --no-store --json r.json \
		cpu.getcpu/rseq cpu.getcpu/vdso cpu.getcpu/sched >out &&
	cat out &&
	jq -e ".results[] | select(.path == \"rseq\") | .status == \"unsupported\" and (.reason | test(\"rseq is not registered\"))" r.json &&
	jq -e ".results[] | select(.path == \"sched\") | .status == \"ok\"" r.json
'

test_done
