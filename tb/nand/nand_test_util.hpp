// Helpers shared by the NAND die model's tests.
#pragma once
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/nand/nand_die.hpp"

namespace flint::tb::nand {

using model::NandDie;
using model::NandError;
using model::NandErrorCode;
using model::NandOptions;
using model::PageAddr;
using model::PageTag;
using model::PlaneBlock;

// No raw bit errors at all: content checks can compare bytes exactly.
inline NandOptions QuietOptions() {
  NandOptions o;
  o.reliability.base_rber = 0.0;
  o.reliability.rber_at_limit = 0.0;
  return o;
}

// Every logical plane (0..planes-1), plane p addressing block block_of(p).
template <class BlockOf>
std::vector<PlaneBlock> LogicalTargets(const Config& cfg, BlockOf block_of) {
  std::vector<PlaneBlock> t;
  for (uint32_t p = 0; p < cfg.planes; ++p) t.push_back(PlaneBlock{p, block_of(p)});
  return t;
}

// The tag model load gives page `page` of block `block` on a plane holding slice `slice`.
inline PageTag LoadTag(const Config& cfg, uint32_t slice, uint32_t block, uint32_t page,
                       uint32_t generation = 0) {
  return PageTag{uint64_t{block} * cfg.pages + page, slice, generation};
}

// Fill every page of `block` on `plane` in order with load tags, waiting for the plane and the
// die I/O as a sequencer would. Returns the cycle the plane is ready again.
inline uint64_t LoadBlock(NandDie& die, uint32_t plane, uint32_t block, uint32_t slice,
                          uint64_t now, uint32_t generation = 0) {
  const Config& cfg = die.config();
  now = std::max({now, die.PlaneReadyAt(plane), die.IoBusyUntil()});
  const auto r = die.ProgramBlockTagged(plane, block, LoadTag(cfg, slice, block, 0, generation),
                                        static_cast<uint32_t>(cfg.pages), now);
  REQUIRE(r.pass);
  return r.done_at;
}

// The interleaved page image the die should return for a page loaded with `tag` (no errors),
// under the die's installed spare function.
inline std::vector<uint8_t> Expected(const NandDie& die, const PageTag& tag) {
  return model::ExpectedPageImage(die.config(), tag, die.spare_fn());
}

// Little-endian 64-bit word `w` of a byte vector (test-side, independent of the model).
inline uint64_t WordOf(const std::vector<uint8_t>& bytes, uint64_t w) {
  uint64_t v = 0;
  for (uint64_t b = 0; b < 8; ++b) v |= uint64_t{bytes[8 * w + b]} << (8 * b);
  return v;
}

// A per-word check function that is not the ECC code but depends on every data byte, so a
// misplaced or stale check byte shows: any bit flip of the word changes it.
inline uint8_t FoldCheck(uint64_t word) {
  uint64_t x = word ^ (word >> 32);
  x ^= x >> 16;
  x ^= x >> 8;
  return static_cast<uint8_t>(x ^ 0xA5);
}

// The image of `data` built here from the layout rule (codeword w = 8 data bytes of word w, then
// check(word w)), apart from the model's own interleaving code.
template <class CheckFn>
std::vector<uint8_t> InterleaveRef(const std::vector<uint8_t>& data, CheckFn check) {
  REQUIRE(data.size() % 8 == 0);
  std::vector<uint8_t> image;
  for (uint64_t w = 0; w < data.size() / 8; ++w) {
    for (uint64_t b = 0; b < 8; ++b) image.push_back(data[8 * w + b]);
    image.push_back(check(WordOf(data, w)));
  }
  return image;
}

inline std::vector<uint8_t> Slice(const std::vector<uint8_t>& v, uint64_t off, uint64_t n) {
  return std::vector<uint8_t>(v.begin() + static_cast<std::ptrdiff_t>(off),
                              v.begin() + static_cast<std::ptrdiff_t>(off + n));
}

inline uint64_t CountBitDiffs(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  REQUIRE(a.size() == b.size());
  uint64_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += __builtin_popcount(a[i] ^ b[i]);
  return n;
}

// Catch2 matcher on NandError's code, for REQUIRE_THROWS_MATCHES.
class HasCode : public Catch::MatcherBase<NandError> {
 public:
  explicit HasCode(NandErrorCode code) : code_(code) {}
  bool match(const NandError& e) const override { return e.code() == code_; }
  std::string describe() const override {
    return "has code " + std::string(model::ToString(code_));
  }

 private:
  NandErrorCode code_;
};

}  // namespace flint::tb::nand
