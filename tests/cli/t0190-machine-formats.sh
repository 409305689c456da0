#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every command that prints a table prints it as JSON and CSV too, the same
# rows; compare also as a summary for a mail (plain text or markdown, at
# most 72 columns).
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.05 --warmup 0.002 --min-samples 3 --batch 200"

# the JSON array's length equals the CSV's rows; the CSV header is the JSON's keys
same_rows() {
	jq -e "type == \"array\"" "$1.json" >/dev/null &&
	test "$(jq length "$1.json")" = "$(($(wc -l <"$1.csv") - 1))" &&
	if [ "$(jq length "$1.json")" -gt 0 ]; then
		test "$(jq -r ".[0] | keys_unsorted | join(\",\")" "$1.json")" = "$(head -1 "$1.csv")"
	fi
}

test_expect_success 'runs, history, list, check, env, compare: --format json and csv' '
	ukbench run $tiny --db f.db -l A time.time syscall.null >/dev/null &&
	ukbench run $tiny --db f.db -l B time.time syscall.null >/dev/null &&
	ukbench runs --db f.db -f json >runs.json && ukbench runs --db f.db -f csv >runs.csv &&
	same_rows runs && test "$(jq length runs.json)" = 2 &&
	jq -e ".[0] | .id == 2 and .label == \"B\"" runs.json &&
	ukbench history --db f.db -f json time.time/vdso >hist.json &&
	ukbench history --db f.db -f csv time.time/vdso >hist.csv &&
	same_rows hist && jq -e "length == 2 and (.[1].change_vs_previous | type) == \"number\"" hist.json &&
	ukbench list -f json cpu.getcpu >list.json && ukbench list -f csv cpu.getcpu >list.csv &&
	same_rows list && jq -e "any(.[]; .path == \"vdso\")" list.json &&
	ukbench check -f json --duration 0.05 time >check.json; test $? -le 1 &&
	ukbench check -f csv --duration 0.05 time >check.csv; test $? -le 1 &&
	same_rows check && jq -e "all(.[]; .function == \"time\")" check.json &&
	ukbench env -f csv >env.csv &&
	head -1 env.csv | grep -qx "key,value" &&
	grep -q "^kernel_release," env.csv &&
	ukbench env -f json | jq -e ".kernel_release" &&
	ukbench compare --db f.db A B -f json >cmp.json && ukbench compare --db f.db A B -f csv >cmp.csv &&
	same_rows cmp && test "$(jq length cmp.json)" = 5 &&
	jq -e "all(.[]; (.change | type) == \"number\" and .ci_low <= .change and .change <= .ci_high)" cmp.json &&
	ukbench compare --db f.db A B syscall.null -f json | jq -e "length == 2"
'

test_expect_success 'compare --format mail: 72 columns, both sides, the method' '
	ukbench run $tiny --db "$TEST_ROOT/m.db" -l before time.time >/dev/null &&
	ukbench run $tiny --db "$TEST_ROOT/m.db" -l after time.time >/dev/null &&
	ukbench compare --db "$TEST_ROOT/m.db" before after -f mail >mail.txt &&
	cat mail.txt &&
	awk "length(\$0) > 72 { print length(\$0) \": \" \$0; bad = 1 } END { exit bad }" mail.txt &&
	grep -q "^ukbench: " mail.txt &&
	grep -q "^base: .* Linux " mail.txt &&
	grep -q "^other: .* Linux " mail.txt &&
	grep -q "^Method: Welch.s t on the log ratio, the floor added; a verdict needs" mail.txt &&
	ukbench compare --db "$TEST_ROOT/m.db" before after -f mail --explain >explain.txt &&
	grep -q "^Method: change = other/base - 1" explain.txt &&
	awk "length(\$0) > 72 { print length(\$0) \": \" \$0; bad = 1 } END { exit bad }" explain.txt &&
	grep -q "time.time/vdso" mail.txt &&
	grep -q " -> .* ns  [-+][0-9.]*%.* \[[-+][0-9.]*%, [-+][0-9.]*%\]" mail.txt &&
	! grep -q "[*][*]\|\`" mail.txt &&
	# labels pooled (two runs each) and long: the first line folds too
	for l in before-the-patch after-the-patch before-the-patch after-the-patch; do
		ukbench run $tiny --db "$TEST_ROOT/mp.db" -l $l time.time/vdso >/dev/null || return 1
	done &&
	ukbench compare --db "$TEST_ROOT/mp.db" before-the-patch after-the-patch -f mail >mail.txt &&
	awk "length(\$0) > 72 { print length(\$0) \": \" \$0; bad = 1 } END { exit bad }" mail.txt &&
	head -2 mail.txt | tr "\n" " " | grep -q "^ukbench: .before-the-patch. (2 runs of one boot pooled) -> *.after-the-patch. (2 runs"
'

test_expect_success 'compare --format markdown: the one markdown of a comparison, the report.s' '
	ukbench compare --db "$TEST_ROOT/m.db" before after -f markdown >md.txt &&
	ukbench report --db "$TEST_ROOT/m.db" before after -f markdown >report.md &&
	cmp md.txt report.md &&
	grep -q "^### ukbench report: " md.txt &&
	grep -q "^| time.time/vdso | " md.txt &&
	tr "\n" " " <md.txt | grep -q " geometric mean of other/base over 3 paths: [0-9.]* ([^)]*), 95% CI ..[-+]"
'

# The LAVA definition's own steps, as LAVA runs them (its parameters in
# the environment), with a stand-in for lava-test-case that keeps its
# arguments: one test case a path, its mean, nothing a shell would read.
test_expect_success 'examples/lava/ukbench.yaml: a lava-test-case a path, its mean in ns' '
	mkdir stub &&
	printf "#!/bin/sh\necho \"\$*\" >>\"%s/cases\"\n" "$PWD" >stub/lava-test-case &&
	chmod +x stub/lava-test-case &&
	sed -n "s/^    - \(\.\/build\/ukbench run .*\)/\1/p; s/^    - \(sh ukbench-lava.sh\)$/\1/p" \
		"$UKB_TOP/examples/lava/ukbench.yaml" | sed "s|\./build/ukbench|\"$UKBENCH\"|" >steps &&
	test "$(wc -l <steps)" = 2 &&
	PATTERNS="time.time syscall.null" BUDGET=0.05 PATH="$PWD/stub:$PATH" sh -e steps &&
	cat cases &&
	test "$(grep -c "" cases)" = 5 &&
	grep -q "^ukbench\.time\.time\.vdso --result pass --measurement [0-9.e+]* --units ns$" cases &&
	grep -q "^ukbench\.syscall\.null\.syscall --result pass --measurement [0-9.e+]* --units ns$" cases &&
	! grep -v "^ukbench\.[A-Za-z0-9._-]* --result \(pass --measurement [0-9.e+]* --units ns[/a-z]*\|skip\|fail\)$" cases
'

test_expect_success 'show --format lava: a name made of what LAVA takes, a missing path a skip' '
	ukbench run --db db -b 0.02 --min-samples 3 -j r.json time.time/vdso >/dev/null 2>&1 &&
	jq ".results[0].name = \"time.\$(reboot);x\" | .results[0].path = \"vd so\"
		| .results += [.results[0] | .status = \"unsupported\" | .path = \"gone\"]" r.json >h.json &&
	ukbench show -f lava h.json >out &&
	cat out &&
	grep -q "^lava-test-case ukbench\.time\.__reboot__x\.vd_so --result pass --measurement" out &&
	grep -q "^lava-test-case ukbench\.time\.__reboot__x\.gone --result skip$" out
'

test_expect_success 'an unknown format: exit 2 and the formats named' '
	for c in runs history list env compare check; do
		test_expect_code 2 "$UKBENCH" $c --format yaml 2>err || return 1
		grep -q "unknown format .yaml." err || return 1
	done
'

test_done
