#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Plug-ins: the example (examples/plugin-prctl.c, built by make) listed,
# measured in fresh processes, stored with its path and build id, compared,
# a changed build said; and the plug-ins that must be refused or contained:
# another API version, a duplicate name, a file that is no shared object,
# one without the table, one whose run() follows a NULL pointer (its path
# fails with the signal, the others are measured), under either build.
. "$(dirname "$0")/../lib.sh"

build=${UKB_BUILD:-$(dirname "$UKBENCH")}
example="$build/examples/plugin-prctl.so"
tiny="--budget 0.05 --warmup 0.002 --min-samples 3 --batch 200"

prereq_EXAMPLE() {
	[ -f "$example" ] && return 0
	prereq_why="the example plug-in was not built (make tests builds it)"
	return 1
}

prereq_CC() {
	command -v cc >/dev/null && return 0
	prereq_why="no C compiler to build the test's plug-ins"
	return 1
}

# plug-in $1.so made of the C text on standard input, against include/ukbench.h
plugin() {
	cat >"$1.c" &&
	cc -std=gnu11 -O1 -shared -fPIC -I"$UKB_TOP/include" -o "$1.so" "$1.c"
}

test_expect_success EXAMPLE 'the example: listed, measured in fresh processes, stored' '
	ukbench list --plugin "$example" example >out &&
	grep -q "^  example.prctl" out &&
	grep -q "libc *available *prctl(PR_GET_NAME)" out &&
	ukbench run --db "$TEST_ROOT/p.db" -l one --plugin "$example" $tiny --processes 2 \
		example.prctl time.time >out 2>err &&
	cat out &&
	grep -q "example.prctl  *libc " out &&
	ukbench show --db "$TEST_ROOT/p.db" -f json >r.json &&
	jq -e "[.results[] | select(.name == \"example.prctl\") | .status] == [\"ok\", \"ok\"]" r.json &&
	jq -e ".settings.plugins[0].benchmarks == [\"example.prctl\"]
		and (.settings.plugins[0].build_id | length) > 10
		and (.settings.plugins[0].path | endswith(\"plugin-prctl.so\"))" r.json
'

test_expect_success EXAMPLE 'UKBENCH_PLUGIN_PATH: every .so of its directories' '
	mkdir -p dir && cp "$example" dir/ &&
	UKBENCH_PLUGIN_PATH="$PWD/dir" ukbench list example.prctl >out &&
	grep -q "example.prctl" out &&
	UKBENCH_PLUGIN_PATH="$PWD/nothing-here" test_expect_code 2 ukbench list 2>err &&
	grep -q "UKBENCH_PLUGIN_PATH: .*nothing-here" err
'

test_expect_success EXAMPLE,CC 'compare: the plug-in built anew is said' '
	sed "s/the thread.s name, a plug-in.s example/the name, rebuilt/" \
		"$UKB_TOP/examples/plugin-prctl.c" | plugin prctl2 &&
	cp prctl2.so "$TEST_ROOT/same.so" &&
	cp "$example" "$TEST_ROOT/same-before.so" &&
	cp "$TEST_ROOT/same-before.so" "$TEST_ROOT/lib.so" &&
	ukbench run --db "$TEST_ROOT/c.db" -l a --plugin "$TEST_ROOT/lib.so" $tiny --processes 2 \
		example.prctl >/dev/null 2>&1 &&
	cp "$TEST_ROOT/same.so" "$TEST_ROOT/lib.so" &&
	ukbench run --db "$TEST_ROOT/c.db" -l b --plugin "$TEST_ROOT/lib.so" $tiny --processes 2 \
		example.prctl >/dev/null 2>&1 &&
	ukbench compare --db "$TEST_ROOT/c.db" a b >cmp &&
	cat cmp &&
	grep -q "note: the plug-in .*lib.so is not the same in the two runs (build id" cmp
'

test_expect_success CC 'another API version: refused, both versions named' '
	plugin old <<-\EOF &&
	#include <ukbench.h>
	static int run(struct ukb_ctx *c, uint64_t n) { (void)c; (void)n; return 0; }
	static const struct ukb_path paths[] = { { .name = "loop", .run = run }, { NULL } };
	static const struct ukb_bench b = { .name = "old.one", .summary = "old", .paths = paths };
	__attribute__((visibility("default"))) const struct ukb_plugin ukb_plugin = {
		UKB_API_VERSION + 1, (const struct ukb_bench *const[]){ &b, NULL } };
	EOF
	test_expect_code 2 ukbench run --no-store --plugin ./old.so old.one 2>err &&
	grep -q "built against ukbench.s API version 2, this ukbench has version 1" err
'

test_expect_success CC 'a name that is taken, a file that is no shared object, no table' '
	plugin dup <<-\EOF &&
	#include <ukbench.h>
	static int run(struct ukb_ctx *c, uint64_t n) { (void)c; (void)n; return 0; }
	static const struct ukb_path paths[] = { { .name = "loop", .run = run }, { NULL } };
	static const struct ukb_bench b = { .name = "syscall.null", .summary = "x", .paths = paths };
	UKB_PLUGIN(&b);
	EOF
	test_expect_code 2 ukbench list --plugin ./dup.so 2>err &&
	grep -q "plug-in ./dup.so: .syscall.null. is taken: the built-in .syscall.null. has it" err &&
	echo "not an ELF file" >text.so &&
	test_expect_code 2 ukbench run --no-store --plugin ./text.so time.time 2>err &&
	grep -q "plug-in ./text.so cannot be loaded: " err &&
	plugin none <<-\EOF &&
	int nothing_here(void);
	int nothing_here(void) { return 0; }
	EOF
	test_expect_code 2 ukbench run --no-store --plugin ./none.so time.time 2>err &&
	grep -q "has no table of benchmarks: it must define one with UKB_PLUGIN" err &&
	test_expect_code 2 ukbench run --no-store --plugin ./absent.so time.time 2>err &&
	grep -q "absent.so: No such file" err
'

test_expect_success CC 'a run() through a NULL pointer: its path fails with the signal, the others are measured' '
	plugin crash <<-\EOF &&
	#include <ukbench.h>
	static int ok(struct ukb_ctx *c, uint64_t n) { (void)c; (void)n; return 0; }
	static int bad(struct ukb_ctx *c, uint64_t n)
	{
		volatile int *p = (volatile int *)c->priv;
		for (uint64_t i = 0; i < n; i++)
			*p = 1;
		return 0;
	}
	static const struct ukb_path paths[] = {
		{ .name = "fine", .run = ok }, { .name = "null", .run = bad }, { NULL } };
	static const struct ukb_bench b = { .name = "crash.test", .summary = "x", .paths = paths };
	UKB_PLUGIN(&b);
	EOF
	for runs in 1 2; do
		test_expect_code 1 ukbench run --no-store --plugin ./crash.so $tiny --processes $runs \
			-f json crash.test time.time >r.json 2>err || return 1
		jq -e "[.results[] | select(.path == \"null\") | .status][0] == \"error\"" r.json &&
		jq -e "[.results[] | select(.path == \"null\") | .reason][0] | test(\"killed by signal 11\")" r.json &&
		jq -e "[.results[] | select(.path == \"fine\") | .status][0] == \"ok\"" r.json &&
		jq -e "[.results[] | select(.name == \"time.time\") | .status] | all(. == \"ok\" or . == \"unsupported\")" r.json ||
		return 1
	done
'

# A path whose setup or run() never returns ends at its time limit
# (SIGALRM on the measuring thread), a row that names it; one that blocks
# the alarm is killed with its process by the deadline the parent keeps.
test_expect_success CC 'a setup or run() that never returns: its path ends at --timeout, the others are measured' '
	plugin hang <<-\EOF &&
	#include <signal.h>
	#include <ukbench.h>
	static int ok(struct ukb_ctx *c, uint64_t n) { (void)c; (void)n; return 0; }
	static int spin(struct ukb_ctx *c, uint64_t n) { (void)c; (void)n; for (;;) ; return 0; }
	static int stuck(struct ukb_ctx *c, char *w, size_t l) { (void)c; (void)w; (void)l; for (;;) ; }
	static int deaf(struct ukb_ctx *c, char *w, size_t l)
	{
		sigset_t s;
		(void)c; (void)w; (void)l;
		sigfillset(&s);
		sigprocmask(SIG_BLOCK, &s, 0);
		for (;;) ;
	}
	static const struct ukb_path paths[] = {
		{ .name = "fine", .run = ok }, { .name = "loop", .run = spin },
		{ .name = "setup", .setup = stuck, .run = ok },
		{ .name = "deaf", .setup = deaf, .run = ok }, { NULL } };
	static const struct ukb_bench b = { .name = "hang.test", .summary = "x", .paths = paths };
	UKB_PLUGIN(&b);
	EOF
	for runs in 1 2; do
		test_expect_code 1 ukbench run --no-store --plugin ./hang.so $tiny --timeout 1 \
			--processes $runs -f json hang.test/fine hang.test/loop hang.test/setup \
			time.time >r.json 2>err || { cat err; return 1; }
		for p in loop setup; do
			jq -e "[.results[] | select(.path == \"$p\")] | length == 1 and
				(.[0].status == \"error\") and
				(.[0].reason | test(\"not done within its time limit of 1 s .--timeout.\"))" r.json ||
				return 1
		done &&
		jq -e "[.results[] | select(.path == \"fine\") | .status][0] == \"ok\"" r.json &&
		jq -e "[.results[] | select(.name == \"time.time\") | .status] | all(. == \"ok\" or . == \"unsupported\")" r.json ||
		return 1
	done &&
	test_expect_code 1 ukbench run --no-store --plugin ./hang.so $tiny --timeout 1 --processes 2 \
		hang.test/fine hang.test/deaf >out 2>err &&
	cat err &&
	grep -q "error: process 1 of 2 did not end within 12 s, its paths. time limits (--timeout) and 10 s: killed" err &&
	test_expect_code 2 ukbench run --timeout 0 time.time 2>err &&
	grep -q "option .--timeout. must be between" err
'

test_expect_success CC 'a run() that prints: to standard error, the JSON on standard output whole' '
	plugin talk <<-\EOF &&
	#include <stdio.h>
	#include <ukbench.h>
	static int talk(struct ukb_ctx *c, uint64_t n)
	{
		(void)c;
		for (uint64_t i = 0; i < n; i++)
			printf("hello from run()\n");
		return 0;
	}
	static const struct ukb_path paths[] = { { .name = "talk", .run = talk }, { NULL } };
	static const struct ukb_bench b = { .name = "talk.test", .summary = "x", .paths = paths };
	UKB_PLUGIN(&b);
	EOF
	ukbench run --no-store --plugin ./talk.so $tiny --processes 2 -j - talk.test >r.json 2>err &&
	jq -e "[.results[] | select(.name == \"talk.test\") | .status] == [\"ok\"]" r.json &&
	grep -q "^hello from run()$" err
'

test_expect_success EXAMPLE,RUNS_32BIT '--abi both: the 32-bit helper loads no plug-in, and says so' '
	ukbench run --no-store --abi both --plugin "$example" $tiny -f json example.prctl >r.json 2>err &&
	grep -q "the plug-ins are not loaded in the 32-bit helper" err &&
	jq -e "[.results[] | select(.path | endswith(\"@32\")) | .status] | all(. != \"ok\")" r.json &&
	jq -e "[.results[] | select(.path == \"libc\") | .status] == [\"ok\"]" r.json
'

test_expect_success CC 'a process whose every batch was disturbed gives no process mean' '
	plugin sleepy <<-\EOF &&
	#include <fcntl.h>
	#include <stdlib.h>
	#include <sys/stat.h>
	#include <unistd.h>
	#include <ukbench.h>
	/* every other process that loads it sleeps in each call: all its batches disturbed */
	static int sleepy;
	__attribute__((constructor)) static void order(void)
	{
		const char *f = getenv("SLEEPY_COUNT");
		struct stat st;
		int fd = f ? open(f, O_WRONLY | O_APPEND | O_CREAT, 0600) : -1;

		if (fd < 0)
			return;
		if (write(fd, "x", 1) == 1 && !fstat(fd, &st))
			sleepy = st.st_size % 2 == 0;
		close(fd);
	}
	static int run(struct ukb_ctx *c, uint64_t n)
	{
		(void)c;
		for (uint64_t i = 0; i < n; i++)
			if (sleepy)
				usleep(200);
			else
				__asm__ volatile("" ::: "memory");
		return 0;
	}
	static const struct ukb_path paths[] = { { .name = "loop", .run = run }, { NULL } };
	static const struct ukb_bench b = { .name = "sleepy.loop", .summary = "sleeps in every other process", .paths = paths };
	__attribute__((visibility("default"))) const struct ukb_plugin ukb_plugin = {
		UKB_API_VERSION, (const struct ukb_bench *const[]){ &b, NULL } };
	EOF
	SLEEPY_COUNT="$PWD/count" ukbench run --no-store --plugin "$PWD/sleepy.so" \
		--budget 0.05 --warmup 0.002 --min-samples 3 --batch 20 --processes 6 \
		--json r.json sleepy.loop >out 2>err &&
	cat out &&
	test "$(wc -c <count)" -ge 7 &&
	jq -e ".results[0].status == \"ok\"" r.json &&
	jq -e "[.results[0].disturbed[] | select(. != 0)] | length > 0" r.json &&
	jq -e ".results[0].process_means_ns | length >= 2 and length <= 4" r.json &&
	jq -e ".results[0].process_means_ns | all(. < 10000)" r.json &&
	jq -e ".results[0].stats.mean_ns < 10000" r.json
'

# exit() in a plug-in's code ends its process: the worker answers with
# what it measured and the path's row, the next processes measure the
# rest; in ukbench's own process (--processes 1) the run says so, exit 1,
# never a quiet 0. _exit() cannot be answered for, and is named.
test_expect_success CC 'a plug-in that calls exit(): its path fails saying so, the others measured' '
	plugin quits <<-\EOF &&
	#include <stdlib.h>
	#include <unistd.h>
	#include <ukbench.h>
	static int quit(struct ukb_ctx *c, uint64_t n)
	{
		(void)c;
		(void)n;
		exit(3);
	}
	static int hard(struct ukb_ctx *c, uint64_t n)
	{
		(void)c;
		(void)n;
		_exit(0);
	}
	static const struct ukb_path paths[] = { { .name = "quit", .run = quit }, { NULL } };
	static const struct ukb_path hpaths[] = { { .name = "hard", .run = hard }, { NULL } };
	static const struct ukb_bench b = { .name = "quits.test", .summary = "x", .paths = paths };
	static const struct ukb_bench h = { .name = "quits.hard", .summary = "x", .paths = hpaths };
	UKB_PLUGIN(&b, &h);
	EOF
	test_expect_code 1 ukbench run --no-store --plugin ./quits.so $tiny -j r.json quits.test time.time syscall.null >out 2>err &&
	jq -e "[.results[] | select(.name == \"quits.test\")] | length == 1 and .[0].status == \"error\"
		and (.[0].reason | test(\"^the benchmark.s code called exit[(][)]: its process ended in it\"))" r.json &&
	jq -e "[.results[] | select(.name != \"quits.test\") | .status] == [\"ok\", \"ok\", \"ok\", \"ok\", \"ok\"]" r.json &&
	jq -e "all(.results[] | select(.name != \"quits.test\"); (.process_means_ns | length) >= 2)" r.json &&
	test_expect_code 1 ukbench run --no-store --plugin ./quits.so $tiny --processes 1 quits.test time.time >out 2>err &&
	grep -q "^error: quits.test/quit: the benchmark.s code called exit() while it was measured" err &&
	test_expect_code 1 ukbench run --no-store --plugin ./quits.so $tiny --processes 2 quits.hard time.time >out 2>err &&
	grep -q "without answering: a benchmark.s code ended it (_exit()" err
'

# a child that run() forks and that returns into ukbench would measure on
# and answer a second time; one that calls exit() would answer for the
# path: each ends as a child, the path measured, the table and JSON once
test_expect_success CC 'a plug-in whose forked child returns or calls exit(): measured, answered once' '
	plugin forks <<-\EOF &&
	#include <stdlib.h>
	#include <sys/wait.h>
	#include <unistd.h>
	#include <ukbench.h>
	static int child(int quit)
	{
		pid_t p = fork();

		if (p == 0 && quit)
			exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
		return p < 0 ? -1 : 0;
	}
	static int ret(struct ukb_ctx *c, uint64_t n)
	{
		(void)c;
		(void)n;
		return child(0);
	}
	static int quit(struct ukb_ctx *c, uint64_t n)
	{
		(void)c;
		(void)n;
		return child(1);
	}
	static const struct ukb_path paths[] = { { .name = "ret", .run = ret },
						 { .name = "quit", .run = quit }, { NULL } };
	static const struct ukb_bench b = { .name = "forks.child", .summary = "x", .paths = paths,
					    .flags = UKB_FIXED_BATCH };
	UKB_PLUGIN(&b);
	EOF
	for p in 1 2; do
		ukbench run --no-store --plugin ./forks.so $tiny --processes $p -j r$p.json \
			forks.child time.time >out$p 2>err$p || return 1
		jq -e "[.results[] | .status] | length == 5 and all(. == \"ok\")" r$p.json &&
		test "$(grep -c "^forks.child " out$p)" = 1 &&
		test "$(grep -c "^time.time " out$p)" = 1 &&
		# one line a measuring process, for the child that returned
		test "$(grep -c "^warning: forks.child/ret: a process its code forked returned into ukbench" err$p)" = $p &&
		! grep -q "called exit()\|not JSON" err$p || return 1
	done
'

test_done
