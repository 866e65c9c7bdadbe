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
// flint-trace-gen --hints-out writes. `rtl` (the Verilated top) is refused until it lands.
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
#include "sim/h3_hints.hpp"
#include "sim/trace.hpp"
#if FLINT_WITH_H3
#include "model/h3/h3_model.hpp"
#endif

namespace {

int Usage(const std::string& why) {
  std::fprintf(stderr,
               "flint-sim: %s\n"
               "usage: flint-sim --trace FILE [--config small|medium|paper] [--engine model|h3]\n"
               "                 [--report out.json] [--seed N] [--policy fcfs|most-pending]\n"
               "                 [--placement linear|interleaved] [--bursts N] [--age-cap CYCLES]\n"
               "                 [--crq N] [--timing-only]\n"
               "       h3 only:  --hints FILE [--slots N] [--min-residency CYCLES] [--demand-first]\n",
               why.c_str());
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

}  // namespace

int main(int argc, char** argv) {
  std::string config_name = "small", engine = "model", trace_path, report_path, hints_path;
  flint::model::BbcOptions opt;
  uint64_t slots = 2, min_residency = 0;
  bool demand_first = false, h3_flag = false;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      auto value = [&]() -> const char* {
        if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
        return argv[++i];
      };
      if (a == "--config") {
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
      } else if (a == "--placement") {
        opt.placement = flint::model::ParseBurstPlacement(value());
      } else if (a == "--bursts") {
        opt.loaded_bursts = ParseCount(a, value());
      } else if (a == "--age-cap") {
        opt.age_cap_cycles = ParseCount(a, value());
      } else if (a == "--crq") {
        opt.crq_entries = ParseCount(a, value());
        if (opt.crq_entries == 0) throw std::invalid_argument("--crq takes N > 0");
      } else if (a == "--timing-only") {
        opt.check_data = false;
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
  if (engine == "rtl") {
    std::fprintf(stderr, "flint-sim: engine 'rtl' is not built yet (issue 6); use --engine model or h3\n");
    return 2;
  }
  if (engine != "model" && engine != "h3") return Usage("unknown engine '" + engine + "' (model, h3)");
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

  try {
    std::ifstream in(trace_path);
    flint::sim::TraceReader reader(in, cfg->cl_bytes, trace_path);
    uint64_t id = 0;
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
      return flint::model::BbcRequest{id++, r->cycle, r->sm, r->address};
    };
    uint64_t answered = 0;
    auto sink = [&](const flint::model::BbcResponse&) { ++answered; };
    flint::model::BbcStats s;
    double nand_pj = 0;
    std::string policy = std::string(ToString(opt.policy)), engine_json;
    if (!h3) {
      flint::model::BbcModel bbc(*cfg, opt);
      bbc.Load();
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
      m.Load();
      size_t next_hint = 0;
      m.Run(source,
            [&]() -> std::optional<flint::model::H3Hint> {
              if (next_hint == hints.size()) return std::nullopt;
              return hints[next_hint++];
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
