// flint-sim: a trace (docs/trace_format.md) through one stack's weight tier, with a JSON report.
//
//   flint-sim --config small --engine model --trace FILE --report out.json [--seed N]
//             [--policy fcfs|most-pending] [--placement linear|interleaved] [--bursts N]
//             [--age-cap CYCLES] [--crq N] [--timing-only]
//   flint-sim --engine h3 --hints FILE [--slots N] [--min-residency CYCLES] [--demand-first] ...
//
// The trace (and the hints file) is validated in a first pass (a bad line stops the run before
// any simulation, naming its line), then streamed through the engine. Engines: `model` is the
// burst-buffer controller's golden model (model/bbc) over the NAND die models; `h3` is the H3
// baseline (model/h3, docs/h3.md) over the same dies, its prefetch hints from a file that
// flint-trace-gen --hints-out writes; `rtl` is the Verilated stack top (rtl/top/flint_top.sv,
// docs/top.md), loaded through its own write path, refresh on, at the configs it is built for:
//   flint-sim --config small --engine rtl --trace FILE --report out.json [--seed N]
//             [--bursts N] [--erase] [--mount] [--waves out.fst]
// --mount: the dies are preloaded with what the load would write and the loader only fills the
// BTT (docs/top.md "Mount"; test_top proves the two leave the same state): at paper a load
// through the write path programs every page of every live block, days of simulation.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "sim/engines/h3_hints.hpp"
#include "sim/workload/trace.hpp"
#if FLINT_WITH_RTL
#include "sim/engines/rtl_engine.hpp"
#endif
#if FLINT_WITH_H3
#include "model/h3/h3_model.hpp"
#endif

namespace {

constexpr const char* kUsage =
    "usage: flint-sim --trace FILE [--config small|medium|paper] [--engine model|h3|rtl]\n"
    "                 [--report out.json] [--seed N] [--policy fcfs|most-pending]\n"
    "                 [--placement linear|interleaved] [--bursts N] [--age-cap CYCLES]\n"
    "                 [--crq N] [--timing-only]\n"
    "       h3 only:  --hints FILE [--slots N] [--min-residency CYCLES] [--demand-first]\n"
    "       rtl only: [--waves out.fst] [--erase] [--mount]\n"
    "Runs a trace (flint-trace-gen writes one; docs/trace_format.md) through FLINT's BBC model\n"
    "(model), H3 (h3) or the Verilated top (rtl), and prints or writes a JSON report. Progress\n"
    "on stderr every few seconds. --help: this text.\n";

int Usage(const std::string& why) {
  std::fprintf(stderr, "flint-sim: %s\n%s", why.c_str(), kUsage);
  return 2;
}

uint64_t ParseCount(const std::string& flag, const char* text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || text[0] == '-') {
    throw std::invalid_argument(flag + " takes a decimal count, not '" + text + "'");
  }
  return v;
}

// Checked before the trace is read: a config without a Verilated top is refused by name, not by
// whatever its line size makes of the trace.
bool RtlConfigBuilt(const flint::Config& cfg) {
#if FLINT_WITH_RTL
  bool built = false;
  for (const std::string& c : flint::sim::RtlConfigs()) built = built || c == cfg.name;
  if (built) return true;
  std::string list;
  for (const std::string& c : flint::sim::RtlConfigs()) list += (list.empty() ? "" : ", ") + c;
#if FLINT_RTL_BIG
  std::fprintf(stderr, "flint-sim: no Verilated top for config '%s' (rtl configs: %s)\n",
               cfg.name.data(), list.c_str());
#else
  std::fprintf(stderr,
               "flint-sim: no Verilated top for config '%s' (rtl configs: %s; medium and paper: "
               "flint-sim-big, built by make rtl-big)\n",
               cfg.name.data(), list.c_str());
#endif
  return false;
#else
  (void)cfg;
  return true;  // RunRtlEngine says the build has no RTL engine at all
#endif
}

// The Verilated top: the whole trace in memory (RTL traces are short), a load through the RTL's
// write path, the run, and the same report as the model's plus the refresh figures.
int RunRtlEngine(const flint::Config& cfg, const std::string& trace_path,
                 const std::string& report_path, const flint::model::BbcOptions& opt, bool erase,
                 bool mount, const std::string& waves,
                 std::chrono::steady_clock::time_point t0) {
#if !FLINT_WITH_RTL
  (void)cfg, (void)trace_path, (void)report_path, (void)opt, (void)erase, (void)mount,
      (void)waves, (void)t0;
  std::fprintf(stderr, "flint-sim: this build has no RTL engine (configure with the top area)\n");
  return 2;
#else
  try {
    std::vector<flint::model::BbcRequest> reqs;
    {
      std::ifstream in(trace_path);
      flint::sim::TraceReader reader(in, cfg.cl_bytes, trace_path);
      uint64_t id = 0;
      while (const auto r = reader.Next()) reqs.push_back({id++, r->cycle, r->sm, r->address});
    }
    flint::sim::RtlOptions ro;
    ro.loaded_bursts = opt.loaded_bursts;
    ro.seed = opt.seed;
    ro.erase = erase;
    ro.mount = mount;
    ro.waves = waves;
    const flint::sim::RtlReport x = flint::sim::RunRtl(cfg, ro, reqs);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double util = x.cycles ? static_cast<double>(x.link_slots) /
                                       static_cast<double>(cfg.lanes * x.cycles)
                                 : 0.0;
    const double useful = x.fetched_bytes ? static_cast<double>(x.useful_bytes) /
                                                static_cast<double>(x.fetched_bytes)
                                          : 0.0;
    auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
    char buf[8192];
    std::snprintf(
        buf, sizeof buf,
        "{\n"
        "  \"config\": \"%s\",\n  \"engine\": \"rtl\",\n  \"policy\": \"most-pending\",\n"
        "  \"placement\": \"interleaved\",\n  \"trace\": \"%s\",\n  \"seed\": %llu,\n"
        "  \"data_checked\": true,\n  \"refresh\": \"flint\",\n  \"load\": \"%s\",\n"
        "  \"requests\": %llu,\n  \"responses\": %llu,\n"
        "  \"status\": {\"ok\": %llu, \"corrected\": %llu, \"uncorrectable\": %llu, "
        "\"out_of_range\": %llu, \"not_loaded\": %llu},\n"
        "  \"data_mismatches\": %llu,\n  \"ecc_model_mismatches\": %llu,\n"
        "  \"beyond_code\": %llu,\n  \"check_violations\": %llu,\n"
        "  \"cycles\": %llu,\n  \"load_cycles\": %llu,\n  \"simulated_cycles\": %llu,\n"
        "  \"bursts_issued\": %llu,\n  \"bursts_refetched\": %llu,\n"
        "  \"useful_bytes\": %llu,\n  \"fetched_bytes\": %llu,\n"
        "  \"useful_fraction\": %.6f,\n  \"channel_utilization\": %.6f,\n"
        "  \"refresh_stall_cycles\": %llu,\n"
        "  \"refresh_rt\": {\"rotations\": %llu, \"pages_forked\": %llu, "
        "\"pages_scrubbed\": %llu, \"pages_programmed\": %llu, \"blocks_erased\": %llu, "
        "\"disturb_alarms\": %llu, \"max_read_count\": %llu},\n"
        "  \"queue_high_water\": %llu,\n  \"age_cap_displacements\": %llu,\n"
        "  \"nand_read_energy_pj\": %.1f,\n  \"nand_program_energy_pj\": %.1f,\n"
        "  \"nand_erase_energy_pj\": %.1f,\n  \"wall_seconds\": %.3f\n}\n",
        cfg.name.data(), trace_path.c_str(), u(opt.seed), mount ? "mount" : "write",
        u(x.requests), u(x.responses),
        u(x.status[0]), u(x.status[1]), u(x.status[2]), u(x.status[3]), u(x.status[4]),
        u(x.data_mismatches), u(x.model_mismatches), u(x.beyond_code), u(x.violations),
        u(x.cycles), u(x.load_cycles), u(x.sim_cycles), u(x.bursts), u(x.refetched),
        u(x.useful_bytes), u(x.fetched_bytes), useful, util, u(x.park_wait_cycles),
        u(x.rotations), u(x.forked), u(x.scrubbed), u(x.programmed), u(x.erased),
        u(x.disturb_alarms), u(x.max_read_count), u(x.queue_high_water), u(x.displacements),
        x.nand_read_pj, x.nand_program_pj, x.nand_erase_pj, wall);
    if (!report_path.empty()) {
      std::ofstream out(report_path);
      out << buf;
      if (!out) {
        std::fprintf(stderr, "flint-sim: cannot write %s\n", report_path.c_str());
        return 1;
      }
    }
    std::printf("flint-sim: rtl on %s: %s in %llu cycles; %llu requests in %llu cycles, %llu "
                "responses (ok %llu, corrected %llu, uncorrectable %llu, out of range %llu, not "
                "loaded %llu)\n"
                "flint-sim: %llu bursts sensed (%llu re-fetched), useful %.1f %% of fetched, "
                "channel %.1f %% busy; refresh: %llu pages copied (%llu forked, %llu scrubbed), "
                "%llu rotations, %llu stall cycles\n"
                "flint-sim: checks: %llu data mismatches, %llu ECC-model mismatches, %llu "
                "violations; %.1f s\n",
                cfg.name.data(), mount ? "mounted" : "loaded", u(x.load_cycles), u(x.requests),
                u(x.cycles), u(x.responses),
                u(x.status[0]), u(x.status[1]), u(x.status[2]), u(x.status[3]), u(x.status[4]),
                u(x.bursts), u(x.refetched), 100.0 * useful, 100.0 * util, u(x.programmed),
                u(x.forked), u(x.scrubbed), u(x.rotations), u(x.park_wait_cycles),
                u(x.data_mismatches), u(x.model_mismatches), u(x.violations), wall);
    if (x.violations) std::fprintf(stderr, "flint-sim: %s\n", x.first_violation.c_str());
    const bool clean = x.responses == x.requests && x.data_mismatches == 0 &&
                       x.model_mismatches == 0 && x.violations == 0;
    return clean ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flint-sim: %s\n", e.what());
    return 1;
  }
#endif
}

}  // namespace

int main(int argc, char** argv) {
  std::string config_name = "small", engine = "model", trace_path, report_path, hints_path;
  flint::model::BbcOptions opt;
  uint64_t slots = 2, min_residency = 0;
  bool demand_first = false, h3_flag = false, erase = false, mount = false, model_flag = false;
  std::string waves;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      auto value = [&]() -> const char* {
        if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
        return argv[++i];
      };
      if (a == "--help" || a == "-h") {
        std::fputs(kUsage, stdout);
        return 0;
      } else if (a == "--config") {
        config_name = value();
      } else if (a == "--engine") {
        engine = value();
      } else if (a == "--trace") {
        trace_path = value();
      } else if (a == "--report") {
        report_path = value();
      } else if (a == "--seed") {
        opt.seed = ParseCount(a, value());
      } else if (a == "--policy") {
        opt.policy = flint::model::ParseBbcPolicy(value());
        model_flag = model_flag || opt.policy != flint::model::BbcPolicy::kMostPending;
      } else if (a == "--placement") {
        opt.placement = flint::model::ParseBurstPlacement(value());
        model_flag = model_flag || opt.placement != flint::model::BurstPlacement::kInterleaved;
      } else if (a == "--bursts") {
        opt.loaded_bursts = ParseCount(a, value());
      } else if (a == "--age-cap") {
        opt.age_cap_cycles = ParseCount(a, value());
        model_flag = true;
      } else if (a == "--crq") {
        opt.crq_entries = ParseCount(a, value());
        if (opt.crq_entries == 0) throw std::invalid_argument("--crq takes N > 0");
        model_flag = true;
      } else if (a == "--timing-only") {
        opt.check_data = false;
        model_flag = true;
      } else if (a == "--waves") {
        waves = value();
      } else if (a == "--erase") {
        erase = true;
      } else if (a == "--mount") {
        mount = true;
      } else if (a == "--hints") {
        hints_path = value();
      } else if (a == "--slots") {
        slots = ParseCount(a, value());
        if (slots == 0 || slots > 1024) throw std::invalid_argument("--slots takes N in 1..1024");
        h3_flag = true;
      } else if (a == "--min-residency") {
        min_residency = ParseCount(a, value());
        h3_flag = true;
      } else if (a == "--demand-first") {
        demand_first = true;
        h3_flag = true;
      } else {
        throw std::invalid_argument("unknown argument '" + a + "'");
      }
    }
  } catch (const std::invalid_argument& e) {
    return Usage(e.what());
  }
  if (trace_path.empty()) return Usage("--trace FILE is required");
  if (engine != "model" && engine != "h3" && engine != "rtl") {
    return Usage("unknown engine '" + engine + "' (model, h3, rtl)");
  }
  if (engine != "rtl" && (!waves.empty() || erase || mount)) {
    return Usage("--waves, --erase and --mount are for --engine rtl");
  }
  if (engine == "rtl" && (model_flag || !hints_path.empty() || h3_flag)) {
    return Usage("the RTL is built with the most-pending policy, the interleaved placement and the "
                 "config's queue; --policy, --placement, --age-cap, --crq, --timing-only and the "
                 "h3 options are for the model engines");
  }
  const bool h3 = engine == "h3";
  if (h3 && hints_path.empty()) {
    return Usage("--engine h3 needs --hints FILE (flint-trace-gen --hints-out writes one; an empty "
                 "file means demand fetches only)");
  }
  if (!h3 && (!hints_path.empty() || h3_flag)) {
    return Usage("--hints, --slots, --min-residency and --demand-first are for --engine h3");
  }
#if !FLINT_WITH_H3
  if (h3) {
    std::fprintf(stderr, "flint-sim: this build has no H3 model (configure with the h3 area)\n");
    return 2;
  }
#endif
  const flint::Config* cfg = flint::FindConfig(config_name);
  if (cfg == nullptr) return Usage("no config named '" + config_name + "'");

  if (engine == "rtl" && !RtlConfigBuilt(*cfg)) return 2;

  const auto t0 = std::chrono::steady_clock::now();
  uint64_t lines = 0;
  try {
    lines = flint::sim::ValidateTraceFile(trace_path, cfg->cl_bytes);
  } catch (const flint::sim::TraceError& e) {
    std::fprintf(stderr, "flint-sim: %s\n", e.what());
    return 1;
  }
  std::vector<flint::sim::H3Hint> hints;
  if (h3) {
    try {
      hints = flint::sim::ReadH3HintsFile(hints_path);
    } catch (const flint::sim::TraceError& e) {
      std::fprintf(stderr, "flint-sim: %s\n", e.what());
      return 1;
    }
  }

  if (engine == "rtl") return RunRtlEngine(*cfg, trace_path, report_path, opt, erase, mount, waves, t0);

  try {
    std::ifstream in(trace_path);
    flint::sim::TraceReader reader(in, cfg->cl_bytes, trace_path);
    uint64_t id = 0;
    // A trace's cycles count from the start of service, the end of the model load (as the RTL
    // engine's); the models' clock starts at power-up, so each request moves by the load time.
    uint64_t service_start = 0;
    auto last_progress = std::chrono::steady_clock::now();
    auto source = [&]() -> std::optional<flint::model::BbcRequest> {
      const auto r = reader.Next();
      if (!r) return std::nullopt;
      if ((id & 0xFFFF) == 0) {
        const auto now = std::chrono::steady_clock::now();
        if (now - last_progress > std::chrono::seconds(5)) {
          std::fprintf(stderr, "flint-sim: %llu of %llu requests\n",
                       static_cast<unsigned long long>(id), static_cast<unsigned long long>(lines));
          last_progress = now;
        }
      }
      return flint::model::BbcRequest{id++, service_start + r->cycle, r->sm, r->address};
    };
    uint64_t answered = 0;
    auto sink = [&](const flint::model::BbcResponse&) { ++answered; };
    flint::model::BbcStats s;
    double nand_pj = 0;
    std::string policy = std::string(ToString(opt.policy)), engine_json;
    if (!h3) {
      flint::model::BbcModel bbc(*cfg, opt);
      service_start = bbc.Load();
      bbc.Run(source, sink);
      s = bbc.stats();
      for (const auto& die : bbc.dies()) nand_pj += die.Energy().read_pj;
      // The scheduler slots the RTL would need never to refuse a request (docs/bbc.md, "Slots").
      engine_json = "  \"bursts_in_flight_high_water\": " +
                    std::to_string(s.bursts_in_flight_high_water) +
                    ",\n  \"die_queue_high_water\": " + std::to_string(s.die_queue_high_water) +
                    ",\n";
    }
#if FLINT_WITH_H3
    if (h3) {
      flint::model::H3Options ho;
      ho.slots = static_cast<uint32_t>(slots);
      ho.min_residency_cycles = min_residency;
      ho.loaded_bursts = opt.loaded_bursts;
      ho.placement = opt.placement;
      ho.seed = opt.seed;
      ho.check_data = opt.check_data;
      ho.crq_entries = opt.crq_entries;
      ho.demand_first = demand_first;
      flint::model::H3Model m(*cfg, ho);
      service_start = m.Load();
      size_t next_hint = 0;
      m.Run(source,
            [&]() -> std::optional<flint::model::H3Hint> {
              if (next_hint == hints.size()) return std::nullopt;
              flint::model::H3Hint h = hints[next_hint++];
              h.cycle += service_start;  // hint files count from the start of service too
              return h;
            },
            sink);
      s = m.stats();
      for (const auto& die : m.dies()) nand_pj += die.Energy().read_pj;
      const flint::model::H3Extra& e = m.extra();
      policy = demand_first ? "demand-first" : "fifo";
      auto v = [](uint64_t x) { return static_cast<unsigned long long>(x); };
      char hb[1024];
      std::snprintf(hb, sizeof hb,
                    "  \"h3\": {\"hints_file\": \"%s\", \"slots\": %llu, "
                    "\"min_residency_cycles\": %llu, \"hints\": %llu, \"hints_skipped\": %llu, "
                    "\"hints_invalid\": %llu, \"hints_overtaken\": %llu, \"hint_fetches\": %llu, "
                    "\"demand_fetches\": %llu, \"demand_misses\": %llu, \"evictions\": %llu, "
                    "\"unused_evictions\": %llu, \"residency_waits\": %llu},\n",
                    hints_path.c_str(), v(slots), v(m.min_residency_cycles()), v(e.hints),
                    v(e.hints_skipped), v(e.hints_invalid), v(e.hints_overtaken), v(e.hint_fetches),
                    v(e.demand_fetches), v(e.demand_misses), v(e.evictions), v(e.unused_evictions),
                    v(e.residency_waits));
      engine_json = hb;
    }
#endif
    if (answered != s.requests || s.responses != s.requests) {
      std::fprintf(stderr, "flint-sim: %llu requests but %llu responses\n",
                   static_cast<unsigned long long>(s.requests),
                   static_cast<unsigned long long>(answered));
      return 1;
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const uint64_t cycles = s.last_cycle > s.first_cycle ? s.last_cycle - s.first_cycle : 0;
    const double busy = s.ChannelBusyCycles(cfg->lanes);
    const double util = cycles ? busy / static_cast<double>(cycles) : 0.0;
    auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };

    char buf[8192];
    std::snprintf(
        buf, sizeof buf,
        "{\n"
        "  \"config\": \"%s\",\n  \"engine\": \"%s\",\n  \"policy\": \"%s\",\n"
        "  \"placement\": \"%s\",\n  \"trace\": \"%s\",\n  \"seed\": %llu,\n"
        "  \"data_checked\": %s,\n  \"refresh\": \"none\",\n"
        "  \"requests\": %llu,\n  \"responses\": %llu,\n"
        "  \"status\": {\"ok\": %llu, \"corrected\": %llu, \"uncorrectable\": %llu, "
        "\"out_of_range\": %llu, \"not_loaded\": %llu},\n"
        "  \"data_mismatches\": %llu,\n  \"cycles\": %llu,\n  \"load_cycles\": %llu,\n"
        "  \"bursts_issued\": %llu,\n  \"bursts_refetched\": %llu,\n  \"hits\": %llu,\n"
        "  \"useful_bytes\": %llu,\n  \"fetched_bytes\": %llu,\n"
        "  \"useful_fraction\": %.6f,\n  \"channel_busy_cycles\": %.1f,\n"
        "  \"channel_utilization\": %.6f,\n  \"refresh_stall_cycles\": 0,\n"
        "  \"queue_high_water\": %llu,\n  \"age_cap_displacements\": %llu,\n"
        "%s  \"nand_read_energy_pj\": %.1f,\n  \"wall_seconds\": %.3f\n}\n",
        cfg->name.data(), engine.c_str(), policy.c_str(),
        std::string(flint::model::ToString(opt.placement)).c_str(), trace_path.c_str(),
        u(opt.seed), opt.check_data ? "true" : "false", u(s.requests), u(s.responses),
        u(s.status_counts[0]), u(s.status_counts[1]), u(s.status_counts[2]),
        u(s.status_counts[3]), u(s.status_counts[4]), u(s.data_mismatches), u(cycles),
        u(s.load_cycles), u(s.bursts_fetched), u(s.bursts_refetched), u(s.hits),
        u(s.useful_bytes), u(s.fetched_bytes),
        s.fetched_bytes ? static_cast<double>(s.useful_bytes) / static_cast<double>(s.fetched_bytes)
                        : 0.0,
        busy, util, u(s.queue_high_water), u(s.age_cap_displacements), engine_json.c_str(),
        nand_pj,
        wall);
    if (!report_path.empty()) {
      std::ofstream out(report_path);
      out << buf;
      if (!out) {
        std::fprintf(stderr, "flint-sim: cannot write %s\n", report_path.c_str());
        return 1;
      }
    }
    std::printf("flint-sim: %s on %s, %llu requests in %llu cycles: %llu bursts (%llu re-fetched), "
                "useful %.1f %% of fetched, channel %.1f %% busy, %llu errors, %llu mismatches\n",
                engine.c_str(), cfg->name.data(), u(s.requests), u(cycles), u(s.bursts_fetched),
                u(s.bursts_refetched),
                100.0 * (s.fetched_bytes ? static_cast<double>(s.useful_bytes) /
                                               static_cast<double>(s.fetched_bytes)
                                         : 0.0),
                100.0 * util, u(s.status_counts[2] + s.status_counts[3] + s.status_counts[4]),
                u(s.data_mismatches));
    return s.data_mismatches == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flint-sim: %s\n", e.what());
    return 1;
  }
}
