// Reference model of a bounded FIFO with the flint_fifo handshake: a push is accepted when
// the FIFO is not full or a pop happens in the same cycle.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

namespace flint::model {

class FifoModel {
 public:
  explicit FifoModel(std::size_t depth) : depth_(depth) {}

  bool CanPop() const { return !q_.empty(); }
  uint64_t Front() const { return q_.front(); }
  bool CanPush(bool popping) const { return q_.size() < depth_ || popping; }
  std::size_t Size() const { return q_.size(); }

  // One cycle: returns the popped value, if any. A push refused for lack of room is an error of
  // the caller (the harness only pushes when ready was high).
  std::optional<uint64_t> Step(bool push, uint64_t data, bool pop) {
    std::optional<uint64_t> out;
    if (pop && CanPop()) {
      out = q_.front();
      q_.pop_front();
    }
    if (push) q_.push_back(data);
    return out;
  }

 private:
  std::size_t depth_;
  std::deque<uint64_t> q_;
};

}  // namespace flint::model
