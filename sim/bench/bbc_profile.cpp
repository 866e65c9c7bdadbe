// bbc_profile: the bench's sweep (bbc_bench.cpp, "model speed" rows) once, at one config, for a
// profiler: requests per second (wall and CPU) on stdout. Not a bench_* (scripts/bench.py does
// not run it). Instructions a request, repeatable on a shared machine: the "Collected" count of
//   valgrind --tool=callgrind "--toggle-collect=flint::model::BbcModel::Run(*"
//            build/sim/bench/bbc_profile --config paper --timing-only
// (one command line) over the requests it prints.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"

int main(int argc, char** argv) {
  using flint::model::BbcRequest;
  const flint::Config* cfg = &flint::kPaperConfig;
  bool check = true;
  uint64_t bursts = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--config" && i + 1 < argc) {
      const std::string c = argv[++i];
      cfg = c == "small" ? &flint::kSmallConfig : c == "medium" ? &flint::kMediumConfig
                                                                : &flint::kPaperConfig;
    } else if (a == "--timing-only") {
      check = false;
    } else if (a == "--bursts" && i + 1 < argc) {
      bursts = std::stoull(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--config small|medium|paper] [--timing-only] [--bursts N]\n",
                   argv[0]);
      return 2;
    }
  }
  // The bench's sweep: 64 bursts at paper, up to 512 elsewhere.
  if (bursts == 0) {
    bursts = cfg == &flint::kPaperConfig ? 64 : std::min<uint64_t>(cfg->bursts_per_stack, 512);
  }
  std::vector<BbcRequest> reqs;
  for (uint64_t i = 0; i < bursts * cfg->cl_per_burst; ++i) {
    reqs.push_back({i, 0, static_cast<uint32_t>(i % 148), i * cfg->cl_bytes});
  }
  flint::model::BbcOptions opt;
  opt.loaded_bursts = std::min<uint64_t>(cfg->bursts_per_stack, 4096);
  opt.check_data = check;
  flint::model::BbcModel bbc(*cfg, opt);
  bbc.Load();
  size_t next = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  bbc.Run([&]() -> std::optional<BbcRequest> {
            if (next == reqs.size()) return std::nullopt;
            return reqs[next++];
          },
          [](const flint::model::BbcResponse&) {});
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const auto& s = bbc.stats();
  std::printf("%s %s: %llu requests, %llu bursts, last cycle %llu; %.3e requests/s wall, "
              "%.3e CPU\n",
              std::string(cfg->name).c_str(), check ? "data-checked" : "timing-only",
              static_cast<unsigned long long>(s.requests),
              static_cast<unsigned long long>(s.bursts_fetched),
              static_cast<unsigned long long>(s.last_cycle),
              static_cast<double>(s.requests) / wall, static_cast<double>(s.requests) / cpu);
  return 0;
}
