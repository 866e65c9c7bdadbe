"""Per-layer weight bytes, KV bytes and arithmetic of a model, from sim/workload/models.toml.

The tensors are the ones sim/workload/workload_model.cpp lays out (embedding, per layer the
attention projections, then the dense MLP or the router, shared experts and routed experts, LM head),
without its burst alignment: the system model counts bytes a step reads, not bursts.
"""
from dataclasses import dataclass, field
import pathlib
import tomllib

PREC_BYTES = {"bf16": 2.0, "fp8": 1.0, "fp4": 0.5}
ROOT = pathlib.Path(__file__).resolve().parent.parent
MODELS_TOML = ROOT / "sim" / "workload" / "models.toml"


@dataclass
class Layer:
    moe: bool
    attn_params: float        # attention projections
    dense_params: float       # dense MLP, or router + shared experts, read every step
    attn_bytes: float
    dense_bytes: float
    expert_params: float = 0  # one routed expert
    expert_bytes: float = 0


@dataclass
class Shape:
    name: str
    display: str
    hidden: int
    experts: int
    top_k: int
    heads: int
    kv_heads: int             # GQA only (0 otherwise); a dense model's TP must divide it
    embed_bytes: float
    head_bytes: float
    head_params: float
    kv_bytes_per_token: float  # all layers, one context position, at the given KV precision
    attn_flops_per_ctx: float  # all layers, one context position, one query token
    layers: list = field(default_factory=list)

    @property
    def weight_bytes(self):
        return self.embed_bytes + self.head_bytes + sum(
            l.attn_bytes + l.dense_bytes + self.experts * l.expert_bytes for l in self.layers)

    @property
    def params(self):
        return 2 * self.head_params + sum(
            l.attn_params + l.dense_params + self.experts * l.expert_params for l in self.layers)

    @property
    def active_params(self):
        return self.head_params + sum(
            l.attn_params + l.dense_params + self.top_k * l.expert_params for l in self.layers)

    def step_weight_bytes(self, experts_touched_per_layer):
        """Bytes one decode step reads with this many distinct experts per MoE layer (the
        embedding contributes only its gathered rows, counted as zero here)."""
        return self.head_bytes + sum(
            l.attn_bytes + l.dense_bytes + (experts_touched_per_layer * l.expert_bytes
                                            if l.moe else 0) for l in self.layers)


def _ffn(intermediate, hidden):
    return 3.0 * intermediate * hidden


def build(m, kv_bytes_per_elem=2.0):
    a, f, h = m["attention"], m["ffn"], m["hidden"]
    p, pe = PREC_BYTES[m["precision"]], PREC_BYTES[m["expert_precision"]]
    pr, pm = PREC_BYTES[m["router_precision"]], PREC_BYTES[m["embed_precision"]]
    kind = a["kind"]
    if kind == "gqa":
        attn = (a["heads"] * a["head_dim"] * h + 2 * a["kv_heads"] * a["head_dim"] * h
                + h * a["heads"] * a["head_dim"])
        kv_layer = 2 * a["kv_heads"] * a["head_dim"]
        attn_flops = 2.0 * 2 * a["heads"] * a["head_dim"]
    elif kind == "mla":
        attn = (a["q_lora_rank"] * h
                + a["heads"] * (a["qk_nope_head_dim"] + a["qk_rope_head_dim"]) * a["q_lora_rank"]
                + (a["kv_lora_rank"] + a["qk_rope_head_dim"]) * h
                + a["heads"] * (a["qk_nope_head_dim"] + a["v_head_dim"]) * a["kv_lora_rank"]
                + h * a["heads"] * a["v_head_dim"])
        kv_layer = a["kv_lora_rank"] + a["qk_rope_head_dim"]  # the latent and the rope key
        # absorbed MLA: scores over kv_lora + rope, values over kv_lora, per head
        attn_flops = 2.0 * a["heads"] * (2 * a["kv_lora_rank"] + a["qk_rope_head_dim"])
    elif kind == "dsv4":
        attn = (a["q_lora_rank"] * h + a["heads"] * a["head_dim"] * a["q_lora_rank"]
                + a["head_dim"] * h
                + a["o_groups"] * a["o_lora_rank"] * a["heads"] * a["head_dim"] // a["o_groups"]
                + h * a["o_groups"] * a["o_lora_rank"])
        kv_layer = a["head_dim"]  # one shared KV head (its compressed attention not modelled)
        attn_flops = 2.0 * 2 * a["heads"] * a["head_dim"]
    else:
        raise ValueError(f"{m['name']}: unknown attention kind {kind!r}")
    layers = []
    for l in range(m["layers"]):
        k = f["first_dense_layers"]
        step = f["moe_layer_step"]
        moe = f["experts"] > 0 and l >= k and (l - k) % step == step - 1
        if moe:
            router = f["experts"] * h
            shared = _ffn(f["shared_experts"] * f["shared_intermediate"], h)
            ex = _ffn(f["expert_intermediate"], h)
            layers.append(Layer(True, attn, router + shared, attn * p, router * pr + shared * p,
                                ex, ex * pe))
        else:
            d = _ffn(f["dense_intermediate"], h)
            layers.append(Layer(False, attn, d, attn * p, d * p))
    vocab = m["vocab"]
    return Shape(
        name=m["name"], display=m["display"], hidden=h, experts=f["experts"], top_k=f["top_k"],
        heads=a["heads"], kv_heads=a.get("kv_heads", 0),
        embed_bytes=vocab * h * pm, head_bytes=vocab * h * pm, head_params=vocab * h,
        kv_bytes_per_token=kv_layer * m["layers"] * kv_bytes_per_elem,
        attn_flops_per_ctx=attn_flops * m["layers"], layers=layers)


def load(path=MODELS_TOML, kv_bytes_per_elem=2.0, include_synthetic=False):
    with open(path, "rb") as fh:
        doc = tomllib.load(fh)
    out = {}
    for m in doc["models"]:
        if m.get("synthetic") and not include_synthetic:
            continue
        out[m["name"]] = build(m, kv_bytes_per_elem)
    return out
