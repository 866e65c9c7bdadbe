"""PNG plots of Figs 3, 4, 10, 11, 12 and 14 (matplotlib; scripts/setup.sh --plots)."""
import math


def _mpl():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def short(m):
    return {"llama-4-maverick": "Maverick", "qwen3-235b-a22b": "Qwen3",
            "deepseek-v4-pro": "DSv4-Pro",
            "llama-3.1-405b": "Llama3.1", "kimi-k2": "Kimi-K2", "deepseek-v3": "DSv3"}.get(m, m)


def fig3(path, cells, models, batches, ctx):
    plt = _mpl()
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(12, 6.5), height_ratios=[2, 1])
    parts = [("compute_s", "compute", "#4c72b0"), ("memory_s", "memory", "#55a868"),
             ("comm_s", "communication", "#c44e52"), ("sync_s", "synchronisation", "#8172b2")]
    x, labels, imb = 0, [], []
    for m in models:
        for b in batches:
            c = cells[(m, "hbm-only", b, ctx)]
            st, bottom = c.step, 0.0
            for attr, name, col in parts:
                v = getattr(st, attr) / st.tpot_s * 100
                ax.bar(x, v, bottom=bottom, color=col, label=name if x == 0 else None,
                       hatch="//" if not c.feasible else None)
                bottom += v
            labels.append(f"{short(m)}\n{b}")
            imb.append([x * 100 for x in st.traffic_spread])
            x += 1
        x += 0.5
    xs = [i + (i // len(batches)) * 0.5 for i in range(len(labels))]
    ax.set_xticks(xs, labels, fontsize=7)
    ax.set_ylabel("% of per-token time")
    ax.set_title("Fig 3: HBM-only min-fit at 128K context (hatched: KV does not fit)", loc="left")
    ax.legend(fontsize=8, ncol=4, loc="lower right", bbox_to_anchor=(1.0, 1.0), frameon=False)
    for x0, spread in zip(xs, imb):
        n = len(spread)
        w = 0.8 / n
        for i, v in enumerate(spread):
            ax2.bar(x0 - 0.4 + (i + 0.5) * w, v, w, color="#dd8452" if v >= 0 else "#4c72b0")
    ax2.axhline(0, color="k", lw=0.5)
    ax2.set_xticks(xs, labels, fontsize=7)
    ax2.set_ylabel("each package's memory\ntraffic vs mean, %")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _grouped(path, title, ylabel, models, batches, series, log=True, hatch=None):
    plt = _mpl()
    fig, axes = plt.subplots(1, len(models), figsize=(15, 4), sharey=True)
    for ax, m in zip(axes, models):
        w = 0.8 / len(series)
        for i, (name, col, vals) in enumerate(series):
            for j, b in enumerate(batches):
                v = vals.get((m, b))
                if v is None:
                    continue
                h = "//" if hatch and hatch.get((m, b)) else None
                ax.bar(j + i * w, v, w, color=col, label=name if j == 0 else None, hatch=h)
        ax.set_xticks([j + 0.4 - w / 2 for j in range(len(batches))], [str(b) for b in batches])
        ax.set_title(short(m), fontsize=9)
        ax.axhline(1.0, color="k", lw=0.6)
        if log:
            ax.set_yscale("log")
        ax.set_xlabel("batch")
    axes[0].set_ylabel(ylabel)
    axes[0].legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


COLORS = {"hbm-ssd": "#937860", "hbm-only": "#999999", "oracle": "#e5ae38", "h3": "#c44e52",
          "flint": "#4c72b0", "flint-r": "#64b5cd"}


def fig10_11(path10, path11, cells, models, batches, ctx):
    series_t, series_e, hatch = [], [], {}
    for d in ("hbm-ssd", "h3", "flint", "flint-r"):
        t, e = {}, {}
        for m in models:
            for b in batches:
                base, c = cells[(m, "hbm-only", b, ctx)], cells[(m, d, b, ctx)]
                hatch[(m, b)] = not base.feasible
                if c is None:
                    continue
                t[(m, b)] = c.tput_per_gpu / base.tput_per_gpu
                e[(m, b)] = c.energy_per_token / base.energy_per_token
        series_t.append((d, COLORS[d], t))
        series_e.append((d, COLORS[d], e))
    _grouped(path10, "Fig 10: per-GPU decode throughput at 128K, over HBM-only (hatched: "
             "HBM-only min-fit cannot hold the KV)", "x HBM-only", models, batches, series_t,
             hatch=hatch)
    _grouped(path11, "Fig 11: energy per token at 128K, over HBM-only", "x HBM-only", models,
             batches, series_e, hatch=hatch)


def fig4(path, slo, models, batches):
    series = [(d, COLORS[d], {(m, b): slo[(m, d, b)] for m in models for b in batches})
              for d in ("hbm-only", "oracle")]
    _grouped(path, "Fig 4: GPU packages to hold the model and meet a 50 ms TPOT at 128K",
             "packages", models, batches, series)


def fig12(path, slo, curves, minfit, models, batches, counts, curve_batch):
    plt = _mpl()
    fig, axes = plt.subplots(2, len(models), figsize=(16, 7))
    for k, m in enumerate(models):
        ax = axes[0][k]
        for d in ("oracle", "flint"):
            pts = [(n, curves[(m, d)][n]) for n in counts if curves[(m, d)][n]]
            ax.plot([n for n, _ in pts], [t * 1e3 for _, t in pts], "o-", ms=3, color=COLORS[d],
                    label=d)
        ax.axhline(50, color="k", ls=":", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f"{short(m)} (total batch {curve_batch})", fontsize=9)
        if k == 0:
            ax.set_ylabel("per-user TPOT (ms)")
            ax.legend(fontsize=7)
        ax.set_xlabel("packages")
        ax = axes[1][k]
        w = 0.2
        for i, d in enumerate(("hbm-only", "oracle", "h3", "flint")):
            for j, b in enumerate(batches):
                v = slo[(m, d, b)]
                if v:
                    ax.bar(j + i * w, v, w, color=COLORS[d], label=d if j == 0 else None)
        ax.axhline(minfit[m], color="k", ls="--", lw=0.8)
        ax.set_yscale("log")
        ax.set_xticks([j + 0.3 for j in range(len(batches))], [str(b) for b in batches])
        ax.set_xlabel("total batch")
        if k == 0:
            ax.set_ylabel("packages for a 50 ms TPOT")
            ax.legend(fontsize=7)
    fig.suptitle("Fig 12: capacity scaling at 128K context (dashed: HBM min-fit N)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig14(path, rows, models, pe_budgets, rate):
    plt = _mpl()
    fig, ax = plt.subplots(figsize=(12, 4.5))
    series = [("due", "floor", "when due, each burst sensed once a token", "#8172b2"),
              ("due", "flint", "when due, FLINT's re-fetch", "#4c72b0"),
              ("due", "h3", "when due, H3's re-fetch (no coalescing)", "#c44e52"),
              ("built", None, "as built: rotation every pass, or counter if sooner", "#55a868")]
    w = 0.8 / (len(series) * len(pe_budgets))
    x = 0
    for j, m in enumerate(models):
        r = rows[m]
        i = 0
        for pe in pe_budgets:
            for kind, who, label, col in series:
                v = r["built"][pe] if kind == "built" else r["due"].get(who, {}).get(pe)
                if v:
                    ax.bar(j + i * w, v, w, color=col, alpha=0.4 + 0.2 * math.log10(pe / 1e4),
                           label=f"{label}" if (j == 0 and pe == pe_budgets[0]) else None)
                i += 1
    ax.set_yscale("log")
    ax.set_xticks([j + 0.4 for j in range(len(models))], [short(m) for m in models])
    ax.set_ylabel("decode tokens until the always-on block wears out")
    sec = ax.secondary_yaxis("right", functions=(lambda t: t / rate / 86400,
                                                  lambda d: d * 86400 * rate))
    sec.set_ylabel(f"days at {rate:g} tok/s")
    ax.set_title("Fig 14: lifetime per P/E budget (1e5, 1e6, 1e7 left to right, darker = more)")
    ax.set_ylim(top=ax.get_ylim()[1] * 30)
    ax.legend(fontsize=7, ncol=2, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
