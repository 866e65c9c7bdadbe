#!/usr/bin/env python3
"""FLINT against H3 on decode workloads: runs flint-eval (FLINT's BBC model with its own policy
and with FCFS, H3 with the compiler's layer-ahead hints and with oracle hints, one process, one
generated stream per engine) over models x batch sizes and writes docs/results.md plus the raw
JSON (docs/results.json). Figure 9 of the paper: useful and re-fetched bandwidth, re-fetch share,
and the FLINT / H3 useful-bandwidth ratio.

  scripts/evaluate.py --build build [--config paper] [--models all] [--batches 1]
                      [--engines flint,fcfs,h3,h3-oracle] [--tile-lines K] [--crq N]
                      [--out docs/results.md]
"""
import argparse
import datetime
import json
import pathlib
import subprocess
import sys
import time

MODELS = ["llama-3.1-405b", "deepseek-v3", "deepseek-v4-pro", "qwen3-235b-a22b",
          "llama-4-maverick", "kimi-k2"]
PAPER = {  # paper section 6.1 / Fig. 9, as the text states them
    "flint_useful_fraction": "90-97 %",
    "h3_refetch_share_moe": "80-95 %",
    "ratio_moe": "4.0-14.3x (6.2x on average over all six)",
    "dense": "about equal (2.6 TB/s each)",
}


def run(exe, model, args, batch):
    cmd = [str(exe), "--model", model, "--config", args.config, "--batch", str(batch),
           "--engines", args.engines]
    if args.tile_lines:
        cmd += ["--tile-lines", str(args.tile_lines)]
    if args.crq:
        cmd += ["--crq", str(args.crq)]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"evaluate: {' '.join(cmd)} failed:\n{p.stderr}")
    r = json.loads(p.stdout)
    r["command"] = " ".join(cmd[1:])
    print(f"evaluate: {model} batch {batch}: {time.time() - t0:.0f} s", file=sys.stderr)
    return r


def by_engine(r):
    return {e["engine"]: e for e in r["results"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--config", default="paper")
    ap.add_argument("--models", default="all")
    ap.add_argument("--batches", default="1")
    ap.add_argument("--engines", default="flint,fcfs,h3,h3-oracle")
    ap.add_argument("--tile-lines", type=int, default=0)
    ap.add_argument("--crq", type=int, default=0, help="cache request queue entries (0: config)")
    ap.add_argument("--out", default="docs/results.md")
    args = ap.parse_args()
    exe = pathlib.Path(args.build) / "sim" / "flint-eval"
    if not exe.exists():
        sys.exit(f"evaluate: {exe} not built (make build)")
    models = MODELS if args.models == "all" else args.models.split(",")
    batches = [int(b) for b in args.batches.split(",")]
    runs = [run(exe, m, args, b) for m in models for b in batches]

    out = pathlib.Path(args.out)
    out.with_suffix(".json").write_text(json.dumps(runs, indent=1) + "\n")
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True).stdout.strip() or "unknown"
    engines = args.engines.split(",")
    queue = str(args.crq) if args.crq else "the config's"
    lines = [
        "# FLINT against H3 on decode steps (paper section 6.1, Fig. 9)", "",
        f"Generated {datetime.date.today()} at commit {rev} by `scripts/evaluate.py --config "
        f"{args.config} --batches {args.batches}"
        f"{' --crq ' + str(args.crq) if args.crq else ''}` (raw figures: "
        f"`{out.with_suffix('.json').name}`). "
        f"Cache request queue: {queue} entries. "
        "One stack (stack 0 of 8) of the paper's package, one decode step, skew 0.5, seed 1, "
        f"tiling: {'K = ' + str(args.tile_lines) + '-line chunks dealt round robin' if args.tile_lines else 'one contiguous tile per SM per tensor'}; "
        "golden models, timing only. Engines: `flint` = BBC model, most-pending policy; `fcfs` = "
        "BBC model, the paper's FCFS; `h3` = H3 with the compiler's layer-ahead hints; "
        "`h3-oracle` = H3 with a hint for every burst the next layer reads.", "",
        "| model | batch | engine | useful GB/s | fetched GB/s | re-fetch share | useful / fetched | cycles |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        for e in engines:
            x = by_engine(r).get(e)
            if not x:
                continue
            lines.append(f"| {r['model']} | {r['batch']} | {e} | {x['useful_gbps']:.0f} | "
                         f"{x['fetched_gbps']:.0f} | {100 * x['refetch_share']:.1f} % | "
                         f"{100 * x['useful_fraction']:.1f} % | {x['cycles']:,} |")
    lines += ["", "## FLINT / H3 useful bandwidth", "",
              "| model | batch | flint / h3 | flint / h3-oracle | fcfs / h3 |", "|---|---|---:|---:|---:|"]
    for r in runs:
        e = by_engine(r)

        def ratio(a, b):
            return (f"{e[a]['useful_gbps'] / e[b]['useful_gbps']:.2f}x"
                    if a in e and b in e and e[b]['useful_gbps'] > 0 else "-")
        lines.append(f"| {r['model']} | {r['batch']} | {ratio('flint', 'h3')} | "
                     f"{ratio('flint', 'h3-oracle')} | {ratio('fcfs', 'h3')} |")
    lines += ["", "## The paper, for comparison", "",
              f"- FLINT consumes {PAPER['flint_useful_fraction']} of what it fetches.",
              f"- H3 re-fetches {PAPER['h3_refetch_share_moe']} of its traffic on the MoE models.",
              f"- FLINT / H3 useful bandwidth on MoE: {PAPER['ratio_moe']}; dense Llama: "
              f"{PAPER['dense']}.", "",
              "Why the figures here differ is discussed in docs/evaluation.md.", ""]
    out.write_text("\n".join(lines))
    print(f"evaluate: wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
