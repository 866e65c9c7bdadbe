// bench_bbc: the burst-buffer controller's golden model (model/bbc, docs/bbc.md).
//  - Sequential sweep under a saturating consumer: achieved vs ideal (tR-bound) cycles a burst,
//    at small, medium and paper.
//  - Re-fetch share and useful fraction of fetched bytes on interleaved multi-SM streams, per
//    scheduling policy (fcfs, most-pending), measured in one run on the same stream.
//  - Host speed: model requests per second at each config.
// Writes {"name", "description", "results": [...]} for scripts/bench.py (make bench).
#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "verif/bench_report.hpp"

namespace {

using flint::Config;
using flint::model::BbcModel;
using flint::model::BbcOptions;
using flint::model::BbcPolicy;
using flint::model::BbcRequest;

using flint::bench::Result;

struct Outcome {
  flint::model::BbcStats stats;
  double seconds = 0;
};

// CPU seconds of this process: unlike the wall clock, not stretched while another process has
// the core (the machines these run on are shared).
double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// The stream through a freshly loaded model `reps` times (the same run each time): the stats of
// the last, the least CPU time of any (the speed rows: best of reps, so noise only slows a run).
Outcome RunStream(const Config& cfg, const BbcOptions& opt, const std::vector<BbcRequest>& reqs,
                  int reps = 1) {
  Outcome o;
  for (int rep = 0; rep < reps; ++rep) {
    BbcModel bbc(cfg, opt);
    bbc.Load();
    size_t next = 0;
    uint64_t answered = 0;
    const double t0 = CpuSeconds();
    bbc.Run([&]() -> std::optional<BbcRequest> {
              if (next == reqs.size()) return std::nullopt;
              return reqs[next++];
            },
            [&](const flint::model::BbcResponse&) { ++answered; });
    const double s = CpuSeconds() - t0;
    o.seconds = rep == 0 ? s : std::min(o.seconds, s);
    o.stats = bbc.stats();
    if (answered != reqs.size()) std::fprintf(stderr, "bench_bbc: responses lost\n");
  }
  return o;
}

constexpr int kSpeedReps = 5;

// Every line of `bursts` bursts in address order, offered as fast as the port takes them.
std::vector<BbcRequest> Sweep(const Config& cfg, uint64_t bursts) {
  std::vector<BbcRequest> v;
  for (uint64_t i = 0; i < bursts * cfg.cl_per_burst; ++i) {
    v.push_back({i, 0, static_cast<uint32_t>(i % 148), i * cfg.cl_bytes});
  }
  return v;
}

// `sms` SMs, each walking its own run of `span` bursts a line at a time, round robin, at the
// port's rate: more bursts in flight than the two buffers hold.
std::vector<BbcRequest> Walkers(const Config& cfg, uint32_t sms, uint64_t span) {
  std::vector<BbcRequest> v;
  for (uint64_t i = 0; i < span * cfg.cl_per_burst; ++i) {
    for (uint32_t sm = 0; sm < sms; ++sm) {
      v.push_back({v.size(), v.size() / cfg.lanes, sm,
                   (sm * span) * cfg.burst_bytes + i * cfg.cl_bytes});
    }
  }
  return v;
}

// Four SMs walk one hot burst each; a fifth reads a line of a cold burst every fourth step.
std::vector<BbcRequest> HotCold(const Config& cfg) {
  std::vector<BbcRequest> v;
  for (uint64_t i = 0; i < 4 * cfg.cl_per_burst; ++i) {
    for (uint32_t sm = 0; sm < 4; ++sm) {
      v.push_back({v.size(), v.size() / cfg.lanes, sm,
                   (4 * (i / cfg.cl_per_burst) + sm) * cfg.burst_bytes +
                       (i % cfg.cl_per_burst) * cfg.cl_bytes});
    }
    if (i % 4 == 0) {
      const uint64_t cold = 32 + (i * 37) % (cfg.bursts_per_stack - 32);
      v.push_back({v.size(), v.size() / cfg.lanes, 4, cold * cfg.burst_bytes});
    }
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) {
      out_path = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--out FILE]\n", argv[0]);
      return 2;
    }
  }
  std::vector<Result> results;
  for (const Config* cfg : {&flint::kSmallConfig, &flint::kMediumConfig, &flint::kPaperConfig}) {
    const std::string n(cfg->name);
    const uint64_t bursts = cfg == &flint::kPaperConfig ? 64 : std::min<uint64_t>(cfg->bursts_per_stack, 512);
    BbcOptions opt;
    opt.loaded_bursts = std::min<uint64_t>(cfg->bursts_per_stack, 4096);
    const Outcome o = RunStream(*cfg, opt, Sweep(*cfg, bursts), kSpeedReps);
    const double cycles = static_cast<double>(o.stats.last_cycle - o.stats.first_cycle);
    const double ideal = static_cast<double>(cfg->t_read_cycles + bursts * cfg->burst_period_cycles);
    results.push_back({n + " sweep cycles per burst", cycles / static_cast<double>(bursts), "cycles",
                       std::to_string(bursts) + " bursts, tR first"});
    results.push_back({n + " sweep ideal cycles per burst", ideal / static_cast<double>(bursts),
                       "cycles", "(tR + bursts x max(drain, tR) + xfer) / bursts"});
    results.push_back({n + " sweep share of tR-bound peak", 100.0 * ideal / cycles, "%", ""});
    results.push_back({n + " model speed", static_cast<double>(o.stats.requests) / o.seconds,
                       "requests/s", "sweep, data read and decoded; best of 5, CPU time"});
    opt.check_data = false;
    const Outcome t = RunStream(*cfg, opt, Sweep(*cfg, bursts), kSpeedReps);
    results.push_back({n + " model speed, timing only",
                       static_cast<double>(t.stats.requests) / t.seconds, "requests/s",
                       "ratio to data-checked: " + std::to_string(o.seconds / t.seconds)});
  }
  const Config& small = flint::kSmallConfig;
  struct Stream {
    const char* name;
    std::vector<BbcRequest> reqs;
  };
  const std::vector<Stream> streams = {{"8 walkers", Walkers(small, 8, 2)},
                                       {"32 walkers", Walkers(small, 32, 1)},
                                       {"hot-cold", HotCold(small)}};
  for (const Stream& s : streams) {
    double fetched[2] = {0, 0};
    for (BbcPolicy p : {BbcPolicy::kFcfs, BbcPolicy::kMostPending}) {
      BbcOptions opt;
      opt.policy = p;
      opt.crq_entries = 4 * small.cl_per_burst;
      const Outcome o = RunStream(small, opt, s.reqs);
      const std::string k = std::string("small ") + s.name + " " + std::string(ToString(p));
      results.push_back({k + " re-fetch share", 100.0 * o.stats.bursts_refetched /
                                                    static_cast<double>(o.stats.bursts_fetched),
                         "%", std::to_string(o.stats.bursts_fetched) + " bursts fetched"});
      results.push_back({k + " useful fraction",
                         100.0 * static_cast<double>(o.stats.useful_bytes) /
                             static_cast<double>(o.stats.fetched_bytes),
                         "%", "useful bytes / fetched bytes"});
      fetched[p == BbcPolicy::kMostPending] = static_cast<double>(o.stats.bursts_fetched);
    }
    results.push_back({std::string("small ") + s.name + " fetches fcfs / most-pending",
                       fetched[0] / fetched[1], "x", "same stream, one run"});
  }
  flint::bench::PrintResults(results);
  if (!out_path.empty() &&
      !flint::bench::WriteResults(out_path, "bench_bbc", "bbc_model",
                                  "Burst-buffer controller golden model (model/bbc, docs/bbc.md): "
                                  "sweep at the tR-bound peak, re-fetch per policy on multi-SM "
                                  "streams, host speed.",
                                  results)) {
    return 1;
  }
  return 0;
}
