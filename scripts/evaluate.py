#!/usr/bin/env python3
"""FLINT against H3 on decode workloads: runs flint-eval (FLINT's BBC model with its own policy
and with FCFS, H3 with the compiler's layer-ahead hints and with oracle hints, one process, one
generated stream per engine) over models x batch sizes and writes docs/results.md plus the raw
JSON (docs/results.json). Figure 9 of the paper: useful and re-fetched bandwidth, re-fetch share,
and the FLINT / H3 useful-bandwidth ratio.

  scripts/evaluate.py --build build [--config paper] [--models all] [--batches 1]
                      [--engines flint,fcfs,h3,h3-oracle] [--tile-lines K] [--crq N]
                      [--resume] [--out docs/results.md]

A model written MODEL@B[+B...] runs only at those of --batches (llama-3.1-405b@1: the dense
model at batch 1 alone, a step of it taking minutes per engine). The output is merged: runs
already in the JSON for other models or batches, made with the same options, are kept (each
carries its commit and date), so a sweep can be extended or refreshed piecewise; runs made with
other options are dropped. The JSON is rewritten after every run, and --resume reuses a kept run
of a planned model and batch instead of running it again (for a sweep that was interrupted).
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
    "dense": "about equal (2.6 TB/s each; H3 re-fetches 27 %)",
}


def command(model, batch, args):
    """flint-eval's arguments for one run (also the key a kept run is matched by)."""
    cmd = ["--model", model, "--config", args.config, "--batch", str(batch),
           "--engines", args.engines]
    if args.tile_lines:
        cmd += ["--tile-lines", str(args.tile_lines)]
    if args.crq:
        cmd += ["--crq", str(args.crq)]
    return cmd


def run(exe, model, batch, args, rev):
    cmd = command(model, batch, args)
    t0 = time.time()
    p = subprocess.run([str(exe), *cmd], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"evaluate: {exe} {' '.join(cmd)} failed:\n{p.stderr}")
    r = json.loads(p.stdout)
    r["command"] = " ".join(cmd)
    r["commit"] = rev
    r["date"] = str(datetime.date.today())
    r["run_seconds"] = round(time.time() - t0, 1)
    print(f"evaluate: {model} batch {batch}: {r['run_seconds']:.0f} s", file=sys.stderr)
    return r


def plan(models_arg, batches_arg):
    batches = [int(b) for b in batches_arg.split(",")]
    out = []
    for spec in (MODELS if models_arg == "all" else models_arg.split(",")):
        name, _, only = spec.partition("@")
        keep = {int(x) for x in only.split("+")} if only else set(batches)
        out += [(name, b) for b in batches if b in keep]
    return out


def order(r):
    m = r["model"]
    return (MODELS.index(m) if m in MODELS else len(MODELS), m, r["batch"])


def by_engine(r):
    return {e["engine"]: e for e in r["results"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--config", default="paper")
    ap.add_argument("--models", default="all", help="comma list; MODEL@B+B: that model only at those batches")
    ap.add_argument("--batches", default="1")
    ap.add_argument("--engines", default="flint,fcfs,h3,h3-oracle")
    ap.add_argument("--tile-lines", type=int, default=0)
    ap.add_argument("--crq", type=int, default=0, help="cache request queue entries (0: config)")
    ap.add_argument("--resume", action="store_true",
                    help="reuse runs already in the JSON instead of running them again")
    ap.add_argument("--out", default="docs/results.md")
    args = ap.parse_args()
    exe = pathlib.Path(args.build) / "sim" / "flint-eval"
    if not exe.exists():
        sys.exit(f"evaluate: {exe} not built (make build)")
    todo = plan(args.models, args.batches)
    out = pathlib.Path(args.out)
    out_json = out.with_suffix(".json")
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True).stdout.strip() or "unknown"

    # Runs already on file with the same options are kept (a different option set is dropped).
    kept = {}
    if out_json.exists():
        for r in json.loads(out_json.read_text()):
            if r.get("command") == " ".join(command(r["model"], r["batch"], args)):
                kept[(r["model"], r["batch"])] = r
            else:
                print(f"evaluate: dropping {r['model']} batch {r['batch']} from {out_json} "
                      f"(other options: {r.get('command')})", file=sys.stderr)

    def save():
        out_json.write_text(json.dumps(sorted(kept.values(), key=order), indent=1) + "\n")

    for model, batch in todo:
        if args.resume and (model, batch) in kept:
            print(f"evaluate: {model} batch {batch}: kept from {kept[(model, batch)].get('commit')}",
                  file=sys.stderr)
            continue
        kept[(model, batch)] = run(exe, model, batch, args, rev)
        save()
    save()
    runs = sorted(kept.values(), key=order)

    engines = args.engines.split(",")
    queue = str(args.crq) if args.crq else "the config's"
    commits = sorted({r.get("commit", "unknown") for r in runs})
    dates = sorted({r.get("date", "?") for r in runs})
    made = f"{', '.join(commits)} ({dates[0]}{' to ' + dates[-1] if len(dates) > 1 else ''})"
    lines = [
        "# FLINT against H3 on decode steps (paper section 6.1, Fig. 9)", "",
        f"Generated by `scripts/evaluate.py --config {args.config}"
        f"{' --crq ' + str(args.crq) if args.crq else ''} --engines {args.engines}` over the "
        f"models and batches below (raw figures and each run's command: "
        f"`{out_json.name}`); runs made at commit {made}. "
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
              "Requests: the stack's cache-line misses in the step. Run: wall time of the whole "
              "flint-eval process (all engines), as loaded as the machine was.", "",
              "| model | batch | requests (M) | flint / h3 | flint / h3-oracle | fcfs / h3 | run (s) |",
              "|---|---|---:|---:|---:|---:|---:|"]
    for r in runs:
        e = by_engine(r)

        def ratio(a, b):
            return (f"{e[a]['useful_gbps'] / e[b]['useful_gbps']:.2f}x"
                    if a in e and b in e and e[b]['useful_gbps'] > 0 else "-")
        reqs = r["results"][0]["requests"] / 1e6
        secs = r.get("run_seconds")
        lines.append(f"| {r['model']} | {r['batch']} | {reqs:.1f} | {ratio('flint', 'h3')} | "
                     f"{ratio('flint', 'h3-oracle')} | {ratio('fcfs', 'h3')} | "
                     f"{'-' if secs is None else f'{secs:.0f}'} |")
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
