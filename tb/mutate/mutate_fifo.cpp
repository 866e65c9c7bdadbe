// Mutation harness of flint_fifo (scripts/mutate.py, docs/mutation.md) at Width 8, Depth 3 (not a
// power of two: the pointers wrap by compare): the mutant netlist against model::FifoModel with
// the block test's checks (tb/common/fifo_test.cpp) every cycle: usage, out_valid, in_ready
// (not full, or a pop in the same cycle) and the popped word, on random pushes and pops whose
// rates change every 64 cycles so the FIFO runs full, empty and in between.
#include "Vfifo_mut.h"
#include "model/common/fifo_model.hpp"
#include "tb/mutate/mutate_main.hpp"

int main(int argc, char** argv) {
  using flint::tb::Differs;
  return flint::tb::MutateMain<Vfifo_mut>(
      argc, argv, [](Vfifo_mut& d, uint64_t cycles, std::mt19937_64& rng) {
        flint::tb::ResetDut(d);
        flint::model::FifoModel model(3);
        unsigned push_pct = 50, pop_pct = 50;
        for (uint64_t c = 0; c < cycles; ++c) {
          if (c % 64 == 0) {
            push_pct = 10 + static_cast<unsigned>(rng() % 81);
            pop_pct = 10 + static_cast<unsigned>(rng() % 81);
          }
          d.in_valid_i = rng() % 100 < push_pct;
          d.in_data_i = static_cast<uint8_t>(rng());
          d.out_ready_i = rng() % 100 < pop_pct;
          d.eval();
          std::string e = Differs("usage_o", d.usage_o, model.Size());
          if (e.empty()) e = Differs("out_valid_o", d.out_valid_o, model.CanPop());
          if (e.empty()) {
            e = Differs("in_ready_o", d.in_ready_o, model.CanPush(d.out_ready_i && model.CanPop()));
          }
          const bool push = d.in_valid_i && d.in_ready_o;
          const bool pop = d.out_valid_o && d.out_ready_i;
          if (e.empty() && pop) e = Differs("out_data_o", d.out_data_o, model.Front());
          if (!e.empty()) return flint::tb::Mismatch{c, e};
          model.Step(push, d.in_data_i, pop);
          flint::tb::ClockDut(d);
        }
        return flint::tb::Mismatch{};
      });
}
