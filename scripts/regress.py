#!/usr/bin/env python3
"""make regress SEEDS=N: every [random] test case over seeds 1..N (longer than CI), then a table
of seeds run and failures, with the command that replays each failure with waves.

Each (test case, seed) is one job of scripts/jobs.py, run by Dask: --workers N local worker
processes, or --scheduler ADDRESS (or $FLINT_SCHEDULER) for a cluster's workers. A passing run
leaves BUILD/regress/<exe>/<test>/<seed>.log; --resume keeps those and runs only the rest (a
failing run leaves no log, so it runs again). The merged results also go to
BUILD/regress/results.json (test, seed, passed), sorted, the same whatever ran them.

  scripts/regress.py --build build [--seeds 20] [--first-seed 1] [--workers 2]
                     [--scheduler ADDRESS] [--exe test_common] [--tests '[random]'] [--resume]
"""
import argparse
import json
import pathlib
import shutil
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import jobs  # noqa: E402
import testbins  # noqa: E402


def stem(name):
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name)


def plan(build, exes, spec, seeds, outdir):
    """The job list: one job per test case of `spec` per seed; returns (jobs, {job: (exe,
    test, seed)})."""
    out, meta = [], {}
    for exe in testbins.executables(build):
        if exes and exe.name not in exes:
            continue
        for name in testbins.test_names(exe, spec):
            for s in seeds:
                key = f"{exe.name}:{name}:{s}"
                out.append(jobs.Job(
                    name=key, stdout=True,
                    cmd=[str(exe.resolve()), testbins.catch_spec(name), "--rng-seed", str(s)],
                    out=str(outdir / exe.name / stem(name) / f"{s}.log"),
                    env={"FLINT_SEED": str(s)}))
                meta[key] = (exe.name, name, s)
    return out, meta


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__.split(
        "\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True)
    ap.add_argument("--seeds", type=int, default=20, help="how many seeds per test case")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2,
                    help="local Dask worker processes (0: serially, without Dask)")
    ap.add_argument("--scheduler", default=None,
                    help="Dask scheduler address (default $FLINT_SCHEDULER): run on a cluster")
    ap.add_argument("--exe", default="", help="comma list of test executables (default: all)")
    ap.add_argument("--tests", default="[random]", help="Catch2 test spec (default [random])")
    ap.add_argument("--resume", action="store_true",
                    help="keep the passing runs of an earlier regression and run only the rest")
    ap.add_argument("--quiet", action="store_true", help="no progress line")
    args = ap.parse_args(argv)
    outdir = pathlib.Path(args.build).resolve() / "regress"
    if not args.resume and outdir.exists():
        shutil.rmtree(outdir)
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    exes = {e for e in args.exe.split(",") if e}
    todo, meta = plan(args.build, exes, args.tests, seeds, outdir)
    if not todo:
        print(f"regress: no {args.tests} test cases found; build first (make build)",
              file=sys.stderr)
        return 2
    start = time.time()
    res = jobs.run(todo, workers=args.workers, scheduler=args.scheduler, resume=args.resume,
                   label="regress", quiet=args.quiet)
    results = {}
    for r in res:
        exe, name, seed = meta[r.name]
        results.setdefault((exe, name), []).append((seed, r.ok))
    merged = [{"exe": exe, "test": name, "seed": s, "passed": ok} for exe, name, s, ok in
              sorted((exe, name, s, ok) for (exe, name), runs in results.items() for s, ok in runs)]
    outdir.mkdir(parents=True, exist_ok=True)
    (outdir / "results.json").write_text(json.dumps(merged, indent=1) + "\n")

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
    kept = sum(r.skipped for r in res)
    print(f"\nregress: {len(results)} test cases x {args.seeds} seeds in "
          f"{time.time() - start:.0f} s" + (f" ({kept} kept from an earlier run)" if kept else ""))
    print(f"regress: {runs - total_fail} passed, {total_fail} failed")
    return 1 if total_fail else 0


if __name__ == "__main__":
    sys.exit(main())
