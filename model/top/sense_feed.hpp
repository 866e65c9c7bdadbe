// Golden model of the sense feed (docs/ftl.md section 4, docs/top.md): every page sense reaches
// the read-disturb counters as (die, physical plane, physical block).
//
// A burst sense of logical block b senses b's copy on every (die, logical plane) of the stack:
// Dies x Planes counter events, die-major then plane, each at the physical (plane, block) the
// relocation table maps (die, plane, b) to when the feed asks. A refresh controller's own page
// read (one plane of one die) is one event. Burst senses keep their order and so do their
// events; an own read may come between any two of them, and a die has at most one own read
// waiting (the controller reads one page at a time). Transaction level: a bench tells the
// model what went in (Sense, Own) and checks each event that comes out (Take); order across
// the two kinds is the RTL's to choose, so it is checked by rule, not predicted.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "flint_config.hpp"

namespace flint::model {

struct SenseEvent {
  uint32_t die = 0;
  uint32_t plane = 0;  // physical plane
  uint32_t block = 0;  // physical block
  bool operator==(const SenseEvent& o) const {
    return die == o.die && plane == o.plane && block == o.block;
  }
  std::string ToString() const;
};

class SenseFeed {
 public:
  SenseFeed(const Config& cfg, uint32_t depth);

  // The relocation map the feed's lookups read: (die, logical plane, logical block) -> physical
  // (plane, block). Identity at construction, as after reset.
  void Map(uint32_t die, uint32_t lplane, uint32_t lblock, uint32_t pplane, uint32_t pblock);

  // Senses waiting whose lookups have not all been issued: the RTL queue holds `depth` of them;
  // a sense beyond that is lost and flagged (overflow). Returns false for such a sense.
  bool Sense(uint32_t lblock);
  // The bench saw the feed issue the last lookup of the oldest sense (its queue slot frees).
  void LookupsDone();
  // A refresh controller's own read. Throws std::logic_error if the die has one waiting.
  void Own(uint32_t die, uint32_t pplane, uint32_t pblock);
  bool OwnWaiting(uint32_t die) const { return own_[die].has_value(); }

  // An event out of the feed: the next burst event in order, or the waiting own read of its
  // die. Returns an empty string if so, else what was expected.
  std::string Take(const SenseEvent& e);

  // Everything that went in came out.
  bool Drained() const;
  size_t queued() const { return queued_; }
  bool overflow() const { return overflow_; }
  uint64_t burst_events() const { return burst_events_; }
  uint64_t own_events() const { return own_events_; }

 private:
  uint32_t dies_, planes_, blocks_, depth_;
  std::vector<std::pair<uint32_t, uint32_t>> map_;  // (die * planes + l) * blocks + b
  std::deque<SenseEvent> burst_;                    // events of accepted senses, in order
  std::vector<std::optional<SenseEvent>> own_;      // a die's waiting own read
  size_t queued_ = 0;
  bool overflow_ = false;
  uint64_t burst_events_ = 0, own_events_ = 0;
};

}  // namespace flint::model
