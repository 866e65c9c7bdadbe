#!/usr/bin/env python3
"""make area: FLINT's area report beside the paper's Table 3 (docs/area.md + docs/area.json).

Runs the synthesis flow (synth/yosys_flow.py, as scripts/synth.py does) at a config (paper by
default), then per Table 3 structure (synth/structures.py): size from the RTL's flint_sram
instances where the RTL exists, else from config.json ("from config (RTL pending)"); SRAM area
from synth/sram_model.py at 22 nm; logic area from Yosys (ASAP7-class cells); the 7 nm
projection; the paper's figure. Plus the page-level FTL reference, the phantom plane's die-area
cost, the SRAM timing of the lookup path, and a right-sized program queue
(synth/progq_sizing.py; --demand FILE replaces the analytic demand with a measured one).

Usage: area.py --gen BUILD/gen [--config paper] --out BUILD/synth [--md docs/area.md]
               [--json docs/area.json] [--demand FILE] [--jobs 2] [--reuse]
       area.py --gen BUILD/gen --config small --out BUILD/synth --self-check
--self-check (run by synth.py --check) writes nothing: it builds the report on the flow's
OUT/<config>/synth.json, prints each failed check on a line of its own and exits 1 if any.
"""
import argparse
import json
import math
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "synth"))
import yosys_flow  # noqa: E402  (puts synth/lib/ on the path)
import gen_liberty  # noqa: E402
import progq_sizing  # noqa: E402
import sram_model  # noqa: E402
import structures  # noqa: E402

# 22 nm -> 7 nm. Primary: the paper's own factor (14.3 -> 3.9 mm^2), so rows compare like for
# like. Alternatives shown on the totals (reference/README.md).
SCALE_7NM = {
    "paper": (14.3 / 3.9, "the paper's own 22 -> 7 nm factor (Table 3: 14.3 -> 3.9 mm²)"),
    "stillmaker_baas": (3.6, "Stillmaker & Baas, Integration 58 (2017): 20 -> 7 nm area factor "
                             "(no 22 nm column)"),
    "bitcell": (0.092 / 0.027, "SRAM bit cell 0.092 um² (22 nm) / 0.027 um² (N7)"),
}
PRIMARY = "paper"
COMMON_DIR = "rtl/common/"


def mm2(um2):
    return um2 * 1e-6


def size_text(bits):
    b = bits / 8
    if b >= 1 << 20:
        return f"{b / (1 << 20):.3g} MiB"
    if b < 1024:
        return f"{b:.4g} B"
    return f"{b / 1024:.4g} KiB"


def resolve_chain(hier, root, inst):
    """Module types from `root` down to the module holding flint_sram instance `inst`
    (a flattened name such as u_a.g_x[2].u_b.u_mem)."""
    mods = {yosys_flow.norm_module(n): m for n, m in hier["modules"].items()}
    raw = hier["modules"]
    chain = [root]
    cur = mods[root]
    parts = inst.split(".")
    while len(parts) > 1:
        for k in range(len(parts) - 1, 0, -1):
            name = ".".join(parts[:k])
            c = cur.get("cells", {}).get(name) or cur.get("cells", {}).get("\\" + name)
            if c is not None and (c["type"] in raw or "\\" + c["type"] in raw):
                chain.append(yosys_flow.norm_module(c["type"]))
                cur = raw.get(c["type"]) or raw["\\" + c["type"]]
                parts = parts[k:]
                break
        else:
            break
    return chain


def attribute(flow, out):
    """SRAM instances of the synthesized design, each with the structure part that owns it.
    With flint_top: its netlist only (instance counts are real). Without: every root block,
    structure blocks counted `per` times (1 or dies), as the stack will have them."""
    mods = {r["module"]: r for r in flow["modules"] if r["ok"]}
    top = mods.get("flint_top")
    roots = [top] if top else [r for r in mods.values()
                               if r["root"] and r["module"] not in structures.NOT_IN_DESIGN]
    found = []
    for r in roots:
        hier = json.loads((out / flow["config"] / r["module"] / "hier.json").read_text())
        for s in r["srams"]:
            chain = resolve_chain(hier, r["module"], s["inst"])
            owner = None
            for m in reversed(chain):  # innermost structure module wins
                st, part = yosys_flow.structure_of(m)
                if st:
                    owner = (st, part, m)
                    break
            found.append({"root": r["module"], "chain": chain, "sram": s, "owner": owner})
    return top is not None, roots, found


def macro(depth, width, org, ports):
    size = max(1, (width * depth + 7) // 8)
    return sram_model.Macro(size, width, org["banks"], ports["rw"], ports["r"], ports["w"],
                            ecc=org["ecc"], cell=org["cell"], objective=org["objective"])


WRAPPER_PORTS = {"rw": 0, "r": 1, "w": 1}   # flint_sram: one read port, one write port


def price(mdl, depth, width, copies, org, ports, paper_ports, **extra):
    """One macro shape, `copies` times: the model's figures for one copy, the totals for all,
    and how the shape lies outside the model's calibration (empty: inside)."""
    m = macro(depth, width, org, ports)
    alt = macro(depth, width, org, paper_ports)
    pr = mdl.predict(m)
    alt_mm2 = mdl.area(alt)
    return {**extra, "depth": depth, "width": width, "copies": copies, "bits": depth * width,
            "total_bits": copies * depth * width, "macro": m.describe(),
            "area_mm2": pr["area_mm2"], "total_area_mm2": copies * pr["area_mm2"],
            "access_ns": pr["access_ns"], "cycle_ns": pr["cycle_ns"],
            "read_nj": pr["read_nj"], "leak_mw": pr["leak_mw"],
            "ports": dict(ports), "paper_ports_macro": alt.describe(),
            "paper_ports_area_mm2": alt_mm2,
            "total_paper_ports_area_mm2": copies * alt_mm2,
            "outside_calibration": mdl.outside_calibration(m),
            "below_calibration": mdl.below_calibration(m)}


def shape_text(m):
    """'128 x 128 x 26 b': copies x rows x width."""
    return f"{m['copies']} x {m['depth']} x {m['width']} b"


def logic_copies(module, cfg, have_top, root_copies):
    """Copies of a root block the stack has: the copies of its own SRAMs (a CRQ bank block is
    as many copies as its macros), else its part's rule (a per-die block once per die)."""
    if have_top:
        return 1
    if module in root_copies:
        return root_copies[module]
    if module in structures.PER_DIE_LOGIC:
        return cfg["config"]["dies"]
    _, part = yosys_flow.structure_of(module)
    return part["copies"](cfg, []) if part else 1


def block_instances(module, macros, mods, cfg, have_top, root_copies):
    """How many instances of a structure's block the stack has: a root block as many as its
    copies; a block inside another (a CRQ bank inside flint_bbc_die) as many as the macros it
    owns over the macros one instance of it has."""
    if mods[module]["root"]:
        return logic_copies(module, cfg, have_top, root_copies)
    per = len(mods[module]["srams"])
    owned = sum(m["copies"] for m in macros if m.get("block") == module)
    if per and owned:
        return owned // per
    _, part = yosys_flow.structure_of(module)
    return part["copies"](cfg, []) if part else 1


def banked_reading(mdl, macros, org):
    """The same macros priced as one array of `copies` banks each: the model's per-bank term
    (fitted on CACTI's 2 to 8 banks of 4 KiB and more) as a reading of what a small macro's
    own periphery might add, since the model's one-bank figure grows only with the bits."""
    total = 0.0
    for mc in macros:
        size = max(1, (mc["width"] * mc["depth"] + 7) // 8)
        pt = mc["ports"]
        m = sram_model.Macro(size * mc["copies"], mc["width"], mc["copies"], pt["rw"], pt["r"],
                             pt["w"], ecc=org["ecc"], cell=org["cell"],
                             objective=org["objective"])
        total += mdl.area(m)
    return total


def build(flow, cfg, out, demand_path=None):
    mdl = sram_model.model()
    have_top, roots, found = attribute(flow, out)
    mods = {r["module"]: r for r in flow["modules"] if r["ok"]}
    factor, factor_src = SCALE_7NM[PRIMARY]
    rows = []
    root_copies = {}   # root module -> copies the stack has (from its SRAMs' part)
    for st in structures.STRUCTURES:
        row = {"key": st["key"], "name": st["name"], "paper": st["paper"], "parts": []}
        for part in st["parts"]:
            rtl = [f for f in found if f["owner"] and f["owner"][1] is part]
            rtl_mods = sorted({f["owner"][2] for f in rtl})
            present = [m for m in mods if any(re.fullmatch(rx, m) for rx in part["modules"])]
            p = {"name": part["name"]}
            if rtl:
                p["source"] = "RTL"
                p["modules"] = rtl_mods
                p["macros"] = []
                for root in sorted({f["root"] for f in rtl}):
                    fs = [f for f in rtl if f["root"] == root]
                    copies = 1 if have_top else part["copies"](cfg, [f["sram"] for f in fs])
                    root_copies[root] = copies
                    # Instances of the same macro of the same module (the banks of a
                    # generate loop) are one entry, their count folded into its copies.
                    groups = {}
                    for f in fs:
                        s = f["sram"]
                        key = (f["owner"][2], s["inst"].split(".")[-1], s["depth"], s["width"])
                        groups.setdefault(key, []).append(f)
                    for (owner, leaf, depth, width), g in groups.items():
                        s = g[0]["sram"]
                        inst = (".".join(g[0]["chain"][:1] + [s["inst"]]) if len(g) == 1
                                else f"{owner}.{leaf}")
                        p["macros"].append(price(
                            mdl, depth, width, copies * len(g), st["org"], WRAPPER_PORTS,
                            st["paper_ports"], inst=inst, root=root, cell=s["inst"],
                            owner_module=root, block=owner, instances=len(g)))
            else:
                macros, layout = part["from_config"](cfg)
                p["layout"] = layout
                if not macros:
                    # Held in flops: the area is its RTL modules' logic.
                    p["source"] = (f"RTL: flops in {', '.join(present)}, no SRAM" if present
                                   else "from config (RTL pending): no SRAM")
                    if present:
                        p["modules"] = present
                else:
                    p["source"] = "from config (RTL pending)"
                    if present:
                        p["source"] = "from config (RTL has no flint_sram: storage in flops?)"
                        p["modules"] = present
                p["macros"] = [price(mdl, depth, width, copies, st["org"], st["paper_ports"],
                                     st["paper_ports"], inst=part["name"])
                               for depth, width, copies in macros]
            row["parts"].append(p)
        allm = [m for p in row["parts"] for m in p["macros"]]
        row["bits"] = sum(m["total_bits"] for m in allm)
        row["macros"] = sum(m["copies"] for m in allm)
        row["sram_mm2_22nm"] = sum(m["total_area_mm2"] for m in allm)
        row["sram_mm2_22nm_paper_ports"] = sum(m["total_paper_ports_area_mm2"] for m in allm)
        # logic of the structure's own RTL modules (informational: inside the logic row)
        lm = sorted({m for p in row["parts"] for m in p.get("modules", [])
                     if p["source"].startswith("RTL")})
        row["logic_modules"] = lm
        row["logic_instances"] = {m: block_instances(m, allm, mods, cfg, have_top, root_copies)
                                  for m in lm if m in mods}
        row["logic_asap7_mm2"] = sum(n * mm2(mods[m]["libs"]["asap7"]["area_um2"])
                                     for m, n in row["logic_instances"].items())
        row["sram_mm2_7nm"] = row["sram_mm2_22nm"] / factor
        cnt, kw = st["cacti_match"]
        cm = sram_model.Macro(**kw)
        cacti = mdl.cacti_point(cm)
        row["paper_org"] = {"macro": cm.describe(), "count": cnt,
                            "cacti_mm2": cnt * cacti["area_mm2"] if cacti else None,
                            "model_mm2": cnt * mdl.area(cm)}
        small = [m for m in allm if m["copies"] > 1 and m["below_calibration"]]
        if small:
            row["banked_reading_mm2_22nm"] = banked_reading(mdl, allm, st["org"])
            # Per bit, the smallest macro against a 32 KiB one (the smallest CACTI array) of
            # the same word and ports: 1.0 means the model charges no per-macro overhead.
            s = min(small, key=lambda m: m["bits"])
            ref = macro(32768 * 8 // s["width"], s["width"], st["org"], s["ports"])
            row["small_macro_per_bit_vs_32k"] = (s["area_mm2"] / s["bits"]) / (
                mdl.area(ref) / (ref.size_bytes * 8))
        rows.append(row)
    # SRAMs no structure claims.
    other = []
    for f in found:
        if f["owner"] is None:
            s = f["sram"]
            m = macro(s["depth"], s["width"], structures.DEFAULT_ORG, WRAPPER_PORTS)
            other.append({"inst": f["root"] + "." + s["inst"], "depth": s["depth"],
                          "width": s["width"], "macro": m.describe(),
                          "area_mm2": mdl.area(m)})
    # Logic: every root block (flint_top alone once it exists), primitives of rtl/common that
    # nothing instantiates yet left out (they are counted where a block uses them).
    logic = []
    for r in roots:
        if not have_top and r["file"].startswith(COMMON_DIR):
            continue
        copies = logic_copies(r["module"], cfg, have_top, root_copies)
        logic.append({"module": r["module"], "copies": copies,
                      "asap7_mm2": copies * mm2(r["libs"]["asap7"]["area_um2"]),
                      "nangate45_mm2": copies * mm2(r["libs"]["nangate45"]["area_um2"]),
                      "flops": copies * r["libs"]["nangate45"]["flops"]})
    logic_asap7 = sum(l["asap7_mm2"] for l in logic)
    logic_ng45 = sum(l["nangate45_mm2"] for l in logic)
    sram22 = sum(r["sram_mm2_22nm"] for r in rows) + sum(o["area_mm2"] for o in other)
    totals = {
        "sram_mm2_22nm": sram22,
        "logic_mm2_7nm_asap7": logic_asap7,
        "logic_mm2_22nm": logic_asap7 * factor,
        "logic_mm2_45nm_nangate45": logic_ng45,
        "total_mm2_22nm": sram22 + logic_asap7 * factor,
        "total_mm2_7nm": {k: sram22 / f + logic_asap7 for k, (f, _) in SCALE_7NM.items()},
        "paper_mm2_22nm": 14.3, "paper_mm2_7nm": 3.9,
        "sram_mm2_22nm_paper_ports": sum(r["sram_mm2_22nm_paper_ports"] for r in rows)
        + sum(o["area_mm2"] for o in other),
    }
    # Modules in rtl/ outside the design as built (the in-place baseline): their SRAM and logic
    # a die, for the reader's comparison, never in the totals.
    apart = []
    for name, why in structures.NOT_IN_DESIGN.items():
        r = mods.get(name)
        if r is None:
            continue
        srams = []
        for sm in r["srams"]:
            m = macro(sm["depth"], sm["width"], structures.DEFAULT_ORG, WRAPPER_PORTS)
            srams.append({"inst": sm["inst"], "depth": sm["depth"], "width": sm["width"],
                          "macro": m.describe(), "area_mm2": mdl.area(m)})
        dies = cfg["config"]["dies"]
        sram_die = sum(x["area_mm2"] for x in srams)
        apart.append({"module": name, "why": why, "srams": srams,
                      "sram_mm2_22nm_per_die": sram_die, "sram_mm2_22nm_stack": dies * sram_die,
                      "logic_mm2_7nm_per_die": mm2(r["libs"]["asap7"]["area_um2"])})
    # Page-level FTL reference: one 4 B entry per 4 KiB page of the stack, 1 MiB banks.
    c, d = cfg["config"], cfg["derived"]
    pages = d["stack_bytes"] // c["page_bytes"]
    entry_bits = 32
    ftl_bytes = pages * entry_bits // 8
    ftl = sram_model.Macro(ftl_bytes, entry_bits, banks=max(1, ftl_bytes >> 20), rw=1,
                           objective="ed2")
    ftl_mm2 = mdl.area(ftl)
    page_ftl = {"entries": pages, "entry_bits": entry_bits, "bytes": ftl_bytes,
                "macro": ftl.describe(), "mm2_22nm": ftl_mm2, "mm2_7nm": ftl_mm2 / factor,
                "paper_mm2_7nm": 180.0,
                "vs_btt_entries": pages // d["btt_entries"]}
    phantom = {"planes": c["planes"], "phys_planes": d["phys_planes"],
               "array_fraction": 1.0 / c["planes"],
               "die_fraction_by_periphery_share": {str(s): (1 - s) / c["planes"]
                                                   for s in (0.0, 0.1, 0.2, 0.3)},
               "paper": 0.031}
    timing = sram_timing(rows, flow, mdl)
    demand = (progq_sizing.load_demand(demand_path, cfg) if demand_path
              else progq_sizing.analytic_demand(cfg))
    q = progq_sizing.size_queue(cfg, demand)
    pq = next(r for r in rows if r["key"] == "progq")
    if q["pages"]:
        pst = next(s for s in structures.STRUCTURES if s["key"] == "progq")
        word = 8 * d["die_io_bytes_per_cycle"]
        depth = -(-q["pages"] * c["page_bytes"] * 8 // word)  # whole pages: round up
        m = macro(depth, word, pst["org"], pst["paper_ports"])
        q["macro"] = m.describe()
        q["mm2_22nm_per_die"] = mdl.area(m)
        q["mm2_22nm_stack"] = c["dies"] * q["mm2_22nm_per_die"]
        q["current_mm2_22nm_stack"] = pq["sram_mm2_22nm"]
        q["saving_mm2_22nm"] = pq["sram_mm2_22nm"] - q["mm2_22nm_stack"]
        q["right_sized_total_mm2_22nm"] = totals["total_mm2_22nm"] - q["saving_mm2_22nm"]
        q["right_sized_total_mm2_7nm"] = (sram22 - q["saving_mm2_22nm"]) / factor + logic_asap7
    return {
        "config": flow["config"], "clock_mhz": flow["clock_mhz"],
        "have_top": have_top,
        "scale_7nm": {k: {"factor": f, "source": s} for k, (f, s) in SCALE_7NM.items()},
        "primary_scale": PRIMARY,
        "rows": rows, "other_srams": other, "logic": logic, "totals": totals,
        "not_in_design": apart,
        "page_level_ftl": page_ftl, "phantom_plane": phantom, "timing": timing,
        "progq_right_sizing": q,
        "sram_model": {
            "calibration": mdl.calibration(),
            "errors": {m: {g: {"n": n, "mean_pct": mean, "max_pct": mx}
                           for g, (n, mean, mx) in grp.items()}
                       for m, grp in mdl.error_summary().items()},
            "coefficients": mdl.coefficients(),
            "bounds": sram_model.ERROR_BOUNDS,
        },
        "libs": flow["libs"],
        "modules": {r["module"]: {"ok": r["ok"], "root": r.get("root"),
                                  "asap7_um2": r["libs"]["asap7"]["area_um2"] if r["ok"] else None,
                                  "nangate45_um2": r["libs"]["nangate45"]["area_um2"]
                                  if r["ok"] else None,
                                  "flops": r["libs"]["nangate45"]["flops"] if r["ok"] else None,
                                  "worst_full_cycle_45nm":
                                      r["libs"]["nangate45"]["timing"]["worst_full_cycle"]
                                      if r["ok"] else None,
                                  "worst_full_cycle_7nm":
                                      r["libs"]["asap7"]["timing"]["worst_full_cycle"]
                                      if r["ok"] else None}
                    for r in flow["modules"]},
    }


def lib_access_ps(mc):
    """The access time synth.py's STA started this macro's paths with (same model, same
    organisation: the structure's org with the wrapper's ports)."""
    m = yosys_flow.macro_for(mc["owner_module"], mc["width"], mc["depth"])
    return 1000.0 * sram_model.model().predict(m)["access_ns"]


def sram_timing(rows, flow, mdl):
    """Per RTL macro of the lookup path: access time against the period, and the cheapest
    organisation (banks, cell) the model says would fit one cycle."""
    period_ns = flow["period_ps"] / 1000.0
    mods = {r["module"]: r for r in flow["modules"] if r["ok"]}
    out = []
    for row in rows:
        for p in row["parts"]:
            if p["source"] != "RTL":
                continue
            for mc in p["macros"]:
                # Logic behind the macro in its block (synth/sta.py): the worst path that
                # starts at its read data, less the access time the STA started it with.
                after = {}
                for lib in ("nangate45", "asap7"):
                    t = mods[mc["root"]]["libs"][lib]["timing"]
                    path = t["by_sram"].get(mc["cell"])
                    after[lib] = max(0.0, path["arrival_ps"] - lib_access_ps(mc)) / 1000.0 \
                        if path else 0.0
                setup_ns = next(c["setup_ps"] for c in
                                gen_liberty.cell_table("nangate45").values()
                                if c["seq"]) / 1000.0
                budget = period_ns - after["nangate45"] - setup_ns
                options = []
                for cell in ("lstp", "hp"):
                    for banks in (1, 2, 4, 8, 16, 32, 64):
                        m = sram_model.Macro(max(1, mc["bits"] // 8), mc["width"], banks,
                                             0, 1, 1, ecc=True, cell=cell, objective="delay")
                        pr = mdl.predict(m)
                        options.append((pr["area_mm2"], banks, cell, pr["access_ns"],
                                        pr["leak_mw"]))
                fits = [o for o in options if o[3] <= budget]
                best = min(fits) if fits else None

                def one_bank(cell):
                    return mdl.predict(sram_model.Macro(max(1, mc["bits"] // 8), mc["width"], 1,
                                                        0, 1, 1, cell=cell, objective="delay"))

                def cycles(lib):
                    return math.ceil((mc["access_ns"] + after[lib] + setup_ns) / period_ns)

                out.append({
                    "structure": row["name"], "inst": mc["inst"],
                    "shape": f"{mc['depth']} x {mc['width']}",
                    "access_ns_as_priced": mc["access_ns"],
                    "leak_mw_as_priced": mc["leak_mw"],
                    "access_ns_lstp_1bank_delay": one_bank("lstp")["access_ns"],
                    "access_ns_hp_1bank_delay": one_bank("hp")["access_ns"],
                    "logic_after_ns_45nm_class": after["nangate45"],
                    "logic_after_ns_7nm_class": after["asap7"],
                    "budget_ns": budget,
                    "cycles_45nm_class_logic": cycles("nangate45"),
                    "cycles_7nm_class_logic": cycles("asap7"),
                    "single_cycle_as_priced": mc["access_ns"] <= budget,
                    "cheapest_single_cycle": None if best is None else {
                        "banks": best[1], "cell": best[2], "access_ns": best[3],
                        "area_mm2": best[0], "leak_mw": best[4]},
                    "area_mm2_as_priced": mc["area_mm2"],
                })
    logic = []
    for r in flow["modules"]:
        if not r["ok"]:
            continue
        for lib in ("nangate45", "asap7"):
            t = r["libs"][lib]["timing"]
            regs = [p for cat, ps in t["by_category"].items() for p in ps
                    if p["start"] == "reg" and p["end"] == "reg"]
            if regs:
                w = min(regs, key=lambda p: p["slack_ps"])
                logic.append({"module": r["module"], "lib": lib, "arrival_ps": w["arrival_ps"],
                              "slack_ps": w["slack_ps"], "depth": w["depth"],
                              "from": w["from"], "to": w["to"]})
    return {"period_ns": period_ns, "srams": out, "reg_to_reg": logic}


# ---------------------------------------------------------------------------------------------


def crq_section(doc, cfg, f):
    """The CRQ as built (small banks) and what the model can say about them."""
    r = next((r for r in doc["rows"] if r["key"] == "crq"), None)
    if r is None:
        return []
    c = cfg["config"]
    part = next(p for p in r["parts"] if p["name"] == "crq")
    mac = part["macros"]
    banks = structures.crq_banks_of(cfg, mac)
    planned = structures.crq_banks(cfg)
    per = mac[0]["depth"]
    L = ["## Cache-request queue: small banks", ""]
    where = (f"one `flint_bbc_crq_bank` per die and lane ({c['dies']} x {c['lanes']})"
             if banks == planned else
             f"the RTL's bank holds {per} entries, so {banks} banks; the split into one "
             f"sub-bank per die and lane ({c['dies']} x {c['lanes']} = {planned} banks of "
             f"{structures.crq_held(cfg) // planned}) is not in this RTL yet")
    names = ", ".join(f"{m['cell'].split('.')[-1]} {m['depth']} x {m['width']} b" if "cell" in m
                      else f"{m['depth']} x {m['width']} b" for m in mac)
    L += [f"As built ({part['source']}): {structures.crq_held(cfg)} entries in {banks} banks "
          f"of {per}: {where}. A die's banks hold crq_die_slack = {c['crq_die_slack']} shares "
          f"of the {c['crq_entries']} queued requests (docs/bbc.md, \"Queue banks a die\"), "
          "so a stream that piles onto one die is not refused early. "
          f"Each bank is {len(mac)} macros ({names}; the payload is {{request id, "
          "plane, line}, then a next pointer per entry and a FIFO of free indices), each "
          "priced as its own one-bank "
          f"array with {'the RTL' if part['source'] == 'RTL' else 'the paper'}'s ports: "
          f"{r['sram_mm2_22nm']:.3f} mm² at 22 nm, {r['sram_mm2_7nm']:.3f} "
          f"at 7 nm, against the paper's {r['paper']['mm2']} (one 256 kB array in 4 banks). The "
          "cl-to-page map has no table: the scheduler's slots and each bank's per-slot "
          "head/tail/count are flops, in the logic row (own logic "
          f"{r['logic_asap7_mm2'] * f:.4f} mm² at 22 nm: "
          + ", ".join(f"{m} x {n}" for m, n in r["logic_instances"].items())
          + ", each block synthesized on its own at its default parameters).", ""]
    if "banked_reading_mm2_22nm" in r:
        smallest = min(mac, key=lambda m: m["bits"])
        L += [f"**What the model cannot see.** A {size_text(smallest['bits'])} macro is far "
              "below the smallest CACTI array (32 KiB), and what the fit charges a macro for "
              "its own decoders, sense amplifiers and control comes only from its edge and "
              "column-I/O terms, fitted on 32 KiB to 1 MiB arrays: per bit, the model prices "
              f"this one at {r['small_macro_per_bit_vs_32k']:.2f}x a 32 KiB array of the same "
              "word and ports. So the small banks cost per bit about what one large array "
              f"would, and {r['sram_mm2_22nm']:.3f} mm² is best read as a floor. One reading of "
              "the missing overhead: the same bits as one array of "
              f"{banks} banks, which the model does charge per bank (fitted on CACTI's 2 to 8 "
              f"banks, so itself an extrapolation in bank count): "
              f"{r['banked_reading_mm2_22nm']:.3f} mm² at 22 nm, "
              f"{r['banked_reading_mm2_22nm'] / f:.3f} at 7 nm. A CACTI run (or a memory "
              "compiler's datasheet) at these shapes would settle it.", ""]
    return L


def render(doc, cfg):
    f = doc["scale_7nm"][doc["primary_scale"]]["factor"]
    t = doc["totals"]
    L = []
    L += [f"# FLINT area at `{doc['config']}` against the paper's Table 3", "",
          "Generated by `make area` (scripts/area.py): do not edit by hand. Machine-readable "
          "copy: docs/area.json. Method, liberty files and the SRAM model: docs/synth.md.", ""]
    L += ["Per Table 3 structure: size from the RTL's `flint_sram` instances where that RTL "
          "exists (ports as the wrapper has them: 1 read + 1 write), otherwise from "
          "`config.json` with the entry layout in synth/structures.py (ports as the paper's "
          "CACTI run). SRAM area from FLINT's SRAM model at 22 nm (itrs-lstp cells, ECC on, "
          "banks and objective as the paper's CACTI match), each macro priced as its own array "
          "and counted as many times as the stack has it (copies x rows x width: 16 x 4096 x "
          "64 b is sixteen 4096 x 64 b arrays). Logic from Yosys with the ASAP7-area "
          f"liberty (7 nm-class); its 22 nm figure is that times {f:.2f}. 7 nm column: SRAM "
          f"divided by {f:.2f} ({doc['scale_7nm'][doc['primary_scale']]['source']}), "
          "logic as mapped.", ""]
    L += ["| Structure | size (source) | SRAM mm² 22 nm | own logic mm² 22 nm | 7 nm mm² | "
          "paper mm² 22 nm |", "|---|---|---|---|---|---|"]

    def shapes(macros):
        return ", ".join(shape_text(m) + ("†" if m["outside_calibration"] else "")
                         for m in macros)

    def count(macros):
        n = sum(m["copies"] for m in macros)
        return f" in {n} macro{'s' if n > 1 else ''}"

    for r in doc["rows"]:
        srcs = []
        for p in r["parts"]:
            srcs.append(f"{p['name']}: {shapes(p['macros'])} ({p['source']})" if p["macros"]
                        else f"{p['name']}: {p['source']}")
        allm = [m for p in r["parts"] for m in p["macros"]]
        size = f"{size_text(r['bits'])}{count(allm)}; " + "; ".join(srcs)
        own = (f"({r['logic_asap7_mm2'] * f:.4f})" if r["logic_modules"] else "-")
        L.append(f"| {r['name']} ({r['paper']['size']}) | {size} | {r['sram_mm2_22nm']:.3f} | "
                 f"{own} | {r['sram_mm2_7nm']:.3f} | {r['paper']['mm2']} |")
    # Generate copies of one SRAM (g_x[3].u_y) on one line, with their count.
    grouped = {}
    for o in doc["other_srams"]:
        key = (re.sub(r"\[\d+\]", "[*]", o["inst"]), o["depth"], o["width"])
        grouped.setdefault(key, []).append(o)
    for (inst, depth, width), os_ in grouped.items():
        area = sum(o["area_mm2"] for o in os_)
        L.append(f"| other SRAM: {inst} | {len(os_)} x {depth} x {width} b (RTL) | "
                 f"{area:.3f} | - | {area / f:.3f} | - |")
    L.append(f"| Synthesized control logic | {len(doc['logic'])} blocks, "
             f"{sum(l['flops'] for l in doc['logic'])} flops (Yosys) | - | "
             f"{t['logic_mm2_22nm']:.3f} | {t['logic_mm2_7nm_asap7']:.4f} | < 0.3 |")
    L.append(f"| **Total** (SRAM + logic) | | {t['sram_mm2_22nm']:.2f} + "
             f"{t['logic_mm2_22nm']:.3f} = **{t['total_mm2_22nm']:.2f}** | | "
             f"**{t['total_mm2_7nm'][doc['primary_scale']]:.2f}** | **14.3** (3.9 at 7 nm) |")
    pf = doc["page_level_ftl"]
    L.append(f"| Page-level FTL table, for reference | {size_text(8 * pf['bytes'])} "
             f"({pf['entries']} x {pf['entry_bits']} b) | {pf['mm2_22nm']:.0f} | - | "
             f"{pf['mm2_7nm']:.0f} | 180 at 7 nm |")
    L.append("")
    cal = doc["sram_model"]["calibration"]
    out = {}
    for r in doc["rows"]:
        for m in (m for p in r["parts"] for m in p["macros"]):
            if m["outside_calibration"]:
                out.setdefault(f"{m['depth']} x {m['width']} b", m["outside_calibration"])
    if out:
        L += [f"Shapes are copies x rows x width. † Outside the SRAM model's calibration (the "
              f"CACTI points span arrays of {size_text(8 * cal['array_bytes'][0])} to "
              f"{size_text(8 * cal['array_bytes'][1])}, banks of "
              f"{size_text(8 * cal['bank_bytes'][0])} and more, "
              f"{cal['word_bits'][0]} to {cal['word_bits'][1]}-bit words, "
              f"{cal['banks'][0]} to {cal['banks'][1]} banks), so the figure is the model's "
              "extrapolation: " + "; ".join(f"{k} ({', '.join(v)})" for k, v in out.items())
              + ". Below the smallest point the figure is likely low (section on the CRQ "
              "below).", ""]
    L += [f"Total at 22 nm: **{t['total_mm2_22nm']:.2f} mm²** (paper 14.3). At 7 nm: "
          + ", ".join(f"{v:.2f} mm² with {k} ({doc['scale_7nm'][k]['factor']:.2f}x)"
                      for k, v in t["total_mm2_7nm"].items()) + " (paper 3.9). "
          f"Own logic (in parentheses) is the structure's RTL block and is already inside the "
          f"logic row. The logic row sums every standalone block "
          + ("of flint_top" if doc["have_top"] else
             "(flint_top is not synthesized flat at this config, a million gates: each of its "
             "blocks counted once, per-die blocks once per die, the rtl/common primitives only "
             "where a block uses them)")
          + f"; with the 45 nm-class liberty the same logic is "
          f"{t['logic_mm2_45nm_nangate45']:.3f} mm².", ""]
    L += ["Logic blocks: " + ", ".join(f"{l['module']} {l['asap7_mm2'] * 1e6:.0f} um²"
                                        + (f" (x{l['copies']})" if l['copies'] > 1 else "")
                                        for l in doc["logic"]) + " (ASAP7-class).", ""]
    # Ports.
    diff = [(r, m) for r in doc["rows"] for p in r["parts"] for m in p["macros"]
            if p["source"] == "RTL" and m["paper_ports_macro"] != m["macro"]]
    if diff:
        L += ["**Ports.** `flint_sram` is one read port plus one write port, and the RTL uses "
              "them at once (e.g. the BTT takes loads while it answers lookups). A true two-port "
              "array costs about twice a single-port one in CACTI (the model's port factor is "
              f"{doc['sram_model']['coefficients']['k_port']:.2f} per extra port). The paper "
              "priced single-port arrays. Same macros with the paper's ports:", ""]
        L += ["| macro (copies x rows x width) | as RTL (1R1W) mm² | paper's ports mm² |",
              "|---|---|---|"]
        for r, m in diff:
            L.append(f"| {m['inst']} {shape_text(m)} | {m['total_area_mm2']:.3f} | "
                     f"{m['total_paper_ports_area_mm2']:.3f} ({m['paper_ports_macro']}"
                     + (" each" if m["copies"] > 1 else "") + ") |")
        L += ["", f"SRAM total with the paper's ports: {t['sram_mm2_22nm_paper_ports']:.2f} mm² "
              f"instead of {t['sram_mm2_22nm']:.2f}. A single-port option in flint_sram (with an "
              "assertion that read and write never coincide) would let tables that can live with "
              "it take the cheaper macro.", ""]
    # Model vs CACTI at the paper's organisation.
    L += ["**The paper's organisations, CACTI and this model** (reference/README.md's match: "
          "itrs-lstp, ECC on, banks and objective as listed):", "",
          "| structure | organisation | paper mm² | CACTI mm² | model mm² | model vs CACTI |",
          "|---|---|---|---|---|---|"]
    for r in doc["rows"]:
        po = r["paper_org"]
        cnt = f"{po['count']} x " if po["count"] > 1 else ""
        cacti = po["cacti_mm2"]
        err = f"{100 * (po['model_mm2'] - cacti) / cacti:+.1f} %" if cacti else "-"
        L.append(f"| {r['name']} | {cnt}{po['macro']} | {r['paper']['mm2']} | "
                 f"{cacti:.3f} | {po['model_mm2']:.3f} | {err} |")
    L += ["", "The migration bitmap's 0.725 mm² in the reference match is the itrs-hp, ECC-off, "
          "delay row of the ports file (16 x 0.0453); with itrs-lstp cells and ECC on, like the "
          "other rows, CACTI gives 16 x 0.0594 = 0.950 mm². This report prices the bitmaps "
          "with lstp and ECC like everything else. As built, the row holds no bitmap: NAND "
          "programs a block's pages in order, so the pages copied so far are one pointer a "
          "block, kept with the source and target block of each logical block in "
          "flint_refresh_die's tables (docs/refresh.md).", ""]
    L += crq_section(doc, cfg, f)
    if doc.get("not_in_design"):
        L += ["## Not in the totals: modules outside the design as built", "",
              "Synthesized and priced like the rest (SRAM at 22 nm by the model, logic with the "
              "ASAP7-area liberty), a die each, for comparison.", "",
              "| module | why | SRAM (a die) | SRAM mm² 22 nm a die / a stack | logic mm² 7 nm a "
              "die |", "|---|---|---|---|---|"]
        for a in doc["not_in_design"]:
            macros = "; ".join(f"{x['inst']} {x['depth']} x {x['width']} b" for x in a["srams"])
            L.append(f"| {a['module']} | {a['why']} | {macros or 'none'} | "
                     f"{a['sram_mm2_22nm_per_die']:.3f} / {a['sram_mm2_22nm_stack']:.3f} | "
                     f"{a['logic_mm2_7nm_per_die']:.4f} |")
        L.append("")
    # Phantom plane.
    ph = doc["phantom_plane"]
    L += ["## HBF die: the phantom plane", "",
          f"One extra physical plane per die: {ph['phys_planes']} planes for {ph['planes']} "
          f"logical ones, so the plane array grows by 1/{ph['planes']} = "
          f"{100 * ph['array_fraction']:.2f} % (paper: +3.1 %). That is the die-area cost if the "
          "die is all planes, each carrying its own page buffer, cache buffer, decoders and "
          "program circuitry (CMOS under the array, as in current 3D NAND): our stated "
          "assumption. If a share s of the die is periphery that does not grow with the plane "
          "count (pads, charge pumps, TSV field), the cost is (1 - s)/"
          f"{ph['planes']}: " + ", ".join(f"s = {s}: {100 * v:.2f} %" for s, v in
                                          ph["die_fraction_by_periphery_share"].items())
          + ". The phantom plane adds no base-die state beyond what the rows above hold "
          "(counters cover all physical planes).", ""]
    # Page-level FTL.
    pf = doc["page_level_ftl"]
    L += ["## Page-level FTL, for reference", "",
          f"One {pf['entry_bits']}-bit entry per {cfg['config']['page_bytes']} B page of the "
          f"{cfg['derived']['stack_bytes'] >> 30} GiB stack: {pf['entries']} entries = "
          f"{pf['bytes'] >> 20} MiB, {pf['vs_btt_entries']}x the BTT's entries. Model "
          f"({pf['macro']}): {pf['mm2_22nm']:.0f} mm² at 22 nm, {pf['mm2_7nm']:.0f} mm² at 7 nm "
          f"(paper: 180 at 7 nm). This is 512x beyond the largest CACTI point (1 MB per bank): "
          "the model is applied per 1 MiB bank, so it extrapolates only in bank count.", ""]
    # Timing.
    tm = doc["timing"]
    L += ["## Timing: is the lookup single-cycle?", "",
          "Every RTL macro of the Table 3 structures, as the blocks instantiate them.", "",
          f"Base-die clock {doc['clock_mhz']} MHz ({tm['period_ns']:.2f} ns). flint_sram "
          "promises read data the cycle after the address, so each macro's access time plus the "
          "logic behind it must fit one period. Access times: the SRAM model at 22 nm (1R1W as "
          "the RTL; banks/cell/objective as priced above). Logic behind the macro: synth/sta.py "
          "on the 45 nm-class netlist (conservative for a 22 nm or 7 nm base die).", ""]
    L += ["| structure | macro | shape | access ns as priced (lstp / hp, 1 bank) | logic after "
          "ns (45 / 7 nm-class) | cycles (45 / 7 nm-class logic) | cheapest 1-cycle option "
          "with 45 nm-class logic (model) |", "|---|---|---|---|---|---|---|"]
    for s in tm["srams"]:
        ch = s["cheapest_single_cycle"]
        chs = ("none: the logic behind it alone fills the period" if ch is None else
               f"{ch['banks']} bank(s) {ch['cell']}: {ch['access_ns']:.2f} ns, "
               f"{ch['area_mm2']:.3f} mm², {ch['leak_mw']:.2g} mW leakage (as priced: "
               f"{s['area_mm2_as_priced']:.3f} mm², {s['leak_mw_as_priced']:.2g} mW)")
        L.append(f"| {s['structure']} | {s['inst']} | {s['shape']} | "
                 f"{s['access_ns_as_priced']:.2f} ({s['access_ns_lstp_1bank_delay']:.2f} / "
                 f"{s['access_ns_hp_1bank_delay']:.2f}) | {s['logic_after_ns_45nm_class']:.2f} / "
                 f"{s['logic_after_ns_7nm_class']:.2f} | {s['cycles_45nm_class_logic']} / "
                 f"{s['cycles_7nm_class_logic']} | {chs} |")
    worst = {}
    for r in tm["reg_to_reg"]:
        if r["lib"] not in worst or r["slack_ps"] < worst[r["lib"]]["slack_ps"]:
            worst[r["lib"]] = r
    L += ["", "Worst flop-to-flop logic path of any block: " + "; ".join(
        f"{lib}-class {w['arrival_ps']:.0f} ps ({w['depth']} cells, {w['module']}: "
        f"{w['from']} -> {w['to']})" for lib, w in sorted(worst.items())) + ".", ""]
    multi = [s for s in tm["srams"] if s["cycles_7nm_class_logic"] > 1]
    if multi:
        L += [f"**Verdict:** {len(multi)} of the {len(tm['srams'])} macros of these tables "
              "(the BTT and relocation lookups, the per-sense counter update, the relocation "
              "table's command path) are not single-cycle at "
              f"{doc['clock_mhz']} MHz even with the fast (7 nm-class) logic behind them: "
              + "; ".join(f"{s['inst']} {s['access_ns_as_priced']:.2f} ns -> "
                          f"{s['cycles_7nm_class_logic']} cycles" for s in multi)
              + ". The access time of a 22 nm low-standby-power array of this size is the "
              "cause, not the logic. Single-cycle needs hp cells and banking (last column: "
              "similar area, about a thousand times the leakage) or a 7 nm macro (no 7 nm SRAM "
              "timing figure in reference/, so not claimed here); the alternative is a "
              "pipelined multi-cycle read, which the traffic allows: one BTT lookup and "
              f"{cfg['derived']['slices_per_burst']} relocation lookups and counter updates "
              f"(one per die and plane) per burst, a burst every "
              f"{cfg['derived']['burst_period_cycles']} cycles, so a pipelined table at one "
              "access a cycle loses no throughput, only latency. The RTL's one-cycle "
              "flint_sram contract is optimistic for these macros at this clock.", ""]
    else:
        L += ["**Verdict:** every macro on the lookup path fits one cycle as priced.", ""]
    # Program queues.
    q = doc["progq_right_sizing"]
    dm = q["demand"]
    pq_mm2 = next(r for r in doc["rows"] if r["key"] == "progq")["sram_mm2_22nm"]
    L += ["## Beyond the paper: right-sized program queues", "",
          f"The program queues are {pq_mm2:.1f} of the {t['total_mm2_22nm']:.1f} mm² here "
          "(paper: 10.5 of 14.3). Their size should follow from their demand. "
          + ("**Demand: analytic, pending measurement** (the refresh controller's measured "
             "refresh traffic will replace it: `make area DEMAND=file.json`, schema in "
             "docs/synth.md)." if dm["kind"] == "analytic" else
             f"**Demand: measured** ({dm['source']})."), "",
          f"- Arrival per die: lambda = {dm['arrival_pages_per_s']:.0f} pages/s "
          f"({dm['source']}). Stack-wide that is "
          f"{q['stack_refresh_bytes_per_s'] / 1e9:.2f} GB/s of refresh programs against "
          f"{q['stack_program_capacity_bytes_per_s'] / 1e9:.2f} GB/s the {cfg['config']['dies']} "
          f"phantom planes can program (mu = 1/tPROG = {q['service_pages_per_s']:.0f} pages/s "
          f"per die): utilisation rho = {q['utilisation']:.2f}."]
    if q.get("sweep_sizing"):
        L += render_measured_sizing(q, dm, cfg)
    elif q["pages"]:
        L += [f"- Little's law: mean occupancy L = {q['mean_occupancy_pages']:.2f} pages "
              f"(M/D/1, Poisson forks, deterministic tPROG), so a page waits W = L/lambda = "
              f"{1e6 * q['mean_residence_s']:.0f} us on average."
              + (f" Measured (worst die): L = {dm['mean_occupancy_pages']:.2f} pages"
                 if dm.get("mean_occupancy_pages") is not None else "")
              + (f", W = {1e6 * dm['mean_residence_s']:.0f} us"
                 if dm.get("mean_residence_s") is not None else "")
              + (f", peak {dm['peak_occupancy_pages']} pages."
                 if dm.get("peak_occupancy_pages") is not None else ""),
              f"- Push bound (forks at lambda; a fork that finds the queue full is dropped and "
              f"its page scrubbed later, so the loss prices extra scrubber senses, not data): "
              + ", ".join(f"{k} pages for loss <= {e}" for e, k in q["push_pages"].items())
              + " (M/D/1/K blocking, checked against a seeded simulation in `--check`).",
              f"- Pull bound (scrubber refills on demand): 1 + ceil(refill latency "
              f"{1e6 * q['refill_latency_s']:.1f} us / tPROG) = {q['pull_pages']} pages.",
              f"- Right size: **{q['pages']} pages per die** "
              f"({q['pages'] * cfg['config']['page_bytes'] // 1024} KiB, "
              f"loss {q['design_loss']}) instead of {cfg['config']['progq_pages']}: "
              f"{q['mm2_22nm_stack']:.2f} mm² for the stack ({q['macro']} per die) instead of "
              f"{q['current_mm2_22nm_stack']:.2f}: **{q['saving_mm2_22nm']:.1f} mm² saved**, "
              f"total {q['right_sized_total_mm2_22nm']:.2f} mm² at 22 nm, "
              f"{q['right_sized_total_mm2_7nm']:.2f} mm² at 7 nm.",
              "- Caveat: Poisson forks are an assumption. Forks are bounded by one page per "
              "burst per die (only the source plane forks) but may come in runs when a fresh "
              "region is streamed; a run longer than the queue is exactly the case the "
              "scrubber exists for. The measurement to replace this: per die, the fork arrival "
              "rate, the mean occupancy and residence (Little's law is checked on them) and the "
              "peak occupancy with an oversized queue.", ""]
    else:
        L += [f"- {q['verdict']}.", ""]
    # SRAM model.
    e = doc["sram_model"]["errors"]
    L += ["## SRAM model error against CACTI (every point of both reference files)", "",
          "| metric | all: mean / max % | ed2 | delay | area objective |", "|---|---|---|---|---|"]
    for metric, g in e.items():
        cells = [f"{g[k]['mean_pct']:.1f} / {g[k]['max_pct']:.1f}" if k in g else "-"
                 for k in ("all", "ed2", "delay", "area")]
        L.append(f"| {metric} | " + " | ".join(cells) + " |")
    L += ["", f"{e['area_mm2']['all']['n']} points; per-point errors in "
          "synth/reports/sram_fit.csv. "
          "CACTI's own organisation choices scatter its points (1 MB, ED², lstp, ECC: 1.28 / "
          "1.14 / 1.42 / 1.22 mm² for 1 / 2 / 4 / 8 banks), which bounds what any smooth model "
          "can match.", ""]
    return "\n".join(L) + "\n"


SYNTH_DOC = ROOT / "docs" / "synth.md"
BEGIN, END = "<!-- sram-model:begin (make area writes this block) -->", "<!-- sram-model:end -->"


def model_block(mdl):
    """The SRAM model's fitted coefficients and error table, for docs/synth.md."""
    c = mdl.coefficients()
    L = [BEGIN, "",
         f"Port factor: k_port = {c['k_port']:.2f}, k_rw = {c['k_rw']:.3f} "
         f"(1R1W = {1 + c['k_port'] - c['k_rw']:.2f}x, 1RW+1R = {1 + c['k_port']:.2f}x, "
         f"2RW = {1 + c['k_port'] + c['k_rw']:.2f}x a single port).", "",
         "| objective | " + " | ".join(sram_model.AREA_TERMS) + " |",
         "|---|" + "---|" * len(sram_model.AREA_TERMS)]
    for o, terms in c["area"].items():
        L.append(f"| {o} | " + " | ".join(f"{terms[t]:.4g}" for t in sram_model.AREA_TERMS)
                 + " |")
    L += ["", "Error against every CACTI point (mean / max of |model - CACTI| / CACTI, %):", "",
          "| metric | all | ed2 | delay | area objective | lstp | hp |",
          "|---|---|---|---|---|---|---|"]
    for metric, g in mdl.error_summary().items():
        L.append(f"| {metric} | " + " | ".join(
            f"{g[k][1]:.1f} / {g[k][2]:.1f}" for k in ("all", "ed2", "delay", "area", "lstp",
                                                       "hp")) + " |")
    L += ["", f"{mdl.error_summary()['area_mm2']['all'][0]} points (240 + 512 rows). "
          "Every point's prediction and error: synth/reports/sram_fit.csv.", "", END]
    return "\n".join(L)


def update_synth_doc(mdl, path=SYNTH_DOC):
    if not path.exists():
        return False
    text = path.read_text()
    if BEGIN not in text or END not in text:
        return False
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    path.write_text(head + model_block(mdl) + tail)
    return True


def copies_check(doc, cfg, text, mdl):
    """Copy counts: each macro is priced `copies` times as its own array, the CRQ's copies hold
    exactly crq_entries, the SRAM total is the rows' sum, and small shapes are flagged."""
    fails = []
    c = cfg["config"]
    for r in doc["rows"]:
        for p in r["parts"]:
            for m in p["macros"]:
                if not (m["copies"] >= 1 and
                        math.isclose(m["total_area_mm2"], m["copies"] * m["area_mm2"]) and
                        m["total_bits"] == m["copies"] * m["bits"]):
                    fails.append(f"area: {r['key']}/{m['inst']}: totals are not copies x one")
                if shape_text(m) not in text:
                    fails.append(f"area: copies x shape {shape_text(m)} not in the report")
        if not math.isclose(r["sram_mm2_22nm"], sum(m["total_area_mm2"] for p in r["parts"]
                                                    for m in p["macros"])):
            fails.append(f"area: row {r['key']} is not the sum of its macros' copies")
    crq = next(r for r in doc["rows"] if r["key"] == "crq")
    part = next(p for p in crq["parts"] if p["name"] == "crq")
    held = {}   # entries each role (payload, next, free) holds over all its copies
    for i, m in enumerate(part["macros"]):
        role = m["cell"].split(".")[-1] if "cell" in m else i   # from config: one per role
        held[role] = held.get(role, 0) + m["copies"] * m["depth"]
    total = structures.crq_held(cfg)
    if len(held) != 3 or set(held.values()) != {total}:
        fails.append(f"area: CRQ macros hold {held} entries, not crq_die_slack x crq_entries = "
                     f"{total} in each of payload, next and free")
    if not doc["have_top"] and c["dies"] > 1 and any(m["copies"] < 2 for m in part["macros"]):
        fails.append("area: the CRQ's banks are priced once, not once per bank")
    # From config: dies x lanes banks of the held entries / (dies x lanes), each its own macro.
    lay, _ = structures.crq_config(cfg)
    banks = c["dies"] * c["lanes"]
    if [(d, n) for d, _, n in lay] != [(total // banks, banks)] * 3:
        fails.append(f"area: crq_config gives {lay}, not {banks} banks of {total // banks}")
    # One RTL bank is held / Entries copies; a root holding every bank is one copy.
    e = total // banks
    one = [{"inst": n, "depth": e} for n in ("u_payload", "u_next", "u_free")]
    every = [{"inst": f"g_bank[{i}].u_bank.{n}", "depth": e} for i in range(banks)
             for n in ("u_payload", "u_next", "u_free")]
    if structures.crq_copies(cfg, one) != banks or structures.crq_copies(cfg, every) != 1:
        fails.append("area: crq_copies miscounts a bank root or a root of every bank")
    try:
        structures.crq_copies(cfg, [{"inst": "u_payload", "depth": total + 1}])
        fails.append("area: crq_copies accepted a bank that does not divide the entries held")
    except structures.StructureError:
        pass
    # Small macros cost per copy: N copies of one small macro, not one macro of N times it.
    small = sram_model.Macro(max(1, e * 26 // 8), 26, 1, 0, 1, 1)
    if not mdl.outside_calibration(small) or mdl.outside_calibration(
            sram_model.Macro(1 << 18, 512, 4)):
        fails.append("area: the SRAM model's calibration range flags the wrong shapes")
    # The SRAM total is the rows and the unclaimed SRAMs, nothing else.
    t = doc["totals"]
    if not math.isclose(t["sram_mm2_22nm"], sum(r["sram_mm2_22nm"] for r in doc["rows"])
                        + sum(o["area_mm2"] for o in doc["other_srams"])):
        fails.append("area: the SRAM total is not the sum of the rows and the other SRAMs")
    return fails


def self_check(flow, cfg, out):
    """What synth.py --check asserts about the area report (run at small in CI)."""
    import tempfile
    fails = []
    doc = build(flow, cfg, out)
    text = render(doc, cfg)
    names = {r["key"] for r in doc["rows"]}
    if names != {s["key"] for s in structures.STRUCTURES}:
        fails.append(f"area: rows {sorted(names)} do not cover every Table 3 structure")
    for r in doc["rows"]:
        if not r["bits"] > 0 or not r["sram_mm2_22nm"] > 0:
            fails.append(f"area: row {r['key']} has no SRAM ({r['bits']} bits)")
        for p in r["parts"]:
            if p["source"] == "RTL" and not p["macros"]:
                fails.append(f"area: {r['key']}/{p['name']} from RTL without macros")
    rtl_macros = sum(m["instances"] for r in doc["rows"] for p in r["parts"]
                     if p["source"] == "RTL" for m in p["macros"]) + len(doc["other_srams"])
    found = len(attribute(flow, out)[2])
    if rtl_macros != found:
        fails.append(f"area: {found} SRAM instances in the roots but {rtl_macros} priced")
    t = doc["totals"]
    if not (t["total_mm2_22nm"] > t["sram_mm2_22nm"] > 0 and
            all(math.isfinite(v) and v > 0 for v in t["total_mm2_7nm"].values())):
        fails.append(f"area: totals inconsistent: {t}")
    if "| **Total**" not in text:
        fails.append("area: rendered report lacks its total row")
    fails += copies_check(doc, cfg, text, mdl=sram_model.model())
    # Measured demand: a consistent file is used, one that breaks Little's law is refused.
    with tempfile.TemporaryDirectory() as tmp:
        good = pathlib.Path(tmp) / "good.json"
        bad = pathlib.Path(tmp) / "bad.json"
        base = {"kind": "measured", "source": "self-check", "config": cfg["config"]["name"]}
        good.write_text(json.dumps({**base, "per_die": [
            {"die": 0, "arrival_pages_per_s": 100.0, "mean_residence_s": 0.01,
             "mean_occupancy_pages": 1.0, "peak_occupancy_pages": 5}]}))
        bad.write_text(json.dumps({**base, "per_die": [
            {"die": 0, "arrival_pages_per_s": 100.0, "mean_residence_s": 0.01,
             "mean_occupancy_pages": 3.0}]}))
        d = progq_sizing.load_demand(good, cfg)
        q = progq_sizing.size_queue(cfg, d)
        if d["kind"] != "measured" or (q["pages"] is not None and q["pages"] < 5):
            fails.append(f"area: measured demand not used (pages {q['pages']})")
        try:
            progq_sizing.load_demand(bad, cfg)
            fails.append("area: a demand file breaking Little's law was accepted")
        except progq_sizing.DemandError:
            pass
    return fails


def render_measured_sizing(q, dm, cfg):
    """The program-queue bullets when a measured sweep (flint-progq-demand) decides the size."""
    sz = q["sweep_sizing"]
    c = cfg["config"]
    pct = lambda x: f"{100 * x:.2f} %"  # noqa: E731
    runs = dm["sweep"]
    little = max(abs(r["arrival_pages_per_s"] * r["mean_residence_s"] /
                     r["mean_occupancy_pages"] - 1) for r in runs if r["mean_occupancy_pages"] > 0)
    models = sorted({r["model"] for r in runs})
    share = {}
    for r in runs:
        if r["scrub"] == "steal" and r["copies"] and r.get("programmed"):
            share.setdefault(r["model"], []).append(r["forks_taken"] / r["programmed"])
    lo = min((min(v) for v in share.values()), default=0.0)
    hi = max((max(v) for v in share.values()), default=0.0)
    L = [f"- Measured over {len(runs)} runs ({', '.join(models)}; every queue depth, scrub "
         f"policy and idle fraction of docs/progq_demand.md), each a whole rotation pass of a "
         f"die at paper, at the transaction level (a stolen read costs one burst period; the "
         f"RTL's park costs more, docs/refresh.md, \"The scrubber\"). "
         f"Little's law holds on every run (lambda W / L within {100 * little:.4f} %). In the "
         f"sizing run (largest queue, steal, no idle time, worst model) L = "
         f"{dm['mean_occupancy_pages']:.2f} pages and W = {1e6 * dm['mean_residence_s']:.1f} us "
         f"on average; forks can fill an oversized queue in a run (peak "
         f"{dm['peak_occupancy_pages']} pages), but the copy needs no page held that long.",
         f"- Forks supply {100 * lo:.1f} to {100 * hi:.1f} % of the pages a copy needs (the "
         "dense model the most): a block's pages are copied in order and decode reads many "
         "blocks' first pages rarely (embedding rows, routed experts); the scrubber reads the "
         "rest. Poisson forks, the analytic picture, do not happen."]
    for g in sz["groups"]:
        head = (f"- Scrubber **{g['scrub']}**"
                + (" (as built: reads only while the foreground idles)" if g["scrub"] == "idle"
                   else " (takes one foreground burst slot when the queue runs dry and the copy "
                        f"is behind its pace, {dm.get('pace')}x the program-bound copy)")
                + f", idle {100 * g['idle_fraction']:.0f} %: ")
        if g["keeps_up_from"] is None:
            worst = max(g["models"].items(),
                        key=lambda kv: kv[1]["max_depth"]["max_count_over_limit"])
            md = worst[1]["max_depth"]
            head += (f"**no depth up to {md['queue_pages']} pages keeps up**: at "
                     f"{md['queue_pages']} pages {worst[0]} completes {md['copies']} of "
                     f"{md['copies_asked']} copies"
                     + (f" at {md['copy_over_program_bound']:.2f}x the program-bound time"
                        if md["copies"] else "")
                     + f" and a block reaches {md['max_count_over_limit']:.2f}x the limit.")
        else:
            k = g["keeps_up_from"]
            stalls = ", ".join(f"{m} {pct(v['at_size']['stall_fraction'])}"
                               for m, v in sorted(g["models"].items()))
            head += (f"every model keeps up from **{k} pages**; foreground stall there: "
                     f"{stalls}.")
            if g["scrub"] == "steal" and len(g["depths"]) > 1:
                shown = sorted({k, g["depths"][-1]} | ({32} & set(g["depths"])))
                trade = "; ".join(
                    f"{m}: " + ", ".join(f"{d} p {pct(v['stall_by_depth'][str(d)])}"
                                         for d in shown)
                    for m, v in sorted(g["models"].items()))
                head += f" By depth: {trade}."
        L.append(head)
    if q["pages"]:
        L += [f"- Right size: **{q['pages']} pages per die** "
              f"({q['pages'] * c['page_bytes'] // 1024} KiB) with the stealing scrubber, "
              f"instead of {c['progq_pages']}: {q['mm2_22nm_stack']:.2f} mm² for the stack "
              f"({q['macro']} per die) instead of {q['current_mm2_22nm_stack']:.2f}: "
              f"**{q['saving_mm2_22nm']:.1f} mm² saved**, total "
              f"{q['right_sized_total_mm2_22nm']:.2f} mm² at 22 nm, "
              f"{q['right_sized_total_mm2_7nm']:.2f} mm² at 7 nm. The price is the stall "
              "above when the stack has no idle time: every page the forks do not supply costs "
              "one stolen read. A deeper queue buys that back only where there is idle time "
              "and a decode step is shorter than the queue's pages x tPROG.",
              f"- The analytic figures, for comparison: the M/D/1/K push bound gives "
              + ", ".join(f"{k} pages for loss <= {e}" for e, k in q["push_pages"].items())
              + f" at the measured lambda, the pull bound {q['pull_pages']} pages.", ""]
    else:
        L += [f"- {q['verdict']}.", ""]
    return L


def main():
    ap = argparse.ArgumentParser(description="FLINT area report")
    ap.add_argument("--gen", required=True, type=pathlib.Path)
    ap.add_argument("--config", default="paper")
    ap.add_argument("--out", required=True, type=pathlib.Path)
    ap.add_argument("--md", type=pathlib.Path, default=ROOT / "docs" / "area.md")
    ap.add_argument("--json", type=pathlib.Path, default=ROOT / "docs" / "area.json")
    ap.add_argument("--points", type=pathlib.Path,
                    default=ROOT / "synth" / "reports" / "sram_fit.csv")
    ap.add_argument("--demand", type=pathlib.Path, help="measured program-queue demand (JSON)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--reuse", action="store_true", help="reuse OUT/<config>/synth.json")
    ap.add_argument("--self-check", action="store_true",
                    help="check the report built on OUT/<config>/synth.json (synth.py --check); "
                         "print each failure, write nothing")
    args = ap.parse_args()
    try:
        cfg = yosys_flow.load_config(args.gen, args.config)
        sj = args.out / args.config / "synth.json"
        if args.self_check:
            if not sj.exists():
                raise yosys_flow.FlowError(f"--self-check needs the flow's {sj} (synth.py)")
            fails = self_check(json.loads(sj.read_text()), cfg, args.out)
            for f in fails:
                print(f)
            return 1 if fails else 0
        if args.reuse and sj.exists():
            flow = json.loads(sj.read_text())
        else:
            flow = yosys_flow.run_flow(args.gen, args.config, args.out, args.jobs)
        bad = [r["module"] for r in flow["modules"] if not r["ok"]]
        if bad:
            raise yosys_flow.FlowError("synthesis failed for " + ", ".join(bad) +
                                       f" (see {args.out / args.config}/<module>/yosys.log)")
        doc = build(flow, cfg, args.out, args.demand)
    except (yosys_flow.FlowError, sram_model.ModelError, progq_sizing.DemandError,
            structures.StructureError) as e:
        print(f"area: {e}", file=sys.stderr)
        return 2
    args.md.parent.mkdir(parents=True, exist_ok=True)
    args.md.write_text(render(doc, cfg))
    args.json.write_text(json.dumps(doc, indent=1, default=str) + "\n")
    args.points.parent.mkdir(parents=True, exist_ok=True)
    sram_model.write_points_csv(args.points, sram_model.model())
    if not update_synth_doc(sram_model.model()):
        print(f"area: {SYNTH_DOC} has no SRAM model block to refresh", file=sys.stderr)
    t = doc["totals"]
    print(f"area [{args.config}]: {t['total_mm2_22nm']:.2f} mm² at 22 nm, "
          f"{t['total_mm2_7nm'][PRIMARY]:.2f} mm² at 7 nm -> {args.md}, {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
