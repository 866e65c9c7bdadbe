// Where model load puts a stack-local logical burst: its (block, page) coordinate, the same on
// every plane of the stripe (docs/refresh.md, Q3). The BTT records the answer, so any placement
// costs the same lookup; the choice only decides how read disturb spreads over blocks.
#pragma once
#include <cstdint>
#include <string_view>

namespace flint::model {

enum class BurstPlacement : uint8_t {
  kLinear,       // the paper: burst b -> block b / PAGES, page b mod PAGES
  kInterleaved,  // this design: burst b -> block b mod live_blocks, page b div live_blocks
};

std::string_view ToString(BurstPlacement p);
// Parses "linear" / "interleaved"; throws std::invalid_argument naming the bad text.
BurstPlacement ParseBurstPlacement(std::string_view text);

struct BlockPage {
  uint32_t block = 0;
  uint32_t page = 0;
  bool operator==(const BlockPage& o) const { return block == o.block && page == o.page; }
};

// Blocks a plane needs to hold `bursts` bursts of PAGES pages each (the live blocks).
uint64_t LiveBlocks(uint64_t bursts, uint64_t pages);

// Coordinate of stack-local burst `burst` of a model of `bursts` bursts on the stack. Throws
// std::out_of_range if burst >= bursts or the model needs more than `blocks` blocks a plane.
BlockPage PlaceBurst(BurstPlacement placement, uint64_t burst, uint64_t bursts, uint64_t blocks,
                     uint64_t pages);

}  // namespace flint::model
