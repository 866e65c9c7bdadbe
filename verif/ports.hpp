// Bit fields of Verilated ports of any width: CData/SData/IData/QData for up to 64 bits,
// VlWide<N> (32-bit words) above. Field `pos` is bit `pos` of the SystemVerilog vector.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace flint::verif {

// Bits to index n things, at least 1: the RTL's `(n > 1) ? $clog2(n) : 1` port widths.
inline uint32_t Bits(uint64_t n) {
  uint32_t b = 0;
  while ((uint64_t{1} << b) < n) ++b;
  return b == 0 ? 1 : b;
}

// Fields are read and written a 32-bit word at a time (a field of up to 64 bits spans at most
// three words): testbenches call these for every lane and plane every cycle.
template <class T>
uint64_t GetBits(const T& port, uint32_t pos, uint32_t width) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t v = static_cast<uint64_t>(port) >> pos;
    return width >= 64 ? v : v & ((uint64_t{1} << width) - 1);
  } else {
    uint64_t v = 0;
    for (uint32_t got = 0; got < width;) {
      const uint32_t bit = pos + got;
      const uint32_t off = bit % 32;
      const uint32_t take = std::min(32 - off, width - got);
      const uint64_t word = static_cast<uint32_t>(port[bit / 32]) >> off;
      v |= (word & ((uint64_t{1} << take) - 1)) << got;
      got += take;
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
    for (uint32_t put = 0; put < width;) {
      const uint32_t bit = pos + put;
      const uint32_t off = bit % 32;
      const uint32_t take = std::min(32 - off, width - put);
      const uint32_t m = static_cast<uint32_t>(((uint64_t{1} << take) - 1) << off);
      const auto field = static_cast<uint32_t>(((v >> put) << off) & m);
      port[bit / 32] = (static_cast<uint32_t>(port[bit / 32]) & ~m) | field;
      put += take;
    }
  }
}

// Bytes [byte_pos, +n) of a port (byte i at bits [8i +: 8]). On a wide port a byte never
// straddles a 32-bit word, so whole words are written four bytes at a time: a line goes onto the
// die's data port every data-out, and a byte-by-byte PutBits cost a tenth of a stack-top cycle.
template <class T>
void PutBytes(T& port, uint32_t byte_pos, const uint8_t* bytes, size_t n) {
  if constexpr (std::is_integral_v<T>) {
    for (size_t i = 0; i < n; ++i) {
      PutBits(port, static_cast<uint32_t>(8 * (byte_pos + i)), 8, bytes[i]);
    }
  } else {
    size_t i = 0;
    for (; i < n && (byte_pos + i) % 4 != 0; ++i) {
      PutBits(port, static_cast<uint32_t>(8 * (byte_pos + i)), 8, bytes[i]);
    }
    for (; i + 4 <= n; i += 4) {
      port[(byte_pos + i) / 4] =
          static_cast<uint32_t>(bytes[i]) | static_cast<uint32_t>(bytes[i + 1]) << 8 |
          static_cast<uint32_t>(bytes[i + 2]) << 16 | static_cast<uint32_t>(bytes[i + 3]) << 24;
    }
    for (; i < n; ++i) PutBits(port, static_cast<uint32_t>(8 * (byte_pos + i)), 8, bytes[i]);
  }
}

template <class T>
void PutBytes(T& port, uint32_t byte_pos, const std::vector<uint8_t>& bytes) {
  PutBytes(port, byte_pos, bytes.data(), bytes.size());
}

// Into `out` (n bytes), allocation-free for per-cycle use; whole words as in PutBytes.
template <class T>
void GetBytesInto(const T& port, uint32_t byte_pos, uint32_t n, uint8_t* out) {
  uint32_t i = 0;
  if constexpr (!std::is_integral_v<T>) {
    for (; i < n && (byte_pos + i) % 4 != 0; ++i) {
      out[i] = static_cast<uint8_t>(GetBits(port, 8 * (byte_pos + i), 8));
    }
    for (; i + 4 <= n; i += 4) {
      const auto w = static_cast<uint32_t>(port[(byte_pos + i) / 4]);
      out[i] = static_cast<uint8_t>(w);
      out[i + 1] = static_cast<uint8_t>(w >> 8);
      out[i + 2] = static_cast<uint8_t>(w >> 16);
      out[i + 3] = static_cast<uint8_t>(w >> 24);
    }
  }
  for (; i < n; ++i) out[i] = static_cast<uint8_t>(GetBits(port, 8 * (byte_pos + i), 8));
}

template <class T>
std::vector<uint8_t> GetBytes(const T& port, uint32_t byte_pos, uint32_t n) {
  std::vector<uint8_t> out(n);
  GetBytesInto(port, byte_pos, n, out.data());
  return out;
}

}  // namespace flint::verif
