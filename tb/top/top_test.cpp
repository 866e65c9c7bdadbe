// flint_top (the base die of a stack) at config small_refresh, on one NandDie a die: model load,
// service, phantom-plane refresh rotations, injected errors, power loss and reload. The driver
// (verif/top/stimulus.hpp) and its scoreboard (verif/top/scoreboard.hpp) check every NAND
// command, every burst sense's physical pages, every response against the SEC-DED model and the
// loaded weights, and every refresh program, remap and erase; these tests add what each
// behaviour must show.
#include <catch2/catch.hpp>
#include <cstdint>
#include <algorithm>
#include <chrono>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "Vtop_sr.h"
#include "Vtop_sr__Syms.h"  // the fast power-up re-settles the model (verif/top/backdoor.hpp)
#include "Vtop_sr_ipb.h"
#include "Vtop_sr_ipd.h"
#include "Vtop_sr_idle.h"
#include "Vtop_sr_none.h"
#include "flint_config.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
#include "tb/common/seed.hpp"
#include "verif/bench_report.hpp"
#include "verif/top/backdoor.hpp"
#include "verif/top/outputs.hpp"
#include "verif/top/stimulus.hpp"

using flint::Config;
using flint::Status;
using flint::model::BbcRequest;
using flint::verif::top::RunStats;
using flint::verif::top::TopDriver;
using flint::verif::top::TopOptions;

namespace {

const Config& kCfg = flint::kSmallRefreshConfig;

// Quiet dies: no bit errors unless a test asks for them.
TopOptions Quiet() {
  TopOptions o;
  o.nand.reliability.base_rber = 0;
  o.nand.reliability.rber_at_limit = 0;
  return o;
}

template <class Dut>
struct Bench {
  flint::tb::Harness<Dut> h;
  TopDriver<Dut, flint::tb::Harness<Dut>> drv;
  Bench(uint32_t seed, const TopOptions& opt) : h(seed, "top"), drv(kCfg, h, opt) {
    drv.PowerUp();
  }
};

// Every line of bursts [first, first + n) once, in address order, all at cycle `at`.
std::vector<BbcRequest> Sweep(uint64_t first, uint64_t n, uint64_t at = 0) {
  std::vector<BbcRequest> v;
  for (uint64_t a = first * kCfg.burst_bytes; a < (first + n) * kCfg.burst_bytes;
       a += kCfg.cl_bytes) {
    v.push_back({0, at, 0, a});
  }
  return v;
}

template <class D>
void RequireClean(const D& drv) {
  for (const std::string& v : drv.violations()) UNSCOPED_INFO(v);
  REQUIRE(drv.violations().empty());
}

template <class T>
uint64_t Sum(const T& port, uint32_t dies) {
  uint64_t s = 0;
  for (uint32_t k = 0; k < dies; ++k) s += flint::tb::GetBits(port, k * 32, 32);
  return s;
}
template <class T>
uint64_t Min(const T& port, uint32_t dies) {
  uint64_t m = ~uint64_t{0};
  for (uint32_t k = 0; k < dies; ++k) {
    m = std::min<uint64_t>(m, flint::tb::GetBits(port, k * 32, 32));
  }
  return m;
}

void RequireAllOk(const RunStats& r) {
  REQUIRE(r.responses == r.requests);
  REQUIRE(r.data_mismatches == 0);
  REQUIRE(r.model_mismatches == 0);
}

// Adds a run's request, response and status counts to a running total.
void Add(RunStats* total, const RunStats& r) {
  total->requests += r.requests;
  total->responses += r.responses;
  for (int s = 0; s < 5; ++s) total->status[s] += r.status[s];
}

}  // namespace

TEST_CASE("top: model load programs every page where the placement puts it, then serves",
          "[top][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Bench<Vtop_sr> b(seed, Quiet());
  auto& d = b.drv.dut();
  REQUIRE_FALSE(d.load_done_o);
  // Requests before and during the load are answered NOT_LOADED, never served stale.
  const std::vector<uint64_t> during = {0, kCfg.burst_bytes * 3 + 64, 5 * kCfg.cl_bytes};
  const uint64_t n = kCfg.bursts_per_stack;
  const auto load = b.drv.Load(n, false, during);
  REQUIRE_FALSE(load.error);
  REQUIRE(load.not_loaded_during_load == during.size());
  REQUIRE(d.loaded_o == n);
  // Program-bound: a burst's pages program in parallel on every plane, tPROG each.
  INFO("load: " << load.cycles << " cycles, " << load.cycles / n << " a burst");
  REQUIRE(load.cycles >= n * kCfg.t_prog_cycles);
  REQUIRE(load.cycles <= n * (kCfg.t_prog_cycles + 4 * kCfg.cl_per_page * kCfg.planes));
  // Every live block full on every live plane; the phantom plane untouched.
  for (uint32_t k = 0; k < kCfg.dies; ++k) {
    for (uint32_t p = 0; p < kCfg.phys_planes; ++p) {
      for (uint32_t blk = 0; blk < kCfg.blocks; ++blk) {
        REQUIRE(b.drv.die(k).WritePointer(p, blk) == (p < kCfg.planes ? kCfg.pages : 0));
      }
    }
  }
  const RunStats r = b.drv.Run(Sweep(0, n));
  RequireAllOk(r);
  REQUIRE(r.status[0] == r.requests);
  REQUIRE(r.senses == n);
  RequireClean(b.drv);
}

TEST_CASE("top: a partial load pads its blocks, and unloaded and out-of-range addresses answer so",
          "[top][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Bench<Vtop_sr> b(seed, Quiet());
  const uint64_t n = 100;  // 7 live blocks of 16 pages: 12 pad bursts
  REQUIRE_FALSE(b.drv.Load(n, false).error);
  REQUIRE(b.drv.dut().live_blocks_o == 7);
  for (uint32_t p = 0; p < kCfg.planes; ++p) {
    for (uint32_t blk = 0; blk < kCfg.blocks; ++blk) {
      REQUIRE(b.drv.die(0).WritePointer(p, blk) == (blk < 7 ? kCfg.pages : 0));
    }
  }
  std::vector<BbcRequest> reqs = Sweep(n - 2, 2);
  for (const uint64_t a : {n * kCfg.burst_bytes, (kCfg.bursts_per_stack - 1) * kCfg.burst_bytes,
                           kCfg.stack_bytes, kCfg.stack_bytes + 4096 * kCfg.cl_bytes}) {
    reqs.push_back({0, 0, 0, a});
  }
  const RunStats r = b.drv.Run(reqs);
  RequireAllOk(r);
  REQUIRE(r.status[static_cast<int>(Status::kNotLoaded)] == 2);
  REQUIRE(r.status[static_cast<int>(Status::kOutOfRange)] == 2);
  RequireClean(b.drv);
}

TEST_CASE("top: a program failure during load is reported and nothing is served",
          "[top][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  // The loader finds the failed plane after the fact, one plane a cycle: the first plane of the
  // stack, one past a die boundary, and the last logical plane of the last die.
  using Fault = std::tuple<uint32_t, uint32_t, uint32_t>;
  const auto [die, plane, block] =
      GENERATE(Fault{1, 2, 3}, Fault{0, 0, 0},
               Fault{static_cast<uint32_t>(kCfg.dies - 1), static_cast<uint32_t>(kCfg.planes - 1),
                     static_cast<uint32_t>(kCfg.blocks - 1)});
  INFO("fault on die " << die << " plane " << plane << " block " << block);
  Bench<Vtop_sr> b(seed, Quiet());
  b.drv.die(die).InjectFault(plane, block, flint::model::Fault::kProgramFail);
  const auto load = b.drv.Load(kCfg.bursts_per_stack, false);
  auto& d = b.drv.dut();
  REQUIRE(load.error);
  REQUIRE(load.code == 3);
  REQUIRE(d.load_err_die_o == die);
  REQUIRE(d.load_err_plane_o == plane);
  REQUIRE(d.load_err_block_o == block);
  REQUIRE(d.load_err_page_o == 0);  // the block's first program fails
  REQUIRE(d.loaded_o == 0);
  const RunStats r = b.drv.Run(Sweep(0, 1));
  REQUIRE(r.status[static_cast<int>(Status::kNotLoaded)] == r.requests);
}

namespace {

// Every block of every die in the same state: erases, pages programmed, the bytes each holds.
template <class A, class B>
void RequireSameDies(A& a, B& b) {
  uint64_t pages = 0, diffs = 0;
  std::vector<uint8_t> x(kCfg.page_image_bytes), y(kCfg.page_image_bytes);
  for (uint32_t k = 0; k < kCfg.dies; ++k) {
    const auto& da = a.die(k);
    const auto& db = b.die(k);
    for (uint32_t p = 0; p < kCfg.phys_planes; ++p) {
      for (uint32_t blk = 0; blk < kCfg.blocks; ++blk) {
        INFO("die " << k << " plane " << p << " block " << blk);
        REQUIRE(da.PeCycles(p, blk) == db.PeCycles(p, blk));
        REQUIRE(da.WritePointer(p, blk) == db.WritePointer(p, blk));
        REQUIRE(da.DisturbCount(p, blk) == db.DisturbCount(p, blk));
        for (uint32_t pg = 0; pg < da.WritePointer(p, blk); ++pg) {
          const flint::model::PageAddr at{p, blk, pg};
          flint::model::MaterialiseImage(kCfg, da.StoredImage(at), da.spare_fn(), 0, x.size(),
                                         x.data());
          flint::model::MaterialiseImage(kCfg, db.StoredImage(at), db.spare_fn(), 0, y.size(),
                                         y.data());
          ++pages;
          diffs += x != y;
        }
      }
    }
  }
  INFO(diffs << " of " << pages << " programmed pages differ");
  REQUIRE(pages > 0);
  REQUIRE(diffs == 0);
}

}  // namespace

// The fast power-up (verif/top/backdoor.hpp) against the sweeps it stands in for, on two models
// of one seed (the same random initial state): (a) every word and register the backdoor writes
// reads back equal to what the sweeps left, at the same cycle; (b) then a mount and seeded
// rounds of requests and idle time (the scrubber copies, the phantom rotates) give every output
// port equal every cycle, and every response and NAND command passes the scoreboard. The broken
// copy: one stripe-table word off by one plane after the backdoor, which both must catch.
TEST_CASE("top: the fast power-up leaves what the sweeps leave, and the stack then runs alike",
          "[top][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const bool broken = GENERATE(false, true);
  INFO("broken copy " << broken);
  using H = flint::tb::Harness<Vtop_sr>;
  H hs(seed, "top", "_sweep");
  H hf(seed, "top", "_fast");
  TopDriver<Vtop_sr, H> sweep(kCfg, hs, Quiet());
  TopDriver<Vtop_sr, H> fast(kCfg, hf, Quiet());
  sweep.PowerUp();
  fast.PowerUp(/*fast=*/true);
  INFO("ready at " << sweep.now() << " and " << fast.now() << ", backdoor "
                   << fast.backdoor_cycles());
  REQUIRE(fast.backdoor_cycles() == flint::verif::top::BackdoorCycles(kCfg));
  REQUIRE(fast.backdoor_cycles() >= kCfg.bursts_per_stack - 64);
  REQUIRE(fast.now() == sweep.now());
  if (broken) {
    const flint::verif::top::backdoor::Var col(
        hf.dut().contextp(), "flint_top.u_xlat.g_die[0].g_plane[0].u_col", "mem_q");
    col.Set(0, col.Get(0) ^ (uint64_t{1} << 3));  // block 0 of die 0, plane 0: on plane 1
  }

  // (a) Word for word.
  const auto a = flint::verif::top::SweptState(hs.dut().contextp(), kCfg);
  const auto b = flint::verif::top::SweptState(hf.dut().contextp(), kCfg);
  REQUIRE(a.size() == b.size());
  uint64_t words = 0, differ = 0;
  std::string first;
  for (const auto& [name, wa] : a) {
    const auto it = b.find(name);
    REQUIRE(it != b.end());
    REQUIRE(it->second.size() == wa.size());
    for (size_t i = 0; i < wa.size(); ++i) {
      ++words;
      if (wa[i] == it->second[i]) continue;
      if (differ++ == 0) {
        first = name + "[" + std::to_string(i) + "]: sweep " + std::to_string(wa[i]) +
                ", backdoor " + std::to_string(it->second[i]);
      }
    }
  }
  INFO(a.size() << " variables, " << words << " words; first difference " << first);
  REQUIRE(words > 2 * kCfg.bursts_per_stack);
  REQUIRE(differ == (broken ? 1u : 0u));

  // (b) Cycle for cycle: the sweep's model records its outputs, the backdoor's compares.
  std::vector<std::string> trace;
  sweep.on_cycle = [&](auto& d) {
    trace.emplace_back();
    flint::verif::top::AppendOutputs(d.dut(), trace.back());
  };
  size_t at = 0;
  uint64_t diverged = 0;
  bool any_diverged = false;
  std::string now;
  fast.on_cycle = [&](auto& d) {
    now.clear();
    flint::verif::top::AppendOutputs(d.dut(), now);
    if (!any_diverged && (at >= trace.size() || now != trace[at])) {
      any_diverged = true;
      diverged = d.now();
    }
    ++at;
  };
  REQUIRE_FALSE(sweep.Mount(kCfg.bursts_per_stack, false).error);
  std::mt19937_64 rng(seed);
  std::vector<std::vector<BbcRequest>> rounds;
  std::vector<uint64_t> idles;
  for (int round = 0; round < (broken ? 1 : 6); ++round) {
    std::vector<BbcRequest> reqs;
    for (uint64_t k = 0; k < kCfg.bursts_per_stack; ++k) {
      if (rng() % 10 < 3) continue;
      for (const BbcRequest& q : Sweep(k, 1)) reqs.push_back(q);
    }
    rounds.push_back(reqs);
    idles.push_back(rng() % 4000);
  }
  std::vector<RunStats> rs;
  for (size_t r = 0; r < rounds.size(); ++r) {
    rs.push_back(sweep.Run(rounds[r]));
    RequireAllOk(rs.back());
    sweep.Idle(idles[r]);
  }
  RequireClean(sweep);
  if (!broken) REQUIRE(Sum(hs.dut().rf_forked_o, kCfg.dies) > 0);  // refresh ran

  if (broken) {
    // The stack reads block 0's slice from the wrong plane: the outputs part ways (the
    // scoreboard may also stop the run).
    try {
      fast.Mount(kCfg.bursts_per_stack, false);
      fast.Run(rounds[0]);
    } catch (const std::exception& e) {
      INFO(e.what());
    }
    REQUIRE(any_diverged);
    return;
  }
  REQUIRE_FALSE(fast.Mount(kCfg.bursts_per_stack, false).error);
  for (size_t r = 0; r < rounds.size(); ++r) {
    const RunStats f = fast.Run(rounds[r]);
    RequireAllOk(f);
    REQUIRE(f.cycles == rs[r].cycles);
    REQUIRE(f.sense_bursts == rs[r].sense_bursts);
    fast.Idle(idles[r]);
  }
  RequireClean(fast);
  INFO("first divergence at cycle " << diverged);
  REQUIRE_FALSE(any_diverged);
  REQUIRE(at == trace.size());
  REQUIRE(fast.now() == sweep.now());
}

// The mount (simulation's preload, docs/top.md "Mount") against the load it stands for: the dies
// hold the same pages, and the same stream (with refresh forking, scrubbing and rotating) runs
// the same, sense for sense and cycle for cycle, every response checked.
TEST_CASE("top: a mount leaves what a load leaves: the same dies, the same service",
          "[top][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  // A whole stack, and a partial load with pad bursts; with and without the erase.
  const auto [n, erase] = GENERATE(std::tuple<uint64_t, bool>{kCfg.bursts_per_stack, false},
                                   std::tuple<uint64_t, bool>{100, true});
  INFO(n << " bursts, erase " << erase);
  Bench<Vtop_sr> load(seed, Quiet());
  Bench<Vtop_sr> mount(seed, Quiet());
  const auto l = load.drv.Load(n, erase);
  const auto m = mount.drv.Mount(n, erase);
  REQUIRE_FALSE(l.error);
  REQUIRE_FALSE(m.error);
  // The mount writes a BTT entry a cycle, and nothing else.
  INFO("load " << l.cycles << " cycles, mount " << m.cycles);
  REQUIRE(m.cycles <= n + 2);
  REQUIRE(m.cycles >= n);
  auto& dl = load.drv.dut();
  auto& dm = mount.drv.dut();
  REQUIRE(dm.loaded_o == dl.loaded_o);
  REQUIRE(dm.live_blocks_o == dl.live_blocks_o);
  RequireSameDies(load.drv, mount.drv);
  // Service: sweeps that skip bursts, then idle time, then the whole stack and the unloaded
  // bursts: the scrubber copies, the phantom rotates.
  std::mt19937_64 rng(seed);
  uint64_t forked = 0;
  for (int round = 0; round < 6; ++round) {
    std::vector<BbcRequest> reqs;
    for (uint64_t k = 0; k < kCfg.bursts_per_stack; ++k) {
      if (rng() % 10 < 3) continue;
      for (const BbcRequest& q : Sweep(k, 1)) reqs.push_back(q);
    }
    const RunStats a = load.drv.Run(reqs);
    const RunStats b = mount.drv.Run(reqs);
    INFO("round " << round);
    RequireAllOk(a);
    RequireAllOk(b);
    REQUIRE(a.cycles == b.cycles);
    REQUIRE(a.backpressure == b.backpressure);
    REQUIRE(a.sense_bursts == b.sense_bursts);
    for (int st = 0; st < 5; ++st) REQUIRE(a.status[st] == b.status[st]);
    const uint64_t idle = rng() % 4000;
    load.drv.Idle(idle);
    mount.drv.Idle(idle);
    REQUIRE(Sum(dl.rf_forked_o, kCfg.dies) == Sum(dm.rf_forked_o, kCfg.dies));
    REQUIRE(Sum(dl.rf_programmed_o, kCfg.dies) == Sum(dm.rf_programmed_o, kCfg.dies));
    REQUIRE(Sum(dl.rf_rotations_o, kCfg.dies) == Sum(dm.rf_rotations_o, kCfg.dies));
    forked = Sum(dm.rf_forked_o, kCfg.dies);
  }
  REQUIRE(forked > 0);
  REQUIRE(load.drv.copies() == mount.drv.copies());
  REQUIRE(load.drv.remaps() == mount.drv.remaps());
  REQUIRE(dl.stat_park_wait_o == dm.stat_park_wait_o);
  RequireClean(load.drv);
  RequireClean(mount.drv);
}

// A mount of more bursts than the stack holds is refused like such a load; nothing is served.
TEST_CASE("top: a mount of too many bursts is an error", "[top][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Bench<Vtop_sr> b(seed, Quiet());
  const auto m = b.drv.Mount(kCfg.bursts_per_stack + 1, false);
  REQUIRE(m.error);
  REQUIRE(m.code == 1);
  REQUIRE(b.drv.dut().loaded_o == 0);
  const RunStats r = b.drv.Run(Sweep(0, 1));
  REQUIRE(r.status[static_cast<int>(Status::kNotLoaded)] == r.requests);
  RequireClean(b.drv);
}

// The same load and the same back-to-back sweeps on FLINT refresh and on no refresh: the
// foreground sees the same cycles (refresh costs it nothing) while FLINT forks and programs.
TEST_CASE("top: with phantom-plane refresh a saturated sweep runs exactly as without",
          "[top][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const uint64_t n = kCfg.bursts_per_stack;
  std::vector<BbcRequest> reqs;
  for (int s = 0; s < 6; ++s) {
    for (const BbcRequest& q : Sweep(0, n)) reqs.push_back(q);
  }
  Bench<Vtop_sr> on(seed, Quiet());
  Bench<Vtop_sr_none> off(seed, Quiet());
  REQUIRE_FALSE(on.drv.Load(n, false).error);
  REQUIRE_FALSE(off.drv.Load(n, false).error);
  const RunStats a = on.drv.Run(reqs);
  const RunStats z = off.drv.Run(reqs);
  RequireAllOk(a);
  RequireAllOk(z);
  auto& d = on.drv.dut();
  uint64_t forked = 0, programmed = 0;
  for (uint32_t k = 0; k < kCfg.dies; ++k) {
    forked += flint::tb::GetBits(d.rf_forked_o, k * 32, 32);
    programmed += flint::tb::GetBits(d.rf_programmed_o, k * 32, 32);
  }
  const double ideal = static_cast<double>(kCfg.t_read_cycles) / (6.0 * n) +
                       static_cast<double>(kCfg.burst_period_cycles);
  std::printf("sweep x6: FLINT %llu cycles, no refresh %llu cycles (%.3f a burst, ideal %.3f); "
              "FLINT forked %llu pages, programmed %llu, park wait %llu\n",
              static_cast<unsigned long long>(a.cycles), static_cast<unsigned long long>(z.cycles),
              static_cast<double>(a.cycles) / (6.0 * n), ideal,
              static_cast<unsigned long long>(forked), static_cast<unsigned long long>(programmed),
              static_cast<unsigned long long>(d.stat_park_wait_o));
  INFO("phases " << flint::tb::GetBits(d.rf_phase_o, 0, 4) << " "
                  << flint::tb::GetBits(d.rf_phase_o, 4, 4) << " err "
                  << flint::tb::GetBits(d.rf_err_o, 0, 2) << " code "
                  << flint::tb::GetBits(d.rf_err_code_o, 0, 6) << " dropped "
                  << Sum(d.rf_dropped_o, kCfg.dies));
  REQUIRE(forked > 0);
  REQUIRE(programmed > 0);
  REQUIRE(a.cycles == z.cycles);
  REQUIRE(a.sense_bursts == z.sense_bursts);
  REQUIRE(d.stat_park_wait_o == 0);
  REQUIRE(ideal / (static_cast<double>(a.cycles) / (6.0 * n)) >= 0.995);
  RequireClean(on.drv);
  RequireClean(off.drv);
}

namespace {


// Decode-like traffic: sweeps that skip a random share of the bursts (pages the scrubber must
// copy), each followed by a random idle gap (time for the scrubber and the erases).
template <class Dut>
void Churn(Bench<Dut>& b, std::mt19937_64& rng, uint64_t rotations, RunStats* total) {
  auto& d = b.drv.dut();
  uint64_t rounds = 0;
  while (Min(d.rf_rotations_o, kCfg.dies) < rotations) {
    REQUIRE(++rounds < 4000);
    std::vector<BbcRequest> reqs;
    for (uint64_t k = 0; k < kCfg.bursts_per_stack; ++k) {
      if (rng() % 10 < 3) continue;
      for (const BbcRequest& q : Sweep(k, 1)) reqs.push_back(q);
    }
    const RunStats r = b.drv.Run(reqs);
    RequireAllOk(r);
    Add(total, r);
    b.drv.Idle(rng() % 4000);
  }
}

}  // namespace

TEST_CASE("top: rotations move the phantom round the planes, and every read and copy stays right",
          "[top][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  TopOptions opt = Quiet();
  opt.nand.reliability.base_rber = 2e-5;  // single-bit errors here and there: corrected
  Bench<Vtop_sr> b(seed, opt);
  REQUIRE_FALSE(b.drv.Load(kCfg.bursts_per_stack, false).error);
  auto& d = b.drv.dut();
  std::mt19937_64 rng(seed);
  RunStats total;
  const uint64_t want = kCfg.phys_planes;  // every plane once the source: back to the extra one
  Churn(b, rng, want, &total);
  const uint64_t rot = Sum(d.rf_rotations_o, kCfg.dies);
  const uint64_t forked = Sum(d.rf_forked_o, kCfg.dies);
  const uint64_t scrubbed = Sum(d.rf_scrubbed_o, kCfg.dies);
  const uint64_t programmed = Sum(d.rf_programmed_o, kCfg.dies);
  std::printf("rotations %llu (%llu cycles): %llu pages forked, %llu scrubbed, %llu programmed, "
              "%llu erases, %llu remaps; corrected lines %llu; highest read count %llu of %llu; "
              "park wait %llu cycles\n",
              static_cast<unsigned long long>(rot), static_cast<unsigned long long>(b.drv.now()),
              static_cast<unsigned long long>(forked), static_cast<unsigned long long>(scrubbed),
              static_cast<unsigned long long>(programmed),
              static_cast<unsigned long long>(b.drv.refresh_erases()),
              static_cast<unsigned long long>(b.drv.remaps()),
              static_cast<unsigned long long>(total.status[1]),
              static_cast<unsigned long long>(b.drv.MaxDisturb()),
              static_cast<unsigned long long>(kCfg.disturb_limit),
              static_cast<unsigned long long>(d.stat_park_wait_o));
  RequireClean(b.drv);
  REQUIRE(total.responses == total.requests);
  REQUIRE(total.status[1] > 0);
  // Both sources fed the copies, and every queued page reached the phantom.
  REQUIRE(forked > 0);
  REQUIRE(scrubbed > 0);
  REQUIRE(b.drv.copies() == programmed);
  REQUIRE(programmed <= forked + scrubbed);
  REQUIRE(forked + scrubbed <= programmed + kCfg.dies * kCfg.progq_pages);
  REQUIRE(b.drv.remaps() >= rot * kCfg.blocks);
  REQUIRE(b.drv.refresh_erases() == Sum(d.rf_erased_o, kCfg.dies));
  for (uint32_t k = 0; k < kCfg.dies; ++k) {
    REQUIRE(flint::tb::GetBits(d.rf_err_o, k, 1) == 0);
    REQUIRE(flint::tb::GetBits(d.rf_alarm_o, k, 1) == 0);
  }
  // The rotation alone kept every block under the disturb limit.
  REQUIRE(b.drv.MaxDisturb() < kCfg.disturb_limit);
}

TEST_CASE("top: a saturated stream that never reads a block's first page: the scrubber steals "
          "reads to keep the rotation going, where an idle-only scrubber never starts",
          "[top][directed]") {
  // Decode at paper leaves no idle time and reads many blocks' first pages rarely or never
  // (embedding rows, routed experts); forks copy pages in order only, so they stall
  // (docs/refresh.md, "Program-queue demand, measured"). Here every sweep skips burst row 0,
  // page 0 of every block.
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const uint64_t n = kCfg.bursts_per_stack;
  const uint64_t live = flint::model::LiveBlocks(n, kCfg.pages);
  Bench<Vtop_sr> steal(seed, Quiet());
  Bench<Vtop_sr_idle> idle(seed, Quiet());
  REQUIRE_FALSE(steal.drv.Load(n, false).error);
  REQUIRE_FALSE(idle.drv.Load(n, false).error);
  auto& d = steal.drv.dut();
  auto& e = idle.drv.dut();
  // A steal: the scrub reads (maintenance Reads) of one park, a die's each; reads less than a
  // burst period apart belong to one.
  uint64_t steals = 0, last_read = 0;
  steal.drv.on_cycle = [&](auto& drv) {
    auto& t = drv.dut();
    for (uint32_t k = 0; k < kCfg.dies; ++k) {
      if (flint::tb::GetBits(t.nand_m_valid_o, k, 1) &&
          flint::tb::GetBits(t.nand_m_op_o, k * 3, 3) ==
              static_cast<uint64_t>(flint::model::NandCmd::kRead)) {
        if (steals == 0 || drv.now() > last_read + kCfg.burst_period_cycles) ++steals;
        last_read = drv.now();
      }
    }
  };
  // Batches of back-to-back sweeps until every die of the stealing top has copied a whole plane
  // into its phantom; the idle-only top gets the same batches.
  RunStats a, z;
  uint64_t batches = 0;
  while (Min(d.rf_programmed_o, kCfg.dies) < live * kCfg.pages) {
    REQUIRE(++batches <= 40);
    std::vector<BbcRequest> reqs;
    for (int s = 0; s < 8; ++s) {
      for (const BbcRequest& q : Sweep(live, n - live)) reqs.push_back(q);
    }
    const RunStats ra = steal.drv.Run(reqs);
    const RunStats rz = idle.drv.Run(reqs);
    RequireAllOk(ra);
    RequireAllOk(rz);
    a.cycles += ra.cycles;
    z.cycles += rz.cycles;
  }
  const uint64_t scrubbed = Sum(d.rf_scrubbed_o, kCfg.dies);
  const uint64_t forked = Sum(d.rf_forked_o, kCfg.dies);
  const double stall = static_cast<double>(a.cycles - z.cycles) / static_cast<double>(z.cycles);
  const double per_steal =
      steals ? static_cast<double>(a.cycles - z.cycles) / static_cast<double>(steals) : 0.0;
  std::printf(
      "saturated, page 0 never read: stealing top %llu cycles, idle-only %llu (+%.2f %%); "
      "%llu batches of 8 sweeps, %llu pages scrubbed in %llu steals (%.1f cycles, %.2f "
      "burst periods a steal; %.1f cycles a page) and %llu forked, park wait %llu; "
      "idle-only: %llu scrubbed, %llu forked, %llu programmed\n",
      static_cast<unsigned long long>(a.cycles), static_cast<unsigned long long>(z.cycles),
      100.0 * stall, static_cast<unsigned long long>(batches),
      static_cast<unsigned long long>(scrubbed), static_cast<unsigned long long>(steals), per_steal,
      per_steal / static_cast<double>(kCfg.burst_period_cycles),
      scrubbed ? static_cast<double>(a.cycles - z.cycles) / static_cast<double>(scrubbed) : 0.0,
      static_cast<unsigned long long>(forked), static_cast<unsigned long long>(d.stat_park_wait_o),
      static_cast<unsigned long long>(Sum(e.rf_scrubbed_o, kCfg.dies)),
      static_cast<unsigned long long>(Sum(e.rf_forked_o, kCfg.dies)),
      static_cast<unsigned long long>(Sum(e.rf_programmed_o, kCfg.dies)));
  RequireClean(steal.drv);
  RequireClean(idle.drv);
  // Idle-only: no idle time, so no scrub; no page 0, so no fork: the copy never moves.
  REQUIRE(Sum(e.rf_scrubbed_o, kCfg.dies) == 0);
  REQUIRE(Sum(e.rf_forked_o, kCfg.dies) == 0);
  REQUIRE(Sum(e.rf_programmed_o, kCfg.dies) == 0);
  // Stealing: the first pages are scrubbed, the sweep then forks the pages behind them, and
  // every die copied a whole plane.
  REQUIRE(scrubbed >= kCfg.dies * live);
  REQUIRE(forked > 0);
  REQUIRE(steal.drv.copies() == Sum(d.rf_programmed_o, kCfg.dies));
  // The price: the parks, and nothing else. A steal's read takes one slot of the sense pipeline
  // (its sense starts once NEXT has moved, overlapping ACTIVE's service; the next burst is sensed
  // while its lines are read out): a burst period, and at most one more when a die's read joins
  // the park late (each die's scrubber steals on its own); on average close to one. At least one
  // page a steal. The stall is also at least the parked time that requests waited.
  REQUIRE(a.cycles > z.cycles);
  REQUIRE(steals > 0);
  REQUIRE(steals <= scrubbed);
  REQUIRE(a.cycles - z.cycles <= steals * 2 * kCfg.burst_period_cycles);
  REQUIRE(4 * (a.cycles - z.cycles) <= steals * 5 * kCfg.burst_period_cycles);
  REQUIRE(d.stat_park_wait_o > 0);
  REQUIRE(e.stat_park_wait_o == 0);
}

TEST_CASE("top: an uncorrectable line is reported, copied poisoned, and reads back uncorrectable",
          "[top][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Bench<Vtop_sr> b(seed, Quiet());
  REQUIRE_FALSE(b.drv.Load(kCfg.bursts_per_stack, false).error);
  auto& d = b.drv.dut();
  // Burst 19 sits at block 3, page 2 (interleaved over 8 live blocks). On die 0, plane 0 (the
  // first source plane): two flipped bits in one word of line 1 (uncorrectable), one in line 4
  // (corrected); the refresh copy must keep the first uncorrectable and clean the second.
  const uint32_t img_line = static_cast<uint32_t>(kCfg.cl_image_bytes) * 8;
  b.drv.die(0).CorruptPage({0, 3, 2}, {img_line * 1 + 3, img_line * 1 + 40});
  b.drv.die(0).CorruptPage({0, 3, 2}, {img_line * 4 + 10});
  const uint64_t base = 19 * kCfg.burst_bytes;
  auto line = [&](uint64_t l) {
    return std::vector<BbcRequest>{{0, 0, 0, base + l * kCfg.cl_bytes}};
  };
  RunStats r = b.drv.Run(line(1));
  REQUIRE(r.status[static_cast<int>(Status::kUncorrectable)] == 1);
  r = b.drv.Run(line(4));
  REQUIRE(r.status[static_cast<int>(Status::kCorrected)] == 1);
  r = b.drv.Run(line(5));
  REQUIRE(r.status[static_cast<int>(Status::kOk)] == 1);
  // Idle: the scrubber copies plane 0 of each die, the step commits and erases.
  uint64_t guard = 0;
  while (flint::tb::GetBits(d.rf_rotations_o, 0, 32) < 1) {
    REQUIRE(++guard < 200);
    b.drv.Idle(10000);
  }
  REQUIRE(b.drv.scrub_uncorrectable_lines() >= 1);
  REQUIRE(b.drv.poisoned_copy_lines() == b.drv.scrub_uncorrectable_lines());
  REQUIRE(flint::tb::GetBits(d.rf_poisoned_o, 0, 32) == b.drv.scrub_uncorrectable_lines());
  // The copy: line 1 still uncorrectable, line 4 clean now.
  r = b.drv.Run(line(1));
  REQUIRE(r.status[static_cast<int>(Status::kUncorrectable)] == 1);
  r = b.drv.Run(line(4));
  REQUIRE(r.status[static_cast<int>(Status::kOk)] == 1);
  RequireClean(b.drv);
}

namespace {

// Bad blocks during the rotation (docs/refresh.md, Q4 and "Bad blocks during the rotation"):
// flint_pkg::refresh_err_e and flint_pkg::refresh_phase_e values as the tests name them.
constexpr uint32_t kErrProgram = 2;
constexpr uint32_t kErrNoSpare = 5;
constexpr uint32_t kPhaseCopy = 4;
constexpr uint32_t kPhaseHalt = 9;

template <class D>
uint32_t DieField(const D& port, uint32_t k, uint64_t w) {
  return static_cast<uint32_t>(flint::tb::GetBits(port, k * w, w));
}
template <class Dut>
uint32_t ErrCode(const Dut& d, uint32_t k) {
  return flint::tb::GetBits(d.rf_err_o, k, 1) ? DieField(d.rf_err_code_o, k, 3) : 0;
}
template <class Dut>
uint32_t Phantom(const Dut& d, uint32_t k) {
  return DieField(d.rf_phantom_o, k, kCfg.phys_plane_bits);
}

// A program fault on a random block of die k's phantom or an erase fault on a random block of
// its source (even odds), unless that block is bad already: what was injected, or nothing.
struct InjectedFault {
  bool program;
  uint32_t plane, block;
};
template <class Dut>
std::optional<InjectedFault> InjectRefreshFault(Bench<Dut>& b, std::mt19937_64& rng, uint32_t k) {
  auto& d = b.drv.dut();
  const bool prog = rng() % 2 == 0;
  const uint32_t plane = prog ? Phantom(d, k) : DieField(d.rf_source_o, k, kCfg.phys_plane_bits);
  const auto blk = static_cast<uint32_t>(rng() % kCfg.blocks);
  if (b.drv.die(k).IsBad(plane, blk)) return std::nullopt;
  b.drv.die(k).InjectFault(plane, blk, prog ? flint::model::Fault::kProgramFail
                                            : flint::model::Fault::kEraseFail);
  return InjectedFault{prog, plane, blk};
}

// One round of decode-like traffic over the first `bursts` (Churn's): a sweep that skips 30 % of
// them, then up to `idle` idle cycles. Every response checked.
template <class Dut>
void ChurnRound(Bench<Dut>& b, std::mt19937_64& rng, uint64_t bursts, uint64_t idle,
                RunStats* total) {
  std::vector<BbcRequest> reqs;
  for (uint64_t k = 0; k < bursts; ++k) {
    if (rng() % 10 < 3) continue;
    for (const BbcRequest& q : Sweep(k, 1)) reqs.push_back(q);
  }
  const RunStats r = b.drv.Run(reqs);
  RequireAllOk(r);
  Add(total, r);
  b.drv.Idle(rng() % idle);
}

// Traffic until a good block of die k's phantom plane is part-way through its copy (1 to
// Pages - 2 pages programmed), then a program fault on it: its next page fails. The block.
template <class Dut>
uint32_t FailPhantomProgram(Bench<Dut>& b, std::mt19937_64& rng, uint32_t k, uint64_t bursts,
                            RunStats* total) {
  auto& d = b.drv.dut();
  for (int round = 0; round < 400; ++round) {
    const uint32_t p = Phantom(d, k);
    if (DieField(d.rf_phase_o, k, 4) == kPhaseCopy) {
      for (uint32_t blk = 0; blk < kCfg.blocks; ++blk) {
        const uint32_t wp = b.drv.die(k).WritePointer(p, blk);
        if (wp >= 1 && wp + 2 <= kCfg.pages && !b.drv.die(k).IsBad(p, blk)) {
          b.drv.die(k).InjectFault(p, blk, flint::model::Fault::kProgramFail);
          return blk;
        }
      }
    }
    ChurnRound(b, rng, bursts, 1000, total);
  }
  FAIL("no block of the phantom was caught part-way through its copy");
  return 0;
}

// Traffic until die k halts (or `rounds` rounds).
template <class Dut>
void ChurnUntilHalt(Bench<Dut>& b, std::mt19937_64& rng, uint32_t k, uint64_t bursts,
                    RunStats* total) {
  auto& d = b.drv.dut();
  int round = 0;
  while (ErrCode(d, k) == 0) {
    REQUIRE(++round < 2000);
    ChurnRound(b, rng, bursts, 4000, total);
  }
}

// Traffic until die k has rotated `rotations` times.
template <class Dut>
void ChurnUntilRotated(Bench<Dut>& b, std::mt19937_64& rng, uint32_t k, uint64_t rotations,
                       uint64_t bursts, RunStats* total) {
  auto& d = b.drv.dut();
  int round = 0;
  while (DieField(d.rf_rotations_o, k, 32) < rotations) {
    REQUIRE(++round < 2000);
    ChurnRound(b, rng, bursts, 4000, total);
  }
}

// Blocks of die k's plane p whose every page is programmed.
template <class Dut>
uint32_t FullBlocks(Bench<Dut>& b, uint32_t k, uint32_t p) {
  uint32_t n = 0;
  for (uint32_t blk = 0; blk < kCfg.blocks; ++blk) {
    n += b.drv.die(k).WritePointer(p, blk) == kCfg.pages;
  }
  return n;
}

// After a halt: every loaded line read again, all right, and the other die still rotating.
template <class Dut>
void RequireServedAndOtherDieRotates(Bench<Dut>& b, std::mt19937_64& rng, uint64_t bursts,
                                     RunStats* total) {
  auto& d = b.drv.dut();
  const RunStats r = b.drv.Run(Sweep(0, bursts));
  RequireAllOk(r);
  REQUIRE(r.status[static_cast<int>(Status::kOk)] == r.requests);
  ChurnUntilRotated(b, rng, 1, DieField(d.rf_rotations_o, 1, 32) + 1, bursts, total);
  REQUIRE(ErrCode(d, 1) == 0);
  RequireClean(b.drv);
}

}  // namespace

TEST_CASE("top: a program failure mid-copy retires the phantom's block and the copy restarts in "
          "a spare block",
          "[top][directed]") {
  // 100 bursts: 7 live blocks a plane, so the phantom has a block no live block needs until the
  // commit (an empty block's target is reserved there). The failed block is marked bad, the
  // block's copy restarts into the spare from page 0 while the source serves it, the copy ends
  // and the live blocks commit; the empty block then finds no room on the phantom (8 blocks, one
  // bad, 8 logical blocks): the die halts with RefreshErrNoSpare. Reads are right throughout.
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const uint64_t n = 100;
  const uint64_t live = flint::model::LiveBlocks(n, kCfg.pages);
  REQUIRE(live + 1 == kCfg.blocks);
  Bench<Vtop_sr> b(seed, Quiet());
  REQUIRE_FALSE(b.drv.Load(n, false).error);
  auto& d = b.drv.dut();
  std::mt19937_64 rng(seed);
  RunStats total;
  const uint32_t p = Phantom(d, 0);
  const uint32_t y = FailPhantomProgram(b, rng, 0, n, &total);
  const uint64_t fails_before = b.drv.die(0).counters().program_fails;
  ChurnUntilHalt(b, rng, 0, n, &total);
  std::printf("program failure mid-copy, die 0 plane %u block %u: retired %u, halted with code %u "
              "at cycle %llu (%llu pages programmed, %llu scrubbed, %llu forked)\n",
              p, y, DieField(d.rf_retired_prog_o, 0, 32), ErrCode(d, 0),
              static_cast<unsigned long long>(b.drv.now()),
              static_cast<unsigned long long>(DieField(d.rf_programmed_o, 0, 32)),
              static_cast<unsigned long long>(DieField(d.rf_scrubbed_o, 0, 32)),
              static_cast<unsigned long long>(DieField(d.rf_forked_o, 0, 32)));
  REQUIRE(fails_before == 0);
  REQUIRE(b.drv.die(0).counters().program_fails == 1);
  REQUIRE(b.drv.die(0).IsBad(p, y));
  REQUIRE(DieField(d.rf_retired_prog_o, 0, 32) == 1);
  REQUIRE(DieField(d.rf_retired_erase_o, 0, 32) == 0);
  // The copy restarted in the spare and completed: every live block whole on the phantom, the
  // failed one excepted. The commit got to the empty block, which found no room.
  REQUIRE(FullBlocks(b, 0, p) == live);
  REQUIRE(b.drv.die(0).WritePointer(p, y) < kCfg.pages);
  REQUIRE(ErrCode(d, 0) == kErrNoSpare);
  REQUIRE(DieField(d.rf_phase_o, 0, 4) == kPhaseHalt);
  REQUIRE(DieField(d.rf_rotations_o, 0, 32) == 0);
  RequireServedAndOtherDieRotates(b, rng, n, &total);
  REQUIRE(total.responses == total.requests);
}

TEST_CASE("top: a phantom with no spare block halts its die with a named error, nothing wrong "
          "served",
          "[top][directed]") {
  // The whole stack loaded: every block of the phantom is reserved when the copy starts, so a
  // failed program finds no block to restart in (Alloc answers FtlNoFree): the block is marked
  // bad and the die halts with RefreshErrNoSpare before the switch; the source serves on.
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const uint64_t n = kCfg.bursts_per_stack;
  Bench<Vtop_sr> b(seed, Quiet());
  REQUIRE_FALSE(b.drv.Load(n, false).error);
  auto& d = b.drv.dut();
  std::mt19937_64 rng(seed);
  RunStats total;
  const uint32_t p = Phantom(d, 0);
  const uint32_t y = FailPhantomProgram(b, rng, 0, n, &total);
  ChurnUntilHalt(b, rng, 0, n, &total);
  const uint64_t programmed = DieField(d.rf_programmed_o, 0, 32);
  std::printf("no spare block, die 0 plane %u block %u: halted with code %u at cycle %llu, "
              "%llu pages programmed\n",
              p, y, ErrCode(d, 0), static_cast<unsigned long long>(b.drv.now()),
              static_cast<unsigned long long>(programmed));
  REQUIRE(ErrCode(d, 0) == kErrNoSpare);
  REQUIRE(DieField(d.rf_phase_o, 0, 4) == kPhaseHalt);
  REQUIRE(DieField(d.rf_retired_prog_o, 0, 32) == 1);
  REQUIRE(b.drv.die(0).IsBad(p, y));
  REQUIRE(DieField(d.rf_rotations_o, 0, 32) == 0);
  // Halted: nothing more goes to the phantom.
  RequireServedAndOtherDieRotates(b, rng, n, &total);
  REQUIRE(DieField(d.rf_programmed_o, 0, 32) == programmed);
  REQUIRE(b.drv.die(0).counters().program_fails == 1);
}

TEST_CASE("top: two program failures in one rotation: both blocks retired, both copies restarted",
          "[top][directed]") {
  // 96 bursts: 6 live blocks a plane, two blocks of the phantom to spare during the copy.
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const uint64_t n = 96;
  const uint64_t live = flint::model::LiveBlocks(n, kCfg.pages);
  REQUIRE(live + 2 == kCfg.blocks);
  Bench<Vtop_sr> b(seed, Quiet());
  REQUIRE_FALSE(b.drv.Load(n, false).error);
  auto& d = b.drv.dut();
  std::mt19937_64 rng(seed);
  RunStats total;
  const uint32_t p = Phantom(d, 0);
  const uint32_t y1 = FailPhantomProgram(b, rng, 0, n, &total);
  int round = 0;
  while (DieField(d.rf_retired_prog_o, 0, 32) == 0) {
    REQUIRE(++round < 400);
    ChurnRound(b, rng, n, 1000, &total);
  }
  REQUIRE(ErrCode(d, 0) == 0);
  const uint32_t y2 = FailPhantomProgram(b, rng, 0, n, &total);
  ChurnUntilHalt(b, rng, 0, n, &total);
  std::printf("two program failures, die 0 plane %u blocks %u and %u: retired %u, code %u at "
              "cycle %llu\n",
              p, y1, y2, DieField(d.rf_retired_prog_o, 0, 32), ErrCode(d, 0),
              static_cast<unsigned long long>(b.drv.now()));
  REQUIRE(y1 != y2);
  REQUIRE(b.drv.die(0).IsBad(p, y1));
  REQUIRE(b.drv.die(0).IsBad(p, y2));
  REQUIRE(DieField(d.rf_retired_prog_o, 0, 32) == 2);
  REQUIRE(FullBlocks(b, 0, p) == live);
  // The live blocks committed; the first empty block found no room.
  REQUIRE(ErrCode(d, 0) == kErrNoSpare);
  RequireServedAndOtherDieRotates(b, rng, n, &total);
}

TEST_CASE("top: erase failures retire the source's blocks and the rotation goes on until the "
          "phantom is short of a block",
          "[top][directed]") {
  // Two erases of the first source fail in the same step: both blocks are marked bad instead of
  // released, the step completes and the source becomes the phantom. The next step needs 8
  // blocks there and finds 6: RefreshErrNoSpare, halted before anything is copied.
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const uint64_t n = kCfg.bursts_per_stack;
  Bench<Vtop_sr> b(seed, Quiet());
  REQUIRE_FALSE(b.drv.Load(n, false).error);
  auto& d = b.drv.dut();
  std::mt19937_64 rng(seed);
  RunStats total;
  int round = 0;
  while (DieField(d.rf_phase_o, 0, 4) != kPhaseCopy) {
    REQUIRE(++round < 400);
    ChurnRound(b, rng, n, 1000, &total);
  }
  const uint32_t s = DieField(d.rf_source_o, 0, kCfg.phys_plane_bits);
  b.drv.die(0).InjectFault(s, 2, flint::model::Fault::kEraseFail);
  b.drv.die(0).InjectFault(s, 5, flint::model::Fault::kEraseFail);
  ChurnUntilRotated(b, rng, 0, 1, n, &total);
  std::printf("erase failures, die 0 plane %u blocks 2 and 5: rotation 1 at cycle %llu, retired "
              "%u, %llu blocks erased\n",
              s, static_cast<unsigned long long>(b.drv.now()),
              DieField(d.rf_retired_erase_o, 0, 32),
              static_cast<unsigned long long>(DieField(d.rf_erased_o, 0, 32)));
  // The step completed: every block of S erased (two failed), its live blocks remapped.
  REQUIRE(DieField(d.rf_erased_o, 0, 32) == kCfg.blocks);
  REQUIRE(DieField(d.rf_retired_erase_o, 0, 32) == 2);
  REQUIRE(DieField(d.rf_retired_prog_o, 0, 32) == 0);
  REQUIRE(b.drv.die(0).IsBad(s, 2));
  REQUIRE(b.drv.die(0).IsBad(s, 5));
  REQUIRE(b.drv.die(0).counters().erase_fails == 2);
  REQUIRE(Phantom(d, 0) == s);
  ChurnUntilHalt(b, rng, 0, n, &total);
  REQUIRE(ErrCode(d, 0) == kErrNoSpare);
  REQUIRE(DieField(d.rf_rotations_o, 0, 32) == 1);
  REQUIRE(DieField(d.rf_phase_o, 0, 4) == kPhaseHalt);
  RequireServedAndOtherDieRotates(b, rng, n, &total);
  // The bad blocks were never programmed or erased again (the die model would refuse).
  REQUIRE(b.drv.die(0).WritePointer(s, 2) == 0);
  REQUIRE(b.drv.die(0).WritePointer(s, 5) == 0);
}

TEST_CASE("top: faults at random sites over several rotations: every fault retired or named, "
          "every read right",
          "[top][random]") {
  // A random load (6, 7 or 8 live blocks a plane). Each die gets its faults in a random rotation
  // (0 to 2): one or two, each a program fault on a random block of the phantom being copied
  // into or an erase fault on a random block of the source, while decode-like traffic runs;
  // until every die has halted or rotated four times. Whatever the sites: every read right, no
  // bad block programmed or erased again (the die models refuse it), every failed program or
  // erase retired (counted), a die that stops names why (NoSpare, or Program for a failure while
  // another block drains), and a die whose faults never fired goes on rotating.
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  const uint64_t n = kCfg.bursts_per_stack - kCfg.pages * (rng() % 3);
  Bench<Vtop_sr> b(seed, Quiet());
  REQUIRE_FALSE(b.drv.Load(n, false).error);
  auto& d = b.drv.dut();
  struct Plan {
    uint32_t rotation = 0, faults = 0, injected = 0;
  };
  std::vector<Plan> plan(kCfg.dies);
  for (Plan& p : plan) {
    p.rotation = static_cast<uint32_t>(rng() % 3);
    p.faults = 1 + static_cast<uint32_t>(rng() % 2);
  }
  RunStats total;
  int round = 0;
  auto done = [&] {
    for (uint32_t k = 0; k < kCfg.dies; ++k) {
      if (ErrCode(d, k) == 0 && DieField(d.rf_rotations_o, k, 32) < 4) return false;
    }
    return true;
  };
  while (!done()) {
    REQUIRE(++round < 3000);
    ChurnRound(b, rng, n, 2000, &total);
    for (uint32_t k = 0; k < kCfg.dies; ++k) {
      Plan& p = plan[k];
      if (p.injected == p.faults || DieField(d.rf_rotations_o, k, 32) != p.rotation ||
          DieField(d.rf_phase_o, k, 4) != kPhaseCopy || rng() % 3 != 0) {
        continue;
      }
      const std::optional<InjectedFault> f = InjectRefreshFault(b, rng, k);
      if (!f) continue;
      std::printf("random faults (seed %u): die %u rotation %u, %s fault on plane %u block %u "
                  "at cycle %llu\n",
                  seed, k, p.rotation, f->program ? "program" : "erase", f->plane, f->block,
                  static_cast<unsigned long long>(b.drv.now()));
      ++p.injected;
    }
  }
  const RunStats r = b.drv.Run(Sweep(0, n));
  RequireAllOk(r);
  RequireClean(b.drv);
  INFO("statuses " << r.status[0] << " " << r.status[1] << " " << r.status[2] << " "
                   << r.status[3] << " " << r.status[4]);
  REQUIRE(r.status[static_cast<int>(Status::kOk)] == r.requests);
  uint64_t retired = 0, fired = 0;
  for (uint32_t k = 0; k < kCfg.dies; ++k) {
    const auto& c = b.drv.die(k).counters();
    const uint32_t code = ErrCode(d, k);
    const uint32_t rp = DieField(d.rf_retired_prog_o, k, 32);
    const uint32_t re = DieField(d.rf_retired_erase_o, k, 32);
    std::printf("random faults (seed %u, %llu bursts): die %u rotations %u, program fails %llu "
                "(retired %u), erase fails %llu (retired %u), bad blocks %llu, code %u\n",
                seed, static_cast<unsigned long long>(n), k, DieField(d.rf_rotations_o, k, 32),
                static_cast<unsigned long long>(c.program_fails), rp,
                static_cast<unsigned long long>(c.erase_fails), re,
                static_cast<unsigned long long>(b.drv.die(k).BadBlockCount()), code);
    REQUIRE((code == 0 || code == kErrNoSpare || code == kErrProgram));
    // A failure while another block drains is not retired: the die halts with Program.
    REQUIRE(rp + (code == kErrProgram ? 1 : 0) == c.program_fails);
    REQUIRE(re == c.erase_fails);
    REQUIRE(b.drv.die(k).BadBlockCount() == c.program_fails + c.erase_fails);
    // A die goes on rotating until a fault fires; the phantom then cannot hold a whole plane.
    if (c.program_fails + c.erase_fails == 0) REQUIRE(code == 0);
    if (code != 0) REQUIRE(c.program_fails + c.erase_fails > 0);
    retired += rp + re;
    fired += c.program_fails + c.erase_fails;
  }
  std::printf("random faults (seed %u): %d rounds, %llu cycles, %llu faults fired, %llu retired\n",
              seed, round, static_cast<unsigned long long>(b.drv.now()),
              static_cast<unsigned long long>(fired), static_cast<unsigned long long>(retired));
  REQUIRE(total.responses == total.requests);
}

namespace {

// One round of random reads (the soak's other traffic): 64 to 575 lines of the loaded bursts in
// random order, 2 % of them unloaded or out-of-range addresses, up to two a cycle; then up to
// 1 500 idle cycles. Every response checked by the driver (status by address, data by line).
template <class Dut>
void RandomRound(Bench<Dut>& b, std::mt19937_64& rng, uint64_t bursts, RunStats* total) {
  std::vector<BbcRequest> reqs;
  const uint64_t lines = 64 + rng() % 512;
  const uint64_t loaded_lines = bursts * kCfg.burst_bytes / kCfg.cl_bytes;
  const uint64_t stack_lines = kCfg.stack_bytes / kCfg.cl_bytes;
  uint64_t at = 0;
  for (uint64_t i = 0; i < lines; ++i) {
    const uint64_t r = rng() % 100;
    uint64_t line = rng() % loaded_lines;
    if (r == 0) line = stack_lines + rng() % stack_lines;  // out of range
    if (r == 1 && loaded_lines < stack_lines) {            // within the stack, not loaded
      line = loaded_lines + rng() % (stack_lines - loaded_lines);
    }
    at += rng() % 2;
    reqs.push_back({0, at, 0, line * kCfg.cl_bytes});
  }
  const RunStats r = b.drv.Run(reqs);
  RequireAllOk(r);
  Add(total, r);
  b.drv.Idle(rng() % 1500);
}

}  // namespace

// The stack top's soak (issue #24 item 3): per seed, a random load (6, 7 or 8 live blocks a
// plane), bit errors on (every block at a random wear, the error scale at the default or 10x)
// and one of: program and erase faults at random sites of the refresh (as the fault test), a
// power loss at a random cycle followed by an erase and a reload of other weights, or neither;
// decode-like sweeps and random reads (unloaded and out-of-range addresses among them) with
// idle gaps until FLINT_TOP_SOAK_CYCLES cycles (300 000 unless set; `scripts/soak.py --top`
// runs it at scale), then a sweep of every loaded line. Every request answered once, every
// response equal to the SEC-DED model's decode and right within the code, every NAND command,
// copy, remap and erase as the scoreboard allows; a die that stops names why.
TEST_CASE(
    "top: seeded random soak: traffic, bit errors, faults or a power loss, every answer "
    "once and right",
    "[top][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const char* env = std::getenv("FLINT_TOP_SOAK_CYCLES");
  const uint64_t target = env != nullptr ? std::strtoull(env, nullptr, 10) : 300000;
  REQUIRE(target > 0);
  std::mt19937_64 rng(seed ^ 0x70b5041cULL);
  TopOptions opt;   // the NAND model's error model, as configured
  opt.seed = seed;  // the dies' error draws
  const bool scaled = rng() % 2 == 0;
  if (scaled) opt.nand.reliability.rber_at_limit *= 10;
  const auto mode = static_cast<uint32_t>(rng() % 3);  // 0 faults, 1 power loss, 2 neither
  Bench<Vtop_sr> b(seed, opt);
  const auto wear = static_cast<uint32_t>(rng() % (kCfg.pe_limit - 20));
  for (uint32_t k = 0; k < kCfg.dies; ++k) {
    for (uint32_t pl = 0; pl < kCfg.phys_planes; ++pl) {
      for (uint32_t blk = 0; blk < kCfg.blocks; ++blk) b.drv.die(k).SetPeCycles(pl, blk, wear);
    }
  }
  uint64_t n = kCfg.bursts_per_stack - kCfg.pages * (rng() % 3);
  REQUIRE_FALSE(b.drv.Load(n, false).error);
  auto& d = b.drv.dut();
  const uint64_t cut_at = target / 4 + rng() % (target / 2);
  std::vector<uint32_t> fault_rotation(kCfg.dies), faults_left(kCfg.dies);
  for (uint32_t k = 0; k < kCfg.dies; ++k) {
    fault_rotation[k] = static_cast<uint32_t>(rng() % 3);
    faults_left[k] = mode == 0 ? 1 + static_cast<uint32_t>(rng() % 2) : 0;
  }
  RunStats total;
  uint64_t rounds = 0, injected = 0, power_losses = 0;
  const uint64_t t0 = b.drv.now();
  while (b.drv.now() - t0 < target) {
    REQUIRE(++rounds < 100000);
    if (rng() % 2 == 0) {
      ChurnRound(b, rng, n, 1500, &total);
    } else {
      RandomRound(b, rng, n, &total);
    }
    if (mode == 1 && power_losses == 0 && b.drv.now() - t0 >= cut_at) {
      // Power loss: nothing is served until a load; the reload erases and brings other weights.
      b.drv.PowerUp();
      const RunStats r = b.drv.Run(Sweep(0, 1));
      REQUIRE(r.status[static_cast<int>(Status::kNotLoaded)] == r.requests);
      b.drv.SetGeneration(2);
      n = kCfg.bursts_per_stack - kCfg.pages * (rng() % 3);
      REQUIRE_FALSE(b.drv.Load(n, true).error);
      ++power_losses;
    }
    for (uint32_t k = 0; k < kCfg.dies; ++k) {
      if (faults_left[k] == 0 || DieField(d.rf_rotations_o, k, 32) != fault_rotation[k] ||
          DieField(d.rf_phase_o, k, 4) != kPhaseCopy || rng() % 3 != 0) {
        continue;
      }
      if (!InjectRefreshFault(b, rng, k)) continue;
      --faults_left[k];
      ++injected;
    }
  }
  const RunStats r = b.drv.Run(Sweep(0, n));
  RequireAllOk(r);
  Add(&total, r);
  RequireClean(b.drv);
  REQUIRE(total.responses == total.requests);
  uint64_t fails = 0;
  for (uint32_t k = 0; k < kCfg.dies; ++k) {
    const auto& c = b.drv.die(k).counters();
    const uint32_t code = ErrCode(d, k);
    INFO("die " << k << " error code " << code);
    REQUIRE((code == 0 || code == kErrNoSpare || code == kErrProgram));
    if (code != 0) REQUIRE(c.program_fails + c.erase_fails > 0);
    REQUIRE(b.drv.die(k).BadBlockCount() == c.program_fails + c.erase_fails);
    fails += c.program_fails + c.erase_fails;
  }
  const char* modes[] = {"faults", "power_loss", "traffic"};
  std::printf(
      "top soak: seed %u mode %s scale %s wear %u bursts %llu cycles %llu requests %llu "
      "ok %llu corrected %llu uncorrectable %llu not_loaded %llu out_of_range %llu "
      "rotations %llu copies %llu poisoned %llu faults %llu fired %llu power_losses %llu\n",
      seed, modes[mode], scaled ? "x10" : "x1", wear, static_cast<unsigned long long>(n),
      static_cast<unsigned long long>(b.drv.now() - t0),
      static_cast<unsigned long long>(total.requests),
      static_cast<unsigned long long>(total.status[0]),
      static_cast<unsigned long long>(total.status[1]),
      static_cast<unsigned long long>(total.status[2]),
      static_cast<unsigned long long>(total.status[4]),
      static_cast<unsigned long long>(total.status[3]),
      static_cast<unsigned long long>(Sum(d.rf_rotations_o, kCfg.dies)),
      static_cast<unsigned long long>(b.drv.copies()),
      static_cast<unsigned long long>(b.drv.poisoned_copy_lines()),
      static_cast<unsigned long long>(injected), static_cast<unsigned long long>(fails),
      static_cast<unsigned long long>(power_losses));
}

TEST_CASE("top: power loss mid-rotation: erase and reload restore service, nothing stale is used",
          "[top][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Bench<Vtop_sr> b(seed, Quiet());
  REQUIRE_FALSE(b.drv.Load(kCfg.bursts_per_stack, false).error);
  auto& d = b.drv.dut();
  // Into the first rotation: some pages copied into the phantom, none committed.
  uint64_t guard = 0;
  while (Sum(d.rf_programmed_o, kCfg.dies) < 20) {
    REQUIRE(++guard < 100);
    b.drv.Run(Sweep(0, kCfg.bursts_per_stack / 2));
    b.drv.Idle(2000);
  }
  REQUIRE(Sum(d.rf_rotations_o, kCfg.dies) == 0);
  // Power loss. Out of reset nothing is served: the old model is not trusted.
  b.drv.PowerUp();
  RunStats r = b.drv.Run(Sweep(0, 1));
  REQUIRE(r.status[static_cast<int>(Status::kNotLoaded)] == r.requests);
  // Clean install of other weights: every block erased (copies in the phantom too), reloaded.
  b.drv.SetGeneration(2);
  const auto load = b.drv.Load(kCfg.bursts_per_stack, true);
  REQUIRE_FALSE(load.error);
  // Every plane erases its blocks, then every burst programs a page on every plane at once: the
  // config's load_cycles (docs/top.md; paper: 13.9 s), within 1 %.
  REQUIRE(load.cycles >= kCfg.load_cycles);
  REQUIRE(static_cast<double>(load.cycles) <= 1.01 * static_cast<double>(kCfg.load_cycles));
  for (uint32_t k = 0; k < kCfg.dies; ++k) {
    for (uint32_t blk = 0; blk < kCfg.blocks; ++blk) {
      REQUIRE(b.drv.die(k).WritePointer(kCfg.planes, blk) == 0);  // the phantom: erased
    }
  }
  // Every line reads the new weights (the driver compares generation 2).
  r = b.drv.Run(Sweep(0, kCfg.bursts_per_stack));
  RequireAllOk(r);
  REQUIRE(r.status[0] == r.requests);
  RequireClean(b.drv);
  std::printf("erase + reload at small_refresh: %llu cycles\n",
              static_cast<unsigned long long>(load.cycles));
}

namespace {

// One configuration's run of the refresh-cost stimulus.
struct SweepCost {
  uint64_t total = 0, worst = 0, best = ~uint64_t{0};  // cycles: all sweeps, slowest, fastest
  uint64_t refreshed = 0, erased = 0, programmed = 0, due = 0, limit = 0, park_wait = 0;
};

template <class Dut>
SweepCost RunSweeps(uint32_t seed, bool in_place, uint64_t bursts, int sweeps) {
  TopOptions opt = Quiet();
  opt.in_place = in_place;
  Bench<Dut> b(seed, opt);
  REQUIRE_FALSE(b.drv.Load(bursts, false).error);
  SweepCost c;
  for (int s = 0; s < sweeps; ++s) {
    const RunStats r = b.drv.Run(Sweep(0, bursts));
    RequireAllOk(r);
    c.total += r.cycles;
    c.worst = std::max(c.worst, r.cycles);
    c.best = std::min(c.best, r.cycles);
  }
  auto& d = b.drv.dut();
  c.refreshed = Sum(d.rf_rotations_o, kCfg.dies);
  c.erased = Sum(d.rf_erased_o, kCfg.dies);
  c.programmed = Sum(d.rf_programmed_o, kCfg.dies);
  c.due = Sum(d.rf_due_o, kCfg.dies);
  c.limit = Sum(d.rf_limit_o, kCfg.dies);
  c.park_wait = d.stat_park_wait_o;
  INFO("phase " << flint::tb::GetBits(d.rf_phase_o, 0, 4) << " err code "
                << flint::tb::GetBits(d.rf_err_code_o, 0, 6));
  REQUIRE(flint::tb::GetBits(d.rf_err_o, 0, kCfg.dies) == 0);
  REQUIRE(flint::tb::GetBits(d.rf_alarm_o, 0, kCfg.dies) == 0);
  RequireClean(b.drv);
  return c;
}

void PrintCost(const char* mode, const SweepCost& c, const SweepCost& none) {
  std::printf("refresh cost, %-20s total %8llu cycles (%6.2fx none), slowest sweep %7llu "
              "(%7.1fx none's fastest); %llu blocks refreshed, park wait %llu\n",
              mode, static_cast<unsigned long long>(c.total),
              static_cast<double>(c.total) / static_cast<double>(none.total),
              static_cast<unsigned long long>(c.worst),
              static_cast<double>(c.worst) / static_cast<double>(none.best),
              static_cast<unsigned long long>(c.refreshed),
              static_cast<unsigned long long>(c.park_wait));
}

}  // namespace

// The refresh-cost measurement of the paper's section 6.2 in RTL: the same load and the same
// sweeps (a "token" each) through no refresh, FLINT and the two in-place baselines. The in-place
// tops use small's disturb limit (256) so that every block comes due within 16 sweeps; FLINT
// keeps small_refresh's, which its rotation needs. Per in-place refresh the stack waits for the
// read-out, tERASE and Pages x tPROG.
TEST_CASE("top: in-place refresh stalls the stack where FLINT costs nothing, on one stimulus",
          "[top][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const uint64_t n = kCfg.pages;  // one live block a plane: 8 blocks in all
  const int sweeps = 16;          // 16 senses a block a sweep: aligned trip points at sweep 15
  const SweepCost none = RunSweeps<Vtop_sr_none>(seed, false, n, sweeps);
  const SweepCost flint = RunSweeps<Vtop_sr>(seed, false, n, sweeps);
  const SweepCost dist = RunSweeps<Vtop_sr_ipd>(seed, true, n, sweeps);
  const SweepCost burst = RunSweeps<Vtop_sr_ipb>(seed, true, n, sweeps);
  PrintCost("none", none, none);
  PrintCost("FLINT", flint, none);
  PrintCost("in-place distributed", dist, none);
  PrintCost("in-place burst", burst, none);
  const uint64_t blocks = kCfg.dies * kCfg.planes;
  const uint64_t one_refresh = kCfg.t_erase_cycles + kCfg.pages * kCfg.t_prog_cycles;
  // FLINT: exactly the no-refresh cycles.
  REQUIRE(flint.total == none.total);
  REQUIRE(flint.worst == none.worst);
  REQUIRE(none.refreshed == 0);
  // Every block refreshed (at least) once, each a whole erase and program-back.
  for (const SweepCost* c : {&dist, &burst}) {
    REQUIRE(c->refreshed >= blocks);
    REQUIRE(c->erased == c->refreshed);
    REQUIRE(c->programmed == c->refreshed * kCfg.pages);
    REQUIRE(c->limit == 0);
    REQUIRE(c->total >= none.total + c->refreshed * one_refresh / kCfg.dies);
  }
  // Burst: a die's blocks all come due in one sweep and are refreshed one after the other.
  REQUIRE(burst.worst >= (blocks / kCfg.dies) * one_refresh);
  // Distributed: the same blocks spread over sweeps, so no sweep waits as long.
  REQUIRE(dist.worst < burst.worst);
}

// bench_refresh_rtl (make bench; hidden, never run by ctest): the refresh-cost stimulus above on
// the whole small_refresh stack (8 blocks a plane, 20 sweeps: every block comes due once in the
// in-place tops), each mode's cycles and slowdown against no refresh, the slowdown the
// in-place cost identity predicts (docs/refresh.md), and the simulation speed. The build writes
// a `bench_refresh_rtl` script that runs this case with FLINT_BENCH_OUT naming the JSON file.
TEST_CASE("bench: refresh cost in RTL", "[.bench]") {
  const uint32_t seed = flint::tb::TestSeed();
  const uint64_t n = kCfg.bursts_per_stack;
  const int sweeps = 20;
  std::vector<flint::bench::Result> res;
  const auto t0 = std::chrono::steady_clock::now();
  const SweepCost none = RunSweeps<Vtop_sr_none>(seed, false, n, sweeps);
  const double none_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const SweepCost flint = RunSweeps<Vtop_sr>(seed, false, n, sweeps);
  const auto t1 = std::chrono::steady_clock::now();
  const SweepCost dist = RunSweeps<Vtop_sr_ipd>(seed, true, n, sweeps);
  const SweepCost burst = RunSweeps<Vtop_sr_ipb>(seed, true, n, sweeps);
  const double ip_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  const double base = static_cast<double>(none.total);
  const double one = static_cast<double>(kCfg.in_place_refresh_cycles);
  auto add = [&](const std::string& m, double v, const std::string& u, const std::string& note) {
    res.push_back({m, v, u, note});
  };
  add("sweeps of the whole stack, a mode", sweeps, "sweeps",
      std::to_string(n) + " bursts a sweep, disturb limit 256 in the in-place tops");
  add("no refresh: cycles", base, "cycles", "");
  add("FLINT: cycles", static_cast<double>(flint.total), "cycles", "must equal no refresh");
  add("FLINT: slowdown", static_cast<double>(flint.total) / base, "x", "");
  const double dies = kCfg.dies;
  for (const auto& [name, c, overlap] : {std::tuple{"in-place distributed", &dist, 1.0},
                                         std::tuple{"in-place burst", &burst, dies}}) {
    const std::string m = name;
    add(m + ": cycles", static_cast<double>(c->total), "cycles", "");
    add(m + ": slowdown", static_cast<double>(c->total) / base, "x", "total against no refresh");
    add(m + ": slowest sweep", static_cast<double>(c->worst) / static_cast<double>(none.best),
        "x", "against no refresh's fastest sweep");
    add(m + ": blocks refreshed", static_cast<double>(c->refreshed), "blocks", "");
    // Each refresh parks the whole stack for tERASE + Pages x tPROG (plus the read-out); in
    // burst mode the dies' refreshes overlap, so the stall divides by the dies.
    const double predicted = 1.0 + static_cast<double>(c->refreshed) * one / overlap / base;
    add(m + ": slowdown predicted", predicted, "x",
        "1 + refreshed x in_place_refresh_cycles / overlap / none (read-out left out)");
    add(m + ": measured / predicted", static_cast<double>(c->total) / base / predicted, "ratio",
        "above 1 by the read-out");
  }
  add("simulation speed, no refresh", base / none_s, "cycles/s", "Verilated top + 2 NandDie");
  add("simulation speed, in-place (both)",
      static_cast<double>(dist.total + burst.total) / ip_s, "cycles/s",
      "mostly parked cycles");
  flint::bench::PrintResults(res);
  REQUIRE(flint.total == none.total);
  if (const char* out = std::getenv("FLINT_BENCH_OUT")) {
    REQUIRE(flint::bench::WriteResults(
        out, "bench_refresh_rtl", "refresh_rtl",
        "flint_top at small_refresh: back-to-back sweeps of the whole stack under no refresh, "
        "FLINT and the in-place baselines (test_top, [.bench])", res));
  }
}
