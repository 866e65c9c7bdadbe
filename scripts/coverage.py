#!/usr/bin/env python3
"""make coverage: every RTL test with coverage on, merged, summarised per RTL file into
docs/coverage.md and docs/coverage.json, naming every cover point and line the tests never hit.

  scripts/coverage.py --build build [--jobs 2] [--tests REGEX] [--min 1] [--out docs/coverage.md]
  scripts/coverage.py --data DIR [--min 1] [--out FILE]   (summarise .dat files, run no test)

Coverage is compiled in only in the coverage build (make coverage configures its own tree with
-DFLINT_COVERAGE=ON; cmake/flint.cmake); FLINT_COVERAGE=<dir> in the environment makes each
test harness write its DUT's counts to a file of its own in <dir> (tb/common/harness.hpp). This
script runs the test cases of every test executable that holds a Verilated model through ctest
with that variable set, merges the files with verilator_coverage and reads the merged counts:
  line    Verilator's line coverage: statement blocks (v_line) and branch arms (v_branch);
  toggle  every bit of every signal (v_toggle: it changed value);
  cover   the functional cover points (FLINT_COVER, rtl/common/flint_assert.svh; v_user).
A point is hit when its count is at least --min (verilator_coverage --annotate-min; its own
default is 10). Points of one source location are summed over every instance, parameter set and
config. Only files under rtl/ are counted; test wrappers and generated netlists are listed apart.
docs/coverage_reasons.txt says why a point is never hit; a never-hit point without a reason is
named as unexplained.

Work files in BUILD/coverage: dat/ (one file per harness), merged.dat, annotated/ (every source
with its counts, lines below --min marked '%'), ctest.log, merged.info and html/ (lcov's genhtml,
which scripts/setup.sh installs; html/index.html is the page to open; --no-html skips it). Exit
status 1 if a test failed (the summary is still written).
"""
import argparse
import datetime
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import testbins  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
REASONS = ROOT / "docs" / "coverage_reasons.txt"
KINDS = ("line", "toggle", "cover")


# ------------------------------------------------------------------------------------ running
def rtl_executables(build):
    """Test executables that hold a Verilated model (their folder has a V<prefix>.dir)."""
    return [exe for exe in testbins.executables(build)
            if any(d.is_dir() and d.name.startswith("V") and d.name.endswith(".dir")
                   for d in exe.parent.iterdir())]


def build_times(exes):
    """{source path under ROOT: when the oldest executable Verilating it was linked}, from the
    file lists Verilator keeps beside its output (V<prefix>.dir/*__verFiles.dat)."""
    times = {}
    for exe in exes:
        for ver in exe.parent.glob("V*.dir/*__verFiles.dat"):
            for line in ver.read_text(errors="replace").splitlines():
                m = re.match(r'^S .*"(.*)"$', line)
                if not m:
                    continue
                try:
                    path = str(pathlib.Path(m.group(1)).resolve().relative_to(ROOT))
                except ValueError:
                    continue
                times[path] = min(times.get(path, exe.stat().st_mtime), exe.stat().st_mtime)
    return times


def run_tests(build, regex, jobs, dat_dir, log):
    """ctest over `regex` with FLINT_COVERAGE set; returns (tests run, failed test names)."""
    env = dict(os.environ, FLINT_COVERAGE=str(dat_dir))
    cmd = ["ctest", "-j", str(jobs), "-R", regex, "--timeout", "900", "--output-on-failure"]
    print(f"coverage: {' '.join(cmd)} (in {build}, FLINT_COVERAGE={dat_dir})", file=sys.stderr)
    with open(log, "w") as out:
        proc = subprocess.run(cmd, cwd=build, env=env, stdout=out, stderr=subprocess.STDOUT)
    text = pathlib.Path(log).read_text(errors="replace")
    m = re.search(r"tests passed, (\d+) tests failed out of (\d+)", text)
    total = int(m.group(2)) if m else 0
    failed = re.findall(r"^\s*\d+ - (.*?) \((?:Failed|Timeout|SEGFAULT|Subprocess aborted|"
                        r"Child aborted|Exception|OTHER_FAULT|Not Run)", text, re.M)
    if proc.returncode != 0 and not failed:
        failed = [f"ctest exited {proc.returncode} (see {log})"]
    return total, failed


def merge(dat_files, work, min_count, want_html=True):
    merged = work / "merged.dat"
    # verilator_coverage reads its inputs one by one; a long list is fine on Linux.
    subprocess.run(["verilator_coverage", "--write", str(merged), *map(str, dat_files)],
                   check=True, stdout=subprocess.DEVNULL)
    ann = work / "annotated"
    shutil.rmtree(ann, ignore_errors=True)
    subprocess.run(["verilator_coverage", "--annotate", str(ann), "--annotate-all",
                    "--annotate-min", str(min_count), str(merged)],
                   check=True, stdout=subprocess.DEVNULL)
    html = None
    if want_html:
        info = work / "merged.info"
        subprocess.run(["verilator_coverage", "--write-info", str(info), str(merged)],
                       check=True, stdout=subprocess.DEVNULL)
        html = work / "html"
        shutil.rmtree(html, ignore_errors=True)
        r = subprocess.run(["genhtml", "-q", "-o", str(html), str(info)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            sys.exit(f"coverage: genhtml failed: {r.stderr.strip()[:300]}")
    return merged, ann, html


# ------------------------------------------------------------------------------------ reading
def read_points(merged):
    """Merged points summed per source location: {(file, kind, line, col, name): [count, span]}."""
    pts = {}
    for raw in merged.read_text(errors="replace").splitlines():
        if not raw.startswith("C '"):
            continue
        q = raw.rindex("'")
        count = int(raw[q + 1:].strip())
        kv = {}
        for item in raw[3:q].split("\x01"):
            if item:
                k, _, v = item.partition("\x02")
                kv[k] = v
        page = kv.get("page", "")
        kind = {"v_line": "line", "v_branch": "line", "v_toggle": "toggle",
                "v_user": "cover"}.get(page.split("/")[0])
        if kind is None:
            continue
        f = pathlib.Path(kv.get("f", "?"))
        try:
            f = f.resolve().relative_to(ROOT)
        except ValueError:
            pass
        name = kv.get("o", "")
        if page.startswith("v_branch") or page.startswith("v_line"):
            name = f"{page.split('/')[0][2:]} {name}"  # "line block", "branch if", "branch else"
        key = (str(f), kind, int(kv.get("l", 0)), int(kv.get("n", 0)), name)
        entry = pts.setdefault(key, [0, kv.get("S", kv.get("l", ""))])
        entry[0] += count
    return pts


def read_reasons():
    """docs/coverage_reasons.txt: `file stem | point | class | reason` lines; '#' comments.
    point: a cover point name; `line:<text>` for line points whose source contains <text>;
    `L<n>` for the line points of line n; `toggle:<prefix>` for signals starting with <prefix>."""
    reasons = []
    if REASONS.exists():
        for n, raw in enumerate(REASONS.read_text().splitlines(), 1):
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            parts = [p.strip() for p in raw.split("|", 3)]
            if len(parts) != 4:
                sys.exit(f"coverage: {REASONS.name}:{n}: want `file | point | class | reason`")
            reasons.append({"stem": parts[0], "point": parts[1], "class": parts[2],
                            "reason": parts[3], "used": False, "line": n})
    return reasons


def find_reason(reasons, stem, kind, name, lineno, text):
    for r in reasons:
        if r["stem"] != stem:
            continue
        p = r["point"]
        ok = False
        if kind == "cover":
            ok = p == name
        elif kind == "line":
            ok = (p.startswith("line:") and p[5:] in text) or p == f"L{lineno}"
        elif kind == "toggle":
            ok = p.startswith("toggle:") and name.startswith(p[7:])
        if ok:
            r["used"] = True
            return r
    return None


def source_line(path, lineno, cache={}):
    if path not in cache:
        try:
            cache[path] = (ROOT / path).read_text(errors="replace").splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[lineno - 1].strip() if 0 < lineno <= len(lines) else ""


def summarise(pts, min_count, reasons):
    files = {}
    for (path, kind, line, col, name), (count, span) in sorted(pts.items()):
        group = ("rtl" if path.startswith("rtl/") else
                 "tb" if path.startswith("tb/") else "generated")
        f = files.setdefault(path, {"group": group, **{k: {"hit": 0, "total": 0} for k in KINDS},
                                    "line_hit10": 0, "cover_points": [], "missed_lines": [],
                                    "missed_toggles": {}})
        hit = count >= min_count
        f[kind]["total"] += 1
        f[kind]["hit"] += hit
        stem = pathlib.Path(path).stem
        if kind == "line":
            f["line_hit10"] += count >= 10
        if kind == "cover":
            r = None if hit else find_reason(reasons, stem, kind, name, line, "")
            f["cover_points"].append({"name": name, "line": line, "count": count, "hit": hit,
                                      "class": r["class"] if r else None,
                                      "reason": r["reason"] if r else None})
        elif kind == "line" and not hit:
            text = source_line(path, line)
            r = find_reason(reasons, stem, kind, name, line, text)
            f["missed_lines"].append({"line": line, "span": span, "kind": name, "count": count,
                                      "source": text, "class": r["class"] if r else None,
                                      "reason": r["reason"] if r else None})
        elif kind == "toggle":
            sig = re.sub(r"\[\d+\]$", "", name)
            t = f["missed_toggles"].setdefault(sig, {"line": line, "bits": 0, "missed": 0})
            t["bits"] += 1
            t["missed"] += not hit
    for path, f in files.items():
        f["missed_toggles"] = {s: t for s, t in f["missed_toggles"].items() if t["missed"]}
        for sig, t in f["missed_toggles"].items():
            r = find_reason(reasons, pathlib.Path(path).stem, "toggle", sig, t["line"], "")
            t["class"], t["reason"] = (r["class"], r["reason"]) if r else (None, None)
    return files


# ------------------------------------------------------------------------------------ writing
def pct(d):
    return f"{100.0 * d['hit'] / d['total']:.1f} %" if d["total"] else "-"


def frac(d):
    return f"{d['hit']}/{d['total']}" if d["total"] else "-"


def totals(files, group):
    t = {k: {"hit": 0, "total": 0} for k in KINDS}
    t["line_hit10"] = 0
    for f in files.values():
        if f["group"] == group:
            for k in KINDS:
                t[k]["hit"] += f[k]["hit"]
                t[k]["total"] += f[k]["total"]
            t["line_hit10"] += f["line_hit10"]
    return t


def why(item):
    return f"{item['class']}: {item['reason']}" if item.get("reason") else "**no reason recorded**"


def ranges(nums):
    nums = sorted(set(nums))
    out, i = [], 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append(str(nums[i]) if i == j else f"{nums[i]}-{nums[j]}")
        i = j + 1
    return ", ".join(out)


def write_markdown(out, files, meta, min_count):
    rtl = {p: f for p, f in files.items() if f["group"] == "rtl"}
    t = totals(files, "rtl")
    L = ["# Coverage", "",
         f"Generated by `{meta['command']}` at commit {meta['commit']} on {meta['date']}: "
         f"{meta['tests_line']}, {meta['dat_files']} coverage files (one per test harness), "
         f"{meta['seconds']:.0f} s. Raw figures: `{out.with_suffix('.json').name}`.", "",
         *([f"Changed since the tests were built, so their line text below may not match the "
            f"counts: {', '.join(f'`{c}`' for c in meta['changed_since_build'])}.", ""]
           if meta["changed_since_build"] else []),
         f"**Threshold: a point counts as hit when the tests reach it at least {min_count} "
         f"time{'s' if min_count != 1 else ''}** (`verilator_coverage --annotate-min {min_count}`;"
         " the tool's own default is 10, given beside the line figures). Counts of one source "
         "location are summed over every instance, parameter set and config the tests build.", "",
         "## How to run", "",
         "```",
         "make coverage                      # all RTL tests with coverage on, then this file",
         "scripts/coverage.py --build build --tests '^test_ftl:'   # a subset (ctest -R regex)",
         "FLINT_COVERAGE=/tmp/cov build/tb/ftl/test_ftl 'btt: *'   # any test by hand, then:",
         "scripts/coverage.py --data /tmp/cov --out /tmp/cov/coverage.md",
         "```", "",
         "`FLINT_COVERAGE=<dir>` makes every test harness (tb/common/harness.hpp) write its DUT's "
         "counts to `<dir>/<test>.<pid>.<n>.dat` when it ends, and start the DUT from an all-zero "
         "power-up state instead of the seed's random one, so that toggles count what the design "
         "does, not the random power-up pattern (random power-up stays the normal runs' job). "
         "Without it nothing is written and tests run as before. The work files are in "
         "`build/coverage/`: `merged.dat` (all runs, "
         "`verilator_coverage --write`), `annotated/` (every RTL source with its counts, lines "
         f"below {min_count} marked `%`), `ctest.log`, and `html/` (genhtml) when lcov is "
         "installed (`scripts/setup.sh --coverage`).", "",
         "What is measured: **line** = Verilator's line coverage, statement blocks and branch "
         "arms (`if`/`else`, `case` items); **toggle** = every bit of every signal changed "
         "value; **cover** = the functional cover points (`FLINT_COVER` in "
         "rtl/common/flint_assert.svh, `FLINT_COVER_COMB` in the combinational ECC decoders). "
         "Verilator 5.006 has no FSM or expression coverage; cover points name the FSM states "
         "and decisions that matter. Why a point is never hit comes from "
         "`docs/coverage_reasons.txt`, by class: `gap` (a test could reach it and does not), "
         "`config` (reachable only at a config or parameter set no test builds), `range` (high "
         "bits of a counter, stamp or field sized for `paper`), `unreachable` (the design or its "
         "callers rule it out), `test-only` (bug-injection code), `tool` (a Verilator artefact, "
         "with the evidence).", "",
         "## Summary (files under rtl/)", "",
         "| | hit | points | share |", "|---|---:|---:|---:|"]
    for k, label in (("line", "line (blocks and branches)"), ("toggle", "toggle (bits)"),
                     ("cover", "functional cover points")):
        L.append(f"| {label} | {t[k]['hit']} | {t[k]['total']} | {pct(t[k])} |")
    if t["line"]["total"]:
        L.append(f"| line at the tool's default threshold (10) | {t['line_hit10']} | "
                 f"{t['line']['total']} | {100.0 * t['line_hit10'] / t['line']['total']:.1f} % |")
    L += ["", "## Per RTL file", "",
          "| file | line | toggle | cover points |", "|---|---:|---:|---:|"]
    for p, f in sorted(rtl.items()):
        L.append(f"| `{p}` | {frac(f['line'])} ({pct(f['line'])}) | "
                 f"{frac(f['toggle'])} ({pct(f['toggle'])}) | {frac(f['cover'])} |")
    missed_cov = [(p, c) for p, f in sorted(rtl.items()) for c in f["cover_points"]
                  if not c["hit"]]
    L += ["", f"## Cover points never hit ({len(missed_cov)})", ""]
    if missed_cov:
        L += ["| file | point | count | why |", "|---|---|---:|---|"]
        L += [f"| `{p}` | `{c['name']}` (line {c['line']}) | {c['count']} | {why(c)} |"
              for p, c in missed_cov]
    else:
        L.append("None.")
    L += ["", "## Every cover point", "",
          "| file | point | line | count |", "|---|---|---:|---:|"]
    for p, f in sorted(rtl.items()):
        for c in f["cover_points"]:
            L.append(f"| `{p}` | `{c['name']}` | {c['line']} | {c['count']} |")
    n_lines = sum(len(f["missed_lines"]) for f in rtl.values())
    L += ["", f"## Lines never hit ({n_lines} points)", "",
          "Each line point of an RTL file below the threshold: its line (and the lines its block "
          "spans), the point (a statement block or a branch arm), its count and why.", ""]
    for p, f in sorted(rtl.items()):
        if not f["missed_lines"]:
            continue
        L += [f"### `{p}`", "", "| line | point | count | source | why |",
              "|---|---|---:|---|---|"]
        for m in f["missed_lines"]:
            src = m["source"].replace("|", "\\|")
            if len(src) > 70:
                src = src[:67] + "..."
            L.append(f"| {m['span']} | {m['kind']} | {m['count']} | `{src}` | {why(m)} |")
        L.append("")
    L += ["## Toggles never seen", "",
          "Signals of RTL files with bits that never changed value, as `signal (bits never "
          "toggled / bits)`, bits summed over every instance and parameter set; then the "
          "recorded reasons, each with the signals it covers.", ""]
    for p, f in sorted(rtl.items()):
        mt = f["missed_toggles"]
        if not mt:
            continue
        parts, why_sigs = [], {}
        for sig, tg in sorted(mt.items(), key=lambda kv: kv[1]["line"]):
            parts.append(f"`{sig}` ({tg['missed']}/{tg['bits']})")
            if tg.get("reason"):
                why_sigs.setdefault((tg["class"], tg["reason"]), []).append(sig)
        L.append(f"- `{p}`: " + ", ".join(parts))
        for (cls, reason), sigs in why_sigs.items():
            L.append(f"  - {cls}: {reason} ({', '.join(f'`{x}`' for x in sigs)})")
    others = {p: f for p, f in files.items() if f["group"] != "rtl"}
    if others:
        L += ["", "## Measured but not counted", "",
              "Test wrappers (tb/) and generated netlists (the Yosys netlists of the miter "
              "tests) are Verilated with coverage too; they are not RTL of the design.", "",
              "| file | line | toggle | cover points |", "|---|---:|---:|---:|"]
        for p, f in sorted(others.items()):
            L.append(f"| `{p}` | {frac(f['line'])} | {frac(f['toggle'])} | {frac(f['cover'])} |")
    out.write_text("\n".join(L) + "\n")


# ------------------------------------------------------------------------------------ main
def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tests", help="ctest -R regex (default: every case of every test "
                                    "executable holding a Verilated model)")
    ap.add_argument("--skip", action="append", default=[],
                    help="leave this test executable out of the default selection (repeatable)")
    ap.add_argument("--data", help="summarise the .dat files in this folder; run no test")
    ap.add_argument("--min", type=int, default=1, help="count at which a point is hit")
    ap.add_argument("--out", default=str(ROOT / "docs" / "coverage.md"))
    ap.add_argument("--no-html", action="store_true", help="no lcov HTML pages")
    args = ap.parse_args()
    if not shutil.which("verilator_coverage"):
        sys.exit("coverage: verilator_coverage not found (make setup)")
    if not args.no_html and not shutil.which("genhtml"):
        sys.exit("coverage: lcov's genhtml not found (make setup installs lcov; --no-html skips "
                 "the HTML pages)")
    start = time.time()
    out = pathlib.Path(args.out)
    failed = []
    built = {}  # source -> when the executables run were linked (empty with --data)
    if args.data:
        dat_dir = pathlib.Path(args.data).resolve()
        work = dat_dir / "merged"  # not beside the inputs: merged.dat would be read next time
        work.mkdir(exist_ok=True)
        tests_line = f"files of `{args.data}`"
        command = f"scripts/coverage.py --data {args.data}"
    else:
        build = pathlib.Path(args.build).resolve()
        work = build / "coverage"
        dat_dir = work / "dat"
        shutil.rmtree(dat_dir, ignore_errors=True)
        dat_dir.mkdir(parents=True)
        regex = args.tests
        if not regex:
            exes = sorted({e.name for e in rtl_executables(build)} - set(args.skip))
            if not exes:
                sys.exit(f"coverage: no test executable with RTL under {build}/tb (make build)")
            regex = "^(" + "|".join(exes) + "):"  # ctest names: "test_bbc:bbc sched: ..."
        names = re.findall(r"test_\w+", regex)
        built = build_times([e for e in rtl_executables(build) if e.name in names])
        total, failed = run_tests(build, regex, args.jobs, dat_dir, work / "ctest.log")
        tests_line = (f"{total} test cases (`ctest -R '{regex}'`), "
                      f"{total - len(failed)} passed")
        command = ("make coverage" if not args.tests and not args.skip else
                   "scripts/coverage.py --build BUILD" +
                   "".join(f" --skip {s}" for s in args.skip) +
                   (f" --tests '{regex}'" if args.tests else ""))
    dats = sorted(dat_dir.glob("*.dat"))
    if not dats:
        sys.exit(f"coverage: no .dat files in {dat_dir}: did the tests run with FLINT_COVERAGE?")
    merged, ann, html = merge(dats, work, args.min, not args.no_html)
    reasons = read_reasons()
    files = summarise(read_points(merged), args.min, reasons)
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                         text=True).stdout.strip() or "unknown"
    # Say so when the RTL or the tests measured are not those of the commit.
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "rtl", "tb"], cwd=ROOT,
                           capture_output=True, text=True).stdout.splitlines()
    if dirty:
        rev += f" with {len(dirty)} uncommitted file(s) under rtl/ and tb/"
    # A source edited after its test executable was built no longer matches the line numbers.
    changed = sorted(p for p in files if p in built and (ROOT / p).exists() and
                     (ROOT / p).stat().st_mtime > built[p])
    if changed:
        print(f"coverage: changed since the tests were built (rebuild; line text may not match): "
              f"{', '.join(changed)}", file=sys.stderr)
    meta = {"command": command, "commit": rev, "date": str(datetime.date.today()),
            "tests_line": tests_line, "dat_files": len(dats), "seconds": time.time() - start,
            "min_count": args.min, "failed_tests": failed, "changed_since_build": changed}
    out.parent.mkdir(parents=True, exist_ok=True)
    write_markdown(out, files, meta, args.min)
    summary = {"meta": meta, "totals": {g: totals(files, g) for g in ("rtl", "tb", "generated")},
               "files": files}
    out.with_suffix(".json").write_text(json.dumps(summary, indent=1) + "\n")

    t = summary["totals"]["rtl"]
    print(f"coverage: RTL line {frac(t['line'])} ({pct(t['line'])}), toggle {frac(t['toggle'])} "
          f"({pct(t['toggle'])}), cover points {frac(t['cover'])} ({pct(t['cover'])}) "
          f"at >= {args.min}")
    missed = [(p, c["name"]) for p, f in files.items() if f["group"] == "rtl"
              for c in f["cover_points"] if not c["hit"]]
    for p, name in missed:
        print(f"coverage: never hit: {pathlib.Path(p).stem}.{name}")
    unexplained = [f"{pathlib.Path(p).stem}.{c['name']}" for p, f in files.items()
                   if f["group"] == "rtl" for c in f["cover_points"]
                   if not c["hit"] and not c["reason"]]
    unexplained += [f"{p}:{m['line']}" for p, f in files.items() if f["group"] == "rtl"
                    for m in f["missed_lines"] if not m["reason"]]
    if unexplained:
        print(f"coverage: {len(unexplained)} never-hit points have no reason in "
              f"{REASONS.relative_to(ROOT)}: {', '.join(unexplained[:12])}"
              f"{' ...' if len(unexplained) > 12 else ''}", file=sys.stderr)
    stale = [f"{REASONS.name}:{r['line']}" for r in reasons if not r["used"]]
    if stale and not args.data and not args.tests and not args.skip:
        print(f"coverage: reasons that matched nothing never hit (stale?): {', '.join(stale)}",
              file=sys.stderr)
    print(f"coverage: wrote {out} and {out.with_suffix('.json')}; annotated sources in {ann}"
          f"{'; html in ' + str(html) if html else ''}")
    if failed:
        print(f"coverage: {len(failed)} test(s) failed: {', '.join(failed[:10])}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
