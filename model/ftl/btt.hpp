// Golden model of the burst translation table (paper section 4.3, docs/ftl.md): logical burst
// index -> (block, page) of the burst address space, written once at model load.
//
// Transaction level. Ordering, as the RTL contract states it: a lookup sees every load applied
// before it; a clear forgets every load applied before it. A test applies, per cycle, the
// lookups of that cycle, then its loads, then a clear.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "flint_config.hpp"
#include "model/common/types.hpp"

namespace flint::model {

struct BttResult {
  Status status = Status::kNotLoaded;
  uint32_t block = 0;  // zero unless status == kOk: never a made-up mapping
  uint32_t page = 0;
  bool operator==(const BttResult& o) const {
    return status == o.status && block == o.block && page == o.page;
  }
};

class Btt {
 public:
  // `entries` = 0 takes the config's btt_entries (one entry per burst of the stack).
  explicit Btt(const Config& cfg, uint64_t entries = 0);

  uint64_t entries() const { return valid_.size(); }
  // Cycles the table is busy clearing after reset or a clear: one entry a cycle.
  uint64_t ClearCycles() const { return entries(); }

  // Loads one entry. An index past the table is dropped and remembered as the load error (the
  // first since the last clear); returns false then. A block or page past the geometry is a bug
  // of the caller (the RTL port cannot even carry it): throws std::invalid_argument.
  bool Load(uint64_t idx, uint32_t block, uint32_t page);
  BttResult Lookup(uint64_t idx) const;
  void Clear();

  std::optional<uint64_t> load_error() const { return load_error_; }
  uint64_t loaded() const { return loaded_; }

 private:
  uint32_t blocks_;
  uint32_t pages_;
  std::vector<bool> valid_;
  std::vector<uint32_t> block_;
  std::vector<uint32_t> page_;
  std::optional<uint64_t> load_error_;
  uint64_t loaded_ = 0;
};

}  // namespace flint::model
