#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every example of every command's --help and of the README, typed as it
# is printed, beside a store that holds the runs the examples name: it
# exits as the example means, writes no error, and prints (or writes to
# the file it names) what the example is for. The commands that measure
# get options after the example's own, so that the examples take seconds
# and hold on a loaded machine: run --quick (a scan also --no-store);
# calibrate two rounds of 0.05 s a path, --busy (--reset: --yes, as a
# terminal would be asked); check --duration 0.05. push, fleet-init and
# fleet-prune need a PostgreSQL server (t0250-fleet.sh starts one and runs them); vdso
# --file needs a kernel tree's vDSO image (t0160-vdso.sh gives it one of
# its own); vm needs QEMU and kernel images (t0320-vm.sh boots two).
. "$(dirname "$0")/../lib.sh"

work="$TEST_ROOT/work"
bin="$TEST_ROOT/bin"
mkdir -p "$work" "$bin"
ln -s "$UKBENCH" "$bin/ukbench"
UKBENCH_DB="$TEST_ROOT/examples.db"
export UKBENCH_DB
examples="$TEST_ROOT/examples.txt"

# "CMD<TAB>EXAMPLE" a line, continuation lines joined, the comment cut
for c in run compare exec history report show runs calibrate check list vdso import push \
	fleet-init fleet-prune; do
	"$UKBENCH" "$c" --help | awk -v c="$c" '
		/^examples?:/ { on = 1; next }
		on && /^[^ ]/ { on = 0 }
		!on { next }
		/^  ukbench / || join != "" {
			l = $0
			sub(/^ +/, "", l)
			if (join != "") l = join " " l
			if (l ~ /\\$/) { sub(/ *\\$/, "", l); join = l; next }
			join = ""
			sub(/ +# .*$/, "", l)
			print c "\t" l
		}'
done >"$examples"

# and those of the README and docs/: each `ukbench ...` in backticks and each
# "$ ukbench ..." line of a block, that names no placeholder (BASE,
# [PATTERN...]) and is not the bare name of a command that needs more
"${PYTHON:-/usr/bin/python3}" - "$UKB_TOP/README.md" "$UKB_TOP"/docs/*.md >>"$examples" <<-\EOF
	import re, sys
	s = "\n".join(open(f).read() for f in sys.argv[1:])
	cmds = [" ".join(x.split()) for x in re.findall(r"`(ukbench [^`]*)`", s, re.S)]
	for m in re.finditer(r"^```[^\n]*\n(.*?)^```", s, re.S | re.M):
	    cmds += [l[2:].strip() for l in m.group(1).split("\n") if l.startswith("$ ukbench ")]
	seen = set()
	for c in cmds:
	    w = c.split()
	    if c in seen or re.search(r"\b[A-Z]{2,}\b|\[|\.\.\.", c):
	        continue
	    if len(w) == 2 and w[1] in ("exec", "import", "push", "report", "fleet-init"):
	        continue
	    # vm boots kernel images under QEMU, and its store is read after it:
	    # t0320-vm.sh does both with Debian's kernels
	    if w[1] == "vm" or "vm.db" in w:
	        continue
	    seen.add(c)
	    print("readme-" + w[1] + "\t" + c)
	EOF

test_expect_success 'the examples of every command are found' '
	n=$(wc -l <"$examples") &&
	echo "$n examples" &&
	test "$n" -ge 40 &&
	for c in run compare exec history report show runs calibrate check list vdso import; do
		grep -q "^$c	" "$examples" || { echo "no example of $c"; return 1; }
	done &&
	r=$(grep -c "^readme-" "$examples") &&
	echo "$r of the README" &&
	test "$r" -ge 15
'

test_expect_success 'setup: the runs, files and programs the examples name' '
	cd "$work" &&
	for l in before after v6.17 v6.18 nightly-1 nightly-2 v6.1-rc1 scratch pa2 pb2; do
		ukbench run --quick -l $l time.clock_gettime.monotonic time.gettimeofday time.time \
			syscall.null >/dev/null || return 1
	done &&
	printf "#!/bin/sh\nexit 0\n" >tb && chmod +x tb && cp tb tb-old && cp tb tb-new &&
	ukbench exec -l v6.11 -r 3 -- ./tb >/dev/null 2>&1 &&
	ukbench run --quick --no-store --json one.json time.time >/dev/null &&
	k=0 &&
	for f in ppc64-before ppc64-after results; do
		k=$((k + 1)) &&
		jq --arg t "2026-01-0${k}T00:00:00Z" "del(.uuid) | .started = \$t" one.json >$f.json || return 1
	done &&
	ukbench runs --format json | jq -e "length == 11"
'

# What the example $1 (CMD<TAB>EXAMPLE) is run as, on standard output.
as_run() {
	cmd=${1%%	*}
	cmd=${cmd#readme-}
	ex=${1#*	}
	case $ex in
	*"calibrate --reset"*) echo "$ex --yes"; return ;; # a terminal would be asked
	esac
	case $cmd in
	# a scan stored last would leave `compare`'s two latest runs no path in common
	# (and so would a run through the 32-bit ABI, whose paths are others)
	run) case $ex in *" -L "* | *"--abi 32"*) echo "$ex --quick --no-store" ;; *) echo "$ex --quick" ;; esac ;;
	calibrate) echo "$ex --rounds 2 --budget 0.05 --busy" ;;
	check) echo "$ex --duration 0.05" ;;
	*) echo "$ex" ;;
	esac
}

# What the output of example $1 must show, from what it is for; $2 its
# standard output, $3 its standard error.
check_output() {
	ex=${1#*	}
	case $ex in
	*"> series.csv") head -n 1 series.csv | grep -q "name" ;;
	*"> report.md") grep -q "^#\{1,3\} ukbench report" report.md ;;
	*"> before.json") jq -e ".results | length > 0" before.json >/dev/null ;;
	*"> 12.gbench.json") jq -e ".benchmarks | length > 0" 12.gbench.json >/dev/null ;;
	*"-o report.html"* | *"-o vdso.html"* | *"-o history.html"*)
		f=$(echo "$ex" | sed "s/.*-o \([^ ]*\).*/\1/") &&
			grep -q "<html" "$f" ;;
	*"jq '.[0].id'") grep -q "^[0-9][0-9]*$" "$2" ;;
	*"objdump -d vdso.so") grep -q "<__vdso_" "$2" ;;
	*"--json before.json"*) jq -e ".results | length > 0" before.json >/dev/null ;;
	*"list --names"*) ! grep -v "/vdso$" "$2" && test -s "$2" ;;
	# a clean-up by date: today's runs are not older than the date
	*"runs --delete --with-label"*) grep -q "^the filters select no run: nothing changed" "$2" ;;
	*"runs --delete"*) grep -q "^deleted 1 run" "$2" ;;
	*"runs --relabel"*) grep -q "^relabelled 1 run" "$2" ;;
	*"ukbench import"*) grep -q "^imported" "$2" ;;
	*"-f kcidb"*) jq -e ".version.major == 5 and (.tests | length > 0)" "$2" >/dev/null ;;
	*"ukbench compare"*) grep -q "^geometric mean of other/base\|^benchmark" "$2" ;;
	*"--help"*) grep -q "^usage: ukbench" "$2" ;;
	*"calibrate --reset"*) grep -q "^forgot the calibrations of" "$2" ;;
	*"ukbench history --plot"*) grep -q "^[a-z_.]*/[a-z]* on .*: [0-9]* runs" "$2" ;;
	*"ukbench history"*) grep -q "^[a-z_.]*/[a-z]* on .*, [0-9]* runs\{0,1\}" "$2" ;;
	*"ukbench exec"*) grep -q "wall" "$2" "$3" ;;
	*"runs --size"*) grep -q ": [0-9.]* [A-Za-z]* in [0-9]* runs\{0,1\} (" "$2" ;;
	*"ukbench runs"*) grep -q "^ *id  *started (UTC)  *label" "$2" ;;
	*"ukbench run"*) grep -q "paths\? in [0-9.]* s: [0-9]* measured" "$2" ;;
	*"ukbench calibrate"*) grep -q "A/A" "$2" ;;
	*) test -s "$2" ;;
	esac
}

# Runs example number $1 of the list and checks it.
check_example() {
	line=$(sed -n "$1p" "$examples")
	ex=$(as_run "$line")
	cd "$work" || return 1
	echo "\$ $ex"
	PATH="$bin:$PATH" sh -c "$ex" >out 2>err </dev/null
	rc=$?
	cat out err
	case ${line%%	*} in
	check | readme-check) test $rc -le 1 ;;
	*) test $rc = 0 ;;
	esac || { echo "exit status $rc"; return 1; }
	! grep -q "^error:" err || return 1
	check_output "$line" out err
}

i=0
while IFS= read -r line <&3; do
	i=$((i + 1))
	ex=${line#*	}
	case $ex in
	*"ukbench push"* | *"ukbench fleet-init"* | *"ukbench fleet-prune"*)
		test_skip "example: $ex" "needs a PostgreSQL server (t0250-fleet.sh runs them)"
		continue
		;;
	*"vdso --file"*)
		test_skip "example: $ex" "needs a kernel tree's vDSO image"
		continue
		;;
	*hackbench*)
		if ! command -v hackbench >/dev/null; then
			test_skip "example: $ex" "hackbench is not installed (rt-tests)"
			continue
		fi
		;;
	esac
	case $ex in
	*"vdso --dump"*) prereq=BINUTILS ;;
	*"vdso --disasm"*) prereq=CAPSTONE ;;
	*"--abi 32"* | *"--abi both"*) prereq=ABI32_HELPER ;;
	*"ukbench report"*) prereq=GNUPLOT ;;
	*) prereq="" ;;
	esac
	if [ -n "$prereq" ]; then
		test_expect_success "$prereq" "example: $ex" "check_example $i"
	else
		test_expect_success "example: $ex" "check_example $i"
	fi
done 3<"$examples"

test_done
