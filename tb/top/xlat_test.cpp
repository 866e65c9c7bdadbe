// flint_xlat against model::Xlat (model/top/xlat.hpp): the busy window after reset, lookups of
// loaded, unloaded and out-of-range bursts two cycles later, loads and relocation updates in the
// same cycles as lookups (the BTT half sees loads of earlier cycles, the stripe half updates up
// to the lookup's own cycle), a clear that forgets the BTT and keeps the stripes, and seeded
// random traffic at small and medium; a paper-size smoke case.
#include "model/top/xlat.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <random>
#include <sstream>
#include <string>

#include "Vxlat_medium.h"
#include "Vxlat_paper.h"
#include "Vxlat_small.h"
#include "flint_config.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
#include "tb/common/seed.hpp"
#include "tb/ftl/ftl_tb.hpp"

namespace {

using flint::Config;
using flint::model::StripeEntry;
using flint::model::Xlat;
using flint::model::XlatResult;
using flint::tb::Bits;
using flint::tb::GetBits;
using flint::tb::Harness;

// Inputs of one cycle.
struct Drive {
  bool clear = false;
  bool load = false;
  uint64_t load_idx = 0;
  uint32_t load_block = 0;
  uint32_t load_page = 0;
  uint64_t burst = 0;  // looked up every cycle (the BBC names one a cycle)
  bool upd = false;
  uint32_t upd_die = 0, upd_lplane = 0, upd_lblock = 0, upd_pplane = 0, upd_pblock = 0;
};

// Runs flint_xlat beside the model and checks every cycle's answer (the lookup of two cycles
// before) and the busy flag. The first divergence is kept (cycle, what, expected, actual); a
// test checks Error() once.
template <class Dut>
class XlatBench {
 public:
  // `bursts` = 0: the config's bursts per stack (flint_xlat's Bursts, as Verilated).
  XlatBench(uint32_t seed, const Config& cfg, uint64_t bursts = 0)
      : cfg_(cfg),
        h_(seed, "xlat"),
        model_(cfg, bursts),
        pbits_(Bits(cfg.planes + 1)),
        bbits_(Bits(cfg.blocks)) {
    start_ = flint::tb::ResetFromHigh(h_);
    busy_left_ = model_.BusyCycles();
  }

  // One cycle; returns whether the load was accepted.
  bool Step(const Drive& in) {
    auto& d = h_.dut();
    d.btt_clear_i = in.clear;
    d.load_valid_i = in.load;
    d.load_idx_i = static_cast<uint32_t>(in.load_idx);
    d.load_block_i = in.load_block;
    d.load_page_i = in.load_page;
    d.xlat_burst_i = static_cast<uint32_t>(in.burst);
    d.upd_valid_i = in.upd;
    d.upd_die_i = in.upd_die;
    d.upd_lplane_i = in.upd_lplane;
    d.upd_lblock_i = in.upd_lblock;
    d.upd_pplane_i = in.upd_pplane;
    d.upd_pblock_i = in.upd_pblock;
    h_.Eval();
    const uint64_t t = h_.cycle() - start_;
    // Busy: high exactly while the sweeps run (after reset, and the BTT's after a clear).
    const bool busy_exp = busy_left_ > 0;
    if (static_cast<bool>(d.busy_o) != busy_exp) Fail(t, "busy_o", busy_exp, d.busy_o);
    // The answer of two cycles ago.
    if (pending_.size() == 2) {
      const Pending& p = pending_.front();
      Check(t, p, d);
      pending_.pop_front();
    }
    const bool load_fire = in.load && d.load_ready_o;
    // This cycle's lookup: the BTT half before this cycle's load, the stripe half after this
    // cycle's update.
    Pending p;
    p.burst = in.burst;
    p.btt = model_.LookupBurst(in.burst);
    if (load_fire) model_.Load(in.load_idx, in.load_block, in.load_page);
    if (in.upd)
      model_.Update(in.upd_die, in.upd_lplane, in.upd_lblock, in.upd_pplane, in.upd_pblock);
    if (p.btt.status == flint::Status::kOk) p.stripe = model_.Stripe(p.btt.block);
    pending_.push_back(p);
    if (in.clear) {
      model_.Clear();
      busy_left_ = std::max<uint64_t>(busy_left_ > 0 ? busy_left_ - 1 : 0, model_.bursts() + 1);
    }
    if (busy_left_ > 0) --busy_left_;
    if (p.btt.status == flint::Status::kOk) ++ok_lookups_;
    h_.Tick();
    return load_fire;
  }

  bool busy() const { return busy_left_ > 0; }
  uint64_t ok_lookups() const { return ok_lookups_; }
  uint64_t checked() const { return checked_; }
  bool Failed() { return h_.Failed(); }
  const std::string& Error() const { return error_; }
  Xlat& model() { return model_; }

 private:
  struct Pending {
    uint64_t burst = 0;
    flint::model::BttResult btt;
    std::vector<StripeEntry> stripe;
  };

  void Check(uint64_t t, const Pending& p, Dut& d) {
    const bool ok = p.btt.status == flint::Status::kOk;
    if (static_cast<bool>(d.xlat_ok_o) != ok) {
      Fail(t, "xlat_ok_o of burst " + std::to_string(p.burst), ok, d.xlat_ok_o);
      return;
    }
    ++checked_;
    if (!ok) return;  // the rest means nothing then
    if (d.xlat_lblock_o != p.btt.block) Fail(t, "xlat_lblock_o", p.btt.block, d.xlat_lblock_o);
    if (d.xlat_page_o != p.btt.page) Fail(t, "xlat_page_o", p.btt.page, d.xlat_page_o);
    for (uint32_t s = 0; s < p.stripe.size(); ++s) {
      const uint64_t pl = GetBits(d.xlat_planes_o, s * pbits_, pbits_);
      const uint64_t bl = GetBits(d.xlat_blocks_o, s * bbits_, bbits_);
      if (pl != p.stripe[s].plane || bl != p.stripe[s].block) {
        std::ostringstream what;
        what << "stripe of burst " << p.burst << " (block " << p.btt.block << "), die "
             << s / cfg_.planes << " plane " << s % cfg_.planes << ": plane/block";
        Fail(t, what.str(), uint64_t{p.stripe[s].plane} << 32 | p.stripe[s].block, pl << 32 | bl);
      }
    }
  }
  void Fail(uint64_t t, const std::string& what, uint64_t exp, uint64_t got) {
    if (!error_.empty()) return;
    std::ostringstream o;
    o << "cycle " << t << ": " << what << " expected " << exp << " (0x" << std::hex << exp
      << ") got " << std::dec << got << " (0x" << std::hex << got << ")";
    error_ = o.str();
  }

  const Config& cfg_;
  Harness<Dut> h_;
  Xlat model_;
  uint32_t pbits_, bbits_;
  uint64_t start_ = 0;
  uint64_t busy_left_ = 0;
  std::deque<Pending> pending_;
  uint64_t ok_lookups_ = 0, checked_ = 0;
  std::string error_;
};

template <class B>
void Idle(B& b, uint64_t n, uint64_t burst = 0) {
  for (uint64_t i = 0; i < n; ++i) b.Step(Drive{false, false, 0, 0, 0, burst});
}
template <class B>
void WaitSweep(B& b) {
  while (b.busy()) b.Step(Drive{});
}

// Random traffic: loads of random bursts, lookups of any burst (some past the table when the
// port is wider), relocation updates, and now and then a clear; `cycles` cycles.
template <class Dut>
void RunRandom(uint32_t seed, const Config& cfg, int cycles) {
  INFO(flint::tb::ReplayCommand(seed));
  XlatBench<Dut> b(seed, cfg);
  std::mt19937 rng(seed);
  const uint64_t port_bursts = uint64_t{1} << Bits(cfg.bursts_per_stack);
  std::uniform_int_distribution<uint64_t> burst_d(0, port_bursts - 1);
  std::uniform_int_distribution<uint32_t> blk_d(0, static_cast<uint32_t>(cfg.blocks - 1));
  std::uniform_int_distribution<uint32_t> pg_d(0, static_cast<uint32_t>(cfg.pages - 1));
  std::uniform_int_distribution<uint32_t> die_d(0, static_cast<uint32_t>(cfg.dies - 1));
  std::uniform_int_distribution<uint32_t> lpl_d(0, static_cast<uint32_t>(cfg.planes - 1));
  std::uniform_int_distribution<uint32_t> ppl_d(0, static_cast<uint32_t>(cfg.planes));
  std::uniform_int_distribution<int> pct(0, 999);
  uint64_t loads = 0, updates = 0, clears = 0;
  Drive load;  // a load is held until the BTT takes it (valid/ready)
  for (int c = 0; c < cycles; ++c) {
    Drive in;
    in.burst = burst_d(rng);
    if (!load.load && pct(rng) < 300) {
      load.load = true;
      load.load_idx = burst_d(rng);
      load.load_block = blk_d(rng);
      load.load_page = pg_d(rng);
    }
    in.load = load.load;
    in.load_idx = load.load_idx;
    in.load_block = load.load_block;
    in.load_page = load.load_page;
    if (!b.busy() && pct(rng) < 200) {  // no update during the identity sweep (asserted)
      in.upd = true;
      in.upd_die = die_d(rng);
      in.upd_lplane = lpl_d(rng);
      in.upd_lblock = blk_d(rng);
      in.upd_pplane = ppl_d(rng);
      in.upd_pblock = blk_d(rng);
      ++updates;
    }
    if (c % 8000 == 7999) {  // a new load now and then: its sweep, then loads again
      in.clear = true;
      ++clears;
    }
    if (b.Step(in)) {
      ++loads;
      load.load = false;
    }
  }
  INFO("loads " << loads << " updates " << updates << " clears " << clears << " checked "
                << b.checked() << " found " << b.ok_lookups());
  REQUIRE(b.Error().empty());
  REQUIRE_FALSE(b.Failed());
  // The run meant something: most lookups answered, many of them found a loaded burst.
  REQUIRE(b.checked() + 2 >= static_cast<uint64_t>(cycles));
  REQUIRE(b.ok_lookups() > static_cast<uint64_t>(cycles) / 10);
  REQUIRE(updates > static_cast<uint64_t>(cycles) / 10);
}

}  // namespace

TEST_CASE("xlat: busy for the sweeps after reset, then the identity stripe",
          "[top][xlat][directed]") {
  const Config& cfg = flint::kSmallConfig;
  XlatBench<Vxlat_small> b(1, cfg);
  uint64_t busy = 0;
  while (b.busy()) {
    b.Step(Drive{});
    ++busy;
  }
  REQUIRE(busy == std::max<uint64_t>(cfg.bursts_per_stack, cfg.blocks));
  // Load every burst at (burst / pages, burst % pages), look each up: the stripe is the identity.
  for (uint64_t i = 0; i < cfg.bursts_per_stack; ++i) {
    Drive in;
    in.load = true;
    in.load_idx = i;
    in.load_block = static_cast<uint32_t>(i / cfg.pages % cfg.blocks);
    in.load_page = static_cast<uint32_t>(i % cfg.pages);
    REQUIRE(b.Step(in));
  }
  const uint64_t before = b.ok_lookups();  // burst 0, looked up while the others loaded
  for (uint64_t i = 0; i < cfg.bursts_per_stack; ++i) b.Step(Drive{false, false, 0, 0, 0, i});
  REQUIRE(b.ok_lookups() - before == cfg.bursts_per_stack);
  Idle(b, 2, cfg.bursts_per_stack);  // past the table: not found
  REQUIRE(b.Error().empty());
  REQUIRE_FALSE(b.Failed());
}

TEST_CASE("xlat: a relocation shows in the stripe of the lookup in its own cycle",
          "[top][xlat][corner]") {
  const Config& cfg = flint::kSmallConfig;
  XlatBench<Vxlat_small> b(1, cfg);
  WaitSweep(b);
  Drive ld;
  ld.load = true;
  ld.load_idx = 5;
  ld.load_block = 3;
  ld.load_page = 7;
  REQUIRE(b.Step(ld));
  // Burst 5 (block 3): die 1, plane 2's block 3 moves to the extra plane's block 6 in the cycle
  // the burst is looked up; the next lookup of the same burst sees it too.
  Drive up{false, false, 0, 0, 0, 5};
  up.upd = true;
  up.upd_die = 1;
  up.upd_lplane = 2;
  up.upd_lblock = 3;
  up.upd_pplane = static_cast<uint32_t>(cfg.planes);
  up.upd_pblock = 6;
  b.Step(up);
  Idle(b, 3, 5);
  REQUIRE(b.Error().empty());
  const auto s = b.model().Stripe(3);
  REQUIRE(s[1 * cfg.planes + 2] == StripeEntry{static_cast<uint32_t>(cfg.planes), 6});
  REQUIRE(s[0] == StripeEntry{0, 3});
  REQUIRE(b.ok_lookups() == 4);
  REQUIRE_FALSE(b.Failed());
}

TEST_CASE("xlat: a load is not seen by a lookup in its own cycle, a clear keeps the stripes",
          "[top][xlat][corner]") {
  const Config& cfg = flint::kSmallConfig;
  XlatBench<Vxlat_small> b(1, cfg);
  WaitSweep(b);
  Drive ld{false, true, 9, 2, 4, 9};  // load burst 9 and look it up in the same cycle
  REQUIRE(b.Step(ld));
  Drive up{false, false, 0, 0, 0, 9};
  up.upd = true;
  up.upd_die = 0;
  up.upd_lplane = 1;
  up.upd_lblock = 2;
  up.upd_pplane = 4;
  up.upd_pblock = 7;
  b.Step(up);  // found now, with the relocation
  Drive clr{true, false, 0, 0, 0, 9};
  b.Step(clr);  // the clear's own cycle still finds it (read before the clear)
  Idle(b, 3, 9);
  REQUIRE(b.Error().empty());
  REQUIRE(b.ok_lookups() == 2);
  // After the BTT's sweep, load burst 9 again: the relocation is still there.
  WaitSweep(b);
  REQUIRE(b.Step(ld));
  Idle(b, 3, 9);
  REQUIRE(b.Error().empty());
  REQUIRE(b.ok_lookups() == 5);
  REQUIRE(b.model().Stripe(2)[1] == StripeEntry{4, 7});
  REQUIRE_FALSE(b.Failed());
}

TEST_CASE("xlat: random loads, lookups, relocations and clears match the model at small",
          "[top][xlat][random]") {
  RunRandom<Vxlat_small>(flint::tb::TestSeed(), flint::kSmallConfig, 200000);
}

TEST_CASE("xlat: random traffic matches the model at medium", "[top][xlat][random]") {
  RunRandom<Vxlat_medium>(flint::tb::TestSeed(), flint::kMediumConfig, 200000);
}

// The stripe table at the paper's geometry (every die and plane a column); the BTT cut to 1024
// bursts (tested at paper size in test_ftl) so the sweep after reset is short.
TEST_CASE("xlat: the paper-size stripe table answers a relocated burst", "[top][xlat][smoke]") {
  const Config& cfg = flint::kPaperConfig;
  constexpr uint64_t kBursts = 1024;  // as Vxlat_paper is Verilated
  XlatBench<Vxlat_paper> b(1, cfg, kBursts);
  WaitSweep(b);
  Drive ld{false,
           true,
           kBursts - 1,
           static_cast<uint32_t>(cfg.blocks - 1),
           static_cast<uint32_t>(cfg.pages - 1),
           0};
  REQUIRE(b.Step(ld));
  Drive up{false, false, 0, 0, 0, kBursts - 1};
  up.upd = true;
  up.upd_die = static_cast<uint32_t>(cfg.dies - 1);
  up.upd_lplane = static_cast<uint32_t>(cfg.planes - 1);
  up.upd_lblock = static_cast<uint32_t>(cfg.blocks - 1);
  up.upd_pplane = static_cast<uint32_t>(cfg.planes);
  up.upd_pblock = 0;
  b.Step(up);
  Idle(b, 3, kBursts - 1);
  REQUIRE(b.Error().empty());
  REQUIRE(b.ok_lookups() == 4);
  REQUIRE_FALSE(b.Failed());
}
