#!/usr/bin/env python3
"""scripts/evaluate_rtl.py on one small point (tiny-dense, batch 1, one token): it runs the rtl,
model and h3 engines on the main grid's work order (cta, jitter 0, one SM at small), writes the table and the
JSON, and the RTL's cycles stay within 5 % of the model's with the same bursts. Usage: evaluate_rtl_test.py SOURCE_DIR BUILD_DIR"""
import json
import pathlib
import subprocess
import sys
import tempfile

src, build = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
failed = 0


def expect(name, cond, detail=""):
    global failed
    if not cond:
        failed += 1
        print(f"FAIL {name}: {detail}")


with tempfile.TemporaryDirectory() as d:
    out = pathlib.Path(d) / "r.md"
    p = subprocess.run([sys.executable, str(src / "scripts" / "evaluate_rtl.py"), "--build",
                        str(build), "--models", "tiny-dense", "--batches", "1", "--tokens", "1",
                        "--out", str(out)], capture_output=True, text=True, cwd=src, timeout=600)
    expect("runs", p.returncode == 0, p.stdout + p.stderr)
    if p.returncode == 0:
        runs = json.loads(out.with_suffix(".json").read_text())
        e = runs[0]["engines"]
        expect("three engines", sorted(e) == ["h3", "model", "rtl"], sorted(e))
        expect("the main grid's work order by default",
               (runs[0]["order"], runs[0]["jitter"], runs[0]["sms"]) == ("cta", 0.0, 1),
               runs[0])
        expect("every request answered", all(r["responses"] == r["requests"] > 0
                                             for r in e.values()), e)
        expect("same bursts", e["rtl"]["bursts_issued"] == e["model"]["bursts_issued"], e)
        ratio = e["rtl"]["cycles"] / e["model"]["cycles"]
        expect("rtl within 5 % of the model", 0.95 <= ratio <= 1.05, ratio)
        rows = [l for l in out.read_text().splitlines() if l.startswith("| tiny-dense")]
        expect("a row an engine", len(rows) == 3, rows)
        expect("the work order stated", "work order `cta`" in out.read_text(), "")
print(f"evaluate_rtl: {'FAILED' if failed else 'passed'}")
sys.exit(1 if failed else 0)
