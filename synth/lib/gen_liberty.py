#!/usr/bin/env python3
"""Writes FLINT's two liberty files, synth/lib/flint_asap7.lib and synth/lib/flint_nangate45.lib.

Areas are the 1x cell footprints in synth/reference/cells-*.txt (read off the public
ASAP7 and NanGate FreePDK45 LEF files). Delays are a linear model of our own (see LIBS below):
  delay(cell, load) = t_unit * p(cell) + k_load * load,   input cap(pin) = g(pin) * c_unit
with p and g the parasitic delay and logical effort of the gate (Sutherland/Sproull/Harris,
textbook values; two-stage cells add one inverter stage). The constants are estimates, each
stated with its basis in LIBS. synth/sta.py reads the same tables (import), so the .lib files
and the timing estimate cannot disagree; `--check` fails if a checked-in .lib is stale.

Usage: gen_liberty.py [--out DIR] [--check]
"""
import argparse
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent

# Per-library constants.
#  t_unit_ps: delay of one unit of parasitic delay; k_load_ps_per_ff: X1 output drive slope;
#  c_unit_ff: input capacitance of a unit inverter; wire_ff: wire load per fanout (sta.py).
LIBS = {
    "nangate45": {
        "file": "flint_nangate45.lib",
        "title": "45 nm-class (NanGate FreePDK45 areas)",
        "area_source": "cells-nangate45.txt: NanGate FreePDK45 Open Cell Library LEF, X1 cells",
        # Anchor: NanGate45 typical corner (1.1 V, 25 C) AND2_X1, A1->ZN at 17 ps input slew,
        # read from the public NangateOpenCellLibrary_typical.lib NLDM tables: about 29 ps at
        # no load, 38 ps at 3.8 fF, 46 ps at 7.6 fF (rise/fall mean). AND2 = NAND2 + INV = 4
        # parasitic units here, so t_unit = 29/4 ~ 7.2 ps; slope (46-29)/7.2 ~ 2.3 ps/fF;
        # NAND2_X1 input pin 1.6 fF at g = 4/3 gives c_unit 1.2 fF. FO4 inverter: ~18 ps.
        "t_unit_ps": 7.2,
        "k_load_ps_per_ff": 2.3,
        "c_unit_ff": 1.2,
        "wire_ff": 0.5,
        "timing_source": "estimate: linear model anchored on the NanGate45 typical AND2_X1 "
                         "NLDM table (about 29 ps + 2.3 ps/fF); other cells by logical effort",
    },
    "asap7": {
        "file": "flint_asap7.lib",
        "title": "7 nm-class (ASAP7 areas)",
        "area_source": "cells-asap7-R-1x.txt: ASAP7 7.5-track RVT 1x LEF (0.27 um rows)",
        # No ASAP7 timing figure in reference/: an assumption, about 2.6x faster gates than the
        # 45 nm set (FO4 ~ 7 ps instead of ~ 18 ps) and half the input capacitance. Used only
        # as an indicative figure; the timing verdict rests on the 45 nm-class set.
        "t_unit_ps": 2.9,
        "k_load_ps_per_ff": 2.0,
        "c_unit_ff": 0.5,
        "wire_ff": 0.2,
        "timing_source": "assumption: gates ~2.6x faster than the 45 nm-class set "
                         "(FO4 ~ 7 ps), no ASAP7 timing figure in reference/",
    },
}

# Logic cells: (generic kind, inputs, function, p, {pin: g}). Kinds map to one cell per library.
KINDS = {
    "BUF":   (["A"], "A", 3.0, {"A": 1.0}),
    "INV":   (["A"], "!A", 1.0, {"A": 1.0}),
    "NAND2": (["A", "B"], "!(A&B)", 2.0, {"A": 4 / 3, "B": 4 / 3}),
    "NAND3": (["A", "B", "C"], "!(A&B&C)", 3.0, {"A": 5 / 3, "B": 5 / 3, "C": 5 / 3}),
    "NOR2":  (["A", "B"], "!(A|B)", 2.0, {"A": 5 / 3, "B": 5 / 3}),
    "NOR3":  (["A", "B", "C"], "!(A|B|C)", 3.0, {"A": 7 / 3, "B": 7 / 3, "C": 7 / 3}),
    "AND2":  (["A", "B"], "(A&B)", 4.0, {"A": 4 / 3, "B": 4 / 3}),
    "AND3":  (["A", "B", "C"], "(A&B&C)", 5.0, {"A": 5 / 3, "B": 5 / 3, "C": 5 / 3}),
    "OR2":   (["A", "B"], "(A|B)", 4.0, {"A": 5 / 3, "B": 5 / 3}),
    "OR3":   (["A", "B", "C"], "(A|B|C)", 5.0, {"A": 7 / 3, "B": 7 / 3, "C": 7 / 3}),
    "XOR2":  (["A", "B"], "(A^B)", 4.0, {"A": 4.0, "B": 4.0}),
    "XNOR2": (["A", "B"], "!(A^B)", 4.0, {"A": 4.0, "B": 4.0}),
    "AOI21": (["A1", "A2", "B"], "!((A1&A2)|B)", 7 / 3, {"A1": 2.0, "A2": 2.0, "B": 5 / 3}),
    "OAI21": (["A1", "A2", "B"], "!((A1|A2)&B)", 7 / 3, {"A1": 2.0, "A2": 2.0, "B": 5 / 3}),
    "AOI22": (["A1", "A2", "B1", "B2"], "!((A1&A2)|(B1&B2))", 4.0,
              {"A1": 2.0, "A2": 2.0, "B1": 2.0, "B2": 2.0}),
    "OAI22": (["A1", "A2", "B1", "B2"], "!((A1|A2)&(B1|B2))", 4.0,
              {"A1": 2.0, "A2": 2.0, "B1": 2.0, "B2": 2.0}),
    "MAJI":  (["A", "B", "C"], "!((A&B)|(B&C)|(A&C))", 3.0, {"A": 2.0, "B": 2.0, "C": 2.0}),
    "MUX2":  (["A", "B", "S"], "((A&!S)|(B&S))", 5.0, {"A": 2.0, "B": 2.0, "S": 2.0}),
}

# Per library: generic kind -> (cell name, area um^2) from reference/cells-*.txt. A kind the
# library lacks is simply absent (ABC builds it from the others).
CELLS = {
    "nangate45": {
        "BUF": ("BUF_X1", 0.798), "INV": ("INV_X1", 0.532),
        "NAND2": ("NAND2_X1", 0.798), "NAND3": ("NAND3_X1", 1.064),
        "NOR2": ("NOR2_X1", 0.798), "NOR3": ("NOR3_X1", 1.064),
        "AND2": ("AND2_X1", 1.064), "AND3": ("AND3_X1", 1.33),
        "OR2": ("OR2_X1", 1.064), "OR3": ("OR3_X1", 1.33),
        "XOR2": ("XOR2_X1", 1.596), "XNOR2": ("XNOR2_X1", 1.596),
        "AOI21": ("AOI21_X1", 1.064), "OAI21": ("OAI21_X1", 1.064),
        "AOI22": ("AOI22_X1", 1.33), "OAI22": ("OAI22_X1", 1.33),
        "MUX2": ("MUX2_X1", 1.862),
    },
    "asap7": {
        "BUF": ("BUFx2_ASAP7_75t_R", 0.0729), "INV": ("INVx1_ASAP7_75t_R", 0.04374),
        "NAND2": ("NAND2xp5_ASAP7_75t_R", 0.05832), "NAND3": ("NAND3xp33_ASAP7_75t_R", 0.0729),
        "NOR2": ("NOR2xp33_ASAP7_75t_R", 0.05832), "NOR3": ("NOR3xp33_ASAP7_75t_R", 0.0729),
        "AND2": ("AND2x2_ASAP7_75t_R", 0.08748), "AND3": ("AND3x1_ASAP7_75t_R", 0.08748),
        "OR2": ("OR2x2_ASAP7_75t_R", 0.08748), "OR3": ("OR3x1_ASAP7_75t_R", 0.08748),
        "XOR2": ("XOR2xp5_ASAP7_75t_R", 0.13122), "XNOR2": ("XNOR2xp5_ASAP7_75t_R", 0.13122),
        "AOI21": ("AOI21xp5_ASAP7_75t_R", 0.0729), "OAI21": ("OAI21xp5_ASAP7_75t_R", 0.0729),
        "AOI22": ("AOI22xp5_ASAP7_75t_R", 0.08748), "OAI22": ("OAI22xp5_ASAP7_75t_R", 0.08748),
        "MAJI": ("MAJIxp5_ASAP7_75t_R", 0.10206),
        # no MUX2 in ASAP7 (reference/README.md)
    },
}

# Flops: name, area, output pin, inverted output?, clear pin, preset pin, clk->Q p, setup p.
# clk->Q ~ 10 parasitic units (~72 ps at 45 nm) and setup ~ 4 units (~29 ps): estimates of a
# master-slave D flop's two latch stages, not read from a library.
FLOPS = {
    "nangate45": [
        {"name": "DFF_X1", "area": 4.522, "q": "Q", "qn": False, "clear": None, "preset": None},
        {"name": "DFFR_X1", "area": 5.32, "q": "Q", "qn": False, "clear": "RN", "preset": None},
        {"name": "DFFS_X1", "area": 5.32, "q": "Q", "qn": False, "clear": None, "preset": "SN"},
    ],
    "asap7": [
        # ASAP7 flops have only an inverted output (QN); dfflibmap adds the inverter.
        {"name": "DFFHQNx1_ASAP7_75t_R", "area": 0.2916, "q": "QN", "qn": True,
         "clear": None, "preset": None},
        # ASAP7 has no flop with reset alone: the async set+reset flop stands in for both
        # reset-to-0 and reset-to-1 (dfflegalize ties the unused pin inactive); full area.
        {"name": "DFFASRHQNx1_ASAP7_75t_R", "area": 0.37908, "q": "QN", "qn": True,
         "clear": "RESETN", "preset": "SETN"},
    ],
}
FLOP_CLK_Q_P = 10.0
FLOP_SETUP_P = 4.0
FLOP_CLEAR_EXTRA_P = 1.0  # the reset gate in the feedback loops of the latches


def cell_table(lib):
    """Every cell of `lib` as a dict: name, area, inputs {pin: cap_ff}, output, function,
    d0_ps, k_ps_per_ff; flops also clk, setup_ps and the flop attributes. sta.py uses this."""
    p = LIBS[lib]
    cells = {}
    for kind, (name, area) in CELLS[lib].items():
        pins, func, par, effort = KINDS[kind]
        cells[name] = {
            "name": name, "kind": kind, "area": area, "seq": False,
            "inputs": {pin: round(effort[pin] * p["c_unit_ff"], 4) for pin in pins},
            "output": "Y", "function": func,
            "d0_ps": round(p["t_unit_ps"] * par, 3), "k_ps_per_ff": p["k_load_ps_per_ff"],
        }
    for f in FLOPS[lib]:
        inputs = {"D": p["c_unit_ff"], "CLK": p["c_unit_ff"]}
        extra = 0.0
        for pin in (f["clear"], f["preset"]):
            if pin:
                inputs[pin] = p["c_unit_ff"]
                extra = FLOP_CLEAR_EXTRA_P
        cells[f["name"]] = {
            "name": f["name"], "kind": "DFF", "area": f["area"], "seq": True,
            "inputs": inputs, "output": f["q"], "qn": f["qn"], "clk": "CLK",
            "clear": f["clear"], "preset": f["preset"],
            "d0_ps": round(p["t_unit_ps"] * (FLOP_CLK_Q_P + extra), 3),
            "k_ps_per_ff": p["k_load_ps_per_ff"],
            "setup_ps": round(p["t_unit_ps"] * FLOP_SETUP_P, 3),
        }
    return cells


def _table(d0_ns, k_ns, loads):
    """A 2x2 NLDM table linear in load and flat in input slew (our linear model)."""
    row = ", ".join("%.5f" % (d0_ns + k_ns * c) for c in loads)
    return 'values ("%s", "%s");' % (row, row)


def emit(lib):
    p = LIBS[lib]
    loads = (1.0, 20.0)
    out = [
        "/* FLINT liberty, %s. Generated by synth/lib/gen_liberty.py: do not edit." % p["title"],
        " * Areas (um^2): %s." % p["area_source"],
        " * Function and area are exact copies of those figures; the timing is our own linear",
        " * model, %s." % p["timing_source"],
        " * Tables are 2x2 (input slew x load) but flat in slew: delay = d0 + k * load.",
        " * Not a characterised library: good for abc mapping, stat -liberty and a first-order",
        " * critical-path estimate (synth/sta.py), nothing more. */",
        "library (flint_%s) {" % lib,
        "  technology (cmos);",
        "  delay_model : table_lookup;",
        '  time_unit : "1ns";',
        '  voltage_unit : "1V";',
        '  current_unit : "1mA";',
        '  leakage_power_unit : "1nW";',
        '  pulling_resistance_unit : "1kohm";',
        "  capacitive_load_unit (1, ff);",
        "  input_threshold_pct_rise : 50; input_threshold_pct_fall : 50;",
        "  output_threshold_pct_rise : 50; output_threshold_pct_fall : 50;",
        "  slew_lower_threshold_pct_rise : 30; slew_lower_threshold_pct_fall : 30;",
        "  slew_upper_threshold_pct_rise : 70; slew_upper_threshold_pct_fall : 70;",
        "  default_max_transition : 0.5;",
        "  lu_table_template (flint_lin) {",
        "    variable_1 : input_net_transition;",
        "    variable_2 : total_output_net_capacitance;",
        '    index_1 ("0.005, 0.2");',
        '    index_2 ("%.1f, %.1f");' % loads,
        "  }",
    ]
    slew_k = 2.0 * p["k_load_ps_per_ff"] / 1000.0  # output slew ~ 2x the RC term
    slew_0 = 2.0 * p["t_unit_ps"] / 1000.0
    for name, c in sorted(cell_table(lib).items()):
        out.append("  cell (%s) {" % name)
        out.append("    area : %s;" % repr(c["area"]))
        if c["seq"]:
            ff = ['next_state : "D";', 'clocked_on : "CLK";']
            if c["clear"]:
                ff.append('clear : "!%s";' % c["clear"])
            if c["preset"]:
                ff.append('preset : "!%s";' % c["preset"])
            if c["clear"] and c["preset"]:
                ff += ["clear_preset_var1 : L;", "clear_preset_var2 : H;"]
            out.append("    ff (IQ, IQN) { %s }" % " ".join(ff))
        for pin, cap in c["inputs"].items():
            extra = " clock : true;" if c["seq"] and pin == "CLK" else ""
            head = "    pin (%s) { direction : input; capacitance : %.4f;%s" % (pin, cap, extra)
            if c["seq"] and pin == "D":
                s = c["setup_ps"] / 1000.0
                out.append(head)
                out.append('      timing () { related_pin : "CLK"; timing_type : setup_rising;')
                out.append('        rise_constraint (scalar) { values ("%.5f"); }' % s)
                out.append('        fall_constraint (scalar) { values ("%.5f"); } }' % s)
                out.append("    }")
            else:
                out.append(head + " }")
        func = ("IQN" if c["qn"] else "IQ") if c["seq"] else c["function"]
        out.append('    pin (%s) { direction : output; function : "%s";' % (c["output"], func))
        d0, k = c["d0_ps"] / 1000.0, c["k_ps_per_ff"] / 1000.0
        related = ["CLK"] if c["seq"] else list(c["inputs"])
        for rel in related:
            if c["seq"]:
                kind = "timing_type : rising_edge;"
            else:
                unate = {"BUF": "positive_unate", "AND2": "positive_unate",
                         "AND3": "positive_unate", "OR2": "positive_unate",
                         "OR3": "positive_unate"}.get(c["kind"], "negative_unate")
                if c["kind"] in ("XOR2", "XNOR2", "MUX2"):
                    unate = "non_unate"
                kind = "timing_sense : %s;" % unate
            out.append('      timing () { related_pin : "%s"; %s' % (rel, kind))
            for t in ("cell_rise", "cell_fall"):
                out.append("        %s (flint_lin) { %s }" % (t, _table(d0, k, loads)))
            for t in ("rise_transition", "fall_transition"):
                out.append("        %s (flint_lin) { %s }" % (t, _table(slew_0, slew_k, loads)))
            out.append("      }")
        out.append("    }")
        out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=pathlib.Path, default=HERE)
    ap.add_argument("--check", action="store_true", help="fail if a checked-in .lib is stale")
    args = ap.parse_args()
    stale = []
    for lib, p in LIBS.items():
        path = args.out / p["file"]
        text = emit(lib)
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(str(path))
        else:
            path.write_text(text)
    if stale:
        print("gen_liberty: stale (rerun synth/lib/gen_liberty.py): " + ", ".join(stale),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
