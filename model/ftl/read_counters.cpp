#include "model/ftl/read_counters.hpp"

#include <stdexcept>

namespace flint::model {

namespace {

uint32_t CeilLog2(uint64_t n) {
  uint32_t bits = 0;
  while ((uint64_t{1} << bits) < n) ++bits;
  return bits;
}

// Bits to index n things, at least 1 (as the RTL widths).
uint32_t IndexBits(uint64_t n) { return n > 1 ? CeilLog2(n) : 1; }

}  // namespace

CounterParams CounterParams::Defaults(const Config& cfg) {
  CounterParams p;
  p.stagger_bits = CeilLog2(cfg.disturb_limit) - 3;
  p.trip_margin = cfg.disturb_limit / 16;
  return p;
}

ReadCounters::ReadCounters(const Config& cfg, const CounterParams& p)
    : dies_(static_cast<uint32_t>(cfg.dies)),
      phys_planes_(static_cast<uint32_t>(cfg.phys_planes)),
      blocks_(static_cast<uint32_t>(cfg.blocks)),
      die_bits_(IndexBits(cfg.dies)),
      plane_bits_(IndexBits(cfg.phys_planes)),
      block_bits_(IndexBits(cfg.blocks)),
      limit_(cfg.disturb_limit),
      max_count_((uint64_t{1} << cfg.disturb_count_bits) - 1),
      params_(p),
      count_(size_t{dies_} * phys_planes_ * blocks_, 0) {
  if (p.trip_margin < 1 || limit_ < p.trip_margin + (uint64_t{1} << p.stagger_bits) ||
      max_count_ < limit_) {
    throw std::invalid_argument("ReadCounters: trip points would fall outside [1, limit)");
  }
  if (p.phase_stagger) {
    for (uint32_t d = 0; d < dies_; ++d) {
      for (uint32_t pl = 0; pl < phys_planes_; ++pl) {
        for (uint32_t b = 0; b < blocks_; ++b) count_[Index(d, pl, b)] = Offset(d, pl, b);
      }
    }
  }
}

uint64_t ReadCounters::Offset(uint32_t die, uint32_t plane, uint32_t block) const {
  // The address with the plane in the lowest bits, then the die, then the block...
  const uint32_t key_bits = block_bits_ + die_bits_ + plane_bits_;
  const uint64_t addr =
      (uint64_t{block} << (die_bits_ + plane_bits_)) | (uint64_t{die} << plane_bits_) | plane;
  // ... reversed, so that the plane decides the coarsest part of the offset: copies of one
  // block index land far apart, dies next, block indices finest.
  uint64_t key = 0;
  for (uint32_t i = 0; i < key_bits; ++i) key |= ((addr >> i) & 1) << (key_bits - 1 - i);
  return (key << params_.stagger_bits) >> key_bits;
}

uint64_t ReadCounters::TripPoint(uint32_t die, uint32_t plane, uint32_t block) const {
  const uint64_t base = limit_ - params_.trip_margin;
  return params_.phase_stagger ? base : base - Offset(die, plane, block);
}

std::optional<TripEvent> ReadCounters::Sense(uint32_t die, uint32_t plane, uint32_t block) {
  if (!InRange(die, plane, block)) {
    error_ = true;
    return std::nullopt;
  }
  uint64_t& c = count_[Index(die, plane, block)];
  if (c == max_count_) return std::nullopt;  // saturated: stays, no event
  ++c;
  if (c == TripPoint(die, plane, block)) return TripEvent{die, plane, block, false};
  if (c == limit_) return TripEvent{die, plane, block, true};
  return std::nullopt;
}

std::optional<uint64_t> ReadCounters::Erase(uint32_t die, uint32_t plane, uint32_t block) {
  if (!InRange(die, plane, block)) {
    error_ = true;
    return std::nullopt;
  }
  uint64_t& c = count_[Index(die, plane, block)];
  const uint64_t before = c;
  c = 0;
  return before;
}

std::optional<uint64_t> ReadCounters::Count(uint32_t die, uint32_t plane, uint32_t block) const {
  if (!InRange(die, plane, block)) return std::nullopt;
  return count_[Index(die, plane, block)];
}

}  // namespace flint::model
