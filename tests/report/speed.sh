#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# speed.sh - how fast a large report is made and shown: two runs of 84
# paths, five processes a side (made from a real run by mkrun.py), written
# by `ukbench report` (gnuplot drawing every plot) and opened in headless
# Chromium (browser.py: navigation until every plot is decoded and a frame
# drawn). Prints the median of five of each; the target is a page shown in
# under 2 seconds. Usage: speed.sh [UKBENCH]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ukbench=$(realpath "${1:-$here/../../build/ukbench}")
dir=$(mktemp -d "${TMPDIR:-/tmp}/ukbench-report-speed.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

"$ukbench" run --budget 0.05 --warmup 0.002 --min-samples 3 --batch 200 --no-store \
	-j t.json time.time/vdso >/dev/null
"$here/mkrun.py" t.json a.json --paths 84 --procs 5 --spread 0.02 --seed 1
"$here/mkrun.py" t.json b.json --paths 84 --procs 5 --spread 0.02 --seed 2 --scale 1.01

for i in 1 2 3 4 5; do
	s=$(date +%s%N)
	"$ukbench" report --no-floor -o r.html a.json b.json
	echo $((($(date +%s%N) - s) / 1000000))
done | median >write.ms
plots=$(grep -c '<img class="plot"' r.html)
bytes=$(wc -c <r.html)
: >render.ms
: >load.ms
for i in 1 2 3 4 5; do
	"$here/browser.py" r.html >b.json
	jq -r .render_ms b.json >>render.ms
	jq -r .load_ms b.json >>load.ms
	jq -e '.console == [] and (.plots | all(.ink > 0))' b.json >/dev/null
done
echo "report of 84 paths, 5 processes a side: $plots plots, $bytes bytes"
echo "written by ukbench report (gnuplot included): $(median <write.ms) ms (median of 5)"
echo "opened in headless Chromium: load event $(median <load.ms) ms, every plot decoded and drawn $(median <render.ms) ms (median of 5; target: under 2000 ms)"
