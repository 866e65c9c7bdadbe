// The transaction-level refresh-cost model (sim/studies/refresh_cost): the paper-config claims it
// is used for (docs/refresh_cost.md), held as properties that can fail.
#include <catch2/catch.hpp>
#include <stdexcept>

#include "flint_config.hpp"
#include "sim/studies/disturb.hpp"
#include "sim/studies/refresh_cost.hpp"
#include "sim/workload/workload_gen.hpp"

namespace {

namespace s = flint::sim;
using flint::kPaperConfig;
using flint::model::BurstPlacement;

s::DecodeGenerator DenseLlama() {
  s::DecodeOptions o;
  o.steps = 64;
  const s::ModelShape* m = s::FindModel("llama-3.1-405b");
  REQUIRE(m != nullptr);
  return s::DecodeGenerator(*m, kPaperConfig, o);
}

}  // namespace

TEST_CASE("refresh cost: FLINT never stalls and keeps every block under the limit at paper",
          "[sim][refresh_cost][directed]") {
  const s::DecodeGenerator gen = DenseLlama();
  s::RefreshCostOptions o;
  o.steps = s::StepsToTripAll(gen, kPaperConfig, o.placement, o.distinct_steps, 0, 100000);
  REQUIRE(o.steps > 1000);  // past one disturb limit's worth of senses of every block
  o.mode = s::RefreshMode::kNone;
  const s::RefreshCostResult none = s::RunRefreshCost(gen, kPaperConfig, o);
  REQUIRE(none.stall_cycles == 0);
  REQUIRE(none.max_block_count >= kPaperConfig.disturb_limit);  // refresh is needed
  // The routing period repeats: over whole periods the counts are the period's profile times
  // the periods.
  s::RefreshCostOptions whole = o;
  whole.steps = (o.steps / o.distinct_steps + 1) * o.distinct_steps;
  const s::RefreshCostResult periods = s::RunRefreshCost(gen, kPaperConfig, whole);
  const s::DisturbProfile one =
      s::MeasureDisturb(gen, kPaperConfig, o.placement, o.distinct_steps, 0);
  const uint64_t n = whole.steps / o.distinct_steps;
  REQUIRE(periods.max_block_count == one.max_block_senses * n);
  REQUIRE(periods.bursts == one.senses * n);

  o.mode = s::RefreshMode::kFlint;
  const s::RefreshCostResult flint = s::RunRefreshCost(gen, kPaperConfig, o);
  REQUIRE(flint.stall_cycles == 0);
  REQUIRE(flint.foreground_cycles == none.foreground_cycles);
  REQUIRE(flint.max_block_count < kPaperConfig.disturb_limit);
  // Plane copies: one per live blocks x PAGES x tPROG of foreground time.
  const uint64_t copy = flint.live_blocks * kPaperConfig.pages * kPaperConfig.t_prog_cycles;
  REQUIRE(flint.refreshes + 1 >= flint.foreground_cycles / copy);
  REQUIRE(flint.refreshes <= flint.foreground_cycles / copy + 1);
}

TEST_CASE("refresh cost: in-place refresh stalls; burst refresh lands all at once",
          "[sim][refresh_cost][directed]") {
  const s::DecodeGenerator gen = DenseLlama();
  s::RefreshCostOptions o;
  o.steps = s::StepsToTripAll(gen, kPaperConfig, o.placement, o.distinct_steps, 0, 100000);
  const uint64_t refresh = kPaperConfig.t_erase_cycles +
                           kPaperConfig.pages * kPaperConfig.t_prog_cycles;
  const uint64_t stripe = kPaperConfig.dies * kPaperConfig.planes;
  o.mode = s::RefreshMode::kInPlaceDistributed;
  const s::RefreshCostResult dist = s::RunRefreshCost(gen, kPaperConfig, o);
  o.mode = s::RefreshMode::kInPlaceBurst;
  const s::RefreshCostResult burst = s::RunRefreshCost(gen, kPaperConfig, o);
  for (const s::RefreshCostResult* r : {&dist, &burst}) {
    REQUIRE(r->stall_cycles == r->refreshes * refresh);
    REQUIRE(r->max_block_count < kPaperConfig.disturb_limit);
    // Every block of every live plane passed the limit once in the run.
    REQUIRE(r->refreshes >= r->live_blocks * stripe);
  }
  // Both count floor(senses / limit) trips per block, from different starting offsets.
  REQUIRE(dist.refreshes <= burst.refreshes + dist.live_blocks * stripe);
  REQUIRE(burst.refreshes <= dist.refreshes + dist.live_blocks * stripe);
  // Burst: a whole stripe (every plane's copy of a block) trips in one step.
  REQUIRE(burst.worst_step_stall_cycles >= stripe * refresh);
  REQUIRE(burst.stalled_steps * 10 < dist.stalled_steps);
  // Distributed: a trickle, the worst step a small fraction of the burst's.
  REQUIRE(dist.worst_step_stall_cycles * 10 < burst.worst_step_stall_cycles);
  REQUIRE(dist.slowdown() > 2.0);  // the paper's point: in place is costly either way
}

TEST_CASE("refresh cost: bad options are refused", "[sim][refresh_cost][corner]") {
  const s::DecodeGenerator gen = DenseLlama();
  s::RefreshCostOptions o;
  o.steps = 0;
  REQUIRE_THROWS_AS(s::RunRefreshCost(gen, kPaperConfig, o), std::invalid_argument);
  o.steps = 1;
  o.stack = 8;
  REQUIRE_THROWS_AS(s::RunRefreshCost(gen, kPaperConfig, o), std::out_of_range);
}
