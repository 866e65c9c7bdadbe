#include "sim/studies/model_rotation.hpp"

#include <stdexcept>
#include <string>

namespace flint::sim {

ModelRotation::ModelRotation(const Config& cfg, uint32_t live_blocks)
    : live_(live_blocks),
      blocks_(static_cast<uint32_t>(cfg.blocks)),
      model_(cfg, live_blocks, [](uint32_t, uint32_t, uint32_t) { return std::vector<uint8_t>(); }),
      src_block_(cfg.blocks, ~0u) {
  if (live_blocks > cfg.blocks) {
    throw std::invalid_argument("rotation: " + std::to_string(live_blocks) +
                                " live blocks on a plane of " + std::to_string(cfg.blocks));
  }
}

void ModelRotation::Check(const std::string& err) const {
  if (!err.empty())
    throw std::logic_error("the refresh model refused the study's rotation: " + err);
}

model::RelocResult ModelRotation::Reloc(RelocCmd op, uint32_t plane, uint32_t block) {
  model::RelocResult answer;
  Check(model_.Reloc(op, plane, block, &answer));
  if (model_.halted()) throw std::logic_error("the refresh model halted (no free block)");
  return answer;
}

uint32_t ModelRotation::StartStep() {
  if (model_.in_step()) throw std::logic_error("rotation: a step started inside a step");
  const uint32_t s = model_.PredictSource();
  src_block_.assign(blocks_, ~0u);
  for (uint32_t x = 0; x < blocks_; ++x) {
    const model::RelocResult q = Reloc(RelocCmd::kQuery, s, x);
    if (x == 0) ls_ = q.lplane;
    if (q.lblock < live_) src_block_[q.lblock] = x;
  }
  for (uint32_t b = 0; b < live_; ++b) Reloc(RelocCmd::kAlloc, ls_, b);
  return ls_;
}

void ModelRotation::ScrubRead(uint32_t b, uint32_t page) {
  Check(model_.ScrubRead(model_.source(), src_block_.at(b), page));
}

void ModelRotation::Program(uint32_t b, uint32_t page) {
  Check(model_.Program(model_.phantom(), model_.Target(b), page, {}, true));
}

void ModelRotation::EndStep() {
  const uint32_t s = model_.source(), p = model_.phantom();
  for (uint32_t b = 0; b < blocks_; ++b) {
    if (b >= live_) Reloc(RelocCmd::kAlloc, ls_, b);
    Reloc(RelocCmd::kCommit, p, model_.Target(b));
  }
  for (uint32_t x = 0; x < blocks_; ++x) {
    if (model_.LblockOfSource(x) < live_) Check(model_.Erase(s, x, true, false));
  }
  for (uint32_t x = 0; x < blocks_; ++x) {
    Reloc(RelocCmd::kRelease, s, x);
    Check(model_.CounterReset(s, x));
  }
  if (model_.in_step()) throw std::logic_error("rotation: the model's step did not end");
}

}  // namespace flint::sim
