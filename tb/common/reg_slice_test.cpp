// flint_reg_slice against RegSliceModel: throughput, stall absorption, registered ready, and
// seeded random traffic compared every cycle.
#include <catch2/catch.hpp>
#include <random>
#include <stdexcept>

#include "Vreg_slice_w8.h"
#include "model/common/reg_slice_model.hpp"
#include "tb/common/harness.hpp"

namespace {

using flint::model::RegSliceModel;
using flint::tb::Harness;
using Dut = Vreg_slice_w8;

// Random producer and consumer; every cycle the DUT's handshake outputs and every popped word
// are compared with the model. `hold_payload` makes the producer keep its word while stalled
// (as a valid/ready source must); otherwise data changes every cycle, which the slice must also
// carry correctly (it samples only on a transfer).
void RunRandom(uint32_t seed, double p_valid, double p_ready, bool hold_payload, int cycles) {
  INFO(flint::tb::ReplayCommand(seed));
  Harness<Dut> h(seed, "reg_slice");
  RegSliceModel model;
  std::mt19937 rng(seed);
  std::bernoulli_distribution valid_d(p_valid), ready_d(p_ready);
  h.Reset();
  auto& d = h.dut();
  bool in_valid = false;
  uint8_t in_data = 0;
  uint64_t pushed = 0, popped = 0, stalls_with_two = 0;
  for (int c = 0; c < cycles; ++c) {
    if (!hold_payload || !in_valid) {
      in_valid = valid_d(rng);
      in_data = static_cast<uint8_t>(rng());
    }
    d.in_valid_i = in_valid;
    d.in_data_i = in_data;
    d.out_ready_i = ready_d(rng);
    h.Eval();
    INFO("cycle " << h.cycle() << " model holds " << model.Size());
    REQUIRE(static_cast<bool>(d.in_ready_o) == model.CanPush());
    REQUIRE(static_cast<bool>(d.out_valid_o) == model.CanPop());
    const bool push = d.in_valid_i && d.in_ready_o;
    const bool pop = d.out_valid_o && d.out_ready_i;
    if (d.out_valid_o) REQUIRE(unsigned{d.out_data_o} == model.Front());
    stalls_with_two += (model.Size() == 2 && !d.out_ready_i);
    model.Step(push, d.in_data_i, pop);
    pushed += push;
    popped += pop;
    if (push) in_valid = false;  // the producer picks a new word next cycle
    h.Tick();
    REQUIRE_FALSE(h.Failed());
  }
  // The traffic must have moved words and filled the skid entry, or it checked little.
  REQUIRE(pushed > static_cast<uint64_t>(cycles) / 10);
  REQUIRE(popped > static_cast<uint64_t>(cycles) / 10);
  if (p_valid > p_ready) REQUIRE(stalls_with_two > 0);
}

}  // namespace

TEST_CASE("reg_slice: one word a cycle with an always-ready consumer",
          "[common][reg_slice][directed]") {
  Harness<Dut> h(1, "reg_slice");
  auto& d = h.dut();
  h.Reset();
  d.out_ready_i = 1;
  d.in_valid_i = 1;
  constexpr unsigned kWords = 64;
  unsigned received = 0;
  for (unsigned c = 0; c <= kWords; ++c) {
    d.in_valid_i = c < kWords;
    d.in_data_i = static_cast<uint8_t>(0x40 + c);
    h.Eval();
    INFO("cycle " << c);
    REQUIRE(d.in_ready_o);  // never a bubble upstream
    // Latency 1: word c-1 is at the output in cycle c, and in every cycle after the first.
    REQUIRE(static_cast<bool>(d.out_valid_o) == (c >= 1));
    if (d.out_valid_o) {
      REQUIRE(unsigned{d.out_data_o} == ((0x40u + c - 1) & 0xffu));
      ++received;
    }
    h.Tick();
  }
  REQUIRE(received == kWords);  // kWords words in kWords + 1 cycles
  REQUIRE_FALSE(h.Failed());
}

TEST_CASE("reg_slice: a stall is absorbed by the skid entry", "[common][reg_slice][directed]") {
  Harness<Dut> h(1, "reg_slice");
  auto& d = h.dut();
  h.Reset();
  // Words 1 and 2 enter while the consumer stalls; then ready falls (registered) for word 3.
  d.out_ready_i = 0;
  d.in_valid_i = 1;
  d.in_data_i = 1;
  h.Eval();
  REQUIRE(d.in_ready_o);
  h.Tick();
  d.in_data_i = 2;
  h.Eval();
  REQUIRE(d.in_ready_o);  // the output holds word 1, the skid entry is free
  REQUIRE(d.out_valid_o);
  REQUIRE(unsigned{d.out_data_o} == 1);
  h.Tick();
  d.in_data_i = 3;
  for (int c = 0; c < 3; ++c) {
    h.Eval();
    REQUIRE_FALSE(d.in_ready_o);  // two words held: refuse
    REQUIRE(unsigned{d.out_data_o} == 1);
    h.Tick();
  }
  // The consumer resumes: words come out back to back, and input reopens one cycle later.
  d.out_ready_i = 1;
  h.Eval();
  REQUIRE_FALSE(d.in_ready_o);  // registered: does not see this cycle's out_ready_i
  REQUIRE(unsigned{d.out_data_o} == 1);
  h.Tick();
  h.Eval();
  REQUIRE(d.in_ready_o);
  REQUIRE(d.out_valid_o);
  REQUIRE(unsigned{d.out_data_o} == 2);
  h.Tick();  // word 3 accepted, word 2 leaves
  d.in_valid_i = 0;
  h.Eval();
  REQUIRE(d.out_valid_o);
  REQUIRE(unsigned{d.out_data_o} == 3);
  h.Tick();
  h.Eval();
  REQUIRE_FALSE(d.out_valid_o);
  REQUIRE(d.in_ready_o);
  REQUIRE_FALSE(h.Failed());
}

TEST_CASE("reg_slice: no combinational path between the two sides",
          "[common][reg_slice][corner]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Harness<Dut> h(seed, "reg_slice");
  auto& d = h.dut();
  std::mt19937 rng(seed);
  h.Reset();
  for (int c = 0; c < 500; ++c) {
    d.in_valid_i = rng() & 1u;
    d.in_data_i = static_cast<uint8_t>(rng());
    d.out_ready_i = rng() & 1u;
    h.Eval();
    const bool in_ready = d.in_ready_o;
    const bool out_valid = d.out_valid_o;
    const unsigned out_data = d.out_data_o;
    // Flip every input of the other side within the cycle: the outputs must not move.
    d.out_ready_i = !d.out_ready_i;
    h.Eval();
    INFO("cycle " << c);
    REQUIRE(static_cast<bool>(d.in_ready_o) == in_ready);
    d.in_valid_i = !d.in_valid_i;
    d.in_data_i = static_cast<uint8_t>(~d.in_data_i);
    h.Eval();
    REQUIRE(static_cast<bool>(d.out_valid_o) == out_valid);
    if (out_valid) REQUIRE(unsigned{d.out_data_o} == out_data);
    d.out_ready_i = !d.out_ready_i;
    d.in_valid_i = !d.in_valid_i;
    d.in_data_i = static_cast<uint8_t>(~d.in_data_i);
    h.Tick();
  }
  REQUIRE_FALSE(h.Failed());
}

TEST_CASE("reg_slice: random traffic matches the model", "[common][reg_slice][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  SECTION("balanced") { RunRandom(seed, 0.5, 0.5, true, 4000); }
  SECTION("producer faster") { RunRandom(seed, 0.9, 0.3, true, 4000); }
  SECTION("consumer faster") { RunRandom(seed, 0.4, 0.95, true, 4000); }
  SECTION("payload changes every cycle") { RunRandom(seed, 0.7, 0.5, false, 4000); }
}

TEST_CASE("reg_slice: model refuses a push while not ready", "[common][reg_slice][corner]") {
  RegSliceModel m;
  m.Step(true, 1, false);
  m.Step(true, 2, false);
  REQUIRE_FALSE(m.CanPush());
  REQUIRE_THROWS_AS(m.Step(true, 3, true), std::logic_error);
  RegSliceModel empty;
  REQUIRE_THROWS_AS(empty.Step(false, 0, true), std::logic_error);
}
