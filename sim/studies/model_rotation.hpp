// The rotation of one die as the studies run it, on the refresh controller's golden model
// (model::RefreshModel, model/refresh/refresh_model.hpp): the studies decide when things happen
// (their own clocks and queues), the model decides what happens and refuses what the rotation
// does not allow. Each step: the model picks the source plane S (round robin over the physical
// planes, never the phantom P), the study copies S's live blocks page by page into P, then every
// block commits, S's live blocks are erased and every block of S is released and its read count
// reset; S is the next phantom. A transaction the model refuses throws std::logic_error with the
// model's words, so a study whose bookkeeping drifts from the rotation stops instead of measuring
// something else.
//
// Transaction level, no data: the pages carry nothing (the model checks data only against the
// empty content given here), no program or erase fails and no trip event steers a choice.
#pragma once
#include <cstdint>
#include <vector>

#include "flint_config.hpp"
#include "model/refresh/refresh_model.hpp"

namespace flint::sim {

class ModelRotation {
 public:
  ModelRotation(const Config& cfg, uint32_t live_blocks);

  // Starts a step: the model's source S, its blocks queried, each live block's target reserved
  // on P. Returns the logical plane S holds (the one the copy refreshes).
  uint32_t StartStep();
  // Logical block b's page `page` read from S by the scrubber (the fork's reads are the
  // foreground's own and need no transaction).
  void ScrubRead(uint32_t b, uint32_t page);
  // Logical block b's page `page` programmed into P.
  void Program(uint32_t b, uint32_t page);
  // The copy is complete: every block commits (the empty ones' targets reserved first), S's live
  // blocks are erased, every block of S released and reset. The model's step ends.
  void EndStep();

  uint32_t source() const { return model_.source(); }    // physical plane S
  uint32_t phantom() const { return model_.phantom(); }  // physical plane P
  uint32_t logical_source() const { return ls_; }
  const model::RefreshModel& model() const { return model_; }

 private:
  void Check(const std::string& err) const;
  model::RelocResult Reloc(RelocCmd op, uint32_t plane, uint32_t block);

  uint32_t live_, blocks_;
  model::RefreshModel model_;
  uint32_t ls_ = 0;
  std::vector<uint32_t> src_block_;  // logical block -> S's physical block, this step
};

}  // namespace flint::sim
