"""Expert routing of a decode step, as the project's workload generator draws it.

Same distribution as sim/workload/workload_routing.hpp's ZipfRouter: expert of popularity rank r has
weight 1/(r+1)^skew, a token draws top_k distinct experts by successive weighted draws without
replacement, and the rank -> expert permutation differs per layer. The draws themselves are our
own (Python's random, seeded), so the numbers are the same distribution, not the same samples.

What the system model needs from it, per (model, batch, packages): per MoE layer and package,
the distinct experts a step reads there and the tokens routed there; averaged over `steps`.
Experts are placed on packages in contiguous id ranges (expert parallelism).
"""
import bisect
import random


def _cum_weights(experts, skew):
    cum, s = [], 0.0
    for r in range(experts):
        s += 1.0 / (r + 1) ** skew
        cum.append(s)
    return cum


def draw_token(rng, cum, top_k):
    """top_k distinct ranks by successive weighted draws (rejection of repeats)."""
    chosen = set()
    total = cum[-1]
    while len(chosen) < top_k:
        chosen.add(bisect.bisect_right(cum, rng.random() * total))
    return chosen


def package_load(experts, top_k, moe_layers, batch, packages, skew, steps=4, seed=1):
    """Per MoE layer (averaged over steps): list over packages of (distinct experts, routed
    tokens), and the mean distinct experts a layer reads in all. Returns
    (per_layer, mean_touched) with per_layer[l][p] = (experts_read, tokens)."""
    rng = random.Random(seed * 1000003 + batch * 101 + packages)
    cum = _cum_weights(experts, skew)
    per_layer = []
    touched_sum = 0.0
    for _ in range(moe_layers):
        perm = list(range(experts))
        rng.shuffle(perm)
        acc = [[0.0, 0.0] for _ in range(packages)]
        for _ in range(steps):
            counts = {}
            for _ in range(batch):
                for r in draw_token(rng, cum, top_k):
                    e = perm[r]
                    counts[e] = counts.get(e, 0) + 1
            touched_sum += len(counts)
            for e, n in counts.items():
                p = e * packages // experts
                acc[p][0] += 1
                acc[p][1] += n
        per_layer.append([(a / steps, t / steps) for a, t in acc])
    mean_touched = touched_sum / (steps * moe_layers) if moe_layers else 0.0
    return per_layer, mean_touched
