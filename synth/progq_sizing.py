"""Right-sizing the per-die program queue from its demand (docs/area.md, "Beyond the paper").

Demand. Every page read is one sense of one block, and a block is refreshed (PAGES pages
programmed) after DISTURB senses, so whatever the layout the refresh program traffic of a die
is about  lambda = PLANES * senses_per_s_per_plane * PAGES / DISTURB  pages/s (DESIGN.md 6.3),
served by one phantom plane at  mu = 1 / tPROG  pages/s. Until the refresh controller measures
it, lambda is this analytic figure; a measured demand file (load_demand) replaces it.

Measured. `flint-progq-demand` (sim/studies/progq_demand.hpp, `make progq-demand`) runs the
rotation on decode workloads at paper for a sweep of queue depths, scrub policies and idle
fractions and writes a demand file with that sweep; then the sweep decides (size_from_sweep): the
smallest depth at which every model's copies complete and stay under the disturb limit, under the
scrubber that takes a foreground slot when the queue runs dry, with no idle time (the worst
case). The two bounds below are then reported beside it, not used.

Queue (analytic). Two bounds, the larger wins:
  push: forks of corrected pages arrive at lambda; with Poisson arrivals and deterministic
        service (M/D/1/K) the smallest K whose blocking probability is below `loss` (a dropped
        fork is not lost: its bitmap bit stays clear and the scrubber reads the page later,
        so `loss` prices extra scrubber senses, not data). Little's law L = lambda * W gives
        the mean occupancy the measurement must confirm.
  pull: the scrubber refills the queue on demand; the queue must hold the page being
        transferred plus enough to cover the refill latency (one burst slot + tR + transfer)
        so the phantom plane never idles: 1 + ceil(latency / tPROG).
"""
import json
import math
import pathlib
import random


class DemandError(Exception):
    pass


def analytic_demand(cfg):
    c, d = cfg["config"], cfg["derived"]
    cycle_s = 1e-6 / c["clock_mhz"]
    burst_s = d["burst_period_cycles"] * cycle_s
    senses_per_s_per_plane = 1.0 / burst_s  # every burst senses one page on every plane
    lam = c["planes"] * senses_per_s_per_plane * c["pages"] / c["disturb_limit"]
    return {
        "kind": "analytic",
        "source": "DESIGN.md 6.3: refresh program traffic ~ read senses x PAGES / DISTURB, "
                  "reads at the full burst rate (one burst every burst_period_cycles)",
        "arrival_pages_per_s": lam,
        "peak_occupancy_pages": None,
        "mean_occupancy_pages": None,
        "mean_residence_s": None,
    }


def load_demand(path, cfg):
    """Measured demand: JSON {"kind": "measured", "source": str, "config": name,
    "per_die": [{"die": i, "arrival_pages_per_s": x, "mean_occupancy_pages": L?,
    "mean_residence_s": W?, "peak_occupancy_pages": N?}, ...]}. Each figure is taken at its
    worst die."""
    try:
        doc = json.loads(pathlib.Path(path).read_text())
    except (OSError, ValueError) as e:
        raise DemandError(f"demand file {path}: {e}")
    if doc.get("kind") != "measured" or not isinstance(doc.get("per_die"), list) \
            or not doc["per_die"]:
        raise DemandError(f"demand file {path}: needs kind = measured and a non-empty per_die")
    if doc.get("config") != cfg["config"]["name"]:
        raise DemandError(f"demand file {path} is for config {doc.get('config')!r}, "
                          f"not {cfg['config']['name']!r}")
    dies = cfg["config"]["dies"]
    seen = set()
    for e in doc["per_die"]:
        for key in ("mean_occupancy_pages", "mean_residence_s", "peak_occupancy_pages"):
            v = e.get(key)
            if v is not None and (not isinstance(v, (int, float)) or v < 0):
                raise DemandError(f"demand file {path}: die {e.get('die')}: {key} = {v!r}")
    for e in doc["per_die"]:
        lam = e.get("arrival_pages_per_s")
        if not isinstance(e.get("die"), int) or not 0 <= e["die"] < dies or e["die"] in seen:
            raise DemandError(f"demand file {path}: bad or repeated die in {e}")
        seen.add(e["die"])
        if not isinstance(lam, (int, float)) or lam < 0:
            raise DemandError(f"demand file {path}: die {e['die']} lacks arrival_pages_per_s")
        w, l = e.get("mean_residence_s"), e.get("mean_occupancy_pages")
        if w is not None and l is not None and lam > 0:
            # Little's law must hold on a measurement; if it does not, the measurement is wrong.
            if abs(lam * w - l) > 0.1 * max(l, 1.0):
                raise DemandError(f"demand file {path}: die {e['die']} breaks Little's law: "
                                  f"lambda*W = {lam * w:.3g} but L = {l:.3g}")
    sweep = doc.get("sweep")
    if sweep is not None:
        if not isinstance(sweep, list) or not sweep:
            raise DemandError(f"demand file {path}: sweep must be a non-empty list")
        for i, run in enumerate(sweep):
            for key in SWEEP_KEYS:
                if key not in run:
                    raise DemandError(f"demand file {path}: sweep[{i}] lacks {key}")
            for key in SWEEP_KEYS[3:]:
                if not isinstance(run[key], (int, float)) or run[key] < 0:
                    raise DemandError(f"demand file {path}: sweep[{i}]: {key} = {run[key]!r}")
            lam, w, l = (run["arrival_pages_per_s"], run["mean_residence_s"],
                         run["mean_occupancy_pages"])
            if lam > 0 and abs(lam * w - l) > 0.1 * max(l, 1.0):
                raise DemandError(f"demand file {path}: sweep[{i}] breaks Little's law: "
                                  f"lambda*W = {lam * w:.3g} but L = {l:.3g}")

    def worst(key):
        vals = [e[key] for e in doc["per_die"] if e.get(key) is not None]
        return max(vals) if vals else None

    # Sized for the worst die on every count (the dies share one design).
    return {
        "kind": "measured", "source": str(doc.get("source", path)),
        "arrival_pages_per_s": float(worst("arrival_pages_per_s")),
        "peak_occupancy_pages": worst("peak_occupancy_pages"),
        "mean_occupancy_pages": worst("mean_occupancy_pages"),
        "mean_residence_s": worst("mean_residence_s"),
        "dies_measured": len(doc["per_die"]),
        "sweep": sweep,
        "disturb_limit": doc.get("disturb_limit"),
        "pace": doc.get("pace"),
    }


# What every run of a measured sweep must carry (the first three name it).
SWEEP_KEYS = ("model", "scrub", "idle_fraction", "queue_pages", "copies", "copies_asked",
              "copy_over_program_bound", "stall_fraction", "arrival_pages_per_s",
              "mean_occupancy_pages", "mean_residence_s", "peak_occupancy_pages",
              "max_count_over_limit", "forks_taken", "scrubbed_idle", "scrubbed_stolen")


def keeps_up(run):
    """A run keeps up when every copy asked for completed and no block passed the limit."""
    return run["copies"] >= run["copies_asked"] and run["max_count_over_limit"] < 1.0


def size_from_sweep(sweep):
    """Per (scrub policy, idle fraction): the smallest queue depth at which every model keeps up,
    and each model's figures there and at the largest depth. The right size is that depth under
    the steal policy at the lowest idle fraction (saturated decode, the worst case); without a
    steal run, the as-built policy's."""
    groups = {}
    for run in sweep:
        key = (run["scrub"], float(run["idle_fraction"]))
        groups.setdefault(key, {}).setdefault(run["model"], {})[int(run["queue_pages"])] = run
    out = []
    for (scrub, idle), by_model in sorted(groups.items()):
        depths = sorted(set.intersection(*(set(r) for r in by_model.values())))
        if not depths:
            continue
        ok = [k for k in depths if all(keeps_up(by_model[m][k]) for m in by_model)]
        k_ok = ok[0] if ok else None
        per_model = {}
        for m, runs in by_model.items():
            top = runs[depths[-1]]
            at = runs[k_ok] if k_ok is not None else None
            per_model[m] = {
                "max_depth": {"queue_pages": depths[-1],
                              "copy_over_program_bound": top["copy_over_program_bound"],
                              "max_count_over_limit": top["max_count_over_limit"],
                              "stall_fraction": top["stall_fraction"],
                              "copies": top["copies"], "copies_asked": top["copies_asked"]},
                "at_size": None if at is None else {
                    "copy_over_program_bound": at["copy_over_program_bound"],
                    "max_count_over_limit": at["max_count_over_limit"],
                    "stall_fraction": at["stall_fraction"],
                    "forks_taken": at["forks_taken"],
                    "scrubbed": at["scrubbed_idle"] + at["scrubbed_stolen"]},
                "stall_by_depth": {str(k): runs[k]["stall_fraction"] for k in depths},
            }
        out.append({"scrub": scrub, "idle_fraction": idle, "depths": depths,
                    "keeps_up_from": k_ok, "models": per_model})
    steal = [g for g in out if g["scrub"] == "steal"]
    pick = min(steal or out, key=lambda g: g["idle_fraction"]) if out else None
    return {"groups": out, "chosen": pick,
            "pages": pick["keeps_up_from"] if pick else None}


def md1k_blocking(rho, k):
    """Blocking probability of M/D/1/K (K places including the one in service), from the
    embedded chain at departures (Gross & Harris, M/G/1/K)."""
    if k < 1:
        raise ValueError("K >= 1")
    a = [math.exp(-rho)]
    for j in range(1, k + 1):
        a.append(a[-1] * rho / j)   # Poisson(rho) arrivals during one service
    # Departure-epoch probabilities pi_0..pi_{K-1}, unnormalised, by forward recursion.
    pi = [1.0]
    for j in range(0, k - 1):
        # pi_j = pi_0 a_j + sum_{i=1}^{j+1} pi_i a_{j-i+1}  ->  solve for pi_{j+1}
        s = pi[0] * a[j] + sum(pi[i] * a[j - i + 1] for i in range(1, j + 1))
        pi.append((pi[j] - s) / a[0])
    total = sum(pi)
    pi = [p / total for p in pi]
    return 1.0 - 1.0 / (pi[0] + rho)


def md1_mean_occupancy(rho):
    """Pollaczek-Khinchine: mean number in an M/D/1 system (queue + service)."""
    if rho >= 1:
        return math.inf
    return rho + rho * rho / (2 * (1 - rho))


def simulate_md1k(rho, k, services=200000, seed=1):
    """Monte Carlo of the same queue (check of md1k_blocking): unit service time."""
    rng = random.Random(seed)
    t, n, busy_until, arrivals, blocked = 0.0, 0, 0.0, 0, 0
    departures = []
    next_arr = rng.expovariate(rho)
    served = 0
    while served < services:
        # next event: arrival or departure
        next_dep = departures[0] if departures else math.inf
        if next_arr < next_dep:
            t = next_arr
            arrivals += 1
            if n >= k:
                blocked += 1
            else:
                n += 1
                start = max(t, busy_until)
                busy_until = start + 1.0
                departures.append(busy_until)
            next_arr = t + rng.expovariate(rho)
        else:
            departures.pop(0)
            n -= 1
            served += 1
    return blocked / arrivals


def size_queue(cfg, demand, losses=(1e-3, 1e-6)):
    c, d = cfg["config"], cfg["derived"]
    cycle_s = 1e-6 / c["clock_mhz"]
    t_prog_s = c["t_prog_cycles"] * cycle_s
    mu = 1.0 / t_prog_s
    lam = demand["arrival_pages_per_s"]
    rho = lam / mu
    out = {
        "demand": demand,
        "service_pages_per_s": mu,
        "utilisation": rho,
        "stack_refresh_bytes_per_s": lam * c["dies"] * c["page_bytes"],
        "stack_program_capacity_bytes_per_s": mu * c["dies"] * c["page_bytes"],
    }
    if rho >= 1:
        out["verdict"] = "demand exceeds the phantom plane's program rate: no finite queue"
        out["pages"] = None
        return out
    L = md1_mean_occupancy(rho)
    out["mean_occupancy_pages"] = L
    out["mean_residence_s"] = L / lam if lam > 0 else 0.0  # Little's law W = L / lambda
    push = {}
    for eps in losses:
        k = 1
        while md1k_blocking(rho, k) > eps:
            k += 1
            if k > 100000:
                raise DemandError("queue sizing did not converge")
        push[eps] = k
    out["push_pages"] = {str(e): k for e, k in push.items()}
    latency_cycles = (d["burst_period_cycles"] + c["t_read_cycles"] +
                      c["page_bytes"] // d["die_io_bytes_per_cycle"])
    out["refill_latency_s"] = latency_cycles * cycle_s
    out["pull_pages"] = 1 + math.ceil(latency_cycles / c["t_prog_cycles"])
    out["design_loss"] = losses[0]
    if demand.get("sweep"):
        # Measured: the sweep decides; the analytic bounds stay beside it for comparison.
        sized = size_from_sweep(demand["sweep"])
        out["sweep_sizing"] = sized
        out["pages"] = sized["pages"]
        if sized["pages"] is None:
            out["verdict"] = ("no queue depth in the measured sweep keeps every model under "
                              "the disturb limit")
        return out
    k = max(push[losses[0]], out["pull_pages"])
    if demand.get("peak_occupancy_pages"):
        k = max(k, int(math.ceil(demand["peak_occupancy_pages"])))
    out["pages"] = k
    return out
