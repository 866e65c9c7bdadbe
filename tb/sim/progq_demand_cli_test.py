#!/usr/bin/env python3
"""flint-progq-demand's command line and the area flow's reading of what it writes: the JSON is a
measured-demand file (docs/synth.md) whose sweep holds every run asked for and says what the
Markdown table says; synth/progq_sizing.py accepts it and sizes the queue from the sweep (the
stealing scrubber at saturation keeps up from 2 pages, the as-built one does not keep up at
all); a sweep row that lacks a field or breaks Little's law is refused; bad arguments are
refused with a message.
Usage: progq_demand_cli_test.py PATH/TO/flint-progq-demand SOURCE_ROOT BUILD_GEN_DIR"""
import copy
import json
import pathlib
import subprocess
import sys
import tempfile

TOOL, ROOT, GEN = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
sys.path.insert(0, str(ROOT / "synth"))
import progq_sizing  # noqa: E402

MODELS = ["deepseek-v3", "llama-3.1-405b"]
passed = failed = 0


def run(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=300)


def expect(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


cfg = json.loads((GEN / "paper" / "config.json").read_text())
with tempfile.TemporaryDirectory() as tmp:
    md_path, js_path = pathlib.Path(tmp) / "d.md", pathlib.Path(tmp) / "d.json"
    p = run("--config", "paper", "--models", ",".join(MODELS), "--queues", "2,128",
            "--idle", "0,0.1", "--copies", "2", "--out", str(md_path), "--json", str(js_path))
    expect("paper run", p.returncode == 0, p.stderr)
    if p.returncode == 0:
        doc = json.loads(js_path.read_text())
        expect("header", doc["kind"] == "measured" and doc["config"] == "paper" and
               doc["pace"] == 1.1 and doc["disturb_limit"] == cfg["config"]["disturb_limit"], doc)
        sweep = doc["sweep"]
        keys = {(r["model"], r["scrub"], r["idle_fraction"], r["queue_pages"]) for r in sweep}
        want = {(m, s, i, k) for m in MODELS for s in ("idle", "steal") for i in (0, 0.1)
                for k in (2, 128)}
        expect("every run", keys == want and len(sweep) == len(want), sorted(keys))
        rows = [line for line in md_path.read_text().splitlines()
                if line.startswith("| ") and line.split("|")[1].strip() in MODELS]
        expect("a table row a run", len(rows) == len(sweep), len(rows))
        for r in sweep:
            tag = f"{r['model']} {r['scrub']} {r['idle_fraction']} K={r['queue_pages']}"
            expect(f"{tag} peak within the queue", r["peak_occupancy_pages"] <= r["queue_pages"],
                   r)
            if r["scrub"] == "idle" and r["idle_fraction"] == 0:
                expect(f"{tag}: no idle time, no scrub, no copy",
                       r["copies"] == 0 and r["scrubbed_idle"] + r["scrubbed_stolen"] == 0, r)
            if r["scrub"] == "steal":
                # The pace is the slowest a copy may run; idle time can make it faster.
                expect(f"{tag} keeps up at its pace", r["copies"] == 2 and
                       1.0 <= r["copy_over_program_bound"] < 1.1 + 0.02 and
                       r["max_count_over_limit"] < 1, r)
                if r["idle_fraction"] == 0:
                    expect(f"{tag} at its pace", abs(r["copy_over_program_bound"] - 1.1) < 0.02,
                           r)
                expect(f"{tag} stalls only by stealing", (r["stall_fraction"] > 0) ==
                       (r["scrubbed_stolen"] > 0), r)
        steal0 = [r for r in sweep if r["scrub"] == "steal" and r["idle_fraction"] == 0]
        # At most one stolen read (a burst period) a page programmed at the pace: 1/24 / 1.1.
        bound = (cfg["derived"]["burst_period_cycles"] /
                 (cfg["config"]["t_prog_cycles"] * 1.1))
        expect("at most a stolen read a page at saturation",
               all(0.01 < r["stall_fraction"] < 1.02 * bound for r in steal0), (bound, steal0))
        stall = {r["model"]: r["stall_fraction"] for r in steal0 if r["queue_pages"] == 2}
        expect("the dense model's in-order reads fork more, so it steals less",
               stall["llama-3.1-405b"] < 0.8 * stall["deepseek-v3"], stall)
        ds = {r["queue_pages"]: r for r in sweep if r["model"] == "deepseek-v3" and
              r["scrub"] == "steal" and r["idle_fraction"] == 0.1}
        expect("idle time and a deeper queue steal less", ds[128]["scrubbed_stolen"] <
               ds[2]["scrubbed_stolen"] / 10, ds)
        expect("per_die from the largest queue under steal at saturation",
               len(doc["per_die"]) == 1 and doc["per_die"][0]["queue_pages"] == 128 and
               doc["per_die"][0]["scrub"] == "steal", doc["per_die"])

        d = progq_sizing.load_demand(js_path, cfg)
        q = progq_sizing.size_queue(cfg, d)
        expect("sized from the sweep", q["pages"] == 2 and
               q["sweep_sizing"]["chosen"]["scrub"] == "steal", q.get("sweep_sizing"))
        idle0 = next(g for g in q["sweep_sizing"]["groups"]
                     if g["scrub"] == "idle" and g["idle_fraction"] == 0)
        expect("the as-built scrubber keeps up at no depth", idle0["keeps_up_from"] is None,
               idle0)
        for mutate, why in ((lambda r: r.pop("stall_fraction"), "lacks stall_fraction"),
                            (lambda r: r.update(mean_occupancy_pages=2 * r["mean_occupancy_pages"]
                                                + 5), "breaks Little's law")):
            bad = copy.deepcopy(doc)
            mutate(bad["sweep"][3])
            bp = pathlib.Path(tmp) / "bad.json"
            bp.write_text(json.dumps(bad))
            try:
                progq_sizing.load_demand(bp, cfg)
                expect(f"a sweep row that {why} is refused", False)
            except progq_sizing.DemandError as e:
                expect(f"a sweep row that {why} is refused", "sweep[3]" in str(e), str(e))

    p = run("--models", "deepseek-v3", "--queues", "4", "--scrub", "steal", "--idle", "0",
            "--copies", "1")
    expect("stdout without --out", p.returncode == 0 and "| deepseek-v3 | steal |" in p.stdout,
           p.stderr)

for args, needle in ((["--idle", "1.5"], "--idle"), (["--queues", "0"], "--queues"),
                     (["--queues", "2,,4"], "empty item"), (["--scrub", "sometimes"], "sometimes"),
                     (["--models", "no-such-model"], "no-such-model"), (["--pace", "0.5"],
                     "--pace"), (["--copies", "0"], "--copies"), (["--config", "huge"], "huge"),
                     (["--bogus"], "--bogus")):
    p = run(*args)
    expect(f"refuses {args}", p.returncode == 2 and needle in p.stderr, p.stderr)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
