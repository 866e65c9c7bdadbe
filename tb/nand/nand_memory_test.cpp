// NAND die model: the paper stack (16 dies, 512 GB of pages) fits in a little host memory.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <random>

#include "tb/common/seed.hpp"
#include "tb/nand/nand_test_util.hpp"

namespace {

using namespace flint::tb::nand;  // NOLINT: test-local helpers
using flint::Config;
using flint::kPaperConfig;

// Resident set size of this process, from /proc/self/statm.
uint64_t RssBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

TEST_CASE("nand: paper stack fully programmed fits well under 1 GB",
          "[nand][nand_memory][corner]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const Config& cfg = kPaperConfig;
  const uint64_t rss_before = RssBytes();
  std::vector<NandDie> dies;
  dies.reserve(cfg.dies);
  for (uint32_t d = 0; d < cfg.dies; ++d) dies.emplace_back(cfg, d, seed, QuietOptions());
  uint64_t empty = 0;
  for (const auto& die : dies) empty += die.FootprintBytes();

  // Every page of every block of every plane (the phantom too), each tagged as model load
  // places it. Die 0 page by page through ProgramTagged (8.6 M programs: the per-page path
  // must be O(1) too); dies 1..15 through the block fast path that model load uses (8448
  // blocks each), which keeps the test to about a second.
  const auto slice_of = [&](uint32_t d, uint32_t p) {
    return static_cast<uint32_t>(d * cfg.phys_planes + p);
  };
  {
    NandDie& die = dies[0];
    uint64_t now = 0;
    for (uint32_t blk = 0; blk < cfg.blocks; ++blk) {
      for (uint32_t page = 0; page < cfg.pages; ++page) {
        for (uint32_t p = 0; p < cfg.phys_planes; ++p) {
          now = std::max({now, die.PlaneReadyAt(p), die.IoBusyUntil()});
          const auto r = die.ProgramTagged(PageAddr{p, blk, page},
                                           LoadTag(cfg, slice_of(0, p), blk, page), now);
          if (!r.pass) FAIL("program failed at plane " << p << " block " << blk);
        }
      }
    }
  }
  for (uint32_t d = 1; d < cfg.dies; ++d) {
    for (uint32_t blk = 0; blk < cfg.blocks; ++blk) {
      for (uint32_t p = 0; p < cfg.phys_planes; ++p) LoadBlock(dies[d], p, blk, slice_of(d, p), 0);
    }
  }
  uint64_t full = 0, programs = 0;
  for (const auto& die : dies) {
    full += die.FootprintBytes();
    programs += die.counters().program_cmds;
  }
  const uint64_t rss_after = RssBytes();
  const uint64_t rss_delta = rss_after > rss_before ? rss_after - rss_before : 0;
  std::printf(
      "nand memory: paper stack, %llu pages programmed (%.0f GiB of pages): model "
      "footprint %.1f MiB (empty %.1f MiB), RSS growth %.1f MiB\n",
      static_cast<unsigned long long>(programs),
      static_cast<double>(programs * cfg.page_bytes) / (1ull << 30),
      static_cast<double>(full) / (1 << 20), static_cast<double>(empty) / (1 << 20),
      static_cast<double>(rss_delta) / (1 << 20));
  CHECK(programs == cfg.dies * cfg.phys_planes * cfg.blocks * cfg.pages);
  // In-order consecutive tags cost nothing beyond the per-block record.
  CHECK(full == empty);
  CHECK(full < (uint64_t{64} << 20));
  CHECK(rss_delta < (uint64_t{1} << 30) / 8);  // "well under 1 GB": under 128 MiB

  // Spot-check what the dies return against the tag function, sensed and read out.
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 64; ++i) {
    const auto d = static_cast<uint32_t>(rng() % cfg.dies);
    const auto p = static_cast<uint32_t>(rng() % cfg.phys_planes);
    const auto blk = static_cast<uint32_t>(rng() % cfg.blocks);
    const auto page = static_cast<uint32_t>(rng() % cfg.pages);
    NandDie& die = dies[d];
    INFO("die " << d << " plane " << p << " block " << blk << " page " << page);
    REQUIRE(die.WritePointer(p, blk) == cfg.pages);
    uint64_t t = std::max({die.PlaneReadyAt(p), die.IoBusyUntil()});
    t = die.Read({PlaneBlock{p, blk}}, page, t);
    t = die.CacheEnd({p}, t).cache_ready_at;
    CHECK(die.DataOutBytes(p, 0, die.page_image_bytes(), t) ==
          Expected(die, LoadTag(cfg, slice_of(d, p), blk, page)));
  }
}
