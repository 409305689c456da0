#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# alternation.sh - what setting each run against its neighbour is worth
# where two sides alternate in time (A B A B ...), against comparing them
# as two groups (`compare --paired`, and without it), measured with the real pipeline
# and printed as figures:
#
#   1. A/A: ALT_RUNS (24) default runs of ALT_PATHS (with ALT_OPTS, the
#      read of /dev/zero at -s 12k), each after a random pause of up to
#      ALT_PAUSE (20) seconds, so that the machine drifts between them; every
#      window of 2N of them (N = 2, 3, 4 runs a side) labelled A B A B ...
#      in a store of its own: the share of path comparisons called
#      improved or regressed, paired and unpaired (target: at most 5%
#      paired), and the median MDE of each path both ways.
#   2. a real change: as many runs, every other one under seccomp's entry
#      on every system call (tools/seccomp-slow 0), the windows that start
#      with a run without it: how often each path is called regressed,
#      and its median MDE, both ways (the vDSO path, which the filter never
#      enters, must not be called changed).
#
# Each window's store holds its runs alone: the floor is the one assumed
# where nothing taught it, as in a user's first comparison. Needs a built
# ukbench with its tools (make), jq and python3; about 12 minutes.
# ALT_KEEP=1 keeps the work directory; ALT_FROM=DIR compares the runs
# a kept one holds again, measuring nothing.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
ukb=${UKBENCH:-$top/build/ukbench}
bin=$(dirname "$ukb")
nruns=${ALT_RUNS:-24}
paths=${ALT_PATHS:-syscall.null/libc copy.read_zero/read time.clock_gettime.realtime/vdso}
ropts=${ALT_OPTS:--s 12k}
pause=${ALT_PAUSE:-20}
for t in jq python3; do
	command -v $t >/dev/null || { echo "alternation: needs $t" >&2; exit 2; }
done
[ -x "$bin/seccomp-slow" ] || { echo "alternation: $bin/seccomp-slow not built (make)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ukbench-alternation.XXXXXX")
cleanup() {
	if [ "${ALT_KEEP:-0}" = 1 ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "alternation: $(uname -r) $(uname -m), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1 /proc/loadavg)"

# series NAME PLANT: ALT_RUNS runs back to back, every odd one (1-based
# even) under the filter when PLANT=1, each kept as NAME.I.json
series() {
	i=1
	while [ "$i" -le "$nruns" ]; do
		[ "$i" = 1 ] || sleep "$(shuf -i 0-"$pause" -n 1)"
		if [ "$2" = 1 ] && [ $((i % 2)) = 0 ]; then
			# shellcheck disable=SC2086
			"$bin/seccomp-slow" 0 -- "$ukb" run -q --no-store $ropts --json "$work/$1.$i.json" $paths
		else
			# shellcheck disable=SC2086
			"$ukb" run -q --no-store $ropts --json "$work/$1.$i.json" $paths
		fi
		i=$((i + 1))
	done
}

# windows NAME STEP: every window of 2N runs (starting each STEP runs),
# labelled A B A B ..., compared both ways: JSON lines "N paired row"
windows() {
	for n in 2 3 4; do
		w=1
		while [ $((w + 2 * n - 1)) -le "$nruns" ]; do
			db="$work/w.db"
			rm -f "$db"
			k=0
			while [ "$k" -lt $((2 * n)) ]; do
				l=A
				[ $((k % 2)) = 1 ] && l=B
				"$ukb" import --db "$db" -l "$l" "$work/$1.$((w + k)).json" >/dev/null
				k=$((k + 1))
			done
			for how in paired unpaired; do
				opt=""
				[ "$how" = paired ] && opt=--paired
				# shellcheck disable=SC2086
				"$ukb" compare --db "$db" $opt -f json A B 2>/dev/null |
					jq -c --argjson n "$n" --arg how "$how" \
						'.[] | {n: $n, how: $how, name, path, verdict, mde, change, paired}'
			done
			w=$((w + $2))
		done
	done
}

if [ -n "${ALT_FROM:-}" ]; then
	cp "$ALT_FROM"/*.json "$work"/
	echo "alternation: the runs kept in $ALT_FROM, compared anew"
else
	echo "alternation: 1. $nruns runs, A/A ($ropts $paths)"
	series aa 0
	echo "alternation: 2. $nruns runs, every other one under seccomp's entry"
	series ch 1
fi
windows aa 1 >"$work/aa.rows"
: >"$work/ch.rows"
[ ! -f "$work/ch.1.json" ] || windows ch 2 >"$work/ch.rows"

python3 - "$work/aa.rows" "$work/ch.rows" <<'EOF'
import json, sys, statistics as st

def load(p):
    return [json.loads(l) for l in open(p) if l.strip()]

def called(r):
    return r["verdict"] in ("improved", "regressed")

def table(rows, what):
    keys = sorted({(r["name"], r["path"]) for r in rows})
    print("| path | runs a side | comparisons | %s paired | %s unpaired | median MDE paired | unpaired | ratio |" % (what, what))
    print("|---|---|---|---|---|---|---|---|")
    for n in (2, 3, 4):
        for k in keys:
            p = [r for r in rows if r["n"] == n and (r["name"], r["path"]) == k and r["how"] == "paired" and r["mde"] is not None]
            u = [r for r in rows if r["n"] == n and (r["name"], r["path"]) == k and r["how"] == "unpaired" and r["mde"] is not None]
            if not p or not u:
                continue
            if what == "called changed":
                cp, cu = sum(map(called, p)), sum(map(called, u))
            else:
                cp = sum(r["verdict"] == "regressed" for r in p)
                cu = sum(r["verdict"] == "regressed" for r in u)
            mp, mu = st.median(r["mde"] for r in p), st.median(r["mde"] for r in u)
            print("| %s/%s | %d | %d | %d (%.1f%%) | %d (%.1f%%) | %.2f%% | %.2f%% | %.2f |" % (
                k[0], k[1], n, len(p), cp, 100.0 * cp / len(p), cu, 100.0 * cu / len(u),
                100 * mp, 100 * mu, mp / mu))
    notp = sum(1 for r in rows if r["how"] == "paired" and not r["paired"])
    if notp:
        print("(%d comparisons could not pair: a run lacked a path, or a side's state)" % notp)

aa, ch = load(sys.argv[1]), load(sys.argv[2])
print("\n1. A/A, every window:")
table(aa, "called changed")
allp = [r for r in aa if r["how"] == "paired"]
allu = [r for r in aa if r["how"] == "unpaired"]
print("A/A called changed: paired %d of %d (%.1f%%), unpaired %d of %d (%.1f%%)" % (
    sum(map(called, allp)), len(allp), 100.0 * sum(map(called, allp)) / max(1, len(allp)),
    sum(map(called, allu)), len(allu), 100.0 * sum(map(called, allu)) / max(1, len(allu))))
print("\n2. every other run under seccomp's entry (windows starting without it):")
table(ch, "regressed")
EOF
