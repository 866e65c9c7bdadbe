// Mutation harness of flint_rr_arb (scripts/mutate.py, docs/mutation.md) at N = 5 (not a power
// of two): the mutant netlist against model::RrArbModel with the block test's checks
// (tb/common/rr_arb_test.cpp) every cycle: out_valid, the winner's index and its one-hot grant,
// no grant without a winner; random request masks and a ready that stalls about a third of the
// time, so held decisions and withdrawn requests happen.
#include "Vrr_mut.h"
#include "model/common/rr_arb_model.hpp"
#include "tb/mutate/mutate_main.hpp"

int main(int argc, char** argv) {
  using flint::tb::Differs;
  constexpr unsigned kN = 5;
  return flint::tb::MutateMain<Vrr_mut>(
      argc, argv, [](Vrr_mut& d, uint64_t cycles, std::mt19937_64& rng) {
        flint::tb::ResetDut(d);
        flint::model::RrArbModel model(kN);
        for (uint64_t c = 0; c < cycles; ++c) {
          const uint64_t req = rng() & ((1u << kN) - 1);
          const bool ready = rng() % 3 != 0;
          d.req_i = static_cast<uint8_t>(req);
          d.out_ready_i = ready;
          d.eval();
          const auto w = model.Winner(req);
          std::string e = Differs("out_valid_o", d.out_valid_o, w.has_value());
          if (e.empty() && w) e = Differs("out_idx_o", d.out_idx_o, *w);
          if (e.empty()) e = Differs("gnt_o", d.gnt_o, w ? (1u << *w) : 0u);
          if (!e.empty()) return flint::tb::Mismatch{c, e};
          model.Step(req, ready);
          flint::tb::ClockDut(d);
        }
        return flint::tb::Mismatch{};
      });
}
