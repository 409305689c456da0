#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The command itself: help, version, unknown commands.
. "$(dirname "$0")/../lib.sh"

test_expect_success 'no command: usage on stderr, exit 2' '
	test_expect_code 2 ukbench 2>err &&
	grep -q "usage: ukbench" err
'

test_expect_success '--help lists every command' '
	ukbench --help >out &&
	grep -q "^   run " out && grep -q "^   list " out && grep -q "^   env " out
'

test_expect_success '--version names the version' '
	ukbench --version >out &&
	grep -Eq "^ukbench [0-9]+\.[0-9]+\.[0-9]+" out
'

test_expect_success 'unknown command: error, exit 2' '
	test_expect_code 2 ukbench frobnicate 2>err &&
	grep -q "error: .frobnicate. is not a ukbench command" err
'

for cmd in run list env; do
	test_expect_success "$cmd --help teaches, with examples where it takes patterns" "
		ukbench $cmd --help >out &&
		grep -q 'usage: ukbench $cmd' out &&
		{ [ $cmd = env ] || grep -q 'examples:' out; }
	"
	test_expect_success "help $cmd is $cmd --help" "
		ukbench help $cmd >a && ukbench $cmd --help >b && cmp a b
	"
done

# 80 columns of characters (UTF-8 sequences), as a terminal shows them
test_expect_success 'every help fits 80 columns' '
	ukbench --help >top &&
	cmds=$(sed -n "s/^   \([a-z][a-z-]*\) .*/\1/p" top) &&
	test "$(echo $cmds | wc -w)" -ge 18 &&
	for c in "" $cmds; do
		ukbench $c --help >h || return 1
		perl -CSD -ne "chomp; if (length > 80) { print \"$c: \$_\\n\"; \$bad = 1 }
			END { exit \$bad }" h || return 1
		# each exit status a row of its own, said once
		sed -n "/^exit status:\$/,/^\$/s/^  \([0-9][0-9+N]*\) .*/\1/p" h | sort >codes &&
		test -s codes || [ -z "$c" ] || return 1
		test -z "$(uniq -d codes)" || { echo "$c: $(uniq -d codes) listed twice"; return 1; }
	done
'

test_expect_success 'env prints the kernel and the vDSO' '
	ukbench env >out &&
	grep -q "^kernel  *$(uname -r)" out &&
	grep -q "^vdso " out &&
	grep -q "^clocksource " out
'

test_expect_success 'env --json is JSON with the same kernel' '
	ukbench env --json >out.json &&
	jq -e --arg r "$(uname -r)" ".kernel_release == \$r" out.json &&
	jq -e ".vulnerabilities | type == \"object\"" out.json &&
	jq -e ".warnings | type == \"array\"" out.json
'

test_expect_success 'env refuses arguments' '
	test_expect_code 2 ukbench env extra 2>err &&
	grep -q "takes no arguments" err
'

test_done
