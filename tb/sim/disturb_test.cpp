// Burst placement (model/ftl/placement) and the read-disturb profile (sim/studies/disturb).
#include <catch2/catch.hpp>
#include <algorithm>
#include <set>
#include <stdexcept>

#include "flint_config.hpp"
#include "model/common/placement.hpp"
#include "sim/studies/disturb.hpp"
#include "sim/workload/workload_gen.hpp"

namespace {

using flint::model::BlockPage;
using flint::model::BurstPlacement;
namespace m = flint::model;
namespace s = flint::sim;

const s::ModelShape& Model(const char* name) {
  const s::ModelShape* shape = s::FindModel(name);
  REQUIRE(shape != nullptr);
  return *shape;
}

}  // namespace

TEST_CASE("placement: both placements are one-to-one and stay inside the live blocks",
          "[sim][disturb][directed]") {
  const uint64_t pages = 16, blocks = 8;
  for (uint64_t bursts : {1u, 15u, 16u, 17u, 100u, 128u}) {
    INFO("bursts " << bursts);
    const uint64_t live = m::LiveBlocks(bursts, pages);
    REQUIRE(live == (bursts + 15) / 16);
    for (BurstPlacement pl : {BurstPlacement::kLinear, BurstPlacement::kInterleaved}) {
      std::set<std::pair<uint32_t, uint32_t>> seen;
      for (uint64_t b = 0; b < bursts; ++b) {
        const BlockPage bp = m::PlaceBurst(pl, b, bursts, blocks, pages);
        REQUIRE(bp.block < live);
        REQUIRE(bp.page < pages);
        REQUIRE(seen.insert({bp.block, bp.page}).second);
      }
    }
  }
  // The paper's linear map, and the interleaved map's spread of consecutive bursts.
  REQUIRE(m::PlaceBurst(BurstPlacement::kLinear, 37, 100, blocks, pages) == BlockPage{2, 5});
  REQUIRE(m::PlaceBurst(BurstPlacement::kInterleaved, 37, 100, blocks, pages) == BlockPage{2, 5});
  REQUIRE(m::PlaceBurst(BurstPlacement::kInterleaved, 38, 100, blocks, pages) == BlockPage{3, 5});
  REQUIRE(m::PlaceBurst(BurstPlacement::kLinear, 38, 100, blocks, pages) == BlockPage{2, 6});
}

TEST_CASE("placement: bad input is refused with a message", "[sim][disturb][corner]") {
  REQUIRE_THROWS_AS(m::PlaceBurst(BurstPlacement::kLinear, 10, 10, 8, 16), std::out_of_range);
  REQUIRE_THROWS_AS(m::PlaceBurst(BurstPlacement::kInterleaved, 0, 129, 8, 16),
                    std::out_of_range);  // needs 9 blocks of 8
  REQUIRE_THROWS_AS(m::LiveBlocks(4, 0), std::invalid_argument);
  REQUIRE(m::ParseBurstPlacement("linear") == BurstPlacement::kLinear);
  REQUIRE(m::ParseBurstPlacement("interleaved") == BurstPlacement::kInterleaved);
  REQUIRE_THROWS_WITH(m::ParseBurstPlacement("striped"), Catch::Contains("striped"));
}

TEST_CASE("disturb: senses per step equal the generator's distinct bursts under both placements",
          "[sim][disturb][directed]") {
  for (const char* name : {"tiny-small", "tiny-dense"}) {
    INFO("model " << name);
    s::DecodeOptions o;
    o.batch = 4;
    o.steps = 3;
    o.stacks = 1;
    const s::DecodeGenerator gen(Model(name), flint::kSmallConfig, o);
    // Independent count: the summary's distinct bursts per phase (groups are burst aligned, so
    // no burst belongs to two phases).
    uint64_t want = 0;
    for (const s::StepSummary& st : gen.Summarize()) {
      for (const s::PhaseSummary& ph : st.phases) want += ph.stack_bursts;
    }
    REQUIRE(want > 0);
    const s::DisturbProfile lin =
        s::MeasureDisturb(gen, flint::kSmallConfig, BurstPlacement::kLinear, 3, 0);
    const s::DisturbProfile il =
        s::MeasureDisturb(gen, flint::kSmallConfig, BurstPlacement::kInterleaved, 3, 0);
    REQUIRE(lin.senses == want);
    REQUIRE(il.senses == want);
    uint64_t sum = 0;
    for (uint64_t c : il.per_block) sum += c;
    REQUIRE(sum == want);
    REQUIRE(lin.live_blocks == m::LiveBlocks(gen.layout().total_bursts(), 16));
    // One pass: 5 physical planes x live blocks x 16 pages x tPROG.
    REQUIRE(il.rotation_pass_seconds ==
            Approx(5.0 * il.live_blocks * 16 * flint::kSmallConfig.t_prog_cycles * 1e-6 /
                   flint::kSmallConfig.clock_mhz));
    // Spreading never makes the hottest block hotter.
    REQUIRE(il.max_block_senses <= lin.max_block_senses);
  }
}

TEST_CASE("disturb: a dense model reads every block equally often when interleaved",
          "[sim][disturb][directed]") {
  s::DecodeOptions o;
  o.batch = 1;
  o.steps = 2;
  o.stacks = 1;
  const s::DecodeGenerator gen(Model("tiny-dense"), flint::kSmallConfig, o);
  const s::DisturbProfile il =
      s::MeasureDisturb(gen, flint::kSmallConfig, BurstPlacement::kInterleaved, 2, 0);
  const s::DisturbProfile lin =
      s::MeasureDisturb(gen, flint::kSmallConfig, BurstPlacement::kLinear, 2, 0);
  // Every weight burst but the embedding's unread rows is sensed once a step: with the bursts
  // dealt round-robin over the blocks, no block takes more than one page row's worth above
  // another; linear packs 16 consecutive bursts into one block.
  const uint64_t lo = *std::min_element(il.per_block.begin(), il.per_block.end());
  REQUIRE(il.max_block_senses - lo <= 2 * o.steps);
  REQUIRE(lin.max_block_senses == 16 * o.steps);
  REQUIRE_THROWS_AS(s::MeasureDisturb(gen, flint::kSmallConfig, BurstPlacement::kLinear, 0, 0),
                    std::invalid_argument);
}
