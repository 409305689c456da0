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

test_done
