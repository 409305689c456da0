#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Strings that did not come from this process (an imported file, a shared
# fleet's runs) reach a terminal with their control characters made
# visible, in every output but the JSON, which keeps them exactly.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.01 --warmup 0.002 --min-samples 3 --batch 200"

# A run whose label, host, kernel and parameters carry a window title
# (ESC ] 0 ; ... BEL), a clear screen (ESC [ 2 J), a carriage return and a
# newline, and a C1 control (U+009B, CSI).
test_expect_success 'setup: a hostile run, stored beside a plain one' '
	ukbench run $tiny --no-store --json plain.json time.time/vdso >/dev/null &&
	jq --arg l "$(printf "evil\033]0;owned\007\033[2Jlabel\rX\nY\302\233Z")" \
		--arg h "$(printf "host\033[31mred")" --arg k "$(printf "6.18\033[1Adown")" \
		"del(.uuid) | .started = \"2030-01-01T00:00:00Z\" | .label = \$l | .host = \$h |
		.environment.hostname = \$h | .environment.kernel_release = \$k |
		.results |= map(.params = \"n=1\u001b[2J\")" plain.json >evil.json &&
	ukbench import --db "$TEST_ROOT/e.db" evil.json >/dev/null &&
	ukbench import --db "$TEST_ROOT/e.db" --label plain plain.json >/dev/null
'

# no raw ESC, CR, BEL or C1 in the text; the newline of the label kept
# out of the table (the label's pieces on one line)
clean() {
	for f in "$@"; do
		if LC_ALL=C grep -q "$(printf "[\033\r\007]")" "$f" ||
			LC_ALL=C grep -q "$(printf "\302\233")" "$f"; then
			echo "raw control characters in $f:" >&2
			od -c "$f" | head -20 >&2
			return 1
		fi
	done
}

test_expect_success 'runs, show, history: made visible' '
	ukbench runs --db "$TEST_ROOT/e.db" >runs.out &&
	ukbench runs --db "$TEST_ROOT/e.db" -W >runsw.out &&
	ukbench runs --db "$TEST_ROOT/e.db" -f csv >runs.csv &&
	ukbench show --db "$TEST_ROOT/e.db" 1 >show.out &&
	ukbench history --db "$TEST_ROOT/e.db" >hist.out &&
	clean runs.out runsw.out runs.csv show.out hist.out &&
	grep -q "evil^\[\]0;owned^G^\[\[2Jlabel^MX^JY<U+009B>Z" runsw.out &&
	grep -q "host^\[\[31mred" show.out &&
	grep -q "^ *1 .*evil" runsw.out
'

test_expect_success 'compare: table, mail, markdown, CSV; the report in markdown' '
	ukbench compare --db "$TEST_ROOT/e.db" --force 1 plain >cmp.out &&
	ukbench compare --db "$TEST_ROOT/e.db" --force -f mail 1 plain >mail.out &&
	ukbench compare --db "$TEST_ROOT/e.db" --force -f markdown 1 plain >md.out &&
	ukbench compare --db "$TEST_ROOT/e.db" --force -f csv 1 plain >cmp.csv &&
	ukbench report --db "$TEST_ROOT/e.db" --force -f markdown -o rep.md 1 plain &&
	clean cmp.out mail.out md.out cmp.csv rep.md &&
	grep -q "evil^\[" mail.out &&
	grep -q "n=1^\[\[2J" mail.out
'

test_expect_success 'the JSON keeps every character as it was' '
	ukbench show --db "$TEST_ROOT/e.db" 1 --format json >back.json &&
	jq -e --arg l "$(printf "evil\033]0;owned\007\033[2Jlabel\rX\nY\302\233Z")" ".label == \$l" back.json &&
	jq -e ".results[0].params == \"n=1\u001b[2J\"" back.json
'

# Every string a run carries made hostile (environment, vDSO facts, the
# reference, details, parameters; then names, paths and units; an exec's
# command): no command or format lets a control byte but the newline reach
# stdout or stderr. JSON escapes them and keeps the string.
test_expect_success 'every command and format against a store of hostile strings' '
	ukbench run $tiny --no-store --json plain.json time.time/vdso syscall.null >/dev/null &&
	p="$(printf "\033]0;T\007\033[31mR\rX\302\233Z\tT\bB\177")" &&
	jq --arg p "$p" "
		def h: if type == \"string\" then . + \$p else . end;
		del(.uuid) | .started = \"2030-02-01T00:00:00Z\" | .label = (\"L\" + \$p) |
		.host |= h | .vdso |= map_values(h) | .settings.reference |= h |
		.environment |= map_values(if type == \"object\" then map_values(h)
			elif type == \"array\" then map(h) else h end) |
		.results |= map(.detail |= h | .vdso_symbol |= h | .params = (\"n=1\" + \$p))
		" plain.json >all.json &&
	jq --arg p "$p" "del(.uuid) | .started = \"2030-02-02T00:00:00Z\" | .label = (\"N\" + \$p) |
		.results |= map(.name += \$p | .path += \$p | .benchmark += \$p | .unit += \$p)
		" plain.json >names.json &&
	db="$TEST_ROOT/h.db" &&
	ukbench import --db "$db" --label plain plain.json >o.1 2>e.1 &&
	ukbench import --db "$db" all.json >o.2 2>e.2 &&
	ukbench import --db "$db" names.json >o.3 2>e.3 &&
	test_expect_code 2 ukbench import --db "$db" all.json >o.4 2>e.4 &&
	ukbench exec --db "$db" -r 2 -l "x$p" -- sh -c "true # $p" >o.5 2>e.5 &&
	ukbench exec --no-store -r 2 -c "true # $p" -c true >o.6 2>e.6 &&
	i=7 &&
	while read -r cmd; do
		eval "ukbench $cmd" >o.$i 2>e.$i
		echo "$cmd" >c.$i
		i=$((i + 1))
	done <<-EOF &&
	runs --db $db
	runs --db $db -W
	runs --db $db -f csv
	runs --db $db -f json
	show --db $db 2
	show --db $db -f csv 2
	show --db $db -f ktap 2
	show --db $db -f gbench 2
	show --db $db -f lava 2
	show --db $db -f kcidb 2
	show --db $db -f json 2
	show --db $db 3
	show --db $db -f ktap 3
	show --db $db 4
	history --db $db
	history --db $db -W
	history --db $db -f csv
	history --db $db -f json
	history --db $db -f kcidb
	compare --db $db --force 2 plain
	compare --db $db --force -W --all 2 plain
	compare --db $db --force -f csv 2 plain
	compare --db $db --force -f mail 2 plain
	compare --db $db --force -f markdown 2 plain
	compare --db $db --force -f lkp 2 plain
	compare --db $db --force -f json 2 plain
	compare --db $db --force -f kcidb 2 plain
	compare --db $db --force 3 3
	compare --db $db --force 4 4
	compare --db $db --force
	compare --db $db --force "L$p"
	report --db $db --force 2 plain
	report --db $db --force -f markdown 2 plain
	prune --db $db --before 2040-01-01 --dry-run
	runs --db $db --size
	compare --db $db 2 "no such \$p"
	show --db $db "\$p"
	history --db $db --host "\$p"
	EOF
	test $i -gt 40 &&
	for f in o.* e.*; do
		if LC_ALL=C grep -q "$(printf "[\001-\011\013-\037\177]")" "$f" ||
			LC_ALL=C grep -q "$(printf "\302[\200-\237]")" "$f"; then
			echo "raw control bytes in $f of: $(cat "c.${f#?.}" 2>/dev/null)" >&2
			od -c "$f" | grep -m3 "033\|\\\\r\|\\\\b\|302" >&2
			return 1
		fi
	done &&
	grep -q "^imported all.json as run #2 .L^\[\]0;T^G^\[\[31mR^MX<U+009B>Z^IT^HB^?" o.2 &&
	grep -q "already" o.4 e.4 &&
	grep -q "no run labelled .no such ^\[\]0;T" e.$((i - 3)) &&
	jq -e --arg p "$p" ".label == (\"L\" + \$p)" o.17
'

test_done
