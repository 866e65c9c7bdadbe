"""Lifetime of the always-on block (paper section 6.2, Fig 14) and the wear spread of the
free-block pool's allocation policy.

Inputs (measured, read at run time): the hottest block's senses per decode step at batch 1
(docs/refresh_cost.json, interleaved placement, every needed burst sensed once), live blocks a
plane, the re-fetch multipliers of FLINT and H3 (docs/results*.json: bursts fetched over
distinct bursts, 1 / (1 - re-fetch share)), and the geometry and timing of configs/paper.toml.

A logical block is erased once each time it is refreshed. Two refresh policies:
  - when due: the read counter trips at DISTURB senses, so a refresh every
    DISTURB / (senses a token) tokens; coalescing matters here (a re-fetch is another sense);
  - as built: the phantom rotation copies every live block once a pass,
    pass = (PLANES+1) x live blocks x PAGES x tPROG, whatever the read rate, or sooner where the
    block's reads (with FLINT's re-fetch) trip its counter first (the counters are the backstop).
Every copy lands on a different physical block (the free-block pool), so a physical block wears
at (its erases a pass) = spread x (live / BLOCKS) of the logical rate; `pool_wear` simulates the
relocation table's next-fit allocation (docs/ftl.md) against first-fit to get that spread.
"""


def pool_wear(blocks, live, planes_phys, passes=40, policy="next-fit"):
    """Erase counts of every physical block of one die after `passes` rotation passes.
    Returns (max erases a pass of any block, max / mean over blocks ever erased, fraction of
    blocks ever erased)."""
    free = [[True] * blocks for _ in range(planes_phys)]
    for pl in range(planes_phys - 1):
        for b in range(live):
            free[pl][b] = False
    erases = [[0] * blocks for _ in range(planes_phys)]
    phantom = planes_phys - 1
    cursor = 0
    for _ in range(passes * planes_phys):
        src = (phantom + 1) % planes_phys
        mapped = [b for b in range(blocks) if not free[src][b]]
        start = cursor if policy == "next-fit" else 0
        for _ in mapped:
            for k in range(blocks):
                b = (start + k) % blocks
                if free[phantom][b]:
                    free[phantom][b] = False
                    start = b + 1
                    break
            else:
                raise RuntimeError("phantom plane full")
        if policy == "next-fit":
            cursor = start % blocks
        for b in mapped:
            free[src][b] = True
            erases[src][b] += 1
        phantom = src
    flat = [e for row in erases for e in row]
    used = [e for e in flat if e > 0]
    mean = sum(used) / len(used)
    return max(flat) / passes, max(flat) / mean, len(used) / len(flat)


def lifetimes(disturb, refetch, nand, pe_budgets, rate_tok_s, policy_spread):
    """Per model: tokens and days (at rate_tok_s) until the always-on block wears out.
    refetch[model] = {"floor": 1, "flint": x, "h3": y} (senses multipliers)."""
    out = {}
    for name, d in disturb.items():
        live = d["live_blocks"]
        pass_s = (nand["planes"] + 1) * live * nand["pages"] * nand["t_prog_s"]
        per_pass = policy_spread[name]          # physical erases a pass of the worst block
        row = {"pass_s": pass_s, "senses_per_token": d["senses_per_step"], "per_pass": per_pass,
               "corrupt_s": {}, "due": {}, "built": {}}
        for who, mult in refetch.get(name, {}).items():
            spt = d["senses_per_step"] * mult
            row["corrupt_s"][who] = nand["disturb_limit"] / spt / rate_tok_s
            tokens_per_refresh = nand["disturb_limit"] / spt
            # a physical block takes per_pass of its logical block's erases
            phys = per_pass / 1.0
            row["due"][who] = {pe: pe * tokens_per_refresh / phys for pe in pe_budgets}
        # as built: once a pass, or sooner where FLINT's reads trip the counter first
        mult = refetch.get(name, {}).get("flint", 1.0)
        due_s = nand["disturb_limit"] / (d["senses_per_step"] * mult * rate_tok_s)
        row["built_interval_s"] = min(pass_s, due_s)
        for pe in pe_budgets:
            secs = pe * row["built_interval_s"] / per_pass
            row["built"][pe] = secs * rate_tok_s
        out[name] = row
    return out
