// verif/ports.hpp's byte helpers, whose wide-port path moves whole 32-bit words, against the
// bit-field helpers one byte at a time, at every alignment and length, on a wide and a narrow
// port.
#include <catch2/catch.hpp>
#include <verilated.h>

#include <cstdint>
#include <random>
#include <vector>

#include "tb/common/ports.hpp"
#include "tb/common/seed.hpp"

namespace {

using flint::tb::GetBits;
using flint::tb::GetBytesInto;
using flint::tb::PutBits;
using flint::tb::PutBytes;

template <class T>
void Fill(T& port, std::mt19937_64& rng, uint32_t bytes) {
  for (uint32_t i = 0; i < bytes; ++i) PutBits(port, 8 * i, 8, rng() & 0xFF);
}

// Every (position, length) inside a port of `bytes` bytes.
template <class T>
void CheckEveryRange(std::mt19937_64& rng, uint32_t bytes) {
  for (uint32_t pos = 0; pos < bytes; ++pos) {
    for (uint32_t n = 0; pos + n <= bytes; ++n) {
      T fast{}, slow{};
      Fill(fast, rng, bytes);
      for (uint32_t i = 0; i < bytes; ++i) PutBits(slow, 8 * i, 8, GetBits(fast, 8 * i, 8));
      std::vector<uint8_t> v(n);
      for (auto& b : v) b = static_cast<uint8_t>(rng());
      PutBytes(fast, pos, v);
      for (uint32_t i = 0; i < n; ++i) PutBits(slow, 8 * (pos + i), 8, v[i]);
      INFO("byte " << pos << ", " << n << " bytes");
      for (uint32_t i = 0; i < bytes; ++i) {
        REQUIRE(GetBits(fast, 8 * i, 8) == GetBits(slow, 8 * i, 8));
      }
      std::vector<uint8_t> got(n + 1, 0x5A);
      GetBytesInto(fast, pos, n, got.data());
      for (uint32_t i = 0; i < n; ++i) REQUIRE(got[i] == v[i]);
      REQUIRE(got[n] == 0x5A);  // nothing past n
    }
  }
}

}  // namespace

TEST_CASE("ports: byte helpers move whole words exactly as byte-wide bit fields",
          "[common][ports][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  CheckEveryRange<VlWide<5>>(rng, 18);  // a 144-bit port: its last word half used
  CheckEveryRange<uint64_t>(rng, 8);
}
