#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# validity.sh - what ukbench's verdicts are worth on this machine, across
# its states, measured with the real pipeline (default `run`, then
# `compare`), every pair of runs compared as users compare them (minutes
# apart, not neighbours), and printed as figures:
#
#   1. A/A over all pairs spread in time: VALIDITY_RUNS (16) default runs
#      of six paths, each after a random pause of up to VALIDITY_PAUSE (60)
#      seconds, every pair compared: the share of path comparisons called
#      improved or regressed, in the store as it is (no calibrate) and in a
#      copy of it after `ukbench calibrate` (target: at most 5% each); and
#      the same with as many runs, half of them (at random) under 2x
#      oversubscription, with the quiet-against-loaded pairs apart.
#   2. coverage: how often a run's ±CI95, as `run` stated it when it ran,
#      holds the median of the other runs' means of its path (target: at
#      least 90%), quiet and loaded.
#   3. detection: a real change planted in system-call entry (a seccomp
#      filter, tools/seccomp-slow.c, sized by a plain loop to slow a null
#      system call by VALIDITY_SLOW percent, 7 unless set), VALIDITY_DETECT
#      (10) runs with it and as many without, interleaved, in one store;
#      every pair compared one run a side: how often the system-call paths
#      are called regressed (target: at least 80%) and the vDSO path
#      beside them called changed (target: at most 5%), with the MDE.
#   4. the printed change is the printed figures' ratio, within 0.1 points,
#      in every format: table, JSON, CSV, mail, markdown and the report's
#      markdown, over pairs of the runs of 1.
#   5. replication: VALIDITY_REPS (28) runs back to back, relabelled as
#      labels of N runs (N = 1, 2, 3, 4, 6), every pair of labels compared:
#      the median MDE per path (target: shrinking with N, never above N =
#      1's; the null system call at most 2.5% at N = 6) and the share
#      called changed (target: at most 5% at N = 4, over 21 label pairs).
#   6. a store with history, as a user's store becomes: 2 x VALIDITY_ROUNDS
#      (6) before/after pairs in a shuffled order, every label given once
#      (b1/a1, b2/a2, ...): half of them A/A, half with seccomp's entry
#      planted on every system call (tools/seccomp-slow 0), measured on
#      the null system call and on reads of /dev/zero of VALIDITY_SIZES
#      bytes (12288 32768 98304), which its fixed cost slows by less the
#      larger they are (sized by a plain loop: on a 2-vCPU EPYC guest
#      about +13%, +7%, +3%), beside the vDSO, which it never enters. Each
#      pair is compared one run a side in the store as it stood then (the
#      runs imported one by one into a new store) and again in the whole
#      store after: how often each is called regressed, the MDE of the
#      first and second half, A/A called changed (targets: +13% in 5 of 6,
#      +7% in 4 of 6 where the MDE is below it, no A/A, the MDE of the
#      second half within 1.2x of the first's). The same again in a store
#      that holds a calibration of those paths and sizes first (`calibrate
#      -s`, as a user who calibrated once has): the floor then learned.
#
# Needs a built ukbench with its tools (make), jq and python3. Takes about
# 40 minutes with the defaults. VALIDITY_KEEP=1 keeps the work directory;
# VALIDITY_FROM=DIR compares the runs a kept directory holds again with
# this build, measuring nothing (1 and 3 to 5 anew; 2 as the runs stated
# it when they ran). VALIDITY_PARTS (default "1 3 5 6") picks what is
# measured; 2 and 4 come with 1.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
ukb=${UKBENCH:-$top/build/ukbench}
bin=$(dirname "$ukb")
nruns=${VALIDITY_RUNS:-16}
pause=${VALIDITY_PAUSE:-60}
ndet=${VALIDITY_DETECT:-10}
slow=${VALIDITY_SLOW:-7}
nreps=${VALIDITY_REPS:-28}
parts=${VALIDITY_PARTS:-1 3 5 6}
from=${VALIDITY_FROM:-}
paths="time.clock_gettime.realtime/vdso time.clock_gettime.monotonic/syscall
random.getrandom.4/vdso copy.read_zero.1k/read syscall.null/libc cpu.getcpu/syscall"
for t in jq python3; do
	command -v $t >/dev/null || { echo "validity: needs $t" >&2; exit 2; }
done
for t in plain-loop seccomp-slow; do
	[ -x "$bin/$t" ] || { echo "validity: $bin/$t not built (make)" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/ukbench-validity.XXXXXX")
busy_pids=""
busy_stop() {
	[ -z "$busy_pids" ] || kill $busy_pids 2>/dev/null || :
	busy_pids=""
}
busy_start() {
	b=0
	while [ $b -lt $((2 * $(nproc))) ]; do
		sh -c 'while :; do :; done' &
		busy_pids="$busy_pids $!"
		b=$((b + 1))
	done
	sleep 1
}
cleanup() {
	busy_stop
	if [ "${VALIDITY_KEEP:-0}" = 1 ] || [ -n "$from" ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
load() { cut -d' ' -f1 /proc/loadavg; }
has() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }

echo "validity: $(uname -r) $(uname -m), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(load)"
echo "validity: $("$ukb" --version | head -1)"
if [ -n "$from" ]; then
	[ -d "$from" ] || { echo "validity: '$from' is not a directory" >&2; exit 2; }
	cp -r "$from"/. "$work"/
	echo "validity: the runs kept in $from, compared anew"
fi

# session DB PREFIX N LOADED: N runs with random pauses; LOADED=1 puts
# half of them, at random, under 2x oversubscription
session() {
	db=$1 pre=$2 n=$3 loaded=$4
	order=$(i=0; while [ $i -lt "$n" ]; do echo $((i % 2 * loaded)); i=$((i + 1)); done | shuf)
	i=0
	for ld in $order; do
		i=$((i + 1))
		sleep "$(shuf -i 0-"$pause" -n 1)"
		if [ "$ld" = 1 ]; then busy_start; fi
		# shellcheck disable=SC2086
		UKBENCH_DB=$db "$ukb" run -q -l "$pre$i" --json "$work/$pre$i.json" $paths
		busy_stop
		echo "$pre$i $ld $(date +%s)" >>"$work/$pre.runs"
	done
}

# pairs DB PREFIX N OUT [compare options]: every pair of runs PREFIX1..N, as JSON lines
pairs() {
	db=$1 pre=$2 n=$3 out=$4
	shift 4
	: >"$out"
	i=1
	while [ $i -le "$n" ]; do
		j=$((i + 1))
		while [ $j -le "$n" ]; do
			UKBENCH_DB=$db "$ukb" compare -f json "$@" "$pre$i" "$pre$j" |
				jq -c --arg i "$i" --arg j "$j" '.[] | . + {i: ($i | tonumber), j: ($j | tonumber)}' >>"$out"
			j=$((j + 1))
		done
		i=$((i + 1))
	done
}

# 1, 2, 4 ----------------------------------------------------------------
if has 1; then
	if [ -z "$from" ]; then
		echo "1. $nruns runs quiet, then $nruns with half of them loaded, pauses up to $pause s (load $(load))"
		session "$work/q.db" q "$nruns" 0
		session "$work/l.db" l "$nruns" 1
		cp "$work/q.db" "$work/qc.db"
		# shellcheck disable=SC2086
		UKBENCH_DB="$work/qc.db" "$ukb" calibrate $paths >"$work/calibrate.out" 2>&1 ||
			echo "validity: calibrate failed: $(tail -1 "$work/calibrate.out")"
	fi
	pairs "$work/q.db" q "$nruns" "$work/q.pairs"
	pairs "$work/qc.db" q "$nruns" "$work/qc.pairs"
	pairs "$work/l.db" l "$nruns" "$work/l.pairs"
	# 4: every format of a few pairs, their printed figures
	: >"$work/formats"
	for p in "1 2" "2 $((nruns / 2 + 1))" "3 $nruns"; do
		set -- $p
		for f in table json csv mail markdown; do
			echo "== $f q$1 q$2" >>"$work/formats"
			UKBENCH_DB="$work/q.db" COLUMNS=200 "$ukb" compare -f $f "q$1" "q$2" >>"$work/formats"
		done
		echo "== report q$1 q$2" >>"$work/formats"
		UKBENCH_DB="$work/q.db" "$ukb" report -f markdown "q$1" "q$2" >>"$work/formats"
	done
fi

# 3 ------------------------------------------------------------------------
if has 3; then
	if [ -z "$from" ]; then
		# the shortest filter that slows a null system call by $slow% in a
		# plain loop, each try against a plain loop just before it
		filter=0
		while :; do
			base=$("$bin/plain-loop" syscall 2000000)
			s=$("$bin/seccomp-slow" "$filter" -- "$bin/plain-loop" syscall 2000000)
			ratio=$(echo "$s $base" | awk '{ printf "%.4f", $1 / $2 }')
			echo "   filter $filter: x$ratio"
			awk -v r="$ratio" -v t="$slow" 'BEGIN { exit !(r >= 1 + t / 100) }' && break
			filter=$((filter < 4 ? filter + 1 : filter * 3 / 2))
			[ $filter -le 4000 ] || { echo "validity: no filter slows a system call by $slow%" >&2; break; }
		done
		echo "$filter $ratio" >"$work/filter"
		echo "3. a seccomp filter of $filter comparisons: a null system call x$ratio in a plain loop"
		i=0
		while [ $i -lt "$ndet" ]; do
			i=$((i + 1))
			# shellcheck disable=SC2086
			UKBENCH_DB="$work/d.db" "$ukb" run -q -l base $paths
			# shellcheck disable=SC2086
			UKBENCH_DB="$work/d.db" "$bin/seccomp-slow" "$filter" -- "$ukb" run -q -l slow $paths
		done
		# and the truth, interleaved, after
		t=""
		for k in 1 2 3 4 5; do
			a=$("$bin/plain-loop" syscall 2000000)
			b=$("$bin/seccomp-slow" "$filter" -- "$bin/plain-loop" syscall 2000000)
			t="$t $(echo "$b $a" | awk '{ printf "%.4f", $1 / $2 }')"
		done
		echo "$t" >"$work/truth"
	fi
	UKBENCH_DB="$work/d.db" "$ukb" runs -f json | jq -r '.[] | "\(.id) \(.label)"' | sort -n >"$work/d.ids"
	: >"$work/d.pairs"
	for b in $(awk '$2 == "base" { print $1 }' "$work/d.ids"); do
		for s in $(awk '$2 == "slow" { print $1 }' "$work/d.ids"); do
			UKBENCH_DB="$work/d.db" "$ukb" compare -f json "$b" "$s" | jq -c '.[]' >>"$work/d.pairs"
		done
	done
fi

# 6 ------------------------------------------------------------------------
if has 6; then
	rounds=${VALIDITY_ROUNDS:-6}
	sizes=${VALIDITY_SIZES:-12288 32768 98304}
	hpaths="copy.read_zero syscall.null/syscall time.clock_gettime.monotonic/vdso"
	if [ -z "$from" ]; then
		# a user who calibrated the paths and sizes first (marked busy when it was)
		# shellcheck disable=SC2086
		"$ukb" calibrate --db "$work/hc.db" --busy -s "$(echo $sizes | tr ' ' ,)" $hpaths >"$work/hcal.out" 2>&1 ||
			echo "validity: calibrate failed: $(tail -1 "$work/hcal.out")"
		: >"$work/h.plan"
		k=0
		for c in $(r=0; while [ $r -lt "$rounds" ]; do echo 0; echo 1; r=$((r + 1)); done | shuf); do
			k=$((k + 1))
			# shellcheck disable=SC2086
			"$ukb" run --db "$work/h.db" -q -s "$(echo $sizes | tr ' ' ,)" -l "b$k" --json "$work/hb$k.json" $hpaths
			if [ "$c" = 1 ]; then
				# shellcheck disable=SC2086
				"$bin/seccomp-slow" 0 -- "$ukb" run --db "$work/h.db" -q -s "$(echo $sizes | tr ' ' ,)" -l "a$k" --json "$work/ha$k.json" $hpaths
			else
				# shellcheck disable=SC2086
				"$ukb" run --db "$work/h.db" -q -s "$(echo $sizes | tr ' ' ,)" -l "a$k" --json "$work/ha$k.json" $hpaths
			fi
			echo "$k $c" >>"$work/h.plan"
		done
		# the truth of each path, interleaved, after: seccomp's entry alone
		for s in syscall $sizes; do
			t=""
			case $s in syscall) m=syscall n=2000000 ;; *) m=read:$s n=200000 ;; esac
			for i in 1 2 3 4 5; do
				a=$("$bin/plain-loop" "$m" "$n")
				b=$("$bin/seccomp-slow" 0 -- "$bin/plain-loop" "$m" "$n")
				t="$t $(echo "$b $a" | awk '{ printf "%.4f", $1 / $2 }')"
			done
			echo "$s$t" >>"$work/h.truth"
		done
	fi
	# pair after pair: the store as it stood when the pair was compared, then the
	# whole store; h-: a new store, hc-: one holding the calibration first
	for v in h hc; do
		rm -f "$work/$v-then.db"
		[ "$v" = h ] || [ ! -f "$work/hc.db" ] || cp "$work/hc.db" "$work/$v-then.db"
		[ "$v" = h ] || [ -f "$work/hc.db" ] || continue
		: >"$work/$v-then.pairs"
		: >"$work/$v-after.pairs"
		while read -r k c; do
			"$ukb" import --db "$work/$v-then.db" "$work/hb$k.json" "$work/ha$k.json" >/dev/null
			"$ukb" compare --db "$work/$v-then.db" -f json "b$k" "a$k" |
				jq -c --arg k "$k" --arg c "$c" '.[] | . + {k: ($k | tonumber), changed: ($c == "1")}' >>"$work/$v-then.pairs"
		done <"$work/h.plan"
		while read -r k c; do
			"$ukb" compare --db "$work/$v-then.db" -f json "b$k" "a$k" |
				jq -c --arg k "$k" --arg c "$c" '.[] | . + {k: ($k | tonumber), changed: ($c == "1")}' >>"$work/$v-after.pairs"
		done <"$work/h.plan"
	done
fi

# 5 ------------------------------------------------------------------------
if has 5; then
	if [ -z "$from" ]; then
		echo "5. $nreps runs back to back (load $(load))"
		i=0
		while [ $i -lt "$nreps" ]; do
			i=$((i + 1))
			# shellcheck disable=SC2086
			UKBENCH_DB="$work/r.db" "$ukb" run -q -l "r$i" $paths
		done
	fi
	# each run as it stated itself, for coverage and width (2)
	i=0
	while [ $i -lt "$nreps" ]; do
		i=$((i + 1))
		[ -f "$work/r$i.json" ] ||
			UKBENCH_DB="$work/r.db" "$ukb" show -f json "r$i" >"$work/r$i.json"
	done
	for n in 1 2 3 4 6; do
		cp "$work/r.db" "$work/r$n.db"
		UKBENCH_DB="$work/r$n.db" "$ukb" runs -f json | jq -r '.[].id' | sort -n >"$work/r.ids"
		k=0
		while read -r id; do
			k=$((k + 1))
			UKBENCH_DB="$work/r$n.db" "$ukb" runs --relabel "g$(((k - 1) / n + 1))" "$id" --yes >/dev/null
		done <"$work/r.ids"
		pairs "$work/r$n.db" g $((nreps / n)) "$work/r$n.pairs"
	done
fi

python3 - "$work" "$nruns" "$nreps" "$parts" <<'EOF'
import json, os, re, statistics, sys

work, nruns, nreps, parts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split()
FLAG = ("improved", "regressed")

def rows(name):
    p = os.path.join(work, name)
    return [json.loads(l) for l in open(p)] if os.path.exists(p) else []

def compared(r):
    return r.get("verdict") in ("no change", "within noise", "improved", "regressed", "unreplicated",
                                "not significant", "cannot tell",
                                "other state")

def rate(rs, what=None):
    rs = [r for r in rs if compared(r) and (what is None or what(r))]
    f = sum(r["verdict"] in FLAG for r in rs)
    return f, len(rs)

def pct(f, n):
    return f"{f} of {n} ({100 * f / n:.1f}%)" if n else "none compared"

def per_path(rs):
    out = {}
    for r in rs:
        if compared(r):
            out.setdefault(f"{r['name']}/{r['path']}", []).append(r)
    return out

def loaded():
    m = {}
    p = os.path.join(work, "l.runs")
    if os.path.exists(p):
        for line in open(p):
            name, ld, _ = line.split()
            m[int(name[1:])] = ld == "1"
    return m

if "1" in parts:
    print("1. A/A, every pair of runs spread in time, one run a side:")
    for name, title in (("q.pairs", "fresh store, no calibrate"), ("qc.pairs", "after calibrate"),
                        ("l.pairs", "half the runs under 2x oversubscription")):
        rs = rows(name)
        f, n = rate(rs)
        o = sum(r.get("verdict") == "other state" for r in rs)
        print(f"   {title}: {pct(f, n)} called improved or regressed (target: at most 5%); {o} other state")
        for p, prs in sorted(per_path(rs).items()):
            ff = sum(r["verdict"] in FLAG for r in prs)
            print(f"      {p:40s} {ff:4d} of {len(prs):4d}  median MDE {100 * statistics.median(r['mde'] for r in prs):.2f}%")
        if name == "l.pairs":
            ld = loaded()
            f, n = rate(rs, lambda r: ld.get(r["i"]) != ld.get(r["j"]))
            print(f"      quiet against loaded: {pct(f, n)}")
def t975(df):
    # Student's t at 0.975 by its expansion in 1/df (within 0.2% from 5 df)
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)

def coverage(pre, count, title):
    runs = {}
    for i in range(1, count + 1):
        p = os.path.join(work, f"{pre}{i}.json")
        if not os.path.exists(p):
            continue
        for r in json.load(open(p))["results"]:
            if r["status"] == "ok" and r.get("stats"):
                runs.setdefault(f"{r['name']}/{r['path']}", []).append(
                    (r["stats"]["mean_ns"], r["stats"]["ci95_ns"]))
    hit = tot = 0
    for p, v in sorted(runs.items()):
        h = 0
        for k, (m, ci) in enumerate(v):
            others = statistics.median(x for j, (x, _) in enumerate(v) if j != k)
            h += abs(m - others) <= ci
        hit += h
        tot += len(v)
        # how wide against how far the runs move: the median stated half-width
        # over the runs' own spread times t (target: at most 1.3)
        w = ""
        if len(v) > 2:
            mean = statistics.mean(x for x, _ in v)
            sd = statistics.stdev(x for x, _ in v) / mean
            half = statistics.median(ci / x for x, ci in v)
            if sd > 0:
                w = f"  half-width {100 * half:.2f}%, runs' spread x t {100 * t975(len(v) - 1) * sd:.2f}%: x{half / (t975(len(v) - 1) * sd):.2f}"
        print(f"      {pre}: {p:40s} {h} of {len(v)}{w}")
    if tot:
        print(f"   {title}: {pct(hit, tot)} (target: 90% to 98%)")

if "1" in parts or "5" in parts:
    print("2. coverage: a run's ±CI95 as run stated it holds the median of the other runs' means;")
    print("   its width against the runs' own spread (target: at most 1.3x):")
if "1" in parts:
    coverage("q", nruns, "quiet")
    coverage("l", nruns, "half loaded")
if "5" in parts:
    coverage("r", nreps, "back to back (5)")

if "1" in parts:
    # 4: the printed change against the printed figures
    bad = checked = 0
    text = open(os.path.join(work, "formats")).read() if os.path.exists(os.path.join(work, "formats")) else ""
    num = r"([0-9][0-9.]*)(?: ns|ms|us|s)?"
    for block in text.split("== ")[1:]:
        kind = block.split()[0]
        body = block[block.index("\n") + 1:]
        found = []
        if kind == "json":
            for r in json.loads(body):
                if r.get("base_ns") and r.get("other_ns") and r.get("change") is not None:
                    found.append((r["base_ns"], r["other_ns"], 100 * r["change"]))
        elif kind == "csv":
            lines = body.strip().split("\n")
            keys = lines[0].split(",")
            for l in lines[1:]:
                v = dict(zip(keys, l.split(",")))
                if v.get("base_ns") and v.get("other_ns") and v.get("change"):
                    found.append((float(v["base_ns"]), float(v["other_ns"]), 100 * float(v["change"])))
        elif kind == "table":
            for m in re.finditer(r"^\S.*?\s+(\S+)\s+([0-9.]+)\s+([0-9.]+)\s+([-+][0-9.]+)%", body, re.M):
                found.append((float(m.group(2)), float(m.group(3)), float(m.group(4))))
        elif kind == "mail":
            for m in re.finditer(r"^\s+" + num + r" -> " + num + r"\s+([-+][0-9.]+)%", body, re.M):
                found.append((float(m.group(1)), float(m.group(2)), float(m.group(3))))
        else:
            for m in re.finditer(r"\|\s*" + num + r"\s*\|\s*" + num + r"\s*\|\s*\**([-+][0-9.]+)%", body):
                found.append((float(m.group(1)), float(m.group(2)), float(m.group(3))))
        for a, b, c in found:
            checked += 1
            bad += abs(100 * (b / a - 1) - c) > 0.1
        if not found:
            print(f"   (no figures read from {kind})")
    if checked:
        print(f"4. the printed change against the printed figures' ratio: {checked - bad} of {checked} within 0.1 points, in table, JSON, CSV, mail, markdown and report")

if "3" in parts and os.path.exists(os.path.join(work, "filter")):
    flt, ratio = open(os.path.join(work, "filter")).read().split()
    truth = [float(x) for x in open(os.path.join(work, "truth")).read().split()]
    print(f"3. a seccomp filter of {flt} comparisons: a null system call x{statistics.median(truth):.3f} in a plain loop (median of {len(truth)}, interleaved):")
    for p, prs in sorted(per_path(rows("d.pairs")).items()):
        sys_path = not p.endswith("/vdso")
        f = sum(r["verdict"] == "regressed" for r in prs) if sys_path else sum(r["verdict"] in FLAG for r in prs)
        o = sum(r["verdict"] == "other state" for r in prs)
        ch = statistics.median(r["change"] for r in prs)
        print(f"      {p:40s} {'regressed' if sys_path else 'changed':9s} {f:3d} of {len(prs):3d} ({100 * f / len(prs):5.1f}%)  median change {100 * ch:+.2f}%  median MDE {100 * statistics.median(r['mde'] for r in prs):.2f}%  ({o} other state)")

if "6" in parts and os.path.exists(os.path.join(work, "h.truth")):
    print("6. a store with history: before/after pairs, every label given once, one run a side;")
    print("   the change: seccomp's entry (tools/seccomp-slow 0) on every system call; truth from a plain loop:")
    truth = {}
    for line in open(os.path.join(work, "h.truth")):
        v = line.split()
        truth[v[0]] = statistics.median(float(x) for x in v[1:])
    size_of = {"syscall.null/syscall": "syscall"}
    for v in truth:
        if v != "syscall":
            size_of[f"copy.read_zero.{int(v) // 1024}k/read"] = v
    for name, title in (("h-then.pairs", "as the store stood then"), ("h-after.pairs", "the whole store after"),
                        ("hc-then.pairs", "calibrated first (calibrate -s), as the store stood then"),
                        ("hc-after.pairs", "calibrated first, the whole store after")):
        if not os.path.exists(os.path.join(work, name)):
            continue
        print(f"   {title}:")
        rs = rows(name)
        for p, prs in sorted(per_path(rs).items()):
            t = truth.get(size_of.get(p, ""), 1.0)
            for changed in (True, False):
                q = sorted((r for r in prs if r["changed"] == changed), key=lambda r: r["k"])
                if not q or (changed and p.endswith("/vdso")):
                    continue
                half = len(q) // 2
                ok = sum(r["verdict"] == "regressed" for r in q) if changed else sum(r["verdict"] in FLAG for r in q)
                small = [r for r in q if r["mde"] < t - 1]
                fs = sum(r["verdict"] == "regressed" for r in small)
                first = statistics.median(r["mde"] for r in q[:max(half, 1)])
                last = statistics.median(r["mde"] for r in q[half:])
                verdicts = ", ".join(f"{v} {sum(r['verdict'] == v for r in q)}" for v in sorted({r["verdict"] for r in q}))
                what = f"x{t:.3f}: regressed {ok} of {len(q)} ({fs} of {len(small)} where MDE < the change)" if changed else f"A/A: changed {ok} of {len(q)}"
                print(f"      {p:34s} {what}; median change {100 * statistics.median(r['change'] for r in q):+.2f}%,"
                      f" MDE {100 * statistics.median(r['mde'] for r in q):.2f}% (first half {100 * first:.2f}%, last {100 * last:.2f}%); {verdicts}")

if "5" in parts:
    print("5. replication: runs back to back, labels of N runs, every pair of labels compared:")
    mdes = {}
    for n in (1, 2, 3, 4, 6):
        rs = rows(f"r{n}.pairs")
        f, c = rate(rs)
        labels = nreps // n
        o = sum(r.get("verdict") == "other state" for r in rs)
        print(f"   N = {n}: {labels} labels, {pct(f, c)} path comparisons called changed; {o} other state")
        for p, prs in sorted(per_path(rs).items()):
            mdes.setdefault(p, []).append((n, statistics.median(r["mde"] for r in prs)))
    for p, v in sorted(mdes.items()):
        print(f"      {p:40s} median MDE " + "  ".join(f"N={n}: {100 * m:.2f}%" for n, m in v))
EOF
