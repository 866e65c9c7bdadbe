#!/usr/bin/env python3
"""flint-trace-gen's command line: every bad argument fails with a clear message, a good run
writes a valid trace whose request count matches its own summary, and a routing file written
by one run replays the same trace. Usage: trace_gen_cli_test.py PATH/TO/flint-trace-gen"""
import pathlib
import re
import subprocess
import sys
import tempfile

TOOL = sys.argv[1]
passed = failed = 0


def run(*args):
    p = subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def expect(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def expect_error(name, args, pattern):
    rc, out = run(*args)
    expect(name, rc == 2 and pattern in out, f"rc {rc}, output:\n{out}")


def read_trace(path, cl):
    reqs, last = [], 0
    for n, line in enumerate(pathlib.Path(path).read_text().splitlines(), 1):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        assert len(line) == 3, f"line {n}: {line}"
        cycle, sm, addr = int(line[0]), int(line[1]), line[2]
        assert addr.startswith("0x") and int(addr, 16) % cl == 0, f"line {n}: {addr}"
        assert cycle >= last, f"line {n}: cycle {cycle} < {last}"
        last = cycle
        reqs.append((cycle, sm, int(addr, 16)))
    return reqs


def main():
    rc, out = run("--help")
    expect("help", rc == 0 and "usage: flint-trace-gen" in out, out)
    rc, out = run("--list-models")
    names = ["llama-3.1-405b", "deepseek-v3", "deepseek-v4-pro", "qwen3-235b-a22b",
             "llama-4-maverick", "kimi-k2", "tiny-small", "tiny-dense", "tiny-medium"]
    expect("list models", rc == 0 and all(n in out for n in names), out)

    t = ["--model", "tiny-small", "--config", "small"]
    expect_error("no arguments", [], "--model is required")
    expect_error("no config", ["--model", "tiny-small", "--count"], "--config is required")
    expect_error("unknown model", ["--model", "nope", "--config", "small", "--count"],
                 "unknown model 'nope'")
    expect_error("unknown config", ["--model", "tiny-small", "--config", "big", "--count"],
                 "unknown config 'big'")
    expect_error("paper model on small", ["--model", "deepseek-v3", "--config", "small",
                                          "--count"], "use a tiny-* model")
    expect_error("batch 0", t + ["--batch", "0", "--count"], "--batch must be in 1..65536")
    expect_error("batch not a number", t + ["--batch", "4x", "--count"],
                 "--batch needs a decimal number, not '4x'")
    expect_error("negative tokens", t + ["--tokens", "-1", "--count"],
                 "--tokens needs a decimal number, not '-1'")
    expect_error("skew not a number", t + ["--skew", "abc", "--count"],
                 "--skew needs a number, not 'abc'")
    expect_error("negative skew", t + ["--skew", "-1", "--count"], "skew must be")
    expect_error("jitter 1.5", t + ["--jitter", "1.5", "--count"], "jitter must be in [0, 1)")
    expect_error("zero interval", t + ["--issue-interval", "0", "--count"],
                 "--issue-interval must be > 0")
    expect_error("stack 9 of 8", t + ["--stack", "9", "--count"], "stack 9 does not exist")
    expect_error("stack word", t + ["--stack", "first", "--count"],
                 "--stack needs a decimal number, not 'first'")
    expect_error("nothing to do", t, "nothing to do")
    expect_error("unknown flag", t + ["--bogus"], "unknown option '--bogus'")
    expect_error("missing value", t + ["--batch"], "--batch needs a value")
    expect_error("count and out", t + ["--count", "--out", "x"], "exclude each other")
    expect_error("missing routing file", t + ["--routing", "/nonexistent/r.txt", "--count"],
                 "cannot open the routing file")
    expect_error("skew and routing", t + ["--skew", "1", "--routing", "x", "--count"],
                 "--skew and --routing exclude each other")
    expect_error("dense routing", ["--model", "tiny-dense", "--config", "small", "--routing",
                                   "x", "--count"], "is dense")

    with tempfile.TemporaryDirectory() as d:
        d = pathlib.Path(d)
        expect_error("unwritable out", t + ["--out", str(d / "no" / "t.trace")], "cannot write")
        (d / "bad.txt").write_text("0 1 0 1 99\n")
        expect_error("bad routing file", t + ["--routing", str(d / "bad.txt"), "--count"],
                     "bad.txt:1: expert 99 does not exist")

        run_args = t + ["--batch", "4", "--tokens", "2", "--seed", "9", "--stack", "all"]
        rc, out = run(*run_args, "--out", str(d / "a.trace"), "--summary",
                      "--write-routing", str(d / "r.txt"))
        expect("good run", rc == 0, out)
        reqs = read_trace(d / "a.trace", 32)
        m = re.search(r"per step: .* \((\d+(?:\.\d+)?) lines\)", out)
        expect("summary line", m is not None, out)
        if m:
            expect("count matches summary", len(reqs) == 2 * float(m.group(1)),
                   f"{len(reqs)} requests, summary {m.group(1)} lines per step")
        expect("many SMs", len({r[1] for r in reqs}) > 100, "too few SMs in the trace")

        rc, out = run(*t, "--batch", "4", "--tokens", "2", "--seed", "9", "--stack", "all",
                      "--routing", str(d / "r.txt"), "--out", str(d / "b.trace"))
        expect("replay run", rc == 0, out)
        expect("replayed routing gives the same trace", read_trace(d / "b.trace", 32) == reqs,
               "traces differ")
        header = (d / "a.trace").read_text().splitlines()[0].split()
        expect("header names the command", header[:2] == ["#", "flint-trace-gen"], header)
        rc, out = run(*header[2:], "--out", str(d / "h.trace"))
        expect("the header replays the run", rc == 0 and read_trace(d / "h.trace", 32) == reqs,
               out)
        rc, out = run(*t, "--batch", "4", "--tokens", "2", "--seed", "10", "--stack", "all",
                      "--out", str(d / "c.trace"))
        expect("another seed differs", rc == 0 and read_trace(d / "c.trace", 32) != reqs, out)
        expect_error("routing with a smaller batch", t + ["--batch", "2", "--routing",
                                                          str(d / "r.txt"), "--count"],
                     "outside the batch of 2")
        rc, out = run(*t, "--count")
        expect("count", rc == 0 and re.search(r"\d+ requests \(stack 0\)", out) is not None, out)
        # The GPU work order: cta runs, differs from tiled, and its header replays it.
        rc, out = run(*t, "--order", "cta", "--cta-lines", "8", "--jitter", "0",
                      "--out", str(d / "cta.trace"))
        expect("cta run", rc == 0, out)
        cta = read_trace(d / "cta.trace", 32)
        expect("cta differs from tiled", cta != reqs)
        header = (d / "cta.trace").read_text().splitlines()[0].split()
        expect("cta header", "--order" in header and header[header.index("--order") + 1] == "cta"
               and header[header.index("--cta-lines") + 1] == "8", header)
        rc, out = run(*header[2:], "--out", str(d / "cta2.trace"))
        expect("cta header replays", rc == 0 and read_trace(d / "cta2.trace", 32) == cta, out)
        expect_error("bad order", t + ["--order", "zigzag", "--count"], "--order takes tiled or cta")
        # --layer L: exactly the requests of layer L (the full trace's requests of the layer's
        # weights, in the same order and spacing), moved to start at cycle 0.
        one = t + ["--batch", "4", "--seed", "9", "--order", "cta", "--jitter", "0"]
        rc, out = run(*one, "--out", str(d / "full.trace"))
        full = read_trace(d / "full.trace", 32)
        layers = re.search(r"layers 0\.\.(\d+)", run(*one, "--layer", "999", "--count")[1])
        expect("--layer past the last names the range", layers is not None)
        seen = set()
        for layer in range(int(layers.group(1)) + 1 if layers else 0):
            rc, out = run(*one, "--layer", str(layer), "--out", str(d / "layer.trace"))
            part = read_trace(d / "layer.trace", 32)
            addrs = {a for _, _, a in part}
            sub = [r for r in full if r[2] in addrs]
            expect(f"layer {layer} run", rc == 0 and part and part[0][0] == 0, out)
            expect(f"layer {layer} is the full trace's share, moved to 0",
                   sub and [(c - sub[0][0], sm, a) for c, sm, a in sub] == part,
                   f"{len(part)} requests against {len(sub)}")
            expect(f"layer {layer} reads weights no other layer reads", not addrs & seen)
            seen |= addrs
            rc, out = run(*one, "--layer", str(layer), "--count")
            expect(f"layer {layer} count", f"{len(part)} requests" in out, out)
        expect("the layers are most of the step", len(seen) > 0
               and sum(1 for r in full if r[2] in seen) > len(full) // 2)
        expect_error("layer and hints", one + ["--layer", "0", "--hints-out", "h"],
                     "exclude each other")

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
