#include "model/bbc/crq_bank.hpp"

#include <stdexcept>
#include <string>

namespace flint::model {

CrqBank::CrqBank(uint32_t entries, uint32_t slots) : entries_(entries), lists_(slots) {
  if (entries == 0 || slots == 0) throw std::invalid_argument("crq_bank: no entries or no slots");
}

void CrqBank::Append(uint32_t slot, uint64_t payload) {
  if (used_ == entries_) throw std::logic_error("crq_bank: append to a full bank");
  lists_.at(slot).push_back(payload);
  ++used_;
}

uint64_t CrqBank::Pop(uint32_t slot) {
  auto& l = lists_.at(slot);
  if (l.empty()) throw std::logic_error("crq_bank: pop of empty slot " + std::to_string(slot));
  const uint64_t v = l.front();
  l.pop_front();
  --used_;
  return v;
}

}  // namespace flint::model
