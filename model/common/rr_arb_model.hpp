// Reference model of a round-robin arbiter with a valid/ready output.
//
// Policy: after a transfer the requester just served goes to the back of the line and the
// others keep their cyclic order behind it, so the next winner is the first requester found
// going round from the one after the last winner. A decision that stalls (no ready) is kept for
// as long as its winner keeps requesting; nothing moves until a transfer happens.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace flint::model {

class RrArbModel {
 public:
  static constexpr unsigned kMaxRequesters = 64;  // one bit of a uint64_t each

  explicit RrArbModel(unsigned n) : n_(n), last_(n == 0 ? 0 : n - 1) {
    if (n == 0 || n > kMaxRequesters) {
      throw std::invalid_argument("RrArbModel: requesters must be 1.." +
                                  std::to_string(kMaxRequesters) + ", got " + std::to_string(n));
    }
  }

  unsigned Requesters() const { return n_; }

  // The winner this cycle for request mask `req` (bit i = requester i), if any request is up.
  std::optional<unsigned> Winner(uint64_t req) const {
    Check(req);
    if (held_ && ((req >> *held_) & 1u)) return held_;
    for (unsigned k = 1; k <= n_; ++k) {
      const unsigned i = (last_ + k) % n_;
      if ((req >> i) & 1u) return i;
    }
    return std::nullopt;
  }

  // Ends a cycle: a transfer (a winner and `ready`) moves the line on; a stall keeps the
  // decision for the next cycle.
  void Step(uint64_t req, bool ready) {
    const std::optional<unsigned> w = Winner(req);
    held_.reset();
    if (!w) return;
    if (ready) {
      last_ = *w;
    } else {
      held_ = w;
    }
  }

  void Reset() {
    last_ = n_ - 1;
    held_.reset();
  }

 private:
  void Check(uint64_t req) const {
    if (n_ < kMaxRequesters && (req >> n_) != 0) {
      throw std::invalid_argument("RrArbModel: request bit set beyond requester " +
                                  std::to_string(n_ - 1));
    }
  }

  unsigned n_;
  unsigned last_;  // winner of the last transfer; reset as if n-1 had won, so 0 leads
  std::optional<unsigned> held_;
};

}  // namespace flint::model
