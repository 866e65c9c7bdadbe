// flint_read_counters against model::ReadCounters: sweep, trip and limit events, saturation,
// reset on erase, the documented stagger and the trickle it gives, the sustained sense rate,
// trip bursts under event back-pressure, forwarding, bad addresses, random traffic, paper size.
#include "model/ftl/read_counters.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "Vctr_medium.h"
#include "Vctr_paper.h"
#include "Vctr_small.h"
#include "Vctr_small_phase.h"
#include "flint_config.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
#include "tb/ftl/ftl_tb.hpp"

namespace {

using flint::Config;
using flint::model::CounterParams;
using flint::model::ReadCounters;
using flint::model::TripEvent;
using flint::tb::Harness;
using flint::tb::Bits;

struct Blk {
  uint32_t die = 0, plane = 0, block = 0;
};

struct Drive {
  bool sense = false;
  Blk s;
  bool cmd = false;
  bool read = true;  // false: reset after an erase
  Blk c;
  bool rsp_ready = true;
  bool evt_ready = true;
};

struct Seen {
  bool sense_ready = false, sense_fire = false, cmd_fire = false, rsp_fire = false;
  bool evt_fire = false;
  TripEvent evt;
  bool rsp_ok = false;
  uint64_t rsp_count = 0;
};

struct Rsp {
  bool ok;
  uint64_t count;
};

// Cycle-by-cycle bench: every sense and command is applied to the model when accepted; every
// event and command response is compared, in order, as it is transferred.
template <class Dut>
class CtrBench {
 public:
  CtrBench(uint32_t seed, const Config& cfg,
           const CounterParams& params = CounterParams{}, bool defaults = true)
      : h_(seed, "read_counters"),
        model_(cfg, defaults ? CounterParams::Defaults(cfg) : params),
        cfg_(cfg) {
    start_ = flint::tb::ResetFromHigh(h_);
  }

  uint64_t Counters() const { return cfg_.dies * cfg_.phys_planes * cfg_.blocks; }

  Seen Step(const Drive& in) {
    auto& d = h_.dut();
    d.sense_valid_i = in.sense;
    d.sense_die_i = in.s.die;
    d.sense_plane_i = in.s.plane;
    d.sense_block_i = in.s.block;
    d.cmd_valid_i = in.cmd;
    d.cmd_read_i = in.read;
    d.cmd_die_i = in.c.die;
    d.cmd_plane_i = in.c.plane;
    d.cmd_block_i = in.c.block;
    d.cmd_rsp_ready_i = in.rsp_ready;
    d.evt_ready_i = in.evt_ready;
    h_.Eval();
    INFO("cycle " << h_.cycle());
    Seen s;
    REQUIRE(static_cast<bool>(d.busy_o) == (h_.cycle() - start_ < Counters()));
    REQUIRE(static_cast<bool>(d.err_o) == model_.error());
    if (d.evt_valid_o) {
      REQUIRE_FALSE(events_.empty());
      s.evt = {d.evt_die_o, d.evt_plane_o, d.evt_block_o, static_cast<bool>(d.evt_limit_o)};
      const TripEvent& e = events_.front();
      INFO("event: expected (" << e.die << "," << e.plane << "," << e.block << ") limit " << e.limit
                               << ", got (" << s.evt.die << "," << s.evt.plane << "," << s.evt.block
                               << ") limit " << s.evt.limit);
      REQUIRE(s.evt == e);
      if (in.evt_ready) {
        s.evt_fire = true;
        events_.pop_front();
      }
    }
    if (d.cmd_rsp_valid_o) {
      REQUIRE_FALSE(rsps_.empty());
      s.rsp_ok = d.cmd_rsp_ok_o;
      s.rsp_count = d.cmd_rsp_count_o;
      REQUIRE(s.rsp_ok == rsps_.front().ok);
      REQUIRE(s.rsp_count == rsps_.front().count);
      if (in.rsp_ready) {
        s.rsp_fire = true;
        rsps_.pop_front();
      }
    }
    s.sense_ready = d.sense_ready_o;
    s.cmd_fire = in.cmd && d.cmd_ready_o;
    s.sense_fire = in.sense && d.sense_ready_o;
    REQUIRE_FALSE((s.cmd_fire && s.sense_fire));
    if (s.cmd_fire) {
      const Blk& c = in.c;
      if (!model_.InRange(c.die, c.plane, c.block)) {
        model_.FlagError();
        rsps_.push_back({false, 0});
      } else if (in.read) {
        rsps_.push_back({true, *model_.Count(c.die, c.plane, c.block)});
      } else {
        rsps_.push_back({true, *model_.Erase(c.die, c.plane, c.block)});
      }
    }
    if (s.sense_fire) {
      if (auto e = model_.Sense(in.s.die, in.s.plane, in.s.block)) events_.push_back(*e);
    }
    h_.Tick();
    REQUIRE_FALSE(h_.Failed());
    return s;
  }

  void WaitReady() {
    while (h_.cycle() - start_ < Counters()) Step(Drive{});
  }
  // Idle cycles until every event and response has been delivered.
  void Drain() {
    for (int i = 0; i < 64 && !(events_.empty() && rsps_.empty()); ++i) Step(Drive{});
    REQUIRE(events_.empty());
    REQUIRE(rsps_.empty());
  }
  // `n` senses of one block, one a cycle when possible; returns the events seen meanwhile.
  std::vector<TripEvent> SenseN(const Blk& b, uint64_t n) {
    std::vector<TripEvent> seen;
    Drive in;
    in.sense = true;
    in.s = b;
    for (uint64_t k = 0; k < n;) {
      const Seen s = Step(in);
      k += s.sense_fire;
      if (s.evt_fire) seen.push_back(s.evt);
    }
    for (int i = 0; i < 4; ++i) {
      const Seen s = Step(Drive{});
      if (s.evt_fire) seen.push_back(s.evt);
    }
    return seen;
  }
  Rsp Command(const Blk& b, bool read) {
    Drive in;
    in.cmd = true;
    in.read = read;
    in.c = b;
    REQUIRE(Step(in).cmd_fire);
    for (int i = 0; i < 4; ++i) {
      const Seen s = Step(Drive{});
      if (s.rsp_fire) return {s.rsp_ok, s.rsp_count};
    }
    FAIL("no response");
    return {false, 0};
  }

  Harness<Dut>& h() { return h_; }
  ReadCounters& model() { return model_; }
  size_t events_pending() const { return events_.size(); }

 private:
  Harness<Dut> h_;
  ReadCounters model_;
  const Config& cfg_;
  uint64_t start_ = 0;  // cycle count at the end of reset
  std::deque<TripEvent> events_;
  std::deque<Rsp> rsps_;
};

// Random senses (a few hot blocks and the rest), erases and reads, random back-pressure on
// events and responses, in lock-step with the model; then every count read back.
template <class Dut>
void RunRandom(uint32_t seed, const Config& cfg, int cycles, bool phase = false) {
  INFO(flint::tb::ReplayCommand(seed));
  CounterParams params = CounterParams::Defaults(cfg);
  params.phase_stagger = phase;
  CtrBench<Dut> b(seed, cfg, params, false);
  b.WaitReady();
  std::mt19937 rng(seed);
  auto uni = [&](uint64_t n) {
    return static_cast<uint32_t>(std::uniform_int_distribution<uint64_t>(0, n - 1)(rng));
  };
  auto any = [&]() { return Blk{uni(cfg.dies), uni(cfg.phys_planes), uni(cfg.blocks)}; };
  const Blk hot[3] = {any(), any(), any()};
  // Erases rare enough that the hot blocks reach their trip points, the limit and saturation.
  std::bernoulli_distribution sense_d(0.9), cmd_d(0.002), read_d(0.9), evt_d(0.7), rsp_d(0.7),
      bad_d(0.002);
  Drive in;
  uint64_t due = 0, limit = 0;
  for (int c = 0; c < cycles; ++c) {
    if (!in.sense) {
      in.sense = sense_d(rng);
      const uint32_t k = uni(10);
      in.s = k < 6 ? hot[k % 3] : any();
      // Now and then a plane past the die (dropped, flagged).
      if (bad_d(rng)) in.s.plane = static_cast<uint32_t>(cfg.phys_planes);
    }
    if (!in.cmd) {
      in.cmd = cmd_d(rng);
      in.read = read_d(rng);
      in.c = uni(4) ? hot[uni(3)] : any();
    }
    in.evt_ready = evt_d(rng);
    in.rsp_ready = rsp_d(rng);
    const Seen s = b.Step(in);
    if (s.sense_fire) in.sense = false;
    if (s.cmd_fire) in.cmd = false;
    if (s.evt_fire) (s.evt.limit ? limit : due)++;
  }
  // Requests still waiting are kept up until taken (valid/ready).
  in.evt_ready = true;
  in.rsp_ready = true;
  while (in.sense || in.cmd) {
    const Seen s = b.Step(in);
    if (s.sense_fire) in.sense = false;
    if (s.cmd_fire) in.cmd = false;
    if (s.evt_fire) (s.evt.limit ? limit : due)++;
  }
  b.Drain();
  CHECK(due > 0);
  CHECK(limit > 0);
  for (uint32_t d = 0; d < cfg.dies; ++d) {
    for (uint32_t p = 0; p < cfg.phys_planes; ++p) {
      for (uint32_t k = 0; k < cfg.blocks; ++k) b.Command({d, p, k}, true);
    }
  }
}

}  // namespace

TEST_CASE("read counters: the sweep clears every count", "[ftl][read_counters][directed]") {
  const Config& cfg = flint::kSmallConfig;
  CtrBench<Vctr_small> b(1, cfg);
  Drive in;
  in.sense = true;  // refused while the sweep runs
  in.s = {1, 4, 7};
  in.cmd = true;
  in.c = {1, 4, 7};
  uint64_t busy = 0;
  while (b.h().dut().busy_o) {
    const Seen s = b.Step(in);
    REQUIRE_FALSE(s.sense_fire);
    REQUIRE_FALSE(s.cmd_fire);
    ++busy;
  }
  REQUIRE(busy == cfg.dies * cfg.phys_planes * cfg.blocks);
  // Then taken: the command first (it has precedence), the sense in the next cycle.
  Seen s = b.Step(in);
  REQUIRE(s.cmd_fire);
  in.cmd = false;
  s = b.Step(in);
  REQUIRE(s.sense_fire);
  b.Drain();
  REQUIRE(b.Command({1, 4, 7}, true).count == 1);
  for (uint32_t d = 0; d < cfg.dies; ++d) {
    for (uint32_t p = 0; p < cfg.phys_planes; ++p) {
      for (uint32_t k = 0; k < cfg.blocks; ++k) {
        const Rsp r = b.Command({d, p, k}, true);
        REQUIRE(r.ok);
        REQUIRE(r.count == (d == 1 && p == 4 && k == 7 ? 1u : 0u));
      }
    }
  }
}

TEST_CASE("read counters: the trip point follows the documented stagger",
          "[ftl][read_counters][directed]") {
  const Config& cfg = flint::kSmallConfig;
  const ReadCounters m(cfg);
  // Known answers of the formula (docs/ftl.md) at small: limit 256, margin 16, window 2^5,
  // key = bit-reversed 7-bit {block, die, plane} address, offset = key * 32 / 128.
  REQUIRE(m.params().stagger_bits == 5);
  REQUIRE(m.params().trip_margin == 16);
  REQUIRE(m.TripPoint(0, 0, 0) == 240);
  REQUIRE(m.TripPoint(0, 1, 0) == 240 - 16);  // plane bit 0 -> key bit 6
  REQUIRE(m.TripPoint(0, 4, 0) == 240 - 4);   // plane bit 2 -> key bit 4
  REQUIRE(m.TripPoint(1, 0, 0) == 240 - 2);   // die bit -> key bit 3
  REQUIRE(m.TripPoint(0, 0, 1) == 240 - 1);   // block bit 0 -> key bit 2
  REQUIRE(m.TripPoint(0, 0, 2) == 240);       // block bits 1, 2 -> key bits 1, 0: below 1/32
  // The earliest: plane 3 (011) has the largest reversed index of the five planes (110).
  REQUIRE(m.TripPoint(1, 3, 7) == 240 - 27);
  // And the RTL trips every block of the small stack exactly there: each block sensed up to one
  // past its trip point (the bench compares every event with the model).
  CtrBench<Vctr_small> b(1, cfg);
  b.WaitReady();
  for (uint32_t d = 0; d < cfg.dies; ++d) {
    for (uint32_t p = 0; p < cfg.phys_planes; ++p) {
      for (uint32_t k = 0; k < cfg.blocks; ++k) {
        const uint64_t t = m.TripPoint(d, p, k);
        REQUIRE(b.SenseN({d, p, k}, t - 1).empty());
        const std::vector<TripEvent> e = b.SenseN({d, p, k}, 2);
        REQUIRE(e.size() == 1);
        REQUIRE(e[0] == TripEvent{d, p, k, false});
      }
    }
  }
}

TEST_CASE("read counters: a block trips at its point then at the limit then saturates",
          "[ftl][read_counters][directed]") {
  const Config& cfg = flint::kSmallConfig;
  CtrBench<Vctr_small> b(1, cfg);
  b.WaitReady();
  const Blk blk{1, 2, 5};
  const uint64_t t = b.model().TripPoint(1, 2, 5);
  const uint64_t max = (uint64_t{1} << cfg.disturb_count_bits) - 1;
  REQUIRE(t < cfg.disturb_limit);
  REQUIRE(b.SenseN(blk, t - 1).empty());
  REQUIRE(b.SenseN(blk, 1) == std::vector<TripEvent>{{1, 2, 5, false}});
  REQUIRE(b.SenseN(blk, cfg.disturb_limit - t - 1).empty());
  REQUIRE(b.SenseN(blk, 1) == std::vector<TripEvent>{{1, 2, 5, true}});
  // Past the limit by up to max - limit senses, then saturated: no wrap, no further event.
  REQUIRE(b.SenseN(blk, max - cfg.disturb_limit + 40).empty());
  REQUIRE(b.Command(blk, true).count == max);
  // Erase: the count restarts and the block trips again at the same point.
  REQUIRE(b.Command(blk, false).count == max);
  REQUIRE(b.Command(blk, true).count == 0);
  REQUIRE(b.SenseN(blk, t - 1).empty());
  REQUIRE(b.SenseN(blk, 1).size() == 1);
  // Neighbours were not touched.
  REQUIRE(b.Command({1, 2, 4}, true).count == 0);
  REQUIRE(b.Command({0, 2, 5}, true).count == 0);
}

TEST_CASE("read counters: blocks read at one rate come due as a trickle",
          "[ftl][read_counters][directed]") {
  // Every block of the small stack read once per round (what striping does to the blocks of a
  // layer read every token). Without the stagger they would all trip in one round.
  const Config& cfg = flint::kSmallConfig;
  CtrBench<Vctr_small> b(1, cfg);
  b.WaitReady();
  std::map<uint64_t, std::vector<TripEvent>> trips_by_round;
  const uint64_t rounds = cfg.disturb_limit - cfg.disturb_limit / 16;  // up to the latest trip
  Drive in;
  in.sense = true;
  for (uint64_t r = 1; r <= rounds; ++r) {
    for (uint32_t d = 0; d < cfg.dies; ++d) {
      for (uint32_t p = 0; p < cfg.phys_planes; ++p) {
        for (uint32_t k = 0; k < cfg.blocks; ++k) {
          in.s = {d, p, k};
          Seen s;
          do {
            s = b.Step(in);
            if (s.evt_fire) trips_by_round[r].push_back(s.evt);
          } while (!s.sense_fire);
        }
      }
    }
    // Let this round's events out before the next round starts.
    for (int i = 0; i < 8; ++i) {
      const Seen s = b.Step(Drive{});
      if (s.evt_fire) trips_by_round[r].push_back(s.evt);
    }
  }
  b.Drain();
  const uint64_t n = cfg.dies * cfg.phys_planes * cfg.blocks;
  uint64_t total = 0;
  size_t worst = 0;
  for (const auto& [round, v] : trips_by_round) {
    total += v.size();
    worst = std::max(worst, v.size());
  }
  REQUIRE(total == n);
  // At most 2^(KeyBits - StaggerBits) blocks share an offset, so that many per round at worst.
  const uint32_t key_bits = Bits(cfg.dies) + Bits(cfg.phys_planes) + Bits(cfg.blocks);
  REQUIRE(worst <= (size_t{1} << (key_bits - 5)));
  REQUIRE(trips_by_round.size() >= n / (size_t{1} << (key_bits - 5)));
  // The copies of one block index on one die (equally read under striping) come due in
  // different rounds.
  for (uint32_t d = 0; d < cfg.dies; ++d) {
    for (uint32_t k = 0; k < cfg.blocks; ++k) {
      std::vector<uint64_t> when;
      for (const auto& [round, v] : trips_by_round) {
        for (const TripEvent& e : v) {
          if (e.die == d && e.block == k) when.push_back(round);
        }
      }
      REQUIRE(when.size() == cfg.phys_planes);
      std::sort(when.begin(), when.end());
      REQUIRE(std::adjacent_find(when.begin(), when.end()) == when.end());
    }
  }
}

TEST_CASE("read counters: the stagger spreads every config as documented",
          "[ftl][read_counters][directed]") {
  // Model-level property at all three configs (the RTL matches the model: tests above): the
  // offsets use the whole window, at most 2^(KeyBits - StaggerBits) blocks share one, and each
  // die's copies of one block index are at least window / 2^PlaneBits apart.
  for (const Config* cfg : {&flint::kSmallConfig, &flint::kMediumConfig, &flint::kPaperConfig}) {
    INFO(cfg->name);
    const ReadCounters m(*cfg);
    const uint32_t s = m.params().stagger_bits;
    const uint32_t key_bits = Bits(cfg->dies) + Bits(cfg->phys_planes) + Bits(cfg->blocks);
    const uint64_t base = cfg->disturb_limit - m.params().trip_margin;
    std::map<uint64_t, uint32_t> per_point;
    uint64_t lo = base, hi = 0;
    for (uint32_t d = 0; d < cfg->dies; ++d) {
      for (uint32_t k = 0; k < cfg->blocks; ++k) {
        std::vector<uint64_t> pts;
        for (uint32_t p = 0; p < cfg->phys_planes; ++p) {
          const uint64_t t = m.TripPoint(d, p, k);
          REQUIRE(t <= base);
          REQUIRE(t > base - (uint64_t{1} << s));
          ++per_point[t];
          lo = std::min(lo, t);
          hi = std::max(hi, t);
          pts.push_back(t);
        }
        std::sort(pts.begin(), pts.end());
        for (size_t i = 1; i < pts.size(); ++i) {
          REQUIRE(pts[i] - pts[i - 1] >= (uint64_t{1} << s) >> Bits(cfg->phys_planes));
        }
      }
    }
    uint32_t worst = 0;
    for (const auto& [t, cnt] : per_point) worst = std::max(worst, cnt);
    REQUIRE(worst <= (1u << (key_bits > s ? key_bits - s : 0)));
    REQUIRE(hi == base);
    // Plane 1 sets the top key bit, so the offsets reach past half the window at least.
    REQUIRE(base - lo >= (uint64_t{1} << s) / 2);
  }
}

TEST_CASE("read counters: senses are taken at one a cycle at and above the burst rate",
          "[ftl][read_counters][directed]") {
  const Config& cfg = flint::kSmallConfig;
  CtrBench<Vctr_small> b(1, cfg);
  b.WaitReady();
  const uint32_t phantom = static_cast<uint32_t>(cfg.planes);
  auto burst_sense = [&](uint64_t k, uint32_t block) {
    // Sense k of a burst in `block`: die-major over the live planes of each die.
    const uint32_t d = static_cast<uint32_t>(k / cfg.planes);
    uint32_t p = static_cast<uint32_t>(k % cfg.planes);
    if (p >= phantom) ++p;
    return Blk{d, p, block};
  };
  SECTION("one burst every burst period") {
    const uint64_t per_burst = cfg.dies * cfg.planes;
    uint64_t offered = 0, taken = 0;
    for (uint64_t burst = 0; burst < 600; ++burst) {
      const uint32_t block = static_cast<uint32_t>(burst % 2);  // hot blocks: trips happen
      for (uint64_t c = 0; c < cfg.burst_period_cycles; ++c) {
        Drive in;
        in.sense = c < per_burst;
        if (in.sense) in.s = burst_sense(c, block);
        const Seen s = b.Step(in);
        offered += in.sense;
        taken += s.sense_fire;
        if (in.sense) REQUIRE(s.sense_fire);  // never a stall at the burst rate
      }
    }
    REQUIRE(taken == offered);
    REQUIRE(*b.model().Count(0, 0, 0) == 300);
  }
  SECTION("bursts back to back at one sense a cycle") {
    const uint64_t senses = 6000;
    for (uint64_t k = 0; k < senses; ++k) {
      Drive in;
      in.sense = true;
      in.s = burst_sense(k % (cfg.dies * cfg.planes), static_cast<uint32_t>(k / 64 % 2));
      REQUIRE(b.Step(in).sense_fire);
    }
  }
  SECTION("a command takes exactly one sense slot") {
    int stalls = 0;
    Drive in;
    in.sense = true;
    in.read = true;
    in.c = {0, 0, 1};
    for (uint64_t k = 0; k < 2000;) {
      in.s = burst_sense(k % (cfg.dies * cfg.planes), 1);
      const Seen s = b.Step(in);
      if (s.cmd_fire) in.cmd = false;
      if (s.sense_fire) {
        ++k;
        if (k % 100 == 0 && k < 2000) in.cmd = true;  // held until taken
      } else {
        REQUIRE(s.cmd_fire);
        ++stalls;
      }
    }
    REQUIRE(stalls == 19);
  }
  b.Drain();
}

TEST_CASE("read counters: a trip burst stalls senses and loses no event",
          "[ftl][read_counters][corner]") {
  const Config& cfg = flint::kSmallConfig;
  CtrBench<Vctr_small> b(1, cfg);
  b.WaitReady();
  // Every block one sense short of its trip point...
  std::vector<Blk> all;
  for (uint32_t d = 0; d < cfg.dies; ++d) {
    for (uint32_t p = 0; p < cfg.phys_planes; ++p) {
      for (uint32_t k = 0; k < cfg.blocks; ++k) {
        all.push_back({d, p, k});
        REQUIRE(b.SenseN(all.back(), b.model().TripPoint(d, p, k) - 1).empty());
      }
    }
  }
  // ... then one sense each with the refresh controller not taking events.
  Drive in;
  in.sense = true;
  in.evt_ready = false;
  size_t next = 0;
  int stalled = 0, cycles = 0;
  while (next < all.size() && cycles < 200) {
    in.s = all[next];
    const Seen s = b.Step(in);
    next += s.sense_fire;
    stalled += !s.sense_fire;
    ++cycles;
    if (cycles == 50) in.evt_ready = true;  // drain from here on
  }
  REQUIRE(next == all.size());
  REQUIRE(stalled > 40);  // stalled from the 4th event until the queue drained
  b.Drain();              // all 80 events, in order, by the bench
}

TEST_CASE("read counters: back to back senses of one block are all counted",
          "[ftl][read_counters][corner]") {
  const Config& cfg = flint::kSmallConfig;
  CtrBench<Vctr_small> b(1, cfg);
  b.WaitReady();
  b.SenseN({0, 3, 3}, 300);
  b.SenseN({0, 3, 4}, 1);
  b.SenseN({0, 3, 3}, 1);
  // Alternating neighbours too (a forward must only hit the same address).
  Drive in;
  in.sense = true;
  for (int k = 0; k < 100; ++k) {
    in.s = {1, 0, static_cast<uint32_t>(k % 2)};
    REQUIRE(b.Step(in).sense_fire);
  }
  b.Drain();
  REQUIRE(b.Command({0, 3, 3}, true).count == 301);
  REQUIRE(b.Command({0, 3, 4}, true).count == 1);
  REQUIRE(b.Command({1, 0, 0}, true).count == 50);
  REQUIRE(b.Command({1, 0, 1}, true).count == 50);
}

TEST_CASE("read counters: senses and commands outside the geometry are dropped and flagged",
          "[ftl][read_counters][corner]") {
  const Config& cfg = flint::kSmallConfig;
  CtrBench<Vctr_small> b(1, cfg);
  b.WaitReady();
  const uint32_t past = static_cast<uint32_t>(cfg.phys_planes);
  b.SenseN({0, past, 0}, 3);
  REQUIRE(b.h().dut().err_o);
  const Rsp r = b.Command({0, past + 2, 1}, true);
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.count == 0);
  // Nothing aliased onto a real block.
  for (uint32_t p = 0; p < cfg.phys_planes; ++p) {
    for (uint32_t k = 0; k < cfg.blocks; ++k) REQUIRE(b.Command({0, p, k}, true).count == 0);
  }
  REQUIRE(b.Command({1, 0, 0}, true).count == 0);
}

TEST_CASE("read counters: random senses erases and reads match the model",
          "[ftl][read_counters][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  SECTION("small") { RunRandom<Vctr_small>(seed, flint::kSmallConfig, 20000); }
  SECTION("medium") { RunRandom<Vctr_medium>(seed, flint::kMediumConfig, 40000); }
  SECTION("small, phase stagger") {
    RunRandom<Vctr_small_phase>(seed, flint::kSmallConfig, 20000, true);
  }
}

// PhaseStagger (the in-place distributed baseline): the sweep starts each count at its offset,
// the first trip comes that much early, and after an erase a block trips a whole period later.
TEST_CASE("read counters: a phase stagger makes the first trip early and no later one",
          "[ftl][read_counters][directed]") {
  const Config& cfg = flint::kSmallConfig;
  CounterParams params = CounterParams::Defaults(cfg);
  params.phase_stagger = true;
  CtrBench<Vctr_small_phase> b(1, cfg, params, false);
  b.WaitReady();
  const ReadCounters& m = b.model();
  uint64_t nonzero = 0;
  for (uint32_t d = 0; d < cfg.dies; ++d) {
    for (uint32_t p = 0; p < cfg.phys_planes; ++p) {
      for (uint32_t k = 0; k < cfg.blocks; ++k) {
        const uint64_t off = m.Offset(d, p, k);
        REQUIRE(b.Command({d, p, k}, true).count == off);
        REQUIRE(m.TripPoint(d, p, k) == cfg.disturb_limit - cfg.disturb_limit / 16);
        nonzero += off > 0;
      }
    }
  }
  REQUIRE(nonzero > 0);
  // A block with a large offset: due after period - offset senses, then after a whole period.
  const Blk blk{1, 2, 3};
  const uint64_t off = m.Offset(blk.die, blk.plane, blk.block);
  const uint64_t period = m.TripPoint(blk.die, blk.plane, blk.block);
  REQUIRE(off > 0);
  REQUIRE(b.SenseN(blk, period - off - 1).empty());
  const auto first = b.SenseN(blk, 1);
  REQUIRE(first.size() == 1);
  REQUIRE_FALSE(first[0].limit);
  REQUIRE(b.Command(blk, false).count == period);
  REQUIRE(b.SenseN(blk, period - 1).empty());
  REQUIRE(b.SenseN(blk, 1).size() == 1);
  b.Drain();
}

TEST_CASE("read counters: paper size counters trip at the staggered point",
          "[ftl][read_counters][smoke]") {
  const Config& cfg = flint::kPaperConfig;
  const ReadCounters m(cfg);
  Harness<Vctr_paper> h(1, "read_counters");
  auto& d = h.dut();
  flint::tb::ResetFromHigh(h);
  d.evt_ready_i = 1;
  d.cmd_rsp_ready_i = 1;
  uint64_t busy = 0;
  while (d.busy_o) {
    h.Tick();
    ++busy;
  }
  REQUIRE(busy == cfg.dies * cfg.phys_planes * cfg.blocks);
  // A lean loop (no per-cycle bench): one block sensed every cycle up to its trip point.
  const Blk blk{9, 32, 77};
  const uint64_t t = m.TripPoint(blk.die, blk.plane, blk.block);
  d.sense_valid_i = 1;
  d.sense_die_i = blk.die;
  d.sense_plane_i = blk.plane;
  d.sense_block_i = blk.block;
  uint64_t senses = 0, event_at = 0;
  while (senses < t + 4) {
    h.Eval();
    REQUIRE(d.sense_ready_o);
    if (d.evt_valid_o && event_at == 0) {
      event_at = senses;
      REQUIRE(d.evt_die_o == blk.die);
      REQUIRE(d.evt_plane_o == blk.plane);
      REQUIRE(d.evt_block_o == blk.block);
      REQUIRE_FALSE(d.evt_limit_o);
    }
    ++senses;
    h.Tick();
  }
  // The event of sense number t (accepted in cycle t-1 of the loop) shows two cycles later.
  REQUIRE(event_at == t + 1);
  REQUIRE(t < cfg.disturb_limit - cfg.disturb_limit / 16 + 1);
  REQUIRE(t > cfg.disturb_limit - cfg.disturb_limit / 16 - (uint64_t{1} << 17));
  REQUIRE_FALSE(h.Failed());
}
