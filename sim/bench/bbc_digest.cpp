// bbc_digest: one line per stream with a digest of everything the BBC golden model (model/bbc)
// produces on it: every response in sink order (id, accept cycle, cycle, status, mismatch,
// re-fetch), the statistics, the burst sequence and each die's NAND counters. A change meant to
// be behaviour-neutral (a speed-up) must leave every line unchanged:
//   bbc_digest > before.txt; (rebuild); bbc_digest > after.txt; diff before.txt after.txt
// or scripts/bbc_digest_check.sh. Not a bench_* (scripts/bench.py does not run it); --quick
// skips the paper streams.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"

namespace {

using flint::Config;
using flint::model::BbcModel;
using flint::model::BbcOptions;
using flint::model::BbcPolicy;
using flint::model::BbcRequest;
using flint::model::BbcResponse;

// FNV-1a over 64-bit words.
struct Digest {
  uint64_t h = 1469598103934665603ull;
  void Add(uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  }
};

void RunOne(const std::string& name, const Config& cfg, const BbcOptions& opt,
            const std::vector<BbcRequest>& reqs) {
  BbcModel bbc(cfg, opt);
  bbc.Load();
  size_t next = 0;
  Digest resp;
  uint64_t n = 0;
  bbc.Run([&]() -> std::optional<BbcRequest> {
            if (next == reqs.size()) return std::nullopt;
            return reqs[next++];
          },
          [&](const BbcResponse& r) {
            resp.Add(r.id);
            resp.Add(r.accept_cycle);
            resp.Add(r.cycle);
            resp.Add(static_cast<uint64_t>(r.status));
            resp.Add(r.data_mismatch);
            resp.Add(r.refetch);
            ++n;
          });
  const auto& s = bbc.stats();
  Digest st;
  for (uint64_t v : {s.requests, s.responses, s.status_counts[0], s.status_counts[1],
                     s.status_counts[2], s.status_counts[3], s.status_counts[4], s.data_mismatches,
                     s.bursts_fetched, s.bursts_refetched, s.hits, s.useful_bytes, s.fetched_bytes,
                     s.link_busy_slots, s.queue_high_water, s.bursts_in_flight_high_water,
                     s.die_queue_high_water, s.first_cycle, s.last_cycle,
                     s.age_cap_displacements, s.load_cycles}) {
    st.Add(v);
  }
  Digest seq;
  for (uint64_t b : bbc.burst_sequence()) seq.Add(b);
  Digest nand;
  for (const auto& die : bbc.dies()) {
    const auto& c = die.counters();
    for (uint64_t v : {c.read_cmds, c.cache_read_cmds, c.cache_end_cmds, c.data_out_cmds,
                       c.program_cmds, c.erase_cmds, c.senses, c.cache_xfers, c.sensed_bytes,
                       c.out_bytes, c.programmed_bytes, c.program_fails, c.erase_fails}) {
      nand.Add(v);
    }
    nand.Add(die.IoBusyUntil());
  }
  std::printf("%-40s n=%-8llu resp=%016llx stats=%016llx seq=%016llx nand=%016llx "
              "bursts=%llu refetched=%llu displaced=%llu cycles=%llu..%llu\n",
              name.c_str(), static_cast<unsigned long long>(n),
              static_cast<unsigned long long>(resp.h), static_cast<unsigned long long>(st.h),
              static_cast<unsigned long long>(seq.h), static_cast<unsigned long long>(nand.h),
              static_cast<unsigned long long>(s.bursts_fetched),
              static_cast<unsigned long long>(s.bursts_refetched),
              static_cast<unsigned long long>(s.age_cap_displacements),
              static_cast<unsigned long long>(s.first_cycle),
              static_cast<unsigned long long>(s.last_cycle));
  std::fflush(stdout);
}

// Every line of `bursts` bursts in address order (the bench's sweep).
std::vector<BbcRequest> Sweep(const Config& cfg, uint64_t bursts) {
  std::vector<BbcRequest> v;
  for (uint64_t i = 0; i < bursts * cfg.cl_per_burst; ++i) {
    v.push_back({i, 0, static_cast<uint32_t>(i % 148), i * cfg.cl_bytes});
  }
  return v;
}

// `sms` SMs walking `span` bursts each, round robin (the bench's walkers).
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

// Random lines of `hot` bursts, with gaps, some out of range or past the loaded bursts.
std::vector<BbcRequest> Random(const Config& cfg, uint64_t n, uint64_t hot, uint64_t seed,
                               uint64_t max_gap) {
  std::mt19937_64 rng(seed);
  std::vector<BbcRequest> v;
  uint64_t cycle = 0;
  for (uint64_t i = 0; i < n; ++i) {
    cycle += rng() % (max_gap + 1);
    uint64_t addr = (rng() % hot) * cfg.burst_bytes + (rng() % cfg.cl_per_burst) * cfg.cl_bytes;
    const uint64_t odd = rng() % 200;
    if (odd == 0) addr = cfg.stack_bytes + rng() % 4096;                // out of range
    if (odd == 1) addr = (cfg.bursts_per_stack - 1) * cfg.burst_bytes;  // maybe not loaded
    v.push_back({i, cycle, static_cast<uint32_t>(rng() % 148), addr});
  }
  return v;
}

// A hog: every lane every cycle asks for a line of burst 0 (more than a die serves), and every
// `every` cycles one request asks for another burst, so NEXT waits past the age cap while ACTIVE
// still has requests (age-cap displacements).
std::vector<BbcRequest> Hog(const Config& cfg, uint64_t cycles, uint64_t every) {
  std::vector<BbcRequest> v;
  for (uint64_t c = 0; c < cycles; ++c) {
    for (uint64_t l = 0; l < cfg.lanes; ++l) {
      v.push_back({v.size(), c, 0, ((c * cfg.lanes + l) % cfg.cl_per_burst) * cfg.cl_bytes});
    }
    if (c % every == 0) {
      v.push_back({v.size(), c, 1, (1 + (c / every) % 5) * cfg.burst_bytes + cfg.cl_bytes});
    }
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  for (const Config* cfg : {&flint::kSmallConfig, &flint::kMediumConfig, &flint::kPaperConfig}) {
    const std::string n(cfg->name);
    const bool paper = cfg == &flint::kPaperConfig;
    if (paper && quick) continue;
    for (bool check : {true, false}) {
      for (BbcPolicy p : {BbcPolicy::kFcfs, BbcPolicy::kMostPending}) {
        BbcOptions opt;
        opt.policy = p;
        opt.check_data = check;
        opt.loaded_bursts = std::min<uint64_t>(cfg->bursts_per_stack, paper ? 256 : 4096);
        const std::string k = n + (check ? " data " : " timing ") + std::string(ToString(p));
        if (!paper || !check) RunOne(k + " sweep", *cfg, opt, Sweep(*cfg, paper ? 8 : 64));
        RunOne(k + " walkers", *cfg, opt, Walkers(*cfg, paper ? 4 : 8, 1));
        const uint64_t hot = std::min<uint64_t>(opt.loaded_bursts, 12);
        RunOne(k + " random", *cfg, opt, Random(*cfg, paper ? 100000 : 20000, hot, 7, 2));
        RunOne(k + " random sparse", *cfg, opt, Random(*cfg, 5000, hot, 11, 400));
        opt.crq_entries = 4 * cfg->cl_per_burst;
        opt.age_cap_cycles = cfg->burst_period_cycles;
        opt.hold_cycles = 3;
        opt.placement = flint::model::BurstPlacement::kLinear;
        opt.seed = 5;
        RunOne(k + " random capped", *cfg, opt, Random(*cfg, paper ? 50000 : 20000, hot, 13, 1));
        RunOne(k + " hog capped", *cfg, opt, Hog(*cfg, paper ? 20000 : 5000, 50));
      }
    }
  }
  return 0;
}
