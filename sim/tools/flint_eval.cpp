// flint-eval: one decode workload through FLINT (the BBC golden model) and H3 (with the
// compiler's hints and with oracle hints) in one process, on the same generated stream and the
// same NAND die models, with one JSON line of results per engine. No trace text is written, so
// paper-size decode steps run at model speed. scripts/evaluate.py runs it over models x batches
// and writes docs/results.md.
//
//   flint-eval --model NAME [--config paper] [--batch 1] [--tokens 1] [--seed 1] [--skew 0.5]
//              [--stacks 8] [--stack 0] [--order tiled|cta] [--cta-lines N] [--tile-lines K]
//              [--sms N] [--jitter J] [--loop open|closed] [--max-outstanding K]
//              [--crq N] [--hold C] [--age-cap C]
//              [--engines flint,fcfs,h3,h3-oracle,...] [--check-data]
//
// --loop closed (with --order cta): each engine runs its own stream, the SMs waiting for its
// responses (docs/workloads.md "Closed loop"); H3's layer-ahead hints are then given when the
// workload reaches the phase that times them.
//
// The H3 engines (docs/h3.md "Variants"): h3 is the paper's H3 (2 slots, strict FIFO after the
// minimum residency, the 5000-cycle residency read at the GPU's 2.5 GHz, layer-ahead compiler
// hints); h3-oracle the same with oracle hints; h3-1ghz the residency read at the base die's
// 1 GHz; h3-demand-first demand misses before pending hints; h3-lhb40 H3's own 40 MB LHB
// (20 slots); h3-legacy the model before issue #21 (a slot held while requests for it wait,
// residency at 1 GHz).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "model/h3/h3_model.hpp"
#include "sim/engines/engine_feed.hpp"
#include "sim/engines/h3_hints.hpp"
#include "sim/workload/workload_gen.hpp"
#include "sim/workload/workload_model.hpp"

namespace {

using flint::model::BbcStats;

const char* const kUsage =
    "usage: flint-eval --model NAME [--config small|medium|paper] [--batch B]\n"
    "                  [--tokens T] [--seed S] [--skew s] [--stacks N] [--stack K]\n"
    "                  [--order tiled|cta] [--cta-lines N] [--tile-lines K] [--sms N]\n"
    "                  [--jitter J] [--loop open|closed] [--max-outstanding K]\n"
    "                  [--crq N] [--hold C] [--age-cap C]\n"
    "                  [--t-read-ns N] [--lanes N] [--engines LIST] [--check-data] [--help]\n"
    "One decode workload through FLINT and H3 on the same stream; one JSON line per engine.\n"
    "  --order tiled|cta  GPU work order: tiled (per-SM tiles, the old order, default) or cta\n"
    "                     (kernels at data dependencies, CTAs of --cta-lines lines (64) to the\n"
    "                     SM that frees first); docs/workloads.md\n"
    "  --loop open|closed open (default): SMs issue at a fixed pace and never wait; closed\n"
    "                     (--order cta only): an SM holds at most --max-outstanding lines in\n"
    "                     flight and issues the next when a response frees a slot, and a\n"
    "                     kernel ends when its last response is in; each engine gets its own\n"
    "                     stream\n"
    "  --max-outstanding K  closed loop: lines of the simulated stack one SM may have in\n"
    "                     flight (default --cta-lines: one thread block's)\n"
    "  --t-read-ns N      tR in ns instead of the config's (a what-if: docs/evaluation.md)\n"
    "  --lanes N          D2D lanes of one line a cycle instead of the config's (the die I/O,\n"
    "                     drain time and burst period follow, as scripts/gen_config.py derives)\n"
    "  --engines LIST     of flint, fcfs, h3, h3-oracle, h3-1ghz, h3-demand-first, h3-lhb40,\n"
    "                     h3-legacy (default flint,fcfs,h3,h3-oracle); docs/h3.md\n";

int Usage(const std::string& why) {
  std::fprintf(stderr, "flint-eval: %s\n%s", why.c_str(), kUsage);
  return 2;
}

uint64_t Count(const std::string& flag, const char* text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || text[0] == '-') {
    throw std::invalid_argument(flag + " takes a decimal count, not '" + text + "'");
  }
  return v;
}

std::string Json(const std::string& engine, const flint::Config& c, const BbcStats& s,
                 double wall, const std::string& extra) {
  const uint64_t cycles = s.last_cycle > s.first_cycle ? s.last_cycle - s.first_cycle : 0;
  const double secs = static_cast<double>(cycles) / (static_cast<double>(c.clock_mhz) * 1e6);
  const double useful_gbs = secs > 0 ? static_cast<double>(s.useful_bytes) / secs / 1e9 : 0;
  const double fetched_gbs = secs > 0 ? static_cast<double>(s.fetched_bytes) / secs / 1e9 : 0;
  std::ostringstream o;
  o << "{\"engine\": \"" << engine << "\", \"requests\": " << s.requests
    << ", \"responses\": " << s.responses << ", \"errors\": "
    << s.status_counts[2] + s.status_counts[3] + s.status_counts[4]
    << ", \"data_mismatches\": " << s.data_mismatches << ", \"cycles\": " << cycles
    << ", \"bursts_fetched\": " << s.bursts_fetched << ", \"bursts_refetched\": "
    << s.bursts_refetched << ", \"useful_bytes\": " << s.useful_bytes
    << ", \"fetched_bytes\": " << s.fetched_bytes << ", \"useful_gbps\": " << useful_gbs
    << ", \"fetched_gbps\": " << fetched_gbs << ", \"refetch_share\": "
    << (s.fetched_bytes ? static_cast<double>(s.bursts_refetched) /
                              static_cast<double>(s.bursts_fetched)
                        : 0.0)
    << ", \"useful_fraction\": "
    << (s.fetched_bytes ? static_cast<double>(s.useful_bytes) / static_cast<double>(s.fetched_bytes)
                        : 0.0)
    << ", \"queue_high_water\": " << s.queue_high_water << ", \"wall_seconds\": " << wall << extra << "}";
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::string model_name, config_name = "paper", engines = "flint,fcfs,h3,h3-oracle";
  flint::sim::DecodeOptions dopt;
  bool check_data = false;
  uint64_t crq = 0, hold = 0, age_cap = 0;  // BBC options (0: the model's defaults)
  uint64_t t_read_ns = 0, lanes = 0;          // what-if overrides of the config (0: as is)
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
      } else if (a == "--order") {
        const std::string v = value();
        if (v == "tiled") {
          dopt.order = flint::sim::WorkOrder::kTiled;
        } else if (v == "cta") {
          dopt.order = flint::sim::WorkOrder::kCta;
        } else {
          throw std::invalid_argument("--order takes tiled or cta, not '" + v + "'");
        }
      } else if (a == "--loop") {
        const std::string v = value();
        if (v == "open") {
          dopt.loop = flint::sim::WorkLoop::kOpen;
        } else if (v == "closed") {
          dopt.loop = flint::sim::WorkLoop::kClosed;
        } else {
          throw std::invalid_argument("--loop takes open or closed, not '" + v + "'");
        }
      } else if (a == "--max-outstanding") {
        dopt.max_outstanding = Count(a, value());
        if (dopt.max_outstanding == 0) {
          throw std::invalid_argument("--max-outstanding must be >= 1 (lines in flight per SM)");
        }
      } else if (a == "--t-read-ns") {
        t_read_ns = Count(a, value());
      } else if (a == "--lanes") {
        lanes = Count(a, value());
        if (lanes == 0 || lanes > 64) throw std::invalid_argument("--lanes must be in 1..64");
      } else if (a == "--cta-lines") {
        dopt.cta_lines = Count(a, value());
      } else if (a == "--model") {
        model_name = value();
      } else if (a == "--config") {
        config_name = value();
      } else if (a == "--batch") {
        dopt.batch = static_cast<uint32_t>(Count(a, value()));
      } else if (a == "--tokens") {
        dopt.steps = Count(a, value());
      } else if (a == "--seed") {
        dopt.seed = Count(a, value());
      } else if (a == "--skew") {
        dopt.skew = std::stod(value());
      } else if (a == "--stacks") {
        dopt.stacks = static_cast<uint32_t>(Count(a, value()));
      } else if (a == "--stack") {
        dopt.stack = static_cast<int64_t>(Count(a, value()));
      } else if (a == "--tile-lines") {
        dopt.tile_lines = Count(a, value());
      } else if (a == "--sms") {
        dopt.sms = static_cast<uint32_t>(Count(a, value()));
      } else if (a == "--jitter") {
        const char* v = value();
        char* end = nullptr;
        dopt.jitter = std::strtod(v, &end);
        if (end == v || *end != '\0') {
          throw std::invalid_argument("--jitter takes a number, not '" + std::string(v) + "'");
        }
      } else if (a == "--crq") {
        crq = Count(a, value());
      } else if (a == "--hold") {
        hold = Count(a, value());
      } else if (a == "--age-cap") {
        age_cap = Count(a, value());
      } else if (a == "--engines") {
        engines = value();
      } else if (a == "--check-data") {
        check_data = true;
      } else {
        throw std::invalid_argument("unknown argument '" + a + "'");
      }
    }
  } catch (const std::exception& e) {
    return Usage(e.what());
  }
  if (model_name.empty()) return Usage("--model NAME is required");
  if (dopt.max_outstanding != 0 && dopt.loop != flint::sim::WorkLoop::kClosed) {
    return Usage("--max-outstanding applies to --loop closed");
  }
  if (dopt.loop == flint::sim::WorkLoop::kClosed && dopt.order != flint::sim::WorkOrder::kCta) {
    return Usage("--loop closed needs --order cta");
  }
  const flint::Config* base_cfg = flint::FindConfig(config_name);
  if (base_cfg == nullptr) return Usage("no config named '" + config_name + "'");
  flint::Config what_if = *base_cfg;
  if (t_read_ns) {
    what_if.t_read_cycles = std::max<uint64_t>(1, t_read_ns * what_if.clock_mhz / 1000);
  }
  if (lanes) {
    // As scripts/gen_config.py derives them from the link.
    what_if.lanes = lanes;
    what_if.link_bytes_per_cycle = lanes * what_if.cl_bytes;
    what_if.die_io_bytes_per_cycle = what_if.link_bytes_per_cycle / what_if.dies * 9 / 8;
    what_if.drain_cycles =
        what_if.planes * what_if.page_image_bytes / what_if.die_io_bytes_per_cycle;
    what_if.burst_period_cycles = what_if.drain_cycles + what_if.t_cache_xfer_cycles;
  }
  const flint::Config* cfg = &what_if;
  const flint::sim::ModelShape* shape = flint::sim::FindModel(model_name);
  if (shape == nullptr) return Usage("no model named '" + model_name + "' (flint-trace-gen --list-models)");

  try {
    // The stack's share of the model is what load programs; the rest of the stack is NOT_LOADED.
    flint::sim::DecodeGenerator probe(*shape, *cfg, dopt);
    const uint64_t loaded = probe.striping().BurstsOn(probe.layout().total_bursts(),
                                                      static_cast<uint32_t>(dopt.stack));
    std::vector<std::string> list;
    std::stringstream ss(engines);
    for (std::string e; std::getline(ss, e, ',');) list.push_back(e);
    std::printf("{\"model\": \"%s\", \"config\": \"%s\", \"batch\": %u, \"tokens\": %llu, "
                "\"seed\": %llu, \"skew\": %g, \"stacks\": %u, \"stack\": %lld, "
                "\"tile_lines\": %llu, \"jitter\": %g, \"loaded_bursts\": %llu, "
                "\"check_data\": %s, \"order\": \"%s\", \"cta_lines\": %llu, \"sms\": %u, "
                "\"t_read_cycles\": %llu, \"lanes\": %llu, \"loop\": \"%s\", "
                "\"max_outstanding\": %llu, \"results\": [\n",
                model_name.c_str(), cfg->name.data(), dopt.batch,
                static_cast<unsigned long long>(dopt.steps),
                static_cast<unsigned long long>(dopt.seed), dopt.skew, dopt.stacks,
                static_cast<long long>(dopt.stack),
                static_cast<unsigned long long>(dopt.tile_lines), dopt.jitter,
                static_cast<unsigned long long>(loaded),
                check_data ? "true" : "false", flint::sim::WorkOrderName(dopt.order),
                static_cast<unsigned long long>(dopt.cta_lines), dopt.sms,
                static_cast<unsigned long long>(cfg->t_read_cycles),
                static_cast<unsigned long long>(cfg->lanes), flint::sim::WorkLoopName(dopt.loop),
                static_cast<unsigned long long>(probe.max_outstanding()));
    bool first = true;
    for (const std::string& engine : list) {
      flint::sim::DecodeGenerator gen(*shape, *cfg, dopt);
      // The generator's cycles count from the start of service, the end of the model load;
      // the models' clock starts at power-up, so requests and hints move by the load time.
      uint64_t service_start = 0;
      flint::sim::EngineFeed feed(gen);
      auto source = [&](uint64_t now) { return feed.Ask(now); };
      auto sink = [&](const flint::model::BbcResponse& r) { feed.Deliver(r); };
      const bool closed = dopt.loop == flint::sim::WorkLoop::kClosed;
      const auto t0 = std::chrono::steady_clock::now();
      std::string line;
      if (engine == "flint" || engine == "fcfs") {
        flint::model::BbcOptions o;
        o.policy = engine == "flint" ? flint::model::BbcPolicy::kMostPending
                                     : flint::model::BbcPolicy::kFcfs;
        o.loaded_bursts = loaded;
        o.check_data = check_data;
        o.seed = dopt.seed;
        o.crq_entries = crq;
        o.hold_cycles = hold;
        o.age_cap_cycles = age_cap;
        flint::model::BbcModel bbc(*cfg, o);
        service_start = bbc.Load();
        feed.set_service_start(service_start);
        bbc.Run(flint::model::BbcModel::PolledSource(source), sink);
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        // The scheduler slots the RTL would need never to refuse a request (docs/bbc.md).
        line = Json(engine, *cfg, bbc.stats(), wall,
                    ", \"bursts_in_flight_high_water\": " +
                        std::to_string(bbc.stats().bursts_in_flight_high_water) +
                        ", \"die_queue_high_water\": " +
                        std::to_string(bbc.stats().die_queue_high_water));
      } else if (engine.rfind("h3", 0) == 0) {
        flint::model::H3Options o;
        flint::sim::H3HintOptions ho;
        // h3: the paper's H3 (docs/h3.md); the variants change one assumption each.
        o.evict = flint::model::H3Evict::kStrictFifo;
        o.residency_gpu_mhz = 2500;
        if (engine == "h3") {
        } else if (engine == "h3-oracle") {
          ho.oracle = true;
        } else if (engine == "h3-1ghz") {
          o.residency_gpu_mhz = 0;
        } else if (engine == "h3-demand-first") {
          o.demand_first = true;
        } else if (engine == "h3-lhb40") {
          o.slots = 20;  // 40 MB of 2 MB slots
        } else if (engine == "h3-legacy") {
          o.evict = flint::model::H3Evict::kHoldWhilePending;
          o.residency_gpu_mhz = 0;
        } else {
          throw std::invalid_argument("unknown engine '" + engine + "'");
        }
        // Open loop: the hints at the workload's intent times. Closed loop: each at the real
        // start of the phase that times it (H3HintFeed).
        const std::vector<flint::model::H3Hint> hints =
            closed ? std::vector<flint::model::H3Hint>{} : flint::sim::MakeH3Hints(gen, ho);
        size_t next = 0;
        auto hint_source = [&](uint64_t) {
          flint::model::H3Model::HintReply r;
          if (next == hints.size()) return r;
          r.kind = flint::model::H3Model::HintReply::Kind::kHint;
          r.hint = hints[next++];
          r.hint.cycle += service_start;
          return r;
        };
        o.loaded_bursts = loaded;
        o.check_data = check_data;
        o.seed = dopt.seed;
        o.crq_entries = crq;
        flint::model::H3Model h3(*cfg, o);
        service_start = h3.Load();
        feed.set_service_start(service_start);
        std::optional<flint::sim::H3HintFeed> closed_hints;
        if (closed) {
          closed_hints.emplace(gen, ho, service_start);
          h3.Run(flint::model::H3Model::PolledSource(source),
                 [&](uint64_t now) { return closed_hints->Ask(now); }, sink);
        } else {
          h3.Run(flint::model::H3Model::PolledSource(source), hint_source, sink);
        }
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::ostringstream extra;
        extra << ", \"hints\": " << (closed ? closed_hints->size() : hints.size())
              << ", \"hint_fetches\": " << h3.extra().hint_fetches
              << ", \"demand_fetches\": " << h3.extra().demand_fetches
              << ", \"unused_evictions\": " << h3.extra().unused_evictions
              << ", \"evicted_waiting\": " << h3.extra().evicted_waiting
              << ", \"slots\": " << o.slots << ", \"min_residency_cycles\": "
              << h3.min_residency_cycles() << ", \"evict\": \""
              << (o.evict == flint::model::H3Evict::kStrictFifo ? "strict-fifo" : "hold-while-pending")
              << "\", \"demand_first\": " << (o.demand_first ? "true" : "false");
        line = Json(engine, *cfg, h3.stats(), wall, extra.str());
      } else {
        throw std::invalid_argument("unknown engine '" + engine + "' (flint-eval --help)");
      }
      std::printf("%s  %s", first ? "" : ",\n", line.c_str());
      std::fflush(stdout);
      first = false;
    }
    std::printf("\n]}\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flint-eval: %s\n", e.what());
    return 1;
  }
}
