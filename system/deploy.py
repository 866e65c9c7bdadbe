"""The paper's deployments on top of the step model: per-token time, per-GPU throughput, energy
per token, capacity feasibility, and the package count that meets the TPOT SLO.

Deployments (paper sections 3.1, 5, 6.1):
  hbm-ssd   one package; weights past the HBM the KV leaves free on a PCIe Gen5 x4 SSD
  hbm-only  min-fit: the fewest packages whose HBM holds the weights (model.min_fit_packages)
  oracle    capacity-lifted: HBM-only on one package with the capacity limit waived
  h3, flint one package, weights on its 8 HBF stacks at the measured useful bandwidth
  flint-r   FLINT with phantom-plane refresh: HBF time x (1 + measured steal), plus the
            phantom's program, scrub-read and erase energy
"""
from dataclasses import dataclass, field
import math

from system import model as sm

DEPLOYMENTS = ("hbm-ssd", "hbm-only", "oracle", "h3", "flint", "flint-r")
HBF_ENGINE = {"h3": "h3", "flint": "flint", "flint-r": "flint"}


@dataclass
class Cell:
    model: str
    deployment: str
    batch: int
    context: int
    packages: int
    step: sm.Step
    feasible: bool
    energy: dict = field(default_factory=dict)   # joules per token, by component
    hbf_how: str = ""                             # how the HBF point was found
    steal: float = 0.0

    @property
    def tpot_s(self):
        return self.step.tpot_s

    @property
    def tput_per_gpu(self):
        return self.batch / self.step.tpot_s / self.packages

    @property
    def energy_per_token(self):
        return sum(self.energy.values())


class System:
    def __init__(self, shapes, params, hbf_table, refresh, nand, steal_factor=1.0,
                 h3_engine="h3", skew=0.5, routing_steps=4):
        self.shapes = shapes
        self.p = params
        self.hbf = hbf_table
        self.refresh = refresh          # measured.refresh_steal()
        self.nand = nand                # measured.nand_config()
        self.steal_factor = steal_factor
        self.engine = dict(HBF_ENGINE, h3=h3_engine)
        self.steps = sm.StepModel(shapes, params, skew=skew, routing_steps=routing_steps)
        self.missing = set()
        self._cache = {}

    # ---- the HBF term -------------------------------------------------------------------
    def tr_scale(self, deployment, rec):
        """Projection of a measured fetch rate to the parameter set's tR (1 at the measured
        tR). Either controller senses a burst into the page buffers while the previous one
        leaves through the cache buffers, so the NAND gives at most a burst per max(tR, drain)
        a stack; H3 is also bound by its 2 LHB slots, each a sense then a drain."""
        t_meas = self.nand["t_read_s"]
        if abs(self.p.t_read_s - t_meas) < 1e-12:
            return 1.0
        burst, d2d = self.nand["burst_bytes"], self.nand["d2d_bps"]
        per_stack = rec["fetched_bps"] / self.p.hbf_stacks
        cap = burst / max(self.p.t_read_s, burst / d2d)
        if not deployment.startswith("flint"):
            cap = min(cap, 2 * burst / (self.p.t_read_s + burst / d2d))
        return min(1.0, cap / per_stack)

    def hbf_point(self, deployment, name, batch):
        rec, how = self.hbf.lookup(name, self.engine[deployment], batch)
        if rec is None:
            self.missing.add((name, self.engine[deployment]))
            return None, how
        scale = self.tr_scale(deployment, rec)
        if scale != 1.0:
            rec = dict(rec, useful_bps=rec["useful_bps"] * scale,
                       fetched_bps=rec["fetched_bps"] * scale)
            how += f", tR projection x{scale:.2f}"
        return rec, how

    # ---- one cell -------------------------------------------------------------------------
    def cell(self, name, deployment, batch, context, shards=None, replicas=1):
        key = (name, deployment, batch, context, shards, replicas)
        if key in self._cache:
            return self._cache[key]
        s, p = self.shapes[name], self.p
        how, steal, rec = "", 0.0, None
        if deployment == "hbm-only":
            S = shards or sm.min_fit_packages(s, p)
            st = self.steps.step(name, "hbm", batch, context, S)
            feasible = sm.kv_fits(s, p, batch, context, S, True)
        elif deployment == "oracle":
            S = shards or 1
            st = self.steps.step(name, "hbm", batch, context, S)
            feasible = True
        elif deployment == "hbm-ssd":
            S = 1
            kv = batch * context * s.kv_bytes_per_token
            room = max(0.0, p.hbm_bytes - kv)
            spill = max(0.0, 1.0 - room / s.weight_bytes)
            st = self.steps.step(name, "ssd", batch, context, 1, spill_fraction=spill)
            feasible = kv <= p.hbm_bytes
            st.notes.append(f"{spill:.0%} of the weights on the SSD")
        else:
            S = shards or 1
            rec, how = self.hbf_point(deployment, name, batch)
            if rec is None:
                self._cache[key] = None
                return None
            bps = rec["useful_bps"]
            if deployment == "flint-r":
                r = self.refresh.get(name)
                if r is None:
                    self.missing.add((name, "refresh"))
                    self._cache[key] = None
                    return None
                steal = r["stall_fraction"] * self.steal_factor
                bps = bps / (1.0 + steal)
            st = self.steps.step(name, "hbf", batch, context, S, hbf_bps=bps)
            feasible = sm.kv_fits(s, p, batch, context, S, False)
        c = Cell(name, deployment, batch, context, S * replicas, st, feasible, hbf_how=how,
                 steal=steal)
        c.energy = self.energy(c, rec)
        self._cache[key] = c
        return c

    # ---- energy per token (Table 2) -------------------------------------------------------
    def energy(self, c, rec):
        p, st = self.p, c.step
        bit = 8e-12    # pJ/bit -> J/byte
        e = {}
        e["gpu busy"] = st.busy_pkg_s * p.gpu_busy_w
        e["gpu sync"] = st.sync_pkg_s * p.gpu_sync_w
        e["gpu idle (ssd wait)"] = st.ssd_s * st.shards * p.gpu_idle_w
        e["alu"] = (st.weight_bytes * st.batch + st.kv_bytes) * p.alu_pj_per_byte * 1e-12
        hbm_bytes = st.kv_bytes
        if c.deployment in ("hbm-only", "oracle"):
            hbm_bytes += st.weight_bytes
        elif c.deployment == "hbm-ssd":
            hbm_bytes += st.weight_bytes - st.ssd_bytes
        e["hbm"] = hbm_bytes * p.hbm_pj_per_bit * bit
        e["nvlink"] = st.nvlink_bytes * p.nvlink_pj_per_bit * bit
        e["ssd"] = st.ssd_bytes * p.ssd_pj_per_bit * bit
        if rec is not None:
            fetched = st.weight_bytes / max(rec["useful_fraction"], 1e-9)
            e["hbf read"] = fetched * p.hbf_read_pj_per_bit * bit
            # FLINT sends the requested lines over D2D; H3 moves whole bursts into its LHB
            d2d = st.weight_bytes if c.deployment.startswith("flint") else fetched
            e["d2d"] = d2d * p.d2d_pj_per_bit * bit
        if c.deployment == "flint-r":
            r = self.refresh[c.model]
            dies = self.nand["dies"] * p.hbf_stacks * st.shards
            page = self.nand["page_bytes"]
            watts = dies * (r["prog_pages_per_s"] * page * p.hbf_prog_pj_per_bit * bit
                            + r["scrub_pages_per_s"] * page * p.hbf_read_pj_per_bit * bit
                            + r["erase_blocks_per_s"] * self.nand["erase_j_per_block"])
            e["refresh"] = watts * st.tpot_s
        return {k: v / st.batch for k, v in e.items()}

    # ---- packages for an SLO (Figs 4 and 12) ----------------------------------------------
    def shard_options(self, name, deployment):
        s = self.shapes[name]
        if deployment == "hbm-only":
            return [sm.min_fit_packages(s, self.p)]
        # experts split evenly (MoE), or query heads (dense; KV then split by sequence)
        unit = s.experts if s.experts else max(s.heads, 1)
        return [n for n in (1, 2, 4, 8, 16, 32, 64) if unit % n == 0]

    def best_for_slo(self, name, deployment, total_batch, context, max_packages=4096):
        """Fewest packages (replicas x shards) that serve `total_batch` users within the SLO,
        each replica taking ceil(total / replicas) users. Returns (packages, cell) or
        (None, None) if none does within max_packages."""
        best = (None, None)
        for S in self.shard_options(name, deployment):
            # TPOT falls as the per-replica batch falls: search the replica count
            found = None
            for R in range(1, total_batch + 1):
                b = math.ceil(total_batch / R)
                if R > 1 and b == math.ceil(total_batch / (R - 1)):
                    continue
                if R * S > max_packages:
                    break
                c = self.cell(name, deployment, b, context, shards=S)
                if c is None:
                    return (None, None)
                ok = c.tpot_s <= self.p.slo_tpot_s and (c.feasible or deployment == "oracle")
                if ok:
                    found = (R * S, c)
                    break
            if found and (best[0] is None or found[0] < best[0]):
                best = found
        return best

    def tpot_vs_packages(self, name, deployment, total_batch, context, counts):
        """Best per-user TPOT at each package count (replicas x shards = count)."""
        out = {}
        for n in counts:
            best = None
            for S in self.shard_options(name, deployment):
                if n % S:
                    continue
                R = n // S
                if R > total_batch:
                    continue
                c = self.cell(name, deployment, math.ceil(total_batch / R), context, shards=S)
                if c is None or not (c.feasible or deployment == "oracle"):
                    continue
                if best is None or c.tpot_s < best:
                    best = c.tpot_s
            out[n] = best
        return out
