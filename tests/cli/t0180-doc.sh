#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The man pages and the bash and zsh completions are made from the option
# tables: every option of every command is in all three, they render and
# parse, and make install puts them in place (and uninstall takes them).
. "$(dirname "$0")/../lib.sh"

build=${UKB_BUILD:-$(dirname "$UKBENCH")}
top=$(cd "$(dirname "$0")/../.." && pwd)

# the commands ukbench --help lists
commands() {
	"$UKBENCH" --help | sed -n "s/^   \([a-z][a-z0-9-]*\) .*/\1/p"
}

test_expect_success 'every option of every command: in its man page, bash and zsh' '
	test -s "$build/man/ukbench.1" &&
	n=0 &&
	for c in $(commands); do
		test -s "$build/man/ukbench-$c.1" || { echo "no man page for $c"; return 1; }
		grep -q "ukbench\\\\-$c" "$build/man/ukbench.1" || { echo "$c not in ukbench(1)"; return 1; }
		# the old spellings are taken, not offered
		for o in $("$UKBENCH" $c --help | sed "/^old spellings/,\$d" | sed -n "s/^  *\(-[a-zA-Z], \)\{0,1\}--\([a-z0-9-]*\).*/\2/p"); do
			n=$((n + 1))
			m=$(echo "$o" | sed "s/-/\\\\\\\\-/g")
			grep -q "\\\\-\\\\-$m" "$build/man/ukbench-$c.1" || { echo "$c --$o: not in the man page"; return 1; }
			grep -q -- "--$o" "$build/completion/ukbench" || { echo "$c --$o: not in bash"; return 1; }
			grep -q -- "--$o[]}[]" "$build/completion/_ukbench" || { echo "$c --$o: not in zsh"; return 1; }
		done
	done &&
	echo "$n options checked" &&
	test "$n" -gt 50
'

test_expect_success GROFF 'the man pages render without a warning' '
	for f in "$build"/man/*.1; do
		groff -man -ww -z "$f" 2>err &&
		test ! -s err || { echo "$f:"; cat err; return 1; }
	done
'

test_expect_success GROFF 'the man pages fit 80 columns: prose filled, examples kept' '
	for f in "$build"/man/*.1; do
		groff -man -Tascii -rLL=80n "$f" 2>/dev/null | sed "s/.\x08//g" >page || return 1
		awk -v f="$f" "length(\$0) > 80 { print f \": \" length(\$0) \": \" \$0; bad = 1 } END { exit bad }" page ||
			return 1
	done &&
	groff -man -Tascii -rLL=80n "$build/man/ukbench-compare.1" 2>/dev/null | sed "s/.\x08//g" >cmp &&
	grep -q "^ *ukbench compare before after" cmp
'

test_expect_success BASH 'bash completion: commands, options, benchmark names' '
	PATH="$build:$PATH" bash -c ". \"$build/completion/ukbench\"
		COMP_WORDS=(ukbench che); COMP_CWORD=1; _ukbench; echo \"\${COMPREPLY[*]}\" >c1
		COMP_WORDS=(ukbench run --pre); COMP_CWORD=2; _ukbench; echo \"\${COMPREPLY[*]}\" >c2
		COMP_WORDS=(ukbench run random.getr); COMP_CWORD=2; _ukbench; echo \"\${COMPREPLY[*]}\" >c3
		COMP_WORDS=(ukbench vdso --di); COMP_CWORD=2; _ukbench; echo \"\${COMPREPLY[*]}\" >c4" &&
	test "$(cat c1)" = check &&
	test "$(cat c2)" = --precision &&
	grep -q "random.getrandom.4/vdso" c3 &&
	test "$(cat c4)" = --disasm
'

test_expect_success BASH 'bash completion: the values of --format, labels and ids of stored runs' '
	tiny="--budget 0.02 --warmup 0.002 --min-samples 3 --batch 200 --processes 2" &&
	ukbench run $tiny -l v6.18/base time.time >/dev/null &&
	ukbench run $tiny -l "with space" time.time >/dev/null &&
	ukbench runs --names >names &&
	test "$(cat names)" = "$(printf "v6.18/base\n2\n1")" &&
	PATH="$build:$PATH" bash -c ". \"$build/completion/ukbench\"
		COMP_WORDS=(ukbench run --format k); COMP_CWORD=3; _ukbench; echo \"\${COMPREPLY[*]}\" >c1
		COMP_WORDS=(ukbench compare -f ma); COMP_CWORD=3; _ukbench; echo \"\${COMPREPLY[*]}\" >c2
		COMP_WORDS=(ukbench compare v6); COMP_CWORD=2; _ukbench; echo \"\${COMPREPLY[*]}\" >c3
		COMP_WORDS=(ukbench show v); COMP_CWORD=2; _ukbench; echo \"\${COMPREPLY[*]}\" >c4" &&
	test "$(cat c1)" = "ktap kcidb" &&
	test "$(cat c2)" = "mail markdown" &&
	test "$(cat c3)" = v6.18/base &&
	test "$(cat c4)" = v6.18/base
'

test_expect_success ZSH 'zsh completion parses' '
	zsh -n "$build/completion/_ukbench" &&
	head -1 "$build/completion/_ukbench" | grep -q "^#compdef ukbench"
'

test_expect_success 'make install with PREFIX and DESTDIR, then uninstall: nothing left' '
	san= &&
	case $build in *-san) san=SAN=1 ;; esac &&
	make -s -C "$top" O="${build#$top/}" $san install DESTDIR="$PWD/root" PREFIX=/usr >out 2>&1 || { cat out; return 1; }
	test -x root/usr/bin/ukbench &&
	test -f root/usr/share/man/man1/ukbench.1 &&
	test -f root/usr/share/man/man1/ukbench-run.1 &&
	test -f root/usr/share/bash-completion/completions/ukbench &&
	test -f root/usr/share/zsh/vendor-completions/_ukbench &&
	test -f root/usr/share/doc/ukbench/README.md &&
	root/usr/bin/ukbench -V | grep -q "^ukbench [0-9]" &&
	# what a plug-in is built with: the header, its pkg-config file, the manual
	test -f root/usr/include/ukbench.h &&
	test -f root/usr/share/man/man7/ukbench-plugin.7 &&
	PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_PATH="$PWD/root/usr/lib/pkgconfig" \
		pkg-config --cflags ukbench | grep -qx -- "-I/usr/include *" &&
	cc -O2 -shared -fPIC -I root/usr/include -o prctl.so "$top/examples/plugin-prctl.c" &&
	root/usr/bin/ukbench list --plugin ./prctl.so example.prctl | grep -q "example.prctl" &&
	# the guests of vm go beside ukbench, where it looks for them
	{ test ! -x "$build/ukbench-guest" || test -x root/usr/bin/ukbench-guest; } &&
	{ test ! -x "$build/ukbench-guest-aarch64" || test -x root/usr/bin/ukbench-guest-aarch64; } &&
	make -s -C "$top" O="${build#$top/}" $san uninstall DESTDIR="$PWD/root" PREFIX=/usr >out 2>&1 &&
	test -z "$(find root -type f)"
'

test_expect_success '-V and --version' '
	"$UKBENCH" -V >a &&
	"$UKBENCH" --version >b &&
	grep -q "^ukbench [0-9][0-9.]*" a &&
	cmp a b
'

# The README is a front door: short, its two set-up commands, and every
# page of docs/ it names there.
test_expect_success 'the README: at most 300 lines, the set-up commands, its links there' '
	test "$(wc -l <"$top/README.md")" -le 300 &&
	grep -q "^<!-- set-up: run -->$" "$top/README.md" &&
	grep -q "^<!-- set-up: tests -->$" "$top/README.md" &&
	grep -o "(docs/[A-Za-z0-9_.-]*)" "$top/README.md" | tr -d "()" | sort -u >links &&
	test -s links &&
	while read -r f; do test -f "$top/$f" || { echo "missing $f"; return 1; }; done <links &&
	test -f "$top/LICENSE"
'

test_done
