#!/usr/bin/env python3
"""Layers point one way (STYLE.md): model/ includes none of verif/, tb/, sim/; verif/ includes
neither tb/ nor sim/ and no Catch2; sim/ includes no tb/ and no Catch2. tb/ may use them all.

  layers_test.py SOURCE_DIR
"""
import pathlib
import re
import sys

SRC = pathlib.Path(sys.argv[1]).resolve()
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
# layer -> include prefixes it must not use
FORBIDDEN = {
    "model": ("verif/", "tb/", "sim/", "catch2/"),
    "verif": ("tb/", "sim/", "catch2/"),
    "sim": ("tb/", "catch2/"),
}


def main():
    bad = []
    files = 0
    for layer, prefixes in FORBIDDEN.items():
        for f in sorted((SRC / layer).rglob("*")):
            if f.suffix not in (".hpp", ".cpp", ".h", ".cc", ".inc"):
                continue
            files += 1
            for inc in INCLUDE.findall(f.read_text(errors="replace")):
                if inc.startswith(prefixes):
                    bad.append(f"{f.relative_to(SRC)} includes {inc}")
    for b in bad:
        print("FAIL " + b)
    print(f"{files} files of model/, verif/ and sim/ checked: {len(bad)} includes against the layers")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
