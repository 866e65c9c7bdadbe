#!/usr/bin/env python3
"""Every command-line tool answers --help: exit 0, a usage text on stdout naming the tool, nothing
on stderr; and refuses an unknown option with a non-zero exit and a word on stderr. Covers the
simulator's tools given on the command line and every script under scripts/ that is a command
(modules and tests listed in NOT_COMMANDS are not).

The simulator's tools share one parser (sim/tools/cli.hpp), so of them it asks more: the usage
lists every flag of the tool (FLAGS), each flag it lists is one the tool takes (given without
its value, never "unknown option"), -h is --help, and an unknown flag is refused with exit 2
and a message that names it.

  cli_help_test.py SOURCE_DIR TOOL...
"""
import pathlib
import re
import subprocess
import sys

SRC = pathlib.Path(sys.argv[1]).resolve()
TOOLS = [pathlib.Path(t) for t in sys.argv[2:]]
NOT_COMMANDS = {"testbins.py", "test_gen_config.py"}  # a module; a test run by ctest
FAILS = []
# The flags of the simulator's tools (sim/tools/), as their usage lists them.
FLAGS = {
    "flint-trace-gen": "--model --config --out --summary --count --layer --write-routing "
                       "--hints-out --oracle-hints --list-models --batch --tokens --seed --skew "
                       "--routing --sms --stacks --stack --issue-interval --jitter --tile-lines "
                       "--layer-gap --order --cta-lines",
    "flint-disturb": "--config --models --batches --steps --skew --seed --out",
    "flint-refresh-cost": "--config --models --batch --placement --max-steps --seed --out --json",
    "flint-progq-demand": "--config --models --batch --queues --scrub --idle --pace --copies "
                          "--seed --out --json",
    "flint-sim": "--trace --config --engine --report --seed --bursts --policy --placement "
                 "--age-cap --crq --timing-only --hints --slots --min-residency --demand-first "
                 "--waves --erase --mount --fast-powerup --check-fast-powerup --pe-cycles "
                 "--rber-at-limit",
    "flint-eval": "--model --config --batch --tokens --seed --skew --stacks --stack --order "
                  "--cta-lines --tile-lines --sms --jitter --loop --max-outstanding --crq --hold "
                  "--age-cap --t-read-ns --lanes --engines --check-data",
}


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=SRC,
                          stdin=subprocess.DEVNULL)


def check_tool(cmd, name, usage):
    """The stricter checks of a simulator tool (sim/tools/cli.hpp)."""
    listed = re.findall(r"^  (?:-h, )?(--[a-z0-9-]+)", usage, re.M)
    want = FLAGS.get(name, "").split()
    check(bool(want), f"{name}: its flags are in FLAGS")
    missing = [f for f in want + ["--help"] if f not in listed]
    check(not missing, f"{name} --help lists every flag" + (f" (not {missing})" if missing else ""))
    extra = [f for f in listed if f not in want + ["--help"]]
    check(not extra, f"{name} --help lists no flag FLAGS lacks" + (f" ({extra})" if extra else ""))
    for flag in listed:
        if flag == "--help":
            continue
        r = run(cmd + [flag])
        check("unknown option" not in r.stderr,
              f"{name} {flag}: taken ({r.stderr.strip().splitlines()[:1]})")
    h = run(cmd + ["-h"])
    check(h.returncode == 0 and h.stdout == usage, f"{name} -h: the usage, exit {h.returncode}")
    b = run(cmd + ["--no-such-option"])
    check(b.returncode == 2 and "unknown option '--no-such-option'" in b.stderr,
          f"{name} --no-such-option: exit {b.returncode} naming it: {b.stderr.strip()[:120]!r}")
    b = run(cmd + ["stray"])
    check(b.returncode == 2 and "'stray'" in b.stderr,
          f"{name} stray: exit {b.returncode} naming it: {b.stderr.strip()[:120]!r}")


def main():
    cmds = [([str(t)], t.name) for t in TOOLS]
    check(set(t.name for t in TOOLS) >= {"flint-trace-gen", "flint-disturb", "flint-refresh-cost",
                                         "flint-progq-demand"}, "the simulator's tools are given")
    for s in sorted((SRC / "scripts").iterdir()):
        if s.suffix == ".py" and s.name not in NOT_COMMANDS:
            cmds.append(([sys.executable, str(s)], s.name))
        elif s.suffix == ".sh":
            cmds.append((["bash", str(s)], s.name))
    for cmd, name in cmds:
        h = run(cmd + ["--help"])
        stem = name.replace(".py", "").replace(".sh", "")
        check(h.returncode == 0 and "usage" in h.stdout.lower() and
              (stem in h.stdout or stem.replace("-", "_") in h.stdout or "make " in h.stdout)
              and not h.stderr.strip(),
              f"{name} --help: exit {h.returncode}, {len(h.stdout)} chars of usage on stdout"
              + (f", stderr {h.stderr.strip()[:200]!r}" if h.stderr.strip() else ""))
        if pathlib.Path(cmd[0]) in TOOLS:
            check_tool(cmd, name, h.stdout)
        if name == "fusesoc_cfg.py":
            continue  # a generator: FuseSoC passes it one file, anything else is that file
        b = run(cmd + ["--no-such-option"])
        check(b.returncode != 0 and b.stderr.strip(),
              f"{name} --no-such-option: refused (exit {b.returncode})")
    print(f"cli_help: {len(FAILS)} failed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
