#include "sim/engines/rtl_engine.hpp"

#include <chrono>
#include <cstdio>
#include <stdexcept>

// Each top with its symbol table: the fast power-up re-settles the model (verif/top/backdoor.hpp).
// flint-sim has small and small_refresh; flint-sim-big (FLINT_RTL_BIG) medium and paper too;
// flint-sim-paper (FLINT_RTL_PAPER, the paper-top ctest's) paper alone besides;
// flint-sim-paper-t2 (FLINT_RTL_PAPER_T2, make bench's) the paper top Verilated with --threads 2.
#if FLINT_RTL_BIG || FLINT_RTL_PAPER || FLINT_RTL_PAPER_T2
#define FLINT_RTL_PAPER_TOP 1
#endif
#include "Vtop_small.h"
#include "Vtop_small__Syms.h"
#include "Vtop_sr.h"
#include "Vtop_sr__Syms.h"
#if FLINT_RTL_BIG
#include "Vtop_medium.h"
#include "Vtop_medium__Syms.h"
#endif
#if FLINT_RTL_PAPER_T2
#include "Vtop_paper_t2.h"
#include "Vtop_paper_t2__Syms.h"
using VtopPaper = Vtop_paper_t2;
#elif FLINT_RTL_PAPER_TOP
#include "Vtop_paper.h"
#include "Vtop_paper__Syms.h"
using VtopPaper = Vtop_paper;
#endif
#include "verif/harness.hpp"
#include "verif/ports.hpp"
#include "verif/top/outputs.hpp"
#include "verif/top/stimulus.hpp"

namespace flint::sim {
namespace {

// The harness of the testbenches (verif/harness.hpp) with flint-sim's settings: the RTL's
// initial state random per seed, an FST at the given path with a GTKWave save file beside it.
verif::HarnessOptions HarnessFor(uint64_t seed, const std::string& waves) {
  verif::HarnessOptions o;
  o.seed = static_cast<uint32_t>(seed);
  if (!waves.empty()) {
    o.fst = waves;
    o.gtkw = waves + ".gtkw";
    o.gtkw_groups = verif::WaveGroups("top");
  }
  return o;
}

template <class T>
uint64_t SumField(const T& port, uint32_t n, uint32_t w) {
  uint64_t s = 0;
  for (uint32_t i = 0; i < n; ++i) s += verif::GetBits(port, i * w, w);
  return s;
}

// A cycle's output ports as one number (FNV-1a over their bytes), for --check-fast-powerup.
template <class Dut>
uint64_t OutputHash(const Dut& d, std::string& buf) {
  buf.clear();
  verif::top::AppendOutputs(d, buf);
  uint64_t h = 1469598103934665603ull;
  for (const char c : buf) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ull;
  return h;
}

template <class Dut>
RtlReport Run(const Config& cfg, const RtlOptions& opt,
              const std::vector<flint::model::BbcRequest>& reqs) {
  using Driver = verif::top::TopDriver<Dut, verif::Harness<Dut>>;
  verif::top::TopOptions to;
  to.seed = opt.seed;
  if (opt.rber_at_limit > 0) to.nand.reliability.rber_at_limit = opt.rber_at_limit;
  if (opt.quiet_nand) {
    to.nand.reliability.base_rber = 0;
    to.nand.reliability.rber_at_limit = 0;
  }
  auto wear = [&](Driver& drv) {
    if (opt.pe_cycles == 0) return;
    for (uint32_t d = 0; d < cfg.dies; ++d) {
      for (uint32_t pl = 0; pl < cfg.phys_planes; ++pl) {
        for (uint32_t b = 0; b < cfg.blocks; ++b) drv.die(d).SetPeCycles(pl, b, opt.pe_cycles);
      }
    }
  };
  const uint64_t n = opt.loaded_bursts ? opt.loaded_bursts : cfg.bursts_per_stack;
  RtlReport x;
  // --check-fast-powerup: a second model of the same seed (the same random initial state),
  // powered up by the sweeps, runs the same load and stream first, a hash of its outputs a
  // cycle; this one, powered up by the backdoor, must then hold the same swept state (every word
  // and register the backdoor writes) at the same cycle and give the same outputs every cycle.
  std::vector<uint64_t> ref_outputs;
  std::string buf;
  if (opt.check_fast_powerup) {
    verif::Harness<Dut> hs(HarnessFor(opt.seed, ""));
    Driver ref(cfg, hs, to);
    wear(ref);
    ref.PowerUp();
    x.check.ready_cycle = ref.now();
    x.check.state = verif::top::SweptState(hs.dut().contextp(), cfg);
    ref.on_cycle = [&](auto& d) { ref_outputs.push_back(OutputHash(d.dut(), buf)); };
    const verif::top::LoadResult l = opt.mount ? ref.Mount(n, opt.erase) : ref.Load(n, opt.erase);
    if (!l.error) ref.Run(reqs);
    if (opt.progress) {
      std::fprintf(stderr, "flint-sim: the sweeps' model ran %zu cycles after ready_o\n",
                   ref_outputs.size());
    }
  }
  verif::Harness<Dut> h(HarnessFor(opt.seed, opt.waves));
  Driver drv(cfg, h, to);
  wear(drv);
  auto last = std::chrono::steady_clock::now();
  if (opt.progress) {
    drv.on_cycle = [&](auto& d) {
      if ((d.now() & 0x3FFF) != 0) return;
      const auto t = std::chrono::steady_clock::now();
      if (t - last < std::chrono::seconds(5)) return;
      last = t;
      std::fprintf(stderr, "flint-sim: rtl at cycle %llu (%llu responses so far)\n",
                   static_cast<unsigned long long>(d.now()),
                   static_cast<unsigned long long>(d.dut().stat_responses_o));
    };
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  drv.PowerUp(opt.fast_powerup || opt.check_fast_powerup);
  const uint64_t powerup_cycles = drv.now();
  const double powerup_seconds = seconds();
  if (opt.check_fast_powerup) {
    x.check.run = true;
    const auto mine = verif::top::SweptState(h.dut().contextp(), cfg);
    for (const auto& [name, words] : x.check.state) {
      const auto it = mine.find(name);
      for (size_t i = 0; i < words.size(); ++i) {
        ++x.check.words;
        if (it == mine.end() || i >= it->second.size() || it->second[i] != words[i]) {
          if (x.check.state_differ++ == 0)
            x.check.first_difference = name + "[" + std::to_string(i) + "]";
        }
      }
    }
    x.check.state.clear();
    auto progress = drv.on_cycle;
    drv.on_cycle = [&, progress](auto& d) {
      if (progress) progress(d);
      const size_t k = x.check.cycles++;
      if (!x.check.diverged &&
          (k >= ref_outputs.size() || OutputHash(d.dut(), buf) != ref_outputs[k])) {
        x.check.diverged = true;
        x.check.divergence_cycle = d.now();
      }
    };
  }
  // The two long phases before the run, on stderr: at paper the power-up's sweeps alone take
  // minutes (--fast-powerup: the backdoor writes what all but their last cycles leave).
  if (opt.progress) {
    std::fprintf(stderr,
                 "flint-sim: rtl ready after %llu cycles of power-up, %llu of them by the "
                 "backdoor (%.1f s)\n",
                 static_cast<unsigned long long>(powerup_cycles),
                 static_cast<unsigned long long>(drv.backdoor_cycles()), powerup_seconds);
  }
  const verif::top::LoadResult load = opt.mount ? drv.Mount(n, opt.erase) : drv.Load(n, opt.erase);
  if (load.error) {
    throw std::runtime_error("the model load failed (code " + std::to_string(load.code) + ")");
  }
  if (opt.progress) {
    std::fprintf(stderr, "flint-sim: rtl %s %llu bursts in %llu cycles (at cycle %llu, %.1f s)\n",
                 opt.mount ? "mounted" : "loaded", static_cast<unsigned long long>(n),
                 static_cast<unsigned long long>(load.cycles),
                 static_cast<unsigned long long>(drv.now()), seconds());
  }
  const double run_start = seconds();
  const verif::top::RunStats r = drv.Run(reqs);
  x.run_seconds = seconds() - run_start;
  x.threads = h.dut().threads();  // the model's (--threads), not the context's pool size
  auto& d = drv.dut();
  if (opt.check_fast_powerup && x.check.cycles != ref_outputs.size()) x.check.diverged = true;
  if (opt.check_fast_powerup && powerup_cycles != x.check.ready_cycle) x.check.diverged = true;
  x.requests = r.requests;
  x.responses = r.responses;
  for (int s = 0; s < 5; ++s) x.status[s] = r.status[s];
  x.data_mismatches = r.data_mismatches;
  x.model_mismatches = r.model_mismatches;
  x.beyond_code = r.beyond_code;
  x.violations = drv.violations().size();
  x.miscorrected_copies = drv.miscorrected_copy_lines();
  if (!drv.violations().empty()) x.first_violation = drv.violations().front();
  x.cycles = r.cycles;
  x.load_cycles = load.cycles;
  x.powerup_cycles = powerup_cycles;
  x.powerup_backdoor_cycles = drv.backdoor_cycles();
  x.powerup_seconds = powerup_seconds;
  x.sim_cycles = drv.now();
  x.bursts = d.stat_bursts_o;
  x.refetched = d.stat_refetched_o;
  x.useful_bytes = d.stat_useful_bytes_o;
  x.fetched_bytes = d.stat_fetched_bytes_o;
  x.link_slots = d.stat_link_slots_o;
  x.queue_high_water = d.stat_queue_high_water_o;
  x.displacements = d.stat_displacements_o;
  x.park_wait_cycles = d.stat_park_wait_o;
  x.rotations = SumField(d.rf_rotations_o, static_cast<uint32_t>(cfg.dies), 32);
  x.forked = SumField(d.rf_forked_o, static_cast<uint32_t>(cfg.dies), 32);
  x.scrubbed = SumField(d.rf_scrubbed_o, static_cast<uint32_t>(cfg.dies), 32);
  x.programmed = SumField(d.rf_programmed_o, static_cast<uint32_t>(cfg.dies), 32);
  x.erased = SumField(d.rf_erased_o, static_cast<uint32_t>(cfg.dies), 32);
  x.disturb_alarms = SumField(d.rf_limit_o, static_cast<uint32_t>(cfg.dies), 32);
  x.max_read_count = drv.MaxDisturb();
  for (uint32_t k = 0; k < cfg.dies; ++k) {
    const flint::model::NandEnergy e = drv.die(k).Energy();
    x.nand_read_pj += e.read_pj;
    x.nand_program_pj += e.program_pj;
    x.nand_erase_pj += e.erase_pj;
  }
  return x;
}

}  // namespace

std::vector<std::string> RtlConfigs() {
#if FLINT_RTL_BIG
  return {"small", "small_refresh", "medium", "paper"};
#elif FLINT_RTL_PAPER_TOP
  return {"small", "small_refresh", "paper"};
#else
  return {"small", "small_refresh"};
#endif
}

RtlReport RunRtl(const Config& cfg, const RtlOptions& opt,
                 const std::vector<flint::model::BbcRequest>& requests) {
  if (cfg.name == "small") return Run<Vtop_small>(cfg, opt, requests);
  if (cfg.name == "small_refresh") return Run<Vtop_sr>(cfg, opt, requests);
#if FLINT_RTL_BIG
  if (cfg.name == "medium") return Run<Vtop_medium>(cfg, opt, requests);
#endif
#if FLINT_RTL_PAPER_TOP
  if (cfg.name == "paper") return Run<VtopPaper>(cfg, opt, requests);
#endif
  std::string list;
  for (const std::string& c : RtlConfigs()) list += (list.empty() ? "" : ", ") + c;
  throw std::invalid_argument("no Verilated top for config '" + std::string(cfg.name) +
                              "' in this build (rtl engine configs: " + list + ")");
}

}  // namespace flint::sim
