#!/usr/bin/env python3
"""flint-sim-big (make rtl-big) on a real-shaped decode stream at medium: one decode step of
tiny-medium at batch 4 (flint-trace-gen), the bursts it reads loaded through the RTL's write path
(--bursts: the highest burst it reads, plus one), every response checked by the driver (data
against the loaded weights, status, the ECC model, the protocol checks), and the cycles held
within 1 % of the golden model's (--engine model) on the same trace and the same loaded bursts.
Usage: rtl_big_test.py PATH/TO/flint-sim-big PATH/TO/flint-trace-gen [--config medium]
[--model tiny-medium] [--batch 4]"""
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


with tempfile.TemporaryDirectory() as d:
    d = pathlib.Path(d)
    trace = d / "decode.trace"
    subprocess.run([args.gen, "--model", args.model, "--config", args.config, "--batch",
                    str(args.batch), "--tokens", "1", "--out", str(trace)], check=True,
                   capture_output=True)
    top = 0
    for line in trace.read_text().splitlines():
        if line and not line.startswith("#"):
            top = max(top, int(line.split()[2], 0))
    bursts = top // burst_bytes + 1
    rep = {}
    for engine in ("model", "rtl"):
        out = d / f"{engine}.json"
        p = subprocess.run([args.sim, "--trace", str(trace), "--config", args.config, "--engine",
                            engine, "--bursts", str(bursts), "--report", str(out)],
                           stdout=subprocess.PIPE, text=True)  # progress: stderr, as it goes
        print(p.stdout, end="")
        expect(f"{engine} run", p.returncode == 0, p.stdout)
        rep[engine] = json.loads(out.read_text()) if out.exists() else {}
    m, r = rep["model"], rep["rtl"]
    if m and r:
        n = m["requests"]
        expect("every request answered", r["requests"] == n and r["responses"] == n, r)
        expect("every response ok", r["status"]["ok"] == n, r["status"])
        expect("no data mismatch", r["data_mismatches"] == 0, r)
        expect("ECC model agrees", r["ecc_model_mismatches"] == 0, r)
        expect("no protocol violation", r["check_violations"] == 0, r)
        gap = (r["cycles"] - m["cycles"]) / m["cycles"]
        print(f"rtl_big_test: {args.config} {args.model} batch {args.batch}, {n} requests, "
              f"{bursts} bursts loaded: rtl {r['cycles']} cycles (load {r['load_cycles']}, "
              f"simulated {r['simulated_cycles']}, {r['wall_seconds']:.0f} s), model "
              f"{m['cycles']} (load {m['load_cycles']}): {100 * gap:+.2f} %")
        expect(f"cycles within {100 * args.tolerance:g} % of the model",
               abs(gap) <= args.tolerance, (r["cycles"], m["cycles"]))
print("rtl_big_test: " + ("FAILED" if failed else "passed"))
sys.exit(1 if failed else 0)
