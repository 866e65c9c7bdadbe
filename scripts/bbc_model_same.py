#!/usr/bin/env python3
"""Checks that a change to the BBC golden model (model/bbc, model/nand) left its behaviour alone:
runs two builds, BEFORE and AFTER, on the same inputs and compares what they produce.

  - bbc_digest (sim/bench/bbc_digest.cpp): a digest of every response, the statistics, the burst
    sequence and the NAND counters, per stream, at small, medium and paper;
  - flint-sim --engine model: the JSON report (less wall_seconds) on traces flint-trace-gen writes
    (AFTER's), under both policies, both placements, an age cap, a small queue, timing only.

Usage: scripts/bbc_model_same.py BEFORE_BUILD AFTER_BUILD [--quick]
Each build needs bbc_digest and flint-sim (ninja bbc_digest flint-sim flint-trace-gen; areas nand,
bbc, ecc, bench). A build of the commit before the change: git worktree add, or git archive of
the tree into a scratch directory, configured the same way. Exit 0 when every output is equal."""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

# (model, config, extra flint-trace-gen options)
TRACES = [
    ("tiny-small", "small", ["--batch", "16", "--tokens", "8"]),
    ("tiny-small", "small", ["--batch", "4", "--tokens", "4", "--order", "cta", "--tile-lines", "2",
                             "--skew", "1.2", "--seed", "3"]),
    ("tiny-dense", "small", ["--batch", "4", "--order", "cta"]),
    ("tiny-medium", "medium", ["--batch", "4", "--tokens", "2"]),
    ("tiny-medium", "paper", ["--batch", "4", "--tokens", "2"]),
]
VARIANTS = [
    [],
    ["--policy", "fcfs"],
    ["--placement", "linear", "--seed", "7"],
    ["--age-cap", "64", "--crq", "96"],
    ["--timing-only"],
]


def find(build, name):
    hits = [p for p in pathlib.Path(build).rglob(name) if p.is_file()]
    if not hits:
        sys.exit(f"bbc_model_same: no {name} under {build}")
    return str(hits[0])


def sim_report(build, trace, config, variant, tmp):
    out = pathlib.Path(tmp) / "report.json"
    cmd = [find(build, "flint-sim"), "--trace", trace, "--config", config, "--engine", "model",
           "--report", str(out)] + variant
    subprocess.run(cmd, check=True, capture_output=True)
    report = json.loads(out.read_text())
    report.pop("wall_seconds", None)
    report.pop("trace", None)
    return report


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--quick", action="store_true", help="bbc_digest without the paper streams")
    args = ap.parse_args()
    differ = 0
    digest = [[find(b, "bbc_digest")] + (["--quick"] if args.quick else [])
              for b in (args.before, args.after)]
    outs = [subprocess.run(d, check=True, capture_output=True, text=True).stdout.splitlines()
            for d in digest]
    for a, b in zip(*outs):
        if a != b:
            differ += 1
            print(f"bbc_digest differs:\n  before {a}\n  after  {b}")
    if len(outs[0]) != len(outs[1]):
        differ += 1
        print("bbc_digest: different stream counts")
    print(f"bbc_digest: {len(outs[1])} streams compared")
    gen = find(args.after, "flint-trace-gen")
    runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (model, config, extra) in enumerate(TRACES):
            trace = str(pathlib.Path(tmp) / f"t{i}.trace")
            subprocess.run([gen, "--model", model, "--config", config, "--out", trace] + extra,
                           check=True, capture_output=True)
            for variant in VARIANTS:
                before = sim_report(args.before, trace, config, variant, tmp)
                after = sim_report(args.after, trace, config, variant, tmp)
                runs += 1
                if before != after:
                    differ += 1
                    keys = sorted(k for k in set(before) | set(after)
                                  if before.get(k) != after.get(k))
                    print(f"flint-sim differs: {model} {config} {' '.join(extra + variant)}: "
                          + ", ".join(f"{k} {before.get(k)} -> {after.get(k)}" for k in keys))
    print(f"flint-sim: {runs} reports compared")
    print("bbc_model_same: " + ("SAME" if differ == 0 else f"{differ} DIFFERENCES"))
    return 0 if differ == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
