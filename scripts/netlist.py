#!/usr/bin/env python3
"""Synthesize one RTL module (of rtl/, a block without flint_sram) with Yosys into a generic-cell Verilog netlist for the miter.

"Trust no synthesis silently" (STYLE.md): the netlist is Verilated beside the RTL and both are
driven alike every cycle (tb/common/netlist_test.cpp). Steps: read the packages and
the files of the top's hierarchy (read_set), set the parameters, `synth -flatten`, rename the
module to NAME, `splitnets`, write_verilog.

Usage: netlist.py --gen BUILD/gen --config small --top flint_fifo --name flint_fifo_d3_netlist
                  --param Width=8 --param Depth=3 --out DIR/flint_fifo_d3_netlist.v

The output is rewritten only when its text changes, so an unchanged netlist does not trigger a
new Verilator run. Fails (exit 1) on any Yosys error, on any Yosys warning not listed as benign,
and on a netlist that still instantiates a module (a blackbox such as flint_sram cannot be
simulated against its RTL, so such tops are refused rather than compared half-way).
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"
# Same list as scripts/lint.py: Yosys warnings that are information, each with a reason.
YOSYS_BENIGN = (
    "Replacing memory",  # small arrays become registers by design; SRAM goes via the wrapper
)


def read_set(top):
    """The files of top's hierarchy: top, then every rtl/ module its sources name, transitively.

    A module is a file named after it (STYLE.md), so a name flint_x in a source, outside a
    comment, with an rtl/**/flint_x.sv, pulls that file in. A name that is not an instance only
    adds a file that Yosys reads and then drops (hierarchy keeps the top's tree): harmless, and
    still a function of the top alone. A missed instance makes Yosys fail, never silently."""
    files = {p.stem: p for p in RTL.glob("*/flint_*.sv")}
    seen, todo = {top.stem}, [top]
    while todo:
        text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", todo.pop().read_text(), flags=re.S)
        for name in set(re.findall(r"\bflint_\w+\b", text)):
            if name in files and name not in seen:
                seen.add(name)
                todo.append(files[name])
    return sorted(files[n] for n in seen)


def names_bch_pkg(files):
    """True if any of files names the BCH package (flint_bch_pkg::): only such a read set gets
    it, 129 kB of matrix literals (scripts/gen_bch.py) that every other read would parse for
    nothing. A file that needs it and does not get it fails loudly (an unknown package)."""
    return any(re.search(r"\bflint_bch_pkg::", p.read_text()) for p in files)


def fail(msg):
    print(f"netlist.py: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description="Yosys netlist of one module for the RTL miter")
    ap.add_argument("--gen", required=True, type=pathlib.Path)
    ap.add_argument("--config", default="small")
    ap.add_argument("--top", required=True, help="RTL module name")
    ap.add_argument("--name", required=True, help="module name of the netlist")
    ap.add_argument("--param", action="append", default=[], help="NAME=VALUE (integer)")
    ap.add_argument("--out", required=True, type=pathlib.Path)
    args = ap.parse_args()

    pkgs = [args.gen / args.config / "flint_cfg_pkg.sv", RTL / "flint_pkg.sv"]
    for p in pkgs:
        if not p.exists():
            fail(f"missing package {p} (run scripts/gen_config.py first)")
    # Any block of rtl/ built without flint_sram (a macro has no netlist; such a top is refused
    # below). Yosys reads exactly the files of the top's hierarchy (read_set), sorted by path,
    # never "everything under rtl/": Yosys names the cells and wires it creates from one global
    # counter ($N, autoidx) that every file read advances, and synth's passes (opt, abc) take
    # them in an order that follows those names. With other files read first, the design after
    # `hierarchy` is the same up to those numbers, yet synth returns a different netlist.
    # That is how issue #24 item 6 showed up: with every rtl/ folder read, flint_maint_seq's
    # netlist had 4 591 cells instead of 4 596, among them `~((a & b) ^ c) ^ ~d` in its line
    # FIFO's counter, which Verilator 5.006 evaluated as its complement (the miter failed at cycle
    # 29; Verilated correctly, that netlist passes it). That was Verilator's bug, worked around
    # for every design in cmake/flint.cmake (-fno-const-bit-op-tree); the fixed read set keeps
    # each netlist a function of its top and parameters alone (docs/verification.md, "Netlist miters: a Verilator XOR-tree bug").
    tops = [p for p in RTL.rglob(f"{args.top}.sv")]
    if not tops:
        fail(f"no {args.top}.sv under rtl/")
    srcs = read_set(tops[0])
    # The BCH blocks take their code from the generated flint_bch_pkg (scripts/gen_bch.py, in
    # gen/, the same at every config). Read only by the tops that name it, so every other
    # netlist's read set, and with it its text, stays as it was.
    if names_bch_pkg(srcs):
        bch = args.gen / "flint_bch_pkg.sv"
        if not bch.exists():
            fail(f"missing package {bch} (run scripts/gen_bch.py first)")
        pkgs.insert(1, bch)
    chparam = []
    for kv in args.param:
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)=(-?[0-9]+)", kv)
        if not m:
            fail(f"--param '{kv}' is not NAME=INTEGER")
        chparam += ["-set", m.group(1), m.group(2)]
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", args.name):
        fail(f"--name '{args.name}' is not a Verilog identifier")

    args.out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmpname:
        tmp = pathlib.Path(tmpname)
        net = tmp / "netlist.v"
        log = args.out.with_suffix(".yosys.log")
        script = [f"read_verilog -sv {p}" for p in pkgs]
        script += [f"read_verilog -sv -I{RTL / 'common'} {p}" for p in srcs]
        if chparam:
            script.append(f"chparam {' '.join(chparam)} {args.top}")
        script += [
            f"synth -flatten -top {args.top}",
            # Only Yosys' own cells may remain: an instance of a module (a blackbox such as
            # flint_sram) could not be simulated against the RTL, so it is refused here.
            "select -assert-none t:* t:$* %d",
            f"rename {args.top} {args.name}",
            "stat",
            # Vector bits assigned by separate statements make Verilator 5.006 see false loops
            # (UNOPTFLAT) and then simulate the netlist wrongly (found by make mutate): split them.
            "splitnets",
            "opt_clean",
            f"write_verilog -noattr {net}",
        ]
        ys = args.out.with_suffix(".ys")  # kept beside the netlist, with the log, to rerun by hand
        ys.write_text("\n".join(script) + "\n")
        proc = subprocess.run(["yosys", "-q", "-l", str(log), "-s", str(ys)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        text = log.read_text() if log.exists() else proc.stdout
        if proc.returncode != 0 and "selection is not empty" in text:
            fail(f"{args.top}: the netlist still instantiates a module (a blackbox such as "
                 f"flint_sram cannot be compared against its RTL); log {log}")
        if proc.returncode != 0:
            errs = [l for l in text.splitlines() if "ERROR" in l]
            fail(f"yosys failed on {args.top} (log {log}):\n  "
                 + "\n  ".join(errs or [text[-2000:]]))
        warns = [l for l in text.splitlines()
                 if l.startswith("Warning") and not l.startswith("Warnings:")  # the count line
                 and not any(b in l for b in YOSYS_BENIGN)]
        if warns:
            fail(f"yosys warned on {args.top} (log {log}):\n  " + "\n  ".join(warns))
        body = net.read_text()

    modules = re.findall(r"^module\s+(\S+?)\s*\(", body, flags=re.M)
    if modules != [args.name]:
        fail(f"expected one module {args.name} in the netlist, found {modules}")
    header = (f"// Generated by scripts/netlist.py from {tops[0].relative_to(ROOT)} "
              f"({' '.join(args.param) or 'default parameters'}); do not edit.\n")
    text = header + body
    if not args.out.exists() or args.out.read_text() != text:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
