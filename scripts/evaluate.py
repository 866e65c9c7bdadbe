#!/usr/bin/env python3
"""FLINT against H3 on decode workloads: runs flint-eval (FLINT's BBC model with its own policy
and with FCFS, H3 with the compiler's layer-ahead hints and with oracle hints, one process, one
generated stream per engine) over models x batch sizes and writes docs/results.md plus the raw
JSON (docs/results.json). Figure 9 of the paper: useful and re-fetched bandwidth, re-fetch share,
and the FLINT / H3 useful-bandwidth ratio.

  scripts/evaluate.py --build build [--config paper] [--models all] [--batches 1]
                      [--engines flint,h3] [--order cta] [--jitter 0] [--tokens 1]
                      [--seeds 1] [--stacks 0] [--tile-lines K] [--crq N] [--sms N]
                      [--loop open|closed] [--max-outstanding K] [--open-json J]
                      [--resume] [--out docs/results.md]

--loop closed runs flint-eval's closed loop (the SMs wait for each engine's responses, at most
K lines in flight per SM; docs/workloads.md "Closed loop") and adds a table against the
open-loop runs of the same model, batch, seed and stack in --open-json (docs/results.json).

Each (model, batch, seed, stack) is one run of flint-eval and one entry of the JSON; the tables
give the mean over a cell's runs and, where there are several, their range (min-max).

A model written MODEL@B[+B...] runs only at those of --batches (llama-3.1-405b@1: the dense
model at batch 1 alone, a step of it taking minutes per engine). The output is merged: runs
already in the JSON for other models or batches, made with the same options, are kept (each
carries its commit and date), so a sweep can be extended or refreshed piecewise; runs made with
other options are dropped. The runs are jobs of scripts/jobs.py (Dask: --workers N on this
machine, --scheduler ADDRESS on a cluster); each job's report is kept under BUILD/evaluate, and
--resume reuses a kept run of a planned model and batch, or a finished job's report, instead of
running it again (for a sweep that was interrupted).
"""
import argparse
import hashlib
import datetime
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import jobs  # noqa: E402

MODELS = ["llama-3.1-405b", "deepseek-v3", "deepseek-v4-pro", "qwen3-235b-a22b",
          "llama-4-maverick", "kimi-k2"]
PAPER = {  # paper section 6.1 / Fig. 9, as the text states them
    "flint_useful_fraction": "90-97 %",
    "h3_refetch_share_moe": "80-95 %",
    "ratio_moe": "4.0-14.3x (6.2x on average over all six)",
    "dense": "about equal (2.6 TB/s each; H3 re-fetches 27 %)",
}


def command(model, batch, args, seed=1, stack=0):
    """flint-eval's arguments for one run (also the key a kept run is matched by)."""
    cmd = ["--model", model, "--config", args.config, "--batch", str(batch),
           "--engines", args.engines, "--order", args.order, "--jitter", str(args.jitter),
           "--tokens", str(args.tokens), "--seed", str(seed), "--stack", str(stack)]
    if args.sms:
        cmd += ["--sms", str(args.sms)]
    if args.tile_lines:
        cmd += ["--tile-lines", str(args.tile_lines)]
    if args.crq:
        cmd += ["--crq", str(args.crq)]
    if args.loop != "open":  # open loop: the command (and so the kept runs) as before
        cmd += ["--loop", args.loop]
    if args.max_outstanding:
        cmd += ["--max-outstanding", str(args.max_outstanding)]
    return cmd


def job(exe, model, batch, seed, stack, args, build):
    """One flint-eval run as a job of scripts/jobs.py (its JSON report on stdout is the output).
    The output file is named by a hash of the command, so a changed option is a new job."""
    cmd = command(model, batch, args, seed, stack)
    tag = hashlib.sha1(" ".join(cmd).encode()).hexdigest()[:10]
    out = pathlib.Path(build).resolve() / "evaluate" / f"{model}-b{batch}-s{seed}-k{stack}-{tag}.json"
    return jobs.Job(name=f"{model} b{batch} s{seed} k{stack}", cmd=[str(exe.resolve()), *cmd],
                    out=str(out), stdout=True)


def record(res, model, batch, seed, stack, args, rev):
    """A finished job's report with the command, commit and time it was made with."""
    if not res.ok:
        sys.exit(f"evaluate: {model} batch {batch} seed {seed} stack {stack} failed:\n{res.stderr}")
    r = json.loads(pathlib.Path(res.out).read_text())
    r["command"] = " ".join(command(model, batch, args, seed, stack))
    r["commit"] = rev
    r["date"] = str(datetime.date.today())
    r["run_seconds"] = round(res.seconds, 1)
    return r


def plan(models_arg, batches_arg, seeds_arg="1", stacks_arg="0"):
    batches = [int(b) for b in batches_arg.split(",")]
    seeds = [int(s) for s in seeds_arg.split(",")]
    stacks = [int(s) for s in stacks_arg.split(",")]
    out = []
    for spec in (MODELS if models_arg == "all" else models_arg.split(",")):
        name, _, only = spec.partition("@")
        keep = {int(x) for x in only.split("+")} if only else set(batches)
        out += [(name, b, s, k) for b in batches if b in keep for s in seeds for k in stacks]
    return out


def key(r):
    return (r["model"], r["batch"], r.get("seed", 1), r.get("stack", 0))


def order(r):
    m = r["model"]
    return (MODELS.index(m) if m in MODELS else len(MODELS), m, r["batch"], r.get("seed", 1),
            r.get("stack", 0))


def cells(runs):
    """Runs grouped by (model, batch), in order."""
    out = {}
    for r in sorted(runs, key=order):
        out.setdefault((r["model"], r["batch"]), []).append(r)
    return out


def spread(values, fmt):
    """Mean, and the min-max range when there are several values."""
    if not values:
        return "-"
    mean = sum(values) / len(values)
    if len(values) == 1:
        return fmt(mean)
    return f"{fmt(mean)} ({fmt(min(values))}-{fmt(max(values))})"


def by_engine(r):
    return {e["engine"]: e for e in r["results"]}


def open_against_closed(grouped, open_json, args):
    """Table lines: each closed-loop run beside the open-loop run of the same model, batch, seed
    and stack in open_json made with the same options (its command without the loop flags)."""
    opened = {}
    if open_json.exists():
        for r in json.loads(open_json.read_text()):
            opened[(r["model"], r["batch"], r.get("seed", 1), r.get("stack", 0))] = r
    out = ["", f"## Closed against open loop ({open_json.name})", "",
           "Per engine: useful and fetched GB/s and useful / fetched, open -> closed; the "
           "FLINT / H3 useful-bandwidth ratio in each loop. '-' where the open-loop file has no "
           "run of that point with the same options.", "",
           "| model | batch | seed/stack | engine | useful GB/s | fetched GB/s "
           "| useful / fetched |",
           "|---|---|---|---|---:|---:|---:|"]
    ratios = []
    for (model, batch), rs in grouped.items():
        for r in rs:
            k = (model, batch, r.get("seed", 1), r.get("stack", 0))
            o = opened.get(k)
            want = " ".join(command(model, batch, argparse.Namespace(
                **{**vars(args), "loop": "open", "max_outstanding": 0}), *k[2:]))
            if o is not None and o.get("command") != want:
                o = None
            c_e, o_e = by_engine(r), by_engine(o) if o else {}
            for e in args.engines.split(","):
                if e not in c_e:
                    continue

                def pair(field, fmt):
                    before = fmt(o_e[e][field]) if e in o_e else "-"
                    return f"{before} -> {fmt(c_e[e][field])}"
                out.append(f"| {model} | {batch} | {k[2]}/{k[3]} | {e} | "
                           f"{pair('useful_gbps', lambda v: f'{v:.0f}')} | "
                           f"{pair('fetched_gbps', lambda v: f'{v:.0f}')} | "
                           f"{pair('useful_fraction', lambda v: f'{100 * v:.1f} %')} |")

            def ratio(e):
                return (f"{e['flint']['useful_gbps'] / e['h3']['useful_gbps']:.2f}x"
                        if "flint" in e and "h3" in e and e["h3"]["useful_gbps"] > 0 else "-")
            ratios.append(f"| {model} | {batch} | {k[2]}/{k[3]} | {ratio(o_e)} | {ratio(c_e)} |")
    out += ["", "| model | batch | seed/stack | FLINT / H3 open | FLINT / H3 closed |",
            "|---|---|---|---:|---:|", *ratios]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--config", default="paper")
    ap.add_argument("--models", default="all", help="comma list; MODEL@B+B: that model only at those batches")
    ap.add_argument("--batches", default="1")
    ap.add_argument("--engines", default="flint,h3")
    ap.add_argument("--order", default="cta", choices=["cta", "tiled"])
    ap.add_argument("--jitter", type=float, default=0.0)
    ap.add_argument("--tokens", type=int, default=1, help="decode steps a run")
    ap.add_argument("--seeds", default="1", help="comma list of seeds")
    ap.add_argument("--stacks", default="0", help="comma list of the stacks to run")
    ap.add_argument("--sms", type=int, default=0, help="SMs (0: flint-eval's 148)")
    ap.add_argument("--tile-lines", type=int, default=0)
    ap.add_argument("--crq", type=int, default=0, help="cache request queue entries (0: config)")
    ap.add_argument("--loop", default="open", choices=["open", "closed"],
                    help="open: SMs at a fixed pace (default); closed: SMs wait for responses")
    ap.add_argument("--max-outstanding", type=int, default=0,
                    help="closed loop: lines in flight per SM (0: flint-eval's, --cta-lines)")
    ap.add_argument("--open-json", default="docs/results.json",
                    help="closed loop: the open-loop runs to compare with")
    ap.add_argument("--resume", action="store_true",
                    help="reuse runs already in the JSON instead of running them again")
    ap.add_argument("--out", default="docs/results.md")
    ap.add_argument("--workers", type=int, default=1,
                    help="local Dask workers (scripts/jobs.py; 0 runs serially here); paper runs "
                    "take GBs each, so mind the memory")
    ap.add_argument("--scheduler", help="a Dask scheduler's address: the cluster runs the jobs")
    args = ap.parse_args()
    if args.max_outstanding < 0 or (args.max_outstanding and args.loop != "closed"):
        ap.error("--max-outstanding takes K >= 1 and applies to --loop closed")
    if args.loop == "closed" and args.order != "cta":
        ap.error("--loop closed needs --order cta")
    exe = pathlib.Path(args.build) / "sim" / "flint-eval"
    if not exe.exists():
        sys.exit(f"evaluate: {exe} not built (make build)")
    todo = plan(args.models, args.batches, args.seeds, args.stacks)
    out = pathlib.Path(args.out)
    out_json = out.with_suffix(".json")
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True).stdout.strip() or "unknown"

    # Runs already on file with the same options are kept (a different option set is dropped).
    kept = {}
    if out_json.exists():
        for r in json.loads(out_json.read_text()):
            if r.get("command") == " ".join(command(r["model"], r["batch"], args,
                                                    r.get("seed", 1), r.get("stack", 0))):
                kept[key(r)] = r
            else:
                print(f"evaluate: dropping {r['model']} batch {r['batch']} from {out_json} "
                      f"(other options: {r.get('command')})", file=sys.stderr)

    def save():
        out_json.write_text(json.dumps(sorted(kept.values(), key=order), indent=1) + "\n")

    # The runs go to the job engine (scripts/jobs.py: Dask workers on this machine, or a
    # cluster's with --scheduler); each run's report is a file under BUILD/evaluate, so an
    # interrupted sweep resumes there too.
    runs_todo = []
    for model, batch, seed, stack in todo:
        k = (model, batch, seed, stack)
        if args.resume and k in kept:
            print(f"evaluate: {k}: kept from {kept[k].get('commit')}", file=sys.stderr)
            continue
        runs_todo.append(k)
    js = [job(exe, *k, args, args.build) for k in runs_todo]
    for k, res in zip(runs_todo, jobs.run(js, workers=args.workers, scheduler=args.scheduler,
                                          resume=args.resume, label="evaluate")):
        kept[k] = record(res, *k, args, rev)
    save()
    runs = sorted(kept.values(), key=order)

    engines = args.engines.split(",")
    queue = str(args.crq) if args.crq else "the config's"
    commits = sorted({r.get("commit", "unknown") for r in runs})
    dates = sorted({r.get("date", "?") for r in runs})
    made = f"{', '.join(commits)} ({dates[0]}{' to ' + dates[-1] if len(dates) > 1 else ''})"
    work = (f"GPU work order `{args.order}`"
            + (f" ({args.sms} SMs)" if args.sms else " (148 SMs)")
            + f", SM rate spread {args.jitter:g}, {args.tokens} decode step(s) a run"
            + (", closed loop (each SM waits for its responses, at most "
               f"{args.max_outstanding or 'a thread block of'} lines in flight)"
               if args.loop == "closed" else ""))
    loop_flags = (f" --loop {args.loop}" if args.loop != "open" else "") + (
        f" --max-outstanding {args.max_outstanding}" if args.max_outstanding else "")
    lines = [
        "# FLINT against H3 on decode steps (paper section 6.1, Fig. 9)"
        + (", closed loop" if args.loop == "closed" else ""), "",
        f"Generated by `scripts/evaluate.py --config {args.config}"
        f"{' --crq ' + str(args.crq) if args.crq else ''} --engines {args.engines} "
        f"--order {args.order} --jitter {args.jitter:g} --tokens {args.tokens}{loop_flags}` "
        "over the "
        f"models, batches, seeds and stacks below (raw figures and each run's command: "
        f"`{out_json.name}`); runs made at commit {made}. "
        f"Cache request queue: {queue} entries. {work}; skew 0.5; golden models, timing only. "
        "A cell with several runs shows their mean and, in brackets, their range. "
        "Engines: docs/h3.md \"Variants\" (`h3` is the paper's H3: 2 slots, strict FIFO after "
        "the minimum residency read at the GPU clock, layer-ahead compiler hints).", "",
        "| model | batch | engine | useful GB/s | fetched GB/s | re-fetch share | "
        "useful / fetched | runs (seed/stack) |",
        "|---|---|---|---:|---:|---:|---:|---|",
    ]
    grouped = cells(runs)
    for (model, batch), rs in grouped.items():
        ids = ", ".join(f"{r.get('seed', 1)}/{r.get('stack', 0)}" for r in rs)
        for e in engines:
            xs = [by_engine(r)[e] for r in rs if e in by_engine(r)]
            if not xs:
                continue
            lines.append(
                f"| {model} | {batch} | {e} | "
                f"{spread([x['useful_gbps'] for x in xs], lambda v: f'{v:.0f}')} | "
                f"{spread([x['fetched_gbps'] for x in xs], lambda v: f'{v:.0f}')} | "
                f"{spread([100 * x['refetch_share'] for x in xs], lambda v: f'{v:.1f} %')} | "
                f"{spread([100 * x['useful_fraction'] for x in xs], lambda v: f'{v:.1f} %')} | "
                f"{ids} |")
    lines += ["", "## FLINT / H3", "",
              "Useful-bandwidth ratio and raw HBF bytes H3 / FLINT, per run then averaged. "
              "Requests: the stack's cache-line misses in a run. Run: wall time of the whole "
              "flint-eval process (all engines), as loaded as the machine was.", "",
              "| model | batch | requests (M) | flint / h3 | h3 / flint raw bytes | run (s) |",
              "|---|---|---:|---:|---:|---:|"]
    for (model, batch), rs in grouped.items():
        ratios, raw = [], []
        for r in rs:
            e = by_engine(r)
            if "flint" in e and "h3" in e and e["h3"]["useful_gbps"] > 0:
                ratios.append(e["flint"]["useful_gbps"] / e["h3"]["useful_gbps"])
                raw.append(e["h3"]["fetched_bytes"] / max(1, e["flint"]["fetched_bytes"]))
        reqs = sum(r["results"][0]["requests"] for r in rs) / len(rs) / 1e6
        secs = sum(r.get("run_seconds", 0) for r in rs) / len(rs)
        lines.append(f"| {model} | {batch} | {reqs:.1f} | "
                     f"{spread(ratios, lambda v: f'{v:.2f}x')} | "
                     f"{spread(raw, lambda v: f'{v:.2f}x')} | {secs:.0f} |")
    if args.loop == "closed":
        lines += open_against_closed(grouped, pathlib.Path(args.open_json), args)
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
