#!/usr/bin/env python3
"""The FuseSoC cores (rtl/**/*.core) against the RTL, through FuseSoC from PyPI:
- `fusesoc core list` finds every core, and `fusesoc core-info` parses each (a core FuseSoC
  cannot parse is dropped from the list, so a broken one fails here);
- every rtl/<area>/flint_*.sv is in its area's core, once, and every module a core's module
  instantiates is in that core or one it depends on (the hierarchy the RTL has, not a guess);
- the synth target of the common blocks gives a Yosys netlist;
- the lint target of the stack top (Verilator -Wall --assert at config small, the generated
  config package through the core generator) passes through `fusesoc run`, and the same target
  fails on a core whose module carries a lint error.

  fusesoc_test.py SOURCE_DIR
"""
import pathlib
import re
import subprocess
import sys
import tempfile

import yaml

SRC = pathlib.Path(sys.argv[1]).resolve()
RTL = SRC / "rtl"
sys.path.insert(0, str(SRC / "scripts"))
from rtl_hierarchy import instantiated  # noqa: E402
CORES = ["cfg_gen", "cfg", "pkg", "common", "ecc", "nand", "ftl", "bbc", "refresh", "top"]
FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def fusesoc(*args, extra=()):
    # Through the interpreter, not a `fusesoc` on PATH (pip's script may sit outside it).
    return subprocess.run([sys.executable, "-m", "fusesoc.main", "--config",
                           str(SRC / "fusesoc.conf"), *extra, *args],
                          cwd=SRC, capture_output=True, text=True)


def main():
    p = fusesoc("core", "list")
    listed = set(re.findall(r"^(flint:flint:\w+):", p.stdout, re.M))
    want = {f"flint:flint:{c}" for c in CORES}
    check(p.returncode == 0 and listed == want,
          f"fusesoc core list: {len(listed)} cores, want {sorted(want - listed)} missing, "
          f"{sorted(listed - want)} extra")
    check("Parse error" not in p.stderr, "fusesoc core list: no core file ignored as unparsable")
    for c in CORES:
        info = fusesoc("core-info", f"flint:flint:{c}")
        check(info.returncode == 0, f"fusesoc core-info flint:flint:{c}")

    # Files and hierarchy, from the core files themselves.
    cores = {}
    for path in RTL.rglob("*.core"):
        d = yaml.safe_load(path.read_text())
        name = d["name"].split(":")[2]
        files = set()
        deps = set()
        for fs in d.get("filesets", {}).values():
            for f in fs.get("files", []):
                f = next(iter(f)) if isinstance(f, dict) else f
                files.add((path.parent / f).resolve())
            deps |= {x.split(":")[2] for x in fs.get("depend", [])}
        cores[name] = (files, deps, d)
    owner = {}
    for name, (files, _, _) in cores.items():
        for f in files:
            owner.setdefault(f, []).append(name)
    for sv in sorted(RTL.rglob("flint_*.sv")):
        own = owner.get(sv.resolve(), [])
        check(len(own) == 1, f"{sv.relative_to(SRC)} is in exactly one core ({own})")

    def closure(name, seen=None):
        seen = set() if seen is None else seen
        if name not in seen:
            seen.add(name)
            for dep in cores[name][1]:
                closure(dep, seen)
        return seen

    module_core = {f.stem: owner[f][0] for f in owner if f.suffix == ".sv"}
    for name, (files, _, _) in sorted(cores.items()):
        reach = closure(name)
        for f in sorted(f for f in files if f.suffix == ".sv"):
            for m in sorted(instantiated(f)):
                check(module_core.get(m) in reach,
                      f"{name}: {f.stem} instantiates {m}, in core {module_core.get(m)}, "
                      f"which {name} reaches")
        for t in ("lint", "sim", "synth"):
            if name not in ("cfg_gen", "cfg", "pkg"):
                check(t in cores[name][2].get("targets", {}), f"{name}: has a {t} target")

    with tempfile.TemporaryDirectory(prefix="flint-fusesoc-") as t:
        tmp = pathlib.Path(t)
        p = fusesoc("run", "--no-export", "--work-root", str(tmp / "top"), "--target", "lint",
                    "flint:flint:top")
        check(p.returncode == 0, "fusesoc run --target lint flint:flint:top (Verilator -Wall)"
              + ("" if p.returncode == 0 else "\n" + (p.stdout + p.stderr)[-3000:]))
        p = fusesoc("run", "--no-export", "--work-root", str(tmp / "synth"), "--target", "synth",
                    "flint:flint:common")
        log = tmp / "synth" / "yosys.log"
        check(p.returncode == 0 and log.exists() and "=== flint_fifo ===" in log.read_text()
              and (tmp / "synth" / "flint_flint_common_0.1.json").exists(),
              "fusesoc run --target synth flint:flint:common: Yosys netlist and cell count")
        # The same flow must be able to fail: a module with an unused input under -Wall.
        lib = tmp / "lib"
        lib.mkdir()
        (lib / "flint_broken.sv").write_text(
            "`default_nettype none\nmodule flint_broken (input logic clk_i, input logic a_i,\n"
            "  output logic b_o);\n  assign b_o = 1'b0;\nendmodule\n`default_nettype wire\n")
        (lib / "broken.core").write_text(
            "CAPI=2:\nname: flint:test:broken:0.1\nfilesets:\n  rtl:\n"
            "    depend: [flint:flint:pkg:0.1]\n    files: [flint_broken.sv]\n"
            "    file_type: systemVerilogSource\ntargets:\n  lint:\n    filesets: [rtl]\n"
            "    default_tool: verilator\n    toplevel: flint_broken\n    tools:\n"
            "      verilator: {mode: lint-only, verilator_options: [-Wall]}\n")
        p = fusesoc("run", "--no-export", "--work-root", str(tmp / "broken"), "--target",
                    "lint", "flint:test:broken", extra=("--cores-root", str(lib)))
        check(p.returncode != 0 and "UNUSED" in p.stdout + p.stderr,
              "fusesoc lint target fails on a module with a -Wall warning")
    print(f"fusesoc_test: {len(FAILS)} failed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
