#include "model/refresh/migration_bitmap.hpp"

#include <stdexcept>
#include <string>

namespace flint::model {

MigrationBitmap::MigrationBitmap(uint32_t blocks, uint32_t pages, uint32_t word_bits)
    : blocks_(blocks), pages_(pages), word_bits_(word_bits) {
  if (blocks == 0 || pages == 0 || word_bits == 0 || pages % word_bits != 0) {
    throw std::invalid_argument("migration bitmap: " + std::to_string(blocks) + " blocks x " +
                                std::to_string(pages) + " pages cannot be packed in " +
                                std::to_string(word_bits) + "-bit words");
  }
  bits_.assign(uint64_t{blocks} * pages, false);
  per_block_.assign(blocks, 0);
}

TasResult MigrationBitmap::TestAndSet(uint32_t block, uint32_t page) {
  if (block >= blocks_ || page >= pages_) {
    throw std::out_of_range("migration bitmap: (block " + std::to_string(block) + ", page " +
                            std::to_string(page) + ") outside " + std::to_string(blocks_) +
                            " x " + std::to_string(pages_));
  }
  const uint64_t i = uint64_t{block} * pages_ + page;
  if (bits_[i]) return {};
  bits_[i] = true;
  ++set_count_;
  return {true, ++per_block_[block] == pages_};
}

std::optional<BlockPageRef> MigrationBitmap::Scan() {
  const uint64_t word_end = (cursor_ / word_bits_ + 1) * word_bits_;
  for (uint64_t i = cursor_; i < word_end; ++i) {
    if (!bits_[i]) {
      cursor_ = (i + 1) % bits_.size();
      return BlockPageRef{static_cast<uint32_t>(i / pages_), static_cast<uint32_t>(i % pages_)};
    }
  }
  cursor_ = word_end % bits_.size();
  return std::nullopt;
}

void MigrationBitmap::Clear() {
  bits_.assign(bits_.size(), false);
  per_block_.assign(blocks_, 0);
  set_count_ = 0;
  cursor_ = 0;
}

bool MigrationBitmap::Test(uint32_t block, uint32_t page) const {
  return bits_.at(uint64_t{block} * pages_ + page);
}

}  // namespace flint::model
