// flint_sram (behavioural simulation view) against a std::vector: read latency 1,
// read-before-write on one address, random traffic, and the loud error on a bad address.
// Depth 12 is not a power of two, so addresses 12..15 fit the port but not the array.
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "Vsram_w16_d12.h"
#include "tb/common/harness.hpp"

namespace {

using flint::tb::Harness;
using Dut = Vsram_w16_d12;
constexpr unsigned kDepth = 12;

void Idle(Dut& d) {
  d.rd_en_i = 0;
  d.wr_en_i = 0;
  d.rd_addr_i = 0;
  d.wr_addr_i = 0;
  d.wr_data_i = 0;
}

// The SRAM has no reset: start from a known clock level and idle inputs.
void Start(Harness<Dut>& h) {
  h.dut().clk_i = 0;
  Idle(h.dut());
  h.Eval();
}

void Write(Harness<Dut>& h, unsigned addr, uint16_t data) {
  auto& d = h.dut();
  Idle(d);
  d.wr_en_i = 1;
  d.wr_addr_i = addr;
  d.wr_data_i = data;
  h.Tick();
}

}  // namespace

TEST_CASE("sram: read data arrives one cycle after the address", "[common][sram][directed]") {
  Harness<Dut> h(1, "sram");
  auto& d = h.dut();
  Start(h);
  for (unsigned a = 0; a < kDepth; ++a) Write(h, a, static_cast<uint16_t>(0xa000 + a));
  // Back-to-back reads: the word for the address of cycle t is on rd_data_o in cycle t+1.
  Idle(d);
  d.rd_en_i = 1;
  d.rd_addr_i = 5;
  h.Tick();
  for (unsigned a : {7u, 0u, 11u, 3u}) {
    d.rd_addr_i = a;
    h.Tick();
    h.Eval();
    INFO("address " << a);
    REQUIRE(d.rd_data_o == 0xa000 + a);
  }
  // The data of the address presented this cycle is not visible before the edge.
  d.rd_addr_i = 9;
  h.Eval();
  REQUIRE(d.rd_data_o == 0xa000 + 3);
  h.Tick();
  h.Eval();
  REQUIRE(d.rd_data_o == 0xa000 + 9);
  REQUIRE_FALSE(h.Failed());
}

TEST_CASE("sram: a read and a write of one address in one cycle return the old word",
          "[common][sram][directed]") {
  Harness<Dut> h(1, "sram");
  auto& d = h.dut();
  Start(h);
  Write(h, 4, 0x1111);
  d.rd_en_i = 1;
  d.rd_addr_i = 4;
  d.wr_en_i = 1;
  d.wr_addr_i = 4;
  d.wr_data_i = 0x2222;
  h.Tick();
  h.Eval();
  REQUIRE(d.rd_data_o == 0x1111);  // read before write
  d.wr_en_i = 0;
  h.Tick();
  h.Eval();
  REQUIRE(d.rd_data_o == 0x2222);  // the write landed
  REQUIRE_FALSE(h.Failed());
}

TEST_CASE("sram: random traffic matches a vector model", "[common][sram][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Harness<Dut> h(seed, "sram");
  auto& d = h.dut();
  Start(h);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<unsigned> addr_d(0, kDepth - 1);
  // Contents are not reset, so only words written since the start are known.
  std::vector<std::optional<uint16_t>> model(kDepth);
  std::optional<uint16_t> expect;  // word due on rd_data_o this cycle, if known
  bool read_pending = false;
  uint64_t checked = 0, collisions = 0;
  for (int c = 0; c < 5000; ++c) {
    // Bias towards few addresses now and then, so same-address read+write happens often.
    const bool narrow = (c / 500) % 2 == 1;
    const unsigned ra = narrow ? addr_d(rng) % 2 : addr_d(rng);
    const unsigned wa = narrow ? addr_d(rng) % 2 : addr_d(rng);
    d.rd_en_i = rng() & 1u;
    d.rd_addr_i = ra;
    d.wr_en_i = rng() & 1u;
    d.wr_addr_i = wa;
    d.wr_data_i = static_cast<uint16_t>(rng());
    h.Eval();
    INFO("cycle " << h.cycle());
    if (read_pending && expect) {
      REQUIRE(d.rd_data_o == *expect);
      ++checked;
    }
    // Sample this cycle's operations: the read sees the array before this cycle's write.
    read_pending = d.rd_en_i;
    if (d.rd_en_i) expect = model[ra];
    if (d.rd_en_i && d.wr_en_i && ra == wa) ++collisions;
    if (d.wr_en_i) model[wa] = static_cast<uint16_t>(d.wr_data_i);
    h.Tick();
    REQUIRE_FALSE(h.Failed());
  }
  REQUIRE(checked > 1000);
  REQUIRE(collisions > 50);
}

TEST_CASE("sram: an address past Depth raises an RTL error", "[common][sram][corner]") {
  SECTION("read") {
    Harness<Dut> h(1, "sram");
    auto& d = h.dut();
    Start(h);
    d.rd_addr_i = kDepth;  // enable low: no error
    h.Tick();
    REQUIRE_FALSE(h.Failed());
    d.rd_en_i = 1;
    h.Tick();
    REQUIRE(h.Failed());
  }
  SECTION("write") {
    Harness<Dut> h(1, "sram");
    auto& d = h.dut();
    Start(h);
    d.wr_addr_i = 15;
    h.Tick();
    REQUIRE_FALSE(h.Failed());
    d.wr_en_i = 1;
    h.Tick();
    REQUIRE(h.Failed());
  }
}
