#!/usr/bin/env python3
"""Fault campaign through the whole RTL read path (issue #24 item 4; docs/fault_campaign_top.md).

A decode trace of the tiny MoE (flint-trace-gen) through the Verilated stack top at
small_refresh (flint-sim --engine rtl): the model is loaded through the RTL's write path, the
requests run with phantom-plane refresh on, and the NAND die models draw bit errors at every
sense from their error model (read disturb since the block's erase, retention since its
program, wear), here with every block started at a given P/E count (`--pe-cycles`) and, for the
accelerated points, a larger error scale (`--rber-at-limit`). The stack top's scoreboard checks
every response: exactly one per request; its status and data equal to the SEC-DED model's decode
of the raw line the die returned; an OK or CORRECTED line's data equal to the weights loaded,
unless the line was beyond the code (three or more errors in a word: counted apart).

A point fails if any request is unanswered, any response differs from the model's decode, any
OK or CORRECTED line is wrong while within the code, or the driver saw a protocol violation.
Exit status 1 then; 0 otherwise.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIG = "small_refresh"


def points(pe_limit):
    # End of life a little short of the budget: the refresh's own erases during the run add to
    # every block's count (a rotation erases each source block once), and an erase past the
    # budget fails and retires the block.
    eol = pe_limit - 10
    # (name, P/E, error scale). At the accelerated points so many words take three or more
    # errors that the refresh copies miscorrected lines (re-encoded, wrong data: what SEC-DED
    # cannot see); the scoreboard accepts a copied line that equals a read of it decoded and
    # re-encoded (counted apart), so every copy check must still hold there.
    return [
        ("fresh", 0, None),
        ("mid", pe_limit // 2, None),
        ("eol", eol, None),
        ("eol_x10", eol, 1e-3),
        ("eol_x100", eol, 1e-2),
    ]


def run(cmd, log):
    with open(log, "w") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode
    return rc


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=str(ROOT / "build"), help="build directory")
    ap.add_argument("--tokens", type=int, default=15000,
                    help="decode tokens of the tiny MoE at batch 4 (15000: about 1e7 line reads)")
    ap.add_argument("--points", default="", help="comma-separated subset of the points")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", default=None, help="work directory (default BUILD/fault_top)")
    ap.add_argument("--md", help="write the Markdown report here")
    ap.add_argument("--json", help="write the JSON results here")
    ap.add_argument("--require-errors", action="store_true",
                    help="fail if no point corrected or flagged a line (the errors must reach "
                         "the decoder for the checks to mean anything)")
    args = ap.parse_args()

    build = pathlib.Path(args.build)
    work = pathlib.Path(args.work) if args.work else build / "fault_top"
    work.mkdir(parents=True, exist_ok=True)
    cfg = json.loads((build / "gen" / CONFIG / "config.json").read_text())["config"]
    pts = points(cfg["pe_limit"])
    if args.points:
        want = args.points.split(",")
        unknown = set(want) - {p[0] for p in pts}
        if unknown:
            ap.error("unknown point(s): " + ", ".join(sorted(unknown)) + "; points: " +
                     ", ".join(p[0] for p in pts))
        pts = [p for p in pts if p[0] in want]

    trace = work / "decode.trace"
    gen = [str(build / "sim" / "flint-trace-gen"), "--model", "tiny-small", "--config", CONFIG,
           "--batch", "4", "--tokens", str(args.tokens), "--seed", str(args.seed),
           "--out", str(trace)]
    if run(gen, work / "trace_gen.log") != 0:
        sys.exit(f"fault_campaign_top: flint-trace-gen failed: {work / 'trace_gen.log'}")

    rows, ok = [], True
    for name, pe, scale in pts:
        report = work / f"{name}.json"
        cmd = [str(build / "sim" / "flint-sim"), "--config", CONFIG, "--engine", "rtl",
               "--trace", str(trace), "--report", str(report), "--seed", str(args.seed),
               "--pe-cycles", str(pe)]
        if scale is not None:
            cmd += ["--rber-at-limit", repr(scale)]
        t0 = time.monotonic()
        rc = run(cmd, work / f"{name}.log")
        secs = time.monotonic() - t0
        if not report.exists():
            print(f"{name}: flint-sim wrote no report (exit {rc}): {work / (name + '.log')}")
            ok = False
            continue
        r = json.loads(report.read_text())
        st = r["status"]
        fail = []
        if r["responses"] != r["requests"]:
            fail.append(f"{r['requests'] - r['responses']} requests unanswered")
        if r["ecc_model_mismatches"]:
            fail.append(f"{r['ecc_model_mismatches']} responses differ from the model's decode")
        if r["data_mismatches"]:
            fail.append(f"{r['data_mismatches']} OK/CORRECTED lines wrong within the code")
        log = (work / f"{name}.log").read_text(errors="replace")
        if "Assertion failed" in log or "assertion failed" in log:
            fail.append("an RTL assertion fired (" + str(work / f"{name}.log") + ")")
        if r["check_violations"]:
            fail.append(f"{r['check_violations']} driver violations")
        if rc != 0 and not fail:
            fail.append(f"flint-sim exit {rc}")
        ok = ok and not fail
        row = {"point": name, "pe_cycles": pe, "rber_at_limit": scale,
               "requests": r["requests"],
               "responses": r["responses"], "ok": st["ok"], "corrected": st["corrected"],
               "uncorrectable": st["uncorrectable"], "beyond_code": r["beyond_code"],
               "data_mismatches": r["data_mismatches"],
               "ecc_model_mismatches": r["ecc_model_mismatches"],
               "violations": r["check_violations"], "cycles": r["cycles"],
               "miscorrected_copy_lines": r["miscorrected_copy_lines"],
               "rotations": r["refresh_rt"]["rotations"],
               "pages_copied": r["refresh_rt"]["pages_programmed"],
               "max_read_count": r["refresh_rt"]["max_read_count"],
               "seconds": round(secs, 1), "failures": fail,
               "command": " ".join(["flint-sim"] + cmd[1:]).replace(str(ROOT) + "/", "")}
        rows.append(row)
        print(f"{name:8s} pe {pe:4d} scale {scale if scale else '-':>6} reads {r['requests']} "
              f"corrected {st['corrected']} flagged {st['uncorrectable']} beyond-code "
              f"{r['beyond_code']} model-mismatch {r['ecc_model_mismatches']} wrong "
              f"{r['data_mismatches']} rotations {row['rotations']} {secs:.1f} s"
              + ("" if not fail else "  FAIL: " + "; ".join(fail)))

    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {"config": CONFIG, "tokens": args.tokens, "seed": args.seed,
             "pe_limit": cfg["pe_limit"], "disturb_limit": cfg["disturb_limit"],
             "rows": rows}, indent=1) + "\n")
    if args.md:
        reads = sum(r["requests"] for r in rows)
        lines = [
            "# Fault campaign through the whole RTL read path",
            "",
            "<!-- generated by scripts/fault_campaign_top.py (make fault-campaign); edit the "
            "script, not this file -->",
            "",
            "A decode trace of the tiny MoE (`flint-trace-gen --model tiny-small --batch 4 "
            f"--tokens {args.tokens}`) through the Verilated stack top at `{CONFIG}` "
            "(`flint-sim --engine rtl`): the model loaded through the RTL's write path, the "
            "requests served with phantom-plane refresh on, and the NAND die models drawing bit "
            "errors at every sense from their error model (read disturb since the block's "
            "erase, retention since its program, wear: docs/nand_model.md, \"Errors\"). Every "
            f"block starts at the P/E count of the point (the config's budget is "
            f"{cfg['pe_limit']}; end of life is 10 short of it, since the refresh's own erases "
            "during the run add to it); the accelerated points raise the error model's "
            "disturb and retention term at its limit from 1e-4 to the scale given. The line "
            "code is SEC-DED on 32 B lines (4 words) at this config.",
            "",
            "The stack top's scoreboard (verif/top) checks every response: one per request; "
            "status and data equal to the SEC-DED model's decode of the raw line the die "
            "returned; an OK or CORRECTED line equal to the weights loaded, unless the line was "
            "beyond the code (three or more errors in a word, counted in a column of its own). A "
            "point fails on any unanswered request, model mismatch, wrong line within the code, "
            "RTL assertion or driver violation: the refresh's copies included (each copied line "
            "clean, poisoned where the read was flagged, or a miscorrected read of it "
            "re-encoded, below).",
            "",
            f"{reads} line reads in all, seed {args.seed}.",
            "",
            "| point | P/E | error scale | line reads | corrected | flagged | beyond the code "
            "(silently wrong) | RTL vs model | wrong within the code | copy checks broken | "
            "miscorrected lines copied | rotations | highest read count | s |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in rows:
            scale = "1e-4" if r["rber_at_limit"] is None else f"{r['rber_at_limit']:g}"
            lines.append(
                f"| {r['point']} | {r['pe_cycles']} | {scale} | {r['requests']} | "
                f"{r['corrected']} | {r['uncorrectable']} | {r['beyond_code']} | "
                f"{r['ecc_model_mismatches']} | {r['data_mismatches']} | "
                f"{r['violations']} | {r['miscorrected_copy_lines']} | {r['rotations']} | "
                f"{r['max_read_count']} | {r['seconds']} |")
        lines += ["", "At the accelerated points so many words take three or more errors that "
                  "the refresh copies miscorrected lines: SEC-DED returns them OK or CORRECTED "
                  "with wrong data and the copy re-encodes them, so the new page reads back clean "
                  "with the wrong data. That is the code's limit (docs/ecc.md: the refresh path "
                  "must not re-encode an uncorrectable line, but it cannot tell a miscorrected "
                  "one), not a fault of the RTL. The scoreboard keeps, for every line read "
                  "(foreground reads feed the fork, scrubber reads the scrub) whose decode is not "
                  "what the cells hold, that decode re-encoded, and accepts a copied line equal "
                  "to one of them (the column \"miscorrected lines copied\"); any other copied "
                  "line that is neither clean nor poisoned breaks a copy check and fails the "
                  "point. Later reads of such a copy count as beyond the code. A NAND-grade code "
                  "(docs/ecc.md, BCH t = 11) moves that point far out.",
                  "", f"The refresh trips a block at its read count well below the disturb "
                  f"limit ({cfg['disturb_limit']}), which keeps the disturb term of every "
                  "sense small; the highest count reached is in the table.", "",
                  "Commands (each point): " + "; ".join(f"`{r['command']}`" for r in rows[:1]) +
                  " with the point's `--pe-cycles` and `--rber-at-limit`.", ""]
        pathlib.Path(args.md).write_text("\n".join(lines))
    if args.require_errors and not any(r["corrected"] + r["uncorrectable"] for r in rows):
        print("no point corrected or flagged a line: the errors never reached the decoder")
        ok = False
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
