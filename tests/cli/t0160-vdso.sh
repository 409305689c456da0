#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ukbench vdso: the live image shown, dumped and disassembled, each against
# binutils reading the dumped file.
. "$(dirname "$0")/../lib.sh"

test_expect_success VDSO 'vdso: the mappings, the ELF facts, the symbols' '
	ukbench vdso >out &&
	cat out &&
	grep -q "^mappings: " out &&
	grep -q " r-xp .*\[vdso\]$" out &&
	grep -q "\[vvar" out &&
	grep -q "^ELF:        ELF\(32\|64\), \(little\|big\)-endian, " out &&
	grep -q "^build id:   " out &&
	grep -q "^Linux note: [0-9]*\.[0-9]*\.[0-9]*$" out &&
	grep -q " FUNC .*clock_gettime@" out
'

test_expect_success VDSO,BINUTILS 'vdso --dump: an ELF file binutils reads, whose symbols and build id vdso printed' '
	ukbench vdso >out &&
	ukbench vdso --dump v.so 2>err &&
	grep -q "wrote the live vDSO, [0-9]* bytes, to v.so" err &&
	readelf -h v.so | grep -q "DYN" &&
	id=$(sed -n "s/^build id:   //p" out) &&
	if [ "$id" != none ]; then readelf -n v.so | grep -q "Build ID: $id"; fi &&
	nm -D --defined-only v.so | awk "\$2 ~ /^[TtWw]\$/ { sub(/@@/, \"@\", \$3); a = \$1; sub(/^0+/, \"\", a); print a, \$3 }" | sort >nm.syms &&
	awk "f && NF == 5 && \$3 != \"OBJECT\" { a = \$1; sub(/^0+/, \"\", a); print a, \$5 } /^address/ { f = 1 }" out | sort >ukb.syms &&
	test -s nm.syms &&
	diff nm.syms ukb.syms
'

test_expect_success VDSO,CAPSTONE,BINUTILS 'vdso --disasm: the instructions objdump finds, at its addresses, targets named' '
	ukbench vdso --dump v.so 2>/dev/null &&
	for f in clock_gettime gettimeofday time; do
		ukbench vdso --file v.so --disasm $f >d.out || return 1
		set -- $(sed -n "s/.*, \([0-9]*\) bytes at 0x\([0-9a-f]*\).*/\1 \2/p" d.out)
		objdump -d -z --start-address=0x$2 --stop-address=$((0x$2 + $1)) v.so |
			awk -F "	" "/^ *[0-9a-f]+:/ && NF >= 3 { a = \$1; sub(/:\$/, \"\", a); sub(/^ */, \"\", a); print a }" >want &&
		awk "/^ *[0-9a-f]+:  / { a = \$1; sub(/:\$/, \"\", a); print a }" d.out >got &&
		echo "$f: $(wc -l <got) instructions" &&
		test -s got && diff want got || return 1
	done &&
	ukbench vdso --disasm clock_gettime >live.out &&
	grep -q "(mapped at 0x" live.out &&
	if grep -q "^ELF:.*x86-64" live.out; then grep -q "<__vdso_clock_gettime+0x[0-9a-f]*>" live.out; fi
'

test_expect_success 'vdso: bad input is a clear error, nothing written' '
	test_expect_code 2 "$UKBENCH" vdso extra 2>err &&
	grep -q "takes no operands" err &&
	test_expect_code 2 "$UKBENCH" vdso --file "" 2>err &&
	test_expect_code 2 "$UKBENCH" vdso --file missing.so 2>err &&
	grep -q "cannot open .missing.so.: No such file" err &&
	echo "not an ELF" >text &&
	test_expect_code 2 "$UKBENCH" vdso --file text 2>err &&
	grep -q "is not a usable ELF image: " err &&
	test_expect_code 2 "$UKBENCH" vdso --file text --dump x.so 2>err &&
	test ! -e x.so
'

test_expect_success VDSO 'vdso --disasm: an unknown symbol says so and how to list them' '
	test_expect_code 2 "$UKBENCH" vdso --disasm no_such_function 2>err &&
	grep -q "has no function .no_such_function." err &&
	grep -q "hint: .ukbench vdso. lists its symbols" err
'

test_expect_success VDSO 'run --profile: the loop sampled, the vDSO function first, its instructions annotated, kept' '
	ukbench run --db p.db --json p.json --profile time.time/vdso --profile-time 0.3 >out 2>err &&
	cat out err &&
	grep -q "^profile of time.time/vdso, the measured loop run for" out &&
	grep -q "^[0-9]* samples of \(cpu-clock\|cycles\) at 4000 Hz" out &&
	first=$(sed -n "/^profile of/,\$p" out | grep -m1 "%  ") &&
	echo "first: $first" &&
	echo "$first" | grep -q "\[vdso\] __vdso_time" &&
	grep -q "^__vdso_time, [0-9]* samples (.*), per instruction:" out &&
	grep -q "^ *[0-9.]*%  *[0-9a-f]*:  " out &&
	jq -e ".results[0].profile | .samples > 0 and (.where[0].name | test(\"vdso\")) and (.vdso_ips | length) > 0" p.json &&
	test "$(sqlite3 p.db "SELECT count(*) FROM profiles")" = 1 &&
	ukbench show --db p.db --format json 1 | jq -e ".results[0].profile.samples > 0"
'

test_expect_success SECCOMP 'run --profile where sampling is not permitted: said why, the figures kept' '
	ASAN_OPTIONS=detect_leaks=0 "${UKB_BUILD:-$(dirname "$UKBENCH")}/tests/seccomp-exec" EPERM perf_event_open -- \
		"$UKBENCH" run --no-store --json p.json --budget 0.05 --processes 1 --profile time.time/vdso >out 2>err &&
	cat err &&
	grep -q "no profile: sampling is not permitted" err &&
	grep -q "hint: sampling needs perf_event_paranoid" err &&
	jq -e ".results[0].status == \"ok\" and (.results[0] | has(\"profile\") | not)" p.json
'

test_expect_success 'run --profile: bad values refused' '
	test_expect_code 2 "$UKBENCH" run --profile "" 2>err &&
	grep -q "needs a pattern" err &&
	test_expect_code 2 "$UKBENCH" run --profile time.time --profile-time 0 2>err &&
	test_expect_code 2 "$UKBENCH" run --profile no.such.thing 2>err
'

test_done
