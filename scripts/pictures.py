#!/usr/bin/env python3
"""make pictures: the pictures in docs/ that come from the design, regenerated.

  docs/burst_waves.png   one burst's life through the BBC top at small, as GTKWave draws it: the
                         requests in, the scheduler's pick, the sense, the move to the cache
                         buffers, the data-out, the ECC decode (one line corrected) and the
                         responses. tb/pictures/burst_waves_test.cpp runs with FLINT_WAVES=1;
                         GTKWave opens its FST with tb/waves/burst_life.gtkw under Xvfb, zoomed
                         to the burst, and ImageMagick's import takes the screenshot.
  docs/blocks.svg, .png  docs/blocks.dot (the module hierarchy, checked against the RTL by the
                         ctest blocks_diagram) through Graphviz.

  scripts/pictures.py --build build [--jobs 1] [--out docs] [--only waves|blocks]

Needs GTKWave, Xvfb, ImageMagick and Graphviz (scripts/setup.sh --pictures). Configures BUILD with
-DFLINT_PICTURES=ON the first time and builds the one target test_pictures (the BBC top at small
Verilated once: a few minutes on one core).
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
TEST = "pictures: one burst's life with one line corrected"
TOP = "TOP.flint_bbc"
SIZE = (1600, 760)


def sh(cmd, **kw):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"pictures: {' '.join(map(str, cmd))} failed:\n{(p.stdout + p.stderr)[-3000:]}")
    return p.stdout


def build_bench(build, jobs):
    cache = build / "CMakeCache.txt"
    if not cache.exists() or "FLINT_PICTURES:BOOL=ON" not in cache.read_text():
        print("pictures: configuring with -DFLINT_PICTURES=ON", file=sys.stderr)
        sh(["cmake", "-S", ROOT, "-B", build, "-DFLINT_PICTURES=ON"])
    print("pictures: building test_pictures (the BBC top at small, traced)", file=sys.stderr)
    sh(["cmake", "--build", build, "--target", "test_pictures", "-j", str(jobs)])
    return build / "tb" / "pictures" / "test_pictures"


def run_bench(exe, build):
    env = dict(os.environ, FLINT_WAVES="1", FLINT_SEED="1")
    sh([exe, TEST, "--rng-seed", "1"], env=env)
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in TEST)
    fst = build.resolve() / "waves" / f"{stem}.fst"
    if not fst.exists():
        sys.exit(f"pictures: the bench wrote no {fst}")
    return fst


def burst_window(fst):
    """(first request after the port opens, last response ends) in FST time, from the port."""
    vcd = sh(["fst2vcd", "-f", fst])
    head, body = vcd.split("$enddefinitions", 1)
    codes, names, scope = {}, {"req_valid_i": "req", "rsp_valid_o": "rsp", "ready_o": "ready"}, []
    for line in head.splitlines():
        if line.startswith("$scope"):
            scope.append(line.split()[2])
        elif line.startswith("$upscope"):
            scope.pop()
        elif line.startswith("$var") and ".".join(scope) == TOP:
            f = line.split()
            if f[4] in names:
                codes[f[3]] = names[f[4]]
    t, ready, first, last, rsp_on = 0, False, None, None, False
    for line in body.splitlines():
        if line.startswith("#"):
            t = int(line[1:])
            continue
        m = re.match(r"^b([01xz]+) (\S+)$", line) or re.match(r"^([01xz])(\S+)$", line)
        if not m or m.group(2) not in codes:
            continue
        on, kind = "1" in m.group(1), codes[m.group(2)]
        if kind == "ready":
            ready = ready or (on and t > 0)
        elif kind == "req" and on and ready and first is None:
            first = t
        elif kind == "rsp" and first is not None:
            if rsp_on and not on:
                last = t
            rsp_on = on
    if rsp_on:
        last = t
    if first is None or last is None:
        sys.exit("pictures: no request or no response found in the trace")
    return first, last


def waves_png(fst, out):
    t0, t1 = burst_window(fst)
    pad = max(20, (t1 - t0) // 30)
    with tempfile.TemporaryDirectory(prefix="flint-pictures-") as d:
        d = pathlib.Path(d)
        save = d / "burst.gtkw"
        save.write_text(f'[dumpfile] "{fst}"\n[size] {SIZE[0]} {SIZE[1]}\n[pos] 0 0\n'
                        "[sst_width] 1\n[signals_width] 330\n[sst_expanded] 0\n"
                        + (ROOT / "tb" / "waves" / "burst_life.gtkw").read_text())
        tcl = d / "zoom.tcl"
        tcl.write_text(f"gtkwave::setZoomRangeTimes {max(0, t0 - pad)} {t1 + pad}\n"
                       "gtkwave::/View/Show_Grid\n")
        shot = d / "shot.png"
        script = (f"gtkwave -S {tcl} {save} >{d}/gtkwave.log 2>&1 & pid=$!; sleep 8; "
                  f"import -window root {shot}; kill $pid; wait $pid 2>/dev/null; exit 0")
        sh(["xvfb-run", "-a", "-s", f"-screen 0 {SIZE[0]}x{SIZE[1]}x24", "bash", "-c", script])
        if not shot.exists():
            sys.exit(f"pictures: no screenshot; GTKWave said:\n{(d / 'gtkwave.log').read_text()}")
        # Trim the empty desktop around the window; strip the time stamps PNG writers add.
        sh(["convert", shot, "-trim", "+repage", "-strip", out])
    print(f"pictures: wrote {out} (cycles {t0 // 2} to {t1 // 2} of the bench)", file=sys.stderr)


def blocks(out_dir):
    dot = ROOT / "docs" / "blocks.dot"
    sh(["dot", "-Tsvg", dot, "-o", out_dir / "blocks.svg"])
    sh(["dot", "-Tpng", "-Gdpi=90", dot, "-o", out_dir / "blocks.png"])
    print(f"pictures: wrote {out_dir / 'blocks.svg'} and .png", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__.split(
        "\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", type=pathlib.Path)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=ROOT / "docs", type=pathlib.Path)
    ap.add_argument("--only", choices=["waves", "blocks"])
    args = ap.parse_args()
    tools = {"waves": ["gtkwave", "xvfb-run", "import", "convert", "fst2vcd"],
             "blocks": ["dot"]}
    need = [t for k, v in tools.items() if args.only in (None, k) for t in v]
    missing = [t for t in need if not shutil.which(t)]
    if missing:
        sys.exit(f"pictures: {', '.join(missing)} not found (scripts/setup.sh --pictures)")
    start = time.time()
    if args.only in (None, "blocks"):
        blocks(args.out)
    if args.only in (None, "waves"):
        fst = run_bench(build_bench(args.build, args.jobs), args.build)
        waves_png(fst, args.out / "burst_waves.png")
    print(f"pictures: done in {time.time() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
