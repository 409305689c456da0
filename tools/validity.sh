#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# validity.sh [PAIRS] - what ukbench's verdicts are worth on this machine,
# measured with the real pipeline (default `run`, then `compare`,
# `history`, `calibrate`), and printed as figures:
#
#   1. A/A false alarms: 2 x PAIRS runs of the same five paths, one after
#      another (each about 4 s, so the runs of a pair are made at different
#      times); each pair compared; the share of path comparisons called
#      improved or regressed. Target: at most 5%.
#   2. coverage: how often a run's 95% CI holds the mean of all the other
#      runs of the same path. Target: at least 90%.
#   3. false change points: `history` over the first 20 runs (flat: nothing
#      changed), five paths. Target: at most 1.
#   4. detection: `calibrate` (planted +2%, +5%, +10% of known work, in
#      fresh processes at separate times); the sizes above the printed
#      minimum detectable effect must be detected in at least 80% of rounds.
#
# Before the runs, `calibrate` stores the floor of this host, which
# `compare` then adds; the A/A rate is printed without it too.
# Needs a built ukbench (UKBENCH, default build/ukbench), jq and sqlite3.
# Takes about 5 minutes with PAIRS=20 (the default).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ukb=${UKBENCH:-$top/build/ukbench}
pairs=${1:-20}
paths="time.clock_gettime.monotonic/vdso time.gettimeofday/vdso time.time/vdso
cpu.getcpu/vdso syscall.null/syscall"
work=$(mktemp -d "${TMPDIR:-/tmp}/ukbench-validity.XXXXXX")
# VALIDITY_KEEP=1 keeps the store and the outputs, and says where
if [ "${VALIDITY_KEEP:-0}" = 1 ]; then
	trap 'echo "kept: $work"' EXIT
else
	trap 'rm -rf "$work"' EXIT
fi
db=$work/v.db
export UKBENCH_DB=$db

echo "validity: $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $pairs pairs"

# 4 first: calibrate measures detection and stores the floor compare uses
"$ukb" calibrate --rounds "$pairs" >"$work/cal" 2>&1
sed 's/^/  calibrate: /' "$work/cal"

i=0
while [ $i -lt $((2 * pairs)) ]; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	"$ukb" run -q -l "r$i" $paths
done

flagged() {
	grep -c "  improved$\|  regressed$" "$1" || true
}
compared() {
	grep -c "  no change$\|  within noise$\|  improved$\|  regressed$\|  unreplicated$" "$1" || true
}
n=0 f=0 f0=0
k=1
while [ $k -le "$pairs" ]; do
	"$ukb" compare "r$((2 * k - 1))" "r$((2 * k))" >"$work/c" 2>/dev/null
	"$ukb" compare --no-floor "r$((2 * k - 1))" "r$((2 * k))" >"$work/c0" 2>/dev/null
	n=$((n + $(compared "$work/c")))
	f=$((f + $(flagged "$work/c")))
	f0=$((f0 + $(flagged "$work/c0")))
	k=$((k + 1))
done
grep "^floor:" "$work/c" | sed 's/^/  /'
awk -v f="$f" -v f0="$f0" -v n="$n" 'BEGIN {
	printf "A/A false alarms: %d of %d path comparisons (%.1f%%; target <= 5%%); without the floor: %d (%.1f%%)\n",
		f, n, 100 * f / n, f0, 100 * f0 / n }'

# 2: coverage of each run's CI over the mean of every other run of the path
sqlite3 -separator ' ' "$db" "SELECT r.name || '/' || r.path, r.mean_ns, r.ci95_ns FROM results r
	WHERE r.status = 'ok' ORDER BY r.name, r.path, r.run_id" >"$work/m"
awk '{ k = $1; n[k]++; s[k] += $2; m[k, n[k]] = $2; c[k, n[k]] = $3 }
	END {
		for (k in n) for (i = 1; i <= n[k]; i++) {
			other = (s[k] - m[k, i]) / (n[k] - 1)
			d = m[k, i] - other; if (d < 0) d = -d
			tot++; hit += d <= c[k, i]; ph[k] += d <= c[k, i]
		}
		for (k in n)
			printf "  coverage of %s: %d of %d\n", k, ph[k], n[k]
		printf "coverage: a run'"'"'s 95%% CI holds the mean of the other runs in %d of %d (%.1f%%; target >= 90%%)\n",
			hit, tot, 100 * hit / tot }' "$work/m"

# 3: change points among the first 20 runs, which changed nothing (the
# history is of all the runs; a point counts when it falls among them)
sqlite3 "$db" "SELECT id FROM runs WHERE label IN ($(seq -s, -f "'r%g'" 1 $((pairs < 20 ? 2 * pairs : 20)))) ORDER BY id" >"$work/ids"
lo=$(head -1 "$work/ids") hi=$(tail -1 "$work/ids")
"$ukb" history >"$work/h" 2>/dev/null
cp_flat=$(awk -v lo="$lo" -v hi="$hi" '/<< change point/ && $1 + 0 >= lo && $1 + 0 <= hi' "$work/h" | wc -l)
echo "false change points: $cp_flat in the first $(wc -l <"$work/ids") runs of 5 flat paths (target <= 1; history over all $((2 * pairs)) runs)"

# 4: detection above the minimum detectable effect
mde=$(sed -n 's/.*median over rounds: \([0-9.]*\)%.*/\1/p' "$work/cal")
awk -v mde="$mde" '$1 ~ /^\+[0-9]+%$/ {
		size = substr($1, 2) + 0; rate = $4 + 0
		verdict = size > mde ? (rate >= 80 ? "ok" : "MISSED") : "below the MDE"
		printf "detection of %s: %s of %s rounds (%s; MDE %.2f%%: %s)\n", $1, $3, $2, $4, mde, verdict
	}' "$work/cal"
