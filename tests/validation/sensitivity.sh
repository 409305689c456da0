#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sensitivity.sh - what a default run costs and how its headline holds
# under load, measured with the real pipeline and printed as figures:
#
#   1. the default suite's length (target: under 60 s);
#   4. the headline under 2x oversubscription (two busy loops a CPU)
#      against quiet, interleaved rounds of runs of 1 s a path:
#      ukbench's figure (and the same over the reference beside it: the
#      machine's own drift between the rounds taken out), a plain loop's
#      and perf bench's, each the median of the rounds' ratios with its
#      95% interval (target for ukbench: within 3%, held where the whole
#      interval lies within it).
#
# What the verdicts are worth (A/A over every pair of runs spread in time,
# coverage, a change planted in the kernel, replication) is
# tests/validation/validity.sh's.
#
# Needs a built ukbench with its tools (make), python3; perf (linux-perf)
# for its column. Takes about 5 minutes with the defaults. SENS_KEEP=1
# keeps the work directory; SENS_FROM=DIR prints 4 again from the rounds
# a kept directory holds.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
ukb=${UKBENCH:-$top/build/ukbench}
bin=$(dirname "$ukb")
rounds=${SENS_ROUNDS:-9}
suite=${SENS_SUITE:-1}
paths="time.clock_gettime.monotonic/vdso syscall.null/syscall"
[ -x "$bin/plain-loop" ] || { echo "sensitivity: $bin/plain-loop not built (make)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "sensitivity: needs python3" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ukbench-sensitivity.XXXXXX")
busy_pids=""
busy_stop() {
	[ -z "$busy_pids" ] || kill $busy_pids 2>/dev/null || :
	busy_pids=""
}
cleanup() {
	busy_stop
	if [ "${SENS_KEEP:-0}" = 1 ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export UKBENCH_DB="$work/s.db"
from=${SENS_FROM:-}
if [ -n "$from" ]; then
	[ -e "$from/head" ] || { echo "sensitivity: '$from' holds no head (a directory SENS_KEEP=1 kept)" >&2; exit 2; }
fi
busy_start() {
	b=0
	while [ $b -lt $((2 * $(nproc))) ]; do
		sh -c 'while :; do :; done' &
		busy_pids="$busy_pids $!"
		b=$((b + 1))
	done
	sleep 1
}
load() { cut -d' ' -f1 /proc/loadavg; }

now() { date +%s.%N; }

echo "sensitivity: $(uname -r) $(uname -m), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(load)"
[ -z "$from" ] || echo "sensitivity: the rounds kept in $from"

# 1 ------------------------------------------------------------------
if [ "$suite" = 1 ] && [ -z "$from" ]; then
	t0=$(now)
	"$ukb" run -q --no-store
	echo "1. default suite: $(echo "$(now) - $t0" | bc | xargs printf '%.1f') s (target: under 60 s), load $(load)"
fi

# 4 --------------------------------------------------------------------
perf_bench() {
	command -v perf >/dev/null && perf bench syscall basic 2>/dev/null |
		awk '/usecs\/op/ { printf "%.3f\n", $1 * 1000 }' || echo nan
}
headline() { # $1: quiet or loaded
	# shellcheck disable=SC2086
	"$ukb" run -q --no-store --budget 1 --json "$work/h.json" $paths
	python3 -c "import json; d = json.load(open('$work/h.json')); print(' '.join('%.4f' % r['stats']['mean_ns'] for r in d['results']))" |
		while read -r cg sc; do
			echo "$1 ukbench $cg $sc"
		done
	# the same over the reference beside it: what the machine itself did
	python3 -c "import json, statistics as st; d = json.load(open('$work/h.json')); print(' '.join('%.6f' % st.mean(m / r for m, r in zip(x['process_means_ns'], x['process_ref_ns'])) for x in d['results']))" |
		while read -r cg sc; do
			echo "$1 adjusted $cg $sc"
		done
	echo "$1 loop $("$bin/plain-loop" clock_gettime 5000000) $("$bin/plain-loop" syscall 1000000)"
	echo "$1 perf nan $(perf_bench)"
}
if [ -z "$from" ]; then
	: >"$work/head"
	r=1
	while [ $r -le "$rounds" ]; do
		headline quiet >>"$work/head"
		busy_start
		headline loaded >>"$work/head"
		busy_stop
		r=$((r + 1))
	done
elif [ -e "$from/head" ]; then
	cp "$from/head" "$work/head"
fi
# the median of the rounds' ratios, with its distribution-free 95% interval
# (order statistics of the binomial); the target holds where the whole
# interval lies within 3%, fails where none of it does, and cannot be told
# otherwise
[ ! -s "$work/head" ] || python3 - "$work/head" <<'EOF'
import math, statistics as st, sys
rows = [l.split() for l in open(sys.argv[1])]
rounds = sum(r[0] == "quiet" and r[1] == "ukbench" for r in rows)
def median_ci(x):
    x, n = sorted(x), len(x)
    k = 0
    while 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n <= 0.05:
        k += 1
    return (x[k - 1], x[n - k]) if k else (math.nan, math.nan)
print(f"4. the headline under 2x oversubscription against quiet, {rounds} interleaved rounds (medians; the ratio's median [its 95% CI]):")
for tool in ("ukbench", "adjusted", "loop", "perf"):
    for k, name in ((2, "clock_gettime vdso"), (3, "null system call")):
        q = [float(r[k]) for r in rows if r[1] == tool and r[0] == "quiet"]
        l = [float(r[k]) for r in rows if r[1] == tool and r[0] == "loaded"]
        if not q or any(x != x for x in q + l):
            continue
        ratios = [b / a for a, b in zip(q, l)]
        lo, hi = median_ci(ratios)
        target = ""
        if tool == "ukbench":
            held = ("held" if 0.97 <= lo and hi <= 1.03 else
                    "not held" if hi < 0.97 or lo > 1.03 else "cannot tell")
            target = f" (target: within 3%: {held})"
        unit = "ns" if tool != "adjusted" else "  "
        print(f"   {tool:8s} {name:20s} quiet {st.median(q):9.2f} {unit}, loaded {st.median(l):9.2f} {unit}: "
              f"x{st.median(ratios):.3f} [{lo:.3f}, {hi:.3f}]{target}")
EOF

echo "done, load $(load)"
