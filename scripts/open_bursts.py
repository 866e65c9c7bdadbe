#!/usr/bin/env python3
"""How many bursts a stack's request stream keeps open at once: a burst is open from its first
requested line to its last. The mean over the stream's span is the number of bursts whose lines
a controller must hold requests for (or sense again) at the same time; it is a property of the
workload, not of any engine (docs/evaluation.md). Reads a trace (docs/trace_format.md) on stdin.

  flint-trace-gen --model deepseek-v3 --config paper --batch 4 --out - |
      scripts/open_bursts.py --burst-bytes 2097152
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--burst-bytes", type=int, default=2 * 1024 * 1024)
    args = ap.parse_args()
    first, last, lines = {}, {}, {}
    requests = 0
    for text in sys.stdin:
        if text.startswith("#") or not text.strip():
            continue
        cycle, _, addr = text.split()
        c, b = int(cycle), int(addr, 16) // args.burst_bytes
        if b not in first:
            first[b] = c
            lines[b] = 0
        last[b] = c
        lines[b] += 1
        requests += 1
    if not requests:
        sys.exit("open_bursts: no requests on stdin")
    span = max(last.values()) - min(first.values()) + 1
    open_cycles = sum(last[b] - first[b] + 1 for b in first)
    # Peak: sweep the opening and closing edges in time order (closing after opening at a tie).
    edges = sorted([(first[b], 1) for b in first] + [(last[b] + 1, -1) for b in first])
    now = peak = 0
    for _, d in edges:
        now += d
        peak = max(peak, now)
    print(f"requests {requests}, distinct bursts {len(first)}, lines per burst "
          f"{requests / len(first):.0f}, span {span} cycles, bursts open at once: mean "
          f"{open_cycles / span:.1f}, peak {peak}")


if __name__ == "__main__":
    main()
