#!/usr/bin/env python3
"""sim/workload/models.toml -> a C++ table of model shapes (gen/flint_models.inc).

The TOML file is the one source of truth; this script checks every entry strictly (no missing
or unknown key, positive sizes, shapes that fit together) and writes the body of a function
that sim/workload/workload_model.cpp compiles in. Standard library only.
Usage: gen_models.py --models sim/workload/models.toml --out build/gen/flint_models.inc
"""
import argparse
import pathlib
import sys
import tomllib

PRECISIONS = {"bf16": "kBf16", "fp8": "kFp8", "fp4": "kFp4"}
ATTENTION = {
    "gqa": ["heads", "kv_heads", "head_dim"],
    "mla": ["heads", "q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim",
            "v_head_dim"],
    "dsv4": ["heads", "head_dim", "q_lora_rank", "o_groups", "o_lora_rank"],
}
ATTENTION_CPP = {"gqa": "kGqa", "mla": "kMla", "dsv4": "kDsv4"}
ALL_ATTENTION_KEYS = sorted({k for keys in ATTENTION.values() for k in keys})
TOP_INT = ["layers", "hidden", "vocab"]
TOP_PREC = ["precision", "expert_precision", "router_precision", "embed_precision"]
TOP_FLOAT = ["published_params_b", "published_active_b"]
TOP_STR = ["name", "display", "notes"]
TOP_LIST = ["sources", "assumed"]
TOP_KEYS = set(TOP_INT + TOP_PREC + TOP_FLOAT + TOP_STR + TOP_LIST + ["synthetic", "attention",
                                                                     "ffn"])
FFN_KEYS = ["dense_intermediate", "experts", "first_dense_layers", "moe_layer_step", "top_k",
            "shared_experts", "expert_intermediate", "shared_intermediate"]


class ModelError(Exception):
    pass


def need_int(where, key, val, minimum=0):
    if not isinstance(val, int) or isinstance(val, bool) or val < minimum:
        raise ModelError(f"{where}: {key} = {val!r} must be an integer >= {minimum}")
    return val


def check(m, index):
    where = f"models[{index}] ({m.get('name', '?')})"
    missing = TOP_KEYS - set(m)
    extra = set(m) - TOP_KEYS
    if missing:
        raise ModelError(f"{where}: missing key(s): {', '.join(sorted(missing))}")
    if extra:
        raise ModelError(f"{where}: unknown key(s): {', '.join(sorted(extra))}")
    for key in TOP_STR:
        if not isinstance(m[key], str):
            raise ModelError(f"{where}: {key} must be a string")
    if not m["name"] or any(c not in "abcdefghijklmnopqrstuvwxyz0123456789.-" for c in m["name"]):
        raise ModelError(f"{where}: name must be lower-case letters, digits, '.' and '-'")
    for key in TOP_LIST:
        if not isinstance(m[key], list) or not all(isinstance(s, str) for s in m[key]):
            raise ModelError(f"{where}: {key} must be a list of strings")
    if not isinstance(m["synthetic"], bool):
        raise ModelError(f"{where}: synthetic must be true or false")
    if not m["synthetic"] and not m["sources"]:
        raise ModelError(f"{where}: a public model needs at least one source")
    for key in TOP_INT:
        need_int(where, key, m[key], 1)
    for key in TOP_PREC:
        if m[key] not in PRECISIONS:
            raise ModelError(f"{where}: {key} = {m[key]!r}, expected one of {sorted(PRECISIONS)}")
    for key in TOP_FLOAT:
        if not isinstance(m[key], (int, float)) or m[key] < 0:
            raise ModelError(f"{where}: {key} must be a number >= 0")

    att = m["attention"]
    if not isinstance(att, dict) or att.get("kind") not in ATTENTION:
        raise ModelError(f"{where}: attention.kind must be one of {sorted(ATTENTION)}")
    keys = ATTENTION[att["kind"]]
    extra = set(att) - set(keys) - {"kind"}
    if extra:
        raise ModelError(
            f"{where}: attention kind {att['kind']!r} takes no {', '.join(sorted(extra))}")
    for key in keys:
        if key not in att:
            raise ModelError(f"{where}: attention lacks {key}")
        need_int(where, f"attention.{key}", att[key], 1)
    if att["kind"] == "gqa" and att["heads"] % att["kv_heads"]:
        raise ModelError(f"{where}: heads must be a multiple of kv_heads")
    if att["kind"] == "dsv4" and att["heads"] % att["o_groups"]:
        raise ModelError(f"{where}: heads must be a multiple of o_groups")

    ffn = m["ffn"]
    if not isinstance(ffn, dict):
        raise ModelError(f"{where}: missing table [models.ffn]")
    extra = set(ffn) - set(FFN_KEYS)
    if extra:
        raise ModelError(f"{where}: unknown key(s) in ffn: {', '.join(sorted(extra))}")
    for key in FFN_KEYS:
        if key not in ffn:
            raise ModelError(f"{where}: ffn lacks {key}")
        need_int(where, f"ffn.{key}", ffn[key], 1 if key == "moe_layer_step" else 0)
    layers = m["layers"]
    if ffn["experts"] == 0:
        if ffn["first_dense_layers"] != layers:
            raise ModelError(f"{where}: a dense model has first_dense_layers == layers")
        for key in ["top_k", "shared_experts", "expert_intermediate", "shared_intermediate"]:
            if ffn[key]:
                raise ModelError(f"{where}: a dense model has {key} = 0")
    else:
        if not 1 <= ffn["top_k"] <= ffn["experts"]:
            raise ModelError(f"{where}: top_k must be in 1..experts")
        if ffn["expert_intermediate"] < 1:
            raise ModelError(f"{where}: expert_intermediate must be >= 1")
        if (ffn["shared_experts"] > 0) != (ffn["shared_intermediate"] > 0):
            raise ModelError(f"{where}: shared_experts and shared_intermediate go together")
        if ffn["first_dense_layers"] >= layers:
            raise ModelError(f"{where}: first_dense_layers must leave MoE layers")
    dense_layers = [l for l in range(layers) if not is_moe(m, l)]
    if dense_layers and ffn["dense_intermediate"] < 1:
        raise ModelError(
            f"{where}: layers {dense_layers[:4]}... are dense but dense_intermediate = 0")
    if ffn["experts"] and not any(is_moe(m, l) for l in range(layers)):
        raise ModelError(f"{where}: no layer is MoE with this first_dense_layers/moe_layer_step")


def is_moe(m, layer):
    f = m["ffn"]
    if f["experts"] == 0 or layer < f["first_dense_layers"]:
        return False
    return (layer - f["first_dense_layers"]) % f["moe_layer_step"] == f["moe_layer_step"] - 1


def cstr(s):
    out = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{out}"'


def emit(models):
    lines = ["// Generated by sim/workload/gen_models.py from sim/workload/models.toml. "
             "Do not edit.",
             "// Body of AddGeneratedModels(std::vector<ModelShape>* out).", ""]
    for m in models:
        att, ffn = m["attention"], m["ffn"]
        lines.append("{")
        lines.append("  ModelShape s;")
        for key in TOP_STR:
            lines.append(f"  s.{key} = {cstr(m[key])};")
        lines.append(f"  s.synthetic = {'true' if m['synthetic'] else 'false'};")
        for key in TOP_LIST:
            for item in m[key]:
                lines.append(f"  s.{key}.push_back({cstr(item)});")
        for key in TOP_INT:
            lines.append(f"  s.{key} = {m[key]}ULL;")
        for key in TOP_PREC:
            lines.append(f"  s.{key} = Precision::{PRECISIONS[m[key]]};")
        for key in TOP_FLOAT:
            lines.append(f"  s.{key} = {float(m[key])!r};")
        lines.append(f"  s.attention = AttentionKind::{ATTENTION_CPP[att['kind']]};")
        for key in ALL_ATTENTION_KEYS:
            lines.append(f"  s.{key} = {att.get(key, 0)}ULL;")
        for key in FFN_KEYS:
            lines.append(f"  s.{key} = {ffn[key]}ULL;")
        lines.append("  out->push_back(std::move(s));")
        lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", required=True, type=pathlib.Path)
    ap.add_argument("--out", required=True, type=pathlib.Path)
    args = ap.parse_args()
    try:
        with open(args.models, "rb") as f:
            doc = tomllib.load(f)
        if set(doc) != {"models"} or not isinstance(doc["models"], list) or not doc["models"]:
            raise ModelError("the file must hold only a non-empty [[models]] array")
        names = set()
        for i, m in enumerate(doc["models"]):
            if not isinstance(m, dict):
                raise ModelError(f"models[{i}] is not a table")
            check(m, i)
            if m["name"] in names:
                raise ModelError(f"models[{i}]: duplicate name {m['name']!r}")
            names.add(m["name"])
    except (OSError, tomllib.TOMLDecodeError, ModelError) as e:
        print(f"gen_models.py: {args.models}: {e}", file=sys.stderr)
        return 1
    text = emit(doc["models"])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if not args.out.exists() or args.out.read_text() != text:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
