# SPDX-License-Identifier: GPL-2.0-or-later
#
# lib.sh - a small test library for ukbench's CLI tests, after git's t/.
#
#   . "$(dirname "$0")/../lib.sh"
#   test_expect_success 'what it checks' '
#       ukbench run --json out.json harness.empty &&
#       jq -e ".results | length == 1" out.json
#   '
#   test_expect_success RUNS_32BIT 'needs a kernel that runs i386 code' '...'
#   test_done
#
# Each test runs in a subshell in a fresh scratch directory, with its own
# TMPDIR and its own database; its output is kept and shown only when it
# fails. Results are printed as TAP lines.
#
# Prerequisites (git's test_have_prereq): a test may name what it needs of
# the machine, comma-separated, before its title. Each is probed once, by
# prereq_NAME below, which says why when it is absent; a missing one makes
# the test a skip with that reason, never a failure.
#
# UKBENCH names the binary under test (default: build/ukbench).

set -u
: "${UKBENCH:=$(cd "$(dirname "$0")/../.." && pwd)/build/ukbench}"
export UKBENCH
TEST_ROOT=$(mktemp -d "${TMPDIR:-/tmp}/ukbench-test.XXXXXX")
# every test stores into its own scratch database, never the user's
XDG_DATA_HOME="$TEST_ROOT/data"
export XDG_DATA_HOME
unset UKBENCH_DB UKBENCH_ABI32 UKBENCH_VDSO_HIDE NO_COLOR
# tables in their widest layout, one line a row, as the tests read them
# (t0220-width.sh sets the width it tests)
COLUMNS=1000
export COLUMNS
# jq definitions: `figure`, the samples a result's statistics are made of
# (those of undisturbed batches, where the result leaves the disturbed out:
# some are marked, the benchmark does not keep them, and two or more remain);
# `procs(n)`, a result of n processes: n process means, or fewer where a
# loaded machine disturbed every batch of a process (it gives no mean, and
# its batches stay, marked: two at least for each mean missing; under
# a load of 13 on two CPUs a 10 ms budget of random.getrandom_mt lost all
# of both processes' means, 194 of its 206 batches marked)
JQ_DEFS='def figure: .samples_ns as $s | (.disturbed // []) as $d
	| ([$d[] | select(. == 0)] | length) as $u
	| if ($d | length) > 0 and (.keeps_disturbed | not) and $u >= 2 and $u < ($d | length)
	  then [range(0; $s | length) | select($d[.] == 0) | $s[.]] else $s end;
def procs(n): (.process_means_ns | length) as $k
	| $k == n or ($k < n and ([.disturbed[]? | select(. != 0)] | length) >= 2 * (n - $k));'

test_count=0
test_failed=0
test_skipped=0

ukbench() {
	"$UKBENCH" "$@"
}

# ------------------------------------------------------------------
# Prerequisites: prereq_NAME returns 0 when the machine has it, else sets
# prereq_why and returns 1.

prereq_why=""

# the 32-bit helper was built beside the binary under test
prereq_ABI32_HELPER() {
	[ -x "$(dirname "$UKBENCH")/ukbench-abi32" ] && return 0
	prereq_why="no 32-bit helper was built (gcc-i686-linux-gnu and libc6-dev-i386-cross)"
	return 1
}

# the guest program was built beside ukbench (a static program)
prereq_GUEST() {
	[ -x "$(dirname "$UKBENCH")/ukbench-guest" ] && return 0
	prereq_why="ukbench-guest was not built (a sanitizer build, or no static libc)"
	return 1
}

# QEMU's arm64 emulator, and the guest cross-built for it
prereq_ARM64_GUEST() {
	if ! qemu-system-aarch64 -version >/dev/null 2>&1; then
		prereq_why="qemu-system-aarch64 is not installed (qemu-system-arm)"
		return 1
	fi
	[ -x "$(dirname "$UKBENCH")/ukbench-guest-aarch64" ] && return 0
	prereq_why="ukbench-guest-aarch64 was not built (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross)"
	return 1
}

# the kernel runs 32-bit programs (CONFIG_IA32_EMULATION, ia32_emulation=1)
prereq_RUNS_32BIT() {
	prereq_ABI32_HELPER || return 1
	"$(dirname "$UKBENCH")/ukbench-abi32" >/dev/null 2>&1
	case $? in
	126 | 127)
		prereq_why="this kernel does not run 32-bit programs (Exec format error)"
		return 1
		;;
	esac
	return 0
}

# this process has a vDSO (not vdso=0, not under qemu-user)
prereq_VDSO() {
	grep -q "\[vdso\]" /proc/self/maps 2>/dev/null && return 0
	prereq_why="this process has no vDSO (booted with vdso=0, or an emulator)"
	return 1
}

# Capstone: this ukbench disassembles
prereq_CAPSTONE() {
	"$UKBENCH" vdso --disasm time >/dev/null 2>&1 && return 0
	prereq_why="this ukbench cannot disassemble here (built without libcapstone-dev, or no vDSO)"
	return 1
}

# binutils for this machine: objdump, readelf, nm
prereq_BINUTILS() {
	command -v objdump >/dev/null && command -v readelf >/dev/null && command -v nm >/dev/null &&
		return 0
	prereq_why="objdump, readelf and nm (binutils) are not installed"
	return 1
}

prereq_GIT() {
	command -v git >/dev/null && return 0
	prereq_why="git is not installed"
	return 1
}

# Google Benchmark's compare.py (libbenchmark-tools) with its numpy and scipy
prereq_GBENCH_COMPARE() {
	[ -f /usr/share/benchmark/compare.py ] && /usr/bin/python3 -c "import scipy" 2>/dev/null &&
		return 0
	prereq_why="Google Benchmark's compare.py is not installed (libbenchmark-tools, python3-scipy)"
	return 1
}

# A copy of run file $1 with path $3 (samples and process means) scaled by
# $2, started at $4, a run of its own (no UUID): a change of known size.
scaled() {
	jq --argjson f "$2" --arg p "$3" --arg t "${4:-2026-01-01T00:00:00Z}" \
		'del(.uuid) | .started = $t | .results |= map(if .path == $p then (.samples_ns |= map(. * $f) |
			.process_means_ns |= map(. * $f) | .process_se_ns |= map(if . == null then . else . * $f end)) else . end)' "$1"
}

# Run file $1 with its figures replaced by quiet, known ones, to $2: 5
# processes of 10 samples per path, a 0.4% spread around 2 (vdso), 3
# (libc) and 100 ns (the others), so that a comparison is exact whatever
# the machine's noise.
known_figures() {
	jq ".results |= map(. as \$r | (if \$r.path == \"vdso\" then 2 elif \$r.path == \"libc\" then 3 else 100 end) as \$m |
		.samples_ns = [range(0; 50) | ((. % 5) * 0.002 + 1) * \$m] |
		.process_means_ns = [range(0; 5) | (. * 0.002 + 1) * \$m] |
		.process_se_ns = [range(0; 5) | 0.001 * \$m] |
		del(.cpu_samples_ns, .ref_samples_ns, .process_ref_ns, .disturbed))" "$1" >"$2"
}

# Debian's python3-jsonschema, for the schemas in docs/schema
prereq_JSONSCHEMA() {
	/usr/bin/python3 -c "import jsonschema" 2>/dev/null && return 0
	prereq_why="python3-jsonschema is not installed"
	return 1
}

# this ukbench resolves PMU event names with libpfm4
prereq_LIBPFM() {
	"$UKBENCH" run --no-store -e __probe__ harness.empty 2>&1 | grep -q "libpfm4, PMUs here" &&
		return 0
	prereq_why="this ukbench was built without libpfm4 (libpfm4-dev)"
	return 1
}

# script(1) from util-linux: a command run on a pseudo-terminal
prereq_SCRIPT() {
	command -v script >/dev/null && script -qec true /dev/null >/dev/null 2>&1 && return 0
	prereq_why="script(1) cannot run a command on a pseudo-terminal here"
	return 1
}

# programs some tests need: groff (man pages), bash, zsh (completions)
have_program() {
	command -v "$1" >/dev/null && return 0
	prereq_why="$1 is not installed${2:+ ($2)}"
	return 1
}
prereq_GROFF() { have_program groff groff-base; }
prereq_GNUPLOT() { have_program gnuplot gnuplot-nox; }

# headless Chromium starts and loads a page here
prereq_CHROMIUM() {
	have_program chromium chromium || return 1
	if ! timeout 120 chromium --headless=new --no-sandbox --disable-gpu \
		--disable-dev-shm-usage --user-data-dir="$TEST_ROOT/chromium-probe" \
		--dump-dom "data:text/html,<p>probe</p>" 2>/dev/null | grep -q probe; then
		prereq_why="chromium is installed but cannot load a page headless here"
		return 1
	fi
}
prereq_BASH() { have_program bash; }
prereq_ZSH() { have_program zsh; }

# a pids cgroup this test may create (cgroup v1 pids hierarchy or cgroup v2)
prereq_PIDS_CGROUP() {
	for d in /sys/fs/cgroup/pids /sys/fs/cgroup; do
		[ -w "$d" ] || continue
		if mkdir "$d/ukbench-probe-$$" 2>/dev/null; then
			ok=0
			[ -e "$d/ukbench-probe-$$/pids.max" ] && ok=1
			rmdir "$d/ukbench-probe-$$"
			if [ $ok = 1 ]; then
				PIDS_CGROUP_ROOT=$d
				return 0
			fi
		fi
	done
	prereq_why="cannot create a pids cgroup here (no writable pids controller)"
	return 1
}

# a small tmpfs can be mounted here (root, outside a restricted container)
prereq_TMPFS_MOUNT() {
	d=$(mktemp -d "${TMPDIR:-/tmp}/ukbench-mnt.XXXXXX")
	if mount -t tmpfs -o size=64k tmpfs "$d" 2>/dev/null; then
		umount "$d"
		rmdir "$d"
		return 0
	fi
	rmdir "$d"
	prereq_why="cannot mount a tmpfs here (not root, or not allowed)"
	return 1
}

# a seccomp filter can be installed (the helper the tests build)
prereq_SECCOMP() {
	"${UKB_BUILD:-$(dirname "$UKBENCH")}/tests/seccomp-exec" EPERM getppid -- true 2>/dev/null &&
		return 0
	prereq_why="cannot install a seccomp filter here (or tests/seccomp-exec was not built)"
	return 1
}

# the kernel reseeds its random generator when asked (root; the helper built)
prereq_RESEED() {
	"${UKB_BUILD:-$(dirname "$UKBENCH")}/tests/reseed" 0 2>/dev/null && return 0
	prereq_why="cannot make the kernel reseed (RNDRESEEDCRNG needs CAP_SYS_ADMIN)"
	return 1
}

# the suite of the normal build: what is built or booted once (a scratch
# copy of the sources, a kernel's boots) is not done again for the
# sanitizer build's, whose programs it does not exercise
prereq_NOT_SANITIZER_SUITE() {
	case ${UKB_BUILD:-} in
	*-san | *-san/)
		prereq_why="done once, by the normal build's suite"
		return 1
		;;
	esac
	return 0
}

# tests/failalloc.so replaces glibc's allocator: not ASan's, whose own comes
# first, and no other libc's
prereq_FAILALLOC() {
	prereq_NOT_SANITIZER_SUITE || return 1
	if ! ldd --version 2>&1 | grep -qi "gnu libc\|glibc"; then
		prereq_why="the allocation shim needs glibc"
		return 1
	fi
	if [ ! -e "${UKB_BUILD:-$(dirname "$UKBENCH")}/tests/failalloc.so" ]; then
		prereq_why="tests/failalloc.so was not built"
		return 1
	fi
	have_program sqlite3 sqlite3
}

# Whether every prerequisite in the comma-separated $1 holds; sets
# prereq_why to the first that does not. Results are cached per script.
test_have_prereq() {
	old_ifs=$IFS
	IFS=,
	set -- $1
	IFS=$old_ifs
	for p in "$@"; do
		eval "cached=\${prereq_cache_$p:-}"
		if [ -z "$cached" ]; then
			if ! command -v "prereq_$p" >/dev/null 2>&1; then
				echo "BUG: unknown prerequisite '$p'" >&2
				exit 1
			fi
			if "prereq_$p"; then
				cached=yes
			else
				cached="no:$prereq_why"
			fi
			eval "prereq_cache_$p=\$cached"
		fi
		if [ "$cached" != yes ]; then
			prereq_why="${cached#no:}"
			return 1
		fi
	done
	return 0
}

# ------------------------------------------------------------------
# Tests

# test_expect_success [PREREQS] TITLE BODY
test_expect_success() {
	if [ $# = 3 ]; then
		if ! test_have_prereq "$1"; then
			test_skip "$2" "missing $1: $prereq_why"
			return 0
		fi
		shift
	fi
	test_count=$((test_count + 1))
	dir="$TEST_ROOT/$test_count"
	mkdir -p "$dir/.tmp"
	if (cd "$dir" && TMPDIR="$dir/.tmp" && export TMPDIR && eval "$2") >"$dir/.log" 2>&1; then
		echo "ok $test_count - $1"
	else
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$dir/.log" | tail -40
		test_failed=$((test_failed + 1))
	fi
}

test_skip() {
	test_count=$((test_count + 1))
	test_skipped=$((test_skipped + 1))
	echo "ok $test_count - $1 # SKIP $2"
}

# Runs a command that must fail with exit status $1.
test_expect_code() {
	want=$1
	shift
	"$@"
	got=$?
	if [ "$got" != "$want" ]; then
		echo "expected exit status $want, got $got: $*" >&2
		return 1
	fi
	return 0
}

# test_expect_code_not N CMD: CMD must end with a status other than N, and
# not by a signal (a crash is never the expected failure).
test_expect_code_not() {
	bad=$1
	shift
	"$@"
	got=$?
	if [ "$got" = "$bad" ] || [ "$got" -ge 128 ]; then
		echo "unexpected exit status $got: $*" >&2
		return 1
	fi
	return 0
}

# TMPDIR holds nothing: what the tool made there was removed.
test_tmpdir_empty() {
	if [ -n "$(ls -A "$TMPDIR")" ]; then
		echo "left behind in TMPDIR:" >&2
		ls -la "$TMPDIR" >&2
		return 1
	fi
}

# ------------------------------------------------------------------
# Processes: a test starts what it watches in a session of its own and
# looks only at that session, never at the machine's process table.

# test_in_session SIDFILE COMMAND...: runs COMMAND (usually exec'd, so
# that its pid is the session id) as the leader of a new session, whose
# id is written to SIDFILE. Put it in the background with & as needed.
test_in_session() {
	sidfile=$1
	shift
	setsid -w sh -c 'echo $$ >"$0"; exec "$@"' "$sidfile" "$@"
}

# Waits up to $2 seconds (default 10) for the file $1 to exist: a run's
# temporary JSON (FILE.tmp.PID) exists once it has begun measuring.
test_wait_file() {
	n=0
	while [ ! -e "$1" ] && [ $n -lt $(( ${2:-10} * 20 )) ]; do
		sleep 0.05
		n=$((n + 1))
	done
	[ -e "$1" ] || { echo "$1 never appeared" >&2; return 1; }
}

# Waits up to $2 seconds (default 10) for process $1 to have a child: a
# worker, a hackbench task or the command exec runs has started.
test_wait_child() {
	n=0
	while [ $n -lt $(( ${2:-10} * 20 )) ]; do
		grep -qs "^PPid:[[:space:]]*$1\$" /proc/[0-9]*/status && return 0
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
		n=$((n + 1))
	done
	echo "process $1 started no child" >&2
	return 1
}

# Waits up to $3 seconds (default 10) for process $1 to have a child
# named $2 (its comm): the command exec runs has begun, so that exec is
# past its start, where a signal may still meet what its parent set.
test_wait_child_named() {
	n=0
	while [ $n -lt $(( ${3:-10} * 20 )) ]; do
		awk -v p="$1" -v c="$2" 'FNR == 1 { name = "" } /^Name:/ { name = $2 }
			/^PPid:/ && $2 == p && name == c { found = 1 } END { exit !found }' \
			/proc/[0-9]*/status 2>/dev/null && return 0
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
		n=$((n + 1))
	done
	echo "process $1 started no $2" >&2
	return 1
}

# The session id in SIDFILE, once the session has started (up to 10 s).
test_session_id() {
	n=0
	while [ ! -s "$1" ] && [ $n -lt 200 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	cat "$1"
}

# How many processes the session $1 has (zombies not yet reaped included).
test_session_count() {
	want=$1
	# one process to count them all, where procps has it: a loop of one cat
	# a process falls behind a busy machine's hackbench
	if command -v pgrep >/dev/null 2>&1; then
		c=$(pgrep -c -s "$want" 2>/dev/null)
		echo "${c:-0}"
		return
	fi
	c=0
	for s in /proc/[0-9]*/stat; do
		# the fields after "(comm) ": state ppid pgrp session ...
		line=$(cat "$s" 2>/dev/null) || continue
		set -- ${line##*") "}
		[ "${4:-}" = "$want" ] && c=$((c + 1))
	done
	echo $c
}

# The waits below wait for an event, and return the moment it happens. Their
# bounds are what a quiet machine needs, times UKB_TEST_PATIENCE (default 4:
# a machine loaded four times over), and are kept by the clock, not by a
# count of polls, which a loaded machine makes slowly. Their variables
# begin with _tw_: a caller's own (a script's deadline) stay its own.
test_deadline() {
	echo $(($(date +%s) + $1 * ${UKB_TEST_PATIENCE:-4} + 1))
}

# Waits up to $3 seconds (default 30) until the session $1 has been seen
# with at least $2 processes; 1 when it never was.
test_session_reaches() {
	_tw_end=$(test_deadline "${3:-30}")
	while [ "$(date +%s)" -le "$_tw_end" ]; do
		[ "$(test_session_count "$1")" -ge "$2" ] && return 0
		sleep 0.05
	done
	echo "session $1 never had $2 processes" >&2
	return 1
}

# Waits up to $3 seconds (default 30) for a process of the session $1
# whose command line matches the basic regular expression $2: the step a
# test means to signal has begun, not one before it that also starts a
# child (vm asks the emulator its version before it boots anything).
test_session_runs() {
	_tw_want=$1 _tw_what=$2
	_tw_end=$(test_deadline "${3:-30}")
	while [ "$(date +%s)" -le "$_tw_end" ]; do
		if command -v pgrep >/dev/null 2>&1; then
			pgrep -s "$_tw_want" -f -- "$_tw_what" >/dev/null 2>&1 && return 0
		else
			for _tw_s in /proc/[0-9]*; do
				_tw_line=$(cat "$_tw_s/stat" 2>/dev/null) || continue
				set -- ${_tw_line##*") "}
				[ "${4:-}" = "$_tw_want" ] || continue
				tr '\0' ' ' <"$_tw_s/cmdline" 2>/dev/null | grep -q -- "$_tw_what" && return 0
			done
		fi
		sleep 0.05
	done
	echo "session $_tw_want never ran a command matching '$_tw_what'" >&2
	return 1
}

# Waits up to $2 seconds (default 2) for the session $1 to be empty.
test_session_empty() {
	_tw_end=$(test_deadline "${2:-2}")
	while [ "$(test_session_count "$1")" != 0 ]; do
		if [ "$(date +%s)" -gt "$_tw_end" ]; then
			echo "session $1 still has $(test_session_count "$1") processes" >&2
			return 1
		fi
		sleep 0.05
	done
}

test_done() {
	echo "1..$test_count"
	rm -rf "$TEST_ROOT"
	[ "$test_failed" = 0 ]
}
