#include "model/top/sense_feed.hpp"

#include <sstream>
#include <stdexcept>

namespace flint::model {

std::string SenseEvent::ToString() const {
  std::ostringstream o;
  o << "(die " << die << ", plane " << plane << ", block " << block << ")";
  return o.str();
}

SenseFeed::SenseFeed(const Config& cfg, uint32_t depth)
    : dies_(static_cast<uint32_t>(cfg.dies)),
      planes_(static_cast<uint32_t>(cfg.planes)),
      blocks_(static_cast<uint32_t>(cfg.blocks)),
      depth_(depth),
      own_(dies_) {
  map_.resize(static_cast<size_t>(dies_) * planes_ * blocks_);
  for (uint32_t d = 0; d < dies_; ++d) {
    for (uint32_t l = 0; l < planes_; ++l) {
      for (uint32_t b = 0; b < blocks_; ++b) {
        map_[(static_cast<size_t>(d) * planes_ + l) * blocks_ + b] = {l, b};
      }
    }
  }
}

void SenseFeed::Map(uint32_t die, uint32_t lplane, uint32_t lblock, uint32_t pplane,
                    uint32_t pblock) {
  if (die >= dies_ || lplane >= planes_ || lblock >= blocks_ || pplane > planes_ ||
      pblock >= blocks_) {
    throw std::invalid_argument("SenseFeed::Map: address outside the geometry");
  }
  map_[(static_cast<size_t>(die) * planes_ + lplane) * blocks_ + lblock] = {pplane, pblock};
}

bool SenseFeed::Sense(uint32_t lblock) {
  if (lblock >= blocks_) throw std::invalid_argument("SenseFeed::Sense: block past the plane");
  if (queued_ == depth_) {
    overflow_ = true;
    return false;
  }
  ++queued_;
  // The lookups read the map as it is now: a bench that changes the map while a sense waits
  // must not (the RTL reads it when it asks; the stack's relocations then are covered by the
  // erase's counter reset, docs/top.md).
  for (uint32_t d = 0; d < dies_; ++d) {
    for (uint32_t l = 0; l < planes_; ++l) {
      const auto& m = map_[(static_cast<size_t>(d) * planes_ + l) * blocks_ + lblock];
      burst_.push_back({d, m.first, m.second});
    }
  }
  return true;
}

void SenseFeed::LookupsDone() {
  if (queued_ == 0) throw std::logic_error("SenseFeed::LookupsDone: no sense waiting");
  --queued_;
}

void SenseFeed::Own(uint32_t die, uint32_t pplane, uint32_t pblock) {
  if (die >= dies_ || pplane > planes_ || pblock >= blocks_) {
    throw std::invalid_argument("SenseFeed::Own: address outside the geometry");
  }
  if (own_[die]) throw std::logic_error("SenseFeed::Own: die already has a read waiting");
  own_[die] = SenseEvent{die, pplane, pblock};
}

std::string SenseFeed::Take(const SenseEvent& e) {
  if (!burst_.empty() && burst_.front() == e) {
    burst_.pop_front();
    ++burst_events_;
    return "";
  }
  if (e.die < dies_ && own_[e.die] && *own_[e.die] == e) {
    own_[e.die].reset();
    ++own_events_;
    return "";
  }
  std::ostringstream o;
  o << "event " << e.ToString() << " is neither the next burst event ";
  if (burst_.empty()) {
    o << "(none waiting)";
  } else {
    o << burst_.front().ToString();
  }
  o << " nor a waiting own read";
  if (e.die < dies_ && own_[e.die])
    o << " (die " << e.die << "'s: " << own_[e.die]->ToString() << ")";
  return o.str();
}

bool SenseFeed::Drained() const {
  if (!burst_.empty() || queued_ != 0) return false;
  for (const auto& o : own_) {
    if (o) return false;
  }
  return true;
}

}  // namespace flint::model
