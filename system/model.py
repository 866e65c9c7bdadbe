"""Per-token time and energy of a decode step for each deployment (paper sections 3.1, 5, 6.1).

One decode step advances `batch` users by one token at `context` tokens of KV cache. A replica
of the model is sharded over `shards` GPU packages: attention, dense MLP, shared experts, the
router and the LM head tensor-parallel (1/shards each), routed experts expert-parallel in
contiguous id ranges, KV cache split evenly. Per layer, each package's time is
compute (flops / (peak x MFU)) + memory; the layer ends at a barrier when the slowest package
arrives, then the layer's collectives run (exposed, not overlapped). So per token:

    time = sum over layers of (max over packages of (compute_p + memory_p) + communication)

split as compute (package mean), memory (package mean), synchronisation (max - mean) and
communication, which add up to the time (Fig 3). Memory of a package:
    HBM deployments:  (weight bytes + KV bytes) / (HBM peak x sustained)
    HBF deployments:  max(weight bytes / measured useful HBF bandwidth, KV bytes / HBM)
                      (weights stream over the HBF channel in parallel with the KV reads)
    HBM+SSD:          HBM part as above + spilled weight bytes / SSD + one SSD read latency
                      a layer (the spilled share of every tensor read comes from the SSD)
"""
from dataclasses import dataclass, field
import math

from system import routing

KINDS = ("hbm", "hbf", "ssd")


@dataclass
class Step:
    """One decode step of one replica."""
    tpot_s: float
    compute_s: float
    memory_s: float
    comm_s: float
    sync_s: float
    ssd_s: float = 0.0
    shards: int = 1
    batch: int = 1
    weight_bytes: float = 0.0     # weight bytes the step reads (all shards)
    kv_bytes: float = 0.0
    nvlink_bytes: float = 0.0
    ssd_bytes: float = 0.0
    busy_pkg_s: float = 0.0       # sum over packages of own-work time
    sync_pkg_s: float = 0.0       # sum over packages of barrier wait
    imbalance: float = 1.0        # busiest package's routed-expert bytes / mean, step mean
    traffic_spread: list = field(default_factory=list)  # each package's step bytes / mean - 1
    flops: float = 0.0
    notes: list = field(default_factory=list)


class StepModel:
    def __init__(self, shapes, params, skew=0.5, routing_steps=4, seed=1):
        self.shapes = shapes
        self.p = params
        self.skew = skew
        self.routing_steps = routing_steps
        self.seed = seed
        self._route = {}

    def route(self, shape, batch, shards):
        key = (shape.name, batch, shards)
        if key not in self._route:
            moe_layers = sum(1 for l in shape.layers if l.moe)
            if moe_layers == 0:
                self._route[key] = ([], 0)
            else:
                self._route[key] = routing.package_load(
                    shape.experts, shape.top_k, moe_layers, batch, shards, self.skew,
                    self.routing_steps, self.seed)
        return self._route[key]

    def step(self, name, kind, batch, context, shards=1, hbf_bps=None, spill_fraction=0.0):
        if kind not in KINDS:
            raise ValueError(kind)
        if kind == "hbf" and not hbf_bps:
            raise ValueError("an HBF deployment needs its measured bandwidth")
        s, p = self.shapes[name], self.p
        S = shards
        per_layer, _ = self.route(s, batch, S)
        kv_layer = s.kv_bytes_per_token / len(s.layers)
        attn_flops_layer = s.attn_flops_per_ctx / len(s.layers)
        act = batch * s.hidden * 2.0           # one BF16 activation vector per token
        out = Step(0, 0, 0, 0, 0, shards=S, batch=batch)
        imb_num = imb_den = 0.0
        moe_i = 0
        pkg_bytes = [0.0] * S

        def package_times(w_list, kv_p, flops_list):
            ts, comp, mem = [], 0.0, 0.0
            for w, f in zip(w_list, flops_list):
                c = f / p.eff_flops
                if kind == "hbf":
                    m = max(w / hbf_bps, kv_p / p.hbm_bps)
                elif kind == "ssd":
                    m = ((1 - spill_fraction) * w + kv_p) / p.hbm_bps
                else:
                    m = (w + kv_p) / p.hbm_bps
                ts.append(c + m)
                comp += c
                mem += m
            return ts, comp / len(ts), mem / len(ts)

        for layer in s.layers:
            shared_w = (layer.attn_bytes + layer.dense_bytes) / S
            shared_f = 2.0 * batch * (layer.attn_params + layer.dense_params) / S \
                + batch * context * attn_flops_layer / S
            kv_p = batch * context * kv_layer / S
            if layer.moe:
                load = per_layer[moe_i]
                moe_i += 1
                w_list = [shared_w + a * layer.expert_bytes for a, _ in load]
                f_list = [shared_f + 2.0 * t * layer.expert_params for _, t in load]
                ex = [a for a, _ in load]
                imb_num += max(ex)
                imb_den += sum(ex) / S
            else:
                w_list = [shared_w] * S
                f_list = [shared_f] * S
            ts, comp, mem = package_times(w_list, kv_p, f_list)
            for i, wb in enumerate(w_list):
                pkg_bytes[i] += wb + kv_p
            t_max = max(ts)
            out.compute_s += comp
            out.memory_s += mem
            out.sync_s += max(0.0, t_max - sum(ts) / S)   # no -0 from rounding
            out.busy_pkg_s += sum(ts)
            out.sync_pkg_s += sum(max(0.0, t_max - t) for t in ts)
            out.weight_bytes += sum(w_list)
            out.kv_bytes += kv_p * S
            out.flops += sum(f_list)
            if kind == "ssd":
                ssd_b = spill_fraction * sum(w_list)
                t_ssd = ssd_b / p.ssd_bps + (p.ssd_read_s if ssd_b > 0 else 0.0)
                out.ssd_s += t_ssd
                out.ssd_bytes += ssd_b
            if S > 1:
                frac = (S - 1) / S
                # all-reduce after attention (reduce-scatter + all-gather: two hops)
                c = 2 * frac * act / p.nvlink_bps + 2 * p.nvlink_hop_s
                nv = 2 * frac * act * S
                if layer.moe:   # token dispatch and combine, all-to-all, one hop each
                    a2a = frac * act * s.top_k
                    c += 2 * (a2a / p.nvlink_bps + p.nvlink_hop_s)
                    nv += 2 * a2a * S
                    if layer.dense_params > s.experts * s.hidden:  # shared experts' all-reduce
                        c += 2 * frac * act / p.nvlink_bps + 2 * p.nvlink_hop_s
                        nv += 2 * frac * act * S
                else:           # dense MLP's all-reduce
                    c += 2 * frac * act / p.nvlink_bps + 2 * p.nvlink_hop_s
                    nv += 2 * frac * act * S
                out.comm_s += c
                out.nvlink_bytes += nv
        # LM head, tensor-parallel and balanced
        w, f = s.head_bytes / S, 2.0 * batch * s.head_params / S
        ts, comp, mem = package_times([w] * S, 0.0, [f] * S)
        out.compute_s += comp
        out.memory_s += mem
        out.busy_pkg_s += sum(ts)
        out.weight_bytes += w * S
        out.flops += f * S
        if kind == "ssd":
            out.ssd_bytes += spill_fraction * s.head_bytes
            out.ssd_s += spill_fraction * s.head_bytes / p.ssd_bps + p.ssd_read_s
        out.imbalance = imb_num / imb_den if imb_den else 1.0
        mean_b = sum(pkg_bytes) / S
        out.traffic_spread = [b / mean_b - 1.0 if mean_b else 0.0 for b in pkg_bytes]
        out.tpot_s = out.compute_s + out.memory_s + out.sync_s + out.comm_s + out.ssd_s
        out.busy_pkg_s += out.comm_s * S
        return out


def min_fit_packages(shape, params):
    """Fewest packages whose HBM holds the weights with the KV reserve left on each, and that
    split the model evenly: a divisor of the routed experts (MoE) or of the KV heads (dense)."""
    override = dict(params.minfit_override)
    if shape.name in override:
        return override[shape.name]
    cap = params.hbm_bytes - params.kv_reserve_bytes
    n = max(1, math.ceil(shape.weight_bytes / cap))
    unit = shape.experts if shape.experts else max(shape.kv_heads, 1)
    while unit % n:
        n += 1
        if n > unit:
            raise ValueError(f"{shape.name}: no even split of {unit}")
    return n


def kv_fits(shape, params, batch, context, shards, weights_in_hbm):
    """KV of the replica's users plus the HBM-resident weights fit the shards' HBM."""
    kv = batch * context * shape.kv_bytes_per_token
    w = shape.weight_bytes if weights_in_hbm else 0.0
    return (w + kv) / shards <= params.hbm_bytes
