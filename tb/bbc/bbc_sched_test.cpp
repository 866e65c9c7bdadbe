// flint_bbc_sched against model::BbcSched, every output every cycle: directed cases for each
// pick rule (FCFS oldest, most-pending most queued with ties to the oldest, the age cap), slot
// allocation, refusal when the slots are full, freeing, residency, and seeded random traffic at
// small (both policies, and 4 slots with a short age cap) and paper.
#include "model/bbc/bbc_sched.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <sstream>
#include <vector>

#include "Vsched_paper.h"
#include "Vsched_small.h"
#include "Vsched_small_cap.h"
#include "Vsched_small_fcfs.h"
#include "Vsched_small_l2.h"
#include "flint_config.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/seed.hpp"
#include "tb/ftl/ftl_tb.hpp"

namespace {

uint32_t CeilLog2(uint32_t n) {
  uint32_t b = 0;
  while ((1u << b) < n) ++b;
  return b;
}

using flint::model::BbcPolicy;
using flint::model::BbcSched;
using flint::model::SchedIn;
using flint::model::SchedOut;

template <class Dut>
class SchedBench {
 public:
  SchedBench(uint32_t seed, uint32_t slots, BbcPolicy policy, uint64_t age_cap,
             uint32_t lanes = 1, uint32_t burst_bits = 0)
      : h_(seed, "bbc_sched"), model_(slots, policy, age_cap, lanes), burst_bits_(burst_bits) {
    flint::tb::ResetFromHigh(h_);
  }

  // Drives one cycle, checks every output against the model, steps both.
  SchedOut Step(const SchedIn& in) {
    auto& d = h_.dut();
    const uint32_t lanes = model_.lanes();
    uint32_t req = 0, valid = 0;
    uint64_t bursts = 0;
    for (uint32_t l = 0; l < lanes; ++l) {
      req |= static_cast<uint32_t>(l < in.add_req.size() && in.add_req[l]) << l;
      valid |= static_cast<uint32_t>(l < in.add_valid.size() && in.add_valid[l]) << l;
      if (l < in.add_burst.size()) bursts |= in.add_burst[l] << (l * burst_bits_);
    }
    d.add_req_i = req;
    d.add_valid_i = valid;
    d.add_burst_i = static_cast<uint32_t>(bursts);
    d.sub_valid_i = in.sub_valid;
    d.sub_slot_i = in.sub_slot;
    d.sub_n_i = static_cast<uint32_t>(in.sub_n);
    d.set_res_i = in.set_res;
    d.set_res_slot_i = in.set_res_slot;
    d.clr_res_i = in.clr_res;
    d.clr_res_slot_i = in.clr_res_slot;
    d.query_slot_i = in.query_slot;
    d.age_slot_i = in.age_slot;
    h_.Eval();
    const SchedOut want = model_.Outputs(in);
    const uint32_t slot_bits = model_.slots() > 1 ? CeilLog2(model_.slots()) : 1;
    for (uint32_t l = 0; l < lanes; ++l) {
      Same("add_ready_o", (d.add_ready_o >> l) & 1u, want.add_ready[l]);
      Same("add_hit_o", (d.add_hit_o >> l) & 1u, want.add_hit[l]);
      if (want.add_ready[l]) {
        Same("add_slot_o", (d.add_slot_o >> (l * slot_bits)) & ((1u << slot_bits) - 1),
             want.add_slot[l]);
      }
    }
    Same("pick_valid_o", d.pick_valid_o, want.pick_valid);
    if (want.pick_valid) {
      Same("pick_slot_o", d.pick_slot_o, want.pick_slot);
      Same("pick_burst_o", d.pick_burst_o, want.pick_burst);
    }
    Same("query_valid_o", d.query_valid_o, want.query_valid);
    Same("query_count_o", d.query_count_o, want.query_count);
    if (model_.slot(in.age_slot).count != 0) Same("age_o", d.age_o, want.age);
    Same("used_o", d.used_o, want.used);
    model_.Step(in);
    h_.Tick();
    REQUIRE_FALSE(h_.Failed());
    ++cycles_;
    return want;
  }
  SchedOut Idle() { return Step(SchedIn{}); }
  // Offers one request on lane 0; it is added if the scheduler is ready for it.
  SchedOut Add(uint64_t burst) {
    SchedIn in;
    in.add_req = {true};
    in.add_burst = {burst};
    in.add_valid = {model_.Outputs(in).add_ready[0]};
    return Step(in);
  }
  const BbcSched& model() const { return model_; }
  Dut& dut() { return h_.dut(); }

 private:
  template <class A, class B>
  void Same(const char* what, const A& got, const B& want) {
    if (static_cast<uint64_t>(got) == static_cast<uint64_t>(want)) return;
    std::ostringstream m;
    m << "cycle " << cycles_ << ": " << what << " expected " << static_cast<uint64_t>(want)
      << ", got " << static_cast<uint64_t>(got);
    FAIL(m.str());
  }
  flint::tb::Harness<Dut> h_;
  BbcSched model_;
  uint32_t burst_bits_;
  uint64_t cycles_ = 0;
};

constexpr uint64_t kSmallCap = 4 * flint::kSmallConfig.burst_period_cycles;
constexpr uint64_t kPaperCap = 4 * flint::kPaperConfig.burst_period_cycles;

// Legal random traffic drawn from the model's state: adds over a few more bursts than slots,
// subs of queued slots, residency marks on used slots and clears of resident ones.
template <class Dut>
void RandomRun(SchedBench<Dut>& b, std::mt19937_64& rng, uint64_t bursts, uint64_t cycles,
               uint64_t burst_stride) {
  uint64_t picks = 0, refused = 0, shared = 0;
  for (uint64_t c = 0; c < cycles; ++c) {
    const BbcSched& m = b.model();
    SchedIn in;
    // Lanes offer requests; the ones taken are a random subset of the offered, ready lanes
    // (the CRQ banks may refuse some), so readiness is asked of the model first. The CRQ bounds
    // what is queued (CountBits holds it): no offers while 96 are.
    uint64_t queued_total = 0;
    for (uint32_t s = 0; s < m.slots(); ++s) queued_total += m.slot(s).count;
    for (uint32_t l = 0; l < m.lanes(); ++l) {
      in.add_req.push_back(queued_total < 96 && rng() % 3 != 0);
      in.add_burst.push_back((rng() % bursts) * burst_stride);
    }
    const SchedOut offer = m.Outputs(in);
    for (uint32_t l = 0; l < m.lanes(); ++l) {
      in.add_valid.push_back(in.add_req[l] && offer.add_ready[l] && rng() % 8 != 0);
      refused += in.add_req[l] && !offer.add_ready[l];
      shared += l > 0 && in.add_valid[l] && in.add_valid[0] && in.add_burst[l] == in.add_burst[0];
    }
    std::vector<uint32_t> queued, used, resident;
    for (uint32_t s = 0; s < m.slots(); ++s) {
      if (m.slot(s).count) queued.push_back(s);
      if (m.slot(s).used && !m.slot(s).resident) used.push_back(s);
      if (m.slot(s).resident) resident.push_back(s);
    }
    if (!queued.empty() && rng() % 2) {
      in.sub_valid = true;
      in.sub_slot = queued[rng() % queued.size()];
      in.sub_n = 1 + rng() % std::min<uint64_t>(m.slot(in.sub_slot).count, m.lanes());
    }
    if (!used.empty() && resident.size() < 2 && rng() % 6 == 0) {
      in.set_res = true;
      in.set_res_slot = used[rng() % used.size()];
    }
    if (!resident.empty() && rng() % 8 == 0) {
      in.clr_res = true;
      in.clr_res_slot = resident[rng() % resident.size()];
    }
    in.query_slot = static_cast<uint32_t>(rng() % m.slots());
    in.age_slot = static_cast<uint32_t>(rng() % m.slots());
    const SchedOut o = b.Step(in);
    picks += o.pick_valid;
  }
  INFO("picks " << picks << " refused adds " << refused << " shared-burst adds " << shared);
  REQUIRE(picks > cycles / 4);  // the pick was exercised
  REQUIRE(refused > 0);         // and the full-slots refusal
  if (b.model().lanes() > 1) REQUIRE(shared > 0);  // and lanes adding to one burst together
}

}  // namespace

TEST_CASE("bbc sched: FCFS picks the oldest queued burst, most-pending the most queued",
          "[bbc]") {
  const uint32_t seed = flint::tb::TestSeed();
  SchedBench<Vsched_small_fcfs> f(seed, 8, BbcPolicy::kFcfs, kSmallCap);
  SchedBench<Vsched_small> m(seed, 8, BbcPolicy::kMostPending, kSmallCap);
  // burst 5 once, then burst 9 three times, then burst 2 three times.
  for (uint64_t burst : {5, 9, 9, 9, 2, 2, 2}) {
    f.Add(burst);
    m.Add(burst);
  }
  const SchedOut fo = f.Idle();
  const SchedOut mo = m.Idle();
  REQUIRE(fo.pick_valid);
  REQUIRE(fo.pick_burst == 5);
  REQUIRE(mo.pick_valid);
  REQUIRE(mo.pick_burst == 9);  // 9 and 2 both have three: 9's oldest is older
  REQUIRE(f.dut().pick_burst_o == 5);
  REQUIRE(m.dut().pick_burst_o == 9);
  REQUIRE(m.dut().used_o == 3);
}

TEST_CASE("bbc sched: the age cap makes most-pending take the oldest request", "[bbc]") {
  SchedBench<Vsched_small_cap> b(flint::tb::TestSeed(), 4, BbcPolicy::kMostPending, 50);
  b.Add(7);
  for (int i = 0; i < 5; ++i) b.Add(3);
  REQUIRE(b.Idle().pick_burst == 3);
  // Burst 7's request came at cycle 0: it is taken in the cycle it is 50 cycles old.
  uint64_t switched_at = 0;
  for (;;) {
    const uint64_t now = b.model().now();
    REQUIRE(now <= 60);
    if (b.Idle().pick_burst != 3) {
      switched_at = now;
      break;
    }
  }
  REQUIRE(switched_at == 50);
  REQUIRE(b.dut().pick_burst_o == 7);
}

TEST_CASE("bbc sched: full slots refuse a new burst, take known ones, and free when drained",
          "[bbc]") {
  SchedBench<Vsched_small_cap> b(flint::tb::TestSeed(), 4, BbcPolicy::kMostPending, 50);
  for (uint64_t burst : {10, 11, 12, 13}) REQUIRE(b.Add(burst).add_ready[0]);
  REQUIRE(b.dut().used_o == 4);
  const SchedOut refused = b.Add(14);
  REQUIRE_FALSE(refused.add_ready[0]);
  REQUIRE(b.Add(12).add_hit[0]);
  // Slot of burst 11 (slot 1): mark it resident, serve its request: it stays (resident).
  SchedIn in;
  in.set_res = true;
  in.set_res_slot = 1;
  b.Step(in);
  in = SchedIn{};
  in.sub_valid = true;
  in.sub_slot = 1;
  b.Step(in);
  REQUIRE(b.dut().used_o == 4);
  in = SchedIn{};
  in.query_slot = 1;
  REQUIRE(b.Step(in).query_count == 0);
  // Release it: the slot frees and burst 14 finds room.
  in = SchedIn{};
  in.clr_res = true;
  in.clr_res_slot = 1;
  b.Step(in);
  REQUIRE(b.dut().used_o == 3);
  const SchedOut again = b.Add(14);
  REQUIRE(again.add_ready[0]);
  REQUIRE(again.add_slot[0] == 1);
}

TEST_CASE("bbc sched: a slot marked resident in its allocation cycle is kept until released",
          "[bbc][corner]") {
  SchedBench<Vsched_small_cap> b(flint::tb::TestSeed(), 4, BbcPolicy::kMostPending, 50);
  REQUIRE(b.Add(20).add_slot[0] == 0);
  // Burst 21 takes slot 1 and is marked resident in the same cycle (the scheduler allows it).
  SchedIn in;
  in.add_req = {true};
  in.add_burst = {21};
  in.add_valid = {true};
  in.set_res = true;
  in.set_res_slot = 1;
  const SchedOut alloc = b.Step(in);
  REQUIRE(alloc.add_ready[0]);
  REQUIRE_FALSE(alloc.add_hit[0]);
  REQUIRE(alloc.add_slot[0] == 1);
  // Resident, so never picked: the pick stays on burst 20.
  const SchedOut next = b.Idle();
  REQUIRE(next.pick_valid);
  REQUIRE(next.pick_slot == 0);
  // Its request served, the slot stays (resident); released, it frees.
  in = SchedIn{};
  in.sub_valid = true;
  in.sub_slot = 1;
  b.Step(in);
  REQUIRE(b.dut().used_o == 2);
  in = SchedIn{};
  in.clr_res = true;
  in.clr_res_slot = 1;
  b.Step(in);
  REQUIRE(b.dut().used_o == 1);
}

TEST_CASE("bbc sched: random traffic matches the model", "[bbc][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  SECTION("small, most-pending") {
    SchedBench<Vsched_small> b(seed, 8, BbcPolicy::kMostPending, kSmallCap);
    RandomRun(b, rng, 12, 20000, 1);
  }
  SECTION("small, fcfs") {
    SchedBench<Vsched_small_fcfs> b(seed, 8, BbcPolicy::kFcfs, kSmallCap);
    RandomRun(b, rng, 12, 20000, 1);
  }
  SECTION("small, 4 slots, age cap 50") {
    SchedBench<Vsched_small_cap> b(seed, 4, BbcPolicy::kMostPending, 50);
    RandomRun(b, rng, 6, 20000, 1);
  }
  SECTION("small, 2 lanes, 4 slots, age cap 50") {
    SchedBench<Vsched_small_l2> b(seed, 4, BbcPolicy::kMostPending, 50, 2,
                                  flint::kSmallConfig.burst_idx_bits);
    RandomRun(b, rng, 6, 20000, 1);
  }
  SECTION("paper") {
    SchedBench<Vsched_paper> b(seed, 8, BbcPolicy::kMostPending, kPaperCap);
    RandomRun(b, rng, 12, 20000, 20011);  // bursts spread over the 18-bit index
  }
}
