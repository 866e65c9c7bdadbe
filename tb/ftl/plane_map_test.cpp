// flint_plane_map against model::PlaneMap: the reset sweep and seeded random reads and writes.
#include "model/ftl/plane_map.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>

#include "Vplane_map_small.h"
#include "flint_config.hpp"
#include "tb/common/harness.hpp"
#include "tb/ftl/ftl_tb.hpp"

namespace {

using flint::Config;
using flint::model::PlaneMap;
using flint::tb::Harness;

struct Expect {
  uint32_t phantom;
  bool pending;
  uint64_t stripe;
};

// Checks the read data of the previous cycle's read against the model.
void CheckRead(Vplane_map_small& d, const std::optional<Expect>& want) {
  if (!want) return;
  REQUIRE(d.rd_phantom_o == want->phantom);
  REQUIRE(static_cast<bool>(d.rd_pending_o) == want->pending);
  REQUIRE(d.rd_stripe_o == want->stripe);
}

}  // namespace

TEST_CASE("plane map: the sweep makes the extra plane the phantom of every block",
          "[ftl][plane_map][directed]") {
  const Config& cfg = flint::kSmallConfig;
  Harness<Vplane_map_small> h(1, "plane_map");
  auto& d = h.dut();
  d.rd_en_i = 0;  // the port must stay unused during the sweep
  d.wr_en_i = 0;
  flint::tb::ResetFromHigh(h);
  uint64_t busy = 0;
  while (d.busy_o) {
    h.Tick();
    ++busy;
  }
  REQUIRE(busy == cfg.dies * cfg.blocks);
  const PlaneMap model(cfg);
  std::optional<Expect> want;
  for (uint32_t die = 0; die < cfg.dies; ++die) {
    for (uint32_t blk = 0; blk < cfg.blocks; ++blk) {
      d.rd_en_i = 1;
      d.rd_die_i = die;
      d.rd_block_i = blk;
      h.Eval();
      CheckRead(d, want);
      want = Expect{model.Phantom(die, blk), model.Pending(die, blk), model.StripeMask(die, blk)};
      REQUIRE(want->phantom == cfg.planes);
      REQUIRE_FALSE(want->pending);
      h.Tick();
    }
  }
  d.rd_en_i = 0;
  h.Eval();
  CheckRead(d, want);
  REQUIRE_FALSE(h.Failed());
}

TEST_CASE("plane map: random reads and writes match the model", "[ftl][plane_map][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const Config& cfg = flint::kSmallConfig;
  Harness<Vplane_map_small> h(seed, "plane_map");
  auto& d = h.dut();
  d.rd_en_i = 0;  // the port must stay unused during the sweep
  d.wr_en_i = 0;
  flint::tb::ResetFromHigh(h);
  while (d.busy_o) h.Tick();
  PlaneMap model(cfg);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint32_t> die_d(0, static_cast<uint32_t>(cfg.dies - 1));
  std::uniform_int_distribution<uint32_t> blk_d(0, static_cast<uint32_t>(cfg.blocks - 1));
  std::uniform_int_distribution<uint32_t> pl_d(0, static_cast<uint32_t>(cfg.phys_planes - 1));
  std::bernoulli_distribution rd_d(0.7), wr_d(0.4), pend_d(0.3), same_d(0.2);
  std::optional<Expect> want;
  uint64_t reads = 0, same_cycle = 0;
  for (int c = 0; c < 4000; ++c) {
    INFO("cycle " << h.cycle());
    const bool rd = rd_d(rng), wr = wr_d(rng);
    const uint32_t rdie = die_d(rng), rblk = blk_d(rng);
    const bool same = same_d(rng);
    const uint32_t wdie = same ? rdie : die_d(rng), wblk = same ? rblk : blk_d(rng);
    const uint32_t wph = pl_d(rng);
    const bool wpend = pend_d(rng);
    d.rd_en_i = rd;
    d.rd_die_i = rdie;
    d.rd_block_i = rblk;
    d.wr_en_i = wr;
    d.wr_die_i = wdie;
    d.wr_block_i = wblk;
    d.wr_phantom_i = wph;
    d.wr_pending_i = wpend;
    h.Eval();
    CheckRead(d, want);
    // A read sees the word before a write of the same cycle.
    want.reset();
    if (rd) {
      want = Expect{model.Phantom(rdie, rblk), model.Pending(rdie, rblk),
                    model.StripeMask(rdie, rblk)};
      ++reads;
      same_cycle += wr && same;
    }
    if (wr) model.Set(wdie, wblk, wph, wpend);
    h.Tick();
    REQUIRE_FALSE(h.Failed());
  }
  REQUIRE(reads > 2000);
  REQUIRE(same_cycle > 50);
}
