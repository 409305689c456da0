#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every exit status each command's --help lists (one table, src/cli/exits.c)
# is made to happen here, by what the row says causes it; a status listed
# with no way here to make it, or made here and not listed, fails.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.02 --warmup 0.002 --min-samples 3 --batch 200"

# strace injects a signal into a command as it first writes: a stop at a
# moment of the command's own choosing, not a race with a timer
prereq_STRACE() {
	have_program strace strace || return 1
	if ! strace -qq -o /dev/null true 2>/dev/null; then
		prereq_why="strace cannot trace here (ptrace is refused)"
		return 1
	fi
}

# the shim makes the clock_gettime system call a second late: check must fail
prereq_SHIM() {
	prereq_NOT_SANITIZER_SUITE || return 1
	have_program cc gcc
}

# the codes of 'ukbench $1 --help', one a line
codes() {
	ukbench "$1" --help | sed -n '/^exit status:$/,/^$/s/^  \([0-9][0-9+N]*\) .*/\1/p' | sort -u
}

# runs "$@" and says whether it exited with $want
gives() {
	want=$1
	shift
	"$@" >out 2>err
	rc=$?
	[ "$rc" = "$want" ] && return 0
	echo "'$*' exited $rc, not $want:" >&2
	tail -3 err >&2
	return 1
}

# the first write of 'ukbench $@' takes a SIGINT
interrupted() {
	# LeakSanitizer cannot run under ptrace: the sanitizer suite checks leaks elsewhere
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -qq -o /dev/null -e trace=write -e inject=write:signal=SIGINT:when=1 \
		"$UKBENCH" "$@"
}

test_expect_success 'set-up: a store, run files, a shifted and a noisy one' '
	cd "$TEST_ROOT" &&
	ukbench run $tiny --db s.db -l a --json a.json time.time >/dev/null &&
	jq "del(.uuid) | .results |= map(.samples_ns |= map(. * 2) | .process_means_ns |= map(. * 2) |
		.process_se_ns |= map(if . == null then . else . * 2 end))" a.json >slow.json &&
	jq "del(.uuid) | .results |= map(.samples_ns |= map(. * 0.5) | .process_means_ns |= map(. * 0.5) |
		.process_se_ns |= map(if . == null then . else . * 0.5 end))" a.json >fast.json &&
	jq "del(.uuid) | .results |= map(.stats.mean_ns as \$m | .process_means_ns |= (length as \$n | [range(0; \$n) | \$m * (if . % 2 == 0 then 0.6 else 1.4 end)]))" \
		a.json >noisy.json &&
	{ head -c 514 /dev/zero; printf HdrS; head -c 64 /dev/zero; } >fake.img &&
	printf "#!/bin/sh\nexec sleep 60\n" >hangs && chmod +x hangs &&
	# an emulator of the test'"'"'s own: the guest'"'"'s answer written to the second serial port
	cp "$UKB_TOP/tests/golden/runs/before-1.json" answer.json &&
	cat >answers <<-EOF &&
	#!/bin/sh
	con= ans=
	while [ \$# -gt 0 ]; do
		case \$1 in
		-version) echo "QEMU emulator version 0.0"; exit 0 ;;
		-serial) if [ -z "\$con" ]; then con=\${2#file:}; else ans=\${2#file:}; fi; shift ;;
		esac
		shift
	done
	echo "Linux version 9.9.9-test" >"\$con"
	cat $PWD/answer.json >"\$ans"
	EOF
	chmod +x answers &&
	printf "#!/bin/sh\nexit 3\n" >fails && chmod +x fails &&
	cat >late.c <<-\EOF &&
	#define _GNU_SOURCE
	#include <dlfcn.h>
	#include <stdarg.h>
	#include <sys/syscall.h>
	#include <time.h>
	long syscall(long n, ...)
	{
		static long (*real)(long, ...);
		va_list ap;
		long a[6];
		va_start(ap, n);
		for (int i = 0; i < 6; i++)
			a[i] = va_arg(ap, long);
		va_end(ap);
		if (!real)
			real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
		long r = real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
		if (n == SYS_clock_gettime && r == 0)
			((struct timespec *)a[1])->tv_sec += 1;
		return r;
	}
	EOF
	true
'

# made CMD CODE: make 'ukbench CMD' exit with CODE as its --help says it does
made() {
	case "$1:$2" in
	*:2) gives 2 ukbench "$1" --no-such-option && grep -q "unknown option" err ;;
	*:128+N)
		if [ "$1" = vm ] && ! test_have_prereq GUEST; then
			echo "skipped: vm interrupted ($prereq_why)"
		elif [ "$1" = vm ]; then
			# a guest that never answers, and a TERM while vm waits for it
			gives 143 timeout --preserve-status -s TERM 3 "$UKBENCH" vm --no-store --qemu ./hangs \
				--accel tcg --boots 1 --timeout 60 -k fake.img syscall.null
		elif test_have_prereq STRACE; then
			case $1 in
			run) set -- run $tiny --no-store time.time ;;
			check) set -- check --duration 0.05 time ;;
			exec) set -- exec -r 2 --no-store -- true ;;
			compare | report) set -- "$1" -f markdown a.json slow.json ;;
			history | runs | show) set -- "$1" --db s.db ;;
			import) set -- import --db i2.db a.json ;;
			push) set -- push --status ;;
			fleet-init) set -- fleet-init --db postgresql://127.0.0.1:1/none ;;
			fleet-prune) set -- fleet-prune --db postgresql://127.0.0.1:1/none --before 2020-01-01 ;;
			prune) cp s.db p2.db && set -- prune --db p2.db --before 2100-01-01 ;;
			calibrate) set -- calibrate --rounds 2 -b 0.01 --no-store time.time/vdso ;;
			esac
			gives 130 interrupted "$@" && grep -q "interrupted by signal 2" err
		else
			echo "skipped: $1 interrupted ($prereq_why)"
		fi ;;
	run:0) gives 0 ukbench run $tiny --no-store time.time ;;
	run:1) gives 1 ukbench run $tiny --no-store --baseline fast.json --fail-on-regression 5 time.time ;;
	run:125) gives 125 ukbench run $tiny --no-store --baseline noisy.json --fail-on-regression 5 time.time ;;
	list:0) gives 0 ukbench list ;;
	check:0) gives 0 ukbench check --duration 0.05 time ;;
	check:1)
		if test_have_prereq SHIM; then
			cc -shared -fPIC -o late.so late.c -ldl &&
			LD_PRELOAD=$PWD/late.so gives 1 ukbench check --duration 0.05 clock_gettime &&
			grep -q FAILED out
		else
			echo "skipped: check failing ($prereq_why)"
		fi ;;
	exec:0) gives 0 ukbench exec -r 2 --no-store -- true ;;
	exec:1) gives 1 ukbench exec -r 2 --no-store -- false ;;
	exec:127) gives 127 ukbench exec -r 2 --no-store -- ./no-such-program ;;
	compare:0) gives 0 ukbench compare --db s.db a.json slow.json ;;
	compare:1) gives 1 ukbench compare --db s.db a.json slow.json --fail-on-regression 5 ;;
	compare:125) gives 125 ukbench compare --db s.db noisy.json a.json --bisect 5 ;;
	compare:128) gives 128 ukbench compare --db s.db a.json missing.json --bisect 5 ;;
	report:0) gives 0 ukbench report -f markdown -o r.md a.json slow.json ;;
	history:0) gives 0 ukbench history --db s.db ;;
	runs:0) gives 0 ukbench runs --db s.db ;;
	show:0) gives 0 ukbench show --db s.db a ;;
	import:0) gives 0 ukbench import --db i.db a.json ;;
	push:0) UKBENCH_SPOOL=$PWD/empty-spool.db gives 0 ukbench push ;;
	push:1)
		UKBENCH_SPOOL=$PWD/spool.db ukbench run $tiny --db postgresql://127.0.0.1:1/none \
			time.time/vdso >/dev/null 2>&1
		UKBENCH_SPOOL=$PWD/spool.db gives 1 ukbench push ;;
	fleet-init:0)
		if test_have_prereq POSTGRES; then
			gives 0 ukbench fleet-init --db "$(pg_uri)"
		else
			echo "skipped: fleet-init made ($prereq_why)"
		fi ;;
	fleet-init:1) gives 1 ukbench fleet-init --db postgresql://127.0.0.1:1/none ;;
	fleet-prune:0)
		if test_have_prereq POSTGRES; then
			ukbench fleet-init --db "$(pg_uri)" >/dev/null &&
			gives 0 ukbench fleet-prune --db "$(pg_uri)" --before 2020-01-01 &&
			grep -q "^pruned 0 runs started before 2020-01-01$" out
		else
			echo "skipped: fleet-prune pruned ($prereq_why)"
		fi ;;
	fleet-prune:1) gives 1 ukbench fleet-prune --db postgresql://127.0.0.1:1/none --before 2020-01-01 ;;
	prune:0)
		cp s.db p0.db &&
		gives 0 ukbench prune --db p0.db --before 2100-01-01 &&
		grep -q "^pruned [1-9][0-9]* runs* started before 2100-01-01" out ;;
	# --busy: stored on a loaded machine too, marked so
	calibrate:0) gives 0 ukbench calibrate --busy --rounds 2 -b 0.01 --db c.db time.time/vdso ;;
	env:0) gives 0 ukbench env ;;
	vdso:0)
		if test_have_prereq VDSO; then
			gives 0 ukbench vdso
		else
			echo "skipped: vdso printed ($prereq_why)"
		fi ;;
	vm:0)
		if test_have_prereq GUEST; then
			gives 0 ukbench vm --no-store --qemu ./answers --accel tcg --boots 1 -k fake.img syscall.null
		else
			echo "skipped: vm measured ($prereq_why)"
		fi ;;
	vm:1) test_have_prereq GUEST || { echo "skipped: vm failing ($prereq_why)"; return 0; }
		gives 1 ukbench vm --no-store --qemu ./fails --accel tcg --boots 1 -k fake.img syscall.null ;;
	# the shared "1": an output that refuses the write
	*:1)
		case $1 in
		list | env | vdso) set -- "$1" ;;
		history | runs | show) set -- "$1" --db s.db ;;
		import) set -- import --db i3.db a.json ;;
		prune) cp s.db p1.db && set -- prune --db p1.db --before 2100-01-01 ;;
		compare) set -- compare a.json slow.json ;;
		report) set -- report -f markdown a.json slow.json -o - ;;
		calibrate) set -- calibrate --rounds 2 -b 0.01 --no-store time.time/vdso ;;
		*) echo "no way here to make '$1' exit 1" >&2; return 1 ;;
		esac
		ukbench "$@" >/dev/full 2>err
		rc=$?
		[ $rc = 1 ] && grep -q "No space left on device" err ||
			{ echo "'ukbench $* >/dev/full' exited $rc, not 1" >&2; cat err >&2; false; } ;;
	*)
		echo "no way here to make '$1' exit $2: add one, or the row is not true" >&2
		return 1 ;;
	esac
}

. "$(cd "$(dirname "$0")/.." && pwd)/fleet/pg.sh"
prereq_POSTGRES() {
	if [ -z "$PGDIR" ]; then
		prereq_why="no PostgreSQL server started here (postgresql-15)"
		return 1
	fi
}
trap 'pg_stop' EXIT
if pg_bindir >/dev/null && { [ "$(id -u)" != 0 ] || id postgres >/dev/null 2>&1; }; then
	PG_NOSYNC=1 pg_start >"$TEST_ROOT/pg-start.log" 2>&1 || PGDIR=
else
	PGDIR=
fi

for cmd in $(ukbench --help | sed -n "/^commands:/,/^$/s/^   \([a-z-]*\) .*/\1/p"); do
	test_expect_success "$cmd: every exit status its --help lists, made to happen" '
		cd "$TEST_ROOT" &&
		list=$(codes '"$cmd"') &&
		test -n "$list" &&
		for code in $list; do
			made '"$cmd"' "$code" || return 1
		done &&
		ukbench '"$cmd"' --help | grep -q "^  128+N  stopped by signal N" &&
		{ ! test_have_prereq GROFF ||
			groff -man -Tascii -rLL=80n "${UKB_BUILD:-$(dirname "$UKBENCH")}/man/ukbench-'"$cmd"'.1" 2>/dev/null |
			sed "s/.\x08//g" | sed -n "/^EXIT STATUS/,/^[A-Z]/p" >man.txt; } &&
		{ ! test_have_prereq GROFF || for code in $list; do
			grep -q "^       $code " man.txt || grep -q "^       $code$" man.txt ||
				{ echo "man page of '"$cmd"' lacks $code"; return 1; }
		done; }
	'
done

test_expect_success 'old spellings work with a note; the new ones without' '
	cd "$TEST_ROOT" &&
	ukbench run $tiny --no-store --runs 1 time.time/vdso >out 2>err &&
	grep -q "^note: --runs is the old spelling of --processes$" err &&
	ukbench run $tiny --no-store --processes 1 time.time/vdso >out 2>err &&
	! grep -q "old spelling" err &&
	ukbench runs --db s.db -l a >out 2>err &&
	grep -q "^note: -l is the old spelling of --with-label in .ukbench runs.$" err &&
	ukbench runs --db s.db --label a >out 2>err &&
	grep -q "^note: --label is the old spelling of --with-label$" err &&
	ukbench runs --db s.db --with-label a >out2 2>err &&
	cmp out out2 &&
	ukbench exec -r 1 --runs 2 --no-store -- true >out 2>err &&
	grep -q "^note: --runs is the old spelling of --repeat$" err &&
	ukbench vm --kernel /nonexistent 2>err;
	grep -q "^note: --kernel is the old spelling of --image$" err &&
	ukbench vm --help >out &&
	grep -q "^  -k, --image IMAGE" out &&
	grep -q "^      --kernel  *now --image$" out
'

test_expect_success 'a label names the runs of its latest boot in show and runs --delete' '
	ukbench run $tiny --db l.db -l two time.time/vdso >/dev/null &&
	ukbench run $tiny --db l.db -l two time.time/vdso >/dev/null &&
	ukbench show --db l.db two >out 2>err &&
	grep -q "^note: .two. (2 runs of one boot pooled): #2, #1$" err &&
	sqlite3 l.db "UPDATE runs SET environment = json_set(environment, '"'"'$.boot_id'"'"', '"'"'an-earlier-boot'"'"') WHERE id = 1" &&
	ukbench show --db l.db two >out 2>err &&
	! grep -q "pooled" err &&
	test_expect_code 2 ukbench runs --db l.db --delete two --with-label two 2>err &&
	grep -q "RUN... or the filters, not both" err &&
	ukbench runs --db l.db --delete two >out 2>err &&
	grep -q "^note: label .two. names the 1 run of its latest boot; 1 more on other boots stay" err &&
	test "$(sqlite3 l.db "SELECT count(*) FROM runs")" = 1 &&
	ukbench runs --db l.db --delete --with-label "t*" >out &&
	test "$(sqlite3 l.db "SELECT count(*) FROM runs")" = 0
'

test_done
