#include "model/common/placement.hpp"

#include <stdexcept>
#include <string>

namespace flint::model {

std::string_view ToString(BurstPlacement p) {
  return p == BurstPlacement::kLinear ? "linear" : "interleaved";
}

BurstPlacement ParseBurstPlacement(std::string_view text) {
  if (text == "linear") return BurstPlacement::kLinear;
  if (text == "interleaved") return BurstPlacement::kInterleaved;
  throw std::invalid_argument("burst placement '" + std::string(text) +
                              "' is neither 'linear' nor 'interleaved'");
}

uint64_t LiveBlocks(uint64_t bursts, uint64_t pages) {
  if (pages == 0) throw std::invalid_argument("placement: a block of 0 pages");
  return (bursts + pages - 1) / pages;
}

BlockPage PlaceBurst(BurstPlacement placement, uint64_t burst, uint64_t bursts, uint64_t blocks,
                     uint64_t pages) {
  const uint64_t live = LiveBlocks(bursts, pages);
  if (live > blocks) {
    throw std::out_of_range("placement: " + std::to_string(bursts) + " bursts need " +
                            std::to_string(live) + " blocks a plane, the plane has " +
                            std::to_string(blocks));
  }
  if (burst >= bursts) {
    throw std::out_of_range("placement: burst " + std::to_string(burst) + " of a model of " +
                            std::to_string(bursts) + " bursts");
  }
  if (placement == BurstPlacement::kLinear) {
    return {static_cast<uint32_t>(burst / pages), static_cast<uint32_t>(burst % pages)};
  }
  // Consecutive bursts land on consecutive blocks, so a sweep spreads its senses evenly. The
  // last page row may be partial: bursts past it never exist, so the map stays one-to-one.
  return {static_cast<uint32_t>(burst % live), static_cast<uint32_t>(burst / live)};
}

}  // namespace flint::model
