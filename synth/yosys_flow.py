"""The synthesis flow behind `make synth` and `make area`: Yosys on every RTL module
(rtl/**/flint_*.sv) at one config, mapped to both of FLINT's liberty files (synth/lib/), SRAM
macros kept as blackboxes and priced by the SRAM model (synth/sram_model.py), plus a
first-order timing estimate (synth/sta.py); the per-module report (synth.json, synth.md) and
the flow's own invariants (check()).

A library: scripts/synth.py is its command line, scripts/area.py builds the area report on its
results. It imports neither of them.
"""
import concurrent.futures as cf
import json
import math
import pathlib
import re
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"
SYNTH = ROOT / "synth"
sys.path.insert(0, str(SYNTH))
sys.path.insert(0, str(SYNTH / "lib"))

import gen_liberty  # noqa: E402
import progq_sizing  # noqa: E402
import sram_model  # noqa: E402
import sta  # noqa: E402
import structures  # noqa: E402

LIBS = ("asap7", "nangate45")
TEMPLATE = SYNTH / "flint_synth.ys.in"
REFERENCE = SYNTH / "reference"
# Yosys warnings that are information, not defects (same policy as scripts/lint.py).
YOSYS_BENIGN = (
    "Replacing memory",  # small arrays become registers by design; SRAM goes via the wrapper
    "is unknown!",       # stat -liberty: flint_sram has no liberty area, the model prices it
)
TIMEOUT_S = 1800
# Modules not synthesized flat at a config, with the reason (shown in synth.md). The BBC top at
# paper is about a million gates flat (16 dies x 8 CRQ sub-banks, 256 SEC-DED decoders) and ABC
# does not finish in the timeout; its blocks are each synthesized there and docs/area.md prices
# the structures from them. `make lint` still elaborates it at paper (scripts/lint.py).
NOT_FLAT = {
    ("flint_bbc", "paper"): "a million gates flat; priced from its blocks (flint_bbc_die, "
                            "flint_bbc_crq_bank, flint_bbc_sched, flint_nand_seq)",
    # The stack top is the BBC top and the rest: its blocks are synthesized one by one (the BBC
    # top alone is minutes at small), and at paper the refresh of 16 dies from one die's.
    ("flint_top", "small"): "the BBC top and the rest; synthesized block by block (flint_bbc, "
                            "flint_refresh, flint_xlat, flint_loader, ...)",
    ("flint_top", "paper"): "synthesized block by block, as at small",
    ("flint_refresh", "paper"): "16 copies of flint_refresh_die and the arbiters; priced from "
                                "flint_refresh_die, one a die",
    # Not a flat-or-not question but time: the BCH syndrome unit is 121 XOR trees of about 570
    # inputs (35 k gates), and ABC's delay-driven liberty mapping of it took about 10 CPU minutes
    # for one library; with both the run passed TIMEOUT_S on the shared machine (2026-12-06).
    # The encoder (31 k gates) takes about 2.5 CPU minutes for both libraries, over a third of
    # synth_small_flow's CPU in CI: at small its Yosys synth is lint --heavy's; `make area` (at
    # paper, where it is the same block) maps it with both libraries.
    ("flint_bch_enc", "small"): "BCH encoder: ABC's liberty mapping takes about 2.5 CPU minutes "
                                "for both libraries; Yosys synth in lint --heavy, priced by "
                                "make area at paper (the same block)",
    ("flint_bch_syn", "small"): "BCH syndrome unit: ABC's liberty mapping takes over 30 min for "
                                "both libraries; Yosys synth in lint --heavy, figures in "
                                "docs/ecc.md",
    ("flint_bch_syn", "paper"): "as at small (the block is the same at every config)",
    # The BCH line decoder holds the syndrome unit: the same time, and more. Its other blocks
    # (flint_bch_bm, flint_bch_chien) are synthesized on their own.
    ("flint_bch_dec", "small"): "BCH line decoder: holds flint_bch_syn (above); its slow-path "
                                "blocks flint_bch_bm and flint_bch_chien are synthesized apart",
    ("flint_bch_dec", "paper"): "as at small (the block is the same at every config)",
    # The multi-path line decoder: the syndrome unit, three Berlekamp-Massey units and Chien
    # searches (P = 32), and a 64-line buffer (a 64 x 1 024-bit memory with four write ports,
    # flops here: no macro has four); its blocks are synthesized apart.
    ("flint_bch_line_dec", "small"): "BCH multi-path line decoder: holds flint_bch_syn (above) "
                                     "and a 64-line buffer; its blocks (flint_bch_single, "
                                     "flint_bch_bm, flint_bch_chien) are synthesized apart",
    ("flint_bch_line_dec", "paper"): "as at small (the block is the same at every config)",
}


# Modules synthesized as glue: their large blocks stay blackbox cells (each block has its own
# run and is priced from it), so the run prices and times the module's own logic and SRAMs
# only. The BBC top flat is minutes at small (two dies, the scheduler: ABC over ~90 k um2 of
# gates, the longest item of the CI run) and does not finish at paper; as glue it is its
# accelerator port, the fetched-line bitmap and the per-die response arbitration. Timing
# through a block's pins is partial, as through a module's ports (synth/sta.py).
GLUE = {
    "flint_bbc": ("flint_bbc_die", "flint_bbc_sched"),
}


class FlowError(Exception):
    pass


def discover():
    """Every RTL module: rtl/**/flint_*.sv, except the packages and the SRAM macro itself."""
    skip = {"flint_pkg.sv", "flint_sram.sv"}
    return sorted((p for p in RTL.rglob("flint_*.sv") if p.name not in skip),
                  key=lambda p: p.stem)


def norm_module(name):
    """Yosys' derived module names ($paramod...\\flint_x\\P=...) back to flint_x."""
    name = name.lstrip("\\")
    if name.startswith("$paramod"):
        return name.split("\\")[1]
    return name


def load_config(gen, cfg):
    path = gen / cfg / "config.json"
    if not path.exists():
        raise FlowError(f"no generated config '{cfg}' at {path} "
                        f"(run scripts/gen_config.py --configs configs --out {gen})")
    return json.loads(path.read_text())


def period_ps(cfg):
    return 1e6 / cfg["config"]["clock_mhz"]


def structure_of(module):
    """(structure, part) whose part regexes match `module`, or (None, None)."""
    for s in structures.STRUCTURES:
        for part in s["parts"]:
            if any(re.fullmatch(rx, module) for rx in part["modules"]):
                return s, part
    return None, None


def macro_for(module, width, depth):
    """The SRAM model's macro for a flint_sram instance of `module` (1R1W, as the wrapper)."""
    s, _ = structure_of(module)
    org = dict(s["org"] if s else structures.DEFAULT_ORG)
    size = max(1, (width * depth + 7) // 8)
    return sram_model.Macro(size, width, org["banks"], 0, 1, 1, ecc=org["ecc"],
                            cell=org["cell"], objective=org["objective"])


def write_script(gen, cfg, mod, out, glue=()):
    text = TEMPLATE.read_text()
    head, rest = text.split("#@MAP\n")
    block, tail = rest.split("#@END\n")
    # The BCH matrices' package (scripts/gen_bch.py) is config-independent: gen/, not gen/<cfg>/.
    files = [gen / cfg / "flint_cfg_pkg.sv", gen / "flint_bch_pkg.sv", RTL / "flint_pkg.sv"]
    reads = [f"read_verilog -sv {f}" for f in files]
    # -defer: each module is elaborated once, at the parameters the top gives it (read plainly,
    # Yosys elaborates every file at its defaults as it reads it: the BCH Chien search's and line
    # decoder's constant tables alone took 7 of every run's 9 s, three quarters of
    # synth_small_flow's CPU). flint_sram is read plainly: its SYNTHESIS blackbox then derives
    # as $paramod\flint_sram\Width=..., the name sram_cells() prices by.
    reads += [f"read_verilog {'' if m.name == 'flint_sram.sv' else '-defer '}-sv "
              f"-I{RTL / 'common'} {m}" for m in sorted(RTL.rglob("flint_*.sv"))
              if m.name != "flint_pkg.sv"]
    cfgd = load_config(gen, cfg)
    fill = {"@READS@": "\n".join(reads), "@TOP@": mod.stem, "@OUT@": str(out),
            "@PERIOD_PS@": "%d" % round(period_ps(cfgd)),
            "@BLACKBOX@": "".join(f"blackbox *{b}\n" for b in glue)}
    body = head
    for lib in LIBS:
        b = block.replace("@LIBNAME@", lib).replace(
            "@LIB@", str(SYNTH / "lib" / gen_liberty.LIBS[lib]["file"]))
        body += b
    body += tail
    for k, v in fill.items():
        body = body.replace(k, v)
    path = out / "synth.ys"
    path.write_text(body)
    return path


def instance_counts(hier, top):
    """Recursive instance count of every module type under `top` (top itself = 1)."""
    raw = hier["modules"]
    counts = {}

    def walk(name, mult, depth=0):
        if depth > 64:
            raise FlowError("module hierarchy too deep (recursion?)")
        counts[norm_module(name)] = counts.get(norm_module(name), 0) + mult
        m = raw.get(name) or raw.get("\\" + name)
        if m is None:
            return
        for c in m.get("cells", {}).values():
            t = c["type"]
            if t in raw or ("\\" + t) in raw:
                walk(t, mult, depth + 1)

    top_raw = next(n for n in raw if norm_module(n) == top)
    walk(top_raw, 1)
    return counts


def parse_stat_area(path):
    m = re.search(r"Chip area for (?:top )?module '[^']*':\s*([0-9.eE+-]+)", path.read_text())
    return float(m.group(1)) if m else None


def analyse_lib(mod_name, netlist, cells, cfgd, lib, flop_names=None, glue=()):
    top = next(v for k, v in netlist["modules"].items() if norm_module(k) == mod_name)
    counts = {}
    for c in top.get("cells", {}).values():
        counts[c["type"]] = counts.get(c["type"], 0) + 1
    blocks = {t for t in counts if t not in cells and norm_module(t) in glue}
    unknown = sorted(t for t in counts if t not in cells and t != sta.SRAM_TYPE and
                     t not in blocks)
    if unknown:
        raise FlowError(f"{mod_name} [{lib}]: cells that are neither liberty cells nor "
                        f"flint_sram: {', '.join(unknown)}")
    area = sum(cells[t]["area"] * n for t, n in counts.items() if t in cells)
    seq = sum(cells[t]["area"] * n for t, n in counts.items() if t in cells and cells[t]["seq"])
    flops = sum(n for t, n in counts.items() if t in cells and cells[t]["seq"])
    srams = []
    for cname, c in top.get("cells", {}).items():
        if c["type"] != sta.SRAM_TYPE:
            continue
        p = c.get("parameters", {})
        try:
            width, depth = int(p["Width"], 2), int(p["Depth"], 2)
        except (KeyError, ValueError):
            raise FlowError(f"{mod_name}: flint_sram {cname} without Width/Depth parameters")
        if width <= 0 or depth <= 0:
            raise FlowError(f"{mod_name}: flint_sram {cname} has Width={width} Depth={depth}")
        srams.append({"inst": cname, "width": width, "depth": depth, "bits": width * depth})
    mdl = sram_model.model()
    libp = gen_liberty.LIBS[lib]

    def access(cname, params):
        w, d = int(params["Width"], 2), int(params["Depth"], 2)
        return 1000.0 * mdl.predict(macro_for(mod_name, w, d))["access_ns"]

    setup = next(c["setup_ps"] for c in cells.values() if c["seq"])
    timing = sta.analyse(top, cells, period_ps(cfgd), access, wire_ff=libp["wire_ff"],
                         out_load_ff=4 * libp["c_unit_ff"], sram_pin_ff=2 * libp["c_unit_ff"],
                         sram_setup_ps=setup, flop_names=flop_names, blocks=blocks)
    names = timing.pop("flop_names")
    block_cells = {}
    for t_ in blocks:
        block_cells[norm_module(t_)] = block_cells.get(norm_module(t_), 0) + counts[t_]
    return {"area_um2": area, "seq_area_um2": seq, "comb_area_um2": area - seq,
            "flops": flops, "cells": {t_: n for t_, n in counts.items() if t_ not in blocks},
            "block_cells": block_cells, "timing": timing}, srams, names


def run_module(gen, cfg, mod, outdir, flat=False):
    out = outdir / mod.stem
    out.mkdir(parents=True, exist_ok=True)
    res = {"module": mod.stem, "file": str(mod.relative_to(ROOT)), "ok": False}
    t0 = time.time()
    try:
        glue = () if flat else GLUE.get(mod.stem, ())
        script = write_script(gen, cfg, mod, out, glue)
        log = out / "yosys.log"
        try:
            proc = subprocess.run(["yosys", "-q", "-l", str(log), "-s", str(script)],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise FlowError(f"yosys timed out after {TIMEOUT_S} s")
        text = log.read_text() if log.exists() else proc.stdout
        if proc.returncode != 0:
            errs = [l for l in text.splitlines() if "ERROR" in l] or text.splitlines()[-5:]
            raise FlowError("yosys failed: " + " | ".join(errs))
        res["warnings"] = sorted({l.strip() for l in text.splitlines()
                                  if l.startswith("Warning") and
                                  not l.startswith("Warnings:") and  # Yosys' count line
                                  not any(b in l for b in YOSYS_BENIGN)})
        cfgd = load_config(gen, cfg)
        hier = json.loads((out / "hier.json").read_text())
        counts = instance_counts(hier, mod.stem)
        res["instances"] = {k: v for k, v in sorted(counts.items())
                            if k != mod.stem and k not in glue}
        if glue:  # blocks left as cells: synthesized, priced and timed in their own runs
            res["glue_blocks"] = {k: counts.get(k, 0) for k in glue}
        res["libs"] = {}
        srams = None
        names = None
        # NanGate first: its flops have a true Q whose net keeps the RTL name; the ASAP7 flops
        # (same cell names, inverted QN) borrow those names.
        for lib in sorted(LIBS, key=lambda l: l != "nangate45"):
            cells = gen_liberty.cell_table(lib)
            netlist = json.loads((out / f"{lib}.json").read_text())
            r, s, n = analyse_lib(mod.stem, netlist, cells, cfgd, lib, names, glue)
            names = names or n
            r["stat_area_um2"] = parse_stat_area(out / f"{lib}.stat.txt")
            res["libs"][lib] = r
            srams = s
        mdl = sram_model.model()
        for s in srams:
            m = macro_for(mod.stem, s["width"], s["depth"])
            pr = mdl.predict(m)
            s["macro"] = m.describe()
            s["area_mm2"] = pr["area_mm2"]
            s["access_ns"] = pr["access_ns"]
        res["srams"] = srams
        res["sram_in_rtl"] = _instantiates_sram(mod, counts)
        res["ok"] = True
    except (FlowError, sta.StaError, sram_model.ModelError, OSError, ValueError,
            KeyError) as e:
        res["error"] = f"{type(e).__name__}: {e}"
    res["seconds"] = round(time.time() - t0, 1)
    return res


def _instantiates_sram(mod, counts):
    """True when the module (or one it instantiates) has flint_sram in its source text."""
    if counts.get("flint_sram"):
        return True
    files = {p.stem: p for p in RTL.rglob("flint_*.sv")}
    for name in [mod.stem] + list(counts):
        p = files.get(name)
        if p and name != "flint_sram" and re.search(r"\bflint_sram\b", _strip_comments(p)):
            return True
    return False


def _strip_comments(path):
    text = path.read_text()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def run_flow(gen, cfg, out, jobs=2, names=None, flat=False):
    outdir = out / cfg
    outdir.mkdir(parents=True, exist_ok=True)
    mods = [m for m in discover() if not names or m.stem in names]
    if names:
        missing = set(names) - {m.stem for m in mods}
        if missing:
            raise FlowError("no such module(s): " + ", ".join(sorted(missing)))
    skipped = [{"module": m.stem, "reason": NOT_FLAT[(m.stem, cfg)]} for m in mods
               if (m.stem, cfg) in NOT_FLAT]
    mods = [m for m in mods if (m.stem, cfg) not in NOT_FLAT]
    cfgd = load_config(gen, cfg)
    sram_model.model()  # fit once before the threads use it
    with cf.ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(lambda m: run_module(gen, cfg, m, outdir, flat), mods))
    # Roots: modules no other synthesized module instantiates.
    used = {k for r in results if r["ok"] for k in r.get("instances", {})}
    for r in results:
        r["root"] = r["module"] not in used
    doc = {"config": cfg, "clock_mhz": cfgd["config"]["clock_mhz"],
           "period_ps": period_ps(cfgd), "libs": {l: {k: gen_liberty.LIBS[l][k] for k in (
               "file", "title", "area_source", "timing_source")} for l in LIBS},
           "modules": results, "not_synthesized": skipped, "partial": bool(names)}
    (outdir / "synth.json").write_text(json.dumps(doc, indent=1) + "\n")
    (outdir / "synth.md").write_text(render_md(doc))
    return doc


def fmt_path(p):
    if not p:
        return "-"
    return (f"{p['arrival_ps']:.0f} ps, slack {p['slack_ps']:+.0f}: {p['start']} {p['from']} -> "
            f"{p['end']} {p['to']} ({p['depth']} cells)")


def render_md(doc):
    lines = [f"# Synthesis at `{doc['config']}` ({doc['clock_mhz']} MHz, "
             f"period {doc['period_ps']:.0f} ps)", "",
             "Generated by scripts/synth.py. Logic area in um^2 per liberty file (7 nm-class "
             "ASAP7 areas, 45 nm-class NanGate45 areas); SRAM macros priced by "
             "synth/sram_model.py at 22 nm (1R1W, as flint_sram). Timing: synth/sta.py, "
             "worst full-cycle path (flop/SRAM to flop/SRAM) with the 45 nm-class delays.", "",
             "| module | ok | flops | asap7 um^2 | nangate45 um^2 | SRAM macros | "
             "worst reg/SRAM path (45 nm-class) | worst path incl. ports (partial) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in doc["modules"]:
        if not r["ok"]:
            lines.append(f"| {r['module']} | **FAIL** | | | | | {r.get('error', '')} |")
            continue
        a, n = r["libs"]["asap7"], r["libs"]["nangate45"]
        srams = ", ".join(f"{s['inst'].split('.')[-1]} {s['depth']}x{s['width']} "
                          f"({s['area_mm2']:.4f} mm^2, {s['access_ns']:.2f} ns)"
                          for s in r["srams"]) or "-"
        lines.append(f"| {r['module']} | yes | {n['flops']} | {a['area_um2']:.1f} | "
                     f"{n['area_um2']:.1f} | {srams} | "
                     f"{fmt_path(n['timing']['worst_full_cycle'])} | "
                     f"{fmt_path(n['timing']['worst'])} |")
    lines.append("")
    for s in doc.get("not_synthesized", []):
        lines.append(f"- `{s['module']}` is not synthesized flat at this config: {s['reason']}.")
    for r in doc["modules"]:
        if r.get("glue_blocks"):
            lines.append(f"- `{r['module']}` is synthesized as glue: its own logic and SRAMs, "
                         f"with " + ", ".join(f"{n} x `{b}`" for b, n in r["glue_blocks"].items())
                         + " left as cells (each priced and timed in its own row; paths through "
                         "their pins are partial). `scripts/synth.py --flat` synthesizes it whole.")
    if doc.get("not_synthesized") or any(r.get("glue_blocks") for r in doc["modules"]):
        lines.append("")
    warn = [(r["module"], w) for r in doc["modules"] for w in r.get("warnings", [])]
    if warn:
        lines += ["Yosys warnings:", ""] + [f"- {m}: {w}" for m, w in warn] + [""]
    return "\n".join(lines) + "\n"


def reference_areas(lib):
    name = {"asap7": "cells-asap7-R-1x.txt", "nangate45": "cells-nangate45.txt"}[lib]
    out = {}
    for line in (REFERENCE / name).read_text().splitlines():
        parts = line.split()
        if len(parts) == 4 and not line.startswith("#"):
            out[parts[0]] = float(parts[3])
    return out


def check(doc, cfgd):
    """Everything --check asserts. Returns a list of failure messages."""
    fails = []
    if not doc["modules"]:
        fails.append("no RTL modules discovered")
    for r in doc["modules"]:
        m = r["module"]
        if not r["ok"]:
            fails.append(f"{m}: {r.get('error')}")
            continue
        # As make lint: a Yosys warning not listed as benign (YOSYS_BENIGN) is a failure.
        for w in r.get("warnings", []):
            fails.append(f"{m}: Yosys: {w}")
        for lib in LIBS:
            lr = r["libs"][lib]
            if lr["stat_area_um2"] is None:
                fails.append(f"{m} [{lib}]: no 'Chip area' in yosys stat")
            elif not math.isclose(lr["area_um2"], lr["stat_area_um2"], rel_tol=1e-4,
                                  abs_tol=1e-3):
                fails.append(f"{m} [{lib}]: our area {lr['area_um2']:.4f} != yosys stat "
                             f"{lr['stat_area_um2']:.4f}")
            if lr["area_um2"] <= 0 and not r["srams"]:
                fails.append(f"{m} [{lib}]: empty netlist")
        # A glue run: each block it leaves as a cell is really there (a renamed block would
        # silently be synthesized inside it again) and has a run of its own that prices it.
        done = {x["module"] for x in doc["modules"] if x["ok"]}
        for b, n in r.get("glue_blocks", {}).items():
            if n <= 0 or any(r["libs"][lib]["block_cells"].get(b, 0) != n for lib in LIBS):
                fails.append(f"{m}: glue block {b} is not a cell of the netlist")
            if b not in done and not doc.get("partial"):
                fails.append(f"{m}: glue block {b} has no synthesis run of its own")
        if r["sram_in_rtl"] and not r["srams"]:
            fails.append(f"{m}: its RTL instantiates flint_sram but the netlist has no macro")
        if not r["sram_in_rtl"] and r["srams"]:
            fails.append(f"{m}: SRAM macro in the netlist that the RTL does not instantiate")
    # Liberty files: fresh, and every area is the reference figure.
    for lib in LIBS:
        p = SYNTH / "lib" / gen_liberty.LIBS[lib]["file"]
        if not p.exists() or p.read_text() != gen_liberty.emit(lib):
            fails.append(f"{p.relative_to(ROOT)} is stale: rerun synth/lib/gen_liberty.py")
        ref = reference_areas(lib)
        for name, c in gen_liberty.cell_table(lib).items():
            if name not in ref:
                fails.append(f"{lib}: cell {name} not in the reference cell list")
            elif not math.isclose(ref[name], c["area"], rel_tol=1e-9):
                fails.append(f"{lib}: {name} area {c['area']} != reference {ref[name]}")
    # SRAM model: error bounds and out-of-table sanity.
    mdl = sram_model.model()
    summary = mdl.error_summary()
    for metric, bounds in sram_model.ERROR_BOUNDS.items():
        for group, (bmean, bmax) in bounds.items():
            n, mean, mx = summary[metric][group]
            if mean > bmean or mx > bmax:
                fails.append(f"SRAM model {metric} [{group}]: mean {mean:.1f}% / max "
                             f"{mx:.1f}% over {n} points exceeds the bound {bmean}% / {bmax}%")
    fails += [f"SRAM model sanity: {b}" for b in mdl.sanity()]
    # Queue model: analytic blocking against a seeded simulation.
    rho, k = 0.8, 8
    a, s = progq_sizing.md1k_blocking(rho, k), progq_sizing.simulate_md1k(rho, k, 100000, 7)
    if abs(a - s) > 0.15 * a + 1e-3:
        fails.append(f"M/D/1/K blocking {a:.4f} disagrees with simulation {s:.4f}")
    return fails
