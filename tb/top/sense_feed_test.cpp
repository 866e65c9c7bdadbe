// flint_sense_feed against model::SenseFeed (model/top/sense_feed.hpp): a burst sense becomes
// one counter event a (die, logical plane) at the block the relocation table maps it to, in
// order; a refresh controller's own read becomes one event; nothing is lost or doubled under
// back-pressure from the table and the counters; a sense beyond the queue is flagged (and the
// assertion that guards it fires). The bench plays the relocation table's lookup port (an answer
// the cycle after the request, held until taken) with a random map.
#include "model/top/sense_feed.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vfeed_medium.h"
#include "Vfeed_small.h"
#include "Vsense_feed_netlist.h"
#include "flint_config.hpp"
#include "model/refresh/refresh_bus.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
#include "tb/common/seed.hpp"
#include "tb/ftl/ftl_tb.hpp"

namespace {

using flint::Config;
using flint::model::SenseEvent;
using flint::model::SenseFeed;
using flint::tb::Bits;
using flint::tb::GetBits;
using flint::tb::Harness;
using flint::tb::PutBits;

constexpr uint32_t kDepth = 4;  // flint_sense_feed's default, as flint_top builds it

struct OwnRead {
  uint32_t die, plane, block;
};

// Inputs of one cycle.
struct Drive {
  bool sense = false;
  uint32_t lblock = 0;
  std::vector<OwnRead> own;  // at most one a die
  bool lk_ready = true;
  bool cnt_ready = true;
};

template <class Dut>
class FeedBench {
 public:
  FeedBench(uint32_t seed, const Config& cfg)
      : cfg_(cfg), h_(seed, "sense_feed"), model_(cfg, kDepth) {
    map_.resize(cfg.dies * cfg.planes * cfg.blocks);
    for (uint32_t d = 0; d < cfg.dies; ++d) {
      for (uint32_t l = 0; l < cfg.planes; ++l) {
        for (uint32_t b = 0; b < cfg.blocks; ++b) map_[Idx(d, l, b)] = {l, b};
      }
    }
    flint::tb::ResetFromHigh(h_);
  }

  // The relocation table's map (the bench's table and the model's).
  void Map(uint32_t d, uint32_t l, uint32_t b, uint32_t pplane, uint32_t pblock) {
    map_[Idx(d, l, b)] = {pplane, pblock};
    model_.Map(d, l, b, pplane, pblock);
  }
  // A random map: each die's logical planes on a random choice of its physical planes (the
  // extra one included), each logical block on a random block.
  void RandomMap(std::mt19937& rng) {
    std::uniform_int_distribution<uint32_t> pl(0, static_cast<uint32_t>(cfg_.planes));
    std::uniform_int_distribution<uint32_t> bl(0, static_cast<uint32_t>(cfg_.blocks - 1));
    for (uint32_t d = 0; d < cfg_.dies; ++d) {
      for (uint32_t l = 0; l < cfg_.planes; ++l) {
        for (uint32_t b = 0; b < cfg_.blocks; ++b) Map(d, l, b, pl(rng), bl(rng));
      }
    }
  }

  void Step(const Drive& in) {
    auto& d = h_.dut();
    const uint64_t t = h_.cycle();
    d.sense_i = in.sense;
    d.sense_lblock_i = in.lblock;
    uint32_t own_mask = 0;
    for (const OwnRead& o : in.own) {
      own_mask |= 1u << o.die;
      // A flint_cfg_pkg::pblk_t a die.
      const flint::Pblk blk{0, o.plane, o.block};
      const auto blk_bits = static_cast<uint32_t>(flint::Pblk::Width(cfg_, flint::BusLevel::kDie));
      PutBits(d.own_blk_i, o.die * blk_bits, blk_bits, blk.Pack(cfg_, flint::BusLevel::kDie));
    }
    d.own_i = own_mask;
    d.lk_ready_i = in.lk_ready;
    d.lk_rsp_valid_i = rsp_valid_;
    d.lk_rsp_plane_i = rsp_plane_;
    d.lk_rsp_block_i = rsp_block_;
    d.cnt_ready_i = in.cnt_ready;
    h_.Eval();
    // Counter events.
    if (d.cnt_valid_o && in.cnt_ready) {
      const SenseEvent e{d.cnt_die_o, d.cnt_plane_o, d.cnt_block_o};
      const std::string err = model_.Take(e);
      if (!err.empty()) Fail(t, err);
      ++events_;
    }
    // The table's answer taken; a new lookup only once the answer before it is taken.
    const bool taken = rsp_valid_ && d.lk_rsp_ready_o;
    const bool lk_fire = d.lk_valid_o && in.lk_ready;
    if (lk_fire && rsp_valid_ && !taken) Fail(t, "a lookup while the answer before it waits");
    if (taken) rsp_valid_ = false;
    if (lk_fire) {
      const uint32_t die = d.lk_die_o, lpl = d.lk_plane_o, lb = d.lk_block_o;
      if (die >= cfg_.dies || lpl >= cfg_.planes || lb >= cfg_.blocks) {
        Fail(t, "a lookup outside the geometry");
      } else {
        rsp_valid_ = true;
        rsp_plane_ = map_[Idx(die, lpl, lb)].first;
        rsp_block_ = map_[Idx(die, lpl, lb)].second;
        if (die == cfg_.dies - 1 && lpl == cfg_.planes - 1) model_.LookupsDone();
      }
    }
    if (in.sense) model_.Sense(in.lblock);
    for (const OwnRead& o : in.own) model_.Own(o.die, o.plane, o.block);
    h_.Tick();
    if (static_cast<bool>(h_.dut().overflow_o) != model_.overflow()) {
      Fail(t, std::string("overflow_o ") + (model_.overflow() ? "low" : "high") +
                  " where the model says otherwise");
    }
  }

  SenseFeed& model() { return model_; }
  uint64_t events() const { return events_; }
  bool Failed() { return h_.Failed(); }
  const std::string& Error() const { return error_; }

 private:
  size_t Idx(uint32_t d, uint32_t l, uint32_t b) const {
    return (static_cast<size_t>(d) * cfg_.planes + l) * cfg_.blocks + b;
  }
  void Fail(uint64_t t, const std::string& what) {
    if (error_.empty()) error_ = "cycle " + std::to_string(t) + ": " + what;
  }

  const Config& cfg_;
  Harness<Dut> h_;
  SenseFeed model_;
  std::vector<std::pair<uint32_t, uint32_t>> map_;
  bool rsp_valid_ = false;
  uint32_t rsp_plane_ = 0, rsp_block_ = 0;
  uint64_t events_ = 0;
  std::string error_;
};

// Senses at random (never past the queue), own reads at random (one waiting a die at most),
// random back-pressure on both ports, then a drain; every event checked.
template <class Dut>
void RunRandom(uint32_t seed, const Config& cfg, int cycles) {
  INFO(flint::tb::ReplayCommand(seed));
  FeedBench<Dut> b(seed, cfg);
  std::mt19937 rng(seed);
  b.RandomMap(rng);
  std::uniform_int_distribution<int> pct(0, 99);
  std::uniform_int_distribution<uint32_t> bl(0, static_cast<uint32_t>(cfg.blocks - 1));
  std::uniform_int_distribution<uint32_t> pl(0, static_cast<uint32_t>(cfg.planes));
  uint64_t senses = 0, owns = 0;
  for (int c = 0; c < cycles; ++c) {
    Drive in;
    // A sense about every 1.5 bursts' worth of events, so the queue fills now and then.
    const int sense_pct = static_cast<int>(100 / (cfg.dies * cfg.planes)) + 2;
    in.sense = b.model().queued() < kDepth && pct(rng) < sense_pct;
    in.lblock = bl(rng);
    for (uint32_t d = 0; d < cfg.dies; ++d) {
      if (!b.model().OwnWaiting(d) && pct(rng) < 3) in.own.push_back({d, pl(rng), bl(rng)});
    }
    in.lk_ready = pct(rng) < 80;
    in.cnt_ready = pct(rng) < 85;
    senses += in.sense;
    owns += in.own.size();
    b.Step(in);
  }
  for (int c = 0; c < 10 * static_cast<int>(cfg.dies * cfg.planes * kDepth) && !b.model().Drained();
       ++c) {
    b.Step(Drive{});
  }
  INFO("senses " << senses << " own reads " << owns << " events " << b.events());
  REQUIRE(b.Error().empty());
  REQUIRE(b.model().Drained());
  REQUIRE(b.events() == senses * cfg.dies * cfg.planes + owns);
  REQUIRE(b.model().own_events() == owns);
  REQUIRE(senses > static_cast<uint64_t>(cycles) / (4 * cfg.dies * cfg.planes));
  REQUIRE_FALSE(b.Failed());
}

}  // namespace

TEST_CASE("sense_feed: a burst sense is one event a die and plane at its mapped block",
          "[top][sense_feed][directed]") {
  const Config& cfg = flint::kSmallConfig;
  FeedBench<Vfeed_small> b(1, cfg);
  // Die 1's logical plane 2 holds block 3 on the extra plane's block 6.
  b.Map(1, 2, 3, static_cast<uint32_t>(cfg.planes), 6);
  b.Step(Drive{true, 3, {}, true, true});
  for (int c = 0; c < 40 && !b.model().Drained(); ++c) b.Step(Drive{});
  REQUIRE(b.Error().empty());
  REQUIRE(b.model().Drained());
  REQUIRE(b.events() == cfg.dies * cfg.planes);
  REQUIRE(b.model().burst_events() == cfg.dies * cfg.planes);
  REQUIRE_FALSE(b.Failed());
}

TEST_CASE("sense_feed: own reads of every die are counted once between burst events",
          "[top][sense_feed][directed]") {
  const Config& cfg = flint::kSmallConfig;
  FeedBench<Vfeed_small> b(1, cfg);
  b.Step(Drive{true, 1, {}, true, true});
  Drive own;
  for (uint32_t d = 0; d < cfg.dies; ++d) own.own.push_back({d, 4, d + 2});
  b.Step(own);
  b.Step(Drive{true, 5, {}, true, true});
  for (int c = 0; c < 60 && !b.model().Drained(); ++c) b.Step(Drive{});
  REQUIRE(b.Error().empty());
  REQUIRE(b.model().Drained());
  REQUIRE(b.model().own_events() == cfg.dies);
  REQUIRE(b.events() == 2 * cfg.dies * cfg.planes + cfg.dies);
  REQUIRE_FALSE(b.Failed());
}

TEST_CASE("sense_feed: counters held off keep every event, in order", "[top][sense_feed][corner]") {
  const Config& cfg = flint::kSmallConfig;
  FeedBench<Vfeed_small> b(1, cfg);
  std::mt19937 rng(7);
  b.RandomMap(rng);
  for (uint32_t i = 0; i < kDepth; ++i) b.Step(Drive{true, i, {}, true, false});
  for (int c = 0; c < 50; ++c) b.Step(Drive{false, 0, {}, true, false});  // counters busy
  REQUIRE(b.events() == 0);
  for (int c = 0; c < 200 && !b.model().Drained(); ++c) b.Step(Drive{});
  REQUIRE(b.Error().empty());
  REQUIRE(b.model().Drained());
  REQUIRE(b.events() == kDepth * cfg.dies * cfg.planes);
  REQUIRE_FALSE(b.Failed());
}

TEST_CASE("sense_feed: a sense past a full queue is flagged and the assertion fires",
          "[top][sense_feed][corner]") {
  const Config& cfg = flint::kSmallConfig;
  FeedBench<Vfeed_small> b(1, cfg);
  // No lookup is taken: the queue fills with kDepth senses; the next is lost.
  for (uint32_t i = 0; i <= kDepth; ++i) b.Step(Drive{true, i, {}, false, true});
  REQUIRE(b.model().overflow());
  REQUIRE(b.Error().empty());  // overflow_o rose with the model's
  REQUIRE(b.Failed());         // SenseQueued: no sense may be lost
}

TEST_CASE("sense_feed: random senses, own reads and back-pressure match the model at small",
          "[top][sense_feed][random]") {
  RunRandom<Vfeed_small>(flint::tb::TestSeed(), flint::kSmallConfig, 200000);
}

TEST_CASE("sense_feed: random traffic matches the model at medium", "[top][sense_feed][random]") {
  RunRandom<Vfeed_medium>(flint::tb::TestSeed(), flint::kMediumConfig, 200000);
}

// Trust no synthesis silently (STYLE.md): the Yosys netlist of the feed through the same bench.
TEST_CASE("sense_feed: its synthesized netlist matches the model", "[top][sense_feed][netlist]") {
  RunRandom<Vsense_feed_netlist>(flint::tb::TestSeed(), flint::kSmallConfig, 100000);
}
