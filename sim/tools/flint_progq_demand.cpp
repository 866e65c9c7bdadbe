// flint-progq-demand: the program-queue demand of the phantom-plane rotation on decode workloads
// (sim/studies/progq_demand.hpp), swept over queue depths and scrub policies. `make progq-demand`
// writes docs/progq_demand.md and docs/progq_demand.json, the measured-demand file `make area`
// sizes the program queues from (schema in docs/synth.md).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "sim/studies/progq_demand.hpp"
#include "sim/tools/cli.hpp"
#include "sim/workload/workload_gen.hpp"

namespace {

using flint::cli::Fmt;

namespace fs = flint::sim;

constexpr const char* kAbout =
    "Runs back-to-back decode steps of each model on one die of one HBF stack while the die\n"
    "rotates its phantom plane, once for every queue depth and scrub policy, and reports the\n"
    "program-queue demand: fork and scrub arrivals, occupancy, residence (Little's law), the\n"
    "copy time against the program-bound one, the phantom's utilisation, the foreground stall\n"
    "and the disturb margin.";

struct Run {
  std::string model;
  fs::ScrubPolicy scrub;
  double idle = 0;
  uint32_t queue = 0;
  fs::ProgqDemandResult r;
};

}  // namespace

int main(int argc, char** argv) {
  std::string config = "paper", out_path, json_path;
  std::vector<std::string> models;
  std::vector<uint32_t> queues = {2, 3, 4, 6, 8, 13, 16, 32, 128};
  std::vector<fs::ScrubPolicy> policies = {fs::ScrubPolicy::kIdleOnly, fs::ScrubPolicy::kSteal};
  std::vector<double> idles = {0.0, 0.1};
  uint64_t batch = 1, seed = 1, copies = 0;
  double pace = 1.1;
  flint::cli::Cli cli("flint-progq-demand", "[options]", kAbout);
  cli.Text("--config", "CFG", "small | small_refresh | medium | paper", &config)
      .Value(
          "--models", "A,B", "models of sim/workload/models.toml",
          [&](const std::string& v) { models = cli.List("--models", v); },
          "every model but the tiny-* ones")
      .Count("--batch", "B", "batch size", &batch, 1)
      .Value(
          "--queues", "K,K", "program-queue depths in pages",
          [&](const std::string& v) {
            queues.clear();
            for (const std::string& q : cli.List("--queues", v)) {
              queues.push_back(static_cast<uint32_t>(cli.U64("--queues", q, 1, 1u << 20)));
            }
          },
          "2,3,4,6,8,13,16,32,128")
      .Value(
          "--scrub", "P,P", "scrub policies: idle (as built) and/or steal",
          [&](const std::string& v) {
            policies.clear();
            for (const std::string& p : cli.List("--scrub", v)) {
              policies.push_back(fs::ParseScrubPolicy(p));
            }
          },
          "idle,steal")
      .Value(
          "--idle", "F,F",
          "fractions of wall time the foreground idles, a gap after every decode\n"
          "step",
          [&](const std::string& v) {
            idles.clear();
            for (const std::string& f : cli.List("--idle", v)) {
              const double x = cli.Real("--idle", f);
              if (!(x >= 0 && x < 1)) cli.Fail("--idle needs fractions in [0, 1), not '" + f + "'");
              idles.push_back(x);
            }
          },
          "0,0.1: saturated, and 10 % idle")
      .Number("--pace", "X", "steal: copy time aimed at over the program-bound one, in [1, 100]",
              &pace, 1.0, 100.0)
      .Default("1.1; the rotation's margin at paper is 1.16")
      .Count("--copies", "N", "plane copies to complete per run", &copies, 1)
      .Default("planes + 1: a whole pass")
      .Count("--seed", "S", "routing seed", &seed)
      .Text("--out", "FILE", "write the Markdown report to FILE", &out_path)
      .Default("stdout")
      .Text("--json", "FILE", "write the measured-demand file (docs/synth.md) to FILE", &json_path);
  cli.Parse(argc, argv);
  const flint::Config* cfg = flint::FindConfig(config);
  if (cfg == nullptr) cli.Fail("unknown config '" + config + "'");
  if (copies == 0) copies = cfg->planes + 1;
  if (models.empty()) {
    for (const auto& m : fs::AllModels()) {
      if (m.name.rfind("tiny-", 0) != 0) models.push_back(m.name);
    }
  }
  const double cycle_s = 1e-6 / static_cast<double>(cfg->clock_mhz);
  const uint64_t xfer = (cfg->page_bytes + cfg->die_io_bytes_per_cycle - 1) /
                        cfg->die_io_bytes_per_cycle;

  std::vector<Run> runs;
  flint::cli::Progress progress("flint-progq-demand",
                                models.size() * policies.size() * idles.size() * queues.size());
  uint64_t done = 0;
  for (const std::string& name : models) {
    const fs::ModelShape* shape = fs::FindModel(name);
    if (shape == nullptr) cli.Fail("unknown model '" + name + "'");
    fs::DecodeOptions o;
    o.batch = static_cast<uint32_t>(batch);
    o.steps = 64;
    o.seed = seed;
    std::unique_ptr<fs::DecodeGenerator> gen;
    try {
      gen = std::make_unique<fs::DecodeGenerator>(*shape, *cfg, o);
    } catch (const std::exception& e) {
      cli.Fail(name + ": " + e.what());
    }
    // A copy that cannot keep up stops the run at 4x the program-bound time of the pass.
    const uint64_t live = flint::model::LiveBlocks(
        gen->striping().BurstsOn(gen->layout().total_bursts(), 0), cfg->pages);
    const uint64_t max_cycles =
        4 * copies * live * (cfg->pages * (cfg->t_prog_cycles + xfer) + cfg->t_erase_cycles);
    for (fs::ScrubPolicy p : policies) {
      for (double idle : idles) {
        for (uint32_t k : queues) {
          fs::ProgqDemandOptions po;
          po.queue_pages = k;
          po.scrub = p;
          po.idle_fraction = idle;
          po.pace = pace;
          po.copies = copies;
          po.max_cycles = max_cycles;
          Run run{name, p, idle, k, fs::RunProgqDemand(*gen, *cfg, po)};
          std::ostringstream what;
          what << name << " " << fs::ToString(p) << " idle " << idle << " K=" << k << ": "
               << run.r.copies << "/" << copies << " copies";
          progress.Step(++done, what.str());
          runs.push_back(run);
        }
      }
    }
  }

  std::ostringstream cmd;
  cmd << "flint-progq-demand --config " << config << " --batch " << batch << " --pace " << pace
      << " --copies " << copies << " --seed " << seed;
  std::ostringstream md, js;
  md << "# Program-queue demand of the phantom-plane rotation\n\n"
     << "Generated by `" << cmd.str() << "` (`make progq-demand`); model and assumptions in "
     << "sim/studies/progq_demand.hpp. One die of stack 0 (every die sees the same bursts and "
        "rotates in lockstep), decode steps at batch "
     << batch << " with an idle gap after each (the idle column: the fraction of wall time the "
        "foreground idles), interleaved placement, each run until " << copies
     << " plane copies have switched in (or 4x their program-bound time). A copy is bound by "
        "the phantom's program rate at live blocks x PAGES x (data-in + tPROG); each is followed "
        "by live blocks x tERASE. Policies: **idle** is the scrubber as built (reads only while "
        "the foreground idles); **steal** also takes one foreground burst slot when the queue is "
        "empty, the phantom is about to idle and the copy is behind its pace (the stall column: "
        "stolen time over foreground time). What it means for the design: docs/refresh.md, "
        "\"Program-queue demand, measured\"; the queue size it gives: docs/area.md, \"Beyond the "
        "paper\".\n\n"
     << "| model | scrub | idle | queue (pages) | copies | copy / program-bound | phantom busy | "
        "forks offered | taken | dropped | scrubbed (idle / stolen) | foreground stall | "
        "lambda (pages/s) | L (pages) | W (us) | lambda W / L | peak | max count / limit |\n"
     << "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        "---:|\n";
  js << "{\n\"kind\": \"measured\",\n\"source\": \"" << cmd.str() << " (make progq-demand)\",\n"
     << "\"config\": \"" << config << "\",\n\"batch\": " << batch << ",\n\"pace\": " << pace
     << ",\n\"disturb_limit\": " << cfg->disturb_limit << ",\n\"sweep\": [";
  // The sizing run for per_die: the largest queue under steal of the model with the most
  // arrivals (the oversized queue the schema asks for).
  const Run* sizing = nullptr;
  for (size_t i = 0; i < runs.size(); ++i) {
    const Run& u = runs[i];
    const fs::ProgqDemandResult& r = u.r;
    const double bound = static_cast<double>(r.live_blocks * cfg->pages *
                                             (cfg->t_prog_cycles + xfer));
    const double copy_ratio =
        r.copies ? static_cast<double>(r.copy_cycles_sum) / static_cast<double>(r.copies) / bound
                 : 0.0;
    const double lam = r.arrival_per_cycle() / cycle_s;
    const double l = r.mean_occupancy();
    const double w = r.mean_residence_cycles() * cycle_s;
    const double little = l > 0 ? lam * w / l : 0.0;
    const double count = static_cast<double>(r.max_block_count) /
                         static_cast<double>(cfg->disturb_limit);
    md << "| " << u.model << " | " << fs::ToString(u.scrub) << " | " << Fmt("%.2f", u.idle)
       << " | " << u.queue << " | "
       << r.copies << "/" << copies << " | "
       << (r.copies ? Fmt("%.3f", copy_ratio) : std::string("-")) << " | "
       << Fmt("%.1f %%", 100.0 * r.phantom_utilisation()) << " | " << r.forks_offered << " | "
       << r.forks_taken << " | " << r.forks_dropped << " | " << r.scrubbed_idle << " / "
       << r.scrubbed_stolen << " | " << Fmt("%.2f %%", 100.0 * r.stall_fraction()) << " | "
       << Fmt("%.0f", lam) << " | " << Fmt("%.2f", l) << " | " << Fmt("%.1f", w * 1e6) << " | "
       << Fmt("%.3f", little) << " | " << r.peak_occupancy << " | " << Fmt("%.3f", count)
       << " |\n";
    js << (i ? ",\n" : "\n") << " {\"model\": \"" << u.model << "\", \"scrub\": \""
       << fs::ToString(u.scrub) << "\", \"idle_fraction\": " << Fmt("%.6g", u.idle)
       << ", \"queue_pages\": " << u.queue
       << ", \"live_blocks\": " << r.live_blocks << ", \"copies\": " << r.copies
       << ", \"copies_asked\": " << copies << ", \"simulated_s\": "
       << Fmt("%.6g", static_cast<double>(r.cycles) * cycle_s)
       << ", \"copy_over_program_bound\": " << Fmt("%.6g", copy_ratio)
       << ", \"max_copy_s\": " << Fmt("%.6g", static_cast<double>(r.copy_cycles_max) * cycle_s)
       << ", \"phantom_utilisation\": " << Fmt("%.6g", r.phantom_utilisation())
       << ", \"forks_offered\": " << r.forks_offered << ", \"forks_taken\": " << r.forks_taken
       << ", \"forks_dropped\": " << r.forks_dropped << ", \"scrubbed_idle\": "
       << r.scrubbed_idle << ", \"scrubbed_stolen\": " << r.scrubbed_stolen
       << ", \"programmed\": " << r.programmed << ", \"stall_fraction\": "
       << Fmt("%.6g", r.stall_fraction()) << ", \"arrival_pages_per_s\": " << Fmt("%.6g", lam)
       << ", \"mean_occupancy_pages\": " << Fmt("%.6g", l) << ", \"mean_residence_s\": "
       << Fmt("%.6g", w) << ", \"peak_occupancy_pages\": " << r.peak_occupancy
       << ", \"max_count_over_limit\": " << Fmt("%.6g", count) << "}";
    if (u.scrub == fs::ScrubPolicy::kSteal && u.idle == 0 &&
        (sizing == nullptr || u.queue > sizing->queue ||
         (u.queue == sizing->queue && r.arrival_per_cycle() > sizing->r.arrival_per_cycle()))) {
      sizing = &u;
    }
  }
  js << "\n],\n\"per_die\": [";
  if (sizing != nullptr) {
    const fs::ProgqDemandResult& r = sizing->r;
    js << "\n {\"die\": 0, \"model\": \"" << sizing->model << "\", \"scrub\": \"steal\", "
       << "\"queue_pages\": " << sizing->queue << ", \"arrival_pages_per_s\": "
       << Fmt("%.6g", r.arrival_per_cycle() / cycle_s) << ", \"mean_occupancy_pages\": "
       << Fmt("%.6g", r.mean_occupancy()) << ", \"mean_residence_s\": "
       << Fmt("%.6g", r.mean_residence_cycles() * cycle_s) << ", \"peak_occupancy_pages\": "
       << r.peak_occupancy << "}\n";
  }
  js << "]\n}\n";
  if (!json_path.empty()) {
    std::ofstream f(json_path);
    if (!f) cli.Fail("cannot write '" + json_path + "'");
    f << js.str();
    std::cerr << "flint-progq-demand: wrote " << json_path << "\n";
  }
  if (out_path.empty()) {
    std::cout << md.str();
  } else {
    std::ofstream f(out_path);
    if (!f) cli.Fail("cannot write '" + out_path + "'");
    f << md.str();
    std::cerr << "flint-progq-demand: wrote " << out_path << "\n";
  }
  return 0;
}
