#!/usr/bin/env bash
# make run: the main job on a built-in default workload (docs/top.md, README "Two commands").
#   small, small_refresh: a few decode steps of the tiny MoE through the RTL top (--engine rtl):
#                         model load through the RTL's write path, service, refresh on
#   medium:               the tiny MoE for medium through the golden model
#   paper:                one DeepSeek-V3 decode step (batch 1) of stack 0 through FLINT's model
# Usage: scripts/run_default.sh BUILD CONFIG
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
fi
build=${1:?build dir}
config=${2:-small}
out=$build/run
mkdir -p "$out"
case "$config" in
  small|small_refresh)
    "$build/sim/flint-trace-gen" --model tiny-small --config "$config" --batch 4 --tokens 4 \
      --out "$out/default.trace" >/dev/null
    exec "$build/sim/flint-sim" --config "$config" --engine rtl --trace "$out/default.trace" \
      --report "$out/report.json"
    ;;
  medium)
    "$build/sim/flint-trace-gen" --model tiny-medium --config medium --batch 4 --tokens 4 \
      --out "$out/default.trace" >/dev/null
    exec "$build/sim/flint-sim" --config medium --engine model --trace "$out/default.trace" \
      --report "$out/report.json"
    ;;
  paper)
    "$build/sim/flint-eval" --model deepseek-v3 --config paper --batch 1 --engines flint \
      >"$out/report.json"
    echo "run: one DeepSeek-V3 decode step of stack 0 through FLINT's model: $out/report.json"
    ;;
  *)
    echo "run: no default workload for config '$config' (small, small_refresh, medium, paper)" >&2
    exit 2
    ;;
esac
