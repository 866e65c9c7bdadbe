// Golden model of the migration bitmap (paper section 4.2; rtl/refresh/flint_migration_bitmap.sv):
// which (block, page) of the plane being copied this rotation are already queued for the
// phantom. Transaction level: no cycles except the clear sweep's length.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace flint::model {

struct TasResult {
  bool first = false;       // the page was not yet migrated this rotation: program it
  bool block_done = false;  // this page completed its block: remap the block
};

struct BlockPageRef {
  uint32_t block = 0;
  uint32_t page = 0;
  bool operator==(const BlockPageRef& o) const { return block == o.block && page == o.page; }
};

class MigrationBitmap {
 public:
  // word_bits: the scan granularity (the RTL's SRAM word); pages must be a multiple of it.
  MigrationBitmap(uint32_t blocks, uint32_t pages, uint32_t word_bits);

  // Throws std::out_of_range for a (block, page) outside the plane.
  TasResult TestAndSet(uint32_t block, uint32_t page);
  // The scrubber's next clear page at or after the cursor within the cursor's word; nullopt if
  // that word has none (the cursor then moves to the next word, wrapping).
  std::optional<BlockPageRef> Scan();
  void Clear();  // a new rotation

  bool Test(uint32_t block, uint32_t page) const;
  uint64_t set_count() const { return set_count_; }
  bool all_set() const { return set_count_ == bits_.size(); }
  uint32_t block_count(uint32_t block) const { return per_block_.at(block); }
  uint64_t words() const { return bits_.size() / word_bits_; }

 private:
  uint32_t blocks_, pages_, word_bits_;
  std::vector<bool> bits_;  // index block * pages + page
  std::vector<uint32_t> per_block_;
  uint64_t set_count_ = 0;
  uint64_t cursor_ = 0;  // bit index of the scan cursor
};

}  // namespace flint::model
