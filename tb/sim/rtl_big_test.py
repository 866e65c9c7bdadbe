#!/usr/bin/env python3
"""flint-sim-big (make rtl-big) on a real-shaped decode stream: by default one decode step of
tiny-medium at batch 4 at medium (flint-trace-gen), the bursts it reads loaded (--bursts: the
highest burst it reads, plus one) through the RTL's write path and, separately, mounted (the dies
preloaded, docs/top.md "Mount"); every response checked by the driver (data against the loaded
weights, status, the ECC model, the protocol checks); the mounted run equal to the written one
(cycles, bursts, bytes); the cycles held within 1 % of the golden model's (--engine model) on the
same trace and the same loaded bursts. At paper the write path takes days: --load mount.
--fast-powerup: the rtl runs power up by the backdoor (docs/top.md "Power-up"); --check-fast-powerup:
the mounted run proves it against a second model powered up by the sweeps (the swept state word for
word, then every output every cycle); --requests N: only the first N requests of the trace (a slice
of the step, for a ctest).
Usage: rtl_big_test.py PATH/TO/flint-sim-big PATH/TO/flint-trace-gen [--config medium]
[--model tiny-medium] [--batch 4] [--load both|mount|write] [--gen-args "--layer 1 ..."]
[--fast-powerup] [--check-fast-powerup] [--requests N] [--keep DIR]
[--doc FILE --section NAME --command TEXT] [--summary-out FILE]
--doc: on success the run's figures (cycles against the model, time, peak memory of each process)
go into FILE's section NAME, the file's other sections kept (make rtl-paper, rtl-paper-step:
docs/rtl_paper.md); --summary-out: the same figures as JSON (make bench's bench_rtl_paper)."""
import argparse
import datetime
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import tomllib

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("sim")
ap.add_argument("gen")
ap.add_argument("--config", default="medium")
ap.add_argument("--model", default="tiny-medium")
ap.add_argument("--batch", type=int, default=4)
ap.add_argument("--tolerance", type=float, default=0.01)
ap.add_argument("--load", choices=("both", "mount", "write"), default="both",
                help="how the rtl runs get the weights (both: each, and they must agree)")
ap.add_argument("--gen-args", default="", help="more flint-trace-gen arguments")
ap.add_argument("--keep", help="a folder to keep the trace and reports in")
ap.add_argument("--fast-powerup", action="store_true",
                help="the rtl runs power up by the backdoor instead of the sweeps")
ap.add_argument("--requests", type=int, default=0, help="keep only the first N requests")
ap.add_argument("--check-fast-powerup", action="store_true",
                help="the mounted run checks the backdoor against the sweeps")
ap.add_argument("--doc", help="on success, write the run's figures as a section of this Markdown "
                "file (other sections kept): make rtl-paper and rtl-paper-step, docs/rtl_paper.md")
ap.add_argument("--section", default="run", help="the --doc section's name")
ap.add_argument("--command", default="", help="the command the --doc section names as its maker")
ap.add_argument("--summary-out", help="write the run's figures as JSON (make bench reads it)")
ap.add_argument("--from-summary", help="run nothing: write --doc's section from a JSON file "
                "--summary-out wrote (a run too long to repeat for a change of the page)")
args = ap.parse_args()

# A burst is one page of every plane of every die (configs/<name>.toml).
ROOT = pathlib.Path(__file__).resolve().parents[2]
geo = tomllib.loads((ROOT / "configs" / f"{args.config}.toml").read_text())["geometry"]
burst_bytes = geo["dies"] * geo["planes"] * geo["page_bytes"]

failed = 0
failed_checks = []


def figures(m, r, rtl_host, model_host, requests, bursts, gen_cmd):
    """What a run shows, for --summary-out and --doc."""
    run_s = r.get("run_seconds") or 0.0
    return {
        "config": args.config, "model": args.model, "batch": args.batch,
        "stream": " ".join(["flint-trace-gen"] + [pathlib.Path(c).name if i == 0 else c
                                                   for i, c in enumerate(gen_cmd[1:], 1)]),
        "requests": requests, "first_requests_only": args.requests > 0,
        "bursts_mounted_or_loaded": bursts, "load": r["load"],
        "rtl_cycles": r["cycles"], "model_cycles": m["cycles"],
        "gap_percent": 100 * (r["cycles"] - m["cycles"]) / m["cycles"],
        "rtl_bursts": r["bursts_issued"], "rtl_refetched": r["bursts_refetched"],
        "model_bursts": m.get("bursts_issued"), "model_refetched": m.get("bursts_refetched"),
        "responses_ok": r["status"]["ok"], "responses_corrected": r["status"]["corrected"],
        "responses_uncorrectable": r["status"]["uncorrectable"],
        "data_mismatches": r["data_mismatches"],
        "ecc_model_mismatches": r["ecc_model_mismatches"], "violations": r["check_violations"],
        "link_busy": r["channel_utilization"], "refresh": r["refresh_rt"],
        "refresh_stall_cycles": r["refresh_stall_cycles"],
        "powerup_cycles": r["powerup_cycles"], "powerup_backdoor_cycles":
            r["powerup_backdoor_cycles"], "powerup_seconds": r["powerup_seconds"],
        "load_cycles": r["load_cycles"], "run_seconds": run_s, "threads": r.get("threads", 1),
        "run_cycles_per_second": r["cycles"] / run_s if run_s else None,
        "rtl_wall_seconds": rtl_host["wall_s"], "rtl_cpu_seconds": rtl_host["cpu_s"],
        "rtl_peak_rss_mb": rtl_host["peak_rss_mb"], "model_wall_seconds": model_host["wall_s"],
        "model_peak_rss_mb": model_host["peak_rss_mb"],
        "commit": commit(), "date": str(datetime.date.today()),
        "tolerance_percent": 100 * args.tolerance, "failed_checks": list(failed_checks),
    }


def commit():
    return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip() or "unknown"


def write_doc(path, section, f):
    """Replaces (or adds) `## section` in path, keeping the file's other sections."""
    rev = f["commit"]
    cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo")
                if ln.startswith("model name")), "unknown CPU")
    g = lambda n: f"{n:,}".replace(",", " ")
    rf = f["refresh"]
    body = [
        f"Measured {f['date']} at commit {rev} on {cpu}, {os.cpu_count()} cores, by "
        f"`{args.command or 'tb/sim/rtl_big_test.py'}` (tb/sim/rtl_big_test.py).",
        "",
        f"{f['model']} at batch {f['batch']} on the `{f['config']}` stack top, stack 0: "
        f"`{f['stream']}`" + (f", its first {g(f['requests'])} requests"
                              if f.get("first_requests_only") else "") +
        f"; the {g(f['bursts_mounted_or_loaded'])} bursts below the highest it "
        f"reads {'mounted' if f['load'] == 'mount' else 'loaded through the write path'}; every "
        "response checked (data against the loaded weights, status, the ECC model, the protocol "
        "checks).",
        "",
        "| | model | rtl |",
        "|---|---:|---:|",
        f"| requests | {g(f['requests'])} | {g(f['responses_ok'])} answered OK"
        + (f", {g(f['responses_corrected'])} CORRECTED (bit errors of the NAND model's RBER, "
           "corrected by the ECC as its model predicts)" if f.get("responses_corrected") else "")
        + ": "
        f"{f['data_mismatches']} data, {f['ecc_model_mismatches']} ECC-model mismatches, "
        f"{f['violations']} violations |",
        f"| cycles | {g(f['model_cycles'])} | {g(f['rtl_cycles'])} ({f['gap_percent']:+.3f} %) |",
        f"| bursts sensed (re-fetched) | {g(f['model_bursts'])} ({g(f['model_refetched'])}) | "
        f"{g(f['rtl_bursts'])} ({g(f['rtl_refetched'])}) |",
        f"| link busy | | {100 * f['link_busy']:.1f} % |",
        f"| refresh | none (the model has no refresh) | {g(rf['pages_scrubbed'])} pages scrubbed, "
        f"{g(rf['pages_forked'])} forked, {g(f['refresh_stall_cycles'])} park cycles |",
        f"| power-up to `ready_o` | | {g(f['powerup_cycles'])} cycles, "
        f"{g(f['powerup_backdoor_cycles'])} by the backdoor, {f['powerup_seconds']:.1f} s |",
        f"| {'mount' if f['load'] == 'mount' else 'load'} | | {g(f['load_cycles'])} cycles |",
        f"| the run's simulation | | {f['run_seconds']:.1f} s ({f['run_seconds'] / 60:.1f} min), "
        f"{g(round(f['run_cycles_per_second']))} cycles a second ({f['threads']} thread"
        f"{'s' if f['threads'] != 1 else ''}) |",
        f"| whole process | {f['model_wall_seconds']:.1f} s, {f['model_peak_rss_mb']:.0f} MB peak "
        f"| {f['rtl_wall_seconds']:.1f} s wall, {f['rtl_cpu_seconds']:.1f} s CPU, "
        f"{f['rtl_peak_rss_mb']:.0f} MB peak |",
    ]
    fails = f.get("failed_checks")
    if fails is None:
        fails = [] if abs(f["gap_percent"]) <= f.get("tolerance_percent", 1.0) else \
            ["cycles within 1 % of the model"]
    body += ["", ("Every check passed." if not fails else "**Failed:** " + "; ".join(fails) + ".")]
    gap = f["rtl_cycles"] - f["model_cycles"]
    if f["refresh_stall_cycles"] and gap > 0:
        body += ["", f"The model engine has no refresh; the RTL's scrubber copied "
                 f"{g(rf['pages_scrubbed'])} pages and parked reads for "
                 f"{g(f['refresh_stall_cycles'])} cycles, where the RTL took {g(gap)} cycles more "
                 "than the model. A comparison within 1 % over a run where refresh works needs "
                 "a model engine with FLINT's refresh, or an RTL top built without it."]
    sections = {}
    head = ("# The paper-size stack top on real decode traffic\n\n"
            "Written by `make rtl-paper` (one MoE layer) and `make rtl-paper-step` (a whole decode "
            "step of one stack), each into its own section with the date and commit it ran at; "
            "how the runs work (mount, fast power-up) and what they cost to build: "
            "docs/build.md, \"The paper-size stack top\", and docs/top.md.\n")
    if path.exists():
        for chunk in path.read_text().split("\n## ")[1:]:
            name, _, text = chunk.partition("\n")
            sections[name.strip()] = text.strip("\n")
    sections[section] = "\n".join(body)
    order = [k for k in ("layer", "step") if k in sections] + \
        [k for k in sections if k not in ("layer", "step")]
    path.write_text(head + "".join(f"\n## {k}\n\n{sections[k]}\n" for k in order))


def measured(cmd):
    """Runs cmd (its stderr, the progress lines, passed through) and returns its exit code, its
    stdout and what it cost the host: wall and CPU seconds, peak resident memory (wait4)."""
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    stdout = proc.stdout.read()
    _, status, ru = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, stdout, {"wall_s": time.monotonic() - t0,
                                     "cpu_s": ru.ru_utime + ru.ru_stime,
                                     "peak_rss_mb": ru.ru_maxrss / 1024}


def expect(name, cond, detail=""):
    global failed
    if not cond:
        failed += 1
        failed_checks.append(name)
        print(f"FAIL {name}: {detail}")


if args.from_summary:
    if not args.doc:
        sys.exit("rtl_big_test: --from-summary needs --doc")
    write_doc(pathlib.Path(args.doc), args.section,
              json.loads(pathlib.Path(args.from_summary).read_text()))
    sys.exit(0)

with tempfile.TemporaryDirectory() as tmp:
    d = pathlib.Path(args.keep or tmp)
    d.mkdir(parents=True, exist_ok=True)
    trace = d / "decode.trace"
    gen_cmd = [args.gen, "--model", args.model, "--config", args.config, "--batch",
               str(args.batch), "--tokens", "1", *args.gen_args.split()]
    subprocess.run(gen_cmd + ["--out", str(trace)], check=True, capture_output=True)
    # One pass over the trace, line by line (a whole step at paper is 42 M lines): the highest
    # address it reads, and with --requests the first N requests kept (comments kept too).
    top, kept = 0, 0
    sliced = d / "decode.slice" if args.requests else None
    with trace.open() as src, (sliced.open("w") if sliced else open("/dev/null", "w")) as dst:
        for line in src:
            if line.strip() and not line.startswith("#"):
                if args.requests and kept == args.requests:
                    continue
                kept += 1
                addr = int(line.split(None, 3)[2], 0)
                if addr > top:
                    top = addr
            if sliced:
                dst.write(line)
    if sliced:
        sliced.replace(trace)
    bursts = top // burst_bytes + 1
    rep = {}
    runs = {"model": ("model",)}
    if args.load in ("both", "write"):
        runs["rtl"] = ("rtl",)
    if args.load in ("both", "mount"):
        runs["rtl-mount"] = ("rtl", "--mount")
    if args.fast_powerup:
        runs = {k: v + (("--fast-powerup",) if v[0] == "rtl" else ()) for k, v in runs.items()}
    if args.check_fast_powerup and "rtl-mount" in runs:
        runs["rtl-mount"] += ("--check-fast-powerup",)
    host = {}
    for name, (engine, *more) in runs.items():
        out = d / f"{name}.json"
        cmd = [args.sim, "--trace", str(trace), "--config", args.config, "--engine", engine,
               *more, "--bursts", str(bursts), "--report", str(out)]
        code, stdout, host[name] = measured(cmd)
        print(stdout, end="")
        expect(f"{name} run", code == 0, stdout)
        rep[name] = json.loads(out.read_text()) if out.exists() else {}
    if "rtl" in rep and "rtl-mount" in rep:
        w, t = rep["rtl"], rep["rtl-mount"]
        same = ("cycles", "bursts_issued", "bursts_refetched", "useful_bytes", "fetched_bytes",
                "status", "refresh_rt")
        expect("the mounted run equals the written one", w and t
               and all(w[k] == t[k] for k in same),
               {k: (w.get(k), t.get(k)) for k in same})
    if args.check_fast_powerup:
        c = rep.get("rtl-mount", {}).get("fast_powerup_check", {})
        print(f"rtl_big_test: fast power-up check at {args.config}: {c.get('words')} swept words, "
              f"{c.get('words_differing')} differing; {c.get('cycles')} cycles after ready_o "
              f"(cycle {c.get('ready_cycle')}), " + ("diverged at " + str(c.get("divergence_cycle"))
                                                       if c.get("diverged") else "every output equal"))
        expect("the backdoor leaves what the sweeps leave", c.get("passed") is True, c)
    m = rep["model"]
    r = rep.get("rtl") or rep.get("rtl-mount")
    if m and r:
        n = m["requests"]
        expect("every request answered", r["requests"] == n and r["responses"] == n, r)
        # OK, or CORRECTED where the NAND model's bit errors hit a line (a long run at paper
        # meets some; the data is checked against the weights and the status against the ECC
        # model's decode of the same raw line either way); nothing uncorrectable or refused.
        expect("every response ok or corrected", r["status"]["ok"] + r["status"]["corrected"] == n,
               r["status"])
        expect("no data mismatch", r["data_mismatches"] == 0, r)
        expect("ECC model agrees", r["ecc_model_mismatches"] == 0, r)
        expect("no protocol violation", r["check_violations"] == 0, r)
        gap = (r["cycles"] - m["cycles"]) / m["cycles"]
        print(f"rtl_big_test: {args.config} {args.model} batch {args.batch} "
              f"{args.gen_args}, {n} requests, {bursts} bursts {dict(write='loaded', mount='mounted')[r['load']]}: "
              f"rtl {r['cycles']} cycles (load {r['load_cycles']}, "
              f"simulated {r['simulated_cycles']}, {r['wall_seconds']:.0f} s; power-up "
              f"{r['powerup_cycles']} cycles, {r['powerup_backdoor_cycles']} by the backdoor, "
              f"{r['powerup_seconds']:.1f} s), model "
              f"{m['cycles']} (load {m['load_cycles']}): {100 * gap:+.2f} %")
        if args.fast_powerup:
            expect("the backdoor wrote the power-up", r["powerup_backdoor_cycles"] > 0, r)
        expect(f"cycles within {100 * args.tolerance:g} % of the model",
               abs(gap) <= args.tolerance, (r["cycles"], m["cycles"]))
    if m and r and (args.doc or args.summary_out):
        rtl_name = "rtl" if rep.get("rtl") else "rtl-mount"
        summary = figures(m, r, host[rtl_name], host["model"], kept, bursts, gen_cmd)
        if args.summary_out:
            pathlib.Path(args.summary_out).write_text(json.dumps(summary, indent=1) + "\n")
        if args.doc:
            write_doc(pathlib.Path(args.doc), args.section, summary)
print("rtl_big_test: " + ("FAILED" if failed else "passed"))
sys.exit(1 if failed else 0)
