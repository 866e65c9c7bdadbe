// Counter-based random numbers for the workload generator: every draw is a pure function of the
// seed and of what it is for (step, layer, token, ...), so a trace is the same on every machine
// and compiler (std:: distributions are not) and any part of it can be recomputed alone.
#pragma once
#include <cstdint>

namespace flint::sim {

// SplitMix64's finaliser: a bijective 64-bit mix.
inline uint64_t Mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// What a draw is for; keeps the streams apart.
enum class HashTag : uint64_t {
  kPermute = 1,  // per-layer expert rank permutation
  kRoute = 2,    // routing keys
  kToken = 3,    // embedding rows
  kRate = 4,     // per-SM issue interval jitter
  kStart = 5,    // per-SM start offset
};

inline uint64_t WorkloadHash(uint64_t seed, HashTag tag, uint64_t a, uint64_t b = 0,
                             uint64_t c = 0) {
  uint64_t h = Mix64(seed ^ (static_cast<uint64_t>(tag) * 0xd6e8feb86659fd93ULL));
  h = Mix64(h ^ a);
  h = Mix64(h ^ b);
  return Mix64(h ^ c);
}

// A double in (0, 1] from a hash (never 0, so log() is finite).
inline double UnitOpen(uint64_t h) { return static_cast<double>((h >> 11) + 1) * 0x1.0p-53; }

// An integer in [0, n) from a hash, without the modulo bias.
inline uint64_t Below(uint64_t h, uint64_t n) {
  __extension__ typedef unsigned __int128 U128;
  return static_cast<uint64_t>((static_cast<U128>(h) * n) >> 64);
}

}  // namespace flint::sim
