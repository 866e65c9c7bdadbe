#!/usr/bin/env python3
"""flint-eval: every engine answers every request of a generated decode step once, with the data
check on and no mismatch; FLINT's fetch accounting adds up; bad arguments are refused with a
message. Usage: flint_eval_cli_test.py PATH/TO/flint-eval"""
import json
import subprocess
import sys

EXE = sys.argv[1]
failed = passed = 0


def expect(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


for model, cfg, batch in [("tiny-small", "small", 4), ("tiny-dense", "small", 1),
                          ("tiny-medium", "medium", 4)]:
    p = subprocess.run([EXE, "--model", model, "--config", cfg, "--batch", str(batch),
                        "--stacks", "1", "--check-data"], capture_output=True, text=True,
                       timeout=600)
    expect(f"{model} runs", p.returncode == 0, p.stderr)
    if p.returncode != 0:
        continue
    r = json.loads(p.stdout)
    engines = {e["engine"]: e for e in r["results"]}
    expect(f"{model} engines", set(engines) == {"flint", "fcfs", "h3", "h3-oracle"}, engines.keys())
    reqs = {e["requests"] for e in engines.values()}
    expect(f"{model} same stream for every engine", len(reqs) == 1 and reqs.pop() > 0, reqs)
    for name, e in engines.items():
        expect(f"{model} {name} one response each", e["responses"] == e["requests"], e)
        expect(f"{model} {name} no mismatch", e["data_mismatches"] == 0 and e["errors"] == 0, e)
        expect(f"{model} {name} fetched bytes", e["fetched_bytes"] > 0, e)
        expect(f"{model} {name} re-fetch below fetches", e["bursts_refetched"] < e["bursts_fetched"], e)

# --jitter reaches the generator: without it the SMs' streams drift apart, so the run differs.
runs = {}
for jitter in ("0", "0.05"):
    p = subprocess.run([EXE, "--model", "tiny-small", "--config", "small", "--batch", "4",
                        "--stacks", "1", "--engines", "flint", "--jitter", jitter],
                       capture_output=True, text=True, timeout=600)
    expect(f"--jitter {jitter} runs", p.returncode == 0, p.stderr)
    if p.returncode == 0:
        runs[jitter] = json.loads(p.stdout)
if len(runs) == 2:
    expect("--jitter recorded", runs["0"]["jitter"] == 0 and runs["0.05"]["jitter"] == 0.05, runs)
    expect("--jitter changes the stream", runs["0"]["results"][0]["cycles"] !=
           runs["0.05"]["results"][0]["cycles"], runs)

# --help: the usage on stdout, exit 0, naming the work order and the H3 variants.
p = subprocess.run([EXE, "--help"], capture_output=True, text=True, timeout=60)
expect("--help", p.returncode == 0 and "usage: flint-eval" in p.stdout and "--order" in p.stdout
       and "h3-lhb40" in p.stdout, (p.returncode, p.stdout, p.stderr))

# --order cta and every H3 variant run on the same stream and answer every request once.
variants = ["flint", "h3", "h3-oracle", "h3-1ghz", "h3-demand-first", "h3-lhb40", "h3-legacy"]
p = subprocess.run([EXE, "--model", "tiny-small", "--config", "small", "--batch", "4",
                    "--stacks", "1", "--sms", "1", "--order", "cta", "--jitter", "0",
                    "--engines", ",".join(variants)], capture_output=True, text=True, timeout=600)
expect("--order cta runs", p.returncode == 0, p.stderr)
if p.returncode == 0:
    r = json.loads(p.stdout)
    e = {x["engine"]: x for x in r["results"]}
    expect("order recorded", r["order"] == "cta" and r["cta_lines"] == 64, r)
    expect("every variant", list(e) == variants, e.keys())
    expect("one stream", len({x["requests"] for x in e.values()}) == 1, e)
    for name, x in e.items():
        expect(f"{name} answers all", x["responses"] == x["requests"] and x["errors"] == 0, x)
    expect("h3 is strict FIFO at the GPU clock", e["h3"]["evict"] == "strict-fifo" and
           e["h3"]["min_residency_cycles"] == 32 and e["h3"]["slots"] == 2, e["h3"])
    expect("h3-legacy holds", e["h3-legacy"]["evict"] == "hold-while-pending" and
           e["h3-legacy"]["min_residency_cycles"] == 80, e["h3-legacy"])
    expect("h3-lhb40 has 20 slots", e["h3-lhb40"]["slots"] == 20, e["h3-lhb40"])

# --loop closed: each engine its own stream, every request answered once, the SMs held back by
# the engines' latency (a longer run than open loop); K = 1 holds them most; the open loop is
# recorded as such and keeps one stream for every engine.
closed_runs = {}
for loop, extra in [("open", []), ("closed", []), ("closed", ["--max-outstanding", "1"])]:
    p = subprocess.run([EXE, "--model", "tiny-medium", "--config", "medium", "--batch", "2",
                        "--order", "cta", "--jitter", "0", "--engines", "flint,h3,h3-oracle",
                        "--check-data", "--loop", loop, *extra],
                       capture_output=True, text=True, timeout=600)
    tag = loop + "".join(extra)
    expect(f"--loop {tag} runs", p.returncode == 0, p.stderr)
    if p.returncode == 0:
        closed_runs[tag] = json.loads(p.stdout)
if len(closed_runs) == 3:
    o, c, c1 = closed_runs["open"], closed_runs["closed"], closed_runs["closed--max-outstanding1"]
    expect("loop recorded", o["loop"] == "open" and o["max_outstanding"] == 0 and
           c["loop"] == "closed" and c["max_outstanding"] == 64 and c1["max_outstanding"] == 1,
           (o["loop"], c["loop"], c1["max_outstanding"]))
    for r in (o, c, c1):
        for x in r["results"]:
            expect(f"{r['loop']} {r['max_outstanding']} {x['engine']} answers all",
                   x["responses"] == x["requests"] > 0 and x["errors"] == 0 and
                   x["data_mismatches"] == 0, x)
    eo, ec, ec1 = ({x["engine"]: x for x in r["results"]} for r in (o, c, c1))
    expect("closed loop: the same lines", all(ec[e]["requests"] == eo[e]["requests"] for e in eo),
           (eo, ec))
    expect("closed loop: the SMs wait", all(ec1[e]["cycles"] > ec[e]["cycles"] >= eo[e]["cycles"]
                                            for e in ("flint", "h3")),
           [(e, eo[e]["cycles"], ec[e]["cycles"], ec1[e]["cycles"]) for e in eo])

for args, text in [(["--config", "small"], "--model NAME is required"),
                   (["--model", "tiny-small", "--order", "zigzag"], "--order takes tiled or cta"),
                   (["--model", "nope"], "no model named"),
                   (["--model", "tiny-small", "--config", "huge"], "no config named"),
                   (["--model", "tiny-small", "--config", "small", "--stacks", "1",
                     "--engines", "flint,bogus"], "unknown engine"),
                   (["--model", "tiny-small", "--batch", "x"], "--batch needs a decimal number, not 'x'"),
                   (["--model", "tiny-small", "--config", "small", "--jitter", "x"],
                    "--jitter needs a number, not 'x'"),
                   (["--model", "tiny-small", "--config", "small", "--jitter", "1.5"],
                    "jitter must be in [0, 1)"),
                   (["--model", "tiny-small", "--loop", "half"], "--loop takes open or closed"),
                   (["--model", "tiny-small", "--order", "cta", "--loop", "closed",
                     "--max-outstanding", "0"], "--max-outstanding must be at least 1"),
                   (["--model", "tiny-small", "--order", "cta", "--max-outstanding", "8"],
                    "--max-outstanding applies to --loop closed"),
                   (["--model", "tiny-small", "--order", "tiled", "--loop", "closed"],
                    "--loop closed needs --order cta")]:
    p = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=120)
    expect(f"refuses {args}", p.returncode != 0 and text in p.stderr, p.stderr)

print(f"flint-eval cli: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
