#include "model/top/xlat.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace flint::model {

Xlat::Xlat(const Config& cfg, uint64_t bursts)
    : dies_(static_cast<uint32_t>(cfg.dies)),
      planes_(static_cast<uint32_t>(cfg.planes)),
      blocks_(static_cast<uint32_t>(cfg.blocks)),
      btt_(cfg, bursts == 0 ? cfg.bursts_per_stack : bursts) {
  // At power-up every logical plane l sits on physical plane l, block b on block b; the extra
  // plane is every die's first phantom (docs/refresh.md).
  map_.resize(static_cast<size_t>(dies_) * planes_ * blocks_);
  for (uint32_t d = 0; d < dies_; ++d) {
    for (uint32_t l = 0; l < planes_; ++l) {
      for (uint32_t b = 0; b < blocks_; ++b) {
        map_[(static_cast<size_t>(d) * planes_ + l) * blocks_ + b] = {l, b};
      }
    }
  }
}

uint64_t Xlat::BusyCycles() const { return std::max<uint64_t>(btt_.ClearCycles(), blocks_); }

void Xlat::Update(uint32_t die, uint32_t lplane, uint32_t lblock, uint32_t pplane,
                  uint32_t pblock) {
  if (die >= dies_ || lplane >= planes_ || lblock >= blocks_ || pplane > planes_ ||
      pblock >= blocks_) {
    throw std::invalid_argument("Xlat::Update: (die " + std::to_string(die) + ", plane " +
                                std::to_string(lplane) + ", block " + std::to_string(lblock) +
                                ") -> (plane " + std::to_string(pplane) + ", block " +
                                std::to_string(pblock) + ") is outside the geometry");
  }
  map_[(static_cast<size_t>(die) * planes_ + lplane) * blocks_ + lblock] = {pplane, pblock};
}

std::vector<StripeEntry> Xlat::Stripe(uint32_t lblock) const {
  std::vector<StripeEntry> s;
  s.reserve(static_cast<size_t>(dies_) * planes_);
  for (uint32_t d = 0; d < dies_; ++d) {
    for (uint32_t l = 0; l < planes_; ++l) {
      s.push_back(map_[(static_cast<size_t>(d) * planes_ + l) * blocks_ + lblock]);
    }
  }
  return s;
}

XlatResult Xlat::Lookup(uint64_t burst) const {
  const BttResult r = btt_.Lookup(burst);
  XlatResult x;
  if (r.status != Status::kOk) return x;
  x.ok = true;
  x.lblock = r.block;
  x.page = r.page;
  x.stripe = Stripe(r.block);
  return x;
}

}  // namespace flint::model
