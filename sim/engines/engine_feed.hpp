// Couples the decode generator (sim/workload/workload_gen) to an engine of model/ (BbcModel,
// H3Model): numbers the requests, moves them by the engine's service start (the engines' clock
// counts from power-up, the generator's from the end of the model load), and in closed loop hands
// every response back to the SM that asked (docs/workloads.md "Closed loop").
#pragma once
#include <cstdint>
#include <unordered_map>

#include "model/bbc/bbc_model.hpp"
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

}  // namespace flint::sim
