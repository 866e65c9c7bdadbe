#!/usr/bin/env python3
"""make synth: Yosys synthesis of every RTL module (rtl/**/flint_*.sv) at one config, mapped to
both of FLINT's liberty files (synth/lib/), with SRAM macros kept as blackboxes and priced by
the SRAM model (synth/sram_model.py), plus a first-order timing estimate (synth/sta.py).

Usage: synth.py --gen BUILD/gen --config small --out BUILD/synth [--jobs 2] [--check] [--flat]
       [module..]
Writes OUT/<config>/synth.json and OUT/<config>/synth.md, and per module OUT/<config>/<module>/
(synth.ys, yosys.log, netlists). --check fails (exit 1) unless every module synthesizes with
both libraries, every cell is a liberty cell or flint_sram, our area sum equals Yosys' stat,
each module whose RTL instantiates flint_sram keeps at least one macro (and the others none),
the liberty files are fresh and carry the reference areas, the SRAM model stays within its
stated error bounds and sanity checks, the queue model agrees with its simulation, and the
area report (scripts/area.py) builds at this config with every structure priced and every
SRAM instance accounted for.

The flow itself is synth/yosys_flow.py; this is its command line. The area report's checks run
as `scripts/area.py --self-check` on the synth.json just written (area.py builds on the flow,
so the flow does not import it).
"""
import argparse
import pathlib
import subprocess
import sys
import time

SCRIPTS = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS.parent / "synth"))
import sram_model  # noqa: E402
import yosys_flow  # noqa: E402  (puts synth/lib/ on the path)


def area_self_check(args):
    """The area report's checks (scripts/area.py --self-check) on OUT/<config>/synth.json, the
    flow's results just written: one failure message a line of its output."""
    cmd = [sys.executable, str(SCRIPTS / "area.py"), "--gen", str(args.gen), "--config",
           args.config, "--out", str(args.out), "--self-check"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    fails = [line for line in p.stdout.splitlines() if line.strip()]
    if p.returncode not in (0, 1) or (p.returncode == 1) != bool(fails):
        tail = " | ".join((p.stderr or p.stdout).strip().splitlines()[-5:])
        fails.append(f"area --self-check exited {p.returncode}: {tail}")
    return fails


def main():
    ap = argparse.ArgumentParser(description="FLINT synthesis flow")
    ap.add_argument("--gen", required=True, type=pathlib.Path)
    ap.add_argument("--config", default="small")
    ap.add_argument("--out", required=True, type=pathlib.Path)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--check", action="store_true", help="assert the flow's invariants")
    ap.add_argument("--flat", action="store_true",
                    help="synthesize the glue modules (yosys_flow.GLUE: the BBC top) flat, "
                         "their blocks inside, for paths across the blocks (minutes at small)")
    ap.add_argument("names", nargs="*", help="module names (default: every module)")
    args = ap.parse_args()
    t0 = time.time()
    try:
        cfgd = yosys_flow.load_config(args.gen, args.config)
        doc = yosys_flow.run_flow(args.gen, args.config, args.out, args.jobs, args.names,
                                      args.flat)
    except (yosys_flow.FlowError, sram_model.ModelError) as e:
        print(f"synth: {e}", file=sys.stderr)
        return 2
    ok = sum(r["ok"] for r in doc["modules"])
    print(f"synth [{args.config}]: {ok}/{len(doc['modules'])} module(s) synthesized in "
          f"{time.time() - t0:.0f} s -> {args.out / args.config / 'synth.md'}")
    for r in doc["modules"]:
        if not r["ok"]:
            print(f"  FAIL {r['module']}: {r.get('error')}")
    if args.check:
        fails = yosys_flow.check(doc, cfgd)
        if not args.names and ok == len(doc["modules"]):
            fails += area_self_check(args)
        for f in fails:
            print(f"  CHECK FAIL {f}")
        print(f"synth --check: {len(fails)} failure(s)")
        return 1 if fails else 0
    return 0 if ok == len(doc["modules"]) else 1


if __name__ == "__main__":
    sys.exit(main())
