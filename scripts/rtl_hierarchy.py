#!/usr/bin/env python3
"""The RTL's module hierarchy as its sources state it: which flint_* module instantiates which.
Used by the checks that keep the FuseSoC cores and docs/blocks.dot true to the RTL.

  scripts/rtl_hierarchy.py [--top flint_top]   prints "parent -> child" for every instance edge
                                               under the top (each edge once)
"""
import argparse
import pathlib
import re
import sys

RTL = pathlib.Path(__file__).resolve().parent.parent / "rtl"


def instantiated(sv):
    """Module names instantiated in a source file: `flint_x u_name (` or `flint_x #(`."""
    text = re.sub(r"//.*", "", pathlib.Path(sv).read_text())
    return {m for m in re.findall(r"^\s*(flint_\w+)\s*(?:#\s*\(|\s\w+\s*\()", text, re.M)
            if not m.endswith("_pkg")}


def modules(rtl=RTL):
    """{module name: its source file} for every rtl/**/flint_*.sv (one module per file)."""
    return {p.stem: p for p in sorted(rtl.rglob("flint_*.sv")) if p.stem != "flint_pkg"}


def edges(top="flint_top", rtl=RTL):
    """Every (parent, child) instance edge reachable from `top`."""
    mods = modules(rtl)
    out, todo, seen = set(), [top], set()
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        if m not in mods:
            raise KeyError(f"rtl_hierarchy: module {m} has no rtl/**/{m}.sv")
        for child in instantiated(mods[m]):
            out.add((m, child))
            todo.append(child)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", default="flint_top")
    args = ap.parse_args()
    for a, b in sorted(edges(args.top)):
        print(f"{a} -> {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
