// Reference model of a register slice (skid buffer) on a valid/ready stream.
//
// What the slice promises its two sides: it holds at most two words, in order; a word accepted
// in one cycle can leave in the next, not the same one; and its ready is registered, so it
// depends only on what the slice holds at the start of the cycle (not on the consumer's ready
// in that cycle). Ready is high unless the slice holds two words, which is what keeps one word
// a cycle flowing when the consumer never stalls.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <stdexcept>

namespace flint::model {

class RegSliceModel {
 public:
  static constexpr std::size_t kEntries = 2;

  bool CanPush() const { return q_.size() < kEntries; }
  bool CanPop() const { return !q_.empty(); }
  uint64_t Front() const {
    if (q_.empty()) throw std::logic_error("RegSliceModel::Front on an empty slice");
    return q_.front();
  }
  std::size_t Size() const { return q_.size(); }

  // One cycle. `push` and `pop` are the transfers sampled this cycle; both are decided on the
  // state at the start of the cycle, so a push into a full slice is refused even when a pop
  // happens in the same cycle.
  void Step(bool push, uint64_t data, bool pop) {
    if (push && !CanPush()) throw std::logic_error("RegSliceModel: push while not ready");
    if (pop && !CanPop()) throw std::logic_error("RegSliceModel: pop while empty");
    if (pop) q_.pop_front();
    if (push) q_.push_back(data);
  }

  void Reset() { q_.clear(); }

 private:
  std::deque<uint64_t> q_;
};

}  // namespace flint::model
