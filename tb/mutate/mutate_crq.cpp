// Mutation harness of the CRQ bank (scripts/mutate.py, docs/mutation.md): the mutant netlist at
// 8 entries, 2 slots and 12-bit payloads against the golden model with the block bench's checks
// (tb/mutate/crq_oracle.hpp), on the block test's random traffic: phases of mostly appends and
// mostly pops, so the bank fills, empties and reuses entries.
#include "Vcrq_mut.h"
#include "tb/mutate/crq_oracle.hpp"
#include "tb/mutate/mutate_main.hpp"

int main(int argc, char** argv) {
  constexpr uint32_t kEntries = 8, kSlots = 2, kWidth = 12;
  return flint::tb::MutateMain<Vcrq_mut>(
      argc, argv, [](Vcrq_mut& d, uint64_t cycles, std::mt19937_64& rng) {
        flint::tb::CrqOracle<Vcrq_mut> oracle(&d, kEntries, kSlots, kWidth);
        oracle.Reset();
        for (uint64_t c = 0; c < cycles; ++c) {
          const bool filling = (c / (4 * kEntries)) % 2 == 0;
          flint::tb::CrqOp op;
          op.app = rng() % 100 < (filling ? 80u : 35u);
          op.app_slot = static_cast<uint32_t>(rng() % kSlots);
          op.payload = rng();
          op.pop = rng() % 100 < (filling ? 35u : 80u);
          op.pop_slot = static_cast<uint32_t>(rng() % kSlots);
          std::string err = oracle.Step(op);
          if (!err.empty()) return flint::tb::Mismatch{c, err};
        }
        return flint::tb::Mismatch{};
      });
}
