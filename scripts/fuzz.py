#!/usr/bin/env python3
"""libFuzzer runs of FLINT's fuzz targets (tb/fuzz, docs/verification.md "Fuzzing").

Each target runs for --seconds from its corpus (tb/fuzz/corpus/<name>, copied into a work
directory so the tree is not touched) with a fixed libFuzzer seed, so a run is repeatable as far
as libFuzzer's own scheduling allows. A finding (a crash, a sanitizer report, a timeout, an
oracle's abort) fails the run and names the input file and the one command that replays it.
--merge folds the new inputs of the run into the in-tree corpus (libFuzzer -merge=1: only inputs
that add coverage). --out writes a Markdown table of the run.

Usage: fuzz.py --bin-dir BUILD/tb/fuzz [--seconds 10] [--only crq] [--merge] [--selftest]
                [--out FILE]
"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tb" / "fuzz" / "corpus"
# name -> what it fuzzes (the table's second column)
TARGETS = {
    "trace": "trace parser (sim/workload/trace.cpp) on arbitrary bytes: TraceError with its line "
             "or a valid trace, streaming = whole reader, write/read round trip",
    "hints": "H3 hints parser (sim/engines/h3_hints_io.cpp): as the trace parser",
    "crq": "Verilated CRQ bank (8 entries, 2 slots, assertions on) against model::CrqBank, "
           "two bytes a cycle (handshakes, slots, payload, reset)",
}
STAT = re.compile(r"^stat::(\w+):\s+(\d+)", re.M)
COV = re.compile(r"cov: (\d+) ft: (\d+) corp: (\d+)/")


def run_one(name, binary, seconds, work, merge):
    corpus_in = CORPUS / name
    corpus_in.mkdir(parents=True, exist_ok=True)
    wdir = work / name
    if wdir.exists():
        shutil.rmtree(wdir)
    (wdir / "corpus").mkdir(parents=True)
    (wdir / "artifacts").mkdir()
    for f in corpus_in.iterdir():
        if f.is_file():
            shutil.copy(f, wdir / "corpus" / f.name)
    seeds = sum(1 for _ in (wdir / "corpus").iterdir())
    cmd = [str(binary), "-seed=1", f"-max_total_time={seconds}", "-print_final_stats=1",
           "-timeout=20", "-rss_limit_mb=2048", f"-artifact_prefix={wdir / 'artifacts'}/",
           str(wdir / "corpus")]
    t0 = time.time()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace", timeout=seconds * 4 + 120)
    (wdir / "fuzz.log").write_text(p.stdout)
    stats = {k: int(v) for k, v in STAT.findall(p.stdout)}
    cov = COV.findall(p.stdout)
    res = {"name": name, "seconds": round(time.time() - t0, 1), "rc": p.returncode,
           "execs": stats.get("number_of_executed_units", 0),
           "exec_per_s": stats.get("average_exec_per_sec", 0),
           "new": stats.get("new_units_added", 0), "seeds": seeds,
           "cov": int(cov[-1][0]) if cov else 0, "features": int(cov[-1][1]) if cov else 0,
           "corpus": int(cov[-1][2]) if cov else 0, "log": wdir / "fuzz.log"}
    res["findings"] = sorted((wdir / "artifacts").iterdir())
    if p.returncode == 0 and merge:
        subprocess.run([str(binary), "-merge=1", str(corpus_in), str(wdir / "corpus")],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        res["corpus_after"] = sum(1 for _ in corpus_in.iterdir())
    return res


def selftest(bin_dir, work):
    """The CRQ target with its oracle broken on purpose (FLINT_FUZZ_SELFTEST): the run must fail
    with a saved input that replays the failure. Returns a list of failure messages."""
    import os
    binary = bin_dir / "fuzz_crq"
    wdir = work / "selftest"
    if wdir.exists():
        shutil.rmtree(wdir)
    (wdir / "artifacts").mkdir(parents=True)
    (wdir / "corpus").mkdir()
    env = dict(os.environ, FLINT_FUZZ_SELFTEST="1")
    p = subprocess.run([str(binary), "-seed=1", "-max_total_time=60",
                        f"-artifact_prefix={wdir / 'artifacts'}/", str(wdir / "corpus")],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace", timeout=300)
    found = sorted((wdir / "artifacts").iterdir())
    if p.returncode == 0 or not found:
        return ["selftest: the broken oracle was not caught in 60 s"]
    r = subprocess.run([str(binary), str(found[0])], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace")
    if r.returncode == 0 or "rsp_data_o" not in r.stdout:
        return [f"selftest: the saved input {found[0]} does not replay the failure"]
    ok = subprocess.run([str(binary), str(found[0])], stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT)
    if ok.returncode != 0:
        return [f"selftest: {found[0]} fails with the oracle right too"]
    print(f"selftest: the broken oracle caught ({found[0].name}), replayed, and passes unbroken")
    return []


def report(results, args):
    """docs/fuzz.md: what was run, on which commit, and the table."""
    import datetime
    import platform
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True).stdout.strip() or "unknown"
    if subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                      capture_output=True, text=True).stdout.strip():
        rev += " (with uncommitted changes)"
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cmd = f"make fuzz FUZZ_SECONDS={args.seconds}"
    return "\n".join([
        "# Fuzzing: the last `make fuzz`", "",
        f"Generated by `{cmd}` (scripts/fuzz.py) at commit {rev}, {when}, on "
        f"{platform.machine()} with {__import__('os').cpu_count()} cores; libFuzzer with "
        "AddressSanitizer and UndefinedBehaviorSanitizer (clang++-14), libFuzzer seed 1. "
        "The targets, their oracles and how to replay a finding: docs/verification.md, "
        "\"Fuzzing\". Corpus in / after: the in-tree corpus (tb/fuzz/corpus/<target>) before "
        "the run, and after the run's new inputs were merged into it (only inputs that add "
        "coverage are kept).", "",
        table(results, args.seconds)])


def table(results, seconds):
    lines = [f"| target | what | seconds | executions | per second | coverage (edges / "
             f"features) | corpus in / after the run | findings |",
             "|---|---|---:|---:|---:|---:|---:|---|"]
    for r in results:
        after = r.get("corpus_after", r["corpus"])
        lines.append(f"| fuzz_{r['name']} | {TARGETS[r['name']]} | {seconds} | {r['execs']:,} | "
                     f"{r['exec_per_s']:,} | {r['cov']} / {r['features']} | {r['seeds']} / "
                     f"{after} | {len(r['findings']) if r['rc'] else 'none'} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin-dir", required=True, type=pathlib.Path)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--only", action="append", choices=sorted(TARGETS))
    ap.add_argument("--work", type=pathlib.Path, help="work directory (default BIN_DIR/work)")
    ap.add_argument("--merge", action="store_true", help="fold new inputs into tb/fuzz/corpus")
    ap.add_argument("--out", type=pathlib.Path, help="write the run's table (Markdown)")
    ap.add_argument("--selftest", action="store_true",
                    help="also check that a broken oracle is caught (the CRQ target)")
    args = ap.parse_args()
    work = args.work or args.bin_dir / "work"
    results, failed = [], False
    for name in args.only or TARGETS:
        binary = args.bin_dir / f"fuzz_{name}"
        if not binary.exists():
            print(f"fuzz: {binary} not built (cmake --build BUILD --target flint_fuzzers)",
                  file=sys.stderr)
            return 2
        r = run_one(name, binary, args.seconds, work, args.merge)
        results.append(r)
        print(f"fuzz_{name}: {r['execs']:,} executions in {r['seconds']} s "
              f"({r['exec_per_s']:,}/s), coverage {r['cov']} edges, corpus {r['seeds']} -> "
              f"{r['corpus']}, exit {r['rc']}")
        if r["rc"] != 0:
            failed = True
            tail = [l for l in r["log"].read_text().splitlines()
                    if l.startswith(f"fuzz_{name}:") or "ERROR" in l or "SUMMARY" in l]
            for l in tail[:5]:
                print(f"  {l}")
            for f in r["findings"] or [None]:
                if f is None:
                    print(f"  FINDING (no input saved; log {r['log']})")
                else:
                    print(f"  FINDING: {f}\n  replay: {binary} {f}")
    if args.selftest:
        for m in selftest(args.bin_dir, work):
            print(m)
            failed = True
    if args.out:
        args.out.write_text(report(results, args))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
