// test_rtl_speed_quick: the RTL speed sweeps of bench_rtl_speed (rtl_speed_bench.cpp) on the
// speed builds alone, for an A/B comparison of two build trees on one machine: run both
// executables alternately and compare the ratios (docs/build.md, "RTL speed"). Hidden case
// "[.speed]":
//   FLINT_SPEED_DESIGNS  letters of the designs to run: s (BBC top, small, the 128-burst sweep),
//                        m (BBC top, medium, 256 bursts), t (stack top, small_refresh, 4 sweeps);
//                        default "smt"
//   FLINT_SPEED_REPS     times to run each (default 1)
// Prints, per run, cycles a second (CPU time of the run alone, setup excluded) and the cycles
// simulated, which must not differ between the two trees.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "Vbbc_medium.h"
#include "Vbbc_small.h"
#include "Vtop_sr.h"
#include "flint_config.hpp"
#include "tb/bbc/bbc_top_tb.hpp"
#include "tb/common/harness.hpp"
#include "verif/top/stimulus.hpp"

namespace {

using flint::Config;
using flint::model::BbcRequest;

double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Run {
  double cycles_per_s = 0;
  uint64_t cycles = 0;
};

template <class Dut>
Run BbcSweep(const Config& cfg, uint64_t bursts) {
  const auto reqs = flint::tb::bbctop::Sweep(cfg, 0, bursts);
  flint::tb::bbctop::TopBench<Dut> b(cfg, 1, flint::tb::bbctop::Quiet({}));
  const double t0 = CpuSeconds();
  const auto r = b.Run(reqs);
  const double s = CpuSeconds() - t0;
  return {static_cast<double>(r.wall_cycles) / s, r.cycles};
}

template <class Dut>
Run TopSweeps(int sweeps) {
  const Config& cfg = flint::kSmallRefreshConfig;
  flint::verif::top::TopOptions o;
  o.nand.reliability.base_rber = 0;
  o.nand.reliability.rber_at_limit = 0;
  flint::tb::Harness<Dut> h(1, "top");
  flint::verif::top::TopDriver<Dut, flint::tb::Harness<Dut>> drv(cfg, h, o);
  drv.PowerUp();
  REQUIRE_FALSE(drv.Load(cfg.bursts_per_stack, false).error);
  std::vector<BbcRequest> reqs;
  for (int s = 0; s < sweeps; ++s) {
    for (uint64_t a = 0; a < cfg.bursts_per_stack * cfg.burst_bytes; a += cfg.cl_bytes) {
      reqs.push_back({0, 0, 0, a});
    }
  }
  const uint64_t c0 = h.cycle();
  const double t0 = CpuSeconds();
  const auto r = drv.Run(reqs);
  const double s = CpuSeconds() - t0;
  REQUIRE(drv.violations().empty());
  REQUIRE(r.responses == reqs.size());
  return {static_cast<double>(h.cycle() - c0) / s, h.cycle() - c0};
}

void Print(const char* name, const Run& r) {
  std::printf("%-24s %10.4g cycles/s  (%llu cycles)\n", name, r.cycles_per_s,
              static_cast<unsigned long long>(r.cycles));
  std::fflush(stdout);
}

}  // namespace

TEST_CASE("bench: RTL simulation speed, speed builds only", "[.speed]") {
  const char* d = std::getenv("FLINT_SPEED_DESIGNS");
  const std::string designs = d ? d : "smt";
  const char* n = std::getenv("FLINT_SPEED_REPS");
  const int reps = n ? std::atoi(n) : 1;
  const Config& sm = flint::kSmallConfig;
  for (int i = 0; i < reps; ++i) {
    if (designs.find('s') != std::string::npos) {
      Print("BBC top, small", BbcSweep<Vbbc_small>(sm, sm.bursts_per_stack));
    }
    if (designs.find('m') != std::string::npos) {
      Print("BBC top, medium", BbcSweep<Vbbc_medium>(flint::kMediumConfig, 256));
    }
    if (designs.find('t') != std::string::npos) {
      Print("stack top, small_refresh", TopSweeps<Vtop_sr>(4));
    }
  }
}
