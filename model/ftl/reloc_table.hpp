// Golden model of the block relocation table and its free-block pool (paper section 4.2,
// docs/ftl.md "Relocation table"), written from the documented contract.
//
// (die, logical plane, logical block) -> (physical plane, physical block) of that die, with
// Planes+1 physical planes per die. Starts as the identity with the extra plane free. Every
// physical block is in one state: free (the pool), mapped (backs one logical block), reserved
// (taken for a copy), vacated (left by a relocation, awaiting erase) or bad.
//
// A relocation of logical block b of a die: Alloc reserves a free block on the phantom plane of
// (die, b), searching that plane next-fit from the die's cursor; Commit points the logical block
// there and vacates its old block, whose plane becomes the new phantom of b; Release returns the
// vacated block to the pool after its erase. At most one reservation per (die, b) at a time.
//
// Transaction level: each call is one command; for lookups it takes effect at once (the RTL
// makes it visible from the cycle its response first becomes valid).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/ftl/ftl_types.hpp"
#include "model/ftl/plane_map.hpp"

namespace flint::model {

struct RelocLookup {
  uint32_t plane = 0;
  uint32_t block = 0;
  uint32_t phantom = 0;  // phantom plane of the logical block index on that die
  bool operator==(const RelocLookup& o) const {
    return plane == o.plane && block == o.block && phantom == o.phantom;
  }
};

// Answer to a command (fields as the RTL response; docs/ftl.md lists them per command).
struct RelocResult {
  FtlStatus status = FtlStatus::kOk;
  BlockState state = BlockState::kFree;  // the named block's state before the command
  uint32_t plane = 0;                    // reserved block (Alloc), vacated (Commit), or named
  uint32_t block = 0;
  uint32_t lplane = 0;  // logical owner, else 0
  uint32_t lblock = 0;
  bool operator==(const RelocResult& o) const {
    return status == o.status && state == o.state && plane == o.plane && block == o.block &&
           lplane == o.lplane && lblock == o.lblock;
  }
};

class RelocTable {
 public:
  explicit RelocTable(const Config& cfg);

  // Throws std::out_of_range outside the geometry (the lookup port has no error status: its
  // fields are exact powers of two).
  RelocLookup Lookup(uint32_t die, uint32_t lplane, uint32_t lblock) const;

  // One command; plane/block are logical for Alloc, physical otherwise. Bad arguments answer
  // kOutOfRange and change nothing.
  RelocResult Apply(RelocCmd op, uint32_t die, uint32_t plane, uint32_t block);
  RelocResult Alloc(uint32_t die, uint32_t lplane, uint32_t lblock);
  RelocResult Commit(uint32_t die, uint32_t plane, uint32_t block);
  RelocResult Release(uint32_t die, uint32_t plane, uint32_t block);
  RelocResult MarkBad(uint32_t die, uint32_t plane, uint32_t block);
  RelocResult Query(uint32_t die, uint32_t plane, uint32_t block) const;

  BlockState State(uint32_t die, uint32_t plane, uint32_t block) const;
  const PlaneMap& plane_map() const { return plane_map_; }
  // Free blocks of one physical plane of a die.
  uint32_t FreeBlocks(uint32_t die, uint32_t plane) const;

  // Empty when every invariant holds, else a description of the first broken one: a bijection
  // from logical blocks onto the mapped blocks; the Planes copies of each (die, block index) on
  // distinct planes, none of them its phantom; pending iff one reservation, on the phantom.
  std::string CheckInvariants() const;

  uint32_t dies() const { return dies_; }
  uint32_t planes() const { return planes_; }
  uint32_t phys_planes() const { return planes_ + 1; }
  uint32_t blocks() const { return blocks_; }

 private:
  struct Phys {
    uint32_t plane;
    uint32_t block;
  };
  struct Slot {
    BlockState state;
    uint32_t lplane;  // owner when mapped or reserved
    uint32_t lblock;
  };
  size_t LogIdx(uint32_t die, uint32_t lplane, uint32_t lblock) const;
  size_t PhysIdx(uint32_t die, uint32_t plane, uint32_t block) const;
  bool PhysInRange(uint32_t die, uint32_t plane, uint32_t block) const;
  RelocResult Named(uint32_t plane, uint32_t block, const Slot& s) const;

  uint32_t dies_, planes_, blocks_;
  std::vector<Phys> map_;         // by logical block
  std::vector<Slot> slots_;       // by physical block
  std::vector<uint32_t> cursor_;  // next-fit cursor per die
  PlaneMap plane_map_;
};

}  // namespace flint::model
