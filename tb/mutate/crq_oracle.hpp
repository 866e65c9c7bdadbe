// The CRQ bank's cycle checks against its golden model (model/bbc/crq_bank.hpp), shared by the
// fuzz target (tb/fuzz/fuzz_crq.cpp) and the mutation harness (tb/mutate/mutate_crq.cpp); the
// same rules as the block's Catch2 bench (tb/bbc/crq_bank_test.cpp): every pop answered the
// next cycle with the model's slot and payload; nonempty_o, used_o and pop_ready_o (the driven
// slot's list non-empty, valid or not) every cycle; app_ready_o low when full and high with
// three or more places free (the free FIFO's read latency is the only gap).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "model/bbc/crq_bank.hpp"

namespace flint::tb {

struct CrqOp {
  bool app = false, pop = false;
  uint32_t app_slot = 0, pop_slot = 0;
  uint64_t payload = 0;
};

template <class Dut>
class CrqOracle {
 public:
  CrqOracle(Dut* dut, uint32_t entries, uint32_t slots, uint32_t width)
      : dut_(dut), model_(entries, slots), entries_(entries), slots_(slots),
        mask_((uint64_t{1} << width) - 1) {}

  // Two clock edges with reset low, then released; the model starts empty.
  void Reset() {
    dut_->rst_ni = 0;
    dut_->clk_i = 0;
    dut_->eval();
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
    dut_->rst_ni = 1;
    dut_->eval();
    model_ = model::CrqBank(entries_, slots_);
    expect_.reset();
  }

  // Drives one cycle and checks it; returns the first mismatch (empty when all agree).
  // `corrupt` flips the expected payload's low bit on pops with two or more entries left (the
  // fuzzer's self-test).
  std::string Step(const CrqOp& op, bool corrupt = false) {
    const uint64_t payload = op.payload & mask_;
    dut_->app_valid_i = op.app;
    dut_->app_slot_i = op.app_slot;
    dut_->app_data_i = static_cast<uint32_t>(payload);
    dut_->pop_valid_i = op.pop;
    dut_->pop_slot_i = op.pop_slot;
    dut_->eval();
    std::string err = Check("rsp_valid_o", dut_->rsp_valid_o, expect_.has_value());
    if (err.empty() && expect_) {
      err = Check("rsp_slot_o", dut_->rsp_slot_o, expect_->first);
      if (err.empty()) err = Check("rsp_data_o", dut_->rsp_data_o, expect_->second);
    }
    expect_.reset();
    uint64_t mask = 0;
    for (uint32_t s = 0; s < slots_; ++s) mask |= static_cast<uint64_t>(!model_.Empty(s)) << s;
    if (err.empty()) err = Check("nonempty_o", dut_->nonempty_o, mask);
    if (err.empty()) err = Check("used_o", dut_->used_o, model_.used());
    if (err.empty()) err = Check("pop_ready_o", dut_->pop_ready_o, !model_.Empty(op.pop_slot));
    if (err.empty() && model_.used() == entries_) {
      err = Check("app_ready_o (full)", dut_->app_ready_o, 0);
    }
    if (err.empty() && model_.used() + 3 <= entries_) {
      err = Check("app_ready_o (room)", dut_->app_ready_o, 1);
    }
    if (!err.empty()) return err;
    const bool app = op.app && dut_->app_ready_o;
    const bool pop = op.pop && dut_->pop_ready_o;
    if (pop) {
      expect_ = std::make_pair(op.pop_slot, model_.Pop(op.pop_slot));
      if (corrupt && model_.used() >= 2) expect_->second ^= 1;
    }
    if (app) model_.Append(op.app_slot, payload);
    dut_->clk_i = 1;
    dut_->eval();
    dut_->clk_i = 0;
    dut_->eval();
    return {};
  }

  const model::CrqBank& model() const { return model_; }

 private:
  static std::string Check(const char* what, uint64_t got, uint64_t want) {
    if (got == want) return {};
    return std::string(what) + " expected " + std::to_string(want) + ", got " +
           std::to_string(got);
  }
  Dut* dut_;
  model::CrqBank model_;
  uint32_t entries_, slots_;
  uint64_t mask_;
  std::optional<std::pair<uint32_t, uint64_t>> expect_;
};

}  // namespace flint::tb
