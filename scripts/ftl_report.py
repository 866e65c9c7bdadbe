#!/usr/bin/env python3
"""make report: metadata size of the read-only FTL, from the RTL itself, for every config.

For each config under GEN (build/gen/<cfg>/config.json + flint_cfg_pkg.sv), Yosys elaborates
the FTL modules with their default parameters (sizes from flint_cfg_pkg) and the script reads
back what the RTL instantiates: every flint_sram macro (Depth = entries, Width = bits per entry)
and the register bits beside them, plus the read counters' stagger parameters. It writes one
Markdown page (docs/ftl_metadata.md) with a table per config and, for `paper`, the totals per
stack beside the figures of the paper (Table 3 and section 4.3).

Usage: ftl_report.py --gen BUILD/gen --out docs/ftl_metadata.md [--config NAME ...]
Standard library and Yosys only; any elaboration problem is an error (exit code 1).
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"
# Top modules of the FTL and the files each needs (submodules first).
MODULES = {
    "flint_btt": ["common/flint_sram.sv", "ftl/flint_btt.sv"],
    "flint_reloc_table": ["common/flint_sram.sv", "ftl/flint_plane_map.sv",
                          "ftl/flint_reloc_table.sv"],
    "flint_read_counters": ["common/flint_sram.sv", "common/flint_fifo.sv",
                            "ftl/flint_read_counters.sv"],
}
# What each macro holds (instance path -> description), for the tables.
WHAT = {
    ("flint_btt", "u_table"): "BTT: {valid, block, page} per logical burst",
    ("flint_reloc_table", "u_fwd"): "relocation, forward: {phys plane, phys block} per logical block",
    ("flint_reloc_table", "u_rev"): "relocation, reverse + pool: {state, owner} per physical block",
    ("flint_reloc_table", "u_plane_map.u_map"): "plane map: {pending, phantom plane} per (die, block)",
    ("flint_read_counters", "u_counts"): "read counters: one count per physical block",
}
FF_TYPES = ("$dff", "$adff", "$dffe", "$adffe", "$sdff", "$sdffe", "$aldff", "$dffsr")
KIB = 1024 * 8  # bits in a KiB
MIB = 1024 * KIB


class ReportError(Exception):
    pass


def bits_param(v):
    """Yosys JSON parameter (binary string or int) -> int."""
    if isinstance(v, int):
        return v
    return int(v, 2)


def elaborate(gen, cfg, top):
    files = [gen / cfg / "flint_cfg_pkg.sv", RTL / "flint_pkg.sv"]
    files += [RTL / f for f in MODULES[top]]
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "net.json"
        reads = "; ".join(f"read_verilog -sv -I{RTL / 'common'} {f}" for f in files)
        script = f"{reads}; hierarchy -check -top {top}; proc; flatten; opt -fast; " \
                 f"write_json {out}"
        proc = subprocess.run(["yosys", "-q", "-p", script], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        if proc.returncode != 0 or not out.exists():
            raise ReportError(f"yosys failed on {top} at {cfg}:\n{proc.stdout[-2000:]}")
        net = json.loads(out.read_text())
    mod = net["modules"][top]
    srams, ff_bits = [], 0
    for name, cell in sorted(mod["cells"].items()):
        if cell["type"] == "flint_sram":
            p = cell["parameters"]
            srams.append((name, bits_param(p["Depth"]), bits_param(p["Width"])))
        elif cell["type"] in FF_TYPES:
            ff_bits += bits_param(cell["parameters"]["WIDTH"])
    params = {k: bits_param(v) for k, v in mod.get("parameter_default_values", {}).items()}
    return srams, ff_bits, params


def fmt_bits(bits):
    if bits >= MIB:
        return f"{bits / MIB:.2f} MiB"
    if bits >= KIB:
        return f"{bits / KIB:.1f} KiB"
    return f"{bits / 8:.0f} B"


def report_config(gen, cfg, lines):
    doc = json.loads((gen / cfg / "config.json").read_text())
    c, d = doc["config"], doc["derived"]
    lines += [f"## `{cfg}`", "", c["description"], ""]
    lines += ["| table (macro) | entries | bits/entry | bits | size |",
              "|---|---:|---:|---:|---:|"]
    totals, ffs, counter_params = {}, {}, None
    for top in MODULES:
        srams, ff_bits, params = elaborate(gen, cfg, top)
        if not srams:
            raise ReportError(f"{top} at {cfg}: no flint_sram macro found")
        ffs[top] = ff_bits
        if top == "flint_read_counters":
            counter_params = params
        for inst, depth, width in srams:
            what = WHAT.get((top, inst))
            if what is None:
                raise ReportError(f"{top}.{inst}: a macro this report does not know; add it")
            lines.append(f"| {what} (`{top}.{inst}`) | {depth} | {width} | {depth * width} | "
                         f"{fmt_bits(depth * width)} |")
            totals[(top, inst)] = (depth, width)
    # Cross-checks against the config: the RTL sizes its tables from the same source.
    expect = {
        ("flint_btt", "u_table"): d["btt_entries"],
        ("flint_reloc_table", "u_fwd"): c["dies"] * c["planes"] * c["blocks"],
        ("flint_reloc_table", "u_rev"): c["dies"] * d["phys_planes"] * c["blocks"],
        ("flint_reloc_table", "u_plane_map.u_map"): c["dies"] * c["blocks"],
        ("flint_read_counters", "u_counts"): c["dies"] * d["phys_planes"] * c["blocks"],
    }
    for key, n in expect.items():
        if totals.get(key, (None,))[0] != n:
            raise ReportError(f"{cfg}: {key} has {totals.get(key)} entries, config says {n}")
    btt = sum(dp * w for (t, _), (dp, w) in totals.items() if t == "flint_btt")
    reloc = sum(dp * w for (t, _), (dp, w) in totals.items() if t == "flint_reloc_table")
    ctr = sum(dp * w for (t, _), (dp, w) in totals.items() if t == "flint_read_counters")
    all_ff = sum(ffs.values())
    lines += ["", "| per stack | bits | size |", "|---|---:|---:|",
              f"| BTT | {btt} | {fmt_bits(btt)} |",
              f"| read counters + relocation (with pool and plane map) | {ctr + reloc} | "
              f"{fmt_bits(ctr + reloc)} |",
              f"| all FTL macros | {btt + ctr + reloc} | {fmt_bits(btt + ctr + reloc)} |",
              f"| registers beside them ({', '.join(f'{t} {n}' for t, n in ffs.items())}) | "
              f"{all_ff} | {fmt_bits(all_ff)} |"]
    pages = d["stack_bytes"] // c["page_bytes"]
    page_ftl = pages * 32
    lines += [f"| page-level FTL for comparison: {pages} pages x 4 B | {page_ftl} | "
              f"{fmt_bits(page_ftl)} |", ""]
    cp = counter_params
    window = 1 << cp["StaggerBits"]
    base = cp["DisturbLimit"] - cp["TripMargin"]
    lines += [f"Read counters: {cp['CountBits']}-bit counts saturating at "
              f"{(1 << cp['CountBits']) - 1} (limit {cp['DisturbLimit']}: "
              f"{(1 << cp['CountBits']) - 1 - cp['DisturbLimit']} senses of headroom past it); "
              f"trip points in ({base - window}, {base}] (window 2^{cp['StaggerBits']} = "
              f"{window} senses, {100 * window / cp['DisturbLimit']:.1f} % of the limit; "
              f"margin {cp['TripMargin']} below the limit); event queue "
              f"{cp['EventDepth']} deep.", ""]
    return {"btt": btt, "ctr_reloc": ctr + reloc, "page_ftl": page_ftl, "ff": all_ff,
            "btt_entries": totals[("flint_btt", "u_table")], "block_bits": d["block_bits"],
            "page_bits": d["page_bits"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", required=True, type=pathlib.Path)
    ap.add_argument("--out", required=True, type=pathlib.Path)
    ap.add_argument("--config", action="append")
    args = ap.parse_args()
    def stack_bytes(name):
        return json.loads((args.gen / name / "config.json").read_text())["derived"]["stack_bytes"]
    # Smallest stack first: small, medium, paper.
    cfgs = args.config or sorted((p.parent.name for p in args.gen.glob("*/config.json")),
                                 key=stack_bytes)
    if not cfgs:
        print(f"ftl_report: no configs under {args.gen}", file=sys.stderr)
        return 1
    lines = ["# FTL metadata size", "",
             "Generated by `scripts/ftl_report.py` (`make report`) from the RTL: Yosys elaborates "
             "`flint_btt`, `flint_reloc_table` and `flint_read_counters` at each config's default "
             "parameters and the tables below list the `flint_sram` macros they instantiate. Do "
             "not edit; the design reasons are in [ftl.md](ftl.md).", ""]
    figures = {}
    try:
        for cfg in cfgs:
            figures[cfg] = report_config(args.gen, cfg, lines)
    except (ReportError, KeyError, json.JSONDecodeError) as e:
        print(f"ftl_report: {e}", file=sys.stderr)
        return 1
    if "paper" in figures:
        f = figures["paper"]
        btt_entries, btt_width = f["btt_entries"]
        paper_btt = btt_entries * 32
        lines += ["## `paper` beside the paper", "",
                  "| structure | this RTL | paper | note |", "|---|---:|---:|---|",
                  f"| BTT entries | {btt_entries} | 256 Ki | one per 2 MiB burst of 512 GiB |",
                  f"| BTT | {fmt_bits(f['btt'])} | about 1 MB | {btt_width}-bit entries (valid + "
                  f"{f['block_bits']}-bit block + {f['page_bits']}-bit page); the paper's figure "
                  f"is 4 B entries "
                  f"({fmt_bits(paper_btt)}); a 32-bit-wide macro would cost that |",
                  f"| read counters + relocation | {fmt_bits(f['ctr_reloc'])} "
                  f"({f['ctr_reloc'] / 8e6:.2f} MB) | 0.83 MB | includes the reverse map (block "
                  f"state, owner), which is the free-block pool and the bad-block map |",
                  f"| total per stack | {fmt_bits(f['btt'] + f['ctr_reloc'])} "
                  f"({(f['btt'] + f['ctr_reloc']) / 8e6:.2f} MB) | about 1.8 MB | the difference "
                  f"is the BTT entry width |",
                  f"| page-level FTL | {fmt_bits(f['page_ftl'])} | 512 MB | 4 B per 4 KiB page |",
                  "", f"Control registers beside the macros: {f['ff']} bits in all at `paper` "
                  "(next-fit cursors, sweep counters, pipeline and response registers).", ""]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    print(f"ftl_report: wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
