// Golden model of the stack's translation (paper section 4.3; docs/top.md, "Translation"):
// a logical burst -> (logical block, page) through the burst translation table, then the
// burst's stripe: for every (die, logical plane), the physical plane and block that hold that
// logical block now, as the refresh controllers' committed relocations left them.
//
// Transaction level; the clocked contract of the RTL (flint_xlat) that a bench applies:
// a lookup named in cycle t answers in t+2; its BTT part sees the loads accepted before cycle t
// (model::Btt's contract), its stripe part the relocations committed up to and including
// cycle t. After reset the table is busy for max(BTT entries, blocks) cycles (the BTT's clear
// and the stripe table's identity sweep): lookups then answer not loaded.
#pragma once
#include <cstdint>
#include <vector>

#include "flint_config.hpp"
#include "model/ftl/btt.hpp"

namespace flint::model {

struct StripeEntry {
  uint32_t plane = 0;  // physical plane of the die (0 .. planes, the extra one included)
  uint32_t block = 0;  // physical block of that plane
  bool operator==(const StripeEntry& o) const { return plane == o.plane && block == o.block; }
};

struct XlatResult {
  bool ok = false;  // the BTT held the burst; else nothing below means anything
  uint32_t lblock = 0;
  uint32_t page = 0;
  std::vector<StripeEntry> stripe;  // index die * planes + logical plane; empty unless ok
};

class Xlat {
 public:
  // `bursts` = 0 takes the config's bursts per stack (one BTT entry a burst).
  explicit Xlat(const Config& cfg, uint64_t bursts = 0);

  uint64_t bursts() const { return btt_.entries(); }
  // Cycles after reset before the first lookup can find a burst.
  uint64_t BusyCycles() const;
  // Model load: one BTT entry (false if the index is past the table, as model::Btt).
  bool Load(uint64_t burst, uint32_t lblock, uint32_t page) {
    return btt_.Load(burst, lblock, page);
  }
  // A new load forgets every BTT entry; the stripes stay (the relocations are the NAND's).
  void Clear() { btt_.Clear(); }
  // A committed relocation: (die, logical plane, logical block) now lives at (plane, block).
  // Throws std::invalid_argument for an address outside the geometry.
  void Update(uint32_t die, uint32_t lplane, uint32_t lblock, uint32_t pplane, uint32_t pblock);
  // The BTT half and the stripe half of a lookup (a bench applies the cycle rule above).
  BttResult LookupBurst(uint64_t burst) const { return btt_.Lookup(burst); }
  std::vector<StripeEntry> Stripe(uint32_t lblock) const;
  // Both at once, for a caller without cycles.
  XlatResult Lookup(uint64_t burst) const;

 private:
  uint32_t dies_;
  uint32_t planes_;
  uint32_t blocks_;
  Btt btt_;
  std::vector<StripeEntry> map_;  // (die * planes + lplane) * blocks + lblock
};

}  // namespace flint::model
