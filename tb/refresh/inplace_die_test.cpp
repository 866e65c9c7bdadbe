// flint_refresh_inplace_die (one die's in-place refresh, the paper's baselines) on its maintenance
// sequencer, against its golden model (model/refresh/inplace_model.hpp) on every park change,
// transaction, program beat, read line, count reset and halt (tb/refresh/inplace_die_tb.hpp says
// what the bench drives and checks). Directed: one due block (its data back, its errors gone); due
// blocks queued and the scan's order; both baselines' due patterns (burst: a stripe's blocks due
// together; distributed: one at a time); a poisoned line stays uncorrectable; an erase failure
// and a program failure halt with their codes; the park held for the whole block and released
// after. Seeded random: due and limit events, load errors, back-pressure and a failure.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "Vrefresh_inplace.h"
#include "flint_config.hpp"
#include "tb/common/seed.hpp"
#include "tb/refresh/inplace_die_tb.hpp"
#include "tb/refresh/refresh_test.hpp"

namespace {

using Bench = flint::tb::InplaceDieBench<Vrefresh_inplace>;
using Blocks = std::vector<std::pair<uint32_t, uint32_t>>;
using flint::tb::FinishBench;
const flint::Config& Small() { return flint::kSmallConfig; }
constexpr uint32_t kErrProgram = 2;        // flint_pkg::RefreshErrProgram
constexpr uint32_t kErrErase = 3;          // flint_pkg::RefreshErrErase
constexpr uint64_t kBlockCycles = 200000;  // bound on one block's refresh at small

// The cycles the NAND die needs for one block at least: tERASE (the bench's) + Pages x tPROG.
uint64_t MinBlockCycles(const flint::Config& cfg) { return 4000 + cfg.pages * cfg.t_prog_cycles; }

}  // namespace

TEST_CASE("inplace_die: one due block is read out, erased and programmed back in place",
          "[refresh][inplace_die][directed]") {
  const flint::Config& cfg = Small();
  Bench b(cfg, flint::tb::TestSeed());
  b.CorruptLine(1, 3, 0, 0);  // correctable errors: corrected when read, gone after
  b.CorruptLine(1, 3, 9, static_cast<uint32_t>(cfg.cl_per_page - 1));
  b.Enable();
  b.Run(50);
  CHECK(b.dut().park_o == 0);  // nothing due: no park
  b.Due(1, 3);
  b.Limit(2, 6);  // the alarm, no refresh
  REQUIRE_RUN(b, b.RunIdle(kBlockCycles));
  auto& d = b.dut();
  REQUIRE(b.spans().size() == 1);
  const flint::tb::InplaceSpan& s = b.spans()[0];
  INFO("park " << s.park_up << " .. " << s.park_down << ", first ReadPage " << s.first_req
               << ", count reset answered " << s.count_done);
  std::cout << "inplace_die one block: park held " << s.park_down - s.park_up
            << " cycles (tERASE + Pages x tPROG = " << MinBlockCycles(cfg) << ")\n";
  CHECK(b.model().order() == Blocks{{1, 3}});
  CHECK(d.refreshed_o == 1);
  CHECK(d.read_out_o == cfg.pages);
  CHECK(d.programmed_o == cfg.pages);
  CHECK(d.erased_o == 1);
  CHECK(d.poisoned_o == 0);
  CHECK(d.pending_o == 0);
  CHECK(d.limit_o == 1);
  CHECK(d.alarm_o == 1);
  CHECK(d.err_o == 0);
  CHECK(s.park_down - s.park_up >= MinBlockCycles(cfg));
  CHECK(b.CheckBlock(1, 3).empty());  // the load's data, clean: the errors are gone
  b.CheckCounters();
  FinishBench(b);
}

TEST_CASE("inplace_die: due blocks queue and are refreshed one at a time in scan order",
          "[refresh][inplace_die][directed]") {
  const flint::Config& cfg = Small();
  Bench b(cfg, flint::tb::TestSeed());
  b.Enable();
  // Two due together: both wait, one at a time.
  b.Due(0, 2);
  b.Due(3, 5);
  REQUIRE_RUN(b, b.RunUntil([&] { return b.model().busy(); }, 1000, "refreshing"));
  CHECK(b.dut().pending_o == 2);
  REQUIRE_RUN(b, b.RunIdle(3 * kBlockCycles));
  CHECK(b.model().order() == Blocks{{0, 2}, {3, 5}});
  // The scan goes on from the block it refreshed: with 2/4 being refreshed, 0/1 and 3/0 come due;
  // 3/0 is next after 2/4 in index order, 0/1 after the wrap.
  b.Due(2, 4);
  REQUIRE_RUN(b, b.RunUntil([&] { return b.model().busy(); }, 1000, "refreshing"));
  b.Due(0, 1);
  b.Due(3, 0);
  b.Due(0, 1);  // again while due: absorbed
  REQUIRE_RUN(b, b.RunIdle(4 * kBlockCycles));
  CHECK(b.model().order() == Blocks{{0, 2}, {3, 5}, {2, 4}, {3, 0}, {0, 1}});
  auto& d = b.dut();
  CHECK(d.refreshed_o == 5);
  CHECK(d.due_o == 6);
  CHECK(d.pending_o == 0);
  // The park falls after each block and rises again for the next.
  for (size_t i = 1; i < b.spans().size(); ++i) {
    CHECK(b.spans()[i - 1].park_down < b.spans()[i].park_up);
  }
  b.CheckCounters();
  FinishBench(b);
}

TEST_CASE("inplace_die: the baselines' due patterns, burst (a stripe at once) and distributed",
          "[refresh][inplace_die][directed]") {
  // The die has no mode: the read counters' trip points decide when blocks come due
  // (docs/refresh.md). Burst: the blocks of a stripe (block 6 of every logical plane) due in one
  // sweep; distributed: the same blocks due one by one, each after the last one's refresh.
  const flint::Config& cfg = Small();
  Bench burst(cfg, flint::tb::TestSeed());
  burst.Enable();
  for (uint32_t p = 0; p < cfg.planes; ++p) burst.Due(p, 6);
  const uint64_t t0 = burst.cycle();
  REQUIRE_RUN(burst, burst.RunIdle(cfg.planes * kBlockCycles));
  const uint64_t burst_cycles = burst.cycle() - t0;
  Blocks stripe;
  for (uint32_t p = 0; p < cfg.planes; ++p) stripe.emplace_back(p, 6);
  CHECK(burst.model().order() == stripe);
  // Back to back: each park rises within a few cycles of the last one's fall.
  uint64_t longest_gap = 0;
  for (size_t i = 1; i < burst.spans().size(); ++i) {
    longest_gap = std::max(longest_gap, burst.spans()[i].park_up - burst.spans()[i - 1].park_down);
  }
  CHECK(longest_gap <= 2 * cfg.phys_planes * cfg.blocks);
  burst.CheckCounters();
  FinishBench(burst);

  Bench dist(cfg, flint::tb::TestSeed());
  dist.Enable();
  uint64_t busy = 0;
  for (uint32_t p = 0; p < cfg.planes; ++p) {
    dist.Due(p, 6);
    const uint64_t t = dist.cycle();
    REQUIRE_RUN(dist, dist.RunIdle(kBlockCycles));
    busy += dist.cycle() - t;
    dist.Run(5000);  // the die idle between
    CHECK(dist.dut().park_o == 0);
  }
  CHECK(dist.model().order() == stripe);
  std::cout << "inplace_die patterns: burst " << burst_cycles << " cycles for " << cfg.planes
            << " blocks back to back (longest park gap " << longest_gap << "), distributed "
            << busy / cfg.planes << " cycles a block alone\n";
  dist.CheckCounters();
  FinishBench(dist);
}

TEST_CASE("inplace_die: a poisoned line stays uncorrectable through refreshes",
          "[refresh][inplace_die][directed]") {
  const flint::Config& cfg = Small();
  Bench b(cfg, flint::tb::TestSeed());
  b.PoisonLine(2, 7, 5, 3);
  b.PoisonLine(2, 7, 15, 0);
  b.CorruptLine(2, 7, 5, 4);
  b.Enable();
  b.Due(2, 7);
  REQUIRE_RUN(b, b.RunIdle(kBlockCycles));
  CHECK(b.dut().poisoned_o == 2);
  CHECK(b.CheckBlock(2, 7).empty());  // poisoned lines uncorrectable, the others clean
  // Due again (a new erase cycle): the poisoned lines read uncorrectable again, the corrected one
  // now clean (the model checks each line's status).
  b.Due(2, 7);
  REQUIRE_RUN(b, b.RunIdle(kBlockCycles));
  CHECK(b.dut().refreshed_o == 2);
  CHECK(b.dut().poisoned_o == 4);
  CHECK(b.CheckBlock(2, 7).empty());
  b.CheckCounters();
  FinishBench(b);
}

TEST_CASE("inplace_die: an erase failure halts the die with RefreshErrErase",
          "[refresh][inplace_die][directed]") {
  const flint::Config& cfg = Small();
  Bench b(cfg, flint::tb::TestSeed());
  b.FailErase(0);
  b.Enable();
  b.Due(0, 1);
  b.Due(0, 2);
  REQUIRE_RUN(b, b.RunUntil([&] { return b.model().halted(); }, kBlockCycles, "halted"));
  b.Run(30000);  // nothing more: no program, no count reset, no other block
  auto& d = b.dut();
  CHECK(d.err_o == 1);
  CHECK(d.err_code_o == kErrErase);
  CHECK(d.park_o == 0);
  CHECK(d.refreshed_o == 0);
  CHECK(d.erased_o == 1);
  CHECK(d.programmed_o == 0);
  CHECK(d.pending_o == 2);
  b.CheckCounters();
  FinishBench(b);
}

TEST_CASE("inplace_die: a program failure halts the die with RefreshErrProgram",
          "[refresh][inplace_die][directed]") {
  const flint::Config& cfg = Small();
  for (const uint32_t page : {6u, static_cast<uint32_t>(cfg.pages - 1)}) {
    DYNAMIC_SECTION("page " << page) {
      Bench b(cfg, flint::tb::TestSeed());
      b.FailProgram(1, page);  // in the second block refreshed
      b.Enable();
      b.Due(1, 1);
      b.Due(4, 0);
      REQUIRE_RUN(b, b.RunUntil([&] { return b.model().halted(); }, 3 * kBlockCycles, "halted"));
      b.Run(30000);
      auto& d = b.dut();
      CHECK(d.err_o == 1);
      CHECK(d.err_code_o == kErrProgram);
      CHECK(d.park_o == 0);
      CHECK(d.refreshed_o == 1);
      CHECK(d.programmed_o == cfg.pages + page + 1);
      b.CheckCounters();
      FinishBench(b);
    }
  }
}

TEST_CASE("inplace_die: the park is held for the whole block and released after",
          "[refresh][inplace_die][directed]") {
  const flint::Config& cfg = Small();
  Bench b(cfg, flint::tb::TestSeed());
  b.stim().park_delay = 7;  // the controller takes its time to park
  b.stim().cc_ready_p = 0.2;
  b.stim().cc_lat_max = 9;
  b.Enable();
  b.Due(3, 3);
  b.Due(1, 6);
  REQUIRE_RUN(b, b.RunIdle(3 * kBlockCycles));
  REQUIRE(b.spans().size() == 2);
  for (const flint::tb::InplaceSpan& s : b.spans()) {
    INFO("block " << s.plane << "/" << s.block << ": park " << s.park_up << " .. " << s.park_down
                  << ", first ReadPage " << s.first_req << ", count answered " << s.count_done);
    CHECK(s.park_up + 7 < s.first_req);      // nothing before the controller parked
    CHECK(s.count_done < s.park_down);       // held to the count reset's answer
    CHECK(s.park_down <= s.count_done + 2);  // and released at once
  }
  CHECK(b.dut().park_o == 0);
  b.CheckCounters();
  FinishBench(b);
}

TEST_CASE("inplace_die: seeded random due events, load errors and faults against the model",
          "[refresh][inplace_die][random]") {
  const flint::Config& cfg = Small();
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937 rng(seed ^ 0x1a9eU);
  std::uniform_real_distribution<double> u(0, 1);
  const auto plane = [&] { return static_cast<uint32_t>(rng() % cfg.phys_planes); };
  const auto block = [&] { return static_cast<uint32_t>(rng() % cfg.blocks); };
  Bench b(cfg, seed);
  auto& s = b.stim();
  s.park_delay = static_cast<uint32_t>(rng() % 5);
  s.cc_ready_p = 0.3 + 0.7 * u(rng);
  s.cc_lat_max = 1 + static_cast<uint32_t>(rng() % 4);
  const uint32_t corrupt = static_cast<uint32_t>(rng() % 7),
                 poison = static_cast<uint32_t>(rng() % 4);
  for (uint32_t i = 0; i < corrupt + poison; ++i) {
    const uint32_t pl = plane(), bl = block(), pg = static_cast<uint32_t>(rng() % cfg.pages);
    const uint32_t li = static_cast<uint32_t>(rng() % cfg.cl_per_page);
    if (b.model().Poisoned(pl, bl, pg, li)) continue;
    if (i < corrupt) {
      b.CorruptLine(pl, bl, pg, li);
    } else {
      b.PoisonLine(pl, bl, pg, li);
    }
  }
  const uint32_t events = 2 + static_cast<uint32_t>(rng() % 9);
  // A failure, or none: the erase or the program of a page of the n-th block refreshed.
  const uint32_t fault = static_cast<uint32_t>(rng() % 3);
  const uint32_t nth = static_cast<uint32_t>(rng() % events);
  if (fault == 1) b.FailErase(nth);
  if (fault == 2) b.FailProgram(nth, static_cast<uint32_t>(rng() % cfg.pages));
  INFO("events " << events << ", fault " << fault << " of block " << nth << ", corrupt " << corrupt
                 << ", poison " << poison << ", park_delay " << s.park_delay);
  // Some events before the die is enabled; the rest at random times, some in bursts of a cycle
  // apart, a block due again, limit events.
  Blocks due;
  const uint32_t early = static_cast<uint32_t>(rng() % 3);
  for (uint32_t e = 0; e < events && b.Error().empty(); ++e) {
    if (e == early) b.Enable();
    if (e > early && u(rng) < 0.7) b.Run(rng() % 30000);
    if (u(rng) < 0.1) {
      b.Limit(plane(), block());
    } else if (!due.empty() && u(rng) < 0.15) {
      const auto& again = due[rng() % due.size()];
      b.Due(again.first, again.second);
    } else {
      due.emplace_back(plane(), block());
      b.Due(due.back().first, due.back().second);
    }
    b.Run(1);
  }
  if (events <= early) b.Enable();
  b.RunIdle(static_cast<uint64_t>(events + 1) * kBlockCycles);
  b.Run(2000);
  auto& d = b.dut();
  std::cout << "inplace_die random seed " << seed << ": " << events << " events, " << d.refreshed_o
            << " blocks refreshed in " << b.cycle() << " cycles, order";
  for (const auto& [pl, bl] : b.model().order()) std::cout << " " << pl << "/" << bl;
  std::cout << ", poisoned " << d.poisoned_o << (d.err_o ? ", halted code " : "")
            << (d.err_o ? std::to_string(d.err_code_o) : "") << "\n";
  if (!b.model().halted()) CHECK(d.err_o == 0);
  if (b.Error().empty()) b.CheckCounters();
  FinishBench(b);
}
