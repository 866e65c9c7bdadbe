#include "model/top/loader.hpp"

namespace flint::model {

Loader::Loader(const Config& cfg, BurstPlacement placement)
    : placement_(placement),
      dies_(cfg.dies),
      planes_(cfg.planes),
      phys_planes_(cfg.phys_planes),
      blocks_(cfg.blocks),
      pages_(cfg.pages),
      bursts_(cfg.bursts_per_stack) {}

BlockPage Loader::Place(uint64_t b, uint64_t n) const {
  return PlaceBurst(placement_, b, n, blocks_, pages_);
}

std::vector<LoadPage> Loader::Programs(uint64_t n) const {
  std::vector<LoadPage> out;
  const uint64_t live = LiveBlocks(n);
  const uint64_t total = live * pages_;  // n rounded up to whole live blocks
  out.reserve(static_cast<size_t>(total * dies_ * planes_));
  for (uint64_t k = 0; k < total; ++k) {
    // A pad takes the place a burst k would have in a load of `total` bursts: the placement of
    // the remaining pages of the live blocks, in the same order.
    const BlockPage at = k < n ? Place(k, n) : PlaceBurst(placement_, k, total, blocks_, pages_);
    for (uint64_t s = 0; s < dies_ * planes_; ++s) {
      LoadPage p;
      p.die = static_cast<uint32_t>(s / planes_);
      p.plane = static_cast<uint32_t>(s % planes_);
      p.block = at.block;
      p.page = at.page;
      p.pad = k >= n;
      p.burst = k;
      p.slice = static_cast<uint32_t>(s);
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace flint::model
