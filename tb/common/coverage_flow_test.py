#!/usr/bin/env python3
"""Keeps make coverage from rotting (seconds): a test run without FLINT_COVERAGE writes no
coverage file; with it, each harness writes one; scripts/coverage.py summarises them, counting
the RTL's points and naming a cover point the run never hit, and writes lcov's HTML pages.

Usage: coverage_flow_test.py <test_common executable> <source dir>
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

# The arbiter with an always-ready output never stalls, so it never holds a decision:
# c_hold_beats_priority stays at zero and the summary must name it, while c_contended (a
# transfer with two requests up) is hit; the FIFO test fills its FIFO.
NEVER_HOLDS = "rr_arb: priority starts after the last winner and wraps"
FILLS_FIFO = "fifo: fills and refuses when full and drains in order"


def fail(msg):
    print(f"coverage_flow: FAIL: {msg}")
    sys.exit(1)


def run(cmd, env, cwd):
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"{' '.join(map(str, cmd))} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p.stdout


def main():
    exe, src = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        quiet, dat = tmp / "quiet", tmp / "dat"
        quiet.mkdir()
        env = {k: v for k, v in os.environ.items() if k != "FLINT_COVERAGE"}
        run([exe, FILLS_FIFO], env, quiet)
        if any(quiet.rglob("*")):
            fail(f"a run without FLINT_COVERAGE wrote {sorted(quiet.rglob('*'))}")

        env_cov = dict(env, FLINT_COVERAGE=str(dat))
        for name in (NEVER_HOLDS, FILLS_FIFO):
            run([exe, name], env_cov, quiet)
        files = sorted(dat.glob("*.dat"))
        if len(files) != 2 or not all(f.stat().st_size > 0 for f in files):
            fail(f"want one non-empty .dat per harness (2), got {files}")

        out = tmp / "out" / "coverage.md"
        run([sys.executable, src / "scripts" / "coverage.py", "--data", dat, "--out", out],
            env, quiet)
        summary = json.loads(out.with_suffix(".json").read_text())
        page = dat / "merged" / "html" / "index.html"  # lcov HTML, on by default
        if not page.exists() or "flint_fifo" not in "".join(
                p.read_text(errors="replace") for p in page.parent.rglob("*.html")):
            fail(f"no lcov HTML page naming flint_fifo under {page.parent}")
        t = summary["totals"]["rtl"]
        for kind in ("line", "toggle", "cover"):
            if t[kind]["total"] == 0 or t[kind]["hit"] == 0:
                fail(f"no {kind} points counted: {t[kind]}")
        points = {(pathlib.Path(p).stem, c["name"]): c for p, f in summary["files"].items()
                  for c in f["cover_points"]}
        for key, hit in ((("flint_fifo", "c_full"), True),
                         (("flint_rr_arb", "c_contended"), True),
                         (("flint_rr_arb", "c_hold_beats_priority"), False)):
            if key not in points:
                fail(f"cover point {key} missing from the summary")
            if points[key]["hit"] != hit or (points[key]["count"] > 0) != hit:
                fail(f"cover point {key}: want hit={hit}, got {points[key]}")
        md = out.read_text()
        never = md.split("## Cover points never hit", 1)[-1].split("## Every cover point")[0]
        if ("`c_hold_beats_priority`" not in never or "`c_full`" in never
                or "`c_contended`" in never):
            fail("the never-hit section does not name exactly the points the run missed")
    print("coverage_flow: ok")


if __name__ == "__main__":
    main()
