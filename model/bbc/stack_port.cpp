#include "model/bbc/stack_port.hpp"

#include <algorithm>
#include <stdexcept>

namespace flint::model {

uint64_t LoadTaggedStack(const Config& cfg, std::vector<NandDie>& dies, uint64_t live_blocks,
                         const std::string& who) {
  uint64_t end = 0;
  for (uint32_t d = 0; d < dies.size(); ++d) {
    NandDie& die = dies[d];
    uint64_t t = 0;
    for (uint32_t blk = 0; blk < live_blocks; ++blk) {
      for (uint32_t p = 0; p < cfg.planes; ++p) {
        const PageTag base{uint64_t{blk} * cfg.pages, static_cast<uint32_t>(d * cfg.planes + p), 0};
        t = std::max({t, die.PlaneReadyAt(p), die.IoBusyUntil()});
        const OpResult r = die.ProgramBlockTagged(p, blk, base, static_cast<uint32_t>(cfg.pages), t);
        if (!r.pass) {
          throw std::runtime_error(who + ": load: program failed on die " + std::to_string(d) +
                                   " plane " + std::to_string(p) + " block " + std::to_string(blk));
        }
      }
    }
    for (uint32_t p = 0; p < cfg.planes; ++p) end = std::max(end, die.PlaneReadyAt(p));
  }
  return end;
}

LineAddr DecodeLine(const Config& cfg, uint64_t address) {
  const uint64_t in_burst = address % cfg.burst_bytes;
  return {address / cfg.burst_bytes, static_cast<uint32_t>(in_burst / cfg.page_bytes),
          static_cast<uint32_t>(in_burst % cfg.page_bytes / cfg.cl_bytes)};
}

std::optional<Status> AddressError(const Config& cfg, uint64_t loaded_bursts, uint64_t address) {
  if (address >= cfg.stack_bytes) return Status::kOutOfRange;
  if (address / cfg.burst_bytes >= loaded_bursts) return Status::kNotLoaded;
  return std::nullopt;
}

}  // namespace flint::model
