// Miter of an RTL model and its Yosys netlist (STYLE.md: trust no synthesis silently).
//
// Both Verilated designs get the same random stimulus every cycle (and the same occasional
// asynchronous reset); after the inputs settle, a block-specific comparison checks every output
// and the run stops at the first difference, reporting cycle, signal and both values. Outputs
// that the block documents as meaningless (payload while valid is low) are compared only when
// meaningful: their flops are not reset and start random in each design independently.
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include "tb/common/harness.hpp"

namespace flint::tb {

struct MiterDiff {
  uint64_t cycle = 0;
  std::string signal;
  uint64_t rtl = 0;
  uint64_t netlist = 0;

  std::string ToString() const {
    std::ostringstream out;
    out << "cycle " << cycle << ": ";
    if (signal == kRtlAssertion) {
      out << "an RTL assertion failed (its %Error line is above)";
    } else {
      out << signal << " rtl 0x" << std::hex << rtl << " netlist 0x" << netlist;
    }
    return out.str();
  }

  static constexpr const char* kRtlAssertion = "RTL assertion";
};

// Collects the first differing signal of one comparison.
class SignalDiff {
 public:
  void Check(const char* signal, uint64_t rtl, uint64_t netlist) {
    if (!first_ && rtl != netlist) first_ = MiterDiff{0, signal, rtl, netlist};
  }
  const std::optional<MiterDiff>& first() const { return first_; }

 private:
  std::optional<MiterDiff> first_;
};

template <class Rtl, class Net>
class Miter {
 public:
  explicit Miter(uint32_t seed)
      : seed_(seed), rtl_(seed, "", "_rtl"), net_(seed, "", "_netlist") {}

  // Runs `cycles` cycles. Per cycle: stim = gen(rng); drive(dut, stim) on both; eval both;
  // compare(rtl_dut, net_dut, SignalDiff&). A reset pulse comes with probability `p_reset`.
  // Returns the first difference, or an RTL assertion failure as signal "RTL assertion".
  template <class Gen, class Drive, class Compare>
  std::optional<MiterDiff> Run(int cycles, double p_reset, Gen gen, Drive drive,
                               Compare compare) {
    std::mt19937 rng(seed_);
    std::bernoulli_distribution reset_d(p_reset);
    drive(rtl_.dut(), decltype(gen(rng)){});
    drive(net_.dut(), decltype(gen(rng)){});
    rtl_.Reset();
    net_.Reset();
    for (int c = 0; c < cycles; ++c) {
      const auto stim = gen(rng);
      if (reset_d(rng)) {
        rtl_.Reset(1);
        net_.Reset(1);
        ++resets_;
      }
      drive(rtl_.dut(), stim);
      drive(net_.dut(), stim);
      rtl_.Eval();
      net_.Eval();
      SignalDiff diff;
      compare(rtl_.dut(), net_.dut(), diff);
      if (diff.first()) {
        MiterDiff d = *diff.first();
        d.cycle = rtl_.cycle();
        return d;
      }
      rtl_.Tick();
      net_.Tick();
      if (rtl_.Failed()) return MiterDiff{rtl_.cycle(), MiterDiff::kRtlAssertion, 0, 0};
    }
    return std::nullopt;
  }

  uint64_t resets() const { return resets_; }

 private:
  uint32_t seed_;
  Harness<Rtl> rtl_;
  Harness<Net> net_;
  uint64_t resets_ = 0;
};

}  // namespace flint::tb
