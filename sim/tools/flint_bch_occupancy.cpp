// flint-bch-occupancy: throughput and correction-path occupancy of the multi-path BCH line
// decoder (sim/studies/bch_occupancy.hpp, docs/ecc.md "The line decoder at line rate"), per
// config (one die: a line image every cl_image_bytes / die_io_bytes_per_cycle cycles), per RBER
// (the NAND model's at the disturb limit, one retention period old, on a fresh block, at half the
// P/E budget and at its end) and per decoder shape (units, Chien width P, buffer depth).
// `make bch-occupancy` prints the tables docs/ecc.md quotes; --check (ctest bch_occupancy_check,
// with --configs paper) fails unless the default shape keeps up at every point, up to twice the
// end-of-life RBER (the margin the code was chosen with).
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/ecc/bch_line_timing.hpp"
#include "model/nand/reliability.hpp"
#include "sim/studies/bch_occupancy.hpp"
#include "sim/tools/cli.hpp"

namespace {

namespace m = flint::model;

struct Point {
  const char* name;
  double rber;
};

std::vector<Point> RberPoints(const flint::Config& cfg) {
  const m::ErrorModel em(cfg, m::ReliabilityParams{});
  return {{"fresh", em.Rber(cfg.disturb_limit, cfg.retention_cycles, uint64_t{0})},
          {"mid", em.Rber(cfg.disturb_limit, cfg.retention_cycles, cfg.pe_limit / 2)},
          {"end of life", em.Rber(cfg.disturb_limit, cfg.retention_cycles, cfg.pe_limit)}};
}

// Keeps up: the die's rate sustained to 0.1 %, no line waiting more than 64 cycles for the
// decoder.
bool KeepsUp(const flint::sim::BchOccupancy& r) { return r.throughput >= 0.999 && r.max_lag <= 64; }

}  // namespace

int main(int argc, char** argv) {
  uint64_t lines = 200000;
  uint64_t seed = 1;
  bool check = false, sweep = true;
  std::string configs = "small,medium,paper";
  flint::cli::Cli cli("flint-bch-occupancy", "[options]",
                      "Throughput and slow-path occupancy of the BCH line decoder per config, "
                      "RBER and decoder shape, from its timing model.");
  cli.Count("--lines", "N", "lines a run", &lines, 1)
      .Count("--seed", "S", "error-weight seed", &seed)
      .Text("--configs", "LIST", "configs, comma separated", &configs)
      .Switch("--check", "only the default shape; fail unless it keeps up (exit 1)", &check);
  cli.Parse(argc, argv);
  if (check) sweep = false;

  const m::BchLineDecParams dflt;
  std::vector<m::BchLineDecParams> shapes;
  if (sweep) {
    for (unsigned depth : {32u, 64u, 128u, 256u}) {
      for (unsigned p : {8u, 16u, 32u}) {
        for (unsigned units : {1u, 2u, 3u, 4u}) {
          m::BchLineDecParams s;
          s.units = units;
          s.p = p;
          s.depth = depth;
          shapes.push_back(s);
        }
      }
    }
  } else {
    shapes.push_back(dflt);
  }

  bool ok = true;
  for (const flint::Config* cfg : flint::kAllConfigs) {
    if (("," + configs + ",").find("," + std::string(cfg->name) + ",") == std::string::npos) {
      continue;
    }
    const uint64_t interval =
        (cfg->cl_image_bytes + cfg->die_io_bytes_per_cycle - 1) / cfg->die_io_bytes_per_cycle;
    std::vector<Point> points = RberPoints(*cfg);
    points.push_back({"2x end of life", 2 * points.back().rber});
    for (const Point& pt : points) {
      std::printf(
          "\n### %.*s, %s: RBER %.3g, a line image every %" PRIu64
          " cycles\n\n| units | P | depth | clean | single | slow | search busy | BM busy | "
          "throughput | max lag | mean / max latency | keeps up |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|\n",
          static_cast<int>(cfg->name.size()), cfg->name.data(), pt.name, pt.rber, interval);
      for (const auto& s : shapes) {
        const auto r = flint::sim::RunBchOccupancy(s, pt.rber, interval, lines, seed);
        const double n = static_cast<double>(r.lines);
        const bool keeps = KeepsUp(r);
        std::printf(
            "| %u | %u | %u | %.2f %% | %.2f %% | %.2f %% | %.1f %% | %.1f %% | %.4f | %" PRIu64
            " | %.1f / %" PRIu64 " | %s |\n",
            s.units, s.p, s.depth, 100.0 * static_cast<double>(r.clean) / n,
            100.0 * static_cast<double>(r.single) / n, 100.0 * static_cast<double>(r.slow) / n,
            100.0 * r.search_busy, 100.0 * r.bm_busy, r.throughput, r.max_lag, r.mean_latency,
            r.max_latency, keeps ? "yes" : "**no**");
        if (check && !keeps) ok = false;
      }
    }
  }
  if (check) {
    std::printf("\ndefault shape (units %u, P %u, depth %u): %s\n", dflt.units, dflt.p, dflt.depth,
                ok ? "keeps up" : "FAILS to keep up");
  }
  return ok ? 0 : 1;
}
