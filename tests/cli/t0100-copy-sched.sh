#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copy paths and scheduler messaging: figures, error counting, limits,
# and cleanup after every kind of failure.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.01 --warmup 0.002 --min-samples 3 --batch 200 --no-store"
small_hb="-P groups=1,fds=4,loops=20"

test_expect_success 'copy: every benchmark, sizes and the page-touching variant' '
	ukbench run $tiny --size 1k,10k --flags 0,touch --json c.json copy >out &&
	jq -r "[.results[] | \"\(.name)/\(.path)\"] | join(\" \")" c.json >names &&
	test "$(cat names)" = "copy.read_zero.1k/read copy.read_zero.1k_touch/read copy.read_zero.10k/read copy.read_zero.10k_touch/read copy.pread_zero.1k/pread copy.pread_zero.1k_touch/pread copy.pread_zero.10k/pread copy.pread_zero.10k_touch/pread copy.write_null.1k/write copy.write_null.10k/write" &&
	jq -e "all(.results[]; .status == \"ok\" and .bytes_per_call > 0 and
		((.stats.bytes_per_second - .bytes_per_call * 1e9 / .stats.mean_ns) | fabs) < 1e-6 * .stats.bytes_per_second)" c.json &&
	grep -q "^throughput:" out &&
	grep -q "^copy.read_zero.10k  *read  *10240  *[0-9.]* [kMG]B/s$" out
'

test_expect_success 'copy: a short read is counted and fails the benchmark' '
	printf "only 19 bytes here\n" >short &&
	test_expect_code 1 env UKBENCH_ZERO_DEVICE=short "$UKBENCH" run $tiny --size 1k \
		--json e.json copy.read_zero copy.pread_zero >out &&
	grep -q "^copy.read_zero.1k  *read  *FAILED  read short 1 of 1 times, first: 19 of 1024 bytes" out &&
	grep -q "^copy.pread_zero.1k  *pread  *FAILED  pread short" out &&
	jq -e "all(.results[]; .status == \"error\" and .stats == null)" e.json
'

test_expect_success 'copy: a device that is not there makes the path n/a, named' '
	env UKBENCH_ZERO_DEVICE=/nonexistent "$UKBENCH" run $tiny --size 1k copy.read_zero >out &&
	grep -q "^copy.read_zero.1k  *read  *n/a  cannot open ./nonexistent.: No such file or directory" out
'

test_expect_success 'copy: size 0 and sizes beyond the path are refused' '
	test_expect_code 2 ukbench run --size 0 copy 2>err &&
	grep -q "a size of 0 bytes measures nothing" err &&
	test_expect_code 2 ukbench run --size 2048m copy.read_zero 2>err &&
	grep -q "size 2048m is out of range for copy.read_zero" err
'

test_expect_success 'sched.messaging: every variant, parameters recorded' '
	ukbench run $tiny $small_hb --json m.json sched.messaging >out &&
	jq -e "[.results[] | .status] == [\"ok\", \"ok\", \"ok\", \"ok\"]" m.json &&
	jq -e "all(.results[]; .params == \"groups=1 fds=4 loops=20 datasize=100\" and .batch_iterations == 1)" m.json &&
	grep -q "^sched.messaging.socket_process  *run  *[0-9.]" out
'

test_expect_success 'sched.messaging: parameters checked before anything runs' '
	test_expect_code 2 ukbench run -P groups=0 sched.messaging 2>err &&
	grep -q "groups=0 is out of range for sched.messaging: 1 to 100000" err &&
	test_expect_code 2 ukbench run -P grups=3 sched.messaging 2>err &&
	grep -q "no selected benchmark has a parameter .grups." err &&
	test_expect_code 2 ukbench run -P groups=x sched.messaging 2>err &&
	grep -q "expects a whole number" err
'

test_expect_success 'sched.messaging: descriptor limit named, with what would fit' '
	test_expect_code 2 sh -c "ulimit -n 100; exec \"$UKBENCH\" run -P groups=5 sched.messaging.socket_thread" >out 2>err &&
	grep -q "5 groups of 20 in threads need 216 file descriptors, the limit (RLIMIT_NOFILE, ulimit -n) is 100: at most 2 groups fit" err &&
	test ! -s out
'

test_expect_success 'run -L: a value beyond the descriptor limit is named by its case' '
	test_expect_code 2 sh -c "ulimit -n 100; exec \"$UKBENCH\" run --no-store -P fds=2 -L groups=1,40 sched.messaging.socket_thread" >out 2>err &&
	grep -q "^error: sched.messaging.socket_thread.groups=40: 40 groups of 2 in threads need 176 file descriptors" err &&
	test ! -s out
'

# As nobody, who may not enter the checkout nor the test's directory (a
# clone under a 0700 directory): a copy of the binary in a directory of
# its own under /tmp, which anyone may enter and read.
test_expect_success 'sched.messaging: a process limit is named too (as a user)' '
	id nobody >/dev/null &&
	pub=$(mktemp -d /tmp/ukbench-pub.XXXXXX) &&
	chmod 755 "$pub" && cp "$UKBENCH" "$pub/ukbench" && chmod 755 "$pub/ukbench" &&
	{
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			prlimit --nproc=100:100 "$pub/ukbench" run --no-store -P groups=4 \
			sched.messaging.pipe_process >out 2>err
		rc=$?
		rm -rf "$pub"
		test "$rc" = 2
	} &&
	grep -q "4 groups of 20 need 160 processes, the limit (RLIMIT_NPROC, ulimit -u) is 100: at most 0 groups fit" err
'

test_expect_success PIDS_CGROUP 'a fork that fails midway: says how many started, leaves none behind' '
	cg=$PIDS_CGROUP_ROOT/ukbench-test-$$ &&
	mkdir $cg &&
	echo 12 >$cg/pids.max &&
	test_expect_code 1 sh -c "echo \$\$ >$cg/cgroup.procs; exec \"$UKBENCH\" run $tiny -P groups=1,fds=10 --json f.json sched.messaging.pipe_process sched.messaging.pipe_thread" >out &&
	grep -q "^sched.messaging.pipe_process  *run  *FAILED  started [0-9]* of 20 tasks: fork: Resource temporarily unavailable" out &&
	grep -q "^sched.messaging.pipe_thread  *run  *FAILED  started [0-9]* of 20 tasks: pthread_create" out &&
	test "$(cat $cg/cgroup.procs | wc -l)" = 0 &&
	rmdir $cg
'

test_expect_success 'Ctrl-C in the middle of hackbench: no process left' '
	test_in_session sid "$UKBENCH" run --no-store --budget 30 --precision 0.001 -P groups=4,loops=2000 \
		sched.messaging.pipe_process >out 2>err &
	pid=$!
	sid=$(test_session_id sid)
	# wait until its tasks are up: a sanitizer build starts slowly
	# seen once is enough: between two hackbench runs its tasks are gone
	test_session_reaches $sid 11 && up=1 || up=0
	kill -INT $sid
	wait $pid; rc=$?
	echo "tasks up: $up, exit $rc" &&
	test "$up" = 1 &&
	test "$rc" = 130 &&
	test_session_empty $sid 10
'

test_expect_success 'no descriptor survives a run' '
	cat >fds.sh <<-\EOF &&
	exec 3>/dev/null
	"$UKBENCH" run --budget 0.01 --min-samples 3 --no-store -P groups=1,fds=4,loops=10 \
		sched.messaging sched.pipe copy.read_zero >/dev/null &
	pid=$!
	max=0
	seen=0
	while kill -0 $pid 2>/dev/null; do
		n=$(ls /proc/$pid/fd 2>/dev/null | wc -l)
		[ "$n" -gt 0 ] && seen=$((seen + 1))
		[ "$n" -gt "$max" ] && max=$n
		sleep 0.01
	done
	wait $pid
	echo $max $seen
	EOF
	sh fds.sh >max &&
	cat max &&
	read max seen <max &&
	test "$max" -lt 40 &&
	# the run was seen with its descriptors open, not only after it ended
	test "$seen" -ge 1 && test "$max" -ge 3
'

test_expect_success 'sched.pipe: every variant, or why not' '
	ukbench run $tiny --json p.json sched.pipe >out &&
	jq -e "all(.results[]; .status == \"ok\" or (.status == \"unsupported\" and (.reason | test(\"two CPUs\"))))" p.json &&
	jq -e "[.results[] | select(.name == \"sched.pipe.process\")][0].status == \"ok\"" p.json &&
	taskset -c 0 "$UKBENCH" run $tiny sched.pipe.process_cross_cpu >out &&
	grep -q "n/a  needs two CPUs, this thread may use one" out
'

# The ping-pong partner killed mid-run: the run ends within seconds with
# the reason, never blocked on a pipe its partner can no longer write.
test_expect_success 'sched.pipe: a partner that dies ends the path with its reason' '
	test_in_session sid "$UKBENCH" run --no-store --processes 1 --budget 30 --precision 0.001 \
		sched.pipe.process >out 2>err &
	pid=$!
	sid=$(test_session_id sid)
	# the partner: the measuring process'"'"'s child that is a copy of it
	# (a short-lived child, the compiler asked for its version, is not)
	n=0 partner=
	while [ -z "$partner" ] && [ $n -lt 200 ]; do
		sleep 0.05
		n=$((n + 1))
		partner=$(pgrep -P "$sid" -x ukbench | head -1)
	done
	sleep 0.3
	kill -9 $partner
	n=0
	while kill -0 $pid 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	if kill -0 $pid 2>/dev/null; then kill -9 -$sid; echo "still running after 10 s" >&2; false; fi &&
	wait $pid; rc=$?
	echo "partner $partner, exit $rc" && cat out &&
	test -n "$partner" && test "$rc" = 1 &&
	grep -q "sched.pipe.process  *pipe  *FAILED  the token was lost after [0-9]* round trips: the partner is gone" out
'

test_expect_success 'run -L: one case a value, named by it, stored, compared with the first and across runs' '
	ukbench run --db l.db -l la --processes 2 --budget 0.2 -P fds=4,loops=10 -L groups=1,2 \
		--json la.json sched.messaging.pipe_process >out &&
	cat out &&
	jq -e "[.results[].name] == [\"sched.messaging.pipe_process.groups=1\", \"sched.messaging.pipe_process.groups=2\"]" la.json &&
	jq -e "[.results[].params] == [\"groups=1 fds=4 loops=10 datasize=100\", \"groups=2 fds=4 loops=10 datasize=100\"]" la.json &&
	grep -q "^-L groups=1,2: each value against the first, groups=1" out &&
	grep -q "^sched.messaging.pipe_process.groups=2$" out &&
	ukbench run --db l.db -l lb --processes 2 --budget 0.2 -P fds=4,loops=10 -L groups=1,2 \
		sched.messaging.pipe_process >/dev/null &&
	ukbench compare --db l.db -f json la lb >cmp.json &&
	jq -e "length == 2 and all(.[]; .settings_differ == false and .replicated)" cmp.json &&
	ukbench history --db l.db "sched.messaging.pipe_process.groups=2" >hist &&
	grep -q "^sched.messaging.pipe_process.groups=2/run on .*, 2 runs" hist
'

test_expect_success 'run -L refused: no such parameter, no values, twice, with -P of the same name, beyond its bounds' '
	test_expect_code 2 ukbench run --no-store -L groups=1,2 time.time 2>err &&
	grep -q "no selected benchmark has a parameter .groups. to scan" err &&
	test_expect_code 2 ukbench run --no-store -L groups sched.messaging 2>err &&
	grep -q "NAME=V1,V2" err &&
	test_expect_code 2 ukbench run --no-store -L groups=1 -L loops=2 sched.messaging 2>err &&
	grep -q "one parameter a run" err &&
	test_expect_code 2 ukbench run --no-store -P groups=1 -L groups=1,2 sched.messaging 2>err &&
	grep -q "both set .groups." err &&
	test_expect_code 2 ukbench run --no-store -L groups=0 sched.messaging.pipe_process 2>err &&
	grep -q "^error: -L groups=0 is out of range for sched.messaging: 1 to 100000" err &&
	for v in -1 100001 1000000000000 1e3 1x " 1"; do
		test_expect_code 2 ukbench run --no-store -L "groups=1,$v" sched.messaging.pipe_process \
			>out 2>err || return 1
		grep -q "^error: -L groups" err && test ! -s out || return 1
	done &&
	test_expect_code 2 ukbench run --no-store -L groups=1,,2 sched.messaging.pipe_process 2>err &&
	grep -q "an empty value" err &&
	test_expect_code 2 ukbench run --no-store -P loops=0 -L groups=1 sched.messaging.pipe_process 2>err &&
	grep -q "^error: -P loops=0 is out of range" err
'

test_done
