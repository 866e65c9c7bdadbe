// The accelerator port of one stack, shared by its engines (BBC model, H3).
#pragma once
#include <cstdint>

namespace flint::model {

// The accelerator port takes up to LANES requests a cycle, in order.
class PortAcceptor {
 public:
  explicit PortAcceptor(uint64_t lanes) : lanes_(lanes) {}
  // The earliest cycle at or after `t` with a free lane.
  uint64_t Earliest(uint64_t t) const { return t == cycle_ && taken_ == lanes_ ? t + 1 : t; }
  void Take(uint64_t t) {
    taken_ = t == cycle_ ? taken_ + 1 : 1;
    cycle_ = t;
  }

 private:
  uint64_t lanes_, cycle_ = 0, taken_ = 0;
};

}  // namespace flint::model
