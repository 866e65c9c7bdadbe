#include "sim/engines/rtl_engine.hpp"

#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "Vtop_small.h"
#include "Vtop_sr.h"
#if FLINT_RTL_BIG
#include "Vtop_medium.h"
#include "Vtop_paper.h"
#endif
#include "verif/harness.hpp"
#include "verif/ports.hpp"
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

template <class Dut>
RtlReport Run(const Config& cfg, const RtlOptions& opt,
              const std::vector<flint::model::BbcRequest>& reqs) {
  verif::Harness<Dut> h(HarnessFor(opt.seed, opt.waves));
  verif::top::TopOptions to;
  to.seed = opt.seed;
  if (opt.rber_at_limit > 0) to.nand.reliability.rber_at_limit = opt.rber_at_limit;
  if (opt.quiet_nand) {
    to.nand.reliability.base_rber = 0;
    to.nand.reliability.rber_at_limit = 0;
  }
  verif::top::TopDriver<Dut, verif::Harness<Dut>> drv(cfg, h, to);
  if (opt.pe_cycles > 0) {
    for (uint32_t d = 0; d < cfg.dies; ++d) {
      for (uint32_t pl = 0; pl < cfg.phys_planes; ++pl) {
        for (uint32_t b = 0; b < cfg.blocks; ++b) drv.die(d).SetPeCycles(pl, b, opt.pe_cycles);
      }
    }
  }
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
  drv.PowerUp();
  // The two long phases before the run, on stderr: at paper the power-up alone takes minutes.
  if (opt.progress) {
    std::fprintf(stderr, "flint-sim: rtl ready after %llu cycles of power-up (%.1f s)\n",
                 static_cast<unsigned long long>(drv.now()), seconds());
  }
  const uint64_t n = opt.loaded_bursts ? opt.loaded_bursts : cfg.bursts_per_stack;
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
  const verif::top::RunStats r = drv.Run(reqs);
  auto& d = drv.dut();
  RtlReport x;
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
  if (cfg.name == "paper") return Run<Vtop_paper>(cfg, opt, requests);
#endif
  std::string list;
  for (const std::string& c : RtlConfigs()) list += (list.empty() ? "" : ", ") + c;
  throw std::invalid_argument("no Verilated top for config '" + std::string(cfg.name) +
                              "' in this build (rtl engine configs: " + list + ")");
}

}  // namespace flint::sim
