// flint_fifo against FifoModel: directed corner cases and seeded random traffic.
#include <catch2/catch.hpp>
#include <random>

#include "Vfifo_d3.h"
#include "Vfifo_d4.h"
#include "model/common/fifo_model.hpp"
#include "tb/common/harness.hpp"

namespace {

using flint::model::FifoModel;
using flint::tb::Harness;

// Drives a FIFO with random valid/ready at the given rates and checks every transfer and the
// usage count against the model each cycle.
template <class Dut>
void RunRandom(uint32_t seed, unsigned depth, unsigned width, double p_push, double p_pop,
               int cycles) {
  INFO(flint::tb::ReplayCommand(seed));
  Harness<Dut> h(seed, "fifo");
  FifoModel model(depth);
  std::mt19937 rng(seed);
  std::bernoulli_distribution push_d(p_push), pop_d(p_pop);
  const uint64_t mask = (uint64_t{1} << width) - 1;
  h.Reset();
  uint64_t pushed = 0, popped = 0;
  for (int c = 0; c < cycles; ++c) {
    auto& d = h.dut();
    d.in_valid_i = push_d(rng);
    d.in_data_i = rng() & mask;
    d.out_ready_i = pop_d(rng);
    h.Eval();
    INFO("cycle " << h.cycle());
    REQUIRE(unsigned{d.usage_o} == model.Size());
    REQUIRE(static_cast<bool>(d.out_valid_o) == model.CanPop());
    REQUIRE(static_cast<bool>(d.in_ready_o) == model.CanPush(d.out_ready_i && model.CanPop()));
    const bool push = d.in_valid_i && d.in_ready_o;
    const bool pop = d.out_valid_o && d.out_ready_i;
    if (pop) REQUIRE(unsigned{d.out_data_o} == model.Front());
    model.Step(push, d.in_data_i, pop);
    pushed += push;
    popped += pop;
    h.Tick();
    REQUIRE_FALSE(h.Failed());
  }
  // The traffic must have exercised both directions, or the test checked nothing.
  REQUIRE(pushed > static_cast<uint64_t>(cycles) / 10);
  REQUIRE(popped > static_cast<uint64_t>(cycles) / 10);
}

}  // namespace

TEST_CASE("fifo: fills and refuses when full and drains in order", "[common][fifo][directed]") {
  Harness<Vfifo_d4> h(1, "fifo");
  auto& d = h.dut();
  h.Reset();
  d.out_ready_i = 0;
  for (unsigned i = 0; i < 4; ++i) {
    d.in_valid_i = 1;
    d.in_data_i = 0x100 + i;
    h.Eval();
    REQUIRE(d.in_ready_o);
    h.Tick();
  }
  h.Eval();
  REQUIRE(unsigned{d.usage_o} == 4);
  REQUIRE_FALSE(d.in_ready_o);  // full, no pop: refuse
  d.in_valid_i = 0;
  d.out_ready_i = 1;
  for (unsigned i = 0; i < 4; ++i) {
    h.Eval();
    REQUIRE(d.out_valid_o);
    REQUIRE(unsigned{d.out_data_o} == 0x100 + i);
    h.Tick();
  }
  h.Eval();
  REQUIRE_FALSE(d.out_valid_o);
  REQUIRE(unsigned{d.usage_o} == 0);
  REQUIRE_FALSE(h.Failed());
}

TEST_CASE("fifo: full FIFO streams one entry a cycle", "[common][fifo][corner]") {
  Harness<Vfifo_d4> h(1, "fifo");
  auto& d = h.dut();
  h.Reset();
  d.out_ready_i = 0;
  d.in_valid_i = 1;
  for (unsigned i = 0; i < 4; ++i) {
    d.in_data_i = i;
    h.Tick();
  }
  d.out_ready_i = 1;
  for (unsigned i = 4; i < 20; ++i) {
    d.in_data_i = i;
    h.Eval();
    REQUIRE(d.in_ready_o);  // pop frees the slot in the same cycle
    REQUIRE(unsigned{d.out_data_o} == i - 4);
    REQUIRE(unsigned{d.usage_o} == 4);
    h.Tick();
  }
  REQUIRE_FALSE(h.Failed());
}

TEST_CASE("fifo: random traffic matches the model", "[common][fifo][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  SECTION("depth 4 balanced") { RunRandom<Vfifo_d4>(seed, 4, 16, 0.5, 0.5, 4000); }
  SECTION("depth 4 producer faster") { RunRandom<Vfifo_d4>(seed, 4, 16, 0.9, 0.3, 4000); }
  SECTION("depth 3 (not a power of two) consumer faster") {
    RunRandom<Vfifo_d3>(seed, 3, 8, 0.4, 0.9, 4000);
  }
}
