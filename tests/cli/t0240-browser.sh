#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The report opened in a real browser (Debian's chromium, headless, driven
# by tests/report/browser.py): it loads without a console error, fetches
# nothing, shows every plot drawn (pixels on it), shows the strings of a
# run as text; a screenshot of each page is kept in the build directory
# (build/report/*.png).
. "$(dirname "$0")/../lib.sh"

tiny="--budget 0.05 --warmup 0.002 --min-samples 3 --batch 200"
mkrun=$(cd "$(dirname "$0")/.." && pwd)/report/mkrun.py
browser=$(cd "$(dirname "$0")/.." && pwd)/report/browser.py
shots=$(dirname "$UKBENCH")/report

# what every page must show the browser: no console message, no request
# but its own file, no script; $2 plots, each complete, of the size it
# says and with ink on it
clean_page() {
	jq -e --argjson n "$2" '.console == [] and .requests == [] and .scripts == 0 and
		(.plots | length) == $n and
		all(.plots[]; .complete and .width > 0 and .height > 0 and .ink > 500)' "$1"
}

test_expect_success 'set up: a real run, and runs made from it' '
	cd "$TEST_ROOT" &&
	ukbench run $tiny --no-store -j t.json time.time syscall.null >/dev/null &&
	"$mkrun" t.json x.json --label "<b>before</b>" &&
	"$mkrun" t.json y.json --scale 1.05 --label "<script>alert(1)</script>" \
		--host "<img src=x onerror=alert(2)>" --env clocksource=test-clock \
		--params "n=1 <u>x</u>" &&
	i=1 && while [ $i -le 12 ]; do
		s=1; [ $i -gt 6 ] && s=1.1
		"$mkrun" t.json h$i.json --scale $s --spread 0.002 --seed $i \
			--started "2026-03-$(printf %02d $i)T00:00:00Z" || return 1
		i=$((i + 1))
	done &&
	ukbench import --db h.db h1.json h2.json h3.json h4.json h5.json h6.json h7.json \
		h8.json h9.json h10.json h11.json h12.json >/dev/null &&
	"$mkrun" t.json big-a.json --paths 84 --procs 5 --spread 0.02 --seed 1 &&
	"$mkrun" t.json big-b.json --paths 84 --procs 5 --spread 0.02 --seed 2 --scale 1.01 &&
	mkdir -p "$shots"
'

test_expect_success CHROMIUM,GNUPLOT 'a comparison: clean, every plot drawn, run strings shown as text' '
	cd "$TEST_ROOT" &&
	ukbench report --force -o c.html x.json y.json &&
	n=$(grep -c "<img class=\"plot\"" c.html) && test "$n" -ge 2 &&
	"$browser" c.html --screenshot "$shots/compare.png" >c.out &&
	clean_page c.out "$n" &&
	# the first, every path at once (a forest plot), then a plot a path
	jq -e ".plots[0].alt == \"every path\" and .plots[0].width == 820" c.out &&
	jq -e ".plots[1:] | all(.width == 360 and .height == 240)" c.out &&
	jq -e ".text | contains(\"<script>alert(1)</script>\") and
		contains(\"<img src=x onerror=alert(2)>\") and contains(\"n=1 <u>x</u>\") and
		contains(\"test-clock\")" c.out &&
	test "$(head -c 8 "$shots/compare.png" | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a
'

test_expect_success CHROMIUM,GNUPLOT 'a history: clean, a plot a series' '
	cd "$TEST_ROOT" &&
	ukbench report --db h.db --history -o h.html time.time syscall.null &&
	n=$(ukbench history --db h.db -f json time.time syscall.null | jq "[.[] | \"\(.name)/\(.path)/\(.host)\"] | unique | length") &&
	test "$n" -ge 2 &&
	"$browser" h.html --screenshot "$shots/history.png" >h.out &&
	clean_page h.out "$n" &&
	jq -e ".text | contains(\"change point\")" h.out &&
	test -s "$shots/history.png"
'

test_expect_success CHROMIUM 'without gnuplot: clean, no plot, and it says why' '
	cd "$TEST_ROOT" &&
	ukbench report --force --gnuplot "$TEST_ROOT/none" -o n.html x.json y.json 2>/dev/null &&
	"$browser" n.html --screenshot "$shots/no-plots.png" >n.out &&
	clean_page n.out 0 &&
	jq -e ".text | contains(\"No plots:\")" n.out
'

test_expect_success CHROMIUM 'the check catches a broken page: a script, a fetch, an empty plot' '
	cd "$TEST_ROOT" &&
	printf "<p>x</p><script>console.error(\"planted\")</script>\n" >script.html &&
	"$browser" script.html >s.out && ! clean_page s.out 0 &&
	jq -e ".console | any(contains(\"planted\"))" s.out &&
	printf "<img class=\"plot\" src=\"http://192.0.2.1/x.svg\">\n" >fetch.html &&
	"$browser" fetch.html >f.out && ! clean_page f.out 1 &&
	jq -e ".requests == [\"http://192.0.2.1/x.svg\"]" f.out &&
	svg="<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"30\"></svg>" &&
	printf "<img class=\"plot\" src=\"data:image/svg+xml;base64,%s\">\n" \
		"$(printf "%s" "$svg" | base64 -w0)" >blank.html &&
	"$browser" blank.html >b.out && ! clean_page b.out 1 &&
	jq -e ".plots[0].width == 40 and .plots[0].ink == 0" b.out
'

test_expect_success CHROMIUM,GNUPLOT '84 paths of five processes a side: every plot drawn' '
	cd "$TEST_ROOT" &&
	ukbench report --no-floor -o big.html big-a.json big-b.json &&
	"$browser" big.html >big.out &&
	clean_page big.out 85 &&
	jq -r "\"# render: \(.render_ms) ms, load \(.load_ms) ms, \(.height) px\"" big.out
'

test_done
