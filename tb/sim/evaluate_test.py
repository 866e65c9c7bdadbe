#!/usr/bin/env python3
"""scripts/evaluate.py on the tiny workloads at small: a run per planned model and batch, MODEL@B
limits a model to those batches, a second invocation keeps the runs of other batches made with the
same options and drops those made with others, --resume reruns nothing it already has, the tables
list every kept run. If matplotlib is there, the Fig. 9 and Fig. 13 plot scripts draw a PNG from
the JSON. Usage: evaluate_test.py SOURCE_DIR BUILD_DIR"""
import json
import pathlib
import subprocess
import sys
import tempfile

SRC, BUILD = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
EVALUATE = SRC / "scripts" / "evaluate.py"
passed = failed = 0


def expect(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def evaluate(out, *args):
    p = subprocess.run([sys.executable, str(EVALUATE), "--build", str(BUILD), "--config", "small",
                        "--out", str(out), *args], capture_output=True, text=True, timeout=600)
    runs = json.loads(out.with_suffix(".json").read_text()) if p.returncode == 0 else []
    return p, {(r["model"], r["batch"]): r for r in runs}


with tempfile.TemporaryDirectory() as tmp:
    out = pathlib.Path(tmp) / "r.md"
    p, runs = evaluate(out, "--models", "tiny-small,tiny-dense@1", "--batches", "1,4",
                       "--engines", "flint,h3")
    expect("first run", p.returncode == 0, p.stderr)
    expect("planned runs", set(runs) == {("tiny-small", 1), ("tiny-small", 4),
                                         ("tiny-dense", 1)}, runs.keys())
    for key, r in runs.items():
        e = {x["engine"]: x for x in r["results"]}
        expect(f"{key} engines", set(e) == {"flint", "h3"}, e.keys())
        expect(f"{key} provenance", r.get("commit") and r.get("date") and
               r.get("run_seconds") is not None and r["command"].startswith("--model "), r)
    first = runs

    # Batch 16 added: batches 1 and 4 stay as they were (same options), tiny-dense@1 is not run.
    p, runs = evaluate(out, "--models", "tiny-small,tiny-dense@1", "--batches", "16",
                       "--engines", "flint,h3")
    expect("extend", p.returncode == 0, p.stderr)
    expect("kept and added", set(runs) == set(first) | {("tiny-small", 16)}, runs.keys())
    expect("kept untouched", all(runs.get(k) == first[k] for k in first), "a kept run changed")
    table = out.read_text()
    expect("table lists every run", all(f"| {m} | {b} | flint |" in table for m, b in runs) and
           all(f"| {m} | {b} | h3 |" in table for m, b in runs), table)

    # --resume: nothing planned is run again (a rerun would rewrite run_seconds and the date).
    before = runs
    p, runs = evaluate(out, "--models", "tiny-small", "--batches", "1,4,16", "--engines",
                       "flint,h3", "--resume")
    expect("resume", p.returncode == 0 and runs == before and "kept from" in p.stderr, p.stderr)

    # Another option set replaces the file's runs: a kept run never mixes queue depths.
    p, runs = evaluate(out, "--models", "tiny-small", "--batches", "1", "--engines", "flint,h3",
                       "--crq", "64")
    expect("other options drop the rest", p.returncode == 0 and set(runs) == {("tiny-small", 1)}
           and "--crq 64" in runs[("tiny-small", 1)]["command"] and "dropping" in p.stderr,
           (runs.keys(), p.stderr))

    # --loop closed: the flag reaches flint-eval and the table sets each closed-loop run beside
    # the open-loop run of the same point from --open-json; the open-loop commands are unchanged.
    open_out = pathlib.Path(tmp) / "open.md"
    p, opened = evaluate(open_out, "--models", "tiny-small", "--batches", "1", "--engines",
                         "flint,h3")
    expect("open loop", p.returncode == 0 and "--loop" not in opened[("tiny-small", 1)]["command"],
           (p.stderr, opened))
    closed_out = pathlib.Path(tmp) / "closed.md"
    p, closed = evaluate(closed_out, "--models", "tiny-small", "--batches", "1", "--engines",
                         "flint,h3", "--loop", "closed", "--max-outstanding", "4",
                         "--open-json", str(open_out.with_suffix(".json")))
    expect("closed loop", p.returncode == 0, p.stderr)
    if p.returncode == 0:
        r = closed[("tiny-small", 1)]
        expect("closed loop command", r["command"].endswith("--loop closed --max-outstanding 4")
               and r["loop"] == "closed" and r["max_outstanding"] == 4, r)
        table = closed_out.read_text()
        o_e = {x["engine"]: x for x in opened[("tiny-small", 1)]["results"]}
        c_e = {x["engine"]: x for x in r["results"]}
        row = (f"| tiny-small | 1 | 1/0 | flint | {o_e['flint']['useful_gbps']:.0f} -> "
               f"{c_e['flint']['useful_gbps']:.0f} |")
        expect("closed against open", "## Closed against open loop" in table and row in table,
               table)
    p, _ = evaluate(closed_out, "--models", "tiny-small", "--max-outstanding", "4")
    expect("--max-outstanding without --loop closed", p.returncode != 0 and
           "--max-outstanding" in p.stderr, p.stderr)

    try:
        import matplotlib  # noqa: F401
        have_plots = True
    except ImportError:
        have_plots = False
        print("evaluate test: matplotlib missing, plot scripts not run")
    if have_plots:
        png = pathlib.Path(tmp) / "r.png"
        p = subprocess.run([sys.executable, str(SRC / "scripts" / "plot_results.py"),
                            str(out.with_suffix(".json")), "--out", str(png)],
                           capture_output=True, text=True, timeout=300)
        expect("Fig. 9 plot", p.returncode == 0 and png.stat().st_size > 0, p.stderr)
        rc_json, rc_png = pathlib.Path(tmp) / "rc.json", pathlib.Path(tmp) / "rc.png"
        p = subprocess.run([str(BUILD / "sim" / "flint-refresh-cost"), "--config", "small",
                            "--models", "tiny-small", "--json", str(rc_json)],
                           capture_output=True, text=True, timeout=300)
        expect("refresh cost JSON", p.returncode == 0, p.stderr)
        p = subprocess.run([sys.executable, str(SRC / "scripts" / "plot_refresh_cost.py"),
                            str(rc_json), "--out", str(rc_png)],
                           capture_output=True, text=True, timeout=300)
        expect("Fig. 13 plot", p.returncode == 0 and rc_png.stat().st_size > 0, p.stderr)

print(f"evaluate: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
