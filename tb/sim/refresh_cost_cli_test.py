#!/usr/bin/env python3
"""flint-refresh-cost's command line: the JSON (--json) holds every mode of every model asked for
and says what the Markdown table says; FLINT never stalls while both in-place modes do and the
burst mode's due step is its worst; the report still goes to stdout without --out; bad arguments
are refused with a message. Usage: refresh_cost_cli_test.py PATH/TO/flint-refresh-cost"""
import json
import pathlib
import subprocess
import sys
import tempfile

TOOL = sys.argv[1]
MODELS = ["llama-4-maverick", "kimi-k2"]
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


with tempfile.TemporaryDirectory() as tmp:
    md_path, js_path = pathlib.Path(tmp) / "r.md", pathlib.Path(tmp) / "r.json"
    p = run("--config", "paper", "--models", ",".join(MODELS), "--out", str(md_path),
            "--json", str(js_path))
    expect("paper run", p.returncode == 0, p.stderr)
    if p.returncode == 0:
        data = json.loads(js_path.read_text())
        expect("header", data["config"] == "paper" and data["batch"] == 1 and
               data["disturb_limit"] > 0 and data["in_place_refresh_ms"] > 0, data)
        expect("models in order", [m["model"] for m in data["models"]] == MODELS, data["models"])
        rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
                for line in md_path.read_text().splitlines()
                if line.startswith("| ") and line.split("|")[1].strip() in MODELS}
        for m in data["models"]:
            name, modes = m["model"], m["modes"]
            expect(f"{name} modes", set(modes) == {"none", "flint", "distributed", "burst"}, modes)
            if set(modes) != {"none", "flint", "distributed", "burst"}:
                continue
            none, fl, dist, burst = (modes[k] for k in ("none", "flint", "distributed", "burst"))
            expect(f"{name} refresh needed", none["max_block_count"] >= data["disturb_limit"], none)
            expect(f"{name} no refresh, no stall", none["stall_cycles"] == 0 and
                   none["slowdown"] == 1, none)
            expect(f"{name} FLINT no stall", fl["stall_cycles"] == 0 and fl["slowdown"] == 1 and
                   fl["refreshes"] > 0, fl)
            expect(f"{name} FLINT under the limit",
                   fl["max_block_count"] < data["disturb_limit"], fl)
            for k, x in (("distributed", dist), ("burst", burst)):
                expect(f"{name} {k} stalls", x["stall_cycles"] > 0 and x["slowdown"] > 1, x)
            expect(f"{name} burst lands at once",
                   burst["worst_step_slowdown"] > 10 * dist["worst_step_slowdown"] and
                   burst["stalled_steps"] < dist["stalled_steps"], (dist, burst))
            row = rows.get(name)
            expect(f"{name} in the table", row is not None, rows.keys())
            if row is None:
                continue
            # step ms, steps, FLINT stall, ..., distributed slowdown, burst worst s, worst x, mean x
            expect(f"{name} table agrees",
                   row[0] == f"{m['step_ms']:.2f}" and row[1] == str(m["steps"]) and
                   row[2] == str(fl["stall_cycles"]) and row[5] == f"{dist['slowdown']:.1f}x" and
                   row[6] == f"{burst['worst_step_stall_s']:.1f}" and
                   row[7] == f"{burst['worst_step_slowdown']:.0f}x" and
                   row[8] == f"{burst['slowdown']:.1f}x", (row, m))

    p = run("--config", "small", "--models", "tiny-small")
    expect("stdout report", p.returncode == 0 and "| tiny-small |" in p.stdout, p.stderr)

    for args, text in [(["--json"], "needs a value"),
                       (["--batch", "x"], "decimal number"),
                       (["--models", "nope"], "unknown model"),
                       (["--config", "small", "--models", "tiny-small", "--json",
                         str(pathlib.Path(tmp) / "no" / "such" / "dir.json")], "cannot write")]:
        p = run(*args)
        expect(f"refuses {args}", p.returncode != 0 and text in p.stderr, p.stderr)

print(f"flint-refresh-cost cli: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
