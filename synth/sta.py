"""First-order static timing of a Yosys-mapped netlist (write_json after dfflibmap + abc).

Why our own: ABC's delay report covers the combinational cloud only and knows nothing of the
SRAM macros, which are the question here ("is the lookup single-cycle?"). This walks the
mapped netlist with the same linear cell delays the liberty files carry (synth/lib/
gen_liberty.py cell_table): delay = d0 + k * load, load = sink pin caps + a wire cap per sink.

Startpoints: flop outputs (clk->Q), SRAM read data (the macro's access time from the SRAM
model, passed in), module inputs (arrival 0: a block's inputs are assumed to come straight
from a flop of the neighbour, so in->* paths miss that flop's clk->Q and are partial).
Endpoints: flop D (setup), SRAM inputs (same setup as a flop: an assumption, CACTI gives none),
module outputs (required at the period; partial paths). In a glue run (a module whose large
blocks stay cells, synth/yosys_flow.py GLUE) a block's output pins start paths and its input
pins end them like the module's own ports ("blk"): the block's side of such a path is timed in
the block's own run. Async clear/preset pins are not timed
(reset is a recovery/removal question, out of scope). No slews, no wire resistance, single
corner: an estimate to tell 0.3 ns from 3 ns, not sign-off.

High fanout: ABC maps without buffering, so an enable driving 300 flops would be one X1 gate
charging 500 fF. Placement tools insert buffer trees there; we model an ideal one: a net
whose load exceeds `tree_limit` unit loads costs the driver that limit plus
ceil(log4(load / limit)) buffer stages, each a buffer driving four buffers. Its area is not
added to the report (a few buffers per high-fanout net).
"""
import math

SRAM_TYPE = "flint_sram"
SRAM_OUTPUTS = {"rd_data_o"}


class StaError(Exception):
    pass


def _bit_names(mod):
    """bit -> readable name: public nets first, register names (_q) before port aliases."""
    names = {}

    def rank(kv):
        net, info = kv
        base = net.split("[")[0]
        return (info.get("hide_name", 0), 0 if base.endswith("_q") else 1, len(net), net)

    for net, info in sorted(mod.get("netnames", {}).items(), key=rank):
        bits = info["bits"]
        for i, b in enumerate(bits):
            if isinstance(b, int) and b not in names:
                names[b] = net if len(bits) == 1 else f"{net}[{i}]"
    return names


def analyse(mod, cells, period_ps, sram_access_ps, *, wire_ff, out_load_ff, sram_pin_ff,
            sram_setup_ps, tree_limit=8, top_paths=3, flop_names=None, blocks=()):
    """mod: one module of the Yosys JSON (flattened top). cells: gen_liberty.cell_table(lib).
    sram_access_ps(cell_name, params) -> access time. Returns a dict with the worst paths per
    category and overall."""
    names = _bit_names(mod)
    drivers = {}   # bit -> (kind, cell name, pin)
    sinks = {}     # bit -> list of (cell name, pin, cap)
    comb = {}      # cell name -> (lib cell, {pin: bits})
    flops = {}
    srams = {}
    unknown = set()
    for cname, c in mod.get("cells", {}).items():
        ctype = c["type"]
        conns = c["connections"]
        if ctype == SRAM_TYPE:
            srams[cname] = c
            for pin, bits in conns.items():
                out = pin in SRAM_OUTPUTS
                for b in bits:
                    if not isinstance(b, int):
                        continue
                    if out:
                        drivers[b] = ("sram", cname, pin)
                    else:
                        sinks.setdefault(b, []).append((cname, pin, sram_pin_ff))
            continue
        if ctype in blocks:
            # A block left as a cell (a glue run): its outputs start paths as a module's
            # inputs do, its inputs end them as a module's outputs do (partial paths).
            dirs = c.get("port_directions", {})
            for pin, bits in conns.items():
                if pin not in dirs:
                    raise StaError(f"{ctype}: pin {pin} without a direction")
                for b in bits:
                    if not isinstance(b, int):
                        continue
                    if dirs[pin] == "output":
                        drivers[b] = ("blk", cname, pin)
                    else:
                        sinks.setdefault(b, []).append(("<blk>", f"{cname}.{pin}", out_load_ff))
            continue
        lc = cells.get(ctype)
        if lc is None:
            unknown.add(ctype)
            continue
        for pin, bits in conns.items():
            for b in bits:
                if not isinstance(b, int):
                    continue
                if pin == lc["output"]:
                    drivers[b] = ("flop" if lc["seq"] else "comb", cname, pin)
                elif pin in lc["inputs"]:
                    sinks.setdefault(b, []).append((cname, pin, lc["inputs"][pin]))
                else:
                    raise StaError(f"{ctype}: pin {pin} not in the liberty table")
        (flops if lc["seq"] else comb)[cname] = (lc, conns)
    if unknown:
        raise StaError("cells not in the liberty: " + ", ".join(sorted(unknown)))
    for pname, p in mod.get("ports", {}).items():
        for b in p["bits"]:
            if not isinstance(b, int):
                continue
            if p["direction"] == "input":
                drivers.setdefault(b, ("in", pname, None))
            else:
                sinks.setdefault(b, []).append(("<out>", pname, out_load_ff))

    buf = next((c for c in cells.values() if c.get("kind") == "BUF"), None)
    if buf is None:
        raise StaError("liberty without a buffer cell")
    buf_in = next(iter(buf["inputs"].values()))
    unit = buf_in + wire_ff
    c_limit = tree_limit * unit
    stage_ps = buf["d0_ps"] + buf["k_ps_per_ff"] * 4 * unit

    def flop_name(cname):
        """A flop by its register name; an inverted-output flop (ASAP7 QN) is named after the
        net its output inverter drives, which carries the RTL name."""
        lc, conns = flops[cname]
        q = [x for x in conns.get(lc["output"], []) if isinstance(x, int)]
        if flop_names and cname in flop_names:
            return flop_names[cname]
        if not q:
            return cname
        b = q[0]
        if b in names and not names[b].startswith("$"):
            return names[b]
        for c2, _, _ in sinks.get(b, []):
            if c2 in comb and comb[c2][0].get("kind") == "INV":
                ob = [x for x in comb[c2][1].get("Y", []) if isinstance(x, int)]
                if ob and ob[0] in names and not names[ob[0]].startswith("$"):
                    return names[ob[0]]
        return names.get(b, cname)

    def load(b):
        s = sinks.get(b, [])
        return sum(cap for _, _, cap in s) + wire_ff * len(s)

    def net_delay(lc, b):
        c = load(b)
        if c <= c_limit:
            return lc["d0_ps"] + lc["k_ps_per_ff"] * c
        stages = math.ceil(math.log(c / c_limit, 4))
        return lc["d0_ps"] + lc["k_ps_per_ff"] * c_limit + stages * stage_ps

    # Start points: every driver that is not a combinational cell.
    starts = {}    # bit -> (arrival ps, start description, cell name)
    for b, (kind, cname, pin) in drivers.items():
        if kind == "in":
            starts[b] = (0.0, ("in", names.get(b, cname)), None)
        elif kind == "blk":
            starts[b] = (0.0, ("blk", f"{cname}.{pin}"), None)
        elif kind == "flop":
            starts[b] = (net_delay(flops[cname][0], b), ("reg", flop_name(cname)), cname)
        elif kind == "sram":
            starts[b] = (sram_access_ps(cname, srams[cname].get("parameters", {})),
                         ("sram", cname + "." + pin), cname)

    # Topological order of the combinational cells (Kahn).
    out_bit = {}
    pending = {}
    users = {}
    for cname, (lc, conns) in comb.items():
        obits = conns.get(lc["output"], [])
        if len(obits) != 1 or not isinstance(obits[0], int):
            out_bit[cname] = None
        else:
            out_bit[cname] = obits[0]
        ins = [b for pin in lc["inputs"] for b in conns.get(pin, []) if isinstance(b, int)]
        need = [b for b in ins if b in drivers and drivers[b][0] == "comb"]
        pending[cname] = len(need)
        for b in need:
            users.setdefault(b, []).append(cname)
    ready = [c for c, n in pending.items() if n == 0]
    order = []
    while ready:
        cname = ready.pop()
        order.append(cname)
        ob = out_bit[cname]
        if ob is None:
            continue
        for u in users.get(ob, []):
            pending[u] -= 1
            if pending[u] == 0:
                ready.append(u)
    if len(order) != len(comb):
        raise StaError(f"combinational loop: {len(comb) - len(order)} cells never became ready")

    def propagate(sources):
        """Latest arrival at every bit reached from `sources` (bit -> (ps, start, cell)), and
        for each the bit it came through (prev), in one walk of the topological order."""
        arrival = {b: a for b, (a, _, _) in sources.items()}
        prev = {b: (None, start, cname) for b, (_, start, cname) in sources.items()}
        for cname in order:
            lc, conns = comb[cname]
            best, best_in = None, None
            for pin in lc["inputs"]:
                for b in conns.get(pin, []):
                    if isinstance(b, int) and b in arrival and (best is None or arrival[b] > best):
                        best, best_in = arrival[b], b
            ob = out_bit[cname]
            if ob is None or best is None:
                continue
            arrival[ob] = best + net_delay(lc, ob)
            prev[ob] = (best_in, None, cname)
        return arrival, prev

    def endpoints(arrival, prev):
        def trace(b):
            cells_on_path = []
            while True:
                pb, start, cname = prev[b]
                if cname and drivers.get(b, ("",))[0] == "comb":
                    cells_on_path.append(comb[cname][0]["name"])
                if pb is None:
                    return start, list(reversed(cells_on_path))
                b = pb

        found = []
        for b, lst in sinks.items():
            if b not in arrival:
                continue
            for cname, pin, _ in lst:
                if cname == "<out>":
                    end, req = ("out", names.get(b, pin)), period_ps
                elif cname == "<blk>":
                    end, req = ("blk", pin), period_ps
                elif cname in flops:
                    lc = flops[cname][0]
                    if pin != "D":
                        continue
                    end = ("reg", flop_name(cname))
                    req = period_ps - lc["setup_ps"]
                elif cname in srams:
                    end = ("sram", f"{cname}.{pin}")
                    req = period_ps - sram_setup_ps
                else:
                    continue
                start, via = trace(b)
                found.append({"start": start[0], "from": start[1], "end": end[0], "to": end[1],
                              "arrival_ps": round(arrival[b], 1), "required_ps": round(req, 1),
                              "slack_ps": round(req - arrival[b], 1), "depth": len(via),
                              "cells": via})
        found.sort(key=lambda p: p["slack_ps"])
        return found

    paths = endpoints(*propagate(starts))
    cats = {}
    for p in paths:
        cats.setdefault(f"{p['start']}->{p['end']}", [])
        if len(cats[f"{p['start']}->{p['end']}"]) < top_paths:
            cats[f"{p['start']}->{p['end']}"].append(p)
    full = [p for p in paths if p["start"] in ("reg", "sram") and p["end"] in ("reg", "sram")]
    # Each macro's worst path on its own: the walk above keeps one (the latest) start per bit,
    # so a macro whose read data meets a later signal (another macro, a deep flop path) would
    # own no endpoint there, and its logic would read as none. One walk from its pins alone.
    by_sram = {}
    for cname in sorted(srams):
        mine = {b: v for b, v in starts.items() if v[2] == cname and v[1][0] == "sram"}
        own = endpoints(*propagate(mine)) if mine else []
        if own:
            by_sram[cname] = own[0]
    named = {}
    for cname in flops:
        n = flop_name(cname)
        if not n.startswith("$"):
            named[cname] = n
    return {
        "flop_names": named,
        "by_sram": by_sram,
        "period_ps": period_ps,
        "worst": paths[0] if paths else None,
        "worst_full_cycle": full[0] if full else None,
        "by_category": cats,
        "endpoints": len(paths),
    }

