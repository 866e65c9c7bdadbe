// flint_btt against model::Btt: clear sweep, one-cycle lookups with status, loads concurrent
// with lookups, out-of-range and unloaded lookups, back-pressure, seeded random traffic, and the
// paper-size table.
#include "model/ftl/btt.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "Vbtt_e100.h"
#include "Vbtt_medium.h"
#include "Vbtt_paper.h"
#include "Vbtt_small.h"
#include "flint_config.hpp"
#include "tb/common/harness.hpp"
#include "tb/ftl/ftl_tb.hpp"

namespace {

using flint::Config;
using flint::Status;
using flint::model::Btt;
using flint::model::BttResult;
using flint::tb::Harness;

// Inputs of one cycle.
struct Drive {
  bool load = false;
  uint64_t load_idx = 0;
  uint32_t block = 0;
  uint32_t page = 0;
  bool lookup = false;
  uint64_t lookup_idx = 0;
  bool rsp_ready = true;
  bool clear = false;
};

// What happened in one cycle.
struct Seen {
  bool load_fire = false;
  bool lookup_fire = false;
  bool rsp_fire = false;
  BttResult rsp;
};

// Runs the DUT cycle by cycle beside the model and checks, every cycle: the busy window, the
// load error flag, and every response against the model (one cycle after its lookup).
template <class Dut>
class BttBench {
 public:
  BttBench(uint32_t seed, const Config& cfg, uint64_t entries = 0)
      : h_(seed, "btt"), model_(cfg, entries), busy_left_(model_.ClearCycles()) {
    start_ = flint::tb::ResetFromHigh(h_);
  }

  Seen Step(const Drive& in) {
    auto& d = h_.dut();
    d.clear_i = in.clear;
    d.load_valid_i = in.load;
    d.load_idx_i = static_cast<uint32_t>(in.load_idx);
    d.load_block_i = in.block;
    d.load_page_i = in.page;
    d.lookup_valid_i = in.lookup;
    d.lookup_idx_i = static_cast<uint32_t>(in.lookup_idx);
    d.rsp_ready_i = in.rsp_ready;
    h_.Eval();
    INFO("cycle " << h_.cycle() - start_);
    Seen s;
    REQUIRE(static_cast<bool>(d.busy_o) == (busy_left_ > 0));
    REQUIRE(static_cast<bool>(d.load_ready_o) == (busy_left_ == 0));
    REQUIRE(static_cast<bool>(d.load_err_o) == model_.load_error().has_value());
    if (model_.load_error()) REQUIRE(d.load_err_idx_o == *model_.load_error());
    // The response of this cycle answers the lookup accepted in an earlier cycle.
    REQUIRE(static_cast<bool>(d.rsp_valid_o) == expected_.has_value());
    if (d.rsp_valid_o) {
      s.rsp = {static_cast<Status>(d.rsp_status_o), d.rsp_block_o, d.rsp_page_o};
      INFO("expected " << ToString(expected_->status) << " (" << expected_->block << ", "
                       << expected_->page << "), got " << ToString(s.rsp.status) << " ("
                       << s.rsp.block << ", " << s.rsp.page << ")");
      REQUIRE(s.rsp == *expected_);
      if (in.rsp_ready) {
        s.rsp_fire = true;
        expected_.reset();
      }
    }
    s.lookup_fire = in.lookup && d.lookup_ready_o;
    s.load_fire = in.load && d.load_ready_o;
    // Order within a cycle: lookups see loads of earlier cycles only; a clear forgets the loads
    // of its own cycle too.
    if (s.lookup_fire) expected_ = model_.Lookup(in.lookup_idx);
    if (s.load_fire) model_.Load(in.load_idx, in.block, in.page);
    if (busy_left_ > 0) --busy_left_;
    if (in.clear) {
      model_.Clear();
      busy_left_ = model_.ClearCycles();
    }
    h_.Tick();
    REQUIRE_FALSE(h_.Failed());
    return s;
  }

  // Idle cycles until the sweep is over.
  void WaitReady() {
    while (busy_left_ > 0) Step(Drive{});
  }
  // One lookup, returns its response (taken the cycle it appears).
  BttResult Lookup(uint64_t idx) {
    Drive in;
    in.lookup = true;
    in.lookup_idx = idx;
    REQUIRE(Step(in).lookup_fire);
    const Seen s = Step(Drive{});
    REQUIRE(s.rsp_fire);
    return s.rsp;
  }
  void Load(uint64_t idx, uint32_t block, uint32_t page) {
    Drive in;
    in.load = true;
    in.load_idx = idx;
    in.block = block;
    in.page = page;
    REQUIRE(Step(in).load_fire);
  }

  Harness<Dut>& h() { return h_; }
  Btt& model() { return model_; }

 private:
  Harness<Dut> h_;
  Btt model_;
  uint64_t start_ = 0;  // cycle count at the end of reset
  uint64_t busy_left_;
  std::optional<BttResult> expected_;
};

// Random loads (some out of range), lookups (some out of range, many of loaded entries), random
// back-pressure and rare clears, in lock-step with the model; then every entry read back.
template <class Dut>
void RunRandom(uint32_t seed, const Config& cfg, uint64_t entries, int cycles) {
  INFO(flint::tb::ReplayCommand(seed));
  BttBench<Dut> b(seed, cfg, entries);
  const uint64_t n = b.model().entries();
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint64_t> idx_d(0, n + n / 4);  // a fifth past the end
  std::uniform_int_distribution<uint32_t> blk_d(0, static_cast<uint32_t>(cfg.blocks - 1));
  std::uniform_int_distribution<uint32_t> pg_d(0, static_cast<uint32_t>(cfg.pages - 1));
  std::bernoulli_distribution load_d(0.5), lookup_d(0.7), ready_d(0.8), huge_d(0.02);
  // One clear somewhere in the middle third (a clear costs a whole sweep).
  const int clear_at = cycles / 3 + static_cast<int>(rng() % static_cast<uint32_t>(cycles / 3));
  Drive in;
  uint64_t ok = 0, not_loaded = 0, oor = 0, loads = 0;
  for (int c = 0; c < cycles; ++c) {
    // A request that was not taken stays as it is (valid/ready rule); a new one otherwise.
    if (!in.load) {
      in.load = load_d(rng);
      in.load_idx = idx_d(rng);
      in.block = blk_d(rng);
      in.page = pg_d(rng);
    }
    if (!in.lookup) {
      in.lookup = lookup_d(rng);
      in.lookup_idx = huge_d(rng) ? 0xffffffffull : idx_d(rng);
    }
    in.rsp_ready = ready_d(rng);
    in.clear = c == clear_at;
    const Seen s = b.Step(in);
    if (s.load_fire) {
      in.load = false;
      ++loads;
    }
    if (s.lookup_fire) in.lookup = false;
    if (s.rsp_fire) {
      ok += s.rsp.status == Status::kOk;
      not_loaded += s.rsp.status == Status::kNotLoaded;
      oor += s.rsp.status == Status::kOutOfRange;
    }
  }
  // Every status must have been exercised, or the run checked little.
  REQUIRE(ok > static_cast<uint64_t>(cycles) / 20);
  REQUIRE(not_loaded > 0);
  REQUIRE(oor > 0);
  REQUIRE(loads > static_cast<uint64_t>(cycles) / 10);
  // Requests still waiting are kept up until taken (valid/ready), then every entry is read.
  in.rsp_ready = true;
  in.clear = false;
  while (in.load || in.lookup) {
    const Seen s = b.Step(in);
    if (s.load_fire) in.load = false;
    if (s.lookup_fire) in.lookup = false;
  }
  b.Step(Drive{});
  b.WaitReady();
  for (uint64_t i = 0; i < n; ++i) REQUIRE(b.Lookup(i) == b.model().Lookup(i));
}

}  // namespace

TEST_CASE("btt: clear sweep after reset takes one cycle per entry", "[ftl][btt][directed]") {
  const Config& cfg = flint::kSmallConfig;
  BttBench<Vbtt_small> b(1, cfg);
  // The bench checks busy_o and load_ready_o against Entries cycles every cycle; lookups during
  // the sweep answer NOT_LOADED, still in one cycle.
  uint64_t busy_cycles = 0;
  Drive in;
  in.load = true;  // offered all along, refused until the sweep ends
  in.load_idx = 5;
  in.block = 3;
  in.page = 7;
  in.lookup = true;
  in.lookup_idx = 5;
  while (b.h().dut().busy_o) {
    const Seen s = b.Step(in);
    REQUIRE_FALSE(s.load_fire);
    REQUIRE(s.lookup_fire);
    if (busy_cycles > 0) REQUIRE(s.rsp.status == Status::kNotLoaded);
    ++busy_cycles;
  }
  REQUIRE(busy_cycles == cfg.btt_entries);
  REQUIRE(b.Step(in).load_fire);
  in.load = false;
  b.Step(in);  // the lookup of the load cycle sees the table before the load
  REQUIRE(b.Lookup(5) == BttResult{Status::kOk, 3, 7});
}

TEST_CASE("btt: a clear during a sweep starts the sweep again", "[ftl][btt][corner]") {
  const Config& cfg = flint::kSmallConfig;
  BttBench<Vbtt_small> b(1, cfg);
  // A clear halfway through the sweep after reset, then another halfway through its own sweep:
  // each makes busy_o last Entries cycles from the cycle after it (the bench checks busy_o and
  // load_ready_o against that every cycle).
  for (int round = 0; round < 2; ++round) {
    for (uint64_t i = 0; i < cfg.btt_entries / 2; ++i) {
      REQUIRE(b.h().dut().busy_o);
      b.Step(Drive{});
    }
    Drive clr;
    clr.clear = true;
    b.Step(clr);
  }
  Drive in;
  in.load = true;  // refused until the restarted sweep ends
  in.load_idx = 2;
  in.block = 1;
  in.page = 1;
  uint64_t busy_cycles = 0;
  while (b.h().dut().busy_o) {
    REQUIRE_FALSE(b.Step(in).load_fire);
    ++busy_cycles;
  }
  REQUIRE(busy_cycles == cfg.btt_entries);
  REQUIRE(b.Step(in).load_fire);
  b.Step(Drive{});
  REQUIRE(b.Lookup(2) == BttResult{Status::kOk, 1, 1});
  REQUIRE(b.Lookup(3) == BttResult{Status::kNotLoaded, 0, 0});
}

TEST_CASE("btt: lookups answer in one cycle with OK NOT_LOADED or OUT_OF_RANGE",
          "[ftl][btt][directed]") {
  const Config& cfg = flint::kSmallConfig;
  BttBench<Vbtt_small> b(1, cfg);
  b.WaitReady();
  // The paper's fixed striping for a few bursts: block b / PAGES, page b mod PAGES.
  for (const uint64_t i : std::vector<uint64_t>{0, 1, 17, cfg.btt_entries - 1}) {
    b.Load(i, static_cast<uint32_t>(i / cfg.pages), static_cast<uint32_t>(i % cfg.pages));
  }
  // Back-to-back lookups: one accepted every cycle, each answered in the next.
  const uint64_t idx[] = {0, 1, 2, 17, cfg.btt_entries - 1, cfg.btt_entries, 0xffffffffull};
  const Status want[] = {Status::kOk, Status::kOk,         Status::kNotLoaded, Status::kOk,
                         Status::kOk, Status::kOutOfRange, Status::kOutOfRange};
  Drive in;
  in.lookup = true;
  Seen prev;
  for (size_t k = 0; k <= std::size(idx); ++k) {
    in.lookup = k < std::size(idx);
    in.lookup_idx = in.lookup ? idx[k] : 0;
    const Seen s = b.Step(in);
    if (in.lookup) REQUIRE(s.lookup_fire);
    if (k > 0) {
      REQUIRE(s.rsp_fire);
      REQUIRE(s.rsp.status == want[k - 1]);
      if (want[k - 1] == Status::kOk) {
        REQUIRE(s.rsp.block == idx[k - 1] / cfg.pages);
        REQUIRE(s.rsp.page == idx[k - 1] % cfg.pages);
      }
    }
  }
}

TEST_CASE("btt: a load past the table is dropped and flagged", "[ftl][btt][corner]") {
  const Config& cfg = flint::kSmallConfig;
  BttBench<Vbtt_small> b(1, cfg);
  b.WaitReady();
  b.Load(cfg.btt_entries + 3, 1, 1);
  b.Load(cfg.btt_entries + 9, 2, 2);  // the flag keeps the first bad index
  b.Load(4, 5, 6);                    // good loads still work
  b.Step(Drive{});
  REQUIRE(b.h().dut().load_err_o);
  REQUIRE(b.h().dut().load_err_idx_o == cfg.btt_entries + 3);
  REQUIRE(b.Lookup(4) == BttResult{Status::kOk, 5, 6});
  // The dropped load did not alias onto a low index (idx mod Entries).
  REQUIRE(b.Lookup(3) == BttResult{Status::kNotLoaded, 0, 0});
  REQUIRE(b.Lookup(9) == BttResult{Status::kNotLoaded, 0, 0});
  Drive clr;
  clr.clear = true;
  b.Step(clr);
  REQUIRE_FALSE(b.h().dut().load_err_o);
}

TEST_CASE("btt: in non power of two tables in-width indexes past the end are out of range",
          "[ftl][btt][corner]") {
  BttBench<Vbtt_e100> b(1, flint::kSmallConfig, 100);
  b.WaitReady();
  b.Load(99, 7, 15);
  b.Load(100, 1, 1);
  REQUIRE(b.Lookup(99) == BttResult{Status::kOk, 7, 15});
  REQUIRE(b.Lookup(100).status == Status::kOutOfRange);
  REQUIRE(b.Lookup(127).status == Status::kOutOfRange);
  REQUIRE(b.h().dut().load_err_o);
}

TEST_CASE("btt: a lookup sees loads of earlier cycles and not of its own", "[ftl][btt][corner]") {
  BttBench<Vbtt_small> b(1, flint::kSmallConfig);
  b.WaitReady();
  Drive in;
  in.load = true;
  in.load_idx = 9;
  in.block = 2;
  in.page = 4;
  in.lookup = true;
  in.lookup_idx = 9;
  REQUIRE(b.Step(in).load_fire);  // same cycle: the lookup reads the word before the load
  in.block = 6;                   // overwrite while looking up again
  const Seen s1 = b.Step(in);
  REQUIRE(s1.rsp.status == Status::kNotLoaded);
  in.load = false;
  const Seen s2 = b.Step(in);
  REQUIRE(s2.rsp == BttResult{Status::kOk, 2, 4});
  const Seen s3 = b.Step(Drive{});
  REQUIRE(s3.rsp == BttResult{Status::kOk, 6, 4});
}

TEST_CASE("btt: a response holds under back-pressure", "[ftl][btt][corner]") {
  BttBench<Vbtt_small> b(1, flint::kSmallConfig);
  b.WaitReady();
  b.Load(1, 3, 3);
  Drive in;
  in.lookup = true;
  in.lookup_idx = 1;
  in.rsp_ready = false;
  REQUIRE(b.Step(in).lookup_fire);
  in.lookup_idx = 2;
  // The held response is checked against the model by the bench each cycle; the waiting lookup
  // is not taken meanwhile.
  for (int i = 0; i < 5; ++i) REQUIRE_FALSE(b.Step(in).lookup_fire);
  // Rewrite the word behind the held response: the response must not change.
  in.load = true;
  in.load_idx = 1;
  in.block = 7;
  in.page = 7;
  REQUIRE(b.Step(in).load_fire);
  in.load = false;
  REQUIRE_FALSE(b.Step(in).lookup_fire);
  in.rsp_ready = true;
  const Seen s = b.Step(in);  // the old answer drains, the waiting lookup enters
  REQUIRE(s.rsp_fire);
  REQUIRE(s.rsp == BttResult{Status::kOk, 3, 3});
  REQUIRE(s.lookup_fire);
  REQUIRE(b.Step(Drive{}).rsp.status == Status::kNotLoaded);
}

TEST_CASE("btt: clear forgets every entry including a load in the clear cycle",
          "[ftl][btt][directed]") {
  const Config& cfg = flint::kSmallConfig;
  BttBench<Vbtt_small> b(1, cfg);
  b.WaitReady();
  for (uint64_t i = 0; i < cfg.btt_entries; ++i) b.Load(i, 1, 2);
  Drive in;
  in.clear = true;
  in.load = true;
  in.load_idx = 3;
  in.block = 4;
  in.page = 4;
  in.lookup = true;
  in.lookup_idx = 3;
  REQUIRE(b.Step(in).load_fire);
  const Seen s = b.Step(Drive{});  // the lookup of the clear cycle still saw the old word
  REQUIRE(s.rsp == BttResult{Status::kOk, 1, 2});
  REQUIRE(b.h().dut().busy_o);
  b.WaitReady();
  for (uint64_t i = 0; i < cfg.btt_entries; ++i) {
    REQUIRE(b.Lookup(i) == BttResult{Status::kNotLoaded, 0, 0});
  }
}

TEST_CASE("btt: random loads and lookups match the model", "[ftl][btt][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  SECTION("small") { RunRandom<Vbtt_small>(seed, flint::kSmallConfig, 0, 6000); }
  SECTION("small with 100 entries") { RunRandom<Vbtt_e100>(seed, flint::kSmallConfig, 100, 6000); }
  SECTION("medium") { RunRandom<Vbtt_medium>(seed, flint::kMediumConfig, 0, 12000); }
}

TEST_CASE("btt: paper table of 2^18 entries loads and answers in one cycle", "[ftl][btt][smoke]") {
  const Config& cfg = flint::kPaperConfig;
  REQUIRE(cfg.btt_entries == (uint64_t{1} << 18));
  BttBench<Vbtt_paper> b(1, cfg);
  b.WaitReady();
  // Model load with the paper's fixed striping, every burst, while lookups of the entry loaded
  // in the previous cycle run beside it at one a cycle.
  Drive in;
  uint64_t answered = 0;
  for (uint64_t i = 0; i <= cfg.btt_entries; ++i) {
    in.load = i < cfg.btt_entries;
    in.load_idx = i;
    in.block = static_cast<uint32_t>(i / cfg.pages);
    in.page = static_cast<uint32_t>(i % cfg.pages);
    in.lookup = i > 0;
    in.lookup_idx = i - 1;
    const Seen s = b.Step(in);
    REQUIRE(s.load_fire == in.load);
    REQUIRE(s.lookup_fire == in.lookup);
    if (s.rsp_fire) {
      REQUIRE(s.rsp.status == Status::kOk);
      ++answered;
    }
  }
  b.Step(Drive{});
  REQUIRE(answered == cfg.btt_entries - 1);
  REQUIRE(b.Lookup(cfg.btt_entries - 1) == BttResult{Status::kOk, 255, 1023});
  REQUIRE(b.Lookup(cfg.btt_entries).status == Status::kOutOfRange);
}
