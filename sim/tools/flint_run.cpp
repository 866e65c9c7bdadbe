// flint-run: the main job on its built-in default workload, until the full flint-sim lands.
//
// Loads every burst of one stack into the NAND die models with the paper's striping (burst b ->
// block b / PAGES, page b mod PAGES; slice s on die s / PLANES, plane s mod PLANES), then sweeps
// the whole stack in order with multi-plane cache reads (the next burst's sense overlapping the
// drain of the current one) and checks the data of one cache line per slice against the
// procedural contents. Prints achieved vs ideal cycles per burst, bandwidth and NAND energy.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "sim/tools/cli.hpp"
#include "model/nand/nand_die.hpp"
#include "model/nand/page_content.hpp"

namespace {

constexpr const char* kUsage =
    "usage: flint-run [--config small|medium|paper] [--bursts N]\n"
    "Loads every burst of one stack into the NAND die models and sweeps them in order with\n"
    "multi-plane cache reads, checking one line per slice; prints achieved vs ideal cycles per\n"
    "burst, bandwidth and NAND energy. Progress on stderr.\n"
    "  --config NAME  configs/NAME.toml (default small)\n"
    "  --bursts N     sweep only the first N bursts (default every burst of the stack)\n"
    "  --help         this text\n";

int Usage(const char* why) {
  std::fprintf(stderr, "flint-run: %s\n%s", why, kUsage);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string config_name = "small";
  uint64_t bursts_arg = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (a == "--config" && i + 1 < argc) {
      config_name = argv[++i];
    } else if (a == "--bursts" && i + 1 < argc) {
      char* end = nullptr;
      bursts_arg = std::strtoull(argv[++i], &end, 10);
      if (end == nullptr || *end != '\0' || bursts_arg == 0) return Usage("--bursts takes N > 0");
    } else {
      return Usage(("unknown argument '" + a + "'").c_str());
    }
  }
  const flint::Config* cfg = flint::FindConfig(config_name);
  if (cfg == nullptr) return Usage(("no config named '" + config_name + "'").c_str());
  const flint::Config& c = *cfg;
  const uint64_t bursts = bursts_arg ? std::min(bursts_arg, c.bursts_per_stack) : c.bursts_per_stack;

  std::vector<flint::model::NandDie> dies;
  for (uint32_t d = 0; d < c.dies; ++d) dies.emplace_back(c, d, /*seed=*/1);

  // Model load: whole blocks in order (the fast path), one tagged slice per plane.
  uint64_t now = 0;  // load programs each plane back to back from cycle 0
  for (uint32_t d = 0; d < c.dies; ++d) {
    uint64_t t = 0;  // a die takes commands in time order; planes program in parallel
    for (uint32_t blk = 0; blk < c.blocks; ++blk) {
      for (uint32_t p = 0; p < c.planes; ++p) {
        const flint::model::PageTag base{uint64_t{blk} * c.pages,
                                         static_cast<uint32_t>(d * c.planes + p), 0};
        t = std::max({t, dies[d].PlaneReadyAt(p), dies[d].IoBusyUntil()});
        const auto r = dies[d].ProgramBlockTagged(p, blk, base, static_cast<uint32_t>(c.pages), t);
        if (!r.pass) {
          std::fprintf(stderr, "flint-run: program failed on die %u plane %u block %u\n", d, p, blk);
          return 1;
        }
      }
    }
  }
  for (auto& die : dies) {
    for (uint32_t p = 0; p < c.planes; ++p) now = std::max(now, die.PlaneReadyAt(p));
  }
  const uint64_t start = now;

  // Sweep: every die runs the same burst sequence; a burst is done when every die drained it.
  std::vector<flint::model::PlaneBlock> targets(c.planes);
  std::vector<uint32_t> planes(c.planes);
  for (uint32_t p = 0; p < c.planes; ++p) planes[p] = p;
  auto stripe = [&](uint64_t b) {
    for (uint32_t p = 0; p < c.planes; ++p) targets[p] = {p, static_cast<uint32_t>(b / c.pages)};
    return static_cast<uint32_t>(b % c.pages);
  };
  uint64_t mismatches = 0, noisy = 0, checked = 0, end = start;
  std::vector<uint8_t> line(c.cl_image_bytes);
  flint::cli::Progress progress("flint-run", uint64_t{c.dies}, 5.0);
  for (uint32_t d = 0; d < c.dies; ++d) {
    progress.Step(d, "dies swept");
    auto& die = dies[d];
    uint64_t t = die.Read(targets, stripe(0), start);
    for (uint64_t b = 0; b < bursts; ++b) {
      const bool last = (b + 1 == bursts);
      const auto move = last ? die.CacheEnd(planes, t) : die.CacheRead(targets, stripe(b + 1), t);
      if (!last) stripe(b + 1);
      uint64_t io = std::max(move.cache_ready_at, die.IoBusyUntil());
      for (uint32_t p = 0; p < c.planes; ++p) {
        // The first line of each slice is read with bytes and checked; the rest timing only.
        io = die.DataOut(p, 0, static_cast<uint32_t>(c.cl_image_bytes), io, line.data());
        const flint::model::PageTag tag{b, d * static_cast<uint32_t>(c.planes) + p, 0};
        std::vector<uint8_t> want = flint::model::ExpectedLineImage(c, tag, 0, die.spare_fn());
        // Raw bit errors of the error model show up as a few flipped bits (no ECC on this
        // path); a line with many wrong bits is wrong content.
        uint32_t bad_bits = 0;
        for (size_t i = 0; i < line.size(); ++i) bad_bits += __builtin_popcount(want[i] ^ line[i]);
        noisy += (bad_bits > 0 && bad_bits <= 8);
        mismatches += (bad_bits > 8);
        ++checked;
        const uint32_t rest = static_cast<uint32_t>(c.page_image_bytes - c.cl_image_bytes);
        io = die.DataOut(p, static_cast<uint32_t>(c.cl_image_bytes), rest, io, nullptr);
      }
      t = std::max(io, move.array_ready_at);
    }
    end = std::max(end, t);
  }
  progress.Step(c.dies, "dies swept");

  const double cycles_per_burst = static_cast<double>(end - start) / static_cast<double>(bursts);
  const double ideal = static_cast<double>(c.burst_period_cycles);
  const double seconds = static_cast<double>(end - start) / (c.clock_mhz * 1e6);
  const double bytes = static_cast<double>(bursts) * c.burst_bytes;
  double energy_j = 0;
  for (const auto& die : dies) energy_j += die.Energy().TotalPj() * 1e-12;
  std::printf("flint-run: config %s (%s)\n", std::string(c.name).c_str(),
              std::string(c.description).c_str());
  std::printf("  loaded      %llu bursts of %llu B (%llu dies x %llu planes, +1 phantom each)\n",
              static_cast<unsigned long long>(c.bursts_per_stack),
              static_cast<unsigned long long>(c.burst_bytes),
              static_cast<unsigned long long>(c.dies), static_cast<unsigned long long>(c.planes));
  std::printf("  swept       %llu bursts in %llu cycles\n", static_cast<unsigned long long>(bursts),
              static_cast<unsigned long long>(end - start));
  std::printf("  per burst   %.2f cycles achieved, %.0f ideal (max(drain, tR) + transfer): %.2f %%\n",
              cycles_per_burst, ideal, 100.0 * ideal / cycles_per_burst);
  std::printf("  bandwidth   %.3f GB/s of data (link peak %.3f GB/s)\n", bytes / seconds / 1e9,
              static_cast<double>(c.link_bytes_per_cycle) * c.clock_mhz * 1e6 / 1e9);
  std::printf("  data check  %llu lines checked: %llu with raw bit errors, %llu wrong\n",
              static_cast<unsigned long long>(checked), static_cast<unsigned long long>(noisy),
              static_cast<unsigned long long>(mismatches));
  std::printf("  NAND energy %.3f mJ (load and sweep)\n", energy_j * 1e3);
  return mismatches == 0 ? 0 : 1;
}
