// flint-sim: a trace (docs/trace_format.md) through one stack's weight tier, with a JSON report.
//
//   flint-sim --config small --engine model --trace FILE --report out.json [--seed N]
//             [--policy fcfs|most-pending] [--placement linear|interleaved] [--bursts N]
//             [--age-cap CYCLES] [--crq N] [--timing-only]
//   flint-sim --engine h3 --hints FILE [--slots N] [--min-residency CYCLES] [--demand-first] ...
//
// The trace (and the hints file) is validated in a first pass (a bad line stops the run before
// any simulation, naming its line), then streamed through the engine (sim/engines/engine.hpp,
// chosen by name). Engines: `model` is the burst-buffer controller's golden model (model/bbc)
// over the NAND die models; `h3` is the H3 baseline (model/h3, docs/h3.md) over the same dies, its
// prefetch hints from a file that flint-trace-gen --hints-out writes; `rtl` is the Verilated
// stack top (rtl/top/flint_top.sv, docs/top.md), loaded through its own write path, refresh on,
// at the configs it is built for:
//   flint-sim --config small --engine rtl --trace FILE --report out.json [--seed N]
//             [--bursts N] [--erase] [--mount] [--fast-powerup] [--check-fast-powerup]
//             [--waves out.fst] [--pe-cycles N] [--rber-at-limit R]
// --pe-cycles, --rber-at-limit: the NAND model's wear and error scale, for a fault campaign
// through the whole read path (docs/fault_campaign.md).
// --mount: the dies are preloaded with what the load would write and the loader only fills the
// BTT (docs/top.md "Mount"; test_top proves the two leave the same state): at paper a load
// through the write path programs every page of every live block, days of simulation.
// --fast-powerup: the power-up's clearing sweeps (262 146 cycles at paper) are written into the
// model by a backdoor but for their last cycles (verif/top/backdoor.hpp; test_top proves the
// state and every later cycle the same); their cycles still count in simulated_cycles.
// --check-fast-powerup: that proof on this run (make rtl-big's at medium), against a second model
// powered up by the sweeps.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "sim/engines/engine.hpp"
#include "sim/engines/h3_hints.hpp"
#include "sim/tools/cli.hpp"
#include "sim/workload/trace.hpp"

namespace {

constexpr const char* kAbout =
    "Runs a trace (flint-trace-gen writes one; docs/trace_format.md) through FLINT's BBC model\n"
    "(model), H3 (h3) or the Verilated top (rtl), and prints or writes a JSON report. Progress\n"
    "on stderr every few seconds.";

// Checked before the trace is read: a config without a Verilated top is refused by name, not by
// whatever its line size makes of the trace.
bool RtlConfigBuilt(const flint::Config& cfg) {
#if FLINT_WITH_RTL
  bool built = false;
  for (const std::string& c : flint::sim::RtlConfigs()) built = built || c == cfg.name;
  if (built) return true;
  std::string list;
  for (const std::string& c : flint::sim::RtlConfigs()) list += (list.empty() ? "" : ", ") + c;
#if FLINT_RTL_BIG || FLINT_RTL_PAPER
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
  return true;  // MakeEngine says the build has no RTL engine at all
#endif
}

// A validated trace file (and a hints file's hints) as an engine's stream. Trace and hint cycles
// count from the start of service, the end of the engine's model load.
class TraceStream : public flint::sim::Stream {
 public:
  TraceStream(const std::string& path, uint64_t cl_bytes, uint64_t lines,
              const std::vector<flint::sim::H3Hint>& hints)
      : in_(path), reader_(in_, cl_bytes, path), lines_(lines), hints_(hints) {}

  void Start(uint64_t cycle) override { start_ = cycle; }
  flint::model::SourceReply Ask(uint64_t /*now*/) override {
    const auto r = reader_.Next();
    if (!r) return {};
    if ((id_ & 0xFFFF) == 0) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last_progress_ > std::chrono::seconds(5)) {
        std::fprintf(stderr, "flint-sim: %llu of %llu requests\n",
                     static_cast<unsigned long long>(id_), static_cast<unsigned long long>(lines_));
        last_progress_ = now;
      }
    }
    return flint::model::SourceReply::Of(
        flint::model::BbcRequest{id_++, start_ + r->cycle, r->sm, r->address});
  }
  void Deliver(const flint::model::BbcResponse& /*r*/) override { ++answered_; }
  flint::model::H3Model::HintReply AskHint(uint64_t /*now*/) override {
    flint::model::H3Model::HintReply r;
    if (next_hint_ == hints_.size()) return r;
    r.kind = flint::model::H3Model::HintReply::Kind::kHint;
    r.hint = hints_[next_hint_++];
    r.hint.cycle += start_;  // hint files count from the start of service too
    return r;
  }
  uint64_t answered() const { return answered_; }

 private:
  std::ifstream in_;
  flint::sim::TraceReader reader_;
  uint64_t lines_;
  const std::vector<flint::sim::H3Hint>& hints_;
  uint64_t start_ = 0, id_ = 0, answered_ = 0;
  size_t next_hint_ = 0;
  std::chrono::steady_clock::time_point last_progress_ = std::chrono::steady_clock::now();
};

int WriteReport(const std::string& report_path, const char* text) {
  if (report_path.empty()) return 0;
  std::ofstream out(report_path);
  out << text;
  if (!out) {
    std::fprintf(stderr, "flint-sim: cannot write %s\n", report_path.c_str());
    return 1;
  }
  return 0;
}

// The RTL engine's report: the model's fields plus the checks, the load and the refresh figures.
int RtlReport(const flint::Config& cfg, const flint::sim::RtlReport& x,
              const std::string& trace_path, const std::string& report_path, uint64_t seed,
              bool mount, double wall) {
  const double util =
      x.cycles ? static_cast<double>(x.link_slots) / static_cast<double>(cfg.lanes * x.cycles)
               : 0.0;
  const double useful =
      x.fetched_bytes ? static_cast<double>(x.useful_bytes) / static_cast<double>(x.fetched_bytes)
                      : 0.0;
  auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  // --check-fast-powerup: the backdoor's model against the sweeps' (rtl_engine.hpp).
  std::string check_json;
  const auto& k = x.check;
  const bool check_ok = !k.run || (k.state_differ == 0 && !k.diverged);
  if (k.run) {
    char cb[1024];
    std::snprintf(cb, sizeof cb,
                  "  \"fast_powerup_check\": {\"ready_cycle\": %llu, \"words\": %llu, "
                  "\"words_differing\": %llu, \"first_difference\": \"%s\", \"cycles\": %llu, "
                  "\"diverged\": %s, \"divergence_cycle\": %llu, \"passed\": %s},\n",
                  u(k.ready_cycle), u(k.words), u(k.state_differ), k.first_difference.c_str(),
                  u(k.cycles), k.diverged ? "true" : "false", u(k.divergence_cycle),
                  check_ok ? "true" : "false");
    check_json = cb;
    std::printf(
        "flint-sim: fast power-up check: %llu swept words, %llu differ; %llu cycles compared, "
        "%s\n",
        u(k.words), u(k.state_differ), u(k.cycles),
        k.diverged ? ("diverged at cycle " + std::to_string(k.divergence_cycle)).c_str()
                   : "every output equal");
  }
  char buf[8192];
  std::snprintf(buf, sizeof buf,
                "{\n"
                "  \"config\": \"%s\",\n  \"engine\": \"rtl\",\n  \"policy\": \"most-pending\",\n"
                "  \"placement\": \"interleaved\",\n  \"trace\": \"%s\",\n  \"seed\": %llu,\n"
                "  \"data_checked\": true,\n  \"refresh\": \"flint\",\n  \"load\": \"%s\",\n"
                "  \"requests\": %llu,\n  \"responses\": %llu,\n"
                "  \"status\": {\"ok\": %llu, \"corrected\": %llu, \"uncorrectable\": %llu, "
                "\"out_of_range\": %llu, \"not_loaded\": %llu},\n"
                "  \"data_mismatches\": %llu,\n  \"ecc_model_mismatches\": %llu,\n"
                "  \"beyond_code\": %llu,\n  \"check_violations\": %llu,\n"
                "  \"miscorrected_copy_lines\": %llu,\n"
                "  \"cycles\": %llu,\n  \"load_cycles\": %llu,\n  \"simulated_cycles\": %llu,\n"
                "  \"powerup_cycles\": %llu,\n  \"powerup_backdoor_cycles\": %llu,\n"
                "  \"powerup_seconds\": %.3f,\n  \"run_seconds\": %.3f,\n  \"threads\": %u,\n"
                "  \"bursts_issued\": %llu,\n  \"bursts_refetched\": %llu,\n"
                "  \"useful_bytes\": %llu,\n  \"fetched_bytes\": %llu,\n"
                "  \"useful_fraction\": %.6f,\n  \"channel_utilization\": %.6f,\n"
                "  \"refresh_stall_cycles\": %llu,\n"
                "  \"refresh_rt\": {\"rotations\": %llu, \"pages_forked\": %llu, "
                "\"pages_scrubbed\": %llu, \"pages_programmed\": %llu, \"blocks_erased\": %llu, "
                "\"disturb_alarms\": %llu, \"max_read_count\": %llu},\n"
                "  \"queue_high_water\": %llu,\n  \"age_cap_displacements\": %llu,\n"
                "  \"nand_read_energy_pj\": %.1f,\n  \"nand_program_energy_pj\": %.1f,\n"
                "  \"nand_erase_energy_pj\": %.1f,\n%s  \"wall_seconds\": %.3f\n}\n",
                cfg.name.data(), trace_path.c_str(), u(seed), mount ? "mount" : "write",
                u(x.requests), u(x.responses), u(x.status[0]), u(x.status[1]), u(x.status[2]),
                u(x.status[3]), u(x.status[4]), u(x.data_mismatches), u(x.model_mismatches),
                u(x.beyond_code), u(x.violations), u(x.miscorrected_copies), u(x.cycles),
                u(x.load_cycles), u(x.sim_cycles), u(x.powerup_cycles),
                u(x.powerup_backdoor_cycles), x.powerup_seconds, x.run_seconds, x.threads,
                u(x.bursts), u(x.refetched),
                u(x.useful_bytes), u(x.fetched_bytes), useful, util, u(x.park_wait_cycles),
                u(x.rotations), u(x.forked), u(x.scrubbed), u(x.programmed), u(x.erased),
                u(x.disturb_alarms), u(x.max_read_count), u(x.queue_high_water), u(x.displacements),
                x.nand_read_pj, x.nand_program_pj, x.nand_erase_pj, check_json.c_str(), wall);
  if (WriteReport(report_path, buf) != 0) return 1;
  std::printf(
      "flint-sim: rtl on %s: %s in %llu cycles; %llu requests in %llu cycles, %llu "
      "responses (ok %llu, corrected %llu, uncorrectable %llu, out of range %llu, not "
      "loaded %llu)\n"
      "flint-sim: %llu bursts sensed (%llu re-fetched), useful %.1f %% of fetched, "
      "channel %.1f %% busy; refresh: %llu pages copied (%llu forked, %llu scrubbed), "
      "%llu rotations, %llu stall cycles\n"
      "flint-sim: checks: %llu data mismatches, %llu ECC-model mismatches, %llu "
      "violations; %.1f s\n",
      cfg.name.data(), mount ? "mounted" : "loaded", u(x.load_cycles), u(x.requests), u(x.cycles),
      u(x.responses), u(x.status[0]), u(x.status[1]), u(x.status[2]), u(x.status[3]),
      u(x.status[4]), u(x.bursts), u(x.refetched), 100.0 * useful, 100.0 * util, u(x.programmed),
      u(x.forked), u(x.scrubbed), u(x.rotations), u(x.park_wait_cycles), u(x.data_mismatches),
      u(x.model_mismatches), u(x.violations), wall);
  if (x.violations) std::fprintf(stderr, "flint-sim: %s\n", x.first_violation.c_str());
  const bool clean = x.responses == x.requests && x.data_mismatches == 0 &&
                     x.model_mismatches == 0 && x.violations == 0 && check_ok;
  return clean ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string config_name = "small", engine_name = "model", trace_path, report_path, hints_path;
  std::string waves, policy = "most-pending", placement = "interleaved";
  flint::model::BbcOptions opt;
  uint64_t slots = 2, min_residency = 0;
  bool demand_first = false, erase = false, mount = false, timing_only = false;
  bool fast_powerup = false, check_fast_powerup = false;
  uint64_t pe_cycles = 0;
  double rber_at_limit = 0;

  flint::cli::Cli cli("flint-sim", "--trace FILE [options]", kAbout);
  cli.Text("--trace", "FILE", "the trace (docs/trace_format.md); required", &trace_path)
      .Text("--config", "CFG", "small | small_refresh | medium | paper", &config_name)
      .Choice("--engine", "what serves the trace", {"model", "h3", "rtl"}, &engine_name)
      .Text("--report", "FILE", "write the JSON report to FILE", &report_path)
      .Count("--seed", "N", "the NAND dies' error draws (rtl: the RTL's initial state too)",
             &opt.seed)
      .Count("--bursts", "N", "bursts loaded, from burst 0", &opt.loaded_bursts)
      .Default("the whole stack")
      .Section("model and h3 engines:")
      .Value(
          "--policy", "fcfs|most-pending", "the BBC's burst pick (model)",
          [&](const std::string& v) { opt.policy = flint::model::ParseBbcPolicy(v); }, policy)
      .Value(
          "--placement", "linear|interleaved", "bursts on the dies' planes and blocks",
          [&](const std::string& v) { opt.placement = flint::model::ParseBurstPlacement(v); },
          placement)
      .Count("--age-cap", "CYCLES", "age that makes a queued request's burst the next pick",
             &opt.age_cap_cycles)
      .Default("4 burst periods")
      .Count("--crq", "N", "request queue entries", &opt.crq_entries, 1)
      .Default("the config's")
      .Switch("--timing-only", "no data read, decoded or checked", &timing_only)
      .Section("h3 engine:")
      .Text("--hints", "FILE",
            "H3's prefetch hints (flint-trace-gen --hints-out writes them; an empty\n"
            "file means demand fetches only); required",
            &hints_path)
      .Count("--slots", "N", "LHB slots", &slots, 1, 1024)
      .Count("--min-residency", "CYCLES", "cycles a filled slot stays", &min_residency)
      .Default("5000 scaled by tR / 2000")
      .Switch("--demand-first", "demand misses before pending hints", &demand_first)
      .Section("rtl engine:")
      .Text("--waves", "FILE", "write an FST (and a GTKWave save file beside it)", &waves)
      .Switch("--erase", "erase every block before the load", &erase)
      .Switch("--mount", "preload the dies and mount instead of loading (docs/top.md)", &mount)
      .Switch("--fast-powerup",
              "write the power-up sweeps' state by a backdoor instead of clocking\n"
              "them (docs/top.md \"Power-up\"; at paper 262 146 cycles)",
              &fast_powerup)
      .Switch("--check-fast-powerup",
              "also power up a second model by the sweeps and require the same\n"
              "swept state and the same outputs every cycle (twice the run)",
              &check_fast_powerup)
      .Count("--pe-cycles", "N",
             "every block starts at N program/erase cycles (the NAND model's wear;\n"
             "the config's pe_limit is the end of life)",
             &pe_cycles)
      .Default("0, fresh")
      .Number("--rber-at-limit", "R",
              "the NAND model's disturb and retention term at its limit, at the\n"
              "end of the P/E budget (an accelerated fault campaign)",
              &rber_at_limit, 0.0, 0.5)
      .Default("1e-4 (docs/nand_model.md)");
  cli.Parse(argc, argv);
  if (timing_only) opt.check_data = false;
  const bool model_flag = opt.policy != flint::model::BbcPolicy::kMostPending ||
                          opt.placement != flint::model::BurstPlacement::kInterleaved ||
                          cli.Given("--age-cap") || cli.Given("--crq") ||
                          cli.Given("--timing-only");
  const bool h3_flag =
      cli.Given("--slots") || cli.Given("--min-residency") || cli.Given("--demand-first");

  if (trace_path.empty()) cli.Fail("--trace FILE is required");
  if (engine_name != "rtl" &&
      (!waves.empty() || erase || mount || fast_powerup || check_fast_powerup ||
       cli.Given("--pe-cycles") || cli.Given("--rber-at-limit"))) {
    cli.Fail(
        "--waves, --erase, --mount, --fast-powerup, --check-fast-powerup, --pe-cycles and "
        "--rber-at-limit are for --engine rtl");
  }
  if (engine_name == "rtl" && (model_flag || !hints_path.empty() || h3_flag)) {
    cli.Fail(
        "the RTL is built with the most-pending policy, the interleaved placement and the "
        "config's queue; --policy, --placement, --age-cap, --crq, --timing-only and the "
        "h3 options are for the model engines");
  }
  const bool h3 = engine_name == "h3";
  if (h3 && hints_path.empty()) {
    cli.Fail(
        "--engine h3 needs --hints FILE (flint-trace-gen --hints-out writes one; an empty "
        "file means demand fetches only)");
  }
  if (!h3 && (!hints_path.empty() || h3_flag)) {
    cli.Fail("--hints, --slots, --min-residency and --demand-first are for --engine h3");
  }
  const flint::Config* cfg = flint::FindConfig(config_name);
  if (cfg == nullptr) cli.Fail("no config named '" + config_name + "'");
  if (engine_name == "rtl" && !RtlConfigBuilt(*cfg)) return 2;

  flint::sim::EngineOptions eo;
  eo.bbc = opt;
  eo.h3.slots = static_cast<uint32_t>(slots);
  eo.h3.min_residency_cycles = min_residency;
  eo.h3.loaded_bursts = opt.loaded_bursts;
  eo.h3.placement = opt.placement;
  eo.h3.seed = opt.seed;
  eo.h3.check_data = opt.check_data;
  eo.h3.crq_entries = opt.crq_entries;
  eo.h3.demand_first = demand_first;
  eo.rtl.loaded_bursts = opt.loaded_bursts;
  eo.rtl.seed = opt.seed;
  eo.rtl.erase = erase;
  eo.rtl.mount = mount;
  eo.rtl.fast_powerup = fast_powerup;
  eo.rtl.check_fast_powerup = check_fast_powerup;
  eo.rtl.waves = waves;
  eo.rtl.pe_cycles = pe_cycles;
  eo.rtl.rber_at_limit = rber_at_limit;
  std::unique_ptr<flint::sim::Engine> engine;
  try {
    engine = flint::sim::MakeEngine(engine_name, *cfg, eo);
  } catch (const flint::sim::UnavailableEngine& e) {
    std::fprintf(stderr, "flint-sim: %s\n", e.what());
    return 2;
  }

  const auto t0 = std::chrono::steady_clock::now();
  uint64_t lines = 0;
  std::vector<flint::sim::H3Hint> hints;
  try {
    lines = flint::sim::ValidateTraceFile(trace_path, cfg->cl_bytes);
    if (engine->hints() != flint::sim::Hints::kNone) {
      hints = flint::sim::ReadH3HintsFile(hints_path);
    }
  } catch (const flint::sim::TraceError& e) {
    std::fprintf(stderr, "flint-sim: %s\n", e.what());
    return 1;
  }

  try {
    TraceStream stream(trace_path, cfg->cl_bytes, lines, hints);
    const flint::sim::EngineReport rep = engine->Run(stream);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rep.rtl) return RtlReport(*cfg, *rep.rtl, trace_path, report_path, opt.seed, mount, wall);

    const flint::model::BbcStats& s = rep.stats;
    std::string policy_name = std::string(ToString(opt.policy)), engine_json;
    auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
    if (rep.h3) {
      const flint::model::H3Extra& e = rep.h3->extra;
      policy_name = demand_first ? "demand-first" : "fifo";
      char hb[1024];
      std::snprintf(hb, sizeof hb,
                    "  \"h3\": {\"hints_file\": \"%s\", \"slots\": %llu, "
                    "\"min_residency_cycles\": %llu, \"hints\": %llu, \"hints_skipped\": %llu, "
                    "\"hints_invalid\": %llu, \"hints_overtaken\": %llu, \"hint_fetches\": %llu, "
                    "\"demand_fetches\": %llu, \"demand_misses\": %llu, \"evictions\": %llu, "
                    "\"unused_evictions\": %llu, \"residency_waits\": %llu},\n",
                    hints_path.c_str(), u(slots), u(rep.h3->min_residency_cycles), u(e.hints),
                    u(e.hints_skipped), u(e.hints_invalid), u(e.hints_overtaken), u(e.hint_fetches),
                    u(e.demand_fetches), u(e.demand_misses), u(e.evictions), u(e.unused_evictions),
                    u(e.residency_waits));
      engine_json = hb;
    } else {
      // The scheduler slots the RTL would need never to refuse a request (docs/bbc.md, "Slots").
      engine_json =
          "  \"bursts_in_flight_high_water\": " + std::to_string(s.bursts_in_flight_high_water) +
          ",\n  \"die_queue_high_water\": " + std::to_string(s.die_queue_high_water) + ",\n";
    }
    if (stream.answered() != s.requests || s.responses != s.requests) {
      std::fprintf(stderr, "flint-sim: %llu requests but %llu responses\n", u(s.requests),
                   u(stream.answered()));
      return 1;
    }
    const uint64_t cycles = s.last_cycle > s.first_cycle ? s.last_cycle - s.first_cycle : 0;
    const double busy = s.ChannelBusyCycles(cfg->lanes);
    const double util = cycles ? busy / static_cast<double>(cycles) : 0.0;
    const double useful =
        s.fetched_bytes ? static_cast<double>(s.useful_bytes) / static_cast<double>(s.fetched_bytes)
                        : 0.0;
    char buf[8192];
    std::snprintf(buf, sizeof buf,
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
                  cfg->name.data(), engine->Name().c_str(), policy_name.c_str(),
                  std::string(flint::model::ToString(opt.placement)).c_str(), trace_path.c_str(),
                  u(opt.seed), opt.check_data ? "true" : "false", u(s.requests), u(s.responses),
                  u(s.status_counts[0]), u(s.status_counts[1]), u(s.status_counts[2]),
                  u(s.status_counts[3]), u(s.status_counts[4]), u(s.data_mismatches), u(cycles),
                  u(s.load_cycles), u(s.bursts_fetched), u(s.bursts_refetched), u(s.hits),
                  u(s.useful_bytes), u(s.fetched_bytes), useful, busy, util, u(s.queue_high_water),
                  u(s.age_cap_displacements), engine_json.c_str(), rep.nand_read_pj, wall);
    if (WriteReport(report_path, buf) != 0) return 1;
    std::printf(
        "flint-sim: %s on %s, %llu requests in %llu cycles: %llu bursts (%llu re-fetched), "
        "useful %.1f %% of fetched, channel %.1f %% busy, %llu errors, %llu mismatches\n",
        engine->Name().c_str(), cfg->name.data(), u(s.requests), u(cycles), u(s.bursts_fetched),
        u(s.bursts_refetched), 100.0 * useful, 100.0 * util,
        u(s.status_counts[2] + s.status_counts[3] + s.status_counts[4]), u(s.data_mismatches));
    return s.data_mismatches == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flint-sim: %s\n", e.what());
    return 1;
  }
}
