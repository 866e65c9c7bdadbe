#!/usr/bin/env python3
"""docs/blocks.dot, the hand-kept block diagram, against the RTL: its edges (a -> b: module a
instantiates module b) are exactly the instance edges under flint_top that the sources state
(scripts/rtl_hierarchy.py), and it names no module that is not there. The checker itself is
checked: a copy of the diagram with an edge dropped, and one with an edge added, are refused.

  blocks_test.py SOURCE_DIR
"""
import pathlib
import re
import sys

SRC = pathlib.Path(sys.argv[1]).resolve()
sys.path.insert(0, str(SRC / "scripts"))
import rtl_hierarchy  # noqa: E402


def dot_edges(text):
    text = re.sub(r"//.*", "", text)
    return set(re.findall(r"\b(flint_\w+)\s*->\s*(flint_\w+)", text))


def dot_nodes(text):
    text = re.sub(r"//.*", "", text)
    return set(re.findall(r"\b(flint_(?!blocks\b)\w+)\b", text))


def differences(text, rtl):
    got = dot_edges(text)
    mods = {m for e in rtl for m in e}
    out = [f"missing from the diagram: {a} -> {b}" for a, b in sorted(rtl - got)]
    out += [f"not in the RTL: {a} -> {b}" for a, b in sorted(got - rtl)]
    out += [f"names a module outside flint_top's hierarchy: {n}"
            for n in sorted(dot_nodes(text) - mods)]
    return out


def main():
    rtl = rtl_hierarchy.edges("flint_top")
    text = (SRC / "docs" / "blocks.dot").read_text()
    diffs = differences(text, rtl)
    for d in diffs:
        print(f"FAIL docs/blocks.dot {d}")
    fails = len(diffs)
    # The check must be able to fail.
    a, b = sorted(rtl)[0]
    dropped = re.sub(rf"\n\s*{a}\s*->\s*{b};", "\n", text)
    added = text.replace("flint_top -> flint_bbc;",
                         "flint_top -> flint_bbc;\n  flint_top -> flint_fifo;")
    for name, t in (("an edge dropped", dropped), ("an edge added", added)):
        ok = bool(differences(t, rtl))
        print(("ok   " if ok else "FAIL ") + f"a diagram with {name} is refused")
        fails += not ok
    print(f"blocks: {len(rtl)} instance edges under flint_top; {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
