// Micro-benchmark of the NAND die model's speed (host operations per second), for `make bench`.
//
//   bench_nand [--out FILE] [--seconds S] [--rber-table]
//
// Measures, at the small and paper configs: multi-plane cache-read bursts per second (one burst
// = a CacheRead on every logical plane of a die plus the data-out of every plane's page image,
// timing only), data-out image bytes per second (cache lines with their check bytes) with the
// bytes and their bit errors materialised,
// single-page programs per second, and block fast-path programs per second. Writes JSON
// {"name": "nand_die", "description", "results": [{"metric", "value", "unit", "note"}...]} to
// FILE and prints a table.
// --rber-table prints the RBER table of docs/nand_model.md instead.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/nand/nand_die.hpp"
#include "sim/tools/cli.hpp"
#include "verif/bench_report.hpp"

namespace {

using flint::Config;
using flint::model::NandDie;
using flint::model::PageAddr;
using flint::model::PageTag;
using flint::model::PlaneBlock;
using Clock = std::chrono::steady_clock;

using flint::bench::Result;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// A die with every logical plane's blocks loaded (fast path), ready at the returned cycle.
uint64_t Load(NandDie& die) {
  const Config& cfg = die.config();
  uint64_t ready = 0;
  for (uint32_t blk = 0; blk < cfg.blocks; ++blk) {
    for (uint32_t p = 0; p < cfg.planes; ++p) {
      const uint64_t now = std::max({ready, die.PlaneReadyAt(p), die.IoBusyUntil()});
      const PageTag base{uint64_t{blk} * cfg.pages, p, 0};
      die.ProgramBlockTagged(p, blk, base, static_cast<uint32_t>(cfg.pages), now);
    }
  }
  for (uint32_t p = 0; p < cfg.planes; ++p) ready = std::max(ready, die.PlaneReadyAt(p));
  return ready;
}

// Cache-read bursts over the whole die for about `budget` seconds. `materialise`:
// produce every byte read out (cache-line image data-outs, as the BBC drains).
void BurstLoop(const Config& cfg, double budget, bool materialise, std::vector<Result>* out) {
  NandDie die(cfg, 0, 1);
  uint64_t t = Load(die);
  std::vector<PlaneBlock> targets(cfg.planes);
  for (uint32_t p = 0; p < cfg.planes; ++p) targets[p] = PlaneBlock{p, 0};
  std::vector<uint8_t> buf(cfg.page_image_bytes);
  const uint32_t chunk =
      static_cast<uint32_t>(materialise ? cfg.cl_image_bytes : cfg.page_image_bytes);
  t = die.Read(targets, 0, t);
  const uint64_t t_start = t;
  uint64_t bursts = 0, burst_index = 1;
  const auto start = Clock::now();
  double elapsed = 0;
  while (elapsed < budget) {
    for (int rep = 0; rep < 64; ++rep, ++burst_index) {
      const uint64_t b = burst_index % (cfg.blocks * cfg.pages);
      for (auto& tg : targets) tg.block = static_cast<uint32_t>(b / cfg.pages);
      const auto mv = die.CacheRead(targets, static_cast<uint32_t>(b % cfg.pages), t);
      uint64_t io = mv.cache_ready_at;
      for (uint32_t p = 0; p < cfg.planes; ++p) {
        for (uint32_t off = 0; off < cfg.page_image_bytes; off += chunk) {
          io = die.DataOut(p, off, chunk, io, materialise ? buf.data() : nullptr);
        }
      }
      t = std::max(io, mv.array_ready_at);
      ++bursts;
    }
    elapsed = Seconds(start, Clock::now());
  }
  const std::string cfg_name(cfg.name);
  if (materialise) {
    out->push_back({"data_out_bytes_per_s_" + cfg_name,
                    static_cast<double>(die.counters().out_bytes) / elapsed, "B/s",
                    "cache-line image DataOuts (data + check bytes, default 0xFF check "
                    "function) with bytes and bit errors materialised"});
  } else {
    out->push_back({"cache_read_bursts_per_s_" + cfg_name, static_cast<double>(bursts) / elapsed,
                    "bursts/s",
                    "one die: CacheRead on every logical plane + page image DataOuts, timing "
                    "only"});
    out->push_back({"senses_per_s_" + cfg_name,
                    static_cast<double>(die.counters().senses) / elapsed, "senses/s",
                    "page senses of the burst loop"});
    // How much faster than real time the model runs a die's bursts.
    const double sim_s =
        static_cast<double>(t - t_start) / (static_cast<double>(cfg.clock_mhz) * 1e6);
    out->push_back({"burst_speed_vs_real_time_" + cfg_name, sim_s / elapsed, "x",
                    "simulated die time over wall time (a stack of D dies: divide by D)"});
  }
}

void ProgramLoop(const Config& cfg, double budget, std::vector<Result>* out) {
  NandDie die(cfg, 0, 1);
  uint64_t programs = 0, now = 0;
  const auto start = Clock::now();
  double elapsed = 0;
  uint32_t blk = 0;
  while (elapsed < budget) {
    // One block of every plane per round, page by page, then erase them for the next round.
    for (uint32_t page = 0; page < cfg.pages; ++page) {
      for (uint32_t p = 0; p < cfg.phys_planes; ++p) {
        now = std::max({now, die.PlaneReadyAt(p), die.IoBusyUntil()});
        die.ProgramTagged(PageAddr{p, blk, page}, PageTag{uint64_t{blk} * cfg.pages + page, p, 0},
                          now);
        ++programs;
      }
    }
    for (uint32_t p = 0; p < cfg.phys_planes; ++p) {
      now = std::max(now, die.PlaneReadyAt(p));
      die.SetPeCycles(p, blk, 0);  // measure speed, not wear-out: never exhaust the P/E budget
      die.Erase(p, blk, now);
    }
    blk = static_cast<uint32_t>((blk + 1) % cfg.blocks);
    elapsed = Seconds(start, Clock::now());
  }
  out->push_back({"programs_per_s_" + std::string(cfg.name),
                  static_cast<double>(programs) / elapsed, "programs/s",
                  "ProgramTagged page by page on every plane, erases between rounds"});
}

void BlockProgramLoop(const Config& cfg, double budget, std::vector<Result>* out) {
  uint64_t blocks = 0;
  const auto start = Clock::now();
  double elapsed = 0;
  while (elapsed < budget) {
    NandDie die(cfg, 0, 1);  // a fresh die per round: every block programmed once
    Load(die);
    blocks += cfg.planes * cfg.blocks;
    elapsed = Seconds(start, Clock::now());
  }
  out->push_back({"block_programs_per_s_" + std::string(cfg.name),
                  static_cast<double>(blocks) / elapsed, "blocks/s",
                  "ProgramBlockTagged, the model-load fast path"});
}

void PrintRberTable() {
  const Config& cfg = flint::kPaperConfig;
  const flint::model::ErrorModel m(cfg, flint::model::ReliabilityParams{});
  const double day = 86400.0 * static_cast<double>(cfg.clock_mhz) * 1e6;
  std::printf("| senses since erase | age | RBER at 0 P/E | RBER at %llu P/E |\n",
              static_cast<unsigned long long>(cfg.pe_limit));
  std::printf("|---|---|---|---|\n");
  const std::pair<uint64_t, const char*> disturbs[] = {{0, "0"},
                                                       {cfg.disturb_limit / 10, "1e5"},
                                                       {cfg.disturb_limit / 2, "5e5"},
                                                       {cfg.disturb_limit, "1e6 (limit)"},
                                                       {2 * cfg.disturb_limit, "2e6"}};
  const std::pair<double, const char*> ages[] = {
      {0.0, "0"}, {day, "1 day"}, {30 * day, "30 days"}, {365 * day, "1 year (limit)"}};
  for (const auto& [d, dn] : disturbs) {
    for (const auto& [a, an] : ages) {
      if (d != 0 && a != 0.0 && a != 365 * day) continue;  // keep the table short
      const auto age = static_cast<uint64_t>(a);
      std::printf("| %s | %s | %.2e | %.2e |\n", dn, an, m.Rber(d, age, uint64_t{0}),
                  m.Rber(d, age, cfg.pe_limit));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path;
  double seconds = 0.4;
  bool rber_table = false;
  flint::cli::Cli cli("bench_nand", "[options]", "Host speed of the NAND die model.");
  cli.Text("--out", "FILE", "also write the results as JSON to FILE", &out_path)
      .Number("--seconds", "S", "time per measurement", &seconds, 1e-3)
      .Switch("--rber-table", "print the die model's RBER table and exit", &rber_table);
  cli.Parse(argc, argv);
  if (rber_table) {
    PrintRberTable();
    return 0;
  }
  std::vector<Result> results;
  for (const Config* cfg : {&flint::kSmallConfig, &flint::kPaperConfig}) {
    BurstLoop(*cfg, seconds, false, &results);
    BurstLoop(*cfg, seconds, true, &results);
    ProgramLoop(*cfg, seconds, &results);
    BlockProgramLoop(*cfg, seconds, &results);
  }
  flint::bench::PrintResults(results);
  if (!out_path.empty() &&
      !flint::bench::WriteResults(out_path, "bench_nand", "nand_die",
                                  "Host speed of the NAND die model (model/nand, "
                                  "docs/nand_model.md) at the small and paper configs; default "
                                  "error model on.",
                                  results)) {
    return 1;
  }
  return 0;
}
