// One interface for everything that serves a stream of line requests on one stack: the burst-buffer
// controller's golden model (model/bbc), the H3 baseline (model/h3) and the Verilated stack top
// (rtl_engine.hpp). flint-sim and flint-eval pick one by name through MakeEngine().
//
// A Stream counts its cycles from the start of service (the end of the engine's model load); the
// engine tells it where that is on its own clock (Start) and from then on asks it for requests in
// its clock, as model::BbcModel::PolledSource does, and hands it every response. The RTL engine is
// a batch call: it takes the whole stream (an open-loop one) before it starts and hands no
// responses back.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "model/h3/h3_model.hpp"
#include "sim/engines/rtl_engine.hpp"

namespace flint::sim {

class Stream {
 public:
  virtual ~Stream() = default;
  // The engine's service starts at `cycle` of its clock; every cycle after this is on that clock.
  virtual void Start(uint64_t cycle) = 0;
  // The next request, asked at `now` (model::SourceReply: a request, a wait, or done).
  virtual model::SourceReply Ask(uint64_t now) = 0;
  // Every response, as it leaves the engine.
  virtual void Deliver(const model::BbcResponse& r) = 0;
  // The next H3 prefetch hint (docs/h3.md), asked at `now`; a stream without hints is done.
  virtual model::H3Model::HintReply AskHint(uint64_t now) {
    (void)now;
    return {};
  }
};

// Which prefetch hints an engine reads from its stream.
enum class Hints : uint8_t {
  kNone,
  kLayerAhead,  // the compiler's layer-ahead hints (H3)
  kOracle,      // the same and the routed experts the batch uses (H3 with oracle hints)
};

// What an engine measured. stats: the models' counts; the RTL engine fills the ones its ports
// give (requests, statuses, bursts, bytes, queue, load; first_cycle 0, last_cycle its cycles).
struct EngineReport {
  model::BbcStats stats;
  double nand_read_pj = 0;
  struct H3 {
    model::H3Options options;  // as run
    model::H3Extra extra;
    uint64_t min_residency_cycles = 0;
  };
  std::optional<H3> h3;          // the H3 engines
  std::optional<RtlReport> rtl;  // the RTL engine: everything it measured
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string Name() const = 0;
  virtual Hints hints() const { return Hints::kNone; }
  // Builds the engine's model, loads it and serves `stream` to its end. Throws
  // std::invalid_argument for unusable options or streams, std::runtime_error when the model
  // refuses something.
  virtual EngineReport Run(Stream& stream) = 0;
};

// The base options of every engine; a name may change some (MakeEngine).
struct EngineOptions {
  model::BbcOptions bbc;
  model::H3Options h3;
  RtlOptions rtl;
};

// An engine named for the build it is in (UnavailableEngine otherwise):
//   model            the BBC model with options.bbc
//   flint, fcfs      the same with the most-pending or the first-come policy
//   h3               H3 with options.h3 and the layer-ahead hints
//   h3-oracle        the same with oracle hints
//   h3-1ghz          options.h3 with the residency read at the base die's clock
//   h3-demand-first  options.h3 with demand misses before pending hints
//   h3-lhb40         options.h3 with H3's own 40 MB LHB (20 slots)
//   h3-legacy        options.h3 with a slot held while requests wait, residency at the base clock
//   rtl              the Verilated stack top with options.rtl (not for every config: RtlConfigs)
// Throws std::invalid_argument for any other name.
std::unique_ptr<Engine> MakeEngine(const std::string& name, const Config& cfg,
                                   const EngineOptions& options);
// Every name MakeEngine knows, in the order above.
std::vector<std::string> EngineNames();

// A known engine this build does not have (no H3 model, no Verilated top).
class UnavailableEngine : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace flint::sim
