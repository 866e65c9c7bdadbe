#!/usr/bin/env python3
"""The config generator refuses broken configs with a message naming the problem."""
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
GEN = ROOT / "scripts" / "gen_config.py"
GOOD = (ROOT / "configs" / "small.toml").read_text()

CASES = {  # name: (edit of small.toml, text the error must contain)
    "not a power of two": (lambda s: s.replace("planes = 4", "planes = 6"), "power of two"),
    "unknown key": (lambda s: s.replace("[bbc]", "[bbc]\ncrq_entrys = 3"), "unknown key"),
    "missing key": (lambda s: s.replace("lanes = 2\n", ""), "lacks lanes"),
    "negative": (lambda s: s.replace("t_read_cycles = 32", "t_read_cycles = -32"),
                 "non-negative"),
    "line does not divide dies": (lambda s: s.replace("dies = 2", "dies = 128"), "divide"),
    "spare not page/8": (lambda s: s.replace("spare_bytes = 32", "spare_bytes = 16"),
                         "page_bytes/8"),
    "queue shorter than a burst": (lambda s: s.replace("crq_entries = 64", "crq_entries = 32"),
                                   "less than a burst of lines"),
    "too few slots": (lambda s: s.replace("sched_slots = 16", "sched_slots = 2"),
                      "at least 3"),
    "die slack past the dies": (lambda s: s.replace("crq_die_slack = 2", "crq_die_slack = 3"),
                                "must be in 1..dies"),
    "name mismatch": (lambda s: s.replace('name = "small"', 'name = "smol"'), "must match"),
}

# flint_cfg_pkg's copies of flint_pkg's enum widths (the refresh buses' fields): name -> original.
ENUM_BITS = {"RelocCmdBits": "RelocCmdWidth", "FtlStatusBits": "FtlStatusWidth",
             "BlkStateBits": "BlkStateWidth"}


def run(text):
    with tempfile.TemporaryDirectory() as d:
        cfg = pathlib.Path(d) / "configs"
        cfg.mkdir()
        (cfg / "small.toml").write_text(text)
        return subprocess.run([sys.executable, GEN, "--configs", cfg, "--out", pathlib.Path(d) / "o"],
                              capture_output=True, text=True)


def main():
    failed = 0
    ok = run(GOOD)
    if ok.returncode != 0:
        print(f"FAIL: the unmodified small config was rejected: {ok.stderr}")
        failed += 1
    for name, (edit, expect) in CASES.items():
        res = run(edit(GOOD))
        if res.returncode == 0 or expect not in res.stderr:
            print(f"FAIL {name}: rc={res.returncode} stderr={res.stderr.strip()!r}")
            failed += 1
    # The refresh buses' enum fields are raw bits of flint_pkg's enum widths, copied.
    with tempfile.TemporaryDirectory() as d:
        cfg = pathlib.Path(d) / "configs"
        cfg.mkdir()
        (cfg / "small.toml").write_text(GOOD)
        subprocess.run([sys.executable, GEN, "--configs", cfg, "--out", pathlib.Path(d) / "o"],
                       check=True)
        gen = (pathlib.Path(d) / "o" / "small" / "flint_cfg_pkg.sv").read_text()
    pkg = (ROOT / "rtl" / "flint_pkg.sv").read_text()
    for ours, theirs in ENUM_BITS.items():
        a = re.search(r"localparam int unsigned %s = (\d+);" % ours, gen)
        b = re.search(r"localparam int unsigned %s = (\d+);" % theirs, pkg)
        if not a or not b or a.group(1) != b.group(1):
            print(f"FAIL enum width: flint_cfg_pkg::{ours} is not flint_pkg::{theirs}")
            failed += 1
    print(f"{len(CASES) + 2 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
