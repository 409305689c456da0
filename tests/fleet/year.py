#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""year.py TEMPLATE RUNS.copy RESULTS.copy --hosts A:B [options]

A simulated year of a fleet, as COPY text for the tables of the fleet's
schema (tests/fleet/year.sh loads it): the hosts board-A .. board-(B-1),
each running the suite of TEMPLATE (a run's document as the server keeps
it) about every --every days over --days days.

What moves, so that history has something real to draw and find:
  - each host is faster or slower than another (a factor for the host,
    log-normal, sigma 0.25, and one for each path, sigma 0.05);
  - a run's noise (1.5% a path) and the machine's slow states (one run in
    four 5-13% slower on every path at once);
  - a kernel release every 3-5 weeks, which each host takes within 3 days
    (its first run on it labelled with the release, v6.N); the others are
    labelled nightly;
  - planted steps: from the fifth release the system-call paths are 8%
    slower on every host; from the ninth the copy paths 6% faster on one
    host in four.
Retention as fleet-prune leaves it: the runs older than --keep-days
before the year's end have no document (their processes' means and
references stay, as schema 7 keeps them), except
the releases' (--keep-labels 'v6.*'). The first host also has ten runs
labelled ab-base and ten ab-patch on the year's last two days, whole.
A kept document is TEMPLATE's, its identity (UUID, host, label, start)
made the run's.
"""
import argparse
import datetime
import json
import math
import random
import re
import uuid as uuidlib

import zstandard


def esc(s):
    """A value in COPY's text format."""
    if s is None:
        return "\\N"
    s = str(s)
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def params(p):
    """A result's parameters as the server's column keeps them (->> of jsonb)."""
    if p is None or isinstance(p, str):
        return p
    return json.dumps(p, separators=(", ", ": "))


def arr(v):
    return "{" + ",".join("%.6g" % x for x in v) + "}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("template")
    ap.add_argument("runs_out")
    ap.add_argument("results_out")
    ap.add_argument("--hosts", required=True, help="A:B, the hosts board-A .. board-(B-1)")
    ap.add_argument("--days", type=int, default=365)
    ap.add_argument("--every", type=float, default=3.4, help="days between a host's runs")
    ap.add_argument("--keep-days", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.hosts.split(":"))

    doc = open(a.template).read().strip()
    packer = zstandard.ZstdCompressor(level=9)
    t = json.loads(doc)
    old_uuid = t["uuid"]
    paths = []
    for r in t["results"]:
        st = r.get("stats") or {}
        # a kept summary's mean is made from its processes, not kept: its median stands in
        if r.get("status") != "ok" or not (st.get("mean_ns") or st.get("median_ns")):
            continue
        paths.append(r)
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)

    # the releases: a day each, every 21-35 days
    rng = random.Random(a.seed)
    releases, day = [], 0.0
    while day < a.days:
        releases.append(day)
        day += rng.uniform(21, 35)

    runs = open(a.runs_out, "w")
    results = open(a.results_out, "w")
    for h in range(lo, hi):
        hr = random.Random(a.seed * 1000003 + h)
        host = "board-%04d" % h
        hf = math.exp(hr.gauss(0, 0.25))
        pf = [math.exp(hr.gauss(0, 0.05)) for _ in paths]
        lag = [hr.uniform(0, 3) for _ in releases]
        boot = 0
        when = []
        d = hr.uniform(0, a.every)
        while d < a.days - 2:
            when.append((d, "nightly"))
            d += a.every * hr.uniform(0.7, 1.3)
        if h == 0:
            for k in range(10):
                when.append((a.days - 2 + k * 0.01, "ab-base"))
                when.append((a.days - 1 + k * 0.01, "ab-patch"))
        when.sort()
        seen_release = -1
        for d, label in when:
            rel = max(i for i, r in enumerate(releases) if r + lag[i] <= d or i == 0)
            kernel = "6.%d.0-sim" % (12 + rel)
            if rel != seen_release:
                boot += 1
                if label == "nightly" and seen_release >= 0:
                    label = "v6.%d" % (12 + rel)
                seen_release = rel
            ts = start + datetime.timedelta(days=d)
            started = ts.strftime("%Y-%m-%dT%H:%M:%SZ")
            u = str(uuidlib.UUID(int=hr.getrandbits(128), version=4))
            kept = (d >= a.days - a.keep_days) or label.startswith("v6.")
            slow = hr.uniform(1.05, 1.13) if hr.random() < 0.25 else 1.0
            ref = 1000.0 * slow * hf
            if kept:
                document = doc.replace(old_uuid, u)
                for key, val in (("host", host), ("started", started), ("label", label)):
                    document = re.sub(r'"%s":\s*(null|"[^"]*")' % key,
                                      '"%s":"%s"' % (key, val), document, count=1)
                # packed as ukbench packs it (doc-pack.c), bytea's hex as COPY reads it
                document = "\\x" + packer.compress(document.encode()).hex()
                pruned = None
            else:
                document = None
                pruned = (start + datetime.timedelta(days=a.days)).isoformat()
            runs.write(
                "\t".join(
                    esc(x)
                    for x in (
                        u, label, host, started, kernel, t.get("ukbench_version", ""), "run",
                        "%.3f" % hr.uniform(100, 140), "false", "sim-" + u[:16], len(t["results"]),
                        document, "#1 SMP " + kernel, "boot-%s-%d" % (host, boot),
                        (t.get("settings") or {}).get("reference"),
                        "%.3f" % (hr.uniform(0.0, 0.5) * slow), pruned,
                    )
                )
                + "\n"
            )
            for seq, r in enumerate(paths):
                st = r["stats"]
                f = hf * pf[seq] * slow * math.exp(hr.gauss(0, 0.015))
                if rel >= 4 and (r["path"] == "syscall" or r["name"].startswith("syscall.")):
                    f *= 1.08
                if rel >= 8 and h % 4 == 0 and r["name"].startswith("copy."):
                    f *= 0.94
                mean = (st.get("mean_ns") or st["median_ns"]) * f
                # a pruned run keeps its processes' means and references (schema 7)
                nproc = max(2, int(st.get("processes") or 9))
                means = arr(mean * math.exp(hr.gauss(0, 0.01)) for _ in range(nproc))
                refs = arr(ref * math.exp(hr.gauss(0, 0.005)) for _ in range(nproc))
                results.write(
                    "\t".join(
                        esc(x)
                        for x in (
                            u, seq, r["name"], r.get("benchmark") or r["name"], r["path"], "ok",
                            r.get("batches") or st.get("n") or 100, "%.6g" % mean,
                            "%.4g" % (st.get("ci95_rel") or 0.01), "%.6g" % (mean * 0.995),
                            params(r.get("params")), r.get("threads"), r.get("bytes_per_call"),
                            "%.3g" % (st.get("waited") or 0), "0", means, refs, host, started,
                        )
                    )
                    + "\n"
                )
    runs.close()
    results.close()


if __name__ == "__main__":
    main()
