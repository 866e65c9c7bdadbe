// Couples the decode generator (sim/workload/workload_gen) to an engine of model/ (BbcModel,
// H3Model): numbers the requests, moves them by the engine's service start (the engines' clock
// counts from power-up, the generator's from the end of the model load), and in closed loop hands
// every response back to the SM that asked (docs/workloads.md "Closed loop"). DecodeStream: the
// feed and H3's prefetch hints as an engine's stream (sim/engines/engine.hpp).
#pragma once
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "model/bbc/bbc_model.hpp"
#include "sim/engines/engine.hpp"
#include "sim/engines/h3_hints.hpp"
#include "sim/workload/workload_gen.hpp"

namespace flint::sim {

class EngineFeed {
 public:
  explicit EngineFeed(DecodeGenerator& gen, uint64_t service_start = 0)
      : gen_(gen), offset_(service_start) {}
  void set_service_start(uint64_t cycle) { offset_ = cycle; }

  // The engine's source (BbcModel::PolledSource): the generator asked at `now`.
  model::SourceReply Ask(uint64_t now);
  // The engine's sink calls this for every response. Throws std::logic_error for an id the
  // feed did not hand out or answered twice (closed loop; open loop ignores responses).
  void Deliver(const model::BbcResponse& r);

  uint64_t requests() const { return next_id_; }

 private:
  DecodeGenerator& gen_;
  uint64_t offset_;
  uint64_t next_id_ = 0;
  std::unordered_map<uint64_t, uint32_t> sm_of_;  // closed loop: outstanding id -> SM
};

// A decode generator's stream through an EngineFeed, with the hints an engine asks for: in open
// loop the hints at the workload's intent times (MakeH3Hints), in closed loop each at the real
// start of the phase that times it (H3HintFeed); both moved by the engine's service start.
class DecodeStream : public Stream {
 public:
  DecodeStream(DecodeGenerator& gen, Hints hints);
  void Start(uint64_t cycle) override;
  model::SourceReply Ask(uint64_t now) override { return feed_.Ask(now); }
  void Deliver(const model::BbcResponse& r) override { feed_.Deliver(r); }
  model::H3Model::HintReply AskHint(uint64_t now) override;
  // The hints given or to give (0 without hints).
  size_t hint_count() const;

 private:
  DecodeGenerator& gen_;
  EngineFeed feed_;
  Hints kind_;
  H3HintOptions options_;
  bool closed_;
  uint64_t start_ = 0;
  std::vector<H3Hint> hints_;  // open loop
  size_t next_ = 0;
  std::optional<H3HintFeed> closed_hints_;  // closed loop, from Start()
};

}  // namespace flint::sim
