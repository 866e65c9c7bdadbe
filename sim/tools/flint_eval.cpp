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
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "model/h3/h3_model.hpp"
#include "sim/engines/engine.hpp"
#include "sim/engines/engine_feed.hpp"
#include "sim/tools/cli.hpp"
#include "sim/workload/workload_gen.hpp"
#include "sim/workload/workload_model.hpp"

namespace {

using flint::model::BbcStats;

constexpr const char* kAbout =
    "One decode workload through FLINT and H3 on the same stream; one JSON line per engine.\n"
    "Engines (sim/engines/engine.hpp): flint and fcfs, the BBC model under the most-pending and\n"
    "the first-come policy; h3, the paper's H3 (2 slots, strict FIFO after the minimum residency,\n"
    "the 5000-cycle residency read at the GPU's 2.5 GHz, layer-ahead compiler hints); h3-oracle\n"
    "the same with oracle hints; h3-1ghz the residency read at the base die's 1 GHz;\n"
    "h3-demand-first demand misses before pending hints; h3-lhb40 H3's own 40 MB LHB (20 slots);\n"
    "h3-legacy a slot held while requests for it wait, residency at 1 GHz (docs/h3.md).";

// flint-eval's engines (sim/engines/engine.hpp): the BBC model under either policy and H3's
// variants, each changing one assumption of the paper's H3 (docs/h3.md "Variants").
const std::vector<std::string> kEngines = {
    "flint", "fcfs", "h3", "h3-oracle", "h3-1ghz", "h3-demand-first", "h3-lhb40", "h3-legacy"};

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
  std::string model_name, config_name = "paper", order = "tiled", loop = "open";
  std::vector<std::string> list = {"flint", "fcfs", "h3", "h3-oracle"};
  flint::sim::DecodeOptions dopt;
  bool check_data = false;
  uint64_t crq = 0, hold = 0, age_cap = 0;  // BBC options (0: the model's defaults)
  uint64_t t_read_ns = 0, lanes = 0;        // what-if overrides of the config (0: as is)
  std::string engine_list;
  for (const std::string& e : kEngines) engine_list += (engine_list.empty() ? "" : ", ") + e;
  flint::cli::Cli cli("flint-eval", "--model NAME [options]", kAbout);
  cli.Text("--model", "NAME", "a model of sim/workload/models.toml (flint-trace-gen --list-models)",
           &model_name)
      .Text("--config", "CFG", "small | medium | paper", &config_name)
      .Count("--batch", "B", "sequences decoded together", &dopt.batch)
      .Count("--tokens", "T", "decode steps", &dopt.steps)
      .Count("--seed", "S", "seed of routing, token ids, SM jitter and the dies' error draws",
             &dopt.seed)
      .Number("--skew", "s", "Zipf exponent of expert popularity", &dopt.skew)
      .Count("--stacks", "N", "HBF stacks the bursts are striped over", &dopt.stacks)
      .Count("--stack", "K", "the stack simulated", &dopt.stack, 0)
      .Choice("--order",
              "GPU work order: tiled (per-SM tiles, the old order) or cta (kernels at\n"
              "data dependencies, CTAs of --cta-lines lines to the SM that frees first);\n"
              "docs/workloads.md",
              {"tiled", "cta"}, &order)
      .Count("--cta-lines", "N", "lines of one thread block with --order cta", &dopt.cta_lines)
      .Count("--tile-lines", "K", "deal K-line chunks round-robin over the SMs", &dopt.tile_lines)
      .Count("--sms", "N", "SMs the GEMVs are tiled over", &dopt.sms)
      .Number("--jitter", "J", "per-SM rate spread and start stagger", &dopt.jitter)
      .Choice("--loop",
              "open: SMs issue at a fixed pace and never wait; closed (--order cta\n"
              "only): an SM holds at most --max-outstanding lines in flight and issues\n"
              "the next when a response frees a slot, and a kernel ends when its last\n"
              "response is in; each engine gets its own stream",
              {"open", "closed"}, &loop)
      .Count("--max-outstanding", "K",
             "closed loop: lines of the simulated stack one SM may have in flight",
             &dopt.max_outstanding, 1)
      .Default("--cta-lines: one thread block's")
      .Count("--crq", "N", "BBC and H3 request queue entries", &crq)
      .Default("the config's")
      .Count("--hold", "C", "BBC: cycles ACTIVE is held after a request", &hold)
      .Default("a quarter burst period")
      .Count("--age-cap", "C", "BBC: age that makes a queued request's burst the next pick",
             &age_cap)
      .Default("4 burst periods")
      .Count("--t-read-ns", "N", "tR in ns instead of the config's (a what-if: docs/evaluation.md)",
             &t_read_ns)
      .Default("")
      .Count("--lanes", "N",
             "D2D lanes of one line a cycle instead of the config's (the die I/O,\n"
             "drain time and burst period follow, as scripts/gen_config.py derives)",
             &lanes, 1, 64)
      .Default("")
      .Value(
          "--engines", "LIST", "of " + engine_list + "; docs/h3.md",
          [&](const std::string& v) {
            list = cli.List("--engines", v);
            for (const std::string& e : list) {
              if (std::find(kEngines.begin(), kEngines.end(), e) == kEngines.end()) {
                cli.Fail("--engines: unknown engine '" + e + "' (" + engine_list + ")");
              }
            }
          },
          "flint,fcfs,h3,h3-oracle")
      .Switch("--check-data", "read, decode and compare every line's data", &check_data);
  cli.Parse(argc, argv);
  dopt.order = order == "cta" ? flint::sim::WorkOrder::kCta : flint::sim::WorkOrder::kTiled;
  dopt.loop = loop == "closed" ? flint::sim::WorkLoop::kClosed : flint::sim::WorkLoop::kOpen;
  if (model_name.empty()) cli.Fail("--model NAME is required");
  if (dopt.max_outstanding != 0 && dopt.loop != flint::sim::WorkLoop::kClosed) {
    cli.Fail("--max-outstanding applies to --loop closed");
  }
  if (dopt.loop == flint::sim::WorkLoop::kClosed && dopt.order != flint::sim::WorkOrder::kCta) {
    cli.Fail("--loop closed needs --order cta");
  }
  const flint::Config* base_cfg = flint::FindConfig(config_name);
  if (base_cfg == nullptr) cli.Fail("no config named '" + config_name + "'");
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
  if (shape == nullptr)
    cli.Fail("no model named '" + model_name + "' (flint-trace-gen --list-models)");

  try {
    // The stack's share of the model is what load programs; the rest of the stack is NOT_LOADED.
    flint::sim::DecodeGenerator probe(*shape, *cfg, dopt);
    const uint64_t loaded =
        probe.striping().BurstsOn(probe.layout().total_bursts(), static_cast<uint32_t>(dopt.stack));
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
    // The engines' base options: FLINT's BBC model, and the paper's H3 (strict FIFO, the
    // 5000-cycle residency read at the GPU's 2.5 GHz, layer-ahead compiler hints), which the H3
    // variants change one assumption of each.
    flint::sim::EngineOptions eo;
    eo.bbc.loaded_bursts = loaded;
    eo.bbc.check_data = check_data;
    eo.bbc.seed = dopt.seed;
    eo.bbc.crq_entries = crq;
    eo.bbc.hold_cycles = hold;
    eo.bbc.age_cap_cycles = age_cap;
    eo.h3.evict = flint::model::H3Evict::kStrictFifo;
    eo.h3.residency_gpu_mhz = 2500;
    eo.h3.loaded_bursts = loaded;
    eo.h3.check_data = check_data;
    eo.h3.seed = dopt.seed;
    eo.h3.crq_entries = crq;
    bool first = true;
    for (const std::string& name : list) {
      // Each engine its own generator: the same stream in open loop, its own in closed loop.
      flint::sim::DecodeGenerator gen(*shape, *cfg, dopt);
      const std::unique_ptr<flint::sim::Engine> engine = flint::sim::MakeEngine(name, *cfg, eo);
      const auto t0 = std::chrono::steady_clock::now();
      flint::sim::DecodeStream stream(gen, engine->hints());
      const flint::sim::EngineReport rep = engine->Run(stream);
      const double wall =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::string line;
      if (rep.h3) {
        const flint::model::H3Options& o = rep.h3->options;
        const flint::model::H3Extra& x = rep.h3->extra;
        std::ostringstream extra;
        extra << ", \"hints\": " << stream.hint_count() << ", \"hint_fetches\": " << x.hint_fetches
              << ", \"demand_fetches\": " << x.demand_fetches
              << ", \"unused_evictions\": " << x.unused_evictions
              << ", \"evicted_waiting\": " << x.evicted_waiting << ", \"slots\": " << o.slots
              << ", \"min_residency_cycles\": " << rep.h3->min_residency_cycles << ", \"evict\": \""
              << (o.evict == flint::model::H3Evict::kStrictFifo ? "strict-fifo"
                                                                : "hold-while-pending")
              << "\", \"demand_first\": " << (o.demand_first ? "true" : "false");
        line = Json(name, *cfg, rep.stats, wall, extra.str());
      } else {
        // The scheduler slots the RTL would need never to refuse a request (docs/bbc.md).
        line = Json(
            name, *cfg, rep.stats, wall,
            ", \"bursts_in_flight_high_water\": " +
                std::to_string(rep.stats.bursts_in_flight_high_water) +
                ", \"die_queue_high_water\": " + std::to_string(rep.stats.die_queue_high_water));
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
