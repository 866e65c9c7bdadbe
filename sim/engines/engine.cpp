// The engines behind sim/engines/engine.hpp, and the factory. Compiled into each tool that runs
// engines, not into the flint_sim library: whether the H3 model (FLINT_WITH_H3) and a Verilated
// top (FLINT_WITH_RTL) are there is a property of the tool's build.
#include "sim/engines/engine.hpp"

#include <utility>

namespace flint::sim {
namespace {

// model::BbcModel::PolledSource and Sink onto a Stream.
model::BbcModel::PolledSource SourceOf(Stream& s) {
  return [&s](uint64_t now) { return s.Ask(now); };
}
model::BbcModel::Sink SinkOf(Stream& s) {
  return [&s](const model::BbcResponse& r) { s.Deliver(r); };
}

class BbcEngine : public Engine {
 public:
  BbcEngine(std::string name, const Config& cfg, const model::BbcOptions& o)
      : name_(std::move(name)), cfg_(cfg), options_(o) {}
  std::string Name() const override { return name_; }
  EngineReport Run(Stream& stream) override {
    model::BbcModel bbc(cfg_, options_);
    stream.Start(bbc.Load());
    bbc.Run(SourceOf(stream), SinkOf(stream));
    EngineReport r;
    r.stats = bbc.stats();
    for (const auto& die : bbc.dies()) r.nand_read_pj += die.Energy().read_pj;
    return r;
  }

 private:
  std::string name_;
  const Config& cfg_;
  model::BbcOptions options_;
};

#if FLINT_WITH_H3
class H3Engine : public Engine {
 public:
  H3Engine(std::string name, const Config& cfg, const model::H3Options& o, Hints hints)
      : name_(std::move(name)), cfg_(cfg), options_(o), hints_(hints) {}
  std::string Name() const override { return name_; }
  Hints hints() const override { return hints_; }
  EngineReport Run(Stream& stream) override {
    model::H3Model h3(cfg_, options_);
    stream.Start(h3.Load());
    h3.Run(
        SourceOf(stream), [&stream](uint64_t now) { return stream.AskHint(now); }, SinkOf(stream));
    EngineReport r;
    r.stats = h3.stats();
    for (const auto& die : h3.dies()) r.nand_read_pj += die.Energy().read_pj;
    r.h3 = EngineReport::H3{options_, h3.extra(), h3.min_residency_cycles()};
    return r;
  }

 private:
  std::string name_;
  const Config& cfg_;
  model::H3Options options_;
  Hints hints_;
};
#endif

#if FLINT_WITH_RTL
class RtlEngine : public Engine {
 public:
  RtlEngine(const Config& cfg, const RtlOptions& o) : cfg_(cfg), options_(o) {}
  std::string Name() const override { return "rtl"; }
  EngineReport Run(Stream& stream) override {
    // The RTL counts the requests' cycles from the end of its own load.
    stream.Start(0);
    std::vector<model::BbcRequest> reqs;
    for (;;) {
      const model::SourceReply q = stream.Ask(0);
      if (q.kind == model::SourceReply::Kind::kDone) break;
      if (q.kind == model::SourceReply::Kind::kWait) {
        throw std::invalid_argument(
            "the rtl engine takes an open-loop stream (one that never "
            "waits for a response)");
      }
      reqs.push_back(q.request);
    }
    const RtlReport x = RunRtl(cfg_, options_, reqs);
    EngineReport r;
    model::BbcStats& s = r.stats;
    s.requests = x.requests;
    s.responses = x.responses;
    for (int k = 0; k < 5; ++k) s.status_counts[k] = x.status[k];
    s.data_mismatches = x.data_mismatches;
    s.bursts_fetched = x.bursts;
    s.bursts_refetched = x.refetched;
    s.useful_bytes = x.useful_bytes;
    s.fetched_bytes = x.fetched_bytes;
    s.link_busy_slots = x.link_slots;
    s.queue_high_water = x.queue_high_water;
    s.age_cap_displacements = x.displacements;
    s.load_cycles = x.load_cycles;
    s.last_cycle = x.cycles;
    r.nand_read_pj = x.nand_read_pj;
    r.rtl = x;
    return r;
  }

 private:
  const Config& cfg_;
  RtlOptions options_;
};
#endif

}  // namespace

std::vector<std::string> EngineNames() {
  return {"model",   "flint",           "fcfs",     "h3",        "h3-oracle",
          "h3-1ghz", "h3-demand-first", "h3-lhb40", "h3-legacy", "rtl"};
}

std::unique_ptr<Engine> MakeEngine(const std::string& name, const Config& cfg,
                                   const EngineOptions& options) {
  if (name == "model" || name == "flint" || name == "fcfs") {
    model::BbcOptions o = options.bbc;
    if (name == "flint") o.policy = model::BbcPolicy::kMostPending;
    if (name == "fcfs") o.policy = model::BbcPolicy::kFcfs;
    return std::make_unique<BbcEngine>(name, cfg, o);
  }
  if (name.rfind("h3", 0) == 0) {
    model::H3Options o = options.h3;
    Hints hints = Hints::kLayerAhead;
    if (name == "h3") {
    } else if (name == "h3-oracle") {
      hints = Hints::kOracle;
    } else if (name == "h3-1ghz") {
      o.residency_gpu_mhz = 0;
    } else if (name == "h3-demand-first") {
      o.demand_first = true;
    } else if (name == "h3-lhb40") {
      o.slots = 20;  // 40 MB of 2 MB slots
    } else if (name == "h3-legacy") {
      o.evict = model::H3Evict::kHoldWhilePending;
      o.residency_gpu_mhz = 0;
    } else {
      throw std::invalid_argument("unknown engine '" + name + "'");
    }
#if FLINT_WITH_H3
    return std::make_unique<H3Engine>(name, cfg, o, hints);
#else
    (void)o, (void)hints;
    throw UnavailableEngine("this build has no H3 model (configure with the h3 area)");
#endif
  }
  if (name == "rtl") {
#if FLINT_WITH_RTL
    return std::make_unique<RtlEngine>(cfg, options.rtl);
#else
    throw UnavailableEngine("this build has no RTL engine (configure with the top area)");
#endif
  }
  throw std::invalid_argument("unknown engine '" + name + "'");
}

}  // namespace flint::sim
