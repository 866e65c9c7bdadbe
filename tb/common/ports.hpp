// Bit fields of Verilated ports of any width: CData/SData/IData/QData for up to 64 bits,
// VlWide<N> (32-bit words) above. Field `pos` is bit `pos` of the SystemVerilog vector.
#pragma once
#include <cstdint>
#include <type_traits>
#include <vector>

namespace flint::tb {

// Bits to index n things, at least 1: the RTL's `(n > 1) ? $clog2(n) : 1` port widths.
inline uint32_t Bits(uint64_t n) {
  uint32_t b = 0;
  while ((uint64_t{1} << b) < n) ++b;
  return b == 0 ? 1 : b;
}

template <class T>
uint64_t GetBits(const T& port, uint32_t pos, uint32_t width) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t v = static_cast<uint64_t>(port) >> pos;
    return width >= 64 ? v : v & ((uint64_t{1} << width) - 1);
  } else {
    uint64_t v = 0;
    for (uint32_t i = 0; i < width; ++i) {
      const uint32_t bit = pos + i;
      v |= uint64_t{(port[bit / 32] >> (bit % 32)) & 1u} << i;
    }
    return v;
  }
}

template <class T>
void PutBits(T& port, uint32_t pos, uint32_t width, uint64_t v) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t mask = (width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1) << pos;
    port = static_cast<T>((static_cast<uint64_t>(port) & ~mask) | ((v << pos) & mask));
  } else {
    for (uint32_t i = 0; i < width; ++i) {
      const uint32_t bit = pos + i;
      const uint32_t m = uint32_t{1} << (bit % 32);
      port[bit / 32] = ((v >> i) & 1u) ? (port[bit / 32] | m) : (port[bit / 32] & ~m);
    }
  }
}

// Bytes [byte_pos, +n) of a wide port (byte i at bits [8i +: 8]).
template <class T>
void PutBytes(T& port, uint32_t byte_pos, const std::vector<uint8_t>& bytes) {
  for (size_t i = 0; i < bytes.size(); ++i) {
    PutBits(port, static_cast<uint32_t>(8 * (byte_pos + i)), 8, bytes[i]);
  }
}

template <class T>
std::vector<uint8_t> GetBytes(const T& port, uint32_t byte_pos, uint32_t n) {
  std::vector<uint8_t> out(n);
  for (uint32_t i = 0; i < n; ++i) {
    out[i] = static_cast<uint8_t>(GetBits(port, 8 * (byte_pos + i), 8));
  }
  return out;
}

}  // namespace flint::tb
