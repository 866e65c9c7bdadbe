#!/usr/bin/env python3
"""make lint: every RTL module through Verilator --lint-only -Wall and Yosys read_verilog -sv +
synth, at each config (default: small and paper), then Verible's style lint when installed.

Usage: lint.py --gen BUILD/gen [--config small --config paper] [--jobs 2] [module ...]
A failure prints the tool's first lines; the exit code counts failures (0 = clean).
"""
import argparse
import concurrent.futures as cf
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from netlist import names_bch_pkg, read_set

ROOT = pathlib.Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"
# Yosys warnings that are information, not defects. Each needs a reason.
YOSYS_BENIGN = (
    "Replacing memory",  # small arrays become registers by design; SRAM goes via the wrapper
)
# The BBC top and its die are too big for a full synth inside the lint budget (45 s for
# everything). At small the synth_small_flow test (scripts/synth.py) synthesizes the die in full
# and the top as glue (its dies and scheduler left as cells; `synth.py --flat` for all of it),
# the die's at paper in `make area`; here Yosys reads them and
# checks its hierarchy (every module found, every port connected), at small also its processes
# (proc; check -assert). At paper proc alone takes 40 s (16 dies x 8 CRQ sub-banks); the blocks
# inside are each synthesized at paper here, and `make area` prices the top from them.
ELABORATE_ONLY = {
    ("flint_bbc", "small"): ["proc", "check -assert"],
    ("flint_bbc_die", "small"): ["proc", "check -assert"],
    ("flint_bbc_die", "paper"): ["proc", "check -assert"],
    # The stack top holds the BBC top and the rest; its blocks are synthesized one by one.
    ("flint_top", "small"): ["proc", "check -assert"],
    ("flint_refresh", "small"): ["proc", "check -assert"],
    ("flint_refresh_die", "small"): ["proc", "check -assert"],
    ("flint_loader", "small"): ["proc", "check -assert"],
    # The Chien search at P = 8: its full synth (10 s here) is synth_small_flow's, which fails on
    # the same warnings (as flint_bch_single's below); here Yosys elaborates and checks it.
    ("flint_bch_chien", "small"): ["proc", "check -assert"],
}
# Constant folding at the word level before synth (each pass keeps the design's function):
# a constant-masked AND narrowed to the bits the constant keeps (see the BCH entries below).
PRE_FINE = ["opt_expr -fine", "opt_clean", "wreduce", "opt_clean"]
# Yosys passes too slow for the lint budget (5 to 70 s each: the paper stack top and BBC top
# (16 dies x 8 CRQ sub-banks to elaborate), the refresh and load paths whose progq, masks and 512
# stripe columns Yosys elaborates slowly). `lint.py --heavy` runs exactly these, as the ctest
# lint_yosys_heavy; Verilator lints them here. The two largest BBC blocks' full synth at small
# (too slow for the budget too) is the ctest synth_small_flow's, which fails on the same
# warnings: here Yosys only elaborates and checks them.
HEAVY = {
    ("flint_top", "paper"): [],
    ("flint_bbc", "paper"): [],
    ("flint_refresh_inplace_die", "paper"): ["proc", "check -assert"],
    ("flint_bbc_sched", "small"): ["proc", "check -assert"],
    ("flint_bbc_crq_bank", "small"): ["proc", "check -assert"],
    ("flint_refresh", "paper"): ["proc", "check -assert"],
    ("flint_refresh_die", "paper"): ["proc", "check -assert"],
    ("flint_loader", "paper"): ["proc", "check -assert"],
    ("flint_xlat", "paper"): ["proc", "check -assert"],
    # The BCH line code's XOR matrices (121 outputs of about 500- and 570-input XORs, 31 k and
    # 35 k cells), the same at every config. Neither is in synth_small_flow (its liberty mapping
    # is minutes: synth/yosys_flow.py NOT_FLAT), so their Yosys synth is here. Each output is
    # `^(code & constant row)`: synth's fine-grained passes first split every row's AND into
    # 1 145 gates and then clean the constant ones away (opt_clean alone 30 of bch_syn's 60 s).
    # PRE_FINE folds the constants at the word level first; synth then makes the same netlist
    # (34 586 cells for bch_syn, the same count of each cell type) in a third of the
    # time.
    ("flint_bch_enc", "small"): ["proc", *PRE_FINE, "synth -top flint_bch_enc"],
    ("flint_bch_syn", "small"): ["proc", *PRE_FINE, "synth -top flint_bch_syn"],
    # The BCH line decoder holds the syndrome unit above and Berlekamp-Massey and the Chien
    # search (each synthesized in make lint on its own): its own logic is synthesized as glue,
    # the three as blackbox cells (7 s; whole, it repeated the syndrome unit's minutes).
    ("flint_bch_dec", "small"): ["blackbox flint_bch_syn flint_bch_bm $paramod*flint_bch_chien*",
                                 "synth -top flint_bch_dec"],
    # The single-error test: its 2 048-entry log table is about 12 k generic cells. Its full
    # synth is synth_small_flow's (which fails on the same warnings) and the netlist miter's
    # (test_ecc); here Yosys elaborates and checks it (its synth here was a third copy, 35 s).
    ("flint_bch_single", "small"): ["proc", "check -assert"],
    # The multi-path line decoder holds the syndrome unit, three units and a 64-line buffer (a
    # memory of 64 x 1 024 bits): elaborated and checked here, not synthesized (21 s, the Chien
    # search's constants most of it).
    ("flint_bch_line_dec", "small"): ["proc", "check -assert"],
}
# Blocks that read no config package (the BCH line code is the same at every config): Yosys and
# Verilator check them once, at small (above or in make lint), not again at paper, where their
# input differs only by the config package they do not read. lint.py refuses an entry whose
# source names flint_cfg_pkg.
CONFIG_FREE = {"flint_gf_mul", "flint_bch_enc", "flint_bch_syn", "flint_bch_bm", "flint_bch_chien",
               "flint_bch_dec", "flint_bch_single", "flint_bch_line_dec"}
# Verilator lints too slow for the budget (16 s: the paper stack top, every block of the stack at
# once; 11 s: the paper BBC top, 16 dies of CRQ sub-banks and decoders); `--heavy` runs them
# too. Each of their blocks is linted at paper on its own here.
HEAVY_VERILATOR = {("flint_top", "paper"), ("flint_bbc", "paper")}


def modules():
    return sorted(p for p in RTL.rglob("flint_*.sv") if p.name != "flint_pkg.sv")


# Source patterns the tools read differently, each with the reason (checked on rtl/ by make lint).
# Yosys 0.23 elaborates a typed parameter given '1 as the value 1, not all ones (Verilator and
# the language: all ones): flint_read_counters' CountMax was one, and every synthesized count
# stopped at 1 (docs/formal.md, "Found"). Spell it {W{1'b1}}.
PITFALLS = (
    (re.compile(r"\b(?:parameter|localparam)\b[^;=]*=\s*'1\b"),
     "a parameter given '1: Yosys 0.23 makes it 1, not all ones; write {W{1'b1}}"),
)


def pitfalls():
    """Every line of rtl/ that matches a PITFALLS pattern, comments left out."""
    found = []
    for path in sorted(RTL.rglob("*.sv*")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("//", 1)[0]
            for pat, why in PITFALLS:
                if pat.search(code):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {why}")
    return found


def packages(gen, cfg, files):
    # The BCH matrices' package (scripts/gen_bch.py) is the same at every config: gen/. It is
    # 129 kB of matrix literals, 0.6 of the 0.7 s Verilator takes to lint a small block, so only
    # a module whose hierarchy (files: read_set) names it reads it. With it and the read sets of
    # lint_yosys, make lint took 41 s instead of 85 s (one sitting, 2026-12-07).
    pkgs = [gen / cfg / "flint_cfg_pkg.sv", RTL / "flint_pkg.sv"]
    if names_bch_pkg(files):
        pkgs.insert(1, gen / "flint_bch_pkg.sv")
    return pkgs


def run(cmd, log):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log.write_text(proc.stdout)
    return proc.returncode, proc.stdout


def lint_verilator(gen, cfg, mod, tmp):
    ydirs = [a for d in sorted(RTL.iterdir()) if d.is_dir() for a in ("-y", str(d))]
    cmd = ["verilator", "--lint-only", "-Wall", "--assert", str(RTL / "flint.vlt"),
           f"-I{RTL / 'common'}", *ydirs, *map(str, packages(gen, cfg, read_set(mod))), str(mod),
           "--top-module", mod.stem]
    rc, out = run(cmd, tmp / f"{cfg}_{mod.stem}.vl.log")
    return None if rc == 0 else out


def lint_yosys(gen, cfg, mod, tmp):
    files = read_set(mod)
    reads = [f"read_verilog -sv {p}" for p in packages(gen, cfg, files)]
    # -defer: elaborate only the module under test, at its parameters (without it every module
    # is elaborated at its defaults as it is read, 20 s a job at paper). Only the files of its
    # hierarchy are read (read_set: a module it instantiates and read_set missed makes
    # `hierarchy -check` fail, never pass silently).
    reads += [f"read_verilog -defer -sv -I{RTL / 'common'} {m}" for m in files]
    if (mod.stem, cfg) in HEAVY:
        steps = [f"hierarchy -check -top {mod.stem}"] + HEAVY[(mod.stem, cfg)]
    elif (mod.stem, cfg) in ELABORATE_ONLY:
        steps = [f"hierarchy -check -top {mod.stem}"] + ELABORATE_ONLY[(mod.stem, cfg)]
    elif cfg == "paper":
        # Paper sizes elaborate and pass Yosys' checks here; their full synth (minutes in all)
        # is `make area`'s, and every module's full synth at small is also synth_small_flow's.
        steps = [f"hierarchy -check -top {mod.stem}", "proc", "check -assert"]
    else:
        steps = [f"synth -top {mod.stem}"]
    script = "; ".join(reads + steps)
    log = tmp / f"{cfg}_{mod.stem}.ys.log"
    rc, _ = run(["yosys", "-q", "-l", str(log), "-p", script], tmp / f"{cfg}_{mod.stem}.ys.out")
    text = log.read_text() if log.exists() else ""
    if rc != 0:
        return "\n".join(l for l in text.splitlines() if "ERROR" in l or "rror" in l) or text[-2000:]
    # "Warnings: N unique messages, M total" is Yosys' count of the lines above, benign or not.
    warns = [l for l in text.splitlines()
             if l.startswith("Warning") and not l.startswith("Warnings:")
             and not any(b in l for b in YOSYS_BENIGN)]
    return "\n".join(warns) if warns else None


def main():
    ap = argparse.ArgumentParser(description="FLINT RTL lint")
    ap.add_argument("--gen", required=True, type=pathlib.Path)
    ap.add_argument("--config", action="append")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--heavy", action="store_true",
                    help="only the passes kept out of make lint (HEAVY, HEAVY_VERILATOR)")
    ap.add_argument("names", nargs="*", help="module names (default: all)")
    args = ap.parse_args()
    configs = args.config or ["small", "paper"]
    all_mods = modules()
    mods = [m for m in all_mods if not args.names or m.stem in args.names]
    for cfg in configs:
        if not (args.gen / cfg / "flint_cfg_pkg.sv").exists():
            print(f"lint: no generated config '{cfg}' under {args.gen}", file=sys.stderr)
            return 2
    failures = []
    found = [] if args.heavy else pitfalls()
    for m in mods:
        if m.stem in CONFIG_FREE and "flint_cfg_pkg" in m.read_text():
            found.append(f"{m.name}: in CONFIG_FREE but names flint_cfg_pkg (checked at small only)")
    for msg in found:
        print(f"FAIL {msg}")
    # Verible's style lint runs beside the tool jobs, not after them.
    verible = None if args.heavy else shutil.which("verible-verilog-lint")
    if verible:
        files = [str(p) for p in sorted(RTL.rglob("*.sv"))]
        style = subprocess.Popen([verible, f"--rules_config={RTL / '.rules.verible_lint'}", *files],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with tempfile.TemporaryDirectory() as tmpname, cf.ThreadPoolExecutor(args.jobs) as pool:
        tmp = pathlib.Path(tmpname)
        jobs = {}
        # Paper first: its elaborations are the longest jobs, so the pool ends on short ones.
        for cfg in sorted(configs, key=lambda c: c != "paper"):
            for m in mods:
                heavy = (m.stem, cfg) in HEAVY
                heavy_vl = (m.stem, cfg) in HEAVY_VERILATOR
                once = m.stem in CONFIG_FREE and cfg != "small" and "small" in configs
                if heavy_vl == args.heavy and not once:
                    jobs[pool.submit(lint_verilator, args.gen, cfg, m, tmp)] = (
                        "verilator", cfg, m)
                if heavy == args.heavy and not once:
                    jobs[pool.submit(lint_yosys, args.gen, cfg, m, tmp)] = (
                        "yosys", cfg, m)
        for fut in cf.as_completed(jobs):
            tool, cfg, m = jobs[fut]
            msg = fut.result()
            if msg:
                failures.append((tool, cfg, m, msg))
    for tool, cfg, m, msg in sorted(failures, key=lambda f: (str(f[2]), f[1], f[0])):
        print(f"FAIL {tool} [{cfg}] {m.relative_to(ROOT)}")
        for line in msg.splitlines()[:20]:
            print(f"    {line}")
    if verible:
        out, _ = style.communicate()
        if style.returncode != 0:
            failures.append(("verible", "-", None, out))
            print("FAIL verible-verilog-lint")
            for line in out.splitlines()[:30]:
                print(f"    {line}")
    elif not args.heavy:
        print("lint: verible-verilog-lint not installed; style lint skipped (make setup)")
    print(f"lint: {len(mods)} module(s) x {len(configs)} config(s) ({' '.join(configs)}): "
          f"{len(failures) + len(found)} failure(s)")
    return 1 if failures or found else 0


if __name__ == "__main__":
    sys.exit(main())
