# SPDX-License-Identifier: GPL-2.0-or-later
#
# lib.sh - a small test library for ukbench's CLI tests, after git's t/.
#
#   . "$(dirname "$0")/../lib.sh"
#   test_expect_success 'what it checks' '
#       ukbench run --json out.json harness.empty &&
#       jq -e ".results | length == 1" out.json
#   '
#   test_done
#
# Each test runs in a subshell in a fresh scratch directory; its output is
# kept and shown only when it fails. Results are printed as TAP lines.
# UKBENCH names the binary under test (default: build/ukbench).

set -u
: "${UKBENCH:=$(cd "$(dirname "$0")/../.." && pwd)/build/ukbench}"
export UKBENCH
TEST_ROOT=$(mktemp -d "${TMPDIR:-/tmp}/ukbench-test.XXXXXX")
# every test stores into its own scratch database, never the user's
XDG_DATA_HOME="$TEST_ROOT/data"
export XDG_DATA_HOME
unset UKBENCH_DB
test_count=0
test_failed=0

ukbench() {
	"$UKBENCH" "$@"
}

test_expect_success() {
	test_count=$((test_count + 1))
	dir="$TEST_ROOT/$test_count"
	mkdir -p "$dir"
	if (cd "$dir" && eval "$2") >"$dir/.log" 2>&1; then
		echo "ok $test_count - $1"
	else
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$dir/.log" | tail -40
		test_failed=$((test_failed + 1))
	fi
}

test_skip() {
	test_count=$((test_count + 1))
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

test_done() {
	echo "1..$test_count"
	rm -rf "$TEST_ROOT"
	[ "$test_failed" = 0 ]
}
