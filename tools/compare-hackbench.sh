#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# compare-hackbench.sh [ROUNDS] - sched.messaging beside hackbench (rt-tests),
# measured alternately on this machine: hackbench's own "Time:" against
# ukbench's per-run figure, for sockets and pipes, processes and threads,
# with hackbench's defaults (10 groups, 20 fds, 100 loops, 100 bytes).
# Prints the median of each and their ratio.
set -eu
rounds=${1:-7}
ukbench=${UKBENCH:-$(dirname "$0")/../build/ukbench}
command -v hackbench >/dev/null || { echo "hackbench not found (apt-get install rt-tests)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

printf "%-16s %-46s %12s %12s %8s\n" variant "hackbench command" "hackbench s" "ukbench s" ratio
for v in socket_process pipe_process socket_thread pipe_thread; do
	flags=""
	case $v in pipe_*) flags="$flags --pipe" ;; esac
	case $v in *_thread) flags="$flags --threads" ;; esac
	: >"$tmp/h" && : >"$tmp/u"
	for i in $(seq "$rounds"); do
		hackbench -g 10 -f 20 -l 100 -s 100 $flags | awk '/^Time:/ { print $2 }' >>"$tmp/h"
		"$ukbench" run --no-store --quiet --min-samples 2 --max-samples 2 --warmup 0 \
			--json "$tmp/r.json" "sched.messaging.$v"
		jq ".results[0].samples_ns[] / 1e9" "$tmp/r.json" >>"$tmp/u"
	done
	h=$(median <"$tmp/h")
	u=$(median <"$tmp/u")
	printf "%-16s %-46s %12.4f %12.4f %8.3f\n" "$v" "hackbench -g 10 -l 100 -s 100$flags" "$h" "$u" \
		"$(echo "$u $h" | awk '{ print $1 / $2 }')"
done
