// flint-trace-gen: decode-step traces of the FLINT workloads (docs/workloads.md) in the trace
// format (docs/trace_format.md), and per-layer summaries of what a step reads.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "sim/engines/h3_hints.hpp"
#include "sim/tools/cli.hpp"
#include "sim/workload/workload_gen.hpp"

namespace {

using flint::cli::Exact;
using flint::sim::DecodeGenerator;
using flint::sim::DecodeOptions;

constexpr const char* kAbout =
    "Decode-step weight traffic of an LLM on FLINT's HBF, as a trace (<cycle> <sm> <address>;\n"
    "docs/trace_format.md), per-layer summaries of what a step reads, and H3's prefetch hints.\n"
    "Give at least one of --out, --summary, --count, --write-routing, --hints-out.";

std::string Bytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", b, units[u]);
  return buf;
}

std::string PhaseLabel(const flint::sim::PhaseSummary& p) {
  if (p.layer < 0) return flint::sim::PhaseKindName(p.kind);
  return "L" + std::to_string(p.layer);
}

void PrintSummary(std::ostream& os, const DecodeGenerator& gen,
                  const std::vector<flint::sim::StepSummary>& steps, const std::string& stack) {
  const auto& lay = gen.layout();
  const auto& o = gen.options();
  const double cl = static_cast<double>(lay.cl_bytes());
  const double burst = static_cast<double>(lay.burst_bytes());
  const double n = static_cast<double>(steps.size());
  char line[256];
  os << "model " << gen.model().name << " (" << gen.model().display
     << "): " << lay.param_count() / 1e9 << " B params, "
     << Bytes(static_cast<double>(lay.weight_bytes())) << " of weights in " << lay.total_bursts()
     << " bursts of " << Bytes(burst) << "\n";
  os << "batch " << o.batch << ", " << o.steps << " step(s), seed " << o.seed;
  if (gen.model().IsMoe()) {
    os << (o.router ? ", routing from file" : ", skew " + Exact(o.skew));
  }
  os << "; " << o.sms << " SMs, " << gen.issue_interval() << " cycles/line/SM; " << o.stacks
     << " stacks, columns 'stack' = " << stack << "\n";
  os << "per step (mean over steps):\n";
  std::snprintf(line, sizeof line, "%-6s %-5s %8s %14s %10s %14s %10s %7s %12s\n", "phase", "kind",
                "experts", "bytes", "bursts", "stack bytes", "stack bur.", "useful", "cycles");
  os << line;
  const size_t phases = steps.front().phases.size();
  for (size_t p = 0; p < phases; ++p) {
    double experts = 0, lines = 0, bursts = 0, slines = 0, sbursts = 0, cycles = 0;
    for (const auto& s : steps) {
      const auto& ph = s.phases[p];
      experts += ph.experts;
      lines += ph.lines;
      bursts += ph.bursts;
      slines += ph.stack_lines;
      sbursts += ph.stack_bursts;
      cycles += ph.end_cycle - ph.start_cycle;
    }
    const auto& ph0 = steps.front().phases[p];
    std::snprintf(line, sizeof line, "%-6s %-5s %8.1f %14.0f %10.1f %14.0f %10.1f %6.1f%% %12.0f\n",
                  PhaseLabel(ph0).c_str(), flint::sim::PhaseKindName(ph0.kind), experts / n,
                  lines * cl / n, bursts / n, slines * cl / n, sbursts / n,
                  bursts > 0 ? 100.0 * lines * cl / (bursts * burst) : 0.0, cycles / n);
    os << line;
  }
  double lines = 0, bursts = 0, slines = 0, sbursts = 0, cycles = 0;
  for (const auto& s : steps) {
    lines += s.lines;
    bursts += s.bursts;
    slines += s.stack_lines;
    sbursts += s.stack_bursts;
    cycles += s.end_cycle - s.start_cycle;
  }
  std::snprintf(line, sizeof line,
                "per step: %s useful (%.0f lines) in %.1f distinct bursts (%s if each is sensed "
                "once: %.2f%% useful); stack %s: %s (%.0f lines) in %.1f bursts; intent %.0f "
                "cycles\n",
                Bytes(lines * cl / n).c_str(), lines / n, bursts / n,
                Bytes(bursts * burst / n).c_str(),
                bursts > 0 ? 100.0 * lines * cl / (bursts * burst) : 0.0, stack.c_str(),
                Bytes(slines * cl / n).c_str(), slines / n, sbursts / n, cycles / n);
  os << line;
  os << "per generated token (step / batch): " << Bytes(lines * cl / n / o.batch) << " useful, "
     << "stack " << stack << ": " << Bytes(slines * cl / n / o.batch) << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::string model_name, config_name, out_path, routing_path, write_routing, stack_arg = "0";
  std::string hints_out, order = "tiled";
  bool summary = false, count = false, list = false, oracle_hints = false;
  std::optional<uint64_t> layer;
  DecodeOptions o;
  flint::cli::Cli cli("flint-trace-gen", "--model NAME --config CFG [options]", kAbout);
  cli.Section("required:")
      .Text("--model", "NAME", "a model of sim/workload/models.toml (--list-models)", &model_name)
      .Text("--config", "CFG", "small | medium | paper (cache line, burst and stack size)",
            &config_name)
      .Section("outputs:")
      .Text("--out", "FILE", "write the trace to FILE ('-' = stdout)", &out_path)
      .Switch("--summary", "print per-layer bytes, bursts, distinct bursts and useful bytes",
              &summary)
      .Switch("--count", "generate without writing; print the request count and rate", &count)
      .Value("--layer", "L",
             "only layer L's requests (0-based; of every step), cycles moved so the\n"
             "first is at 0: one layer through a slow engine (the paper-size RTL)",
             [&](const std::string& v) { layer = cli.U64("--layer", v, 0, UINT64_MAX >> 1); })
      .Text("--write-routing", "FILE",
            "write the run's routing (drawn or read) as a routing file, to replay\n"
            "it with --routing or edit it",
            &write_routing)
      .Text("--hints-out", "FILE",
            "write the H3 baseline's layer-ahead prefetch hints for the emitted\n"
            "stack (<cycle> <burst>, docs/h3.md): every burst of layer L+1 but the\n"
            "routed experts, at the start of layer L",
            &hints_out)
      .Switch("--oracle-hints", "with --hints-out: hint the routed experts the batch uses too",
              &oracle_hints)
      .Switch("--list-models", "list the models and exit", &list)
      .Section("workload:")
      .Count("--batch", "N", "sequences decoded together (the paper uses 1/4/16/64)", &o.batch, 1,
             65536)
      .Count("--tokens", "T", "decode steps, one token per sequence each", &o.steps, 1, 1000000000)
      .Count("--seed", "S", "seed of routing, token ids and SM jitter", &o.seed, 0, UINT64_MAX >> 1)
      .Number("--skew", "s", "Zipf exponent of expert popularity, 0 = uniform", &o.skew)
      .Text("--routing", "FILE", "measured routing instead of --skew (format: docs/workloads.md)",
            &routing_path)
      .Count("--sms", "N", "SMs the GEMVs are tiled over", &o.sms, 1, 65536)
      .Default("148, B200")
      .Count("--stacks", "N", "HBF stacks the bursts are striped over", &o.stacks, 1, 1024)
      .Text("--stack", "K|all",
            "emit stack K's requests with stack-local addresses, or every\n"
            "stack's with model-logical addresses",
            &stack_arg)
      .Number("--issue-interval", "C", "cycles between one SM's requests", &o.issue_interval)
      .Default("sms / (stacks x lanes): together the SMs ask for the D2D peak of all stacks")
      .Number("--jitter", "J", "per-SM rate spread and start stagger, 0 <= J < 1", &o.jitter)
      .Count("--tile-lines", "K",
             "deal K-line chunks round-robin over the SMs (0: one contiguous tile\n"
             "per SM per tensor)",
             &o.tile_lines, 0, 1ULL << 40)
      .Count("--layer-gap", "C", "idle cycles between layers", &o.layer_gap_cycles, 0, 1ULL << 40)
      .Choice("--order",
              "GPU work order (docs/workloads.md): tiled, the per-SM tiles above;\n"
              "cta, kernels split at data dependencies with a barrier between them,\n"
              "--cta-lines-line thread blocks to the SM that frees first",
              {"tiled", "cta"}, &order)
      .Count("--cta-lines", "N", "lines a thread block reads with --order cta", &o.cta_lines, 1,
             1ULL << 30);
  cli.Parse(argc, argv);
  o.order = order == "cta" ? flint::sim::WorkOrder::kCta : flint::sim::WorkOrder::kTiled;
  const bool skew_given = cli.Given("--skew");
  if (cli.Given("--issue-interval") && o.issue_interval <= 0) {
    cli.Fail("--issue-interval must be > 0");
  }
  if (list) {
    for (const auto& m : flint::sim::AllModels()) {
      std::cout << m.name << "  " << m.display << (m.synthetic ? "  (synthetic)" : "") << "\n";
    }
    return 0;
  }
  if (model_name.empty()) cli.Fail("--model is required");
  if (config_name.empty()) cli.Fail("--config is required (small, medium or paper)");
  const flint::sim::ModelShape* model = flint::sim::FindModel(model_name);
  if (model == nullptr) {
    std::string names;
    for (const auto& m : flint::sim::AllModels()) names += " " + m.name;
    cli.Fail("unknown model '" + model_name + "'; models:" + names);
  }
  const flint::Config* config = flint::FindConfig(config_name);
  if (config == nullptr) cli.Fail("unknown config '" + config_name + "' (small, medium or paper)");
  if (out_path.empty() && !summary && !count && write_routing.empty() && hints_out.empty()) {
    cli.Fail("nothing to do: give --out, --summary, --count, --write-routing or --hints-out");
  }
  if (oracle_hints && hints_out.empty()) cli.Fail("--oracle-hints needs --hints-out FILE");
  if (layer && *layer >= model->layers) {
    cli.Fail("--layer " + std::to_string(*layer) + ": model " + model->name + " has layers 0.." +
             std::to_string(model->layers - 1));
  }
  if (layer && !hints_out.empty()) cli.Fail("--layer and --hints-out exclude each other");
  if (!out_path.empty() && count) cli.Fail("--count and --out exclude each other");
  if (stack_arg == "all") {
    o.stack = flint::sim::kAllStacks;
  } else {
    o.stack = static_cast<int64_t>(cli.U64("--stack", stack_arg, 0, 1023));
  }
  if (!routing_path.empty()) {
    if (skew_given) cli.Fail("--skew and --routing exclude each other");
    if (!model->IsMoe()) cli.Fail("model " + model->name + " is dense: --routing does not apply");
    try {
      o.router = std::make_shared<flint::sim::RoutingTrace>(
          flint::sim::RoutingTrace::ReadFile(routing_path, *model, o.batch));
    } catch (const flint::sim::RoutingError& e) {
      cli.Fail(std::string("routing file: ") + e.what());
    }
  }

  std::unique_ptr<DecodeGenerator> gen;
  try {
    gen = std::make_unique<DecodeGenerator>(*model, *config, o);
  } catch (const std::invalid_argument& e) {
    cli.Fail(e.what());
  }
  const std::string stack_label =
      o.stack == flint::sim::kAllStacks ? "all" : std::to_string(o.stack);

  std::ofstream file;
  std::ostream* out = nullptr;
  if (out_path == "-") {
    out = &std::cout;
  } else if (!out_path.empty()) {
    file.open(out_path, std::ios::binary);
    if (!file) cli.Fail("cannot write '" + out_path + "'");
    out = &file;
  }
  if (!write_routing.empty()) {
    if (!model->IsMoe()) cli.Fail("model " + model->name + " is dense: it has no routing to write");
    std::ofstream rf(write_routing);
    if (!rf) cli.Fail("cannot write '" + write_routing + "'");
    flint::sim::WriteRouting(rf, *model, *gen->router(), o.batch, o.steps);
    if (!rf) cli.Fail("write error on '" + write_routing + "'");
  }
  if (!hints_out.empty()) {
    if (hints_out == out_path) cli.Fail("--hints-out and --out name the same file");
    std::ofstream hf(hints_out);
    if (!hf) cli.Fail("cannot write '" + hints_out + "'");
    const auto hints = flint::sim::MakeH3Hints(*gen, {oracle_hints});
    std::ostringstream hdr;
    hdr << "H3 " << (oracle_hints ? "oracle " : "") << "layer-ahead prefetch hints (docs/h3.md) for "
        << "flint-trace-gen --model " << model->name << " --config " << config->name
        << " --batch " << o.batch << " --tokens " << o.steps << " --seed " << o.seed
        << (o.router ? " --routing " + routing_path : " --skew " + Exact(o.skew)) << " --sms "
        << o.sms << " --stacks " << o.stacks << " --stack " << stack_label << " --issue-interval "
        << Exact(gen->issue_interval()) << " --jitter " << Exact(o.jitter) << " --tile-lines "
        << o.tile_lines << " --layer-gap " << o.layer_gap_cycles << " --order "
        << flint::sim::WorkOrderName(o.order) << " --cta-lines " << o.cta_lines << "\n"
        << "bursts: " << (o.stack == flint::sim::kAllStacks ? "model-logical" : "stack-local")
        << " burst index (trace address / " << config->burst_bytes << "); " << hints.size()
        << " hints";
    flint::sim::WriteH3Hints(hf, hints, hdr.str());
    hf.flush();
    if (!hf) cli.Fail("write error on '" + hints_out + "'");
  }
  std::ostream& info = out == &std::cout ? std::cerr : std::cout;
  if (summary) PrintSummary(info, *gen, gen->Summarize(), stack_label);

  if (out != nullptr || count) {
    const auto t0 = std::chrono::steady_clock::now();
    uint64_t n = 0;
    if (out != nullptr) {
      flint::sim::TraceTextWriter w(*out);
      std::ostringstream hdr;
      hdr << "flint-trace-gen --model " << model->name << " --config " << config->name
          << " --batch " << o.batch << " --tokens " << o.steps << " --seed " << o.seed
          << (o.router ? " --routing " + routing_path : " --skew " + Exact(o.skew)) << " --sms "
          << o.sms << " --stacks " << o.stacks << " --stack " << stack_label << " --issue-interval "
          << Exact(gen->issue_interval()) << " --jitter " << Exact(o.jitter) << " --tile-lines "
          << o.tile_lines << " --layer-gap " << o.layer_gap_cycles << " --order "
          << flint::sim::WorkOrderName(o.order) << " --cta-lines " << o.cta_lines
          << (layer ? " --layer " + std::to_string(*layer) : std::string()) << "\n";
      if (layer) hdr << "cycles: from the layer's first request\n";
      if (o.stack == flint::sim::kAllStacks) {
        hdr << "addresses: model-logical (burst b is on stack b mod " << o.stacks << ")\n";
      } else {
        hdr << "addresses: stack-local bytes of stack " << o.stack << " of " << o.stacks
            << " (model burst b -> stack b mod " << o.stacks << ", local burst b div " << o.stacks
            << ")\n";
      }
      hdr << "<cycle> <sm> <address>";
      w.Comment(hdr.str());
      std::optional<uint64_t> first;
      while (auto r = gen->Next()) {
        if (layer) {
          if (gen->current_phase() != 1 + *layer) continue;
          if (!first) first = r->cycle;
          r->cycle -= *first;
        }
        w.Write(*r);
        ++n;
      }
      w.Flush();
      out->flush();
      if (!*out) cli.Fail("write error on '" + out_path + "'");
    } else {
      while (gen->Next()) n += !layer || gen->current_phase() == 1 + *layer;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cerr << "flint-trace-gen: " << n << " requests (stack " << stack_label << ") in " << s
              << " s: " << (s > 0 ? n / s / 1e6 : 0.0) << " M requests/s\n";
  }
  return 0;
}
