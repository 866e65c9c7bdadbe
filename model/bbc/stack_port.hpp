// What every engine of one stack shares (the BBC golden model, H3): the load that tags each page
// with its physical position, the decode of a request's address, the error answer for an
// out-of-range or unloaded address (the port's LANES-a-cycle acceptance: port_acceptor.hpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "model/bbc/port_acceptor.hpp"
#include "model/nand/nand_die.hpp"

namespace flint::model {

// Programs blocks [0, live_blocks) of every logical plane of every die, page k of block b
// tagged {b * PAGES + k, die * PLANES + plane, 0}. Throws std::runtime_error naming `who` and
// the block on a program failure. Returns the cycle the last program finished.
uint64_t LoadTaggedStack(const Config& cfg, std::vector<NandDie>& dies, uint64_t live_blocks,
                         const std::string& who);

struct LineAddr {
  uint64_t burst = 0;
  uint32_t slice = 0;  // page of the burst: die slice / PLANES, plane slice % PLANES
  uint32_t line = 0;   // cache line within the page
};
LineAddr DecodeLine(const Config& cfg, uint64_t address);

// OUT_OF_RANGE past the stack, NOT_LOADED past the loaded bursts, nothing for a good address.
std::optional<Status> AddressError(const Config& cfg, uint64_t loaded_bursts, uint64_t address);

// Counts a response into the statistics every engine reports (inline: once a response).
inline void CountResponse(BbcStats& stats, const BbcResponse& r) {
  ++stats.responses;
  ++stats.status_counts[static_cast<unsigned>(r.status)];
  stats.data_mismatches += r.data_mismatch;
  stats.last_cycle = std::max(stats.last_cycle, r.cycle);
}


}  // namespace flint::model
