// bench_rtl_speed (make bench): how fast the Verilated RTL simulates, and what it costs.
//  - The BBC top (flint_bbc) on a saturating sweep at small and medium, and the stack top
//    (flint_top, NAND models on both ports, refresh on) at small_refresh, every response checked
//    by the same testbenches the tests use: cycles a second and requests a second.
//  - Each beside a copy of the same design Verilated with coverage (the coverage build's
//    instrumentation), and the BBC top at medium beside a copy with Verilator threads: the
//    ratios are measured in one run, so they hold on a noisy machine where the absolutes do not.
//  - Each beside the golden model (BbcModel) on the same stream: RTL / model speed.
//  - Verilator's estimate of one full evaluation ("Instruction count, fast critical" of its
//    --stats file) and the generated C++ size, so the headroom left to one evaluation a clock
//    edge is known.
// A hidden test case (tag [.bench]) of an executable built only by make bench, so that it can
// use the Catch2 testbenches; the `bench_rtl_speed` script runs it with FLINT_BENCH_OUT.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "Vbbc_medium.h"
#include "Vbbc_medium_cov.h"
#include "Vbbc_medium_t2.h"
#include "Vbbc_small.h"
#include "Vbbc_small_cov.h"
#include "Vtop_sr.h"
#include "Vtop_sr_cov.h"
#include "flint_config.hpp"
#include "tb/bbc/bbc_top_tb.hpp"
#include "tb/common/harness.hpp"
#include "verif/bench_report.hpp"
#include "verif/top/stimulus.hpp"

namespace {

using flint::Config;
using flint::model::BbcRequest;
using Clock = std::chrono::steady_clock;

std::vector<flint::bench::Result> g_res;

// The process's CPU time: on a shared machine the wall clock also counts the time other jobs
// held the core, so single-threaded speeds are CPU time; a threaded model is timed by the wall
// clock (its CPU time counts every thread), and so is the one-thread run it is compared with.
double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Stopwatch {
  Clock::time_point wall0 = Clock::now();
  double cpu0 = CpuSeconds();
  double Wall() const { return std::chrono::duration<double>(Clock::now() - wall0).count(); }
  double Cpu() const { return CpuSeconds() - cpu0; }
};

void Add(const std::string& m, double v, const std::string& unit, const std::string& note = "") {
  g_res.push_back({m, v, unit, note});
}

// Verilator's static figures of a design: the estimated instructions of one full evaluation
// and the bytes of C++ it generated.
void StaticFigures(const std::string& prefix, const std::filesystem::path& d) {
  std::ifstream stats(d / (prefix + "__stats.txt"));
  const std::regex re(R"(Instruction count, fast critical\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+))");
  std::string line;
  double fast = 0;
  while (std::getline(stats, line)) {
    std::smatch m;
    if (std::regex_search(line, m, re)) fast = std::stod(m[5].str());  // after the last stage
  }
  uint64_t bytes = 0;
  for (const auto& e : std::filesystem::directory_iterator(d)) {
    const auto ext = e.path().extension();
    if (ext == ".cpp" || ext == ".h") bytes += e.file_size();
  }
  Add(prefix + ": instructions of one full evaluation", fast, "instructions",
      "Verilator --stats, 'fast critical' after the last stage");
  Add(prefix + ": generated C++", static_cast<double>(bytes) / 1e6, "MB", "");
}

struct Speed {
  double cycles_per_s = 0, requests_per_s = 0, model_requests_per_s = 0;  // CPU time
  double cycles_per_wall_s = 0;
};

// The BBC top's sweep beside the model on the same requests (the model timed apart).
// threaded: the model runs on several threads, so its rows are wall-clock figures.
template <class Dut>
Speed BbcSweep(const std::string& name, const Config& cfg, uint64_t bursts,
               bool threaded = false) {
  const auto reqs = flint::tb::bbctop::Sweep(cfg, 0, bursts);
  const auto opt = flint::tb::bbctop::Quiet({});
  const Stopwatch t0;
  const auto m = flint::tb::bbctop::RunModel(cfg, opt, reqs);
  const double model_s = t0.Cpu();
  flint::tb::bbctop::TopBench<Dut> b(cfg, 1, opt);
  const Stopwatch t1;
  const auto r = b.Run(reqs);
  const double rtl_s = threaded ? t1.Wall() : t1.Cpu();
  const double rtl_wall_s = t1.Wall();
  REQUIRE(r.senses == m.senses);
  Speed sp;
  sp.cycles_per_s = static_cast<double>(r.wall_cycles) / rtl_s;
  sp.cycles_per_wall_s = static_cast<double>(r.wall_cycles) / rtl_wall_s;
  sp.requests_per_s = static_cast<double>(reqs.size()) / rtl_s;
  sp.model_requests_per_s = static_cast<double>(reqs.size()) / model_s;
  const std::string clock = threaded ? "wall clock" : "CPU time";
  Add(name + ": cycles a second", sp.cycles_per_s, "cycles/s",
      std::to_string(bursts) + "-burst sweep, every line checked; " + clock);
  Add(name + ": requests a second", sp.requests_per_s, "requests/s", clock);
  return sp;
}

const Config& kSr = flint::kSmallRefreshConfig;

// The stack top: load through the RTL write path, then back-to-back sweeps of the stack with
// refresh on. Returns cycles a second of the service part.
template <class Dut>
double TopSweeps(const std::string& name, int sweeps) {
  flint::verif::top::TopOptions o;
  o.nand.reliability.base_rber = 0;
  o.nand.reliability.rber_at_limit = 0;
  flint::tb::Harness<Dut> h(1, "top");
  flint::verif::top::TopDriver<Dut, flint::tb::Harness<Dut>> drv(kSr, h, o);
  drv.PowerUp();
  const auto load = drv.Load(kSr.bursts_per_stack, false);
  REQUIRE_FALSE(load.error);
  std::vector<BbcRequest> reqs;
  for (int s = 0; s < sweeps; ++s) {
    for (uint64_t a = 0; a < kSr.bursts_per_stack * kSr.burst_bytes; a += kSr.cl_bytes) {
      reqs.push_back({0, 0, 0, a});
    }
  }
  const uint64_t c0 = h.cycle();
  const Stopwatch t0;
  const auto r = drv.Run(reqs);
  const double s = t0.Cpu();
  REQUIRE(drv.violations().empty());
  REQUIRE(r.responses == reqs.size());
  const double cps = static_cast<double>(h.cycle() - c0) / s;
  Add(name + ": cycles a second", cps, "cycles/s",
      std::to_string(sweeps) + " sweeps of the stack, refresh on, every response checked; "
      "CPU time");
  Add(name + ": requests a second", static_cast<double>(reqs.size()) / s, "requests/s",
      "CPU time");
  return cps;
}

}  // namespace

TEST_CASE("bench: RTL simulation speed", "[.bench]") {
  const Config& sm = flint::kSmallConfig;
  const Config& md = flint::kMediumConfig;
  const Speed small = BbcSweep<Vbbc_small>("BBC top, small", sm, sm.bursts_per_stack);
  const Speed small_cov =
      BbcSweep<Vbbc_small_cov>("BBC top, small, coverage build", sm, sm.bursts_per_stack);
  const Speed medium = BbcSweep<Vbbc_medium>("BBC top, medium", md, 256);
  const Speed medium_cov = BbcSweep<Vbbc_medium_cov>("BBC top, medium, coverage build", md, 256);
  const Speed medium_t2 =
      BbcSweep<Vbbc_medium_t2>("BBC top, medium, 2 threads", md, 256, /*threaded=*/true);
  const double top = TopSweeps<Vtop_sr>("stack top, small_refresh", 4);
  const double top_cov = TopSweeps<Vtop_sr_cov>("stack top, small_refresh, coverage build", 4);
  Add("BBC top, small: speed build / coverage build",
      small.cycles_per_s / small_cov.cycles_per_s, "x", "one run");
  Add("BBC top, medium: speed build / coverage build",
      medium.cycles_per_s / medium_cov.cycles_per_s, "x", "one run");
  Add("BBC top, medium: 2 threads / 1", medium_t2.cycles_per_wall_s / medium.cycles_per_wall_s,
      "x", "--threads 2, one run, wall clock both");
  Add("stack top, small_refresh: speed build / coverage build", top / top_cov, "x", "one run");
  Add("BBC model, small: requests a second", small.model_requests_per_s, "requests/s",
      "the same sweep, every line decoded and checked");
  Add("BBC model, medium: requests a second", medium.model_requests_per_s, "requests/s", "");
  Add("BBC, small: model / RTL speed", small.model_requests_per_s / small.requests_per_s, "x",
      "requests a second, one run");
  Add("BBC, medium: model / RTL speed", medium.model_requests_per_s / medium.requests_per_s, "x",
      "requests a second, one run");
  StaticFigures("Vbbc_small", FLINT_VDIR_Vbbc_small);
  StaticFigures("Vbbc_medium", FLINT_VDIR_Vbbc_medium);
  StaticFigures("Vtop_sr", FLINT_VDIR_Vtop_sr);
  flint::bench::PrintResults(g_res);
  if (const char* out = std::getenv("FLINT_BENCH_OUT")) {
    REQUIRE(flint::bench::WriteResults(out, "bench_rtl_speed", "rtl_speed",
                                       "Verilated RTL simulation speed and cost (tb/bench)",
                                       g_res));
  }
}
