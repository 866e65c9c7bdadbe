// flint_bbc_crq_bank against model::CrqBank: every pop's payload and slot in the next cycle, the
// non-empty mask, occupancy and both readies every cycle; directed cases for the list corner
// cases (append and pop of a one-entry list in one cycle, back-to-back pops of one list, reuse of
// freed entries once the bump pointer is spent) and seeded random traffic at small, a tiny bank
// and paper.
#include "model/bbc/crq_bank.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <utility>
#include <vector>

#include "Vcrq_paper.h"
#include "Vcrq_small.h"
#include "Vcrq_tiny.h"
#include "flint_config.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/seed.hpp"
#include "tb/ftl/ftl_tb.hpp"

namespace {

using flint::model::CrqBank;

struct Op {
  std::optional<std::pair<uint32_t, uint64_t>> app;  // slot, payload
  std::optional<uint32_t> pop;                       // slot
};

template <class Dut>
class CrqBench {
 public:
  CrqBench(uint32_t seed, uint32_t entries, uint32_t slots, uint32_t width)
      : h_(seed, "crq_bank"), model_(entries, slots), mask_((uint64_t{1} << width) - 1) {
    flint::tb::ResetFromHigh(h_);
  }

  // Drives one cycle; returns {appended, popped}.
  std::pair<bool, bool> Step(const Op& op) {
    auto& d = h_.dut();
    d.app_valid_i = op.app.has_value();
    d.app_slot_i = op.app ? op.app->first : 0;
    d.app_data_i = op.app ? static_cast<uint32_t>(op.app->second & mask_) : 0;
    d.pop_valid_i = op.pop.has_value();
    d.pop_slot_i = op.pop.value_or(0);
    h_.Eval();
    // The answer to last cycle's pop.
    Same("rsp_valid_o", d.rsp_valid_o, expect_.has_value());
    if (expect_) {
      Same("rsp_slot_o", d.rsp_slot_o, expect_->first);
      Same("rsp_data_o", d.rsp_data_o, expect_->second);
    }
    expect_.reset();
    uint64_t mask = 0;
    for (uint32_t s = 0; s < model_.slots(); ++s) mask |= uint64_t{!model_.Empty(s)} << s;
    Same("nonempty_o", d.nonempty_o, mask);
    Same("used_o", d.used_o, model_.used());
    Same("pop_ready_o", d.pop_ready_o, op.pop ? !model_.Empty(*op.pop) : !model_.Empty(0));
    // app_ready_o: never with the bank full, always with three or more places free (the free
    // FIFO's read latency is the only gap).
    if (model_.used() == model_.entries()) Same("app_ready_o (full)", d.app_ready_o, 0);
    if (model_.used() + 3 <= model_.entries()) Same("app_ready_o (room)", d.app_ready_o, 1);
    const bool app = op.app && d.app_ready_o;
    const bool pop = op.pop && d.pop_ready_o;
    // Model order within a cycle: the pop sees the list before this cycle's append.
    if (pop) expect_ = std::make_pair(*op.pop, model_.Pop(*op.pop));
    if (app) model_.Append(op.app->first, op.app->second & mask_);
    h_.Tick();
    REQUIRE_FALSE(h_.Failed());
    ++cycle_;
    stalls_ += op.app && !app;
    return {app, pop};
  }
  const CrqBank& model() const { return model_; }
  uint64_t stalls() const { return stalls_; }

 private:
  template <class A, class B>
  void Same(const char* what, const A& got, const B& want) {
    if (static_cast<uint64_t>(got) == static_cast<uint64_t>(want)) return;
    std::ostringstream m;
    m << "cycle " << cycle_ << ": " << what << " expected " << static_cast<uint64_t>(want)
      << ", got " << static_cast<uint64_t>(got);
    FAIL(m.str());
  }
  flint::tb::Harness<Dut> h_;
  CrqBank model_;
  uint64_t mask_;
  std::optional<std::pair<uint32_t, uint64_t>> expect_;
  uint64_t cycle_ = 0, stalls_ = 0;
};

// Geometry of each Verilated variant (see CMakeLists.txt).
constexpr uint32_t kSmallEntries = flint::kSmallConfig.crq_entries / flint::kSmallConfig.dies;
constexpr uint32_t kSmallWidth = static_cast<uint32_t>(
    flint::kSmallConfig.req_id_bits + flint::kSmallConfig.plane_bits +
    flint::kSmallConfig.cl_in_page_bits);
constexpr uint32_t kPaperEntries = flint::kPaperConfig.crq_entries / flint::kPaperConfig.dies;
constexpr uint32_t kPaperWidth = static_cast<uint32_t>(
    flint::kPaperConfig.req_id_bits + flint::kPaperConfig.plane_bits +
    flint::kPaperConfig.cl_in_page_bits);

template <class Dut>
void RandomRun(CrqBench<Dut>& b, std::mt19937_64& rng, uint64_t cycles) {
  uint64_t pops = 0, apps = 0, full = 0;
  // Phases of mostly-append and mostly-pop so the bank fills, empties and reuses entries.
  for (uint64_t c = 0; c < cycles; ++c) {
    const bool filling = (c / (4 * b.model().entries())) % 2 == 0;
    Op op;
    if (rng() % 100 < (filling ? 80u : 35u)) {
      op.app = std::make_pair(static_cast<uint32_t>(rng() % b.model().slots()), rng());
    }
    if (rng() % 100 < (filling ? 35u : 80u)) {
      op.pop = static_cast<uint32_t>(rng() % b.model().slots());
    }
    const auto [a, p] = b.Step(op);
    apps += a;
    pops += p;
    full += b.model().used() == b.model().entries();
  }
  INFO("appends " << apps << " pops " << pops << " cycles full " << full);
  REQUIRE(apps > cycles / 4);
  REQUIRE(pops > cycles / 4);
  REQUIRE(full > 0);  // the bank filled up and refused appends
}

}  // namespace

TEST_CASE("crq bank: each slot's requests come out in arrival order", "[bbc]") {
  CrqBench<Vcrq_small> b(flint::tb::TestSeed(), kSmallEntries, 8, kSmallWidth);
  for (uint64_t i = 0; i < 24; ++i) b.Step({std::make_pair(static_cast<uint32_t>(i % 3), i), {}});
  REQUIRE(b.model().used() == 24);
  // Back-to-back pops of slot 1 (the next pointer comes out of SRAM a cycle later), then 0 and 2
  // interleaved; the bench checks every payload against the model.
  for (int i = 0; i < 8; ++i) REQUIRE(b.Step({{}, 1u}).second);
  REQUIRE_FALSE(b.Step({{}, 1u}).second);  // empty now
  for (int i = 0; i < 16; ++i) REQUIRE(b.Step({{}, static_cast<uint32_t>(i % 2 ? 2 : 0)}).second);
  b.Step({});
  REQUIRE(b.model().used() == 0);
}

TEST_CASE("crq bank: append and pop of a one-entry list in one cycle", "[bbc]") {
  CrqBench<Vcrq_small> b(flint::tb::TestSeed(), kSmallEntries, 8, kSmallWidth);
  b.Step({std::make_pair(4u, 100u), {}});
  for (uint64_t i = 0; i < 20; ++i) {
    // Every cycle the only entry leaves and a new one arrives in slot 4.
    const auto [a, p] = b.Step({std::make_pair(4u, 101 + i), 4u});
    REQUIRE(a);
    REQUIRE(p);
    REQUIRE(b.model().Size(4) == 1);
  }
  // And with two entries, popping while appending (the link write and the head read differ).
  b.Step({std::make_pair(4u, 200u), {}});
  for (uint64_t i = 0; i < 20; ++i) b.Step({std::make_pair(4u, 300 + i), 4u});
  while (!b.model().Empty(4)) b.Step({{}, 4u});
  b.Step({});
}

TEST_CASE("crq bank: freed entries are reused once the bump pointer is spent", "[bbc]") {
  CrqBench<Vcrq_tiny> b(flint::tb::TestSeed(), 8, 2, 12);
  for (uint64_t round = 0; round < 6; ++round) {
    uint64_t n = 0;
    while (b.model().used() < 8) {
      REQUIRE(++n < 40);
      b.Step({std::make_pair(static_cast<uint32_t>(n % 2), round * 100 + n), {}});
    }
    REQUIRE_FALSE(b.Step({std::make_pair(0u, 7u), {}}).first);  // full: refused
    while (b.model().used() > 0) {
      b.Step({{}, b.model().Empty(0) ? 1u : 0u});
    }
    b.Step({});
  }
  // A steady stream through an almost-empty bank: one in, one out, never refused.
  CrqBench<Vcrq_tiny> s(flint::tb::TestSeed(), 8, 2, 12);
  for (uint64_t i = 0; i < 20; ++i) s.Step({std::make_pair(0u, i), {}});
  REQUIRE(s.stalls() == 12);  // 8 fit, 12 refused
  // The first entries freed reach the prefetch buffer after the free FIFO's read latency (at
  // most three refusals); after that one-in-one-out never stalls.
  for (uint64_t i = 0; i < 10; ++i) s.Step({std::make_pair(1u, i), s.model().Empty(0) ? 1u : 0u});
  REQUIRE(s.stalls() <= 12 + 3);
  const uint64_t settled = s.stalls();
  for (uint64_t i = 0; i < 200; ++i) s.Step({std::make_pair(1u, i), s.model().Empty(0) ? 1u : 0u});
  REQUIRE(s.stalls() == settled);
}

TEST_CASE("crq bank: random traffic matches the model", "[bbc][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  SECTION("small") {
    CrqBench<Vcrq_small> b(seed, kSmallEntries, 8, kSmallWidth);
    RandomRun(b, rng, 20000);
  }
  SECTION("tiny: 8 entries, 2 slots") {
    CrqBench<Vcrq_tiny> b(seed, 8, 2, 12);
    RandomRun(b, rng, 20000);
  }
  SECTION("paper") {
    CrqBench<Vcrq_paper> b(seed, kPaperEntries, 8, kPaperWidth);
    RandomRun(b, rng, 40000);
  }
}
