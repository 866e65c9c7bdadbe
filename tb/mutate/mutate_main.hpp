// The driver every mutation harness shares (scripts/mutate.py): builds the netlist model once
// and runs `run(dut, cycles, rng)` for mutant 0 (none) to N, the same seeded stimulus each time.
// `run` resets the design, drives it and returns the first mismatch with its cycle ("" when all
// agree). Usage: <harness> <mutants> <cycles> <seed>; one line a mutant on stdout:
// "<k> killed <cycle> <what>" or "<k> survived".
#pragma once
#include <verilated.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <utility>

namespace flint::tb {

struct Mismatch {
  uint64_t cycle = 0;
  std::string what;  // empty: none
};

template <class Dut, class Run>
int MutateMain(int argc, char** argv, Run run) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <mutants> <cycles> <seed>\n", argv[0]);
    return 2;
  }
  const auto mutants = static_cast<uint32_t>(std::strtoul(argv[1], nullptr, 10));
  const uint64_t cycles = std::strtoull(argv[2], nullptr, 10);
  const uint64_t seed = std::strtoull(argv[3], nullptr, 10);
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(seed));
  auto dut = std::make_unique<Dut>(ctx.get());
  for (uint32_t k = 0; k <= mutants; ++k) {
    dut->mutsel = k;
    std::mt19937_64 rng(seed);
    const Mismatch m = run(*dut, cycles, rng);
    if (m.what.empty()) {
      std::printf("%u survived\n", k);
    } else {
      std::printf("%u killed %llu %s\n", k, static_cast<unsigned long long>(m.cycle),
                  m.what.c_str());
    }
  }
  return 0;
}

// Async-low reset over one clock edge, then released.
template <class Dut>
void ResetDut(Dut& d) {
  d.rst_ni = 0;
  d.clk_i = 0;
  d.eval();
  d.clk_i = 1;
  d.eval();
  d.clk_i = 0;
  d.rst_ni = 1;
  d.eval();
}

template <class Dut>
void ClockDut(Dut& d) {
  d.clk_i = 1;
  d.eval();
  d.clk_i = 0;
  d.eval();
}

inline std::string Differs(const char* what, uint64_t got, uint64_t want) {
  if (got == want) return {};
  return std::string(what) + " expected " + std::to_string(want) + ", got " +
         std::to_string(got);
}

}  // namespace flint::tb
