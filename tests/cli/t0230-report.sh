#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `ukbench report`: one page that stands alone, a plot per compared path
# (gnuplot's), the environments side by side with what differs
# highlighted, the history with its change points, markdown, every string
# from a run escaped; without gnuplot, the tables and why there are no
# plots. `compare --plot` and `history --plot` in the terminal.
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.05 --warmup 0.002 --min-samples 3 --batch 200"
mkrun=$(cd "$(dirname "$0")/.." && pwd)/report/mkrun.py

# no line of the files wider than $1 characters (UTF-8)
fits() {
	w=$1
	shift
	python3 - "$w" "$@" <<-\PY
	import sys
	w = int(sys.argv[1]); bad = 0
	for f in sys.argv[2:]:
	    for l in open(f, encoding="utf-8"):
	        if len(l.rstrip("\n")) > w:
	            print("%s: %d: %s" % (f, len(l.rstrip("\n")), l), end=""); bad = 1
	sys.exit(bad)
	PY
}

# the plots of page $1 decoded: each an SVG document from gnuplot
svgs() {
	python3 - "$1" <<-\PY
	import base64, re, sys
	page = open(sys.argv[1], encoding="utf-8").read()
	for m in re.finditer(r'<img class="plot"[^>]* src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]*)"', page):
	    svg = base64.b64decode(m.group(1)).decode()
	    assert svg.startswith("<?xml") and "<svg" in svg and svg.rstrip().endswith("</svg>"), svg[:80]
	    print(svg.replace("\n", " "))
	PY
}

# twelve runs of one host with a step of +20% after the sixth, and four of another
make_series() {
	i=1
	while [ $i -le 12 ]; do
		s=1; [ $i -gt 6 ] && s=1.2
		"$mkrun" t.json h$i.json --scale $s --spread 0.002 --seed $i \
			--label "nightly-$i" --started "2026-01-$(printf %02d $i)T00:00:00Z" || return 1
		i=$((i + 1))
	done
	for i in 1 2 3 4; do
		"$mkrun" t.json o$i.json --host board-2 --seed $((20 + i)) --spread 0.002 \
			--started "2026-02-0${i}T00:00:00Z" || return 1
	done
	ukbench import --db h.db h1.json h2.json h3.json h4.json h5.json h6.json h7.json \
		h8.json h9.json h10.json h11.json h12.json o1.json o2.json o3.json o4.json >/dev/null
}

# shared by the tests below, in $TEST_ROOT: a real run (t.json) and two
# stored runs of it (r.db, A and B; their environments may differ, as the
# load a run warns of); x.json, z.json and y.json made from t.json, z 1%
# slower and nothing else changed, y's clocksource and one mitigation
# changed; the series in h.db
test_expect_success 'set up: real runs, runs made from them, a series with a step' '
	cd "$TEST_ROOT" &&
	ukbench run $tiny --no-store -j t.json time.time syscall.null >/dev/null &&
	jq -e "[.results[] | select(.status == \"ok\")] | length >= 2" t.json &&
	ukbench run $tiny --db r.db -l A time.time syscall.null >/dev/null &&
	ukbench run $tiny --db r.db -l B time.time syscall.null >/dev/null &&
	"$mkrun" t.json x.json &&
	"$mkrun" t.json z.json --scale 1.01 &&
	"$mkrun" t.json y.json --scale 1.02 --env clocksource=test-clock \
		--env vulnerabilities.mds=test-mitigation &&
	make_series
'

# A name longer than the forest plot's labels take keeps its end, where
# the paths of one benchmark differ, not a question mark.
test_expect_success GNUPLOT 'the forest plot names a long path by its end' '
	ukbench run $tiny --db "$TEST_ROOT/long.db" -l A time.clock_gettime.monotonic/vdso \
		time.clock_gettime.monotonic/syscall >/dev/null &&
	ukbench run $tiny --db "$TEST_ROOT/long.db" -l B time.clock_gettime.monotonic/vdso \
		time.clock_gettime.monotonic/syscall >/dev/null &&
	ukbench report --db "$TEST_ROOT/long.db" -o long.html A B &&
	svgs long.html | head -1 >forest &&
	grep -q "~lock_gettime.monotonic/vdso" forest &&
	grep -q "~k_gettime.monotonic/syscall" forest &&
	! grep -q ">?<" forest
'

test_expect_success GNUPLOT 'a plot for each compared path, inline; nothing loaded from outside' '
	ukbench report --db "$TEST_ROOT/r.db" -o r.html A B 2>err &&
	! test -s err &&
	paths=$(ukbench compare --db "$TEST_ROOT/r.db" A B -f json | jq "[.[] | select(.change != null)] | length") &&
	test "$paths" -ge 2 &&
	# one a path, and first of all one of every path (the forest plot)
	test "$(grep -c "<img class=\"plot\"" r.html)" = $((paths + 1)) &&
	svgs r.html >svgs &&
	test "$(wc -l <svgs)" = $((paths + 1)) &&
	grep -n "<img class=\"plot\"\|<h2" r.html | head -3 >first &&
	cat first &&
	sed -n 2p first | grep -q "alt=\"every path\"" &&
	head -1 svgs | grep -q "time.time/vdso" &&
	grep -q "Content-Security-Policy\" content=\"default-src '"'"'none'"'"'" r.html &&
	! grep -Eiq "(src|href)=\"(https?:|//|file:)" r.html &&
	! grep -qi "<script" r.html &&
	grep -q "<td><a href=\"#c1-p1\">time.time/vdso</a></td>" r.html &&
	grep -q "^<h2 id=\"c1-environment\">Environment</h2>" r.html &&
	grep -q "^<p>[0-9]* of [0-9]* lines differ" r.html
'

test_expect_success GNUPLOT 'the page says what compare says, path by path' '
	ukbench report --db "$TEST_ROOT/r.db" -o r.html A B &&
	ukbench compare --db "$TEST_ROOT/r.db" A B -f json >c.json &&
	jq -r ".[] | select(.change != null) | \"\(.name)/\(.path) \(.verdict)\"" c.json >want &&
	sed -n "s|^<tr><td><a href=\"#c1-p[0-9]*\">\([^<]*\)</a></td>.*<td class=\"[a-z]*\">\([a-z ]*\)</td></tr>\$|\1 \2|p" r.html >got &&
	diff -u want got
'

test_expect_success 'the environment diff: what differs, highlighted, first' '
	cd "$TEST_ROOT" &&
	ukbench report --no-plots -o same.html x.json z.json &&
	grep -q "<p>0 of [0-9]* lines differ: the two runs were made on the same set-up</p>" same.html &&
	ukbench report --no-plots -o e.html x.json y.json &&
	grep -q "<p>2 of [0-9]* lines differ" e.html &&
	grep -q "<tr class=\"differs\"><td>clocksource</td><td>&#8800;</td><td class=\"v\">[^<]*</td><td class=\"v\">test-clock</td></tr>" e.html &&
	grep -q "<tr class=\"differs\"><td>mitigation: mds</td><td>&#8800;</td><td class=\"v\">[^<]*</td><td class=\"v\">test-mitigation</td></tr>" e.html &&
	test "$(grep -c "<tr class=\"differs\">" e.html)" = 4 &&
	ukbench report -f markdown x.json y.json >e.md &&
	grep -q "^#### Environment: 2 of [0-9]* lines differ" e.md &&
	grep -q "^| \*\*clocksource\*\* | .* | test-clock |\$" e.md &&
	grep -q "^| \*\*mitigation: mds\*\* | .* | test-mitigation |\$" e.md
'

# A report is made to be shared: as the umask says. The JSON of a run
# (host names, command lines) stays the owner's only; a file replaced
# keeps its mode.
test_expect_success 'report -o: a new page is made as the umask says, a run'"'"'s JSON 0600' '
	cd "$TEST_ROOT" &&
	(umask 022 && ukbench report --no-plots -o shared.html x.json y.json) &&
	test "$(stat -c %a shared.html)" = 644 &&
	(umask 077 && ukbench report --no-plots -o own.html x.json y.json) &&
	test "$(stat -c %a own.html)" = 600 &&
	chmod 640 shared.html &&
	(umask 022 && ukbench report --no-plots -o shared.html x.json y.json) &&
	test "$(stat -c %a shared.html)" = 640 &&
	(umask 022 && ukbench run --no-store -b 0.01 -j j.json time.time/vdso >/dev/null) &&
	test "$(stat -c %a j.json)" = 600
'

test_expect_success 'every string from a run is escaped, in the page and in markdown' '
	"$mkrun" "$TEST_ROOT/t.json" a.json --label "<b>base</b>" &&
	"$mkrun" "$TEST_ROOT/t.json" "<i>b.json" --label "<script>alert(1)</script>" \
		--host "<img src=x onerror=alert(2)>" --env "cmdline=quiet </td><script>alert(3)</script> & \"q\"" \
		--params "n=1 <u>x</u> | a*b_c" &&
	ukbench report --force --no-plots -o s.html a.json "<i>b.json" &&
	! grep -qi "<script" s.html &&
	! grep -q "<img src=x" s.html && ! grep -q "<b>base" s.html && ! grep -q "<u>x" s.html &&
	! grep -q "<i>b" s.html &&
	grep -q "&lt;script&gt;alert(1)&lt;/script&gt;" s.html &&
	grep -q "&lt;img src=x onerror=alert(2)&gt;" s.html &&
	grep -q "quiet &lt;/td&gt;&lt;script&gt;alert(3)&lt;/script&gt; &amp; &quot;q&quot;" s.html &&
	grep -Fq "parameters: base (none), other n=1 &lt;u&gt;x&lt;/u&gt; | a*b_c<" s.html &&
	grep -q "&lt;i&gt;b.json" s.html &&
	ukbench report --force -f markdown a.json "<i>b.json" >s.md &&
	! grep -q "[^\\]<[a-z/]" s.md &&
	grep -Fq "\\<img src=x onerror=alert(2)\\>" s.md &&
	grep -Fq "(base: none; other: n=1 \\<u\\>x\\</u\\> \\| a\\*b\\_c)" s.md
'

test_expect_success 'without gnuplot: the tables, a warning and why, exit 0' '
	cd "$TEST_ROOT" &&
	ukbench report --gnuplot "$TEST_ROOT/no/gnuplot" -o n.html x.json y.json 2>err &&
	grep -q "^warning: the report has no plots: $TEST_ROOT/no/gnuplot: no such program\$" err &&
	grep -q "<p class=\"noplot\">No plots: .*no such program. The plots are drawn by gnuplot" n.html &&
	! grep -q "<img" n.html &&
	grep -q "<table class=\"summary\">" n.html &&
	PATH=/nonexistent "$UKBENCH" report -o p.html x.json y.json 2>err &&
	grep -q "^warning: the report has no plots: gnuplot is not installed (Debian: apt install gnuplot-nox)\$" err &&
	ukbench report --gnuplot /bin/false -o f.html x.json y.json 2>err &&
	grep -q "^warning: the report has no plots: /bin/false failed (exit 1)\$" err &&
	ukbench report --no-plots -o q.html x.json y.json 2>err &&
	! test -s err &&
	grep -q "No plots: plots were turned off (--no-plots)" q.html
'

test_expect_success GNUPLOT '--history: a plot a host and path, the step marked where history finds it' '
	cd "$TEST_ROOT" &&
	ukbench history --db h.db -f json time.time/vdso >h.json &&
	jq -e "[.[] | select(.host != \"board-2\" and .change_point)] | length == 1 and .[0].run == 7" h.json &&
	ukbench report --db h.db --history -o h.html time.time/vdso &&
	test "$(grep -c "<img class=\"plot\"" h.html)" = 2 &&
	grep -q "<h3>time.time/vdso on board-2</h3>4 runs, 0 change points" h.html &&
	grep -q "<td>#7 (7 of 12)</td><td>2026-01-07T00:00:00Z</td><td>nightly-7</td>" h.html &&
	svgs h.html >svgs &&
	grep -q "+\(19\.9\|20\.0\)[0-9]%" svgs &&
	ukbench report --db h.db --history --host board-2 -o b.html &&
	! grep -q "on vm\|on $(uname -n)<" b.html &&
	ukbench report --db h.db --history -f markdown time.time/vdso >h.md &&
	grep -q "^| #7 | 2026-01-07T00:00:00Z | nightly-7 | .* | +\(19\.9\|20\.0\)[0-9]% | " h.md
'

test_expect_success 'markdown: the table, the environment, text plots in a fenced block' '
	cd "$TEST_ROOT" &&
	ukbench report -f markdown x.json y.json >m.md &&
	grep -q "^| benchmark/path | base ns | other ns | change | 95% CI | MDE | verdict |\$" m.md &&
	test "$(grep -c "^| time\.time/" m.md)" -ge 1 &&
	grep -q "^\`\`\`text\$" m.md &&
	grep -q "^  base .*┃" m.md && grep -q "^  other .*┃" m.md &&
	test "$(grep -c "^\`\`\`" m.md)" = 2 &&
	grep -v "^|" m.md >prose &&
	fits 80 prose
'

test_expect_success 'compare --plot and history --plot: box plots and sparklines in 80 columns' '
	cd "$TEST_ROOT" &&
	(unset COLUMNS && ukbench compare --plot x.json y.json >cp.out) &&
	grep -q "^time.time/vdso: +[0-9.]*% \[" cp.out &&
	grep -q "^  base  .*├.*┃.*┤\|^  base  .*┃" cp.out &&
	grep -q "^  other .*┃" cp.out &&
	grep -q " ns\$" cp.out &&
	(unset COLUMNS && ukbench history --db h.db --plot time.time/vdso >hp.out) &&
	grep -q "^  [▁▂▃▄▅▆▇█]\{12\}\$" hp.out &&
	grep -q "^        ^\$" hp.out &&
	grep -q "^  ^ step +\(19\.9\|20\.0\)[0-9]% at run #7 (nightly-7, 2026-01-07)\$" hp.out &&
	(COLUMNS=50 && export COLUMNS && ukbench compare --plot x.json y.json >cp50.out) &&
	fits 80 cp.out hp.out &&
	test_expect_code 2 ukbench compare --plot -f json x.json y.json 2>err &&
	grep -q "^error: --plot draws in the terminal" err &&
	test_expect_code 2 ukbench history --db h.db --plot -f csv 2>err &&
	grep -q "^error: --plot draws in the terminal" err
'

test_expect_success 'bad usage: a clear error and exit code, nothing lost' '
	cd "$TEST_ROOT" &&
	cp h.db before.db &&
	echo "an older report" >old.html &&
	test_expect_code 2 ukbench report --db h.db -o old.html nightly-1 2>err &&
	grep -q "needs a base run and at least one other, or --history" err &&
	test_expect_code 2 ukbench report --db h.db -f pdf -o old.html nightly-1 nightly-7 2>err &&
	grep -q "^error: unknown format .pdf.: html or markdown" err &&
	test_expect_code 2 ukbench report --db h.db -o old.html nightly-1 no-such-run 2>err &&
	test_expect_code 2 ukbench report --db h.db --history --floor 1 -o old.html 2>err &&
	grep -q "^error: --floor is for a comparison; --history does not take it" err &&
	test_expect_code 2 ukbench report --db h.db --host vm -o old.html nightly-1 nightly-7 2>err &&
	grep -q "^error: --host selects runs for --history" err &&
	test_expect_code 1 ukbench report --db h.db -o "$TEST_ROOT/no/dir/r.html" nightly-1 nightly-7 2>err &&
	grep -q "^error: cannot write" err &&
	test_expect_code 2 ukbench report --db empty.db --history -o old.html 2>err &&
	grep -q "no stored results" err && test ! -e empty.db &&
	test_expect_code 2 ukbench report --db h.db --history -o old.html no.such.bench 2>err &&
	grep -q "no stored result matches .no.such.bench." err &&
	test "$(cat old.html)" = "an older report" &&
	cmp h.db before.db &&
	test_tmpdir_empty
'

test_expect_success SCRIPT 'an HTML report is not written to a terminal' '
	cd "$TEST_ROOT" &&
	script -qec "\"$UKBENCH\" report x.json y.json" /dev/null >tty.out 2>&1;
	grep -q "error: an HTML report is a file: name it with -o" tty.out &&
	script -qec "\"$UKBENCH\" report -f markdown --no-plots x.json y.json" /dev/null >tty.out 2>&1 &&
	grep -q "^### ukbench report" tty.out
'

test_done
