#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mkrun.py - a ukbench run JSON made from a real one, for the report's
tests: many paths, a scaled figure, other labels, hosts, environments and
parameters. Every sample and process mean is scaled by the same rules, so
that what ukbench reads back is a consistent run.

  mkrun.py TEMPLATE OUT [--paths N] [--procs N] [--scale F] [--spread REL]
           [--seed S] [--label L] [--host H] [--started ISO] [--kernel K]
           [--env KEY=VALUE]... [--params TEXT]

--env sets a member of the environment; a dotted KEY reaches into an
object (vulnerabilities.mds=...). --paths N makes N paths out of the
template's first result, named synthetic.pNN/vdso. --procs N keeps N
process means (repeating the template's with --spread between them).
"""
import argparse
import json
import random
import uuid


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("template")
    ap.add_argument("out")
    ap.add_argument("--paths", type=int, default=0)
    ap.add_argument("--procs", type=int, default=0)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--spread", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--label")
    ap.add_argument("--host")
    ap.add_argument("--started")
    ap.add_argument("--kernel")
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--params")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    run = json.load(open(a.template))
    results = [r for r in run["results"] if r.get("status") == "ok"]
    if a.paths:
        base = results[0]
        results = []
        for i in range(a.paths):
            r = json.loads(json.dumps(base))
            r["benchmark"] = "synthetic"
            r["variant"] = "p%02d" % i
            r["name"] = "synthetic.p%02d" % i
            r["path"] = "vdso"
            results.append(r)
    for i, r in enumerate(results):
        # each path its own size, so that plots differ
        f = a.scale * (1 + 0.05 * (i % 7)) if a.paths else a.scale
        means = r.get("process_means_ns") or []
        ses = r.get("process_se_ns") or []
        refs = r.get("process_ref_ns") or []
        if a.procs and means:
            means = [means[k % len(means)] for k in range(a.procs)]
            ses = [ses[k % len(ses)] for k in range(a.procs)] if ses else ses
            refs = [refs[k % len(refs)] for k in range(a.procs)] if refs else refs
        r["process_ref_ns"] = refs or None
        r["samples_ns"] = [x * f for x in r["samples_ns"]]
        r["process_means_ns"] = [
            x * f * (1 + a.spread * rnd.uniform(-1, 1)) for x in means
        ] or None
        # a process with one undisturbed batch has no SE (null): kept so
        r["process_se_ns"] = [x * f if x is not None else None for x in ses] or None
        if a.params is not None:
            r["params"] = a.params
    run["results"] = results
    # a run made is another run: its own name
    run["uuid"] = str(uuid.uuid4())
    if a.label is not None:
        run["label"] = a.label
    if a.host is not None:
        run["host"] = a.host
        run["environment"]["hostname"] = a.host
    if a.started is not None:
        run["started"] = a.started
    if a.kernel is not None:
        run["environment"]["kernel_release"] = a.kernel
    for kv in a.env:
        key, _, value = kv.partition("=")
        obj = run["environment"]
        parts = key.split(".")
        for p in parts[:-1]:
            obj = obj.setdefault(p, {})
        obj[parts[-1]] = value
    json.dump(run, open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
