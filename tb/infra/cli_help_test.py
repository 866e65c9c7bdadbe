#!/usr/bin/env python3
"""Every command-line tool answers --help: exit 0, a usage text on stdout naming the tool, nothing
on stderr; and refuses an unknown option with a non-zero exit and a word on stderr. Covers the
simulator's tools given on the command line and every script under scripts/ that is a command
(modules and tests listed in NOT_COMMANDS are not).

  cli_help_test.py SOURCE_DIR TOOL...
"""
import pathlib
import subprocess
import sys

SRC = pathlib.Path(sys.argv[1]).resolve()
TOOLS = [pathlib.Path(t) for t in sys.argv[2:]]
NOT_COMMANDS = {"testbins.py", "test_gen_config.py"}  # a module; a test run by ctest
FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=SRC,
                          stdin=subprocess.DEVNULL)


def main():
    cmds = [([str(t)], t.name) for t in TOOLS]
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
        if name == "fusesoc_cfg.py":
            continue  # a generator: FuseSoC passes it one file, anything else is that file
        b = run(cmd + ["--no-such-option"])
        check(b.returncode != 0 and b.stderr.strip(),
              f"{name} --no-such-option: refused (exit {b.returncode})")
    print(f"cli_help: {len(FAILS)} failed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
