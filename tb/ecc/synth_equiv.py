#!/usr/bin/env python3
"""Formal check that Yosys' synthesized netlist of a combinational ECC block equals its RTL
("trust no synthesis silently", STYLE.md): the RTL (after proc/flatten) and the synth + abc
gate netlist go into one miter, and a SAT proof shows no input makes any output differ. For
combinational logic this covers every input, which a random-stimulus miter cannot.

Usage: synth_equiv.py --gen BUILD/gen --config small --top flint_ecc_cl_dec [--inject-bug]
Exit 0 on a proof, 1 on a counterexample or any tool error. --inject-bug synthesizes the gate
side with the decoder's bug-injection define (a check-bit error reported OK) and inverts the
verdict: the check must find that difference, or it proves nothing.
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
RTL = ROOT / "rtl"
ECC = ["flint_secded_enc", "flint_secded_dec", "flint_ecc_cl_enc", "flint_ecc_cl_dec"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", required=True, type=pathlib.Path)
    ap.add_argument("--config", default="small")
    ap.add_argument("--top", required=True, choices=ECC)
    ap.add_argument("--inject-bug", action="store_true")
    args = ap.parse_args()
    if args.inject_bug and args.top in ("flint_secded_enc", "flint_ecc_cl_enc"):
        print("synth_equiv: --inject-bug needs a decoder top", file=sys.stderr)
        return 1
    pkgs = [args.gen / args.config / "flint_cfg_pkg.sv", RTL / "flint_pkg.sv"]
    for p in pkgs:
        if not p.exists():
            print(f"synth_equiv: missing {p}", file=sys.stderr)
            return 1
    def reads(defines=""):
        out = [f"read_verilog -sv {p}" for p in pkgs]
        out += [f"read_verilog -sv {defines}-I{RTL / 'common'} {RTL / 'ecc' / (m + '.sv')}"
                for m in ECC]
        return out

    bug = "-DFLINT_ECC_BUG_CHECK_ERR_OK " if args.inject_bug else ""
    script = reads() + [
        # memory -nomap + memory_map: a case on a few bits with constant results becomes a ROM
        # in proc (proc_rom), which sat cannot import; mapped to logic, it can.
        f"hierarchy -top {args.top}", "proc", "flatten", "memory -nomap", "memory_map",
        "opt_clean", f"rename {args.top} gold", "design -stash gold_d",
    ] + reads(bug) + [
        f"synth -top {args.top} -flatten",
        "abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT",
        f"rename {args.top} gate", "design -stash gate_d",
        "design -copy-from gold_d -as gold gold",
        "design -copy-from gate_d -as gate gate",
        "miter -equiv -flatten -make_outputs gold gate miter",
        "hierarchy -top miter",
        "sat -verify -prove trigger 0 miter",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        ys = pathlib.Path(tmp) / "equiv.ys"
        ys.write_text("\n".join(script) + "\n")
        log = pathlib.Path(tmp) / "equiv.log"
        proc = subprocess.run(["yosys", "-q", "-l", str(log), "-s", str(ys)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        text = log.read_text() if log.exists() else proc.stdout
    if args.inject_bug:
        if "SUCCESS" not in text and "model found: FAIL" in text:
            print(f"synth_equiv: {args.top} [{args.config}]: injected bug found, as it must be")
            return 0
        print(f"synth_equiv: {args.top} [{args.config}]: injected bug NOT found")
        print("\n".join(text.splitlines()[-40:]))
        return 1
    if proc.returncode != 0 or "SUCCESS" not in text:
        print(f"synth_equiv: {args.top} [{args.config}]: netlist differs from RTL or Yosys failed")
        print("\n".join(text.splitlines()[-40:]))
        return 1
    print(f"synth_equiv: {args.top} [{args.config}]: netlist == RTL for every input (SAT proof)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
