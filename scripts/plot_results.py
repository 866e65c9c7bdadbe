#!/usr/bin/env python3
"""Fig. 9 of the paper from scripts/evaluate.py's JSON: per model and engine, the useful and the
wasted (fetched but not asked for, i.e. re-fetched) HBF bandwidth as stacked bars, and the
re-fetch share as points on a second axis; one panel per JSON file (e.g. the paper's queue and a
deep queue). Needs matplotlib (scripts/setup.sh --plots).

  plot_results.py docs/results.json [docs/results_deep_queue.json ...] --out docs/results.png
"""
import argparse
import json
import pathlib
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", nargs="+")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_results: matplotlib is missing (scripts/setup.sh --plots installs it)")
    panels = [(p, json.loads(pathlib.Path(p).read_text())) for p in args.json]
    fig, axes = plt.subplots(1, len(panels), figsize=(7 * len(panels), 4.5), squeeze=False)
    colors = {"flint": "#1f6f8b", "fcfs": "#4d9fbf", "h3": "#c0392b", "h3-oracle": "#e67e22"}
    for ax, (path, runs) in zip(axes[0], panels):
        engines = [e["engine"] for e in runs[0]["results"]]
        width = 0.8 / len(engines)
        labels = []
        ax2 = ax.twinx()
        for i, r in enumerate(runs):
            labels.append(f"{r['model']}\nbsz {r['batch']}")
            for j, e in enumerate(r["results"]):
                x = i + (j - (len(engines) - 1) / 2) * width
                useful = e["useful_gbps"]
                wasted = max(0.0, e["fetched_gbps"] - useful)
                c = colors.get(e["engine"], "grey")
                ax.bar(x, useful, width, color=c, label=e["engine"] + " useful" if i == 0 else None)
                ax.bar(x, wasted, width, bottom=useful, color=c, alpha=0.35,
                       label=e["engine"] + " re-fetched" if i == 0 else None)
                ax2.plot(x, 100 * e["refetch_share"], "k.", markersize=6)
        ax.set_xticks(range(len(runs)))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("HBF bandwidth, one stack (GB/s)")
        ax2.set_ylabel("re-fetch share of bursts (%, dots)")
        ax2.set_ylim(0, 100)
        queue = runs[0].get("command", "")
        ax.set_title(pathlib.Path(path).stem + (" (--crq " + queue.split("--crq ")[1].split()[0] + ")"
                                                 if "--crq" in queue else " (paper queue)"),
                     fontsize=9, pad=44)
        ax.legend(fontsize=6, loc="lower center", ncol=4, bbox_to_anchor=(0.5, 1.06))
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"plot_results: wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
