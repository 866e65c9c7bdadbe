#include "model/ftl/plane_map.hpp"

#include <stdexcept>
#include <string>

namespace flint::model {

PlaneMap::PlaneMap(const Config& cfg)
    : dies_(static_cast<uint32_t>(cfg.dies)),
      blocks_(static_cast<uint32_t>(cfg.blocks)),
      phys_planes_(static_cast<uint32_t>(cfg.phys_planes)) {
  if (phys_planes_ > 64) throw std::invalid_argument("PlaneMap: more than 64 physical planes");
  phantom_.assign(size_t{dies_} * blocks_, static_cast<uint32_t>(cfg.planes));
  pending_.assign(size_t{dies_} * blocks_, false);
}

size_t PlaneMap::Index(uint32_t die, uint32_t block) const {
  if (die >= dies_ || block >= blocks_) {
    throw std::out_of_range("PlaneMap: (die " + std::to_string(die) + ", block " +
                            std::to_string(block) + ") outside the geometry");
  }
  return size_t{die} * blocks_ + block;
}

uint64_t PlaneMap::StripeMask(uint32_t die, uint32_t block) const {
  const uint64_t all = phys_planes_ == 64 ? ~uint64_t{0} : (uint64_t{1} << phys_planes_) - 1;
  return all & ~(uint64_t{1} << Phantom(die, block));
}

void PlaneMap::Set(uint32_t die, uint32_t block, uint32_t phantom, bool pending) {
  const size_t i = Index(die, block);
  if (phantom >= phys_planes_) {
    throw std::out_of_range("PlaneMap::Set: plane " + std::to_string(phantom) +
                            " >= " + std::to_string(phys_planes_));
  }
  phantom_[i] = phantom;
  pending_[i] = pending;
}

}  // namespace flint::model
