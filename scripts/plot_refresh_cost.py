#!/usr/bin/env python3
"""Fig. 13 of the paper from flint-refresh-cost's JSON (--json): per model, the decode-step time
under each refresh mode over the step time without refresh, on a log axis: FLINT, in-place
distributed (mean over the run), in-place burst (mean over the run, and the step where the
aligned counters come due). A last group gives the paper's figures (bar: its average, whisker:
its range across models). Needs matplotlib (scripts/setup.sh --plots).

  plot_refresh_cost.py docs/refresh_cost.json --out docs/refresh_cost.png
"""
import argparse
import json
import pathlib
import sys

# (label, JSON mode, field, colour); the paper's (average, low, high) per bar, section 6.2.
BARS = [
    ("FLINT", "flint", "slowdown", "#1f6f8b"),
    ("in-place distributed", "distributed", "slowdown", "#e67e22"),
    ("in-place burst, mean", "burst", "slowdown", "#c0392b"),
    ("in-place burst, due step", "burst", "worst_step_slowdown", "#7b241c"),
]
PAPER = [(1.0, 1.0, 1.0), (20.0, 13.0, 24.0), (4.8, 1.2, 8.5), (3700.0, 303.0, 6771.0)]


def label(v):
    return f"{v:.0f}x" if v >= 10 else f"{v:.1f}x"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_refresh_cost: matplotlib is missing (scripts/setup.sh --plots installs it)")
    data = json.loads(pathlib.Path(args.json).read_text())
    models = data["models"]
    if not models:
        sys.exit(f"plot_refresh_cost: no models in {args.json}")
    fig, ax = plt.subplots(figsize=(11, 4.5))
    width = 0.8 / len(BARS)
    groups = [m["model"] for m in models] + ["paper\n(avg, range)"]
    for j, (name, mode, field, colour) in enumerate(BARS):
        xs = [i + (j - (len(BARS) - 1) / 2) * width for i in range(len(groups))]
        vals = [m["modes"][mode][field] for m in models]
        ax.bar(xs[:-1], vals, width, color=colour, label=name)
        avg, lo, hi = PAPER[j]
        ax.bar(xs[-1], avg, width, color=colour, alpha=0.45, hatch="//", edgecolor="white")
        ax.errorbar(xs[-1], avg, yerr=[[avg - lo], [hi - avg]], fmt="none", ecolor="black",
                    capsize=3, linewidth=1)
        for x, v, top in zip(xs, vals + [avg], vals + [hi]):  # the paper's label above its whisker
            ax.text(x, top * 1.15, label(v), ha="center", va="bottom", fontsize=6, rotation=90)
    ax.set_yscale("log")
    ax.set_ylim(0.8, 2e5)
    ax.axhline(1.0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, fontsize=8)
    ax.set_ylabel("decode-step time / no refresh (log)")
    ax.set_title(f"Refresh cost per mode, one stack, config {data['config']}, batch "
                 f"{data['batch']}, {data['placement']} placement (in-place refresh "
                 f"{data['in_place_refresh_ms']:.1f} ms)", fontsize=9)
    ax.legend(fontsize=7, loc="upper left", ncol=4)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"plot_refresh_cost: wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
