#!/usr/bin/env python3
"""make bench: run every bench_* executable of the build, each writing JSON, and collect them into
one Markdown file (docs/bench.md) with the machine and the commit they were measured on.

A bench executable takes `--out FILE` and writes
  {"name": str, "description": str, "results": [{"metric": str, "value": num, "unit": str,
   "note": str (optional)}]}
Speed figures are noisy on shared machines: benches report ratios measured in one run beside
absolute figures, and nothing here is a pass/fail threshold."""
import argparse
import datetime
import json
import os
import pathlib
import platform
import subprocess
import sys


def machine():
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", help="run only bench executables whose name contains this; the "
                    "other sections of an existing --out file are kept, each with its own date")
    args = ap.parse_args()
    build = pathlib.Path(args.build)
    exes = sorted(p for p in build.rglob("bench_*")
                  if p.is_file() and os.access(p, os.X_OK) and p.suffix == "")
    if args.only:
        exes = [e for e in exes if args.only in e.name]
    if not exes:
        print("bench: no bench_* executables in the build", file=sys.stderr)
        return 2
    outdir = build / "bench"
    outdir.mkdir(exist_ok=True)
    reports, failed = [], []
    for exe in exes:
        out = outdir / f"{exe.name}.json"
        print(f"bench: {exe.name}", file=sys.stderr)
        proc = subprocess.run([str(exe), "--out", str(out)])
        if proc.returncode != 0 or not out.exists():
            failed.append(exe.name)
            continue
        reports.append(json.loads(out.read_text()))
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True).stdout.strip() or "unknown"
    stamp = f"Measured {datetime.date.today()} at commit {rev} on {machine()}"
    sections = {}
    if args.only and pathlib.Path(args.out).exists():
        # Keep what was not rerun, each section with the line saying when it was measured.
        old, head = pathlib.Path(args.out).read_text(), None
        previous = next((l for l in old.splitlines() if l.startswith("Measured ")), "")
        for chunk in old.split("\n## ")[1:]:
            name, _, body = chunk.partition("\n")
            if "\nMeasured " not in "\n" + body.lstrip("\n").split("\n\n")[0]:
                body = f"\n{previous}\n" + body
            sections[name.strip()] = body.rstrip("\n") + "\n"
    for rep in reports:
        body = [""]
        if args.only:
            body += [f"{stamp} (`make bench` with --only {args.only}).", ""]
        body += [rep.get("description", ""), "",
                 "| metric | value | unit | note |", "|---|---:|---|---|"]
        for r in rep["results"]:
            val = r["value"]
            sval = f"{val:,.4g}" if isinstance(val, float) else f"{val:,}"
            body.append(f"| {r['metric']} | {sval} | {r.get('unit', '')} | {r.get('note', '')} |")
        sections[rep["name"]] = "\n".join(body) + "\n"
    lines = ["# Benchmarks", "",
             f"{stamp} by `make bench`" + (" (sections with their own date were measured "
                                             "apart)." if args.only else "."),
             "Figures are from one run; compare the ratios, which are measured in the same run.",
             ""]
    for name, body in sections.items():
        lines += [f"## {name}", body]
    pathlib.Path(args.out).write_text("\n".join(lines))
    print(f"bench: wrote {args.out} ({len(reports)} benches)", file=sys.stderr)
    if failed:
        print(f"bench: FAILED: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
