// The burst-buffer controller's golden model (model/bbc) over the NAND die models: the directed
// cases of issue 4 (sequential sweep at the tR-bound peak, two SMs over two bursts, many SMs over
// more bursts than the buffers hold, duplicates, a full queue, a burst just released, error
// addresses), ECC statuses on injected corruption, and seeded random streams. Every run is
// checked for exactly one response per request, responses after their accept, no data mismatch
// and re-fetch counts that agree with the burst sequence. An illegal NAND command (a sequencing
// bug) throws from the die model and fails the test.
#include "model/bbc/bbc_model.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "flint_config.hpp"
#include "model/nand/page_content.hpp"
#include "tb/common/seed.hpp"

namespace {

using flint::Config;
using flint::Status;
using flint::model::BbcModel;
using flint::model::BbcOptions;
using flint::model::BbcPolicy;
using flint::model::BbcRequest;
using flint::model::BbcResponse;

struct RunResult {
  std::vector<BbcResponse> by_id;  // indexed by request id
  flint::model::BbcStats stats;
  std::vector<uint64_t> sequence;
};

// Runs `reqs` (ids 0..n-1 in order) and checks what every run must satisfy.
RunResult Run(BbcModel& bbc, const std::vector<BbcRequest>& reqs) {
  size_t next = 0;
  std::vector<int> answered(reqs.size(), 0);
  RunResult out;
  out.by_id.resize(reqs.size());
  bbc.Run(
      [&]() -> std::optional<BbcRequest> {
        if (next == reqs.size()) return std::nullopt;
        return reqs[next++];
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
  out.stats = bbc.stats();
  out.sequence = bbc.burst_sequence();
  REQUIRE(out.stats.requests == reqs.size());
  REQUIRE(out.stats.responses == reqs.size());
  // Re-fetches are exactly the fetches of a burst already in the sequence.
  const std::set<uint64_t> distinct(out.sequence.begin(), out.sequence.end());
  REQUIRE(out.sequence.size() == out.stats.bursts_fetched);
  REQUIRE(out.stats.bursts_refetched == out.stats.bursts_fetched - distinct.size());
  REQUIRE(out.stats.fetched_bytes == out.stats.bursts_fetched * bbc.config().burst_bytes);
  // Every sense the model counted reached every plane of every die, and nothing else did.
  for (const auto& die : bbc.dies()) {
    REQUIRE(die.counters().senses == out.stats.bursts_fetched * bbc.config().planes);
  }
  uint64_t nand_served = 0;
  for (const auto& r : out.by_id) {
    nand_served += r.status == Status::kOk || r.status == Status::kCorrected ||
                   r.status == Status::kUncorrectable;
  }
  REQUIRE(out.stats.useful_bytes == nand_served * bbc.config().cl_bytes);
  return out;
}

RunResult Run(const Config& cfg, const BbcOptions& opt, const std::vector<BbcRequest>& reqs) {
  BbcModel bbc(cfg, opt);
  bbc.Load();
  return Run(bbc, reqs);
}

// Every line of bursts [first, first+n) in address order, `per_cycle` requests a cycle from SMs
// taken round robin.
std::vector<BbcRequest> Sweep(const Config& cfg, uint64_t first, uint64_t n, uint64_t per_cycle,
                              uint32_t sms) {
  std::vector<BbcRequest> v;
  const uint64_t lines = n * cfg.cl_per_burst;
  for (uint64_t i = 0; i < lines; ++i) {
    v.push_back({i, i / per_cycle, static_cast<uint32_t>(i % sms),
                 first * cfg.burst_bytes + i * cfg.cl_bytes});
  }
  return v;
}

uint64_t Cycles(const flint::model::BbcStats& s) { return s.last_cycle - s.first_cycle; }

}  // namespace

TEST_CASE("bbc model: a sequential sweep runs at the tR-bound peak with no re-fetch",
          "[bbc]") {
  for (const char* name : {"small", "medium"}) {
    const Config& cfg = *flint::FindConfig(name);
    INFO("config " << name);
    const uint64_t bursts = std::min<uint64_t>(cfg.bursts_per_stack, 128);
    for (BbcPolicy policy : {BbcPolicy::kFcfs, BbcPolicy::kMostPending}) {
      BbcOptions opt;
      opt.policy = policy;
      const auto reqs = Sweep(cfg, 0, bursts, cfg.lanes, static_cast<uint32_t>(cfg.lanes));
      const RunResult r = Run(cfg, opt, reqs);
      REQUIRE(r.stats.bursts_fetched == bursts);
      REQUIRE(r.stats.bursts_refetched == 0);
      for (uint64_t b = 0; b < bursts; ++b) REQUIRE(r.sequence[b] == b);
      // The tR-bound peak: the first sense, then one burst a period.
      const double ideal = static_cast<double>(cfg.t_read_cycles + bursts * cfg.burst_period_cycles);
      const double ratio = ideal / static_cast<double>(Cycles(r.stats));
      INFO("cycles " << Cycles(r.stats) << " ideal " << ideal);
      REQUIRE(ratio >= 0.995);
      REQUIRE(ratio <= 1.0);  // nothing beats the NAND
      REQUIRE(r.stats.status_counts[static_cast<int>(Status::kUncorrectable)] == 0);
    }
  }
}

TEST_CASE("bbc model: the paper-size stack sweeps 16 bursts at the peak", "[bbc][paper]") {
  const Config& cfg = flint::kPaperConfig;
  BbcOptions opt;
  opt.loaded_bursts = 4096;  // load what the sweep reads: a full-stack load is 2^18 bursts
  const uint64_t bursts = 16;
  const auto reqs = Sweep(cfg, 0, bursts, cfg.lanes, 148);
  const RunResult r = Run(cfg, opt, reqs);
  REQUIRE(r.stats.bursts_fetched == bursts);
  const double ideal = static_cast<double>(cfg.t_read_cycles + bursts * cfg.burst_period_cycles);
  INFO("cycles " << Cycles(r.stats) << " ideal " << ideal);
  REQUIRE(ideal / static_cast<double>(Cycles(r.stats)) >= 0.995);
}

TEST_CASE("bbc model: a queue shorter than a burst stalls the sweep (why crq >= a burst)",
          "[bbc]") {
  const Config& cfg = *flint::FindConfig("small");
  const auto reqs = Sweep(cfg, 0, 32, cfg.lanes, 2);
  BbcOptions full, half;
  half.crq_entries = cfg.cl_per_burst / 2;
  const RunResult a = Run(cfg, full, reqs);
  const RunResult b = Run(cfg, half, reqs);
  REQUIRE(b.stats.queue_high_water == cfg.cl_per_burst / 2);
  // Half a burst of queue: the next sense waits for the active burst's tail, drain + tR/2 a burst.
  REQUIRE(static_cast<double>(Cycles(b.stats)) > 1.3 * static_cast<double>(Cycles(a.stats)));
}

TEST_CASE("bbc model: two SMs interleaving over two bursts fetch each burst once", "[bbc]") {
  const Config& cfg = *flint::FindConfig("small");
  std::vector<BbcRequest> reqs;
  for (uint64_t i = 0; i < cfg.cl_per_burst; ++i) {
    for (uint32_t sm = 0; sm < 2; ++sm) {
      reqs.push_back({reqs.size(), i, sm, sm * cfg.burst_bytes + i * cfg.cl_bytes});
    }
  }
  for (BbcPolicy policy : {BbcPolicy::kFcfs, BbcPolicy::kMostPending}) {
    BbcOptions opt;
    opt.policy = policy;
    const RunResult r = Run(cfg, opt, reqs);
    REQUIRE(r.stats.bursts_fetched == 2);
    REQUIRE(r.stats.bursts_refetched == 0);
    REQUIRE(r.stats.status_counts[static_cast<int>(Status::kOk)] +
                r.stats.status_counts[static_cast<int>(Status::kCorrected)] ==
            reqs.size());
  }
}

TEST_CASE("bbc model: many SMs over more bursts than the buffers hold re-fetch", "[bbc]") {
  const Config& cfg = *flint::FindConfig("small");
  // 8 SMs, each walking its own burst a line at a time, all at once: 8 bursts in flight against
  // 2 resident, so bursts are released between their lines and fetched again.
  std::vector<BbcRequest> reqs;
  const uint32_t sms = 8;
  for (uint64_t i = 0; i < cfg.cl_per_burst; ++i) {
    for (uint32_t sm = 0; sm < sms; ++sm) {
      reqs.push_back({reqs.size(), (i * sms + sm) / cfg.lanes, sm,
                      sm * cfg.burst_bytes + i * cfg.cl_bytes});
    }
  }
  for (BbcPolicy policy : {BbcPolicy::kFcfs, BbcPolicy::kMostPending}) {
    BbcOptions opt;
    opt.policy = policy;
    opt.crq_entries = 4 * cfg.cl_per_burst;
    const RunResult r = Run(cfg, opt, reqs);
    REQUIRE(r.stats.bursts_refetched > 0);
    REQUIRE(r.stats.bursts_fetched > sms);
  }
}

TEST_CASE("bbc model: most-pending keeps a hot burst that FCFS releases for a cold one", "[bbc]") {
  const Config& cfg = *flint::FindConfig("small");
  // Four SMs walk bursts 0..3; a fifth asks for a line of a cold burst every fourth step. FCFS
  // promotes the cold burst the moment a hot one has nothing queued and fetches the hot one
  // again; most-pending holds a burst that is still being walked.
  std::vector<BbcRequest> reqs;
  for (uint64_t i = 0; i < cfg.cl_per_burst; ++i) {
    for (uint32_t sm = 0; sm < 4; ++sm) {
      reqs.push_back({reqs.size(), reqs.size() / 2, sm, sm * cfg.burst_bytes + i * cfg.cl_bytes});
    }
    if (i % 4 == 0) {
      const uint64_t cold = 8 + (i * 37) % 120;
      reqs.push_back({reqs.size(), reqs.size() / 2, 4,
                      cold * cfg.burst_bytes + (i % cfg.cl_per_burst) * cfg.cl_bytes});
    }
  }
  BbcOptions fcfs, most;
  fcfs.policy = BbcPolicy::kFcfs;
  most.policy = BbcPolicy::kMostPending;
  fcfs.crq_entries = most.crq_entries = 4 * cfg.cl_per_burst;
  const RunResult f = Run(cfg, fcfs, reqs);
  const RunResult m = Run(cfg, most, reqs);
  INFO("fcfs fetched " << f.stats.bursts_fetched << " most-pending " << m.stats.bursts_fetched);
  REQUIRE(m.stats.bursts_refetched < f.stats.bursts_refetched);
  REQUIRE(m.stats.bursts_fetched < f.stats.bursts_fetched);
}

TEST_CASE("bbc model: duplicate requests for one line are each answered with its data", "[bbc]") {
  const Config& cfg = *flint::FindConfig("small");
  std::vector<BbcRequest> reqs;
  const uint64_t addr = 3 * cfg.burst_bytes + 5 * cfg.page_bytes + 2 * cfg.cl_bytes;
  for (uint64_t i = 0; i < 6; ++i) reqs.push_back({i, i / 2, static_cast<uint32_t>(i), addr});
  const RunResult r = Run(cfg, BbcOptions{}, reqs);
  REQUIRE(r.stats.bursts_fetched == 1);
  REQUIRE(r.stats.useful_bytes == 6 * cfg.cl_bytes);
}

TEST_CASE("bbc model: a full queue back-pressures and loses nothing", "[bbc]") {
  const Config& cfg = *flint::FindConfig("small");
  std::vector<BbcRequest> reqs;
  // 4 bursts of lines all offered at cycle 0 from 16 SMs.
  for (uint64_t i = 0; i < 4 * cfg.cl_per_burst; ++i) {
    reqs.push_back({i, 0, static_cast<uint32_t>(i % 16), (i % 4) * cfg.burst_bytes +
                                                              (i / 4) * cfg.cl_bytes});
  }
  BbcOptions opt;
  opt.crq_entries = 16;
  const RunResult r = Run(cfg, opt, reqs);
  REQUIRE(r.stats.queue_high_water == 16);
  REQUIRE(r.by_id.back().accept_cycle > r.by_id.front().accept_cycle + reqs.size() / cfg.lanes);
  REQUIRE(r.stats.responses == reqs.size());
}

TEST_CASE("bbc model: a request for a burst just released is a re-fetch", "[bbc]") {
  const Config& cfg = *flint::FindConfig("small");
  auto reqs = Sweep(cfg, 0, 3, cfg.lanes, 2);  // bursts 0, 1, 2: burst 0 is released by 2
  const uint64_t late = reqs.back().cycle + 10 * cfg.burst_period_cycles;
  reqs.push_back({reqs.size(), late, 0, 7 * cfg.cl_bytes});  // burst 0 again
  const RunResult r = Run(cfg, BbcOptions{}, reqs);
  REQUIRE(r.stats.bursts_fetched == 4);
  REQUIRE(r.stats.bursts_refetched == 1);
  REQUIRE(r.sequence.back() == 0);
  REQUIRE(r.by_id.back().refetch);
  REQUIRE_FALSE(r.by_id.front().refetch);
}

TEST_CASE("bbc model: out-of-range and unloaded addresses get an error at once, never the NAND",
          "[bbc]") {
  const Config& cfg = *flint::FindConfig("small");
  BbcOptions opt;
  opt.loaded_bursts = 8;
  std::vector<BbcRequest> reqs = {
      {0, 5, 0, cfg.stack_bytes},                          // one past the stack
      {1, 5, 1, 9 * cfg.burst_bytes},                      // inside the stack, not loaded
      {2, 6, 0, 2 * cfg.burst_bytes + 4 * cfg.cl_bytes},   // a good one between
      {3, 7, 1, (cfg.stack_bytes - cfg.cl_bytes) * 1},     // last line of the stack: unloaded
      {4, 7, 0, cfg.stack_bytes * 4},                      // far out
  };
  const RunResult r = Run(cfg, opt, reqs);
  REQUIRE(r.by_id[0].status == Status::kOutOfRange);
  REQUIRE(r.by_id[1].status == Status::kNotLoaded);
  REQUIRE(r.by_id[3].status == Status::kNotLoaded);
  REQUIRE(r.by_id[4].status == Status::kOutOfRange);
  for (int i : {0, 1, 3, 4}) REQUIRE(r.by_id[i].cycle == r.by_id[i].accept_cycle + 1);
  REQUIRE((r.by_id[2].status == Status::kOk || r.by_id[2].status == Status::kCorrected));
  REQUIRE(r.stats.bursts_fetched == 1);  // only the good request reached the NAND
  REQUIRE(r.stats.useful_bytes == cfg.cl_bytes);
}

TEST_CASE("bbc model: a single-bit error is corrected, a double is reported, never returned good",
          "[bbc]") {
  const Config& cfg = *flint::FindConfig("small");
  BbcOptions opt;
  opt.loaded_bursts = 16;
  opt.placement = flint::model::BurstPlacement::kLinear;
  BbcModel bbc(cfg, opt);
  bbc.Load();
  // Burst 3, slice 1 (die 0, plane 1): line 0 gets one flipped data bit, line 2 two in one word.
  const auto bp = bbc.PhysicalOf(3);
  const uint32_t line_bits = static_cast<uint32_t>(cfg.cl_image_bytes * 8);
  bbc.die(0).CorruptPage({1, bp.block, bp.page}, {5});
  bbc.die(0).CorruptPage({1, bp.block, bp.page}, {2 * line_bits + 3, 2 * line_bits + 17});
  const uint64_t base = 3 * cfg.burst_bytes + 1 * cfg.page_bytes;
  std::vector<BbcRequest> reqs = {{0, 0, 0, base}, {1, 0, 1, base + cfg.cl_bytes},
                                  {2, 1, 0, base + 2 * cfg.cl_bytes}};
  const RunResult r = Run(bbc, reqs);
  REQUIRE(r.by_id[0].status == Status::kCorrected);
  REQUIRE(r.by_id[2].status == Status::kUncorrectable);
  REQUIRE(r.by_id[1].status != Status::kUncorrectable);
}

TEST_CASE("bbc model: seeded random streams answer every request once with the right data",
          "[bbc][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  for (const char* name : {"small", "medium"}) {
    const Config& cfg = *flint::FindConfig(name);
    INFO("config " << name);
    for (BbcPolicy policy : {BbcPolicy::kFcfs, BbcPolicy::kMostPending}) {
      BbcOptions opt;
      opt.policy = policy;
      opt.seed = rng();
      opt.loaded_bursts = cfg.bursts_per_stack / 2 + rng() % (cfg.bursts_per_stack / 2);
      opt.placement = rng() % 2 ? flint::model::BurstPlacement::kLinear
                                : flint::model::BurstPlacement::kInterleaved;
      opt.age_cap_cycles = 1 + rng() % (8 * cfg.burst_period_cycles);
      opt.crq_entries = cfg.cl_per_burst + rng() % (2 * cfg.cl_per_burst);
      // SMs walk bursts near a moving hot spot; a few addresses are bad.
      const uint32_t sms = 1 + static_cast<uint32_t>(rng() % 32);
      std::vector<uint64_t> cursor(sms);
      for (auto& c : cursor) c = rng() % (opt.loaded_bursts * cfg.cl_per_burst);
      std::vector<BbcRequest> reqs;
      uint64_t cycle = 0;
      const uint64_t n = 4000 + rng() % 4000;
      for (uint64_t i = 0; i < n; ++i) {
        cycle += rng() % 3 == 0 ? rng() % 4 : 0;
        const uint32_t sm = static_cast<uint32_t>(rng() % sms);
        uint64_t addr;
        const uint64_t roll = rng() % 100;
        if (roll < 2) {
          addr = cfg.stack_bytes + (rng() % 1000) * cfg.cl_bytes;  // out of range
        } else if (roll < 4 && opt.loaded_bursts < cfg.bursts_per_stack) {
          addr = (opt.loaded_bursts + rng() % (cfg.bursts_per_stack - opt.loaded_bursts)) *
                 cfg.burst_bytes;  // not loaded
        } else {
          cursor[sm] = rng() % 8 == 0 ? rng() % (opt.loaded_bursts * cfg.cl_per_burst)
                                      : (cursor[sm] + 1) % (opt.loaded_bursts * cfg.cl_per_burst);
          addr = cursor[sm] * cfg.cl_bytes;
        }
        reqs.push_back({i, cycle, sm, addr});
      }
      const RunResult r = Run(cfg, opt, reqs);
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
