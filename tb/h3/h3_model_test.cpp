// The H3 baseline's model (model/h3, docs/h3.md) over the NAND die models: directed cases (a
// hinted burst served without a demand fetch, the exact demand-miss latency, FIFO eviction and
// re-fetch, a minimum residency holding an eviction back, error addresses, ECC on injected
// corruption, a sequential sweep with layer-ahead hints against the tR-bound peak, H3 against the
// BBC golden model on an interleaved multi-SM stream) and seeded random streams with random
// hints. Every run is checked for exactly one response per request, responses after their accept,
// no data mismatch, re-fetch counts that agree with the fetch sequence and fetch/hint accounting
// that adds up. An illegal NAND command (a sequencing bug) throws from the die model and fails.
#include "model/h3/h3_model.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "sim/engines/h3_hints.hpp"
#include "sim/workload/workload_gen.hpp"
#include "tb/common/seed.hpp"

namespace {

using flint::Config;
using flint::Status;
using flint::model::BbcRequest;
using flint::model::BbcResponse;
using flint::model::H3Hint;
using flint::model::H3Model;
using flint::model::H3Options;

struct RunResult {
  std::vector<BbcResponse> by_id;  // indexed by request id
  flint::model::BbcStats stats;
  flint::model::H3Extra extra;
  std::vector<uint64_t> sequence;
};

// Runs `reqs` (ids 0..n-1 in order) with `hints` and checks what every run must satisfy.
RunResult Run(H3Model& h3, const std::vector<BbcRequest>& reqs, const std::vector<H3Hint>& hints) {
  size_t next = 0, next_hint = 0;
  std::vector<int> answered(reqs.size(), 0);
  RunResult out;
  out.by_id.resize(reqs.size());
  h3.Run(
      [&]() -> std::optional<BbcRequest> {
        if (next == reqs.size()) return std::nullopt;
        return reqs[next++];
      },
      [&]() -> std::optional<H3Hint> {
        if (next_hint == hints.size()) return std::nullopt;
        return hints[next_hint++];
      },
      [&](const BbcResponse& r) {
        REQUIRE(r.id < reqs.size());
        ++answered[r.id];
        out.by_id[r.id] = r;
      });
  for (size_t i = 0; i < reqs.size(); ++i) {
    INFO("request " << i);
    REQUIRE(answered[i] == 1);
    REQUIRE(out.by_id[i].accept_cycle >= reqs[i].cycle);
    REQUIRE(out.by_id[i].cycle > out.by_id[i].accept_cycle);
    REQUIRE_FALSE(out.by_id[i].data_mismatch);
  }
  out.stats = h3.stats();
  out.extra = h3.extra();
  out.sequence = h3.burst_sequence();
  const auto& s = out.stats;
  const auto& e = out.extra;
  REQUIRE(s.requests == reqs.size());
  REQUIRE(s.responses == reqs.size());
  const std::set<uint64_t> distinct(out.sequence.begin(), out.sequence.end());
  REQUIRE(out.sequence.size() == s.bursts_fetched);
  REQUIRE(s.bursts_refetched == s.bursts_fetched - distinct.size());
  REQUIRE(s.fetched_bytes == s.bursts_fetched * h3.config().burst_bytes);
  REQUIRE(e.demand_fetches + e.hint_fetches == s.bursts_fetched);
  REQUIRE(e.hints == hints.size());
  REQUIRE(e.hints == e.hints_invalid + e.hints_skipped + e.hints_overtaken + e.hint_fetches);
  REQUIRE(e.evictions <= s.bursts_fetched);
  REQUIRE(e.evictions + h3.config().bursts_per_stack >= s.bursts_fetched);
  // Every sense reached every plane of every die, and every sensed page went out once, whole.
  for (const auto& die : h3.dies()) {
    REQUIRE(die.counters().senses == s.bursts_fetched * h3.config().planes);
    REQUIRE(die.counters().data_out_cmds == s.bursts_fetched * h3.config().planes);
    REQUIRE(die.counters().out_bytes ==
            s.bursts_fetched * h3.config().planes * h3.config().page_image_bytes);
  }
  uint64_t served = 0;
  for (const auto& r : out.by_id) {
    served += r.status == Status::kOk || r.status == Status::kCorrected ||
              r.status == Status::kUncorrectable;
  }
  REQUIRE(s.useful_bytes == served * h3.config().cl_bytes);
  REQUIRE(s.hits + e.demand_misses == served);
  return out;
}

RunResult Run(const Config& cfg, const H3Options& opt, const std::vector<BbcRequest>& reqs,
              const std::vector<H3Hint>& hints = {}) {
  H3Model h3(cfg, opt);
  h3.Load();
  return Run(h3, reqs, hints);
}

// Every line of bursts [first, first+n) in address order, `per_cycle` requests a cycle from
// `sms` SMs taken round robin, starting at `start`.
std::vector<BbcRequest> Sweep(const Config& cfg, uint64_t first, uint64_t n, uint64_t per_cycle,
                              uint32_t sms, uint64_t start = 0) {
  std::vector<BbcRequest> v;
  const uint64_t lines = n * cfg.cl_per_burst;
  for (uint64_t i = 0; i < lines; ++i) {
    v.push_back({i, start + i / per_cycle, static_cast<uint32_t>(i % sms),
                 first * cfg.burst_bytes + i * cfg.cl_bytes});
  }
  return v;
}

uint64_t Cycles(const flint::model::BbcStats& s) { return s.last_cycle - s.first_cycle; }

// From Read to the first plane's page in SRAM: tR, the latch copy, one page over the die I/O.
uint64_t FirstPageLatency(const Config& cfg) {
  return cfg.t_read_cycles + cfg.t_cache_xfer_cycles +
         (cfg.page_image_bytes + cfg.die_io_bytes_per_cycle - 1) / cfg.die_io_bytes_per_cycle;
}

}  // namespace

TEST_CASE("h3 model: the default minimum residency is the paper's 5000 cycles at tR scale",
          "[h3]") {
  H3Options paper;
  paper.loaded_bursts = 4096;
  REQUIRE(H3Model(flint::kPaperConfig, paper).min_residency_cycles() == 5000);
  for (const char* name : {"small", "medium"}) {
    const Config& cfg = *flint::FindConfig(name);
    REQUIRE(H3Model(cfg, H3Options{}).min_residency_cycles() == 5 * cfg.t_read_cycles / 2);
  }
  H3Options o;
  o.min_residency_cycles = 7;
  REQUIRE(H3Model(*flint::FindConfig("small"), o).min_residency_cycles() == 7);
  o.slots = 0;
  REQUIRE_THROWS_AS(H3Model(*flint::FindConfig("small"), o), std::invalid_argument);
}

TEST_CASE("h3 model: a demand miss without hints waits exactly for the sense and one page",
          "[h3]") {
  const Config& cfg = *flint::FindConfig("small");
  H3Model h3(cfg, H3Options{});
  const uint64_t load = h3.Load();
  // Line 3 of slice 0 (die 0, plane 0): the first page out of the die.
  const std::vector<BbcRequest> reqs = {{0, 0, 0, 9 * cfg.burst_bytes + 3 * cfg.cl_bytes}};
  const RunResult r = Run(h3, reqs, {});
  REQUIRE(r.stats.bursts_fetched == 1);
  REQUIRE(r.extra.demand_fetches == 1);
  REQUIRE(r.extra.demand_misses == 1);
  REQUIRE(r.stats.hits == 0);
  REQUIRE(r.by_id[0].accept_cycle == load);
  REQUIRE(r.by_id[0].cycle == load + FirstPageLatency(cfg) + 1);
  REQUIRE((r.by_id[0].status == Status::kOk || r.by_id[0].status == Status::kCorrected));
}

TEST_CASE("h3 model: a hinted burst ahead of demand is served from SRAM without a demand fetch",
          "[h3]") {
  const Config& cfg = *flint::FindConfig("small");
  const uint64_t later = 1000;
  std::vector<BbcRequest> reqs = Sweep(cfg, 5, 1, cfg.lanes, 4, later);
  H3Model hinted(cfg, H3Options{});
  const uint64_t load = hinted.Load();
  for (auto& q : reqs) q.cycle += load;
  const RunResult h = Run(hinted, reqs, {{load, 5}});
  REQUIRE(h.stats.bursts_fetched == 1);
  REQUIRE(h.extra.hint_fetches == 1);
  REQUIRE(h.extra.demand_fetches == 0);
  REQUIRE(h.extra.demand_misses == 0);
  REQUIRE(h.stats.hits == reqs.size());
  REQUIRE(h.stats.bursts_refetched == 0);
  // At the link rate: the sweep's lines leave a cycle after they are offered.
  for (size_t i = 0; i < reqs.size(); ++i) {
    INFO("request " << i);
    REQUIRE(h.by_id[i].accept_cycle == reqs[i].cycle);
    REQUIRE(h.by_id[i].cycle == reqs[i].cycle + 1);
  }
  // The same stream without the hint: one demand fetch, and the first line waits for the NAND.
  const RunResult d = Run(cfg, H3Options{}, reqs);
  REQUIRE(d.extra.demand_fetches == 1);
  REQUIRE(d.extra.hint_fetches == 0);
  REQUIRE(d.by_id[0].cycle >= d.by_id[0].accept_cycle + FirstPageLatency(cfg));
  // A hint for a resident or unloaded burst is skipped.
  H3Options few;
  few.loaded_bursts = 8;
  const RunResult k = Run(cfg, few, {{0, 0, 0, 2 * cfg.burst_bytes}},
                          {{0, 2}, {0, 2}, {0, 8}, {0, 100}});
  REQUIRE(k.extra.hint_fetches == 1);
  REQUIRE(k.extra.hints_skipped == 1);
  REQUIRE(k.extra.hints_invalid == 2);
  REQUIRE(k.stats.bursts_fetched == 1);
}

TEST_CASE("h3 model: two slots evict first-in first-out and a burst evicted is re-fetched",
          "[h3]") {
  const Config& cfg = *flint::FindConfig("small");
  H3Options opt;
  opt.min_residency_cycles = 1;
  // Bursts 0, 1, 0 (a hit: under LRU that would make 1 the victim), 2, 1, 0, 2. FIFO evicts 0
  // (filled first) for 2, so 1 is still resident, 0 is a re-fetch that evicts 1 (now the oldest
  // fill), and 2 is still resident.
  const uint64_t gap = 400;  // every fetch is done and its slot evictable before the next
  const std::vector<uint64_t> order = {0, 1, 0, 2, 1, 0, 2};
  const uint64_t load = H3Model(cfg, opt).Load();
  std::vector<BbcRequest> reqs;
  for (uint64_t i = 0; i < order.size(); ++i) {
    reqs.push_back({i, load + i * gap, 0, order[i] * cfg.burst_bytes + i * cfg.cl_bytes});
  }
  const RunResult r = Run(cfg, opt, reqs);
  REQUIRE(r.sequence == std::vector<uint64_t>{0, 1, 2, 0});
  REQUIRE(r.stats.bursts_refetched == 1);
  REQUIRE(r.extra.evictions == 2);
  REQUIRE(r.stats.hits == 3);  // requests 2 (burst 0), 4 (burst 1) and 6 (burst 2)
  REQUIRE_FALSE(r.by_id[0].refetch);
  REQUIRE_FALSE(r.by_id[3].refetch);
  REQUIRE(r.by_id[5].refetch);
  REQUIRE(r.by_id[4].cycle <= r.by_id[4].accept_cycle + 2);  // burst 1 survived burst 2's fetch
  REQUIRE(r.by_id[6].cycle <= r.by_id[6].accept_cycle + 2);  // burst 2 survived (0 evicted 1)
  REQUIRE(r.by_id[5].cycle >= r.by_id[5].accept_cycle + FirstPageLatency(cfg));
  // One slot: every change of burst is a fetch.
  opt.slots = 1;
  const RunResult one = Run(cfg, opt, reqs);
  REQUIRE(one.sequence == std::vector<uint64_t>{0, 1, 0, 2, 1, 0, 2});
  REQUIRE(one.stats.bursts_refetched == 4);
  // Three slots hold all three bursts: no re-fetch.
  opt.slots = 3;
  const RunResult three = Run(cfg, opt, reqs);
  REQUIRE(three.sequence == std::vector<uint64_t>{0, 1, 2});
}

TEST_CASE("h3 model: the minimum residency holds an eviction back", "[h3]") {
  const Config& cfg = *flint::FindConfig("small");
  // Bursts 0 and 1 fill both slots; burst 2 is asked for at once and needs a victim.
  const std::vector<BbcRequest> reqs = {{0, 0, 0, 0}, {1, 0, 1, cfg.burst_bytes},
                                        {2, 1, 2, 2 * cfg.burst_bytes}};
  auto run = [&](uint64_t residency) {
    H3Options opt;
    opt.min_residency_cycles = residency;
    H3Model h3(cfg, opt);
    h3.Load();
    return Run(h3, reqs, {});
  };
  const RunResult quick = run(1);
  const RunResult slow = run(1000);
  REQUIRE(quick.sequence == std::vector<uint64_t>{0, 1, 2});
  REQUIRE(slow.sequence == std::vector<uint64_t>{0, 1, 2});
  // Burst 0 filled at about 2 x (tR + drain) after load; burst 2's fetch starts 1000 cycles after.
  const uint64_t fill0_bound = quick.by_id[2].cycle;  // with residency 1 it is nearly back to back
  REQUIRE(slow.by_id[2].cycle >= slow.by_id[0].accept_cycle + 1000 + FirstPageLatency(cfg));
  REQUIRE(slow.by_id[2].cycle > fill0_bound + 900);
  REQUIRE(slow.extra.residency_waits >= 1);
  // The first two are served alike.
  REQUIRE(slow.by_id[0].cycle == quick.by_id[0].cycle);
  REQUIRE(slow.by_id[1].cycle == quick.by_id[1].cycle);
}

TEST_CASE("h3 model: out-of-range and unloaded addresses get an error at once, never the NAND",
          "[h3]") {
  const Config& cfg = *flint::FindConfig("small");
  H3Options opt;
  opt.loaded_bursts = 8;
  const std::vector<BbcRequest> reqs = {
      {0, 5, 0, cfg.stack_bytes},
      {1, 5, 1, 9 * cfg.burst_bytes},
      {2, 6, 0, 2 * cfg.burst_bytes + 4 * cfg.cl_bytes},
      {3, 7, 1, cfg.stack_bytes - cfg.cl_bytes},
      {4, 7, 0, cfg.stack_bytes * 4},
  };
  const RunResult r = Run(cfg, opt, reqs, {{0, 9}});
  REQUIRE(r.by_id[0].status == Status::kOutOfRange);
  REQUIRE(r.by_id[1].status == Status::kNotLoaded);
  REQUIRE(r.by_id[3].status == Status::kNotLoaded);
  REQUIRE(r.by_id[4].status == Status::kOutOfRange);
  for (int i : {0, 1, 3, 4}) REQUIRE(r.by_id[i].cycle == r.by_id[i].accept_cycle + 1);
  REQUIRE((r.by_id[2].status == Status::kOk || r.by_id[2].status == Status::kCorrected));
  REQUIRE(r.stats.bursts_fetched == 1);
  REQUIRE(r.extra.hints_invalid == 1);
  REQUIRE(r.stats.useful_bytes == cfg.cl_bytes);
}

TEST_CASE("h3 model: lines come out of SRAM decoded, a single error corrected, a double reported",
          "[h3]") {
  const Config& cfg = *flint::FindConfig("small");
  H3Options opt;
  opt.loaded_bursts = 16;
  opt.placement = flint::model::BurstPlacement::kLinear;
  H3Model h3(cfg, opt);
  h3.Load();
  const auto bp = h3.PhysicalOf(3);
  const uint32_t line_bits = static_cast<uint32_t>(cfg.cl_image_bytes * 8);
  h3.die(0).CorruptPage({1, bp.block, bp.page}, {5});
  h3.die(0).CorruptPage({1, bp.block, bp.page}, {2 * line_bits + 3, 2 * line_bits + 17});
  const uint64_t base = 3 * cfg.burst_bytes + 1 * cfg.page_bytes;
  // Prefetched by a hint, then read twice: the bytes the slot holds are what is decoded.
  const std::vector<BbcRequest> reqs = {{0, 300, 0, base},
                                        {1, 300, 1, base + cfg.cl_bytes},
                                        {2, 301, 0, base + 2 * cfg.cl_bytes},
                                        {3, 302, 1, base},
                                        {4, 302, 0, 3 * cfg.burst_bytes + 7 * cfg.page_bytes}};
  const RunResult r = Run(h3, reqs, {{0, 3}});
  REQUIRE(r.stats.bursts_fetched == 1);
  REQUIRE(r.by_id[0].status == Status::kCorrected);
  REQUIRE(r.by_id[3].status == Status::kCorrected);
  REQUIRE(r.by_id[2].status == Status::kUncorrectable);
  REQUIRE(r.by_id[1].status != Status::kUncorrectable);
  REQUIRE(r.by_id[4].status != Status::kUncorrectable);
}

namespace {

// Layer-ahead hints for a sweep of bursts [0, n): burst b+1 when the sweep's first line of b is
// offered (burst 0 at the start).
std::vector<H3Hint> SweepHints(const Config& cfg, uint64_t n, uint64_t per_cycle, uint64_t start) {
  std::vector<H3Hint> h = {{start, 0}};
  for (uint64_t b = 0; b + 1 < n; ++b) h.push_back({start + b * cfg.cl_per_burst / per_cycle, b + 1});
  return h;
}

}  // namespace

TEST_CASE("h3 model: a sequential sweep with layer-ahead hints keeps the channel near the "
          "tR-bound rate when the residency does not bind",
          "[h3]") {
  for (const char* name : {"small", "medium"}) {
    const Config& cfg = *flint::FindConfig(name);
    INFO("config " << name);
    const uint64_t bursts = std::min<uint64_t>(cfg.bursts_per_stack, 128);
    const auto reqs = Sweep(cfg, 0, bursts, cfg.lanes, static_cast<uint32_t>(cfg.lanes));
    const auto hints = SweepHints(cfg, bursts, cfg.lanes, 0);
    const double ideal = static_cast<double>(cfg.t_read_cycles + bursts * cfg.burst_period_cycles);
    // A residency shorter than a burst period: the two slots double-buffer as the NAND's page and
    // cache buffers do, and the sweep runs at one burst a period.
    H3Options fast;
    fast.min_residency_cycles = 1;
    const RunResult f = Run(cfg, fast, reqs, hints);
    const double ratio = ideal / static_cast<double>(Cycles(f.stats));
    INFO("residency 1: cycles " << Cycles(f.stats) << " ideal " << ideal << " ratio " << ratio);
    REQUIRE(f.stats.bursts_fetched == bursts);
    REQUIRE(f.stats.bursts_refetched == 0);
    REQUIRE(f.extra.hint_fetches == bursts);
    REQUIRE(ratio >= 0.99);
    REQUIRE(ratio <= 1.0);
    // The paper's residency (2.5 tR) binds: a slot turns over once per fetch (Read to last page
    // in SRAM) plus the residency, so two slots give one burst every (fetch + residency) / 2.
    const RunResult p = Run(cfg, H3Options{}, reqs, hints);
    const double residency = 2.5 * static_cast<double>(cfg.t_read_cycles);
    const double fetch = static_cast<double>(cfg.t_read_cycles + cfg.t_cache_xfer_cycles +
                                             cfg.drain_cycles);
    const double predicted = static_cast<double>(bursts) * (fetch + residency) / 2.0;
    INFO("residency 2.5 tR: cycles " << Cycles(p.stats) << " predicted " << predicted);
    REQUIRE(p.stats.bursts_refetched == 0);
    REQUIRE(static_cast<double>(Cycles(p.stats)) >= 0.95 * predicted);
    REQUIRE(static_cast<double>(Cycles(p.stats)) <= 1.05 * predicted);
  }
}

TEST_CASE("h3 model: the paper-size stack sweeps 8 bursts with hints", "[h3][paper]") {
  const Config& cfg = flint::kPaperConfig;
  H3Options opt;
  opt.loaded_bursts = 4096;
  opt.min_residency_cycles = 1;
  const uint64_t bursts = 8;
  const auto reqs = Sweep(cfg, 0, bursts, cfg.lanes, 148);
  const RunResult r = Run(cfg, opt, reqs, SweepHints(cfg, bursts, cfg.lanes, 0));
  REQUIRE(r.stats.bursts_fetched == bursts);
  const double ideal = static_cast<double>(cfg.t_read_cycles + bursts * cfg.burst_period_cycles);
  INFO("cycles " << Cycles(r.stats) << " ideal " << ideal);
  REQUIRE(ideal / static_cast<double>(Cycles(r.stats)) >= 0.9);
}

TEST_CASE("h3 model: on an interleaved multi-SM stream over more bursts than slots, H3 re-fetches "
          "more than the BBC",
          "[h3]") {
  const Config& cfg = *flint::FindConfig("small");
  // A decode step of the tiny MoE (4 layers, 8 experts top-2, shared expert): 8 SMs interleave
  // their tiles over every burst of a layer, more bursts than two slots, with the compiler's
  // layer-ahead hints (sim/engines/h3_hints). The BBC fetches from the live queue; H3's slots are
  // taken in hint and miss order and are held for the residency.
  flint::sim::DecodeOptions o;
  o.batch = 4;
  o.sms = 8;
  o.stacks = 1;
  o.steps = 1;
  const auto* model = flint::sim::FindModel("tiny-small");
  REQUIRE(model != nullptr);
  flint::sim::DecodeGenerator gen(*model, cfg, o);
  const uint64_t load = H3Model(cfg, H3Options{}).Load();
  std::vector<BbcRequest> reqs;
  {
    flint::sim::DecodeGenerator g(*model, cfg, o);
    while (auto t = g.Next()) reqs.push_back({reqs.size(), load + t->cycle, t->sm, t->address});
  }
  auto shift = [&](std::vector<H3Hint> v) {
    for (auto& h : v) h.cycle += load;
    return v;
  };
  const RunResult plain = Run(cfg, H3Options{}, reqs, shift(flint::sim::MakeH3Hints(gen)));
  const RunResult oracle = Run(cfg, H3Options{}, reqs, shift(flint::sim::MakeH3Hints(gen, {true})));
  const RunResult none = Run(cfg, H3Options{}, reqs);
  flint::model::BbcModel bbc(cfg, flint::model::BbcOptions{});
  bbc.Load();
  size_t next = 0;
  uint64_t answered = 0;
  bbc.Run(
      [&]() -> std::optional<BbcRequest> {
        if (next == reqs.size()) return std::nullopt;
        return reqs[next++];
      },
      [&](const BbcResponse&) { ++answered; });
  const auto& b = bbc.stats();
  REQUIRE(answered == reqs.size());
  auto useful = [](const flint::model::BbcStats& s) {
    return static_cast<double>(s.useful_bytes) / static_cast<double>(s.fetched_bytes);
  };
  INFO("bbc fetched " << b.bursts_fetched << " (" << b.bursts_refetched << " re-fetched) in "
                      << Cycles(b) << " cycles; h3 hints " << plain.stats.bursts_fetched << " ("
                      << plain.stats.bursts_refetched << ") in " << Cycles(plain.stats)
                      << "; h3 oracle " << oracle.stats.bursts_fetched << " ("
                      << oracle.stats.bursts_refetched << "); h3 no hints "
                      << none.stats.bursts_fetched << " (" << none.stats.bursts_refetched << ")");
  REQUIRE(plain.stats.useful_bytes == b.useful_bytes);
  REQUIRE(plain.stats.bursts_refetched > b.bursts_refetched);
  REQUIRE(oracle.stats.bursts_refetched > b.bursts_refetched);
  REQUIRE(useful(plain.stats) < useful(b));
  REQUIRE(Cycles(plain.stats) > Cycles(b));
  // The hints are what cost H3 here: they take slots from live bursts (paper Fig. 5(b)).
  REQUIRE(plain.stats.bursts_refetched > none.stats.bursts_refetched);
  REQUIRE(plain.extra.unused_evictions + plain.stats.bursts_refetched > 0);
  // With demand misses first, the hints mostly wait and the damage shrinks.
  H3Options first;
  first.demand_first = true;
  const RunResult df = Run(cfg, first, reqs, shift(flint::sim::MakeH3Hints(gen)));
  REQUIRE(df.stats.bursts_refetched < plain.stats.bursts_refetched);
}

TEST_CASE("h3 model: seeded random streams and hints answer every request once with the right "
          "data",
          "[h3][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  for (const char* name : {"small", "medium"}) {
    const Config& cfg = *flint::FindConfig(name);
    INFO("config " << name);
    for (int round = 0; round < 3; ++round) {
      INFO("round " << round);
      H3Options opt;
      opt.seed = rng();
      opt.slots = 1 + static_cast<uint32_t>(rng() % 4);
      opt.min_residency_cycles = rng() % 2 ? 0 : 1 + rng() % (6 * cfg.t_read_cycles);
      opt.loaded_bursts = cfg.bursts_per_stack / 2 + rng() % (cfg.bursts_per_stack / 2);
      opt.placement = rng() % 2 ? flint::model::BurstPlacement::kLinear
                                : flint::model::BurstPlacement::kInterleaved;
      opt.crq_entries = 1 + rng() % (2 * cfg.cl_per_burst);
      const uint32_t sms = 1 + static_cast<uint32_t>(rng() % 32);
      std::vector<uint64_t> cursor(sms);
      for (auto& c : cursor) c = rng() % (opt.loaded_bursts * cfg.cl_per_burst);
      std::vector<BbcRequest> reqs;
      std::vector<H3Hint> hints;
      uint64_t cycle = 0;
      const uint64_t n = 3000 + rng() % 3000;
      for (uint64_t i = 0; i < n; ++i) {
        cycle += rng() % 3 == 0 ? rng() % 4 : 0;
        const uint32_t sm = static_cast<uint32_t>(rng() % sms);
        uint64_t addr;
        const uint64_t roll = rng() % 100;
        if (roll < 2) {
          addr = cfg.stack_bytes + (rng() % 1000) * cfg.cl_bytes;
        } else if (roll < 4 && opt.loaded_bursts < cfg.bursts_per_stack) {
          addr = (opt.loaded_bursts + rng() % (cfg.bursts_per_stack - opt.loaded_bursts)) *
                 cfg.burst_bytes;
        } else {
          cursor[sm] = rng() % 8 == 0 ? rng() % (opt.loaded_bursts * cfg.cl_per_burst)
                                      : (cursor[sm] + 1) % (opt.loaded_bursts * cfg.cl_per_burst);
          addr = cursor[sm] * cfg.cl_bytes;
        }
        reqs.push_back({i, cycle, sm, addr});
        // Hints: mostly the burst an SM will reach next, sometimes any burst, an unloaded one.
        if (rng() % 16 == 0) {
          const uint64_t r2 = rng() % 10;
          const uint64_t b = r2 == 0   ? opt.loaded_bursts + rng() % 64
                             : r2 < 4 ? rng() % opt.loaded_bursts
                                      : (cursor[sm] / cfg.cl_per_burst + 1) % opt.loaded_bursts;
          hints.push_back({cycle > 50 ? cycle - rng() % 50 : cycle, b});
          std::sort(hints.begin(), hints.end(),
                    [](const H3Hint& a, const H3Hint& c) { return a.cycle < c.cycle; });
        }
      }
      const RunResult r = Run(cfg, opt, reqs, hints);
      REQUIRE(r.stats.queue_high_water <= opt.crq_entries);
      for (size_t i = 0; i < reqs.size(); ++i) {
        const bool oor = reqs[i].address >= cfg.stack_bytes;
        const bool unloaded = !oor && reqs[i].address / cfg.burst_bytes >= opt.loaded_bursts;
        INFO("request " << i);
        REQUIRE((r.by_id[i].status == Status::kOutOfRange) == oor);
        REQUIRE((r.by_id[i].status == Status::kNotLoaded) == unloaded);
      }
    }
  }
}

TEST_CASE("h3 model: hints out of cycle order are refused", "[h3]") {
  const Config& cfg = *flint::FindConfig("small");
  H3Model h3(cfg, H3Options{});
  h3.Load();
  const std::vector<H3Hint> hints = {{10, 1}, {5, 2}};
  size_t k = 0;
  REQUIRE_THROWS_AS(h3.Run([]() -> std::optional<BbcRequest> { return std::nullopt; },
                           [&]() -> std::optional<H3Hint> {
                             if (k == hints.size()) return std::nullopt;
                             return hints[k++];
                           },
                           [](const BbcResponse&) {}),
                    std::invalid_argument);
}

TEST_CASE("h3 model: strict FIFO evicts a slot whose requests still wait for the link, "
          "hold-while-pending does not", "[h3]") {
  // Issue #21: the paper's H3 evicts after the minimum residency whether or not requests wait
  // (expert bursts leave the LHB before every consumer read them). One slot: every line of
  // burst 0 asked for at once (they leave on the link lanes-a-cycle), burst 1 a cycle later.
  const Config& cfg = *flint::FindConfig("small");
  H3Options opt;
  opt.slots = 1;
  opt.min_residency_cycles = 1;
  const uint64_t load = H3Model(cfg, opt).Load();
  std::vector<BbcRequest> reqs = Sweep(cfg, 0, 1, cfg.cl_per_burst, 1, load);
  reqs.push_back({reqs.size(), load + 1, 1, cfg.burst_bytes});
  opt.evict = flint::model::H3Evict::kHoldWhilePending;
  const RunResult hold = Run(cfg, opt, reqs);
  REQUIRE(hold.sequence == std::vector<uint64_t>{0, 1});
  REQUIRE(hold.extra.evicted_waiting == 0);
  opt.evict = flint::model::H3Evict::kStrictFifo;
  const RunResult strict = Run(cfg, opt, reqs);
  REQUIRE(strict.extra.evicted_waiting > 0);
  REQUIRE(strict.stats.bursts_refetched >= 1);  // burst 0 again for the lines that lost it
  REQUIRE(strict.sequence.size() >= 3);
  REQUIRE(strict.sequence[0] == 0);
  REQUIRE(strict.sequence[1] == 1);
  // With a residency longer than the link needs for the burst, strict FIFO waits it out.
  opt.min_residency_cycles = 10 * cfg.cl_per_burst;
  const RunResult patient = Run(cfg, opt, reqs);
  REQUIRE(patient.sequence == std::vector<uint64_t>{0, 1});
  REQUIRE(patient.extra.evicted_waiting == 0);
}

TEST_CASE("h3 model: Table 2's 5000-cycle residency read at the GPU's 2.5 GHz is one tR",
          "[h3]") {
  for (const char* name : {"small", "medium", "paper"}) {
    const Config& cfg = *flint::FindConfig(name);
    INFO(name);
    H3Options opt;
    opt.residency_gpu_mhz = 2500;
    CHECK(H3Model(cfg, opt).min_residency_cycles() == cfg.t_read_cycles);
    opt.residency_gpu_mhz = 0;  // the base die's clock: 2.5 tR
    CHECK(H3Model(cfg, opt).min_residency_cycles() == 5 * cfg.t_read_cycles / 2);
  }
  const Config& paper = *flint::FindConfig("paper");
  H3Options opt;
  opt.residency_gpu_mhz = 2500;
  CHECK(H3Model(paper, opt).min_residency_cycles() == 2000);  // 2 us at the 1 GHz base die
}
