#!/usr/bin/env python3
"""Fig. 9 of the paper from scripts/evaluate.py's JSON. One panel per JSON file (e.g. the paper's
queue and a deep queue): per model and batch, each engine's useful bandwidth (dark) and the
bandwidth it fetched but no request used (light: re-fetches and unused lines) as stacked bars,
and its re-fetch share of bursts as lines on the right axis. A last panel gives the FLINT / H3
useful-bandwidth ratio per model against batch, one line style per JSON file, beside the
paper's range on the MoE models. Runs of one model and batch (seeds, stacks) are averaged; the
ratio's error bar spans their min and max. Needs matplotlib (scripts/setup.sh --plots).

  plot_results.py docs/results.json [more.json ...] --out docs/results.png
                  [--engines flint,h3]
"""
import argparse
import json
import pathlib
import sys

COLORS = {"flint": "#1f6f8b", "fcfs": "#4d9fbf", "h3": "#c0392b", "h3-oracle": "#e67e22"}
MODEL_COLORS = ["#1f6f8b", "#c0392b", "#27ae60", "#8e44ad", "#e67e22", "#7f8c8d"]
LINESTYLES = ["-", "--", ":", "-."]
PAPER_MOE_RATIO = (4.0, 14.3)  # section 6.1: FLINT / H3 useful bandwidth on the MoE models


def queue_of(path, runs):
    cmd = runs[0].get("command", "")
    depth = cmd.split("--crq ")[1].split()[0] if "--crq" in cmd else None
    return f"queue {depth} entries" if depth else "paper queue"


def engines_of(run):
    return {e["engine"]: e for e in run["results"]}


def merge(runs):
    """One run per (model, batch): each engine's figures averaged over its seeds and stacks;
    `ratio_range` keeps the min and max FLINT / H3 ratio of the runs."""
    cells = {}
    for r in runs:
        cells.setdefault((r["model"], r["batch"]), []).append(r)
    out = []
    for (model, batch), rs in cells.items():
        names = [e["engine"] for e in rs[0]["results"]]
        results = []
        for name in names:
            xs = [engines_of(r)[name] for r in rs if name in engines_of(r)]
            results.append({"engine": name, **{k: sum(x[k] for x in xs) / len(xs) for k in
                            ("useful_gbps", "fetched_gbps", "refetch_share")}})
        rat = [engines_of(r)["flint"]["useful_gbps"] / engines_of(r)["h3"]["useful_gbps"]
               for r in rs if "flint" in engines_of(r) and "h3" in engines_of(r) and
               engines_of(r)["h3"]["useful_gbps"] > 0]
        out.append({"model": model, "batch": batch, "results": results, "runs": len(rs),
                    "command": rs[0].get("command", ""),
                    "ratio_range": (min(rat), max(rat)) if rat else None})
    return out


def bars(ax, path, runs, engines):
    """Stacked useful / not-used bars per (model, batch), re-fetch share lines per model."""
    width = 0.8 / len(engines)
    ax2 = ax.twinx()
    x, ticks, labels, model_x = 0.0, [], [], {}
    for r in runs:
        if model_x and r["model"] not in model_x:
            x += 0.6  # a gap between models
        e = engines_of(r)
        for j, name in enumerate(engines):
            if name not in e:
                continue
            pos = x + (j - (len(engines) - 1) / 2) * width
            useful = e[name]["useful_gbps"]
            unused = max(0.0, e[name]["fetched_gbps"] - useful)
            first = not ticks
            ax.bar(pos, useful, width, color=COLORS.get(name, "grey"),
                   label=f"{name} useful" if first else None)
            ax.bar(pos, unused, width, bottom=useful, color=COLORS.get(name, "grey"), alpha=0.3,
                   label=f"{name} fetched, not used" if first else None)
            model_x.setdefault(r["model"], {}).setdefault(name, []).append(
                (pos, 100 * e[name]["refetch_share"]))
        ticks.append(x)
        labels.append(str(r["batch"]))
        x += 1
    for model, per_engine in model_x.items():
        for name, pts in per_engine.items():
            ax2.plot([p for p, _ in pts], [s for _, s in pts], "-o", markersize=3, linewidth=1,
                     color=COLORS.get(name, "grey"), markeredgecolor="black",
                     markeredgewidth=0.4,
                     label=f"{name} re-fetch share" if model == next(iter(model_x)) else None)
        xs = [p for pts in per_engine.values() for p, _ in pts]
        ax.text(sum(xs) / len(xs), -0.16, model, transform=ax.get_xaxis_transform(),
                ha="center", va="top", fontsize=7)
    ax.set_xticks(ticks)
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_xlim(-0.6, x - 0.4)
    ax.set_ylabel("HBF bandwidth, one stack (GB/s)", fontsize=8)
    ax2.set_ylabel("re-fetch share of bursts (%, lines)", fontsize=8)
    ax2.set_ylim(0, 100)
    ax.set_title(f"{pathlib.Path(path).stem} ({queue_of(path, runs)}); x: batch", fontsize=9)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=6, loc="upper left", bbox_to_anchor=(1.06, 1.0))


def ratios(ax, panels):
    """FLINT / H3 useful bandwidth against batch, per model, one line style per file."""
    models = []
    for _, runs in panels:
        for r in runs:
            if r["model"] not in models:
                models.append(r["model"])
    for k, (path, runs) in enumerate(panels):
        for i, model in enumerate(models):
            pts = [(r["batch"], engines_of(r)["flint"]["useful_gbps"] /
                    engines_of(r)["h3"]["useful_gbps"], r.get("ratio_range"))
                   for r in runs if r["model"] == model and "flint" in engines_of(r) and
                   "h3" in engines_of(r) and engines_of(r)["h3"]["useful_gbps"] > 0]
            if not pts:
                continue
            pts.sort(key=lambda p: p[0])
            lo = [v - (rr[0] if rr else v) for _, v, rr in pts]
            hi = [(rr[1] if rr else v) - v for _, v, rr in pts]
            ax.errorbar([b for b, _, _ in pts], [v for _, v, _ in pts], yerr=[lo, hi],
                        fmt=LINESTYLES[k % len(LINESTYLES)], marker="o", markersize=3,
                        capsize=2, color=MODEL_COLORS[i % len(MODEL_COLORS)],
                        label=f"{model}, {queue_of(path, runs)}")
    ax.axhspan(*PAPER_MOE_RATIO, color="grey", alpha=0.15, label="paper, MoE (4.0-14.3x)")
    ax.axhline(1.0, color="grey", linewidth=0.8, linestyle=":", label="paper, dense (about 1x)")
    ax.set_xscale("log", base=2)
    batches = sorted({r["batch"] for _, runs in panels for r in runs})
    ax.set_xticks(batches)
    ax.set_xticklabels([str(b) for b in batches])
    ax.set_xlabel("batch", fontsize=8)
    ax.set_ylabel("FLINT / H3 useful bandwidth", fontsize=8)
    ax.set_ylim(0, 16)
    ax.set_title("FLINT / H3 useful-bandwidth ratio", fontsize=9)
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.06, 1.0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--engines", default="flint,h3", help="engines drawn as bars")
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_results: matplotlib is missing (scripts/setup.sh --plots installs it)")
    panels = [(p, merge(json.loads(pathlib.Path(p).read_text()))) for p in args.json]
    for p, runs in panels:
        if not runs:
            sys.exit(f"plot_results: no runs in {p}")
    engines = args.engines.split(",")
    fig, axes = plt.subplots(len(panels) + 1, 1, figsize=(14, 4.2 * (len(panels) + 1)),
                             squeeze=False)
    for ax, (path, runs) in zip(axes[:-1, 0], panels):
        bars(ax, path, runs, engines)
    ratios(axes[-1, 0], panels)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"plot_results: wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
