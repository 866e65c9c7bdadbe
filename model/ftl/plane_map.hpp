// Golden model of the phantom-plane map (docs/ftl.md, "Plane map"): for every die and logical
// block index, the one physical plane of the die's Planes+1 that holds no copy of that block (the
// phantom, left out of the read stripe), and whether a relocation of that block is pending.
// Starts with the extra plane (index Planes) the phantom of every block, nothing pending.
#pragma once
#include <cstdint>
#include <vector>

#include "flint_config.hpp"

namespace flint::model {

class PlaneMap {
 public:
  explicit PlaneMap(const Config& cfg);

  uint32_t Phantom(uint32_t die, uint32_t block) const { return phantom_[Index(die, block)]; }
  bool Pending(uint32_t die, uint32_t block) const { return pending_[Index(die, block)]; }
  // Bit p set for every physical plane a burst in `block` senses on `die` (all but the phantom).
  uint64_t StripeMask(uint32_t die, uint32_t block) const;
  // Throws std::out_of_range on a die, block or plane outside the geometry.
  void Set(uint32_t die, uint32_t block, uint32_t phantom, bool pending);

  uint32_t dies() const { return dies_; }
  uint32_t blocks() const { return blocks_; }
  uint32_t phys_planes() const { return phys_planes_; }

 private:
  size_t Index(uint32_t die, uint32_t block) const;
  uint32_t dies_;
  uint32_t blocks_;
  uint32_t phys_planes_;
  std::vector<uint32_t> phantom_;
  std::vector<bool> pending_;
};

}  // namespace flint::model
