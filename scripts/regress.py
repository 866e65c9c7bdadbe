#!/usr/bin/env python3
"""make regress SEEDS=N: every [random] test case over seeds 1..N (longer than CI), then a table
of seeds run and failures, with the command that replays each failure with waves."""
import argparse
import concurrent.futures as cf
import os
import pathlib
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import testbins  # noqa: E402


def run_one(exe, name, seed):
    env = dict(os.environ, FLINT_SEED=str(seed))
    proc = subprocess.run([str(exe), testbins.catch_spec(name), "--rng-seed", str(seed)],
                          env=env, capture_output=True, text=True)
    return exe, name, seed, proc.returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    jobs = [(exe, name) for exe in testbins.executables(args.build)
            for name in testbins.test_names(exe, "[random]")]
    if not jobs:
        print("regress: no [random] test cases found; build first (make build)", file=sys.stderr)
        return 2
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    start = time.time()
    results = {}
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        futs = [pool.submit(run_one, exe, name, s) for exe, name in jobs for s in seeds]
        for i, fut in enumerate(cf.as_completed(futs), 1):
            exe, name, seed, ok = fut.result()
            results.setdefault((exe.name, name), []).append((seed, ok))
            if sys.stderr.isatty() or i % 50 == 0:
                print(f"\rregress: {i}/{len(futs)} runs", end="", file=sys.stderr)
    print("", file=sys.stderr)
    width = max(len(n) for _, n in results) + 2
    print(f"{'test case':<{width}} {'seeds':>6} {'failed':>6}")
    total_fail = 0
    replays = []
    for (exe, name), runs in sorted(results.items()):
        failed = sorted(s for s, ok in runs if not ok)
        total_fail += len(failed)
        print(f"{name:<{width}} {len(runs):>6} {len(failed):>6}")
        replays += [f"make waves TEST='{name}' SEED={s}" for s in failed[:5]]
    if replays:
        print("\nreplay the first failures with waves:")
        print("\n".join("  " + r for r in replays))
    runs = sum(len(r) for r in results.values())
    print(f"\nregress: {len(results)} random test cases x {args.seeds} seeds in "
          f"{time.time() - start:.0f} s")
    print(f"regress: {runs - total_fail} passed, {total_fail} failed")
    return 1 if total_fail else 0


if __name__ == "__main__":
    sys.exit(main())
