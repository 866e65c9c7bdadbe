#!/usr/bin/env python3
"""make waves TEST='<test case>' SEED=<n>: rerun one test with FLINT_WAVES=1 and a given seed, and
say where its FST waveform and GTKWave save file are. Opens nothing (gtkwave FILE.gtkw does)."""
import argparse
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import testbins  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--test", required=True, help="exact Catch2 test case name")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    owners = [exe for exe in testbins.executables(args.build)
              if args.test in testbins.test_names(exe)]
    if not owners:
        print(f"waves: no test case named {args.test!r}; list them with "
              f"`{args.build}/tb/<area>/test_<area> --list-test-names-only`", file=sys.stderr)
        return 2
    exe = owners[0]
    env = dict(os.environ, FLINT_WAVES="1", FLINT_SEED=str(args.seed))
    proc = subprocess.run([str(exe), testbins.catch_spec(args.test), "--rng-seed", str(args.seed)],
                          env=env)
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in args.test)
    waves = pathlib.Path(args.build).resolve() / "waves"
    fst, gtkw = waves / f"{stem}.fst", waves / f"{stem}.gtkw"
    if fst.exists():
        print(f"waves: {fst}\nwaves: open with: gtkwave {gtkw}")
    else:
        print("waves: the test wrote no FST (a model-only test has no RTL to trace)")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
