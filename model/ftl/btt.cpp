#include "model/ftl/btt.hpp"

#include <stdexcept>
#include <string>

namespace flint::model {

Btt::Btt(const Config& cfg, uint64_t entries)
    : blocks_(static_cast<uint32_t>(cfg.blocks)), pages_(static_cast<uint32_t>(cfg.pages)) {
  const uint64_t n = entries == 0 ? cfg.btt_entries : entries;
  valid_.assign(n, false);
  block_.assign(n, 0);
  page_.assign(n, 0);
}

bool Btt::Load(uint64_t idx, uint32_t block, uint32_t page) {
  if (block >= blocks_ || page >= pages_) {
    throw std::invalid_argument("Btt::Load: (block " + std::to_string(block) + ", page " +
                                std::to_string(page) + ") is outside the geometry");
  }
  if (idx >= entries()) {
    if (!load_error_) load_error_ = idx;
    return false;
  }
  if (!valid_[idx]) ++loaded_;
  valid_[idx] = true;
  block_[idx] = block;
  page_[idx] = page;
  return true;
}

BttResult Btt::Lookup(uint64_t idx) const {
  if (idx >= entries()) return {Status::kOutOfRange, 0, 0};
  if (!valid_[idx]) return {Status::kNotLoaded, 0, 0};
  return {Status::kOk, block_[idx], page_[idx]};
}

void Btt::Clear() {
  valid_.assign(valid_.size(), false);
  load_error_.reset();
  loaded_ = 0;
}

}  // namespace flint::model
