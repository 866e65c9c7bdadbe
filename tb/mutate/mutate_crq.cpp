// Mutation harness of the CRQ bank (scripts/mutate.py, docs/mutation.md): the Yosys netlist
// with every mutant behind one select input (`mutate -ctrl mutsel`), at 8 entries, 2 slots and
// 12-bit payloads, run against the golden model with the block bench's checks
// (tb/mutate/crq_oracle.hpp) on the block test's random traffic: phases of mostly appends and
// mostly pops, so the bank fills, empties and reuses entries. The same seeded stimulus for every
// mutant. Mutant 0 is the unmutated design, which must pass.
// Usage: mutate_crq <mutants> <cycles> <seed>; one line a mutant: "<k> killed <cycle> <what>"
// or "<k> survived".
#include <verilated.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>

#include "Vcrq_mut.h"
#include "tb/mutate/crq_oracle.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <mutants> <cycles> <seed>\n", argv[0]);
    return 2;
  }
  const uint32_t mutants = static_cast<uint32_t>(std::strtoul(argv[1], nullptr, 10));
  const uint64_t cycles = std::strtoull(argv[2], nullptr, 10);
  const uint64_t seed = std::strtoull(argv[3], nullptr, 10);
  constexpr uint32_t kEntries = 8, kSlots = 2, kWidth = 12;
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(seed));
  auto dut = std::make_unique<Vcrq_mut>(ctx.get());
  flint::tb::CrqOracle<Vcrq_mut> oracle(dut.get(), kEntries, kSlots, kWidth);
  for (uint32_t k = 0; k <= mutants; ++k) {
    dut->mutsel = k;
    oracle.Reset();
    std::mt19937_64 rng(seed);
    std::string err;
    uint64_t c = 0;
    for (; c < cycles && err.empty(); ++c) {
      const bool filling = (c / (4 * kEntries)) % 2 == 0;
      flint::tb::CrqOp op;
      op.app = rng() % 100 < (filling ? 80u : 35u);
      op.app_slot = static_cast<uint32_t>(rng() % kSlots);
      op.payload = rng();
      op.pop = rng() % 100 < (filling ? 35u : 80u);
      op.pop_slot = static_cast<uint32_t>(rng() % kSlots);
      err = oracle.Step(op);
    }
    if (err.empty()) {
      std::printf("%u survived\n", k);
    } else {
      std::printf("%u killed %llu %s\n", k, static_cast<unsigned long long>(c - 1), err.c_str());
    }
  }
  return 0;
}
