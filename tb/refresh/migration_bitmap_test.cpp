// flint_migration_bitmap against model::MigrationBitmap: the clear sweep after reset and after
// clear_i, first / block_done of test-and-set, the one-deep write forward, the scrubber scan
// (lowest clear page at the cursor, skips, wrap, full bitmap), test-and-set priority over scan,
// a clear with operations in flight, seeded random lock-step traffic, and the paper-size bitmap.
#include "model/refresh/migration_bitmap.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "Vbitmap_medium.h"
#include "Vbitmap_paper.h"
#include "Vbitmap_small.h"
#include "Vbitmap_small_w4.h"
#include "flint_config.hpp"
#include "tb/common/harness.hpp"
#include "tb/ftl/ftl_tb.hpp"

namespace {

using flint::Config;
using flint::model::BlockPageRef;
using flint::model::MigrationBitmap;
using flint::model::TasResult;
using flint::tb::Harness;

// The bitmap's geometry as the RTL instance is built: WordBits = min(64, Pages) unless a
// variant overrides it (Vbitmap_small_w4: -GWordBits=4).
struct Geom {
  uint32_t blocks = 0, pages = 0, word_bits = 0;
};
Geom GeomOf(const Config& cfg, uint32_t word_bits = 0) {
  const auto pages = static_cast<uint32_t>(cfg.pages);
  return {static_cast<uint32_t>(cfg.blocks), pages,
          word_bits != 0 ? word_bits : std::min<uint32_t>(pages, 64)};
}

// Inputs of one cycle.
struct Drive {
  bool clear = false;
  bool tas = false;
  uint32_t block = 0, page = 0;
  bool scan = false;
};

struct TasRsp {
  uint32_t block = 0, page = 0;
  bool first = false, block_done = false;
};

struct ScanRsp {
  bool found = false;
  uint32_t block = 0, page = 0;
};

// What happened in one cycle: which requests were taken, which answers came out.
struct Seen {
  bool tas_fire = false, scan_fire = false;
  std::optional<TasRsp> tas;
  std::optional<ScanRsp> scan;
};

// Event counts of a run, so a random run can show what it exercised.
struct Stats {
  uint64_t tas = 0, first = 0, block_done = 0, scans = 0, found = 0, not_found = 0;
  uint64_t all_set_cycles = 0, clears = 0, clear_in_flight = 0, tas_forward = 0;
};

// Runs the DUT cycle by cycle beside the model and checks every cycle: busy_o against the sweep
// length (model words()), both readies against the documented rule, set_count_o and all_set_o
// against the model, and every answer against the model in the cycle it appears (the cycle
// after its request). The model applies an operation when the RTL answers it, and a clear after
// the answers of its own cycle (an operation in flight when clear_i comes answers from before).
template <class Dut>
class BitmapBench {
 public:
  BitmapBench(uint32_t seed, const Geom& g)
      : h_(seed, "migration_bitmap"),
        model_(g.blocks, g.pages, g.word_bits),
        geom_(g),
        busy_left_(model_.words()) {
    start_ = flint::tb::ResetFromHigh(h_);
  }

  Seen Step(const Drive& in) {
    auto& d = h_.dut();
    d.clear_i = in.clear;
    d.tas_valid_i = in.tas;
    d.tas_block_i = in.block;
    d.tas_page_i = in.page;
    d.scan_valid_i = in.scan;
    h_.Eval();
    Seen s;
    const bool busy = busy_left_ > 0;
    Same("busy_o", d.busy_o, busy);
    Same("set_count_o", d.set_count_o, model_.set_count());
    Same("all_set_o", d.all_set_o, model_.all_set());
    stats_.all_set_cycles += model_.all_set();
    Same("tas_ready_o", d.tas_ready_o, !busy && !in.clear);
    Same("scan_ready_o", d.scan_ready_o, !busy && !in.clear && !in.tas && !scan_pending_);
    // The answers of this cycle: requests accepted in the previous one.
    Same("tas_rsp_valid_o", d.tas_rsp_valid_o, tas_pending_.has_value());
    if (tas_pending_) {
      const TasResult e = model_.TestAndSet(tas_pending_->first, tas_pending_->second);
      TasRsp got{d.tas_rsp_block_o, d.tas_rsp_page_o, static_cast<bool>(d.tas_first_o),
                 static_cast<bool>(d.tas_block_done_o)};
      Same("tas_rsp_block_o", got.block, tas_pending_->first);
      Same("tas_rsp_page_o", got.page, tas_pending_->second);
      Same("tas_first_o", got.first, e.first);
      Same("tas_block_done_o", got.block_done, e.block_done);
      s.tas = got;
      ++stats_.tas;
      stats_.first += got.first;
      stats_.block_done += got.block_done;
      tas_pending_.reset();
    } else {
      Same("tas_first_o (no answer)", d.tas_first_o, false);
      Same("tas_block_done_o (no answer)", d.tas_block_done_o, false);
    }
    Same("scan_rsp_valid_o", d.scan_rsp_valid_o, scan_pending_);
    if (scan_pending_) {
      const std::optional<BlockPageRef> e = model_.Scan();
      ScanRsp got{static_cast<bool>(d.scan_found_o), d.scan_block_o, d.scan_page_o};
      Same("scan_found_o", got.found, e.has_value());
      if (e) {
        Same("scan_block_o", got.block, e->block);
        Same("scan_page_o", got.page, e->page);
      }
      s.scan = got;
      ++stats_.scans;
      (got.found ? stats_.found : stats_.not_found)++;
      scan_pending_ = false;
    } else {
      Same("scan_found_o (no answer)", d.scan_found_o, false);
    }
    // Requests taken in this cycle.
    s.tas_fire = in.tas && d.tas_ready_o;
    s.scan_fire = in.scan && d.scan_ready_o;
    if (s.tas_fire) {
      if (last_tas_ && *last_tas_ / geom_.word_bits ==
                           (uint64_t{in.block} * geom_.pages + in.page) / geom_.word_bits) {
        ++stats_.tas_forward;
      }
      tas_pending_ = std::make_pair(in.block, in.page);
      ++ops_;
    }
    last_tas_.reset();
    if (s.tas_fire) last_tas_ = uint64_t{in.block} * geom_.pages + in.page;
    if (s.scan_fire) {
      scan_pending_ = true;
      ++ops_;
    }
    if (busy_left_ > 0) --busy_left_;
    if (in.clear) {
      stats_.clear_in_flight += (s.tas || s.scan);
      ++stats_.clears;
      model_.Clear();
      busy_left_ = model_.words();
    }
    h_.Tick();
    if (h_.Failed()) FAIL("RTL assertion failed, cycle " << Cycle());
    return s;
  }

  // Idle cycles until the sweep is over and nothing is in flight.
  void WaitReady() {
    while (busy_left_ > 0 || tas_pending_ || scan_pending_) Step(Drive{});
  }
  uint64_t Idle(uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) Step(Drive{});
    return n;
  }
  // One test-and-set, taken at once; returns its answer.
  TasRsp Tas(uint32_t block, uint32_t page) {
    Drive in;
    in.tas = true;
    in.block = block;
    in.page = page;
    REQUIRE(Step(in).tas_fire);
    const Seen s = Step(Drive{});
    REQUIRE(s.tas.has_value());
    return *s.tas;
  }
  // Test-and-sets one a cycle, back to back; the answers in order.
  std::vector<TasRsp> TasStream(const std::vector<std::pair<uint32_t, uint32_t>>& ops) {
    std::vector<TasRsp> out;
    for (const auto& [blk, pg] : ops) {
      Drive in;
      in.tas = true;
      in.block = blk;
      in.page = pg;
      const Seen s = Step(in);
      REQUIRE(s.tas_fire);
      if (s.tas) out.push_back(*s.tas);
    }
    const Seen s = Step(Drive{});
    if (s.tas) out.push_back(*s.tas);
    REQUIRE(out.size() == ops.size());
    return out;
  }
  ScanRsp Scan() {
    Drive in;
    in.scan = true;
    REQUIRE(Step(in).scan_fire);
    const Seen s = Step(Drive{});
    REQUIRE(s.scan.has_value());
    return *s.scan;
  }
  // Every page of the bitmap set, in address order, one a cycle.
  void SetAll() {
    std::vector<std::pair<uint32_t, uint32_t>> ops;
    for (uint32_t b = 0; b < geom_.blocks; ++b) {
      for (uint32_t p = 0; p < geom_.pages; ++p) ops.emplace_back(b, p);
    }
    TasStream(ops);
  }

  Harness<Dut>& h() { return h_; }
  Dut& dut() { return h_.dut(); }
  MigrationBitmap& model() { return model_; }
  const Geom& geom() const { return geom_; }
  const Stats& stats() const { return stats_; }
  uint64_t Cycle() const { return h_.cycle() - start_; }

 private:
  // First divergence: cycle (from the end of reset), operation number, expected and actual.
  template <class A, class B>
  void Same(const char* what, const A& got, const B& want) {
    if (static_cast<uint64_t>(got) == static_cast<uint64_t>(want)) return;
    std::ostringstream m;
    m << "cycle " << Cycle() << ", after " << ops_ << " operations: " << what << " expected "
      << static_cast<uint64_t>(want) << ", got " << static_cast<uint64_t>(got);
    FAIL(m.str());
  }

  Harness<Dut> h_;
  MigrationBitmap model_;
  Geom geom_;
  uint64_t start_ = 0;  // cycle count at the end of reset
  uint64_t busy_left_;
  std::optional<std::pair<uint32_t, uint32_t>> tas_pending_;
  bool scan_pending_ = false;
  std::optional<uint64_t> last_tas_;  // bit index of the test-and-set taken last cycle
  uint64_t ops_ = 0;
  Stats stats_;
};

// Counts the busy cycles from now while a test-and-set and a scan are offered every cycle;
// none may be taken. Returns the count; the first cycle after it takes the test-and-set.
template <class Dut>
uint64_t BusyCyclesOffering(BitmapBench<Dut>& b) {
  Drive in;
  in.tas = true;
  in.block = b.geom().blocks - 1;
  in.page = 1;
  in.scan = true;
  uint64_t busy = 0;
  while (b.dut().busy_o) {
    const Seen s = b.Step(in);
    REQUIRE_FALSE(s.tas_fire);
    REQUIRE_FALSE(s.scan_fire);
    ++busy;
    REQUIRE(busy <= b.model().words());
  }
  const Seen s = b.Step(in);
  REQUIRE(s.tas_fire);
  REQUIRE_FALSE(s.scan_fire);
  b.Step(Drive{});
  return busy;
}

template <class Dut>
void SweepTest(const Geom& g, uint64_t words) {
  BitmapBench<Dut> b(flint::tb::TestSeed(), g);
  REQUIRE(b.model().words() == words);
  // After reset: exactly Words cycles, nothing taken, however the SRAM powered up.
  REQUIRE(BusyCyclesOffering(b) == words);
  b.Tas(0, 0);
  b.Tas(g.blocks / 2, g.pages - 1);
  REQUIRE(b.dut().set_count_o == 3);
  // A clear: nothing taken in its cycle, then busy for exactly Words cycles.
  Drive in;
  in.clear = true;
  in.tas = true;
  in.scan = true;
  const Seen s = b.Step(in);
  REQUIRE_FALSE(s.tas_fire);
  REQUIRE_FALSE(s.scan_fire);
  REQUIRE(b.dut().busy_o);
  REQUIRE(b.dut().set_count_o == 0);
  REQUIRE(BusyCyclesOffering(b) == words);
  // The sweep cleared every bit and every block count: each page is new again, and each block
  // completes exactly at its last page (the bench checks every answer against the model).
  b.WaitReady();
  const TasRsp again = b.Tas(0, 0);
  REQUIRE(again.first);
  REQUIRE(b.Tas(g.blocks / 2, g.pages - 1).first);
  // A clear during the sweep restarts it.
  b.Idle(1);
  b.Step(in);
  b.Idle(words / 2);
  REQUIRE(b.dut().busy_o);
  b.Step(in);
  REQUIRE(BusyCyclesOffering(b) == words);
  b.WaitReady();
  b.SetAll();
  b.Idle(2);
  REQUIRE(b.dut().all_set_o);
  REQUIRE(b.stats().block_done == g.blocks);
}

}  // namespace

TEST_CASE("bitmap: the clear sweep lasts Words cycles after reset and after clear",
          "[refresh][bitmap][directed]") {
  INFO(flint::tb::ReplayCommand(flint::tb::TestSeed()));
  // small: 8 blocks x 16 pages in 16-bit words; w4: 4-bit words; medium: 32 x 64 in 64-bit words.
  SECTION("small") { SweepTest<Vbitmap_small>(GeomOf(flint::kSmallConfig), 8); }
  SECTION("small, 4-bit words") { SweepTest<Vbitmap_small_w4>(GeomOf(flint::kSmallConfig, 4), 32); }
  SECTION("medium") { SweepTest<Vbitmap_medium>(GeomOf(flint::kMediumConfig), 32); }
}

TEST_CASE("bitmap: the first test-and-set of a page says first and later ones do not",
          "[refresh][bitmap][directed]") {
  INFO(flint::tb::ReplayCommand(flint::tb::TestSeed()));
  BitmapBench<Vbitmap_small> b(flint::tb::TestSeed(), GeomOf(flint::kSmallConfig));
  b.WaitReady();
  TasRsp r = b.Tas(3, 5);
  REQUIRE(r.block == 3);
  REQUIRE(r.page == 5);
  REQUIRE(r.first);
  REQUIRE_FALSE(r.block_done);
  REQUIRE(b.dut().set_count_o == 1);
  for (int i = 0; i < 3; ++i) {
    r = b.Tas(3, 5);
    REQUIRE(r.block == 3);
    REQUIRE(r.page == 5);
    REQUIRE_FALSE(r.first);
    REQUIRE_FALSE(r.block_done);
  }
  REQUIRE(b.dut().set_count_o == 1);
  // Neighbours in the same word, the same page of another block: each new once.
  REQUIRE(b.Tas(3, 4).first);
  REQUIRE(b.Tas(3, 6).first);
  REQUIRE(b.Tas(2, 5).first);
  REQUIRE(b.Tas(4, 5).first);
  REQUIRE_FALSE(b.Tas(3, 4).first);
  REQUIRE_FALSE(b.Tas(2, 5).first);
  REQUIRE(b.dut().set_count_o == 5);
  REQUIRE(b.model().block_count(3) == 3);
  REQUIRE_FALSE(b.dut().all_set_o);
}

TEST_CASE("bitmap: block_done comes exactly with the last clear page of a block",
          "[refresh][bitmap][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  auto run = [seed](auto& b) {
    const Geom& g = b.geom();
    b.WaitReady();
    std::mt19937 rng(seed);
    // Two blocks filled interleaved, each in a random page order with repeats of set pages.
    const uint32_t x = 1, y = g.blocks - 2;
    std::vector<uint32_t> px(g.pages), py(g.pages);
    std::iota(px.begin(), px.end(), 0u);
    std::iota(py.begin(), py.end(), 0u);
    std::shuffle(px.begin(), px.end(), rng);
    std::shuffle(py.begin(), py.end(), rng);
    for (uint32_t i = 0; i < g.pages; ++i) {
      const TasRsp rx = b.Tas(x, px[i]);
      REQUIRE(rx.first);
      REQUIRE(rx.block_done == (i + 1 == g.pages));
      if (i > 0) {
        const TasRsp dup = b.Tas(x, px[rng() % i]);
        REQUIRE_FALSE(dup.first);
        REQUIRE_FALSE(dup.block_done);
      }
      const TasRsp ry = b.Tas(y, py[i]);
      REQUIRE(ry.first);
      REQUIRE(ry.block_done == (i + 1 == g.pages));
    }
    // A complete block says nothing more.
    for (uint32_t p = 0; p < g.pages; ++p) {
      const TasRsp r = b.Tas(x, p);
      REQUIRE_FALSE(r.first);
      REQUIRE_FALSE(r.block_done);
    }
    REQUIRE(b.stats().block_done == 2);
    // Every block: done once each, in the cycle its last page is set.
    b.SetAll();
    REQUIRE(b.stats().block_done == g.blocks);
  };
  SECTION("small") {
    BitmapBench<Vbitmap_small> b(seed, GeomOf(flint::kSmallConfig));
    run(b);
  }
  SECTION("small, 4-bit words") {
    BitmapBench<Vbitmap_small_w4> b(seed, GeomOf(flint::kSmallConfig, 4));
    run(b);
  }
  SECTION("medium") {
    BitmapBench<Vbitmap_medium> b(seed, GeomOf(flint::kMediumConfig));
    run(b);
  }
}

TEST_CASE("bitmap: back to back test-and-sets of one page and one word see each other",
          "[refresh][bitmap][corner]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  auto firsts = [](const std::vector<TasRsp>& r) {
    std::vector<int> f;
    for (const TasRsp& x : r) f.push_back(x.first ? 1 : 0);
    return f;
  };
  SECTION("one page, neighbours in a word, alternating words (small)") {
    BitmapBench<Vbitmap_small> b(seed, GeomOf(flint::kSmallConfig));
    b.WaitReady();
    REQUIRE(firsts(b.TasStream({{1, 2}, {1, 2}, {1, 2}})) == std::vector<int>{1, 0, 0});
    REQUIRE(firsts(b.TasStream({{1, 3}, {1, 4}, {1, 3}, {1, 4}, {1, 2}})) ==
            std::vector<int>{1, 1, 0, 0, 0});
    // Two words alternating: the forward must only hit its own address.
    REQUIRE(firsts(b.TasStream({{0, 0}, {5, 0}, {0, 0}, {5, 0}, {0, 1}, {5, 1}})) ==
            std::vector<int>{1, 1, 0, 0, 1, 1});
    // A whole block back to back, every page twice in a row: done on the last new page.
    std::vector<std::pair<uint32_t, uint32_t>> ops;
    for (uint32_t p = 0; p < 16; ++p) {
      ops.emplace_back(6, p);
      ops.emplace_back(6, p);
    }
    const std::vector<TasRsp> r = b.TasStream(ops);
    for (size_t i = 0; i < r.size(); ++i) {
      REQUIRE(r[i].first == (i % 2 == 0));
      REQUIRE(r[i].block_done == (i == 30));
    }
  }
  SECTION("the block count across the words of one block (4-bit words)") {
    BitmapBench<Vbitmap_small_w4> b(seed, GeomOf(flint::kSmallConfig, 4));
    b.WaitReady();
    // One page of each of the block's four words, back to back: the count forward, not the
    // word forward, carries the count from one to the next.
    REQUIRE(firsts(b.TasStream({{2, 0}, {2, 4}, {2, 8}, {2, 12}})) ==
            std::vector<int>{1, 1, 1, 1});
    REQUIRE(b.model().block_count(2) == 4);
    std::vector<std::pair<uint32_t, uint32_t>> ops;
    for (uint32_t k = 1; k < 4; ++k) {
      for (uint32_t w = 0; w < 4; ++w) ops.emplace_back(2, w * 4 + k);
    }
    const std::vector<TasRsp> r = b.TasStream(ops);
    for (size_t i = 0; i < r.size(); ++i) {
      REQUIRE(r[i].first);
      REQUIRE(r[i].block_done == (i + 1 == r.size()));
    }
    // Blocks alternating back to back (count forward keyed on the block).
    const std::vector<TasRsp> alt = b.TasStream({{3, 0}, {4, 0}, {3, 1}, {4, 1}, {3, 0}});
    REQUIRE(firsts(alt) == std::vector<int>{1, 1, 1, 1, 0});
    REQUIRE(b.model().block_count(3) == 2);
  }
}

TEST_CASE("bitmap: scan finds the lowest clear page at the cursor, skips set pages and wraps",
          "[refresh][bitmap][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  auto is = [](const ScanRsp& r, uint32_t block, uint32_t page) {
    return r.found && r.block == block && r.page == page;
  };
  SECTION("one word per block (small)") {
    BitmapBench<Vbitmap_small> b(seed, GeomOf(flint::kSmallConfig));
    b.WaitReady();
    // Block 0: pages 0, 1, 3 and 5..15 set. Block 1 full. Block 2: all but page 15.
    // Blocks 4..7: all but (5, 7).
    std::vector<std::pair<uint32_t, uint32_t>> ops{{0, 0}, {0, 1}, {0, 3}};
    for (uint32_t p = 5; p < 16; ++p) ops.emplace_back(0, p);
    for (uint32_t p = 0; p < 16; ++p) ops.emplace_back(1, p);
    for (uint32_t p = 0; p < 15; ++p) ops.emplace_back(2, p);
    for (uint32_t k = 4; k < 8; ++k) {
      for (uint32_t p = 0; p < 16; ++p) {
        if (!(k == 5 && p == 7)) ops.emplace_back(k, p);
      }
    }
    b.TasStream(ops);
    REQUIRE(is(b.Scan(), 0, 2));
    REQUIRE(is(b.Scan(), 0, 4));
    REQUIRE_FALSE(b.Scan().found);  // nothing clear at or above bit 5: on to word 1
    REQUIRE_FALSE(b.Scan().found);  // block 1 full: on to word 2
    REQUIRE(is(b.Scan(), 2, 15));   // the word's last bit: the cursor moves to word 3
    REQUIRE(is(b.Scan(), 3, 0));
    REQUIRE(is(b.Scan(), 3, 1));
    REQUIRE(b.Tas(3, 2).first);  // set at the cursor: the scan skips it
    b.TasStream({{3, 5}, {3, 6}});
    REQUIRE(is(b.Scan(), 3, 3));
    REQUIRE(is(b.Scan(), 3, 4));
    for (uint32_t p = 7; p < 16; ++p) REQUIRE(is(b.Scan(), 3, p));
    REQUIRE_FALSE(b.Scan().found);  // word 4 full
    REQUIRE(is(b.Scan(), 5, 7));
    REQUIRE_FALSE(b.Scan().found);  // rest of word 5
    REQUIRE_FALSE(b.Scan().found);  // word 6
    REQUIRE_FALSE(b.Scan().found);  // word 7, then the cursor wraps to word 0
    // A scan sets nothing: the pages found in the first pass are still clear.
    REQUIRE(is(b.Scan(), 0, 2));
    REQUIRE(is(b.Scan(), 0, 4));
    REQUIRE(b.dut().set_count_o == ops.size() + 3);
  }
  SECTION("several words per block (4-bit words)") {
    BitmapBench<Vbitmap_small_w4> b(seed, GeomOf(flint::kSmallConfig, 4));
    b.WaitReady();
    b.TasStream({{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 6}});
    REQUIRE_FALSE(b.Scan().found);  // word 0 full
    REQUIRE(is(b.Scan(), 0, 5));    // word 1 = pages 4..7 of block 0
    REQUIRE(is(b.Scan(), 0, 7));
    REQUIRE(is(b.Scan(), 0, 8));  // word 2
    // The rest of block 0 set: the cursor crosses into block 1 (word 4).
    std::vector<std::pair<uint32_t, uint32_t>> ops;
    for (uint32_t p = 8; p < 16; ++p) ops.emplace_back(0, p);
    ops.emplace_back(0, 5);
    ops.emplace_back(0, 7);
    b.TasStream(ops);
    REQUIRE_FALSE(b.Scan().found);  // rest of word 2
    REQUIRE_FALSE(b.Scan().found);  // word 3
    REQUIRE(is(b.Scan(), 1, 0));
    // The last word of the last block, then the wrap.
    b.TasStream({{7, 12}, {7, 13}});
    for (int i = 0; i < 3; ++i) REQUIRE(is(b.Scan(), 1, static_cast<uint32_t>(i + 1)));
    for (uint32_t w = 5; w < 31; ++w) {
      const ScanRsp r = b.Scan();
      REQUIRE(is(r, w / 4, (w % 4) * 4));
      for (uint32_t k = 1; k < 4; ++k) REQUIRE(is(b.Scan(), w / 4, (w % 4) * 4 + k));
    }
    REQUIRE(is(b.Scan(), 7, 14));
    REQUIRE(is(b.Scan(), 7, 15));  // last bit of the bitmap: the cursor wraps
    REQUIRE_FALSE(b.Scan().found);  // word 0, full
  }
}

TEST_CASE("bitmap: with every page set scans find nothing and all_set is high",
          "[refresh][bitmap][corner]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  BitmapBench<Vbitmap_small_w4> b(seed, GeomOf(flint::kSmallConfig, 4));
  b.WaitReady();
  const Geom& g = b.geom();
  std::vector<std::pair<uint32_t, uint32_t>> ops;
  for (uint32_t k = 0; k < g.blocks; ++k) {
    for (uint32_t p = 0; p < g.pages; ++p) ops.emplace_back(k, p);
  }
  std::mt19937 rng(seed);
  std::shuffle(ops.begin(), ops.end(), rng);
  const std::pair<uint32_t, uint32_t> last = ops.back();
  ops.pop_back();
  b.TasStream(ops);
  b.Idle(1);
  REQUIRE_FALSE(b.dut().all_set_o);
  REQUIRE(b.dut().set_count_o == g.blocks * g.pages - 1);
  // The one clear page is what a full pass of scans finds, once.
  uint32_t found = 0;
  for (uint64_t i = 0; i < b.model().words(); ++i) {
    const ScanRsp r = b.Scan();
    if (r.found) {
      REQUIRE(r.block == last.first);
      REQUIRE(r.page == last.second);
      ++found;
    }
  }
  REQUIRE(found == 1);
  const TasRsp r = b.Tas(last.first, last.second);
  REQUIRE(r.first);
  REQUIRE(r.block_done);
  REQUIRE(b.dut().all_set_o);  // from the cycle after the answer
  REQUIRE(b.dut().set_count_o == g.blocks * g.pages);
  for (uint64_t i = 0; i < 2 * b.model().words() + 1; ++i) REQUIRE_FALSE(b.Scan().found);
  REQUIRE(b.dut().all_set_o);
  Drive clear;
  clear.clear = true;
  b.Step(clear);
  REQUIRE_FALSE(b.dut().all_set_o);
  REQUIRE(b.dut().set_count_o == 0);
}

TEST_CASE("bitmap: a test-and-set has priority over a scan and one scan is in flight",
          "[refresh][bitmap][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  BitmapBench<Vbitmap_small> b(seed, GeomOf(flint::kSmallConfig));
  b.WaitReady();
  Drive both;
  both.tas = true;
  both.scan = true;
  // Offered together: the test-and-set is taken; the scan waits (ready low) and sees it.
  both.block = 0;
  both.page = 0;
  Seen s = b.Step(both);
  REQUIRE(s.tas_fire);
  REQUIRE_FALSE(s.scan_fire);
  REQUIRE_FALSE(b.dut().scan_ready_o);
  // A scan held under a stream of test-and-sets is never taken.
  for (uint32_t p = 1; p < 4; ++p) {
    both.page = p;
    s = b.Step(both);
    REQUIRE(s.tas_fire);
    REQUIRE_FALSE(s.scan_fire);
  }
  Drive scan;
  scan.scan = true;
  s = b.Step(scan);
  REQUIRE(s.scan_fire);  // the test-and-set of (0, 3) is answered this cycle
  // In flight: the next scan waits a cycle, a test-and-set does not.
  both.page = 4;
  s = b.Step(both);
  REQUIRE(s.tas_fire);
  REQUIRE_FALSE(s.scan_fire);
  REQUIRE(s.scan.has_value());
  // The scan saw (0, 0..3) set by the test-and-sets before it, not (0, 4) taken with its answer.
  REQUIRE(s.scan->found);
  REQUIRE(s.scan->block == 0);
  REQUIRE(s.scan->page == 4);
  s = b.Step(scan);
  REQUIRE(s.scan_fire);
  s = b.Step(scan);
  REQUIRE_FALSE(s.scan_fire);  // one in flight
  REQUIRE(s.scan.has_value());
  REQUIRE(s.scan->page == 5);  // (0, 4) is set now
  s = b.Step(scan);
  REQUIRE(s.scan_fire);
  b.WaitReady();
}

TEST_CASE("bitmap: a clear with operations in flight answers them and then forgets them",
          "[refresh][bitmap][corner]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  BitmapBench<Vbitmap_small> b(seed, GeomOf(flint::kSmallConfig));
  b.WaitReady();
  const uint64_t words = b.model().words();
  REQUIRE(b.Tas(2, 3).first);
  // A test-and-set in flight when clear_i comes: answered (first), then forgotten.
  Drive in;
  in.tas = true;
  in.block = 2;
  in.page = 4;
  REQUIRE(b.Step(in).tas_fire);
  Drive clear;
  clear.clear = true;
  clear.tas = true;
  clear.block = 2;
  clear.page = 5;
  clear.scan = true;
  Seen s = b.Step(clear);
  REQUIRE_FALSE(s.tas_fire);
  REQUIRE_FALSE(s.scan_fire);
  REQUIRE(s.tas.has_value());
  REQUIRE(s.tas->first);
  REQUIRE(s.tas->page == 4);
  REQUIRE(BusyCyclesOffering(b) == words);  // takes (7, 1) in the end
  REQUIRE(b.Tas(2, 4).first);
  REQUIRE(b.Tas(2, 3).first);
  // A scan in flight: answered from before the clear; the cursor starts again at 0.
  REQUIRE(b.Scan().page == 0);  // (0, 0)
  REQUIRE(b.Scan().page == 1);
  Drive sc;
  sc.scan = true;
  REQUIRE(b.Step(sc).scan_fire);
  s = b.Step(clear);
  REQUIRE(s.scan.has_value());
  REQUIRE(s.scan->found);
  REQUIRE(s.scan->page == 2);
  b.WaitReady();
  const ScanRsp r = b.Scan();
  REQUIRE(r.found);
  REQUIRE(r.block == 0);
  REQUIRE(r.page == 0);
  // The last test-and-set before a clear lands in the forward registers; the sweep must still
  // win over it: clear_i right after a test-and-set's answer.
  REQUIRE(b.Tas(0, 9).first);
  b.Step(clear);
  b.WaitReady();
  REQUIRE(b.Tas(0, 9).first);
  // clear_i held for several cycles: busy for Words cycles after the last one.
  b.Step(clear);
  b.Step(clear);
  b.Step(clear);
  REQUIRE(BusyCyclesOffering(b) == words);
  REQUIRE(b.stats().clear_in_flight == 2);
}

namespace {

// Random test-and-sets (the same page again, a neighbour in the word, a page the scrubber
// found, or any page), scans, and clears (rare, likelier once the bitmap is complete), with
// requests held until taken, in lock-step with the model; then every page tested once more.
template <class Dut>
void RunRandom(uint32_t seed, const Geom& g, int cycles) {
  INFO(flint::tb::ReplayCommand(seed));
  BitmapBench<Dut> b(seed, g);
  std::mt19937 rng(seed);
  auto uni = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  const uint64_t bits = uint64_t{g.blocks} * g.pages;
  std::bernoulli_distribution tas_d(0.55), scan_d(0.5), clear_d(2.0 / static_cast<double>(cycles)),
      clear_full_d(0.02);
  std::deque<std::pair<uint32_t, uint32_t>> scrub;  // found by scans, read by the scrubber later
  Drive in;
  std::pair<uint32_t, uint32_t> last{0, 0};
  for (int c = 0; c < cycles; ++c) {
    if (!in.tas && tas_d(rng)) {
      in.tas = true;
      const uint32_t k = uni(20);
      if (k < 5) {
        std::tie(in.block, in.page) = last;
      } else if (k < 8) {
        in.block = last.first;
        in.page = (last.second / g.word_bits) * g.word_bits + uni(g.word_bits);
      } else if (k < 14 && !scrub.empty()) {
        std::tie(in.block, in.page) = scrub.front();
        scrub.pop_front();
      } else {
        in.block = uni(g.blocks);
        in.page = uni(g.pages);
      }
    }
    if (!in.scan) in.scan = scan_d(rng);
    in.clear = clear_d(rng) || (b.dut().all_set_o && clear_full_d(rng));
    if (in.clear) scrub.clear();
    const Seen s = b.Step(in);
    if (s.tas_fire) {
      last = {in.block, in.page};
      in.tas = false;
    }
    if (s.scan_fire) in.scan = false;
    if (s.scan && s.scan->found && scrub.size() < 16) {
      scrub.emplace_back(s.scan->block, s.scan->page);
    }
  }
  in = Drive{};
  b.WaitReady();
  // Every page once more: the answer says whether the RTL had it set (compared with the model).
  b.SetAll();
  b.Idle(1);
  REQUIRE(b.model().set_count() == bits);
  REQUIRE(b.dut().all_set_o);
  const Stats& st = b.stats();
  INFO("tas " << st.tas << " first " << st.first << " done " << st.block_done << " scans "
              << st.scans << " found " << st.found << " not found " << st.not_found
              << " all-set cycles " << st.all_set_cycles << " clears " << st.clears
              << " in flight " << st.clear_in_flight << " same-word back to back "
              << st.tas_forward);
  // The run must have exercised what it claims to.
  CHECK(st.first > bits);
  CHECK(st.tas - st.first > static_cast<uint64_t>(cycles) / 20);
  CHECK(st.block_done > g.blocks * 2);
  CHECK(st.found > static_cast<uint64_t>(cycles) / 20);
  CHECK(st.not_found > 0);
  CHECK(st.all_set_cycles > 0);
  CHECK(st.clears >= 2);
  CHECK(st.tas_forward > static_cast<uint64_t>(cycles) / 50);
}

}  // namespace

TEST_CASE("bitmap: random test-and-sets scans and clears match the model",
          "[refresh][bitmap][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  SECTION("small") { RunRandom<Vbitmap_small>(seed, GeomOf(flint::kSmallConfig), 30000); }
  SECTION("small, 4-bit words") {
    RunRandom<Vbitmap_small_w4>(seed, GeomOf(flint::kSmallConfig, 4), 30000);
  }
  SECTION("medium") { RunRandom<Vbitmap_medium>(seed, GeomOf(flint::kMediumConfig), 150000); }
}

TEST_CASE("bitmap: paper size bitmap sweeps in Words cycles and answers",
          "[refresh][bitmap][smoke]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const Geom g = GeomOf(flint::kPaperConfig);
  BitmapBench<Vbitmap_paper> b(seed, g);
  // 256 blocks x 1024 pages = 2^18 bits = 32 KiB per die (DESIGN.md 2), in 4096 words of 64.
  REQUIRE(g.word_bits == 64);
  REQUIRE(b.model().words() == 4096);
  REQUIRE(b.model().words() * g.word_bits / 8 == 32 * 1024);
  REQUIRE(BusyCyclesOffering(b) == 4096);  // takes (255, 1)
  // One block completed in a scrambled order, back to back: done on its last page only.
  std::vector<std::pair<uint32_t, uint32_t>> ops;
  for (uint32_t p = 0; p < g.pages; ++p) ops.emplace_back(200, (p * 389) % g.pages);
  const std::vector<TasRsp> r = b.TasStream(ops);
  for (size_t i = 0; i < r.size(); ++i) {
    REQUIRE(r[i].first);
    REQUIRE(r[i].block_done == (i + 1 == r.size()));
  }
  // The scan across words of one block: word 0 full, page 64 is in word 1 of block 0.
  std::vector<std::pair<uint32_t, uint32_t>> w0;
  for (uint32_t p = 0; p < 64; ++p) w0.emplace_back(0, p);
  b.TasStream(w0);
  REQUIRE_FALSE(b.Scan().found);
  const ScanRsp s = b.Scan();
  REQUIRE(s.found);
  REQUIRE(s.block == 0);
  REQUIRE(s.page == 64);
  REQUIRE_FALSE(b.Tas(255, 1).first);
  REQUIRE(b.Tas(255, 1023).first);
  REQUIRE(b.dut().set_count_o == 1024 + 64 + 2);
  // The whole bitmap, once, to the all-set state of a completed rotation.
  b.SetAll();
  b.Idle(1);
  REQUIRE(b.dut().all_set_o);
  REQUIRE(b.stats().block_done == 256);
  Drive clear;
  clear.clear = true;
  b.Step(clear);
  REQUIRE(BusyCyclesOffering(b) == 4096);
}
