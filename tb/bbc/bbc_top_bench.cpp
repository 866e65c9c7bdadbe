// bench_bbc_rtl (make bench): the Verilated BBC top (flint_bbc) beside BbcModel on the same
// streams, in one run.
// - Channel utilisation of a saturating sequential sweep at small and medium: RTL and model
//   cycles per burst against the tR-bound ideal (tR + n x burst_period) / n, and the slots
//   the model's stream needed (bursts in flight at once).
// - Re-fetch share and useful fraction of fetched bytes on interleaved multi-SM streams, per
//   scheduling policy, RTL and model.
// - Simulation speed: Verilated cycles per second and requests per second against the model's
//   requests per second (its default data-checked mode), and their ratio.
// A hidden test case of test_bbc (tag [.bench], never run by ctest), so it shares the Verilated
// models and the testbench (tb/bbc/bbc_top_tb.hpp) and its checks (every response once, data
// and status equal to the model's) hold here too. The build writes a `bench_bbc_rtl` script
// that runs it with FLINT_BENCH_OUT naming the JSON file (scripts/bench.py's --out).
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "Vbbc_medium.h"
#include "Vbbc_small.h"
#include "Vbbc_small_fcfs.h"
#include "Vbbc_small_s8.h"
#include "flint_config.hpp"
#include "tb/bbc/bbc_top_tb.hpp"
#include "verif/bench_report.hpp"

namespace {

std::vector<flint::bench::Result> g_results;

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class Dut>
void Sweep(const char* name, const flint::Config& cfg, uint64_t n) {
  using flint::tb::bbctop::Compare;
  const auto reqs = flint::tb::bbctop::Sweep(cfg, 0, n);
  const auto t0 = std::chrono::steady_clock::now();
  const auto [r, m] = Compare<Dut>(cfg, 1, flint::model::BbcOptions{}, reqs);
  const double both = Seconds(t0);
  const double ideal = (static_cast<double>(cfg.t_read_cycles) +
                        static_cast<double>(n) * static_cast<double>(cfg.burst_period_cycles)) /
                       static_cast<double>(n);
  const double rtl = static_cast<double>(r.cycles) / static_cast<double>(n);
  const double model = static_cast<double>(m.stats.last_cycle - m.stats.first_cycle) /
                       static_cast<double>(n);
  const std::string p = std::string(name) + " sweep (" + std::to_string(n) + " bursts): ";
  g_results.push_back({p + "RTL cycles per burst", rtl, "cycles", ""});
  g_results.push_back({p + "model cycles per burst", model, "cycles", ""});
  g_results.push_back({p + "tR-bound ideal", ideal, "cycles", "(tR + n x period) / n"});
  g_results.push_back({p + "RTL share of peak", 100.0 * ideal / rtl, "%", ""});
  g_results.push_back({p + "RTL / model cycles", rtl / model, "x", ""});
  REQUIRE(100.0 * ideal / rtl >= 99.5);  // the target, also a test (bbc_top_test.cpp)
  // Speed: the RTL run's wall time, the model's separately on the same stream.
  const auto t1 = std::chrono::steady_clock::now();
  const auto again = flint::tb::bbctop::RunModel(cfg, flint::tb::bbctop::Quiet({}), reqs);
  const double model_s = Seconds(t1);
  const double rtl_s = both - model_s;  // Compare ran the model once, then the RTL
  const double rtl_cycles = static_cast<double>(r.wall_cycles);
  g_results.push_back({p + "RTL simulation speed", rtl_cycles / rtl_s, "cycles/s",
                       "Verilated, with the NAND die models and every line checked"});
  g_results.push_back({p + "RTL requests per second", static_cast<double>(reqs.size()) / rtl_s,
                       "requests/s", ""});
  g_results.push_back({p + "model requests per second",
                       static_cast<double>(reqs.size()) / model_s, "requests/s",
                       "data-checked"});
  g_results.push_back({p + "model / RTL speed", rtl_s / model_s, "x", "same stream, one run"});
  REQUIRE(again.stats.bursts_fetched == m.stats.bursts_fetched);
}

template <class Dut>
void Streams(const char* name, const flint::Config& cfg, flint::model::BbcPolicy policy,
             uint32_t slots) {
  std::mt19937_64 rng(7);
  flint::model::BbcOptions o;
  o.policy = policy;
  const auto reqs = flint::tb::bbctop::RandomStream(cfg, rng, 8, 32, 20000);
  const auto [r, m] = flint::tb::bbctop::Compare<Dut>(cfg, 1, o, reqs);
  const double served = static_cast<double>(r.status[0] + r.status[1]);
  const double lines_per_burst = static_cast<double>(cfg.burst_bytes / cfg.cl_bytes);
  auto share = [](uint64_t refetched, uint64_t fetched) {
    return fetched ? 100.0 * static_cast<double>(refetched) / static_cast<double>(fetched) : 0.0;
  };
  uint64_t rtl_refetched = 0;
  {
    std::vector<uint8_t> seen(cfg.bursts_per_stack, 0);
    for (uint64_t s : r.senses) {
      rtl_refetched += seen[s];
      seen[s] = 1;
    }
  }
  const std::string p = std::string(name) + ", 8 SMs over 32 bursts, " +
                        std::string(flint::model::ToString(policy)) + ", " +
                        std::to_string(slots) + " slots: ";
  g_results.push_back({p + "RTL senses / model senses",
                       static_cast<double>(r.senses.size()) /
                           static_cast<double>(m.stats.bursts_fetched),
                       "x", ""});
  g_results.push_back({p + "RTL cycles / model cycles",
                       static_cast<double>(r.cycles) /
                           static_cast<double>(m.stats.last_cycle - m.stats.first_cycle),
                       "x", ""});
  g_results.push_back({p + "model bursts in flight, high water",
                       static_cast<double>(m.stats.bursts_in_flight_high_water), "bursts",
                       "slots that never refuse"});
  g_results.push_back({p + "RTL re-fetch share", share(rtl_refetched, r.senses.size()), "%",
                       "of bursts sensed"});
  g_results.push_back({p + "model re-fetch share",
                       share(m.stats.bursts_refetched, m.stats.bursts_fetched), "%", ""});
  g_results.push_back({p + "RTL useful fraction",
                       100.0 * served / (lines_per_burst * static_cast<double>(r.senses.size())),
                       "%", "lines served / lines fetched"});
  g_results.push_back({p + "model useful fraction",
                       100.0 * static_cast<double>(m.stats.useful_bytes) /
                           static_cast<double>(m.stats.fetched_bytes),
                       "%", ""});
}

}  // namespace

TEST_CASE("bench: bbc top", "[.bench]") {
  // The bursts of bench_bbc's model sweep: the whole small stack, 512 of medium's 2048.
  Sweep<Vbbc_small>("small", flint::kSmallConfig, flint::kSmallConfig.bursts_per_stack);
  Sweep<Vbbc_medium>("medium", flint::kMediumConfig, 512);
  const auto slots = static_cast<uint32_t>(flint::kSmallConfig.sched_slots);
  Streams<Vbbc_small_fcfs>("small", flint::kSmallConfig, flint::model::BbcPolicy::kFcfs, slots);
  Streams<Vbbc_small>("small", flint::kSmallConfig, flint::model::BbcPolicy::kMostPending, slots);
  // The slot count's evidence (docs/bbc.md, "Slots"): the same stream with 8 slots.
  Streams<Vbbc_small_s8>("small", flint::kSmallConfig, flint::model::BbcPolicy::kMostPending, 8);
  flint::bench::PrintResults(g_results);
  const char* out = std::getenv("FLINT_BENCH_OUT");
  if (out != nullptr) {
    REQUIRE(flint::bench::WriteResults(out, "bench_bbc_rtl", "bbc_rtl",
                                       "The Verilated BBC top beside the golden model, one run",
                                       g_results));
  }
}
