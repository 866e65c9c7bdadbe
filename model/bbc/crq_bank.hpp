// Golden model of flint_bbc_crq_bank (rtl/bbc/flint_bbc_crq_bank.sv; docs/bbc.md): one die's
// bank of the cache request queue, a FIFO of payloads per scheduler slot sharing Entries places.
// Transaction level: the RTL answers a pop in the next cycle; the model answers at once.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

namespace flint::model {

class CrqBank {
 public:
  CrqBank(uint32_t entries, uint32_t slots);
  // Throws std::logic_error when full (the RTL's app_ready_o is low then).
  void Append(uint32_t slot, uint64_t payload);
  // Throws std::logic_error when the slot's list is empty.
  uint64_t Pop(uint32_t slot);
  bool Empty(uint32_t slot) const { return lists_.at(slot).empty(); }
  uint64_t Size(uint32_t slot) const { return lists_.at(slot).size(); }
  uint64_t used() const { return used_; }
  uint32_t entries() const { return entries_; }
  uint32_t slots() const { return static_cast<uint32_t>(lists_.size()); }

 private:
  uint32_t entries_;
  std::vector<std::deque<uint64_t>> lists_;
  uint64_t used_ = 0;
};

}  // namespace flint::model
