// Trust no synthesis silently: each primitive's Yosys netlist (scripts/netlist.py, generated at
// configure time) is Verilated beside its RTL and both get the same random stimulus; the first
// output difference fails the test with its cycle and signal. flint_sram is a blackbox under
// synthesis (a macro, not logic), so it has no netlist to compare and is left out.
#include <catch2/catch.hpp>
#include <random>

#include "Vfifo_d3.h"
#include "Vfifo_d3_netlist.h"
#include "Vfifo_d4.h"
#include "Vfifo_d4_netlist.h"
#include "Vrr_arb_n1.h"
#include "Vrr_arb_n1_netlist.h"
#include "Vrr_arb_n4.h"
#include "Vrr_arb_n4_netlist.h"
#include "Vrr_arb_n5.h"
#include "Vrr_arb_n5_netlist.h"
#include "tb/common/miter.hpp"

namespace {

using flint::tb::Miter;
using flint::tb::MiterDiff;
using flint::tb::SignalDiff;

constexpr int kCycles = 20000;
constexpr double kResetRate = 1.0 / 2000;

// One valid/ready stream in and one out, as flint_fifo has.
struct StreamStim {
  bool in_valid = false;
  uint32_t data = 0;
  bool out_ready = false;
};

// Rates change every 256 cycles so that both full and empty stretches occur.
auto StreamGen(uint32_t data_mask) {
  return [data_mask, cycle = 0u](std::mt19937& rng) mutable {
    static constexpr double kRates[][2] = {{0.5, 0.5}, {0.9, 0.2}, {0.2, 0.9}, {1.0, 1.0}};
    const auto& r = kRates[(cycle++ / 256) % 4];
    StreamStim s;
    s.in_valid = std::bernoulli_distribution(r[0])(rng);
    s.data = static_cast<uint32_t>(rng()) & data_mask;
    s.out_ready = std::bernoulli_distribution(r[1])(rng);
    return s;
  };
}

auto StreamDrive() {
  return [](auto& d, const StreamStim& s) {
    d.in_valid_i = s.in_valid;
    d.in_data_i = s.data;
    d.out_ready_i = s.out_ready;
  };
}

// Fifo outputs; out_data_o only while valid (the array is not reset). Counts full cycles.
auto FifoCompare(uint64_t& full_cycles, unsigned depth) {
  return [&full_cycles, depth](const auto& r, const auto& n, SignalDiff& diff) {
    diff.Check("in_ready_o", r.in_ready_o, n.in_ready_o);
    diff.Check("out_valid_o", r.out_valid_o, n.out_valid_o);
    diff.Check("usage_o", r.usage_o, n.usage_o);
    if (r.out_valid_o) diff.Check("out_data_o", r.out_data_o, n.out_data_o);
    full_cycles += (r.usage_o == depth);
  };
}

struct ArbStim {
  uint32_t req = 0;
  bool ready = false;
};

auto ArbGen(unsigned n) {
  return [n, cycle = 0u](std::mt19937& rng) mutable {
    static constexpr double kRates[][2] = {{0.5, 0.5}, {0.9, 0.3}, {0.15, 0.9}};
    const auto& r = kRates[(cycle++ / 256) % 3];
    std::bernoulli_distribution req_d(r[0]);
    ArbStim s;
    for (unsigned i = 0; i < n; ++i) s.req |= static_cast<uint32_t>(req_d(rng)) << i;
    s.ready = std::bernoulli_distribution(r[1])(rng);
    return s;
  };
}

auto ArbDrive() {
  return [](auto& d, const ArbStim& s) {
    d.req_i = s.req;
    d.out_ready_i = s.ready;
  };
}

auto ArbCompare(uint64_t& transfers) {
  return [&transfers](const auto& r, const auto& n, SignalDiff& diff) {
    diff.Check("out_valid_o", r.out_valid_o, n.out_valid_o);
    diff.Check("gnt_o", r.gnt_o, n.gnt_o);
    diff.Check("out_idx_o", r.out_idx_o, n.out_idx_o);
    transfers += (r.out_valid_o && r.out_ready_i);
  };
}

template <class Rtl, class Net>
void RunArb(uint32_t seed, unsigned n) {
  Miter<Rtl, Net> m(seed);
  uint64_t transfers = 0;
  const auto diff = m.Run(kCycles, kResetRate, ArbGen(n), ArbDrive(), ArbCompare(transfers));
  INFO((diff ? diff->ToString() : std::string("no difference")));
  REQUIRE_FALSE(diff);
  REQUIRE(transfers > kCycles / 10);
  REQUIRE(m.resets() > 0);
}

}  // namespace

TEST_CASE("netlist: flint_fifo matches its synthesized netlist", "[common][netlist][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  uint64_t full = 0;
  SECTION("depth 3 width 8") {
    Miter<Vfifo_d3, Vfifo_d3_netlist> m(seed);
    const auto diff = m.Run(kCycles, kResetRate, StreamGen(0xff), StreamDrive(),
                            FifoCompare(full, 3));
    INFO((diff ? diff->ToString() : std::string("no difference")));
    REQUIRE_FALSE(diff);
  }
  SECTION("depth 4 width 16") {
    Miter<Vfifo_d4, Vfifo_d4_netlist> m(seed);
    const auto diff = m.Run(kCycles, kResetRate, StreamGen(0xffff), StreamDrive(),
                            FifoCompare(full, 4));
    INFO((diff ? diff->ToString() : std::string("no difference")));
    REQUIRE_FALSE(diff);
  }
  REQUIRE(full > 100);
}

TEST_CASE("netlist: flint_rr_arb matches its synthesized netlist", "[common][netlist][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  SECTION("N 5") { RunArb<Vrr_arb_n5, Vrr_arb_n5_netlist>(seed, 5); }
  SECTION("N 4") { RunArb<Vrr_arb_n4, Vrr_arb_n4_netlist>(seed, 4); }
  SECTION("N 1") { RunArb<Vrr_arb_n1, Vrr_arb_n1_netlist>(seed, 1); }
}

// The miter must be able to fail: a depth-3 FIFO against the depth-4 netlist differs as soon as
// the smaller one fills, and the report must name that cycle and a signal.
TEST_CASE("netlist: the miter reports a real difference", "[common][netlist][corner]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Miter<Vfifo_d3, Vfifo_d4_netlist> m(seed);
  uint64_t full = 0;
  const auto diff = m.Run(kCycles, 0.0, StreamGen(0xff), StreamDrive(), FifoCompare(full, 3));
  REQUIRE(diff);
  INFO(diff->ToString());
  REQUIRE((diff->signal == "in_ready_o" || diff->signal == "usage_o"));
  REQUIRE(diff->rtl != diff->netlist);
  REQUIRE(full > 0);  // it diverged only once the depth-3 FIFO had been full
}
