// Golden model of model load (paper section 4.4; docs/top.md, "Power-up and model load"): what a
// load of n bursts writes where. Every power-up is a clean install: optionally every block of
// every physical plane erased first; then the model streamed burst by burst, each burst's slices
// in order (slice s on die s / planes, logical plane s mod planes, which after reset is physical
// plane s mod planes), each slice one page at the burst's (block, page) of the placement; the
// BTT gets burst -> (block, page); after the last burst every live block is padded to its full
// pages (zero data, no BTT entry) so that the refresh rotation copies whole blocks. A load of
// more bursts than the stack holds is refused before it starts. A mount (the dies already hold
// the image) writes the BTT entries alone. Every start but a mount's clears the BTT first, a
// refused one included (nothing stays in service).
#pragma once
#include <cstdint>
#include <vector>

#include "flint_config.hpp"
#include "model/common/placement.hpp"

namespace flint::model {

// Why a load stopped (flint_loader's err_code_o).
enum class LoadError : uint8_t { kNone = 0, kTooManyBursts = 1, kEraseFail = 2, kProgramFail = 3 };

struct LoadPage {
  uint32_t die = 0, plane = 0, block = 0, page = 0;
  bool pad = false;    // zero data, no burst
  uint64_t burst = 0;  // the burst (the pad's position in the sequence when pad)
  uint32_t slice = 0;  // die * planes + plane
};

class Loader {
 public:
  Loader(const Config& cfg, BurstPlacement placement);

  // A load of n bursts fits the stack (else it ends at once with kTooManyBursts).
  bool Fits(uint64_t n) const { return n <= bursts_; }
  uint64_t LiveBlocks(uint64_t n) const { return model::LiveBlocks(n, pages_); }
  // Burst b's (block, page) in a load of n.
  BlockPage Place(uint64_t b, uint64_t n) const;
  // Every page programmed by a load of n, in the order the stream fills them: bursts 0..n-1,
  // then the pads up to LiveBlocks(n) * pages "bursts", each its slices in order.
  std::vector<LoadPage> Programs(uint64_t n) const;
  // Erases of a load with erase: every block of every physical plane of every die.
  uint64_t Erases() const { return dies_ * phys_planes_ * blocks_; }
  uint32_t slices() const { return static_cast<uint32_t>(dies_ * planes_); }

 private:
  BurstPlacement placement_;
  uint64_t dies_, planes_, phys_planes_, blocks_, pages_, bursts_;
};

}  // namespace flint::model
