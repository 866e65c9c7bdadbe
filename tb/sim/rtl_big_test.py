#!/usr/bin/env python3
"""flint-sim-big (make rtl-big) on a real-shaped decode stream: by default one decode step of
tiny-medium at batch 4 at medium (flint-trace-gen), the bursts it reads loaded (--bursts: the
highest burst it reads, plus one) through the RTL's write path and, separately, mounted (the dies
preloaded, docs/top.md "Mount"); every response checked by the driver (data against the loaded
weights, status, the ECC model, the protocol checks); the mounted run equal to the written one
(cycles, bursts, bytes); the cycles held within 1 % of the golden model's (--engine model) on the
same trace and the same loaded bursts. At paper the write path takes days: --load mount.
--fast-powerup: the rtl runs power up by the backdoor (docs/top.md "Power-up"); --check-fast-powerup:
the mounted run proves it against a second model powered up by the sweeps (the swept state word for
word, then every output every cycle); --requests N: only the first N requests of the trace (a slice
of the step, for a ctest).
Usage: rtl_big_test.py PATH/TO/flint-sim-big PATH/TO/flint-trace-gen [--config medium]
[--model tiny-medium] [--batch 4] [--load both|mount|write] [--gen-args "--layer 1 ..."]
[--fast-powerup] [--check-fast-powerup] [--requests N] [--keep DIR]"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import tomllib

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("sim")
ap.add_argument("gen")
ap.add_argument("--config", default="medium")
ap.add_argument("--model", default="tiny-medium")
ap.add_argument("--batch", type=int, default=4)
ap.add_argument("--tolerance", type=float, default=0.01)
ap.add_argument("--load", choices=("both", "mount", "write"), default="both",
                help="how the rtl runs get the weights (both: each, and they must agree)")
ap.add_argument("--gen-args", default="", help="more flint-trace-gen arguments")
ap.add_argument("--keep", help="a folder to keep the trace and reports in")
ap.add_argument("--fast-powerup", action="store_true",
                help="the rtl runs power up by the backdoor instead of the sweeps")
ap.add_argument("--requests", type=int, default=0, help="keep only the first N requests")
ap.add_argument("--check-fast-powerup", action="store_true",
                help="the mounted run checks the backdoor against the sweeps")
args = ap.parse_args()

# A burst is one page of every plane of every die (configs/<name>.toml).
ROOT = pathlib.Path(__file__).resolve().parents[2]
geo = tomllib.loads((ROOT / "configs" / f"{args.config}.toml").read_text())["geometry"]
burst_bytes = geo["dies"] * geo["planes"] * geo["page_bytes"]

failed = 0


def expect(name, cond, detail=""):
    global failed
    if not cond:
        failed += 1
        print(f"FAIL {name}: {detail}")


with tempfile.TemporaryDirectory() as tmp:
    d = pathlib.Path(args.keep or tmp)
    d.mkdir(parents=True, exist_ok=True)
    trace = d / "decode.trace"
    subprocess.run([args.gen, "--model", args.model, "--config", args.config, "--batch",
                    str(args.batch), "--tokens", "1", *args.gen_args.split(), "--out",
                    str(trace)], check=True, capture_output=True)
    top, kept, text = 0, 0, []
    for line in trace.read_text().splitlines():
        if line and not line.startswith("#"):
            if args.requests and kept == args.requests:
                continue
            kept += 1
            top = max(top, int(line.split()[2], 0))
        text.append(line + "\n")
    if args.requests:
        trace.write_text("".join(text))
    bursts = top // burst_bytes + 1
    rep = {}
    runs = {"model": ("model",)}
    if args.load in ("both", "write"):
        runs["rtl"] = ("rtl",)
    if args.load in ("both", "mount"):
        runs["rtl-mount"] = ("rtl", "--mount")
    if args.fast_powerup:
        runs = {k: v + (("--fast-powerup",) if v[0] == "rtl" else ()) for k, v in runs.items()}
    if args.check_fast_powerup and "rtl-mount" in runs:
        runs["rtl-mount"] += ("--check-fast-powerup",)
    for name, (engine, *more) in runs.items():
        out = d / f"{name}.json"
        p = subprocess.run([args.sim, "--trace", str(trace), "--config", args.config, "--engine",
                            engine, *more, "--bursts", str(bursts), "--report", str(out)],
                           stdout=subprocess.PIPE, text=True)  # progress: stderr, as it goes
        print(p.stdout, end="")
        expect(f"{name} run", p.returncode == 0, p.stdout)
        rep[name] = json.loads(out.read_text()) if out.exists() else {}
    if "rtl" in rep and "rtl-mount" in rep:
        w, t = rep["rtl"], rep["rtl-mount"]
        same = ("cycles", "bursts_issued", "bursts_refetched", "useful_bytes", "fetched_bytes",
                "status", "refresh_rt")
        expect("the mounted run equals the written one", w and t
               and all(w[k] == t[k] for k in same),
               {k: (w.get(k), t.get(k)) for k in same})
    if args.check_fast_powerup:
        c = rep.get("rtl-mount", {}).get("fast_powerup_check", {})
        print(f"rtl_big_test: fast power-up check at {args.config}: {c.get('words')} swept words, "
              f"{c.get('words_differing')} differing; {c.get('cycles')} cycles after ready_o "
              f"(cycle {c.get('ready_cycle')}), " + ("diverged at " + str(c.get("divergence_cycle"))
                                                       if c.get("diverged") else "every output equal"))
        expect("the backdoor leaves what the sweeps leave", c.get("passed") is True, c)
    m = rep["model"]
    r = rep.get("rtl") or rep.get("rtl-mount")
    if m and r:
        n = m["requests"]
        expect("every request answered", r["requests"] == n and r["responses"] == n, r)
        expect("every response ok", r["status"]["ok"] == n, r["status"])
        expect("no data mismatch", r["data_mismatches"] == 0, r)
        expect("ECC model agrees", r["ecc_model_mismatches"] == 0, r)
        expect("no protocol violation", r["check_violations"] == 0, r)
        gap = (r["cycles"] - m["cycles"]) / m["cycles"]
        print(f"rtl_big_test: {args.config} {args.model} batch {args.batch} "
              f"{args.gen_args}, {n} requests, {bursts} bursts {dict(write='loaded', mount='mounted')[r['load']]}: "
              f"rtl {r['cycles']} cycles (load {r['load_cycles']}, "
              f"simulated {r['simulated_cycles']}, {r['wall_seconds']:.0f} s; power-up "
              f"{r['powerup_cycles']} cycles, {r['powerup_backdoor_cycles']} by the backdoor, "
              f"{r['powerup_seconds']:.1f} s), model "
              f"{m['cycles']} (load {m['load_cycles']}): {100 * gap:+.2f} %")
        if args.fast_powerup:
            expect("the backdoor wrote the power-up", r["powerup_backdoor_cycles"] > 0, r)
        expect(f"cycles within {100 * args.tolerance:g} % of the model",
               abs(gap) <= args.tolerance, (r["cycles"], m["cycles"]))
print("rtl_big_test: " + ("FAILED" if failed else "passed"))
sys.exit(1 if failed else 0)
