"""Runs the system model over the paper's grid and collects every figure the report needs."""
import statistics

from system import deploy, lifetime, measured, shapes as SH

MODELS = ["llama-4-maverick", "qwen3-235b-a22b", "deepseek-v4-pro", "llama-3.1-405b", "kimi-k2",
          "deepseek-v3"]    # the paper's order (Fig 3)
BATCHES = [1, 4, 16, 64]
CONTEXTS = [2048, 8192, 32768, 131072]
CTX = 131072
PE_BUDGETS = [1e5, 1e6, 1e7]


def make_system(prm, hbf_source="paper-queue", h3_engine="h3", rtl_steal=True):
    shapes = SH.load(kv_bytes_per_elem=prm.kv_bytes_per_elem)
    table = measured.HbfTable.load(measured.HBF_SOURCES[hbf_source])
    factor = measured.rtl_steal_factor() if rtl_steal else 1.0
    return deploy.System(shapes, prm, table, measured.refresh_steal(), measured.nand_config(),
                         steal_factor=factor or 1.0, h3_engine=h3_engine,
                         skew=_skew(table)), factor


def _skew(table):
    import json
    runs = json.loads(table.path.read_text())
    skews = {r.get("skew", 0.5) for r in runs}
    return skews.pop() if len(skews) == 1 else 0.5


def mean(xs):
    xs = [x for x in xs if x is not None]
    return statistics.fmean(xs) if xs else None


def headline(sy, models=MODELS, batches=BATCHES, ctx=CTX, slo=True):
    """The abstract's numbers: FLINT against each baseline, mean over model x batch at ctx."""
    out = {}
    for base, key in (("hbm-ssd", "hbm_ssd"), ("hbm-only", "hbm_only"), ("h3", "h3")):
        t, t_ok, e = [], [], []
        for m in models:
            for b in batches:
                f, c = sy.cell(m, "flint", b, ctx), sy.cell(m, base, b, ctx)
                if f is None or c is None:
                    continue
                t.append(f.tput_per_gpu / c.tput_per_gpu)
                if c.feasible and f.feasible:
                    t_ok.append(t[-1])
                e.append(c.energy_per_token / f.energy_per_token)
        out[f"throughput_vs_{key}"] = (mean(t), min(t, default=None), max(t, default=None),
                                       mean(t_ok))
        out[f"energy_vs_{key}"] = (mean(e), min(e, default=None), max(e, default=None), None)
    if slo:
        r = []
        for m in models:
            for b in batches:
                a, _ = sy.best_for_slo(m, "hbm-only", b, ctx)
                f, _ = sy.best_for_slo(m, "flint", b, ctx)
                if a and f:
                    r.append(a / f)
        out["packages_vs_hbm_only"] = (mean(r), min(r, default=None), max(r, default=None), None)
    return out


def grid(sy, models=MODELS, batches=BATCHES, contexts=CONTEXTS):
    return {(m, d, b, c): sy.cell(m, d, b, c) for m in models for d in deploy.DEPLOYMENTS
            for b in batches for c in contexts}


def slo_table(sy, models=MODELS, batches=BATCHES, ctx=CTX):
    return {(m, d, b): sy.best_for_slo(m, d, b, ctx)[0] for m in models
            for d in ("hbm-only", "oracle", "h3", "flint") for b in batches}


def life(sy, prm, hbf_table):
    dist = measured.disturb()
    nand = measured.nand_config()
    spread, pool = {}, {}
    for name, d in dist.items():
        nf = lifetime.pool_wear(nand["blocks"], d["live_blocks"], nand["planes"] + 1)
        ff = lifetime.pool_wear(nand["blocks"], d["live_blocks"], nand["planes"] + 1,
                                policy="first-fit")
        spread[name] = nf[0]
        pool[name] = {"next-fit": nf, "first-fit": ff}
    refetch = {}
    for name, d in dist.items():
        mult = {"floor": 1.0}
        for eng in ("flint", "h3"):
            rec, how = hbf_table.lookup(name, eng, d["batch"])
            if rec is not None:
                mult[eng] = 1.0 / max(1e-9, 1.0 - rec["refetch_share"])
        refetch[name] = mult
    rows = lifetime.lifetimes(dist, refetch, nand, PE_BUDGETS, prm.decode_rate_tok_s, spread)
    return rows, pool
