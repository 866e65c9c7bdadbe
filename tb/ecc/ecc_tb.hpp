// Helpers shared by the ECC testbenches: bytes <-> Verilated ports (narrow or VlWide), random
// words, error injection into a (data, check) pair.
#pragma once
#include <verilated.h>

#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "model/ecc/secded.hpp"

namespace flint::tb::ecc {

// Byte b of the vector goes to port bits [8b+7 : 8b] (the RTL's little-endian line layout).
template <class Port>
void PutBytes(Port& port, const std::vector<uint8_t>& bytes) {
  if constexpr (std::is_integral_v<Port>) {
    uint64_t v = 0;
    for (size_t k = 0; k < bytes.size() && k < sizeof(Port); ++k) {
      v |= static_cast<uint64_t>(bytes[k]) << (8 * k);
    }
    port = static_cast<Port>(v);
  } else {
    constexpr size_t kWords = sizeof(port.m_storage) / sizeof(port.m_storage[0]);
    for (size_t w = 0; w < kWords; ++w) {
      uint32_t v = 0;
      for (size_t k = 0; k < 4; ++k) {
        const size_t idx = 4 * w + k;
        if (idx < bytes.size()) v |= static_cast<uint32_t>(bytes[idx]) << (8 * k);
      }
      port.at(w) = v;
    }
  }
}

template <class Port>
std::vector<uint8_t> GetBytes(const Port& port, size_t n) {
  std::vector<uint8_t> bytes(n, 0);
  if constexpr (std::is_integral_v<Port>) {
    const uint64_t v = static_cast<uint64_t>(port);
    for (size_t k = 0; k < n && k < sizeof(Port); ++k) bytes[k] = static_cast<uint8_t>(v >> (8 * k));
  } else {
    for (size_t k = 0; k < n; ++k) bytes[k] = static_cast<uint8_t>(port.at(k / 4) >> (8 * (k % 4)));
  }
  return bytes;
}

// Bit i of an integral port (for per-word flag vectors).
template <class Port>
bool Bit(const Port& port, size_t i) {
  return (static_cast<uint64_t>(port) >> i) & 1u;
}

inline std::vector<uint8_t> RandomBytes(std::mt19937_64& rng, size_t n) {
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

// A handful of words every exhaustive test also runs: the all-zero codeword, all ones,
// alternating patterns, one bit.
inline std::vector<uint64_t> CornerWords() {
  return {0x0ull, ~0x0ull, 0xAAAAAAAAAAAAAAAAull, 0x5555555555555555ull, 0x1ull,
          0x8000000000000000ull};
}

// Flip code bit b (0..63 data, 64..71 check) of word w of a block held as main + check bytes.
inline void FlipCodeBit(std::vector<uint8_t>& main, std::vector<uint8_t>& check, size_t w,
                        unsigned b) {
  if (b < model::kSecdedDataBits) {
    main[w * 8 + b / 8] ^= static_cast<uint8_t>(1u << (b % 8));
  } else {
    check[w] ^= static_cast<uint8_t>(1u << (b - model::kSecdedDataBits));
  }
}

// k distinct code bits of one word, chosen at random.
inline std::vector<unsigned> RandomCodeBits(std::mt19937_64& rng, unsigned k) {
  std::vector<unsigned> all(model::kSecdedCodeBits);
  for (unsigned i = 0; i < all.size(); ++i) all[i] = i;
  for (unsigned i = 0; i < k; ++i) {
    std::uniform_int_distribution<unsigned> pick(i, model::kSecdedCodeBits - 1);
    std::swap(all[i], all[pick(rng)]);
  }
  all.resize(k);
  return all;
}

}  // namespace flint::tb::ecc
