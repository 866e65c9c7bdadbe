// Golden model of the read-disturb counters (paper section 4.2, docs/ftl.md "Read counters").
//
// One count per physical block (die, physical plane, block). A sense adds one; the count
// saturates at 2^count_bits - 1. A block raises a "due" event when its count reaches its
// staggered trip point and a "limit" event when it reaches disturb_limit, each once per erase.
// Trip point: disturb_limit - trip_margin - offset, where offset spreads blocks over a window of
// 2^stagger_bits senses by the bit-reversed block address {block, die, plane} (docs/ftl.md).
// With phase_stagger the offset is the count's start instead and the trip point is the same for
// every block.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "flint_config.hpp"

namespace flint::model {

struct CounterParams {
  uint32_t stagger_bits = 0;  // window of 2^stagger_bits senses
  uint64_t trip_margin = 0;   // senses between the latest trip point and the limit
  // The offset as a phase (the RTL's PhaseStagger): counts start at it and every block trips
  // at disturb_limit - trip_margin (the in-place distributed baseline, docs/refresh.md).
  bool phase_stagger = false;
  // The RTL defaults: window 2^(ceil(log2(limit)) - 3), margin limit / 16.
  static CounterParams Defaults(const Config& cfg);
};

struct TripEvent {
  uint32_t die = 0;
  uint32_t plane = 0;
  uint32_t block = 0;
  bool limit = false;  // false: the staggered trip point; true: the disturb limit itself
  bool operator==(const TripEvent& o) const {
    return die == o.die && plane == o.plane && block == o.block && limit == o.limit;
  }
};

class ReadCounters {
 public:
  explicit ReadCounters(const Config& cfg) : ReadCounters(cfg, CounterParams::Defaults(cfg)) {}
  ReadCounters(const Config& cfg, const CounterParams& p);

  uint64_t Offset(uint32_t die, uint32_t plane, uint32_t block) const;
  uint64_t TripPoint(uint32_t die, uint32_t plane, uint32_t block) const;
  // One sense. A block outside the geometry is dropped and sets error(); returns no event.
  std::optional<TripEvent> Sense(uint32_t die, uint32_t plane, uint32_t block);
  // Erase of a block: the count restarts at zero. Returns the count before; nullopt (and
  // error()) outside the geometry.
  std::optional<uint64_t> Erase(uint32_t die, uint32_t plane, uint32_t block);
  std::optional<uint64_t> Count(uint32_t die, uint32_t plane, uint32_t block) const;

  uint64_t max_count() const { return max_count_; }
  uint64_t disturb_limit() const { return limit_; }
  const CounterParams& params() const { return params_; }
  bool error() const { return error_; }
  // Remembers an out-of-range command (Count is const: the RTL flags those too).
  void FlagError() { error_ = true; }
  bool InRange(uint32_t die, uint32_t plane, uint32_t block) const {
    return die < dies_ && plane < phys_planes_ && block < blocks_;
  }

 private:
  size_t Index(uint32_t die, uint32_t plane, uint32_t block) const {
    return (size_t{die} * phys_planes_ + plane) * blocks_ + block;
  }
  uint32_t dies_, phys_planes_, blocks_;
  uint32_t die_bits_, plane_bits_, block_bits_;
  uint64_t limit_, max_count_;
  CounterParams params_;
  std::vector<uint64_t> count_;
  bool error_ = false;
};

}  // namespace flint::model
