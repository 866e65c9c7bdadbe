// Helpers the BCH benches share (tb/ecc: bch_rtl_test, bch_dec_test, bch_netlist_test): the line
// code of the C++ model, a model bit vector onto a Verilated wide port and back, and a hex print.
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "model/ecc/bch.hpp"

namespace flint::tb {

// The NAND-grade line code (docs/ecc.md) as the model builds it.
inline const model::BchCode& BchLineCode() {
  static const model::BchCode code(model::kLineBchM, model::kLineBchT, model::kLineBchDataBits);
  return code;
}

// A model bit vector (64-bit words) onto a Verilated wide port (32-bit words), and back.
template <class Port>
void PutBch(Port& port, const model::BchBits& v) {
  constexpr size_t kWords = std::extent_v<decltype(port.m_storage)>;
  for (size_t w = 0; w < kWords; ++w) {
    const size_t src = w / 2;
    port.at(w) = src < v.size() ? static_cast<uint32_t>(v[src] >> (32 * (w % 2))) : 0u;
  }
}

template <class Port>
model::BchBits GetBch(const Port& port, size_t bits) {
  model::BchBits v(model::BchWords(bits), 0);
  for (size_t i = 0; i < bits; ++i) {
    if ((port.at(i / 32) >> (i % 32)) & 1u) model::BchFlip(&v, i);
  }
  return v;
}

// Most significant word first, words apart by "_".
inline std::string BchHex(const model::BchBits& v) {
  std::ostringstream s;
  s << std::hex;
  for (size_t w = v.size(); w-- > 0;) s << (w + 1 == v.size() ? "" : "_") << v[w];
  return s.str();
}

// flint_pkg::status_e values, and the model's status as the RTL encodes it.
inline constexpr uint8_t kStatusOk = 0, kStatusCorrected = 1, kStatusUncorrectable = 2;
inline uint8_t StatusOf(model::BchStatus s) {
  switch (s) {
    case model::BchStatus::kClean:
      return kStatusOk;
    case model::BchStatus::kCorrected:
      return kStatusCorrected;
    case model::BchStatus::kUncorrectable:
      return kStatusUncorrectable;
  }
  return 0xFF;
}

// `bits` random bits.
inline model::BchBits RandomBits(std::mt19937_64& rng, unsigned bits) {
  model::BchBits v(model::BchWords(bits), 0);
  for (auto& w : v) w = rng();
  if (bits % 64 != 0) v.back() &= (uint64_t{1} << (bits % 64)) - 1;
  return v;
}

// `weight` distinct positions of [0, n) flipped in *word (a partial Fisher-Yates shuffle).
inline void FlipRandom(std::mt19937_64& rng, unsigned weight, model::BchBits* word, unsigned n) {
  std::vector<uint32_t> pos(n);
  std::iota(pos.begin(), pos.end(), 0u);
  for (unsigned e = 0; e < weight; ++e) {
    std::uniform_int_distribution<uint32_t> pick(e, n - 1);
    std::swap(pos[e], pos[pick(rng)]);
    model::BchFlip(word, pos[e]);
  }
}

// A received word: a random codeword with `weight` random errors.
inline model::BchBits Received(const model::BchCode& code, std::mt19937_64& rng, unsigned weight) {
  model::BchBits word = code.Encode(RandomBits(rng, code.data_bits()));
  FlipRandom(rng, weight, &word, code.code_bits());
  return word;
}

}  // namespace flint::tb
