#!/usr/bin/env python3
"""Mutation score of the RTL tests (make mutate; docs/mutation.md, docs/verification.md).

For each block in BLOCKS, at a tiny parameter set:
1. Yosys reads the RTL (-formal, so flint_sram is its behavioural array, mapped to flops by
   `memory`), flattens it, and `mutate -list N -seed S -ctrl mutsel W 1` draws N mutants (an
   output, input or wire bit of a cell forced to 0, 1, inverted, or tied to another bit), all in
   one netlist behind a select input: mutant k is live when mutsel == k, none at 0. `splitnets`
   before write_verilog: without it Verilator 5.006 sees the bit-level muxes of a mutated
   vector as a combinational loop (UNOPTFLAT) and mis-simulates even mutsel == 0.
2. Verilator builds the netlist once with the block's mutation harness (tb/mutate/), which runs
   the block test's seeded random traffic against the golden model with the block bench's
   checks, once a mutant, the same stimulus each time; mutant 0 (none) must pass.
3. Every mutant that survives goes to a proof: two copies of the netlist (mutsel 0 and k), every
   flop exposed as an output (`expose -dff`), a miter over outputs and flops, `sat -tempinduct`
   from equal (zero) initial states: proven, the mutant never changes a flop or an output. If
   not, the same miter over the outputs alone, k-induction up to 12 steps (a mutant may change
   a flop no output ever shows). Proven either way: equivalent, excluded from the score. Not
   proven (or two minutes gone): a survivor, listed with its source line.
Score = killed / (mutants - equivalent).

Usage: mutate.py --gen BUILD/gen [--out BUILD/mutate] [--mutants 200] [--seed 1]
                 [--report docs/mutation.md] [--min-score 0.95] [block ...]
Exit 1 when a block's score is below --min-score or mutant 0 fails.
"""
import argparse
import concurrent.futures as cf
import datetime
import math
import pathlib
import re
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"

# name -> the block at its mutation parameters, its harness and the stimulus length.
BLOCKS = {
    "crq_bank": {
        "top": "flint_bbc_crq_bank",
        "files": ["rtl/common/flint_sram.sv", "rtl/common/flint_fifo.sv",
                  "rtl/bbc/flint_bbc_crq_bank.sv"],
        "params": {"Entries": 8, "Slots": 2, "Width": 12},
        "harness": "tb/mutate/mutate_crq.cpp",
        "cpp": ["model/bbc/crq_bank.cpp"],
        "module": "crq_mut",
        "cycles": 20000,
    },
    "fifo": {
        "top": "flint_fifo",
        "files": ["rtl/common/flint_fifo.sv"],
        "params": {"Width": 8, "Depth": 3},
        "harness": "tb/mutate/mutate_fifo.cpp",
        "cpp": [],
        "module": "fifo_mut",
        "cycles": 20000,
    },
    "rr_arb": {
        "top": "flint_rr_arb",
        "files": ["rtl/common/flint_rr_arb.sv"],
        "params": {"N": 5},
        "harness": "tb/mutate/mutate_rr_arb.cpp",
        "cpp": [],
        "module": "rr_mut",
        "cycles": 20000,
    },
}


class MutateError(Exception):
    pass


def run(cmd, log, cwd=None, timeout=1800):
    with open(log, "w") as f:
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=cwd, timeout=timeout)
    return p.returncode


def generate(name, blk, gen, out, mutants, seed):
    """Yosys: the netlist with every mutant behind mutsel; returns (mut.v, list of commands,
    select width)."""
    width = max(1, math.ceil(math.log2(mutants + 1)))
    files = [str(gen / "small" / "flint_cfg_pkg.sv"), str(RTL / "flint_pkg.sv")]
    files += [str(ROOT / f) for f in blk["files"]]
    params = " ".join(f"-set {k} {v}" for k, v in blk["params"].items())
    ys = out / "gen.ys"
    ys.write_text("\n".join([
        f"read_verilog -defer -sv -formal -I{RTL / 'common'} {' '.join(files)}",
        f"chparam {params} {blk['top']}",
        f"prep -top {blk['top']} -flatten",
        "memory",
        "chformal -remove",
        "opt_clean",
        f"rename {blk['top']} {blk['module']}",
        f"mutate -list {mutants} -seed {seed} -ctrl mutsel {width} 1 -o {out / 'mutants.ys'}",
        f"script {out / 'mutants.ys'}",
        "splitnets",
        "opt_clean",
        f"write_verilog -noattr {out / 'mut.v'}",
    ]) + "\n")
    if run(["yosys", "-q", str(ys)], out / "gen.log") != 0:
        raise MutateError(f"{name}: yosys failed (log {out / 'gen.log'})")
    cmds = [l for l in (out / "mutants.ys").read_text().splitlines() if l.startswith("mutate")]
    if len(cmds) != mutants:
        raise MutateError(f"{name}: asked for {mutants} mutants, Yosys listed {len(cmds)}")
    return out / "mut.v", cmds, width


def build(name, blk, netlist, out):
    vdir = out / "obj"
    if vdir.exists():
        shutil.rmtree(vdir)
    cmd = ["verilator", "--cc", "--exe", "--build", "-j", "1", "--top", blk["module"],
           "--prefix", "V" + blk["module"], "--Mdir", str(vdir), "-Wno-fatal", "-Wno-lint",
           # Verilator 5.006 mis-optimizes XOR trees with negations (cmake/flint.cmake)
           "-Wno-style", "-fno-const-bit-op-tree",
           "--x-assign", "unique", "--x-initial", "unique", str(netlist),
           str(ROOT / blk["harness"])] + [str(ROOT / c) for c in blk["cpp"]] + [
           "-CFLAGS", f"-std=c++17 -O1 -I{ROOT}", "-o", "harness"]
    if run(cmd, out / "build.log") != 0:
        raise MutateError(f"{name}: the harness did not build (log {out / 'build.log'})")
    return vdir / "harness"


def simulate(name, blk, binary, mutants, seed, out):
    p = subprocess.run([str(binary), str(mutants), str(blk["cycles"]), str(seed)],
                       capture_output=True, text=True, timeout=3600)
    (out / "run.txt").write_text(p.stdout + p.stderr)
    if p.returncode != 0:
        raise MutateError(f"{name}: the harness exited {p.returncode} (see {out / 'run.txt'})")
    res = {}
    for line in p.stdout.splitlines():
        m = re.match(r"(\d+) (killed|survived)(?: (\d+) (.*))?$", line)
        if m:
            res[int(m.group(1))] = (m.group(2), int(m.group(3) or 0), m.group(4) or "")
    if sorted(res) != list(range(mutants + 1)):
        raise MutateError(f"{name}: the harness answered {len(res)} of {mutants + 1} mutants")
    if res[0][0] != "survived":
        raise MutateError(f"{name}: the unmutated design fails its harness: {res[0]}")
    return res


def equivalent(blk, netlist, k, width, out):
    """How sat proves mutant k equivalent to the design: "flops" (by induction, it changes no
    flop and no output), "outputs" (k-induction on the outputs alone, up to 12 steps), or None
    (neither within the step bound and two minutes)."""
    mod = blk["module"]
    head = [f"read_verilog {netlist}", "proc", "opt_clean",
            f"copy {mod} gold", f"copy {mod} gate", f"delete {mod}",
            "delete -port gold/mutsel gate/mutsel",
            "cd gold", f"connect -set mutsel {width}'d0", "cd ..",
            "cd gate", f"connect -set mutsel {width}'d{k}", "cd ..", "opt -fast"]
    tail = ["miter -equiv -flatten -make_assert gold gate miter", "hierarchy -top miter",
            "async2sync"]
    for how, extra, steps in (("flops", ["expose -dff gold gate"], 8), ("outputs", [], 12)):
        script = "; ".join(head + extra + tail + [
            f"sat -tempinduct -prove-asserts -set-init-zero -maxsteps {steps} -verify"])
        try:
            if run(["yosys", "-q", "-p", script], out / f"equiv_{k}_{how}.log",
                   timeout=120) == 0:
                return how
        except subprocess.TimeoutExpired:
            pass
    return None


def source_of(cmd):
    """(file:line, the RTL line) of a mutate command's first -src in the block's own RTL."""
    for m in re.finditer(r"-src (\S+?):(\d+)\.", cmd):
        path, line = pathlib.Path(m.group(1)), int(m.group(2))
        if line > 0 and path.exists():
            text = path.read_text().splitlines()
            rel = path.relative_to(ROOT) if ROOT in path.parents else path
            return f"{rel}:{line}", text[line - 1].strip() if line <= len(text) else ""
    return "-", ""


def describe(cmd):
    fields = dict(re.findall(r"-(mode|cell|port|portbit|ctrlbit|wire|wirebit) (\S+)", cmd))
    cell = re.sub(r"^\$(\w+)\$.*?(\$\d+)$", r"$\1\2", fields.get("cell", "?"))
    what = f"{fields.get('mode', '?')} on {cell}.{fields.get('port', '?')}[{fields.get('portbit', '?')}]"
    if "wire" in fields:
        what += f" (`{fields['wire']}[{fields.get('wirebit', 0)}]`)"
    return what


def mutate_block(name, blk, args):
    out = args.out / name
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    netlist, cmds, width = generate(name, blk, args.gen, out, args.mutants, args.seed)
    binary = build(name, blk, netlist, out)
    res = simulate(name, blk, binary, args.mutants, args.seed, out)
    survivors = [k for k in range(1, args.mutants + 1) if res[k][0] == "survived"]
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        proofs = dict(zip(survivors, pool.map(
            lambda k: equivalent(blk, netlist, k, width, out), survivors)))
    equiv = [k for k in survivors if proofs[k]]
    by_outputs = [k for k in equiv if proofs[k] == "outputs"]
    live = [k for k in survivors if not proofs[k]]
    killed = args.mutants - len(survivors)
    modes = {}
    for c in cmds:
        m = re.search(r"-mode (\w+)", c).group(1)
        modes[m] = modes.get(m, 0) + 1
    score = killed / (args.mutants - len(equiv)) if args.mutants > len(equiv) else 1.0
    return {"block": name, "top": blk["top"], "params": blk["params"], "mutants": args.mutants,
            "killed": killed, "equivalent": equiv, "by_outputs": by_outputs,
            "survivors": live, "score": score,
            "cycles": blk["cycles"], "seconds": round(time.time() - t0, 1), "modes": modes,
            "cmds": cmds, "kill_cycles": sorted(res[k][1] for k in res if k and res[k][0] == "killed")}


def report(results, args):
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True).stdout.strip() or "unknown"
    if subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                      capture_output=True, text=True).stdout.strip():
        rev += " (with uncommitted changes)"
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    L = ["# Mutation score: the last `make mutate`", "",
         f"Generated by `scripts/mutate.py --mutants {args.mutants} --seed {args.seed}` (make "
         f"mutate) at commit {rev}, {when}. How it works, and what the score counts: "
         "docs/verification.md, \"Mutation\".", "",
         "| block | parameters | mutants | killed | equivalent (proven) | survivors | score | "
         "cycles a mutant | median cycle of the kill | seconds |",
         "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        ks = r["kill_cycles"]
        med = ks[len(ks) // 2] if ks else "-"
        params = ", ".join(f"{k}={v}" for k, v in r["params"].items())
        L.append(f"| `{r['top']}` | {params} | {r['mutants']} | {r['killed']} | "
                 f"{len(r['equivalent'])} | {len(r['survivors'])} | {100 * r['score']:.1f} % | "
                 f"{r['cycles']:,} | {med} | {r['seconds']} |")
    L.append("")
    for r in results:
        L.append(f"Mutants of `{r['top']}` by kind: " + ", ".join(
            f"{m} {n}" for m, n in sorted(r["modes"].items())) + ".")
        L.append("")
        for title, ks in (("Survivors (not killed, not proven equivalent)", r["survivors"]),
                          ("Equivalent, proven: no flop and no output ever differs",
                           [k for k in r["equivalent"] if k not in r["by_outputs"]]),
                          ("Equivalent, proven on the outputs alone (k-induction)",
                           r["by_outputs"])):
            L.append(f"{title}, `{r['top']}`:" + ("" if ks else " none."))
            L.append("")
            if ks:
                L += ["| mutant | mutation | source | line |", "|---:|---|---|---|"]
                for k in ks:
                    cmd = r["cmds"][k - 1]
                    src, text = source_of(cmd)
                    L.append(f"| {k} | {describe(cmd)} | {src} | `{text}` |")
                L.append("")
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", required=True, type=pathlib.Path)
    ap.add_argument("--out", type=pathlib.Path, default=ROOT / "build" / "mutate")
    ap.add_argument("--mutants", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--report", type=pathlib.Path)
    ap.add_argument("--min-score", type=float, default=0.0,
                    help="fail when a block's score is below this (0.95 = 95 %%)")
    ap.add_argument("blocks", nargs="*", help=f"blocks (default all: {', '.join(BLOCKS)})")
    args = ap.parse_args()
    for b in args.blocks:
        if b not in BLOCKS:
            print(f"mutate: no block {b!r} (blocks: {', '.join(BLOCKS)})", file=sys.stderr)
            return 2
    for tool in ("yosys", "verilator"):
        if not shutil.which(tool):
            print(f"mutate: {tool} not found (make setup installs it)", file=sys.stderr)
            return 2
    results, fail = [], False
    for name in args.blocks or BLOCKS:
        try:
            r = mutate_block(name, BLOCKS[name], args)
        except (MutateError, subprocess.TimeoutExpired) as e:
            print(f"mutate: {e}", file=sys.stderr)
            return 1
        results.append(r)
        print(f"{name}: {r['mutants']} mutants, {r['killed']} killed, {len(r['equivalent'])} "
              f"proven equivalent, {len(r['survivors'])} survivors: score "
              f"{100 * r['score']:.1f} % ({r['seconds']} s)")
        if r["score"] < args.min_score:
            print(f"mutate: {name} scores below {100 * args.min_score:.0f} %", file=sys.stderr)
            fail = True
    if args.report:
        args.report.write_text(report(results, args))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
