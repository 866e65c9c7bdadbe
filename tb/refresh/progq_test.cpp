// flint_progq against model::ProgramQueue, cycle by cycle: every output (room, ready, drop,
// occupancy, high water, the four counters) each cycle, every beat the program side takes
// (header, line, last, data) against the model's next beat, and no beat ever offered before its
// page is complete in the model. Directed: fill to full and drain in commit order; a fork open
// on a full queue is dropped and its lines ignored; fork priority over the scrubber (write port
// and the reserved slot); a page visible only once complete, lines in any order out in line
// order, latency 3; cancel; interleaved writes and reads at one beat a cycle; the contract
// assertions fire. Seeded random traffic at small, small with 2 slots and no reserve, and
// medium; paper as a smoke test.
#include "model/refresh/progq.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vprogq_medium.h"
#include "Vprogq_paper.h"
#include "Vprogq_small.h"
#include "Vprogq_small_s2.h"
#include "flint_config.hpp"
#include "tb/common/harness.hpp"
#include "tb/ecc/ecc_tb.hpp"
#include "tb/ftl/ftl_tb.hpp"

namespace {

using flint::Config;
using flint::model::ProgqBeat;
using flint::model::ProgqSource;
using flint::model::ProgramQueue;
using flint::tb::Harness;
using flint::tb::ecc::GetBytes;
using flint::tb::ecc::PutBytes;

// The queue's geometry as the RTL instance is built: ProgqPages slots of ClPerPage lines of
// ClBytes, ForkReserve 1, unless a variant overrides (Vprogq_small_s2: -GSlots=2
// -GForkReserve=0).
struct Geom {
  uint32_t slots = 0, lines = 0, line_bytes = 0, reserve = 1;
  uint32_t blocks = 0, pages = 0;
};
Geom GeomOf(const Config& cfg, uint32_t slots = 0, uint32_t reserve = 1) {
  Geom g;
  g.slots = slots != 0 ? slots : static_cast<uint32_t>(cfg.progq_pages);
  g.lines = static_cast<uint32_t>(cfg.cl_per_page);
  g.line_bytes = static_cast<uint32_t>(cfg.cl_bytes);
  g.reserve = reserve;
  g.blocks = static_cast<uint32_t>(cfg.blocks);
  g.pages = static_cast<uint32_t>(cfg.pages);
  return g;
}

// One writer's inputs in one cycle.
struct WriteOp {
  bool valid = false, open = false, cancel = false;
  uint32_t block = 0, page = 0, line = 0;
  std::vector<uint8_t> data;
};

struct Drive {
  WriteOp fork, scrub;
  bool prog_ready = false;
};

// What happened in one cycle.
struct Seen {
  bool fork_drop = false, fork_commit = false;
  bool scrub_fire = false, scrub_commit = false;
  std::optional<ProgqBeat> beat;
};

// Event counts of a run, so a random run can show what it exercised.
struct Stats {
  uint64_t cycles = 0, full_cycles = 0, both_open_cycles = 0, scrub_held_by_fork = 0;
  uint64_t scrub_held_by_reserve = 0, beats = 0, max_lag = 0;
};

// A line's content: distinct per (block, page, line, salt) so a misplaced line shows.
std::vector<uint8_t> LineData(const Geom& g, uint32_t block, uint32_t page, uint32_t line,
                              uint32_t salt = 0) {
  std::mt19937_64 r((uint64_t{block} << 40) ^ (uint64_t{page} << 20) ^ (uint64_t{line} << 4) ^
                    (uint64_t{salt} << 52) ^ 0x9e3779b97f4a7c15ull);
  std::vector<uint8_t> v(g.line_bytes);
  for (auto& b : v) b = static_cast<uint8_t>(r());
  return v;
}

// A page of the commit (and so program) order, as the tests expect it.
struct PageId {
  uint32_t block = 0, page = 0;
  bool scrub = false;
  bool operator==(const PageId& o) const {
    return block == o.block && page == o.page && scrub == o.scrub;
  }
};

// Runs the DUT cycle by cycle beside the model. Outputs are compared in each cycle against the
// model as it stands after the previous cycle; then the cycle's transfers are applied to the
// model in the order the RTL's registered state implies: opens and lines, then cancels, then
// the program side's take (slots freed in a cycle are free from the next one).
template <class Dut>
class ProgqBench {
 public:
  // The longest a committed page may wait with the program side idle and ready before its
  // first beat is offered: committed in cycle t, offered in t+3 (two cycles without).
  static constexpr uint64_t kMaxLag = 2;

  ProgqBench(uint32_t seed, const Geom& g)
      : h_(seed, "progq"), model_(g.slots, g.lines, g.line_bytes, g.reserve), geom_(g) {
    Apply(Drive{});
    start_ = flint::tb::ResetFromHigh(h_);
  }

  Seen Step(const Drive& in) {
    auto& d = h_.dut();
    Apply(in);
    h_.Eval();
    Same("fork_room_o", d.fork_room_o, model_.fork_room());
    Same("scrub_ready_o", d.scrub_ready_o,
         !in.fork.valid && (model_.scrub_open() || model_.scrub_room()));
    Same("occupancy_o", d.occupancy_o, model_.occupancy());
    const auto& st = model_.stats();
    Same("high_water_o", d.high_water_o, st.high_water);
    Same("enq_fork_o", d.enq_fork_o, st.enq_fork & 0xffffffffu);
    Same("enq_scrub_o", d.enq_scrub_o, st.enq_scrub & 0xffffffffu);
    Same("dropped_o", d.dropped_o, st.dropped & 0xffffffffu);
    Same("programmed_o", d.programmed_o, st.programmed & 0xffffffffu);
    const bool drop = in.fork.valid && in.fork.open && !model_.fork_open() && !model_.fork_room();
    Same("fork_drop_o", d.fork_drop_o, drop);
    // Visibility: never a beat of a page the model does not hold complete; and a complete page
    // offered within kMaxLag cycles.
    if (d.prog_valid_o && !model_.beat_ready()) {
      Fail("prog_valid_o with no complete page in the model");
    }
    lag_ = (model_.beat_ready() && !d.prog_valid_o) ? lag_ + 1 : 0;
    stats_.max_lag = std::max(stats_.max_lag, lag_);
    if (lag_ > kMaxLag) Fail("a complete page not offered within " + std::to_string(kMaxLag));
    stats_.full_cycles += !model_.fork_room();
    stats_.both_open_cycles += model_.fork_open() && model_.scrub_open();
    stats_.scrub_held_by_fork += in.scrub.valid && in.fork.valid;
    stats_.scrub_held_by_reserve +=
        in.scrub.valid && in.scrub.open && !in.fork.valid && !model_.scrub_room();
    ++stats_.cycles;

    Seen s;
    if (in.fork.valid) {
      if (in.fork.open) s.fork_drop = !model_.ForkOpen(in.fork.block, in.fork.page);
      s.fork_commit = model_.ForkLine(in.fork.line, in.fork.data);
      if (s.fork_commit) commits_.push_back({in.fork.block, in.fork.page, false});
    }
    s.scrub_fire = in.scrub.valid && d.scrub_ready_o;
    if (s.scrub_fire) {
      if (in.scrub.open) model_.ScrubOpen(in.scrub.block, in.scrub.page);
      s.scrub_commit = model_.ScrubLine(in.scrub.line, in.scrub.data);
      if (s.scrub_commit) commits_.push_back({in.scrub.block, in.scrub.page, true});
    }
    if (in.fork.cancel) model_.ForkCancel();
    if (in.scrub.cancel) model_.ScrubCancel();
    if (d.prog_valid_o && in.prog_ready) {
      const ProgqBeat e = model_.TakeBeat();
      Same("prog_block_o", d.prog_block_o, e.block);
      Same("prog_page_o", d.prog_page_o, e.page);
      Same("prog_scrub_o", d.prog_scrub_o, e.source == ProgqSource::kScrub);
      Same("prog_line_o", d.prog_line_o, e.line);
      Same("prog_last_o", d.prog_last_o, e.last);
      if (GetBytes(d.prog_data_o, geom_.line_bytes) != e.data) Fail("prog_data_o differs");
      if (e.last) taken_.push_back({e.block, e.page, e.source == ProgqSource::kScrub});
      s.beat = e;
      ++stats_.beats;
    }
    h_.Tick();
    if (h_.Failed()) Fail("RTL assertion failed");
    return s;
  }

  // Idle writers for n cycles with the program side ready or not.
  void Idle(uint64_t n, bool ready) {
    Drive in;
    in.prog_ready = ready;
    for (uint64_t i = 0; i < n; ++i) Step(in);
  }
  // Ready until the model and the RTL are empty.
  void Drain() {
    uint64_t guard = 0;
    while (model_.occupancy() != 0 || h_.dut().occupancy_o != 0 || h_.dut().prog_valid_o) {
      Idle(1, true);
      if (++guard > 4ull * geom_.slots * geom_.lines + 16) Fail("drain does not finish");
    }
  }

  // One fork page written back to back in `order` (line indices), the program side ready as
  // given. Returns whether the open was dropped.
  bool ForkPage(uint32_t block, uint32_t page, const std::vector<uint32_t>& order,
                bool ready = false) {
    bool dropped = false;
    for (size_t i = 0; i < order.size(); ++i) {
      Drive in;
      in.fork = ForkOp(block, page, order[i], i == 0);
      in.prog_ready = ready;
      const Seen s = Step(in);
      if (i == 0) dropped = s.fork_drop;
    }
    return dropped;
  }
  // One scrubber page written in `order`, each line held until taken (the first opens the page
  // unless `open` is false: the rest of a page opened before); returns the cycles used.
  uint64_t ScrubPage(uint32_t block, uint32_t page, const std::vector<uint32_t>& order,
                     bool ready = false, bool open = true) {
    uint64_t cycles = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      Drive in;
      in.scrub = ScrubOp(block, page, order[i], open && i == 0);
      in.prog_ready = ready;
      while (!Step(in).scrub_fire) {
        if (++cycles > 1000) Fail("scrubber line never taken");
      }
      ++cycles;
    }
    return cycles;
  }

  WriteOp ForkOp(uint32_t block, uint32_t page, uint32_t line, bool open, uint32_t salt = 0) {
    WriteOp w;
    w.valid = true;
    w.open = open;
    w.block = block;
    w.page = page;
    w.line = line;
    w.data = LineData(geom_, block, page, line, salt);
    return w;
  }
  WriteOp ScrubOp(uint32_t block, uint32_t page, uint32_t line, bool open) {
    return ForkOp(block, page, line, open, 1);
  }
  std::vector<uint32_t> InOrder() const {
    std::vector<uint32_t> v(geom_.lines);
    std::iota(v.begin(), v.end(), 0u);
    return v;
  }
  std::vector<uint32_t> Reversed() const {
    std::vector<uint32_t> v = InOrder();
    std::reverse(v.begin(), v.end());
    return v;
  }

  Harness<Dut>& h() { return h_; }
  Dut& dut() { return h_.dut(); }
  ProgramQueue& model() { return model_; }
  const Geom& geom() const { return geom_; }
  const Stats& stats() const { return stats_; }
  const std::vector<PageId>& commits() const { return commits_; }
  const std::vector<PageId>& taken() const { return taken_; }
  uint64_t Cycle() const { return h_.cycle() - start_; }

  // First divergence: cycle (from the end of reset), what, expected and actual.
  template <class A, class B>
  void Same(const char* what, const A& got, const B& want) {
    if (static_cast<uint64_t>(got) == static_cast<uint64_t>(want)) return;
    std::ostringstream m;
    m << what << " expected " << static_cast<uint64_t>(want) << ", got "
      << static_cast<uint64_t>(got);
    Fail(m.str());
  }
  void Fail(const std::string& what) {
    std::ostringstream m;
    m << "cycle " << Cycle() << ", " << model_.stats().enq_fork << " fork and "
      << model_.stats().enq_scrub << " scrub pages committed, " << stats_.beats
      << " beats taken: " << what;
    FAIL(m.str());
  }

 private:
  void Apply(const Drive& in) {
    auto& d = h_.dut();
    d.fork_valid_i = in.fork.valid;
    d.fork_open_i = in.fork.open;
    d.fork_block_i = in.fork.block;
    d.fork_page_i = in.fork.page;
    d.fork_line_i = in.fork.line;
    PutBytes(d.fork_data_i, in.fork.data);
    d.fork_cancel_i = in.fork.cancel;
    d.scrub_valid_i = in.scrub.valid;
    d.scrub_open_i = in.scrub.open;
    d.scrub_block_i = in.scrub.block;
    d.scrub_page_i = in.scrub.page;
    d.scrub_line_i = in.scrub.line;
    PutBytes(d.scrub_data_i, in.scrub.data);
    d.scrub_cancel_i = in.scrub.cancel;
    d.prog_ready_i = in.prog_ready;
  }

  Harness<Dut> h_;
  ProgramQueue model_;
  Geom geom_;
  uint64_t start_ = 0;
  uint64_t lag_ = 0;
  Stats stats_;
  std::vector<PageId> commits_, taken_;
};

}  // namespace

TEST_CASE("progq: pages fill the queue to full and drain in commit order",
          "[refresh][progq][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  auto run = [](auto& b) {
    const Geom& g = b.geom();
    // Fork pages fill every slot (the fork may take the last one), the program side stalled.
    for (uint32_t k = 0; k < g.slots; ++k) {
      REQUIRE(b.dut().fork_room_o);
      REQUIRE_FALSE(b.ForkPage(k % g.blocks, (3 * k + 1) % g.pages, b.InOrder()));
    }
    b.Idle(4, false);
    REQUIRE(b.dut().occupancy_o == g.slots);
    REQUIRE(b.dut().high_water_o == g.slots);
    REQUIRE_FALSE(b.dut().fork_room_o);
    REQUIRE(b.dut().enq_fork_o == g.slots);
    REQUIRE(b.dut().prog_valid_o);
    // A full queue refuses a scrubber open: ready is low (and stays low, checked every cycle
    // against the model; an offer, once made, may not be withdrawn, so none is made here).
    b.h().Eval();
    REQUIRE_FALSE(b.dut().scrub_ready_o);
    // Drain: every page, in commit order, one beat a cycle.
    const uint64_t before = b.stats().beats;
    b.Idle(uint64_t{g.slots} * g.lines, true);
    REQUIRE(b.stats().beats - before == uint64_t{g.slots} * g.lines);
    b.Idle(2, true);
    REQUIRE(b.dut().occupancy_o == 0);
    REQUIRE(b.dut().programmed_o == g.slots);
    REQUIRE(b.dut().high_water_o == g.slots);  // a high-water mark, not the occupancy
    REQUIRE(b.taken() == b.commits());
    // Scrubber pages fill all but the fork's reserved slots.
    const uint32_t scrub_max = g.slots - g.reserve;
    for (uint32_t k = 0; k < scrub_max; ++k) b.ScrubPage(k, k, b.InOrder());
    b.Idle(1, false);
    REQUIRE(b.dut().occupancy_o == scrub_max);
    b.h().Eval();
    REQUIRE_FALSE(b.dut().scrub_ready_o);  // the rest is the fork's
    if (g.reserve > 0) {
      REQUIRE(b.dut().fork_room_o);
      REQUIRE_FALSE(b.ForkPage(7 % g.blocks, 7 % g.pages, b.Reversed()));
    }
    b.Drain();
    REQUIRE(b.taken() == b.commits());
    REQUIRE(b.dut().enq_scrub_o == scrub_max);
  };
  SECTION("small") {
    ProgqBench<Vprogq_small> b(seed, GeomOf(flint::kSmallConfig));
    run(b);
  }
  SECTION("small, 2 slots and no reserve") {
    ProgqBench<Vprogq_small_s2> b(seed, GeomOf(flint::kSmallConfig, 2, 0));
    run(b);
  }
  SECTION("medium") {
    ProgqBench<Vprogq_medium> b(seed, GeomOf(flint::kMediumConfig));
    run(b);
  }
}

TEST_CASE("progq: a fork open on a full queue is dropped and its lines ignored",
          "[refresh][progq][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  ProgqBench<Vprogq_small> b(seed, GeomOf(flint::kSmallConfig));
  const Geom& g = b.geom();
  for (uint32_t k = 0; k < g.slots; ++k) b.ForkPage(k, 0, b.InOrder());
  b.Idle(1, false);
  REQUIRE_FALSE(b.dut().fork_room_o);
  // The drop shows in the open's own cycle (fork_drop_o), is counted, and the whole page's lines
  // go nowhere: nothing is allocated, nothing becomes visible.
  Drive in;
  in.fork = b.ForkOp(5, 9, 3, true);
  b.h().Eval();
  REQUIRE_FALSE(b.dut().fork_room_o);  // what the controller checks before the test-and-set
  Seen s = b.Step(in);
  REQUIRE(s.fork_drop);
  for (uint32_t l = 0; l < g.lines; ++l) {
    if (l == 3) continue;
    in.fork = b.ForkOp(5, 9, l, false);
    s = b.Step(in);
    REQUIRE_FALSE(s.fork_drop);
    REQUIRE_FALSE(s.fork_commit);
  }
  b.Idle(1, false);
  REQUIRE(b.dut().dropped_o == 1);
  REQUIRE(b.dut().occupancy_o == g.slots);
  REQUIRE(b.dut().enq_fork_o == g.slots);
  // Two drops back to back, one a cycle (one-line pages of a drop need no gap).
  in.fork = b.ForkOp(6, 1, 0, true);
  REQUIRE(b.Step(in).fork_drop);
  in.fork = b.ForkOp(6, 2, 0, true);
  REQUIRE(b.Step(in).fork_drop);
  b.Idle(1, false);
  REQUIRE(b.dut().dropped_o == 3);
  // One page taken by the program side frees its slot from the next cycle: the next open gets it.
  uint64_t guard = 0;
  while (b.model().stats().programmed == 0) {
    b.Idle(1, true);
    REQUIRE(++guard < 100);
  }
  REQUIRE(b.dut().fork_room_o);
  REQUIRE_FALSE(b.ForkPage(5, 9, b.Reversed()));
  b.Drain();
  REQUIRE(b.dut().dropped_o == 3);
  REQUIRE(b.dut().programmed_o == g.slots + 1);
  // The dropped (5, 9) never left; the one opened with room did, once.
  REQUIRE(std::count(b.taken().begin(), b.taken().end(), PageId{5, 9, false}) == 1);
  REQUIRE(b.taken() == b.commits());
}

TEST_CASE("progq: the fork has priority over the scrubber", "[refresh][progq][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  ProgqBench<Vprogq_small> b(seed, GeomOf(flint::kSmallConfig));
  const Geom& g = b.geom();
  // A scrubber page in progress; a fork page starts: in every cycle with a fork line the
  // scrubber's line waits (one write port), and the scrubber goes on in the fork's gaps.
  Drive in;
  in.scrub = b.ScrubOp(2, 2, 0, true);
  REQUIRE(b.Step(in).scrub_fire);
  uint32_t scrub_next = 1, fork_next = 0;
  uint64_t held = 0;
  while (fork_next < g.lines || scrub_next < g.lines) {
    Drive c;
    const bool fork_now = fork_next < g.lines && (b.Cycle() % 3 != 0);  // a gap every 3rd cycle
    if (fork_now) {
      c.fork = b.ForkOp(4, 5, g.lines - 1 - fork_next, fork_next == 0);
      ++fork_next;
    }
    if (scrub_next < g.lines) c.scrub = b.ScrubOp(2, 2, scrub_next, false);
    const Seen s = b.Step(c);
    if (fork_now) {
      REQUIRE_FALSE(s.scrub_fire);
      held += c.scrub.valid;
    } else if (c.scrub.valid) {
      REQUIRE(s.scrub_fire);
    }
    if (s.scrub_fire) ++scrub_next;
  }
  REQUIRE(held > 0);
  b.Idle(1, false);
  REQUIRE(b.dut().enq_fork_o == 1);
  REQUIRE(b.dut().enq_scrub_o == 1);
  // Commit order, not open order: the fork page opened later but completed first.
  REQUIRE(b.commits() == std::vector<PageId>{{4, 5, false}, {2, 2, true}});
  // The reserve: with ForkReserve (1) slot free the scrubber may not open; the fork may.
  b.ScrubPage(3, 3, b.InOrder());
  b.Idle(1, false);
  REQUIRE(b.dut().occupancy_o == g.slots - 1);
  Drive open;
  open.scrub = b.ScrubOp(1, 0, 0, true);
  for (int i = 0; i < 10; ++i) REQUIRE_FALSE(b.Step(open).scrub_fire);
  // Fork and scrubber open in the same cycle: the fork takes the last slot; the scrubber waits.
  open.fork = b.ForkOp(0, 7, 0, true);
  Seen s = b.Step(open);
  REQUIRE_FALSE(s.fork_drop);
  REQUIRE_FALSE(s.scrub_fire);
  for (uint32_t l = 1; l < g.lines; ++l) {
    Drive c;
    c.fork = b.ForkOp(0, 7, l, false);
    c.scrub = open.scrub;
    REQUIRE_FALSE(b.Step(c).scrub_fire);
  }
  // Full: the scrubber still waits; a drained page gives it room again only past the reserve.
  Drive wait;
  wait.scrub = open.scrub;
  REQUIRE_FALSE(b.Step(wait).scrub_fire);
  REQUIRE_FALSE(b.dut().fork_room_o);
  uint64_t guard = 0;
  while (b.model().stats().programmed < 2) {
    wait.prog_ready = true;
    REQUIRE_FALSE(b.Step(wait).scrub_fire);  // one or no slot free: within the reserve
    REQUIRE(++guard < 100);
  }
  wait.prog_ready = false;
  REQUIRE(b.Step(wait).scrub_fire);  // two slots free: one beyond the reserve
  std::vector<uint32_t> rest = b.InOrder();
  rest.erase(rest.begin());
  b.ScrubPage(1, 0, rest, false, false);
  b.Drain();
  REQUIRE(b.taken() == b.commits());
}

TEST_CASE("progq: a page is visible to the program side only when complete",
          "[refresh][progq][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  ProgqBench<Vprogq_small> b(seed, GeomOf(flint::kSmallConfig));
  const Geom& g = b.geom();
  std::mt19937 rng(seed);
  // Every line but one, in a random order with gaps, the program side ready all along: nothing
  // is offered until the last line, then the first beat comes 3 cycles after it, lines in order.
  std::vector<uint32_t> order = b.InOrder();
  std::shuffle(order.begin(), order.end(), rng);
  for (size_t i = 0; i + 1 < order.size(); ++i) {
    Drive in;
    in.fork = b.ForkOp(1, 2, order[i], i == 0);
    in.prog_ready = true;
    b.Step(in);
    REQUIRE_FALSE(b.dut().prog_valid_o);
    b.Idle(rng() % 3, true);
    REQUIRE_FALSE(b.dut().prog_valid_o);
  }
  b.Idle(20, true);
  REQUIRE_FALSE(b.dut().prog_valid_o);
  REQUIRE(b.dut().occupancy_o == 1);
  Drive last;
  last.fork = b.ForkOp(1, 2, order.back(), false);
  last.prog_ready = true;
  REQUIRE(b.Step(last).fork_commit);
  int wait = 0;
  while (!b.dut().prog_valid_o) {
    b.h().Eval();
    if (b.dut().prog_valid_o) break;
    b.Idle(1, true);
    ++wait;
  }
  REQUIRE(wait == 2);  // committed in cycle t, offered in t+3
  std::vector<uint32_t> lines;
  for (uint32_t i = 0; i < g.lines; ++i) {
    Drive in;
    in.prog_ready = true;
    const Seen s = b.Step(in);
    REQUIRE(s.beat.has_value());
    lines.push_back(s.beat->line);
  }
  REQUIRE(lines == b.InOrder());
  // A scrubber page completed while a fork page is still open: the scrubber's goes first, and
  // the open one is never offered however long the program side waits.
  b.ForkPage(3, 3, {0, 1});
  b.ScrubPage(6, 6, b.Reversed());
  b.Idle(g.lines + 10, true);
  REQUIRE(b.taken().back() == PageId{6, 6, true});
  REQUIRE_FALSE(b.dut().prog_valid_o);
  REQUIRE(b.dut().occupancy_o == 1);
  // A cancel forgets the open page: its slot is free the next cycle, it never shows, and the
  // lines that still arrive for it are ignored.
  Drive cancel;
  cancel.fork.cancel = true;
  b.Step(cancel);
  REQUIRE(b.dut().occupancy_o == 0);
  for (uint32_t l = 2; l < g.lines; ++l) {
    Drive in;
    in.fork = b.ForkOp(3, 3, l, false);
    in.prog_ready = true;
    REQUIRE_FALSE(b.Step(in).fork_commit);
  }
  // The same for the scrubber, and a cancel one cycle after the open (the bitmap's answer).
  Drive sopen;
  sopen.scrub = b.ScrubOp(4, 4, 5, true);
  REQUIRE(b.Step(sopen).scrub_fire);
  Drive scancel;
  scancel.scrub.cancel = true;
  b.Step(scancel);
  REQUIRE(b.dut().occupancy_o == 0);
  b.ForkPage(3, 3, b.InOrder(), true);  // re-opened later: a new page from scratch
  b.Drain();
  REQUIRE(b.model().stats().cancelled == 2);
  REQUIRE(b.taken() == b.commits());
  REQUIRE(b.dut().programmed_o == 3);
}

TEST_CASE("progq: interleaved writes and reads stream one beat a cycle",
          "[refresh][progq][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  auto run = [](auto& b) {
    const Geom& g = b.geom();
    // Fork pages back to back, the program side always ready: each page leaves while the next
    // is written, so two slots suffice and the program side gets a beat every cycle.
    const uint32_t pages = 3 * g.slots;
    for (uint32_t k = 0; k < pages; ++k) {
      b.ForkPage(k % g.blocks, k % g.pages, (k % 2) ? b.Reversed() : b.InOrder(), true);
    }
    b.Drain();
    // Three slots at most: the page being read, the one just committed (its first beat comes 3
    // cycles after its last line) and the one being written.
    REQUIRE(b.dut().high_water_o == 3);
    REQUIRE(b.dut().programmed_o == pages);
    REQUIRE(b.stats().beats == uint64_t{pages} * g.lines);
    // A full queue drains with no bubble, also across page boundaries.
    for (uint32_t k = 0; k < g.slots; ++k) b.ForkPage(k, 1, b.InOrder());
    b.Idle(3, false);
    const uint64_t before = b.stats().beats;
    b.Idle(uint64_t{g.slots} * g.lines, true);
    REQUIRE(b.stats().beats - before == uint64_t{g.slots} * g.lines);
    // Writes during reads: scrubber and fork pages while the program side takes beats at random.
    for (uint32_t k = 0; k < g.slots; ++k) {
      b.ScrubPage(k, 2, b.Reversed(), true);
      b.ForkPage(k, 3, b.InOrder(), k % 2 == 1);
      b.Idle(k, true);
    }
    b.Drain();
    REQUIRE(b.taken() == b.commits());
  };
  SECTION("small") {
    ProgqBench<Vprogq_small> b(seed, GeomOf(flint::kSmallConfig));
    run(b);
  }
  SECTION("medium") {
    ProgqBench<Vprogq_medium> b(seed, GeomOf(flint::kMediumConfig));
    run(b);
  }
}

TEST_CASE("progq: writer contract violations trip the assertions", "[refresh][progq][corner]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  // Driven without the model (which refuses the same violations by throwing).
  auto fresh = [](auto& h) {
    auto& d = h.dut();
    d.fork_valid_i = 0;
    d.fork_open_i = 0;
    d.fork_cancel_i = 0;
    d.scrub_valid_i = 0;
    d.scrub_open_i = 0;
    d.scrub_cancel_i = 0;
    d.prog_ready_i = 0;
    d.fork_line_i = 0;
    flint::tb::ResetFromHigh(h);
  };
  auto line = [](auto& h, bool open, uint32_t l) {
    h.dut().fork_valid_i = 1;
    h.dut().fork_open_i = open;
    h.dut().fork_line_i = l;
    h.Tick();
    h.dut().fork_valid_i = 0;
    h.dut().fork_open_i = 0;
  };
  SECTION("a line written twice") {
    Harness<Vprogq_small> h(seed, "progq");
    fresh(h);
    line(h, true, 1);
    REQUIRE_FALSE(h.Failed());
    line(h, false, 1);
    h.Tick();
    REQUIRE(h.Failed());
  }
  SECTION("an open while a page is open") {
    Harness<Vprogq_small> h(seed, "progq");
    fresh(h);
    line(h, true, 0);
    line(h, true, 1);
    h.Tick();
    REQUIRE(h.Failed());
  }
  SECTION("a cancel with a line") {
    Harness<Vprogq_small> h(seed, "progq");
    fresh(h);
    line(h, true, 0);
    h.dut().fork_cancel_i = 1;
    line(h, false, 1);
    h.Tick();
    REQUIRE(h.Failed());
  }
  SECTION("a scrubber line withdrawn before it is taken") {
    Harness<Vprogq_small> h(seed, "progq");
    fresh(h);
    h.dut().scrub_valid_i = 1;
    h.dut().scrub_open_i = 1;
    h.dut().fork_valid_i = 1;  // the fork's line holds the scrubber's back
    h.dut().fork_open_i = 1;
    h.Tick();
    REQUIRE_FALSE(h.Failed());
    h.dut().fork_valid_i = 0;
    h.dut().fork_open_i = 0;
    h.dut().scrub_valid_i = 0;
    h.Tick();
    h.Tick();
    REQUIRE(h.Failed());
  }
}

namespace {

// A random writer: pages opened at random, lines in a random or sequential order with gaps,
// cancels right after the open (the bitmap said "not first") or mid-page. The fork never waits;
// the scrubber holds each line until it is taken, and cancels only between lines.
struct RandomWriter {
  bool active = false;
  uint32_t block = 0, page = 0;
  std::vector<uint32_t> order;
  size_t next = 0;
  bool holding = false;  // scrubber: a line offered and not yet taken
  WriteOp held;
};

template <class Dut>
void RunRandom(uint32_t seed, const Geom& g, uint64_t cycles) {
  INFO(flint::tb::ReplayCommand(seed));
  ProgqBench<Dut> b(seed, g);
  std::mt19937 rng(seed);
  auto uni = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  RandomWriter fork, scrub;
  uint64_t salt = 0;
  auto start = [&](RandomWriter& w) {
    w.active = true;
    w.block = uni(g.blocks);
    w.page = uni(g.pages);
    w.order = b.InOrder();
    if (chance(0.5)) std::shuffle(w.order.begin(), w.order.end(), rng);
    w.next = 0;
  };
  // The program side: phases of stalls (a program busy for tPROG) and of taking beats.
  bool stall = false;
  uint64_t phase_left = 0;
  uint64_t fork_pages = 0, scrub_pages = 0, cancels = 0;
  for (uint64_t c = 0; c < cycles; ++c) {
    Drive in;
    if (phase_left == 0) {
      stall = chance(0.4);
      phase_left = stall ? uni(2 * g.lines * g.slots) + 1 : uni(4 * g.lines * g.slots) + 1;
    }
    --phase_left;
    in.prog_ready = !stall && chance(0.85);
    // Fork.
    if (!fork.active && chance(0.05)) start(fork);
    if (fork.active && chance(0.8)) {
      if (fork.next > 0 && chance(fork.next == 1 ? 0.25 : 0.02)) {
        in.fork.cancel = true;
        fork.active = false;
        ++cancels;
      } else {
        const uint32_t l = fork.order[fork.next];
        in.fork = b.ForkOp(fork.block, fork.page, l, fork.next == 0,
                           static_cast<uint32_t>(++salt));
        if (fork.next == 0) ++fork_pages;
        if (++fork.next == fork.order.size()) fork.active = false;
      }
    }
    // Scrubber.
    if (scrub.holding) {
      in.scrub = scrub.held;
    } else {
      if (!scrub.active && chance(0.2)) start(scrub);
      if (scrub.active && chance(0.7)) {
        if (scrub.next > 0 && chance(scrub.next == 1 ? 0.2 : 0.02)) {
          in.scrub.cancel = true;
          scrub.active = false;
          ++cancels;
        } else {
          in.scrub = b.ForkOp(scrub.block, scrub.page, scrub.order[scrub.next], scrub.next == 0,
                              static_cast<uint32_t>(++salt));
          if (scrub.next == 0) ++scrub_pages;
          scrub.held = in.scrub;
          scrub.holding = true;
        }
      }
    }
    const Seen s = b.Step(in);
    if (scrub.holding && s.scrub_fire) {
      scrub.holding = false;
      if (++scrub.next == scrub.order.size()) scrub.active = false;
    }
  }
  // Finish the pages in progress, then drain.
  while (fork.active || scrub.active || scrub.holding) {
    Drive in;
    in.prog_ready = true;
    if (fork.active) {
      in.fork = b.ForkOp(fork.block, fork.page, fork.order[fork.next], fork.next == 0);
      if (++fork.next == fork.order.size()) fork.active = false;
    }
    if (!scrub.holding && scrub.active) {
      scrub.held = b.ForkOp(scrub.block, scrub.page, scrub.order[scrub.next], scrub.next == 0);
      scrub.holding = true;
    }
    if (scrub.holding) in.scrub = scrub.held;
    const Seen s = b.Step(in);
    if (scrub.holding && s.scrub_fire) {
      scrub.holding = false;
      if (++scrub.next == scrub.order.size()) scrub.active = false;
    }
  }
  b.Drain();
  b.Idle(2, true);
  const auto& m = b.model().stats();
  const Stats& st = b.stats();
  REQUIRE(b.dut().occupancy_o == 0);
  REQUIRE(b.taken() == b.commits());
  REQUIRE(m.programmed == m.enq_fork + m.enq_scrub);
  INFO("cycles " << st.cycles << " fork pages " << fork_pages << " scrub pages " << scrub_pages
                 << " enq fork " << m.enq_fork << " enq scrub " << m.enq_scrub << " dropped "
                 << m.dropped << " cancelled " << m.cancelled << " (writer cancels " << cancels
                 << ") high water " << m.high_water << " full cycles " << st.full_cycles
                 << " both open " << st.both_open_cycles << " scrub held by fork "
                 << st.scrub_held_by_fork << " by reserve " << st.scrub_held_by_reserve
                 << " max lag " << st.max_lag);
  // The run must have exercised what it claims to.
  CHECK(m.enq_fork > 10);
  CHECK(m.enq_scrub > 10);
  CHECK(m.dropped > 0);
  CHECK(m.cancelled > 0);
  CHECK(m.high_water == g.slots);
  CHECK(st.full_cycles > 0);
  CHECK(st.full_cycles < st.cycles * 3 / 4);  // not saturated: the queue passes every level
  CHECK(st.both_open_cycles > 0);
  CHECK(st.scrub_held_by_fork > 0);
  if (g.reserve > 0) CHECK(st.scrub_held_by_reserve > 0);
}

}  // namespace

TEST_CASE("progq: random fork scrubber and program traffic match the model",
          "[refresh][progq][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  SECTION("small") { RunRandom<Vprogq_small>(seed, GeomOf(flint::kSmallConfig), 40000); }
  SECTION("small, 2 slots and no reserve") {
    RunRandom<Vprogq_small_s2>(seed, GeomOf(flint::kSmallConfig, 2, 0), 40000);
  }
  SECTION("medium") { RunRandom<Vprogq_medium>(seed, GeomOf(flint::kMediumConfig), 80000); }
}

TEST_CASE("progq: paper size queue fills drops and drains", "[refresh][progq][smoke]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const Geom g = GeomOf(flint::kPaperConfig);
  // 128 pages of 32 lines of 128 B: the 512 KiB a die of Table 3.
  REQUIRE(g.slots == 128);
  REQUIRE(g.lines == 32);
  REQUIRE(uint64_t{g.slots} * g.lines * g.line_bytes == 512 * 1024);
  ProgqBench<Vprogq_paper> b(seed, g);
  // Scrubber pages up to the reserve, then fork pages (lines reversed) to full.
  b.ScrubPage(0, 0, b.InOrder());
  for (uint32_t k = 1; k < g.slots; ++k) b.ForkPage(k, (k * 389) % g.pages, b.Reversed());
  b.Idle(3, false);
  REQUIRE(b.dut().occupancy_o == g.slots);
  REQUIRE_FALSE(b.dut().fork_room_o);
  REQUIRE(b.ForkPage(255, 1023, b.InOrder()));  // dropped
  b.Idle(1, false);
  REQUIRE(b.dut().dropped_o == 1);
  b.Drain();
  REQUIRE(b.dut().programmed_o == g.slots);
  REQUIRE(b.dut().enq_fork_o == g.slots - 1);
  REQUIRE(b.dut().enq_scrub_o == 1);
  REQUIRE(b.dut().high_water_o == g.slots);
  REQUIRE(b.taken() == b.commits());
}
