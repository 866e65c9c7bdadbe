"""The measured inputs, read at run time from the project's own result files.

- HBF bandwidth per (model, batch, engine): docs/results.json (the paper's cache request
  queue), written by `make results` (flint-eval: one decode step of stack 0 of 8 through FLINT's
  BBC model and H3 on the same NAND dies); `python3 -m system --compare FILE` adds a second.
  A package's useful weight bandwidth = a stack's useful_gbps x stacks (block striping spreads
  every tensor over all 8 stacks alike).
- Refresh cost: docs/progq_demand.json (the stealing scrubber's foreground stall and the
  phantom's program, scrub-read and erase rates, one die at saturation) and the RTL steal's
  cost in burst periods, from docs/refresh.md.
- Disturb and rotation: docs/refresh_cost.json (hottest block's senses over back-to-back steps
  without refresh, live blocks a plane) and configs/paper.toml.
Nothing here is a copied number: a missing file or point is reported, never invented.
"""
import hashlib
import json
import math
import pathlib
import re
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
HBF_SOURCES = {"paper-queue": DOCS / "results.json"}


class MissingInput(Exception):
    pass


def rel(path):
    """A path as the report shows it: relative to the repository when inside it."""
    p = pathlib.Path(path).resolve()
    try:
        return str(p.relative_to(ROOT))
    except ValueError:
        return str(p)


def file_id(path):
    """Short content hash of an input, for the provenance table."""
    p = pathlib.Path(path)
    if not p.exists():
        return "missing"
    return hashlib.sha256(p.read_bytes()).hexdigest()[:12]


class HbfTable:
    """Useful HBF bandwidth (bytes/s for a whole package) per (model, engine, batch)."""

    def __init__(self, runs, source="?"):
        self.source = source
        self.points = {}   # (model, engine) -> {batch: record}
        self.commits = set()
        for r in runs:
            stacks = r.get("stacks", 8)
            self.commits.add(r.get("commit", "?"))
            for e in r["results"]:
                rec = {
                    "useful_bps": e["useful_gbps"] * 1e9 * stacks,
                    "fetched_bps": e["fetched_gbps"] * 1e9 * stacks,
                    "useful_fraction": e["useful_fraction"],
                    "refetch_share": e["refetch_share"],
                    "step_s": e["cycles"] * 1e-9,   # paper clock: 1 GHz
                    "useful_bytes": e["useful_bytes"] * stacks,
                    "fetched_bytes": e["fetched_bytes"] * stacks,
                }
                self.points.setdefault((r["model"], e["engine"]), {})[r["batch"]] = rec

    @classmethod
    def load(cls, path):
        path = pathlib.Path(path)
        if not path.exists():
            raise MissingInput(f"{path} not found: run `make results` first")
        t = cls(json.loads(path.read_text()), rel(path))
        t.path = path
        return t

    def engines(self):
        return sorted({e for _, e in self.points})

    def lookup(self, model, engine, batch):
        """(record, how): the measured point, or a log-batch interpolation between the two
        measured batches around it, or the nearest measured batch outside them ('how' names
        which, so the report can mark it). None if the model was never measured."""
        pts = self.points.get((model, engine))
        if not pts:
            return None, "missing"
        if batch in pts:
            return pts[batch], "measured"
        bs = sorted(pts)
        lo = [b for b in bs if b < batch]
        hi = [b for b in bs if b > batch]
        if lo and hi:
            b0, b1 = lo[-1], hi[0]
            w = (math.log(batch) - math.log(b0)) / (math.log(b1) - math.log(b0))
            r0, r1 = pts[b0], pts[b1]
            rec = {k: r0[k] + w * (r1[k] - r0[k]) for k in r0}
            return rec, f"interpolated {b0}-{b1}"
        near = lo[-1] if lo else hi[0]
        return pts[near], f"batch {near} (nearest measured)"


def refresh_steal(path=DOCS / "progq_demand.json", queue_pages=2, idle_fraction=0.0):
    """Per model: stall fraction of the stealing scrubber at saturation and the phantom's
    per-die rates (pages programmed, pages scrub-read, blocks erased per second)."""
    path = pathlib.Path(path)
    if not path.exists():
        raise MissingInput(f"{path} not found: run `make progq-demand` first")
    doc = json.loads(path.read_text())
    out = {}
    for s in doc["sweep"]:
        if (s["scrub"] == "steal" and s["queue_pages"] == queue_pages
                and abs(s["idle_fraction"] - idle_fraction) < 1e-9):
            t = s["simulated_s"]
            out[s["model"]] = {
                "stall_fraction": s["stall_fraction"],
                "prog_pages_per_s": s["programmed"] / t,
                "scrub_pages_per_s": (s["scrubbed_idle"] + s["scrubbed_stolen"]) / t,
                "erase_blocks_per_s": s["copies"] * s["live_blocks"] / t,
                "keeps_up": s["max_count_over_limit"] < 1.0,
            }
    if not out:
        raise MissingInput(f"{path}: no steal run at {queue_pages} pages, idle {idle_fraction}")
    return out


def rtl_steal_factor(path=DOCS / "refresh.md"):
    """The RTL's steal in burst periods (the transaction model charges one)."""
    path = pathlib.Path(path)
    text = path.read_text() if path.exists() else ""
    m = re.search(r"A steal at \S+ costs [\d.]+ cycles of foreground time,"
                  r"\s+([\d.]+) burst periods", text)
    if not m:
        return None
    return float(m.group(1))


def disturb(path=DOCS / "refresh_cost.json"):
    """Per model at batch 1: hottest block's senses per decode step (no refresh, every needed
    burst sensed once, interleaved placement) and live blocks a plane."""
    path = pathlib.Path(path)
    if not path.exists():
        raise MissingInput(f"{path} not found: run `make refresh-cost` first")
    doc = json.loads(path.read_text())
    out = {}
    for m in doc["models"]:
        none = m["modes"]["none"]
        out[m["model"]] = {
            "senses_per_step": none["max_block_count"] / m["steps"],
            "live_blocks": m["live_blocks"],
            "step_s": m["step_ms"] * 1e-3,
            "batch": doc.get("batch", 1),
            "disturb_limit": doc["disturb_limit"],
        }
    return out


def nand_config(path=ROOT / "configs" / "paper.toml"):
    with open(path, "rb") as fh:
        c = tomllib.load(fh)
    g, t, port = c["geometry"], c["timing"], c["port"]
    clk = port["clock_mhz"] * 1e6
    burst = g["dies"] * g["planes"] * g["page_bytes"]
    return {
        "dies": g["dies"], "planes": g["planes"], "blocks": g["blocks"], "pages": g["pages"],
        "page_bytes": g["page_bytes"], "burst_bytes": burst,
        "t_read_s": t["t_read_cycles"] / clk, "t_prog_s": t["t_prog_cycles"] / clk,
        "t_erase_s": t["t_erase_cycles"] / clk,
        "d2d_bps": port["lanes"] * g["cl_bytes"] * clk,
        "disturb_limit": c["reliability"]["disturb_limit"],
        "pe_limit": c["reliability"]["pe_limit"],
        "erase_j_per_block": c["energy"]["erase_nj_per_block"] * 1e-9,
        "read_pj_per_bit": c["energy"]["read_pj_per_bit"],
        "prog_pj_per_bit": c["energy"]["prog_pj_per_bit"],
    }
