// Unit tests of the BCH golden model (model/ecc/bch): the field, the generator polynomial
// against textbook values, exhaustive error patterns on small codes, seeded random patterns on
// the 128 B line code (m = 11, t = 11, k = 1024), linearity and zero syndromes of codewords.
//
// Loops keep their first failure and assert once (no Catch2 macro per pattern).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/ecc/bch.hpp"
#include "tb/common/seed.hpp"

namespace {

namespace m = flint::model;
using m::BchBits;
using m::BchCode;
using m::BchStatus;

BchBits RandomBits(unsigned bits, std::mt19937_64& rng) {
  BchBits v(m::BchWords(bits), 0);
  for (auto& w : v) w = rng();
  if (bits % 64 != 0) v.back() &= (uint64_t{1} << (bits % 64)) - 1;
  return v;
}

// Coefficients (ascending) from a list of exponents.
std::vector<uint8_t> Poly(std::initializer_list<unsigned> exponents) {
  unsigned top = 0;
  for (unsigned e : exponents) top = std::max(top, e);
  std::vector<uint8_t> p(top + 1, 0);
  for (unsigned e : exponents) p[e] = 1;
  return p;
}

bool AllZero(const std::vector<uint32_t>& s) {
  for (size_t j = 1; j < s.size(); ++j) {
    if (s[j] != 0) return false;
  }
  return true;
}

// Outcome counts of a set of error patterns decoded on random codewords.
struct Tally {
  uint64_t patterns = 0, corrected = 0, flagged = 0, miscorrected = 0, wrong = 0;
  std::string first_wrong;  // the first pattern that broke the rule, described
};

// Decode `code` ^ `errors` and classify it. Within t (`weight` <= t) the only right outcome is
// the original data with the flipped count equal to the weight (clean for weight 0). Past t:
// never clean; either flagged (word untouched) or a miscorrection, which must land on a
// codeword within t of what was read (a bounded-distance decoder can do nothing else).
void Classify(const BchCode& c, const BchBits& code, const std::vector<uint32_t>& errors,
              Tally* tally) {
  BchBits rx = code;
  for (uint32_t p : errors) m::BchFlip(&rx, p);
  const BchBits read = rx;
  const m::BchResult res = c.Decode(&rx);
  const auto weight = static_cast<unsigned>(errors.size());
  ++tally->patterns;
  bool ok;
  if (weight <= c.t()) {
    ok = rx == code && res.corrected_bits == weight &&
         res.status == (weight == 0 ? BchStatus::kClean : BchStatus::kCorrected);
    if (ok && weight > 0) ++tally->corrected;
  } else if (res.status == BchStatus::kUncorrectable) {
    ok = rx == read;
    ++tally->flagged;
  } else if (res.status == BchStatus::kCorrected) {
    ok = rx != code && res.corrected_bits <= c.t() && AllZero(c.Syndromes(rx));
    ++tally->miscorrected;
  } else {
    ok = false;  // reported clean past t: impossible with distance 2t + 1
  }
  if (!ok && tally->wrong++ == 0) {
    std::ostringstream os;
    os << "m=" << c.m() << " t=" << c.t() << " k=" << c.data_bits() << " weight " << weight
       << " positions";
    for (uint32_t p : errors) os << ' ' << p;
    os << ": status " << static_cast<int>(res.status) << ", " << res.corrected_bits
       << " bits flipped";
    tally->first_wrong = os.str();
  }
}

// Every error pattern of weight `weight` over n positions, in lexicographic order.
template <typename Fn>
void ForEachPattern(unsigned n, unsigned weight, Fn fn) {
  std::vector<uint32_t> pos(weight);
  for (unsigned i = 0; i < weight; ++i) pos[i] = i;
  if (weight > n) return;
  while (true) {
    fn(pos);
    int i = static_cast<int>(weight) - 1;
    while (i >= 0 && pos[i] == n - weight + static_cast<unsigned>(i)) --i;
    if (i < 0) return;
    ++pos[i];
    for (unsigned j = static_cast<unsigned>(i) + 1; j < weight; ++j) pos[j] = pos[j - 1] + 1;
  }
}

// `weight` distinct random positions below n.
std::vector<uint32_t> RandomPattern(unsigned n, unsigned weight, std::mt19937_64& rng) {
  std::vector<uint32_t> pos;
  std::uniform_int_distribution<uint32_t> pick(0, n - 1);
  while (pos.size() < weight) {
    const uint32_t p = pick(rng);
    if (std::find(pos.begin(), pos.end(), p) == pos.end()) pos.push_back(p);
  }
  return pos;
}

// What a failing random case prints: its seed and the command that runs it again.
std::string Replay(uint32_t seed) {
  return "seed " + std::to_string(seed) + "; replay: FLINT_SEED=" + std::to_string(seed) + " " +
         FLINT_BINARY_DIR "/tb/ecc/test_bch '" + flint::tb::CurrentTestName() + "'";
}

}  // namespace

TEST_CASE("bch model: GF(2^m) tables form the field", "[ecc][bch_model][directed]") {
  for (unsigned mm : {3u, 4u, 5u, 8u, 11u, 13u, 16u}) {
    const BchCode c(mm, 1, 1);
    const uint32_t q = c.field_order();
    INFO("m=" << mm);
    REQUIRE(q == (uint32_t{1} << mm));
    // alpha is a root of the primitive polynomial: alpha^m = (poly - x^m) evaluated at alpha.
    REQUIRE(c.Exp(mm) == (c.primitive_poly() ^ q));
    unsigned bad = 0;
    for (uint32_t a = 1; a < q; ++a) {
      bad += c.Exp(c.Log(a)) != a;
      bad += c.Mul(a, c.Inv(a)) != 1;
      bad += c.Mul(a, 1) != a || c.Mul(a, 0) != 0;
    }
    REQUIRE(bad == 0);
    if (mm <= 5) {  // distributive and associative laws, exhaustively
      for (uint32_t a = 0; a < q; ++a) {
        for (uint32_t b = 0; b < q; ++b) {
          for (uint32_t d = 0; d < q; ++d) {
            bad += c.Mul(a, b ^ d) != (c.Mul(a, b) ^ c.Mul(a, d));
            bad += c.Mul(c.Mul(a, b), d) != c.Mul(a, c.Mul(b, d));
          }
        }
      }
      REQUIRE(bad == 0);
    }
  }
}

TEST_CASE("bch model: generator polynomials equal the textbook values",
          "[ecc][bch_model][directed]") {
  // GF(16) from x^4 + x + 1. Minimal polynomials: alpha, alpha^2, alpha^4, alpha^8 -> x^4+x+1;
  // alpha^3 (coset 3, 6, 12, 9) -> x^4+x^3+x^2+x+1; alpha^5 (coset 5, 10) -> x^2+x+1.
  // t = 2: (x^4+x+1)(x^4+x^3+x^2+x+1) = x^8+x^7+x^6+x^4+1, the BCH(15,7) generator.
  // t = 3: that times (x^2+x+1) = x^10+x^8+x^5+x^4+x^2+x+1, the BCH(15,5) generator.
  const BchCode c157(4, 2, 7);
  REQUIRE(c157.primitive_poly() == 0x13);
  REQUIRE(c157.generator() == Poly({8, 7, 6, 4, 0}));
  REQUIRE(c157.code_bits() == 15);
  const BchCode c155(4, 3, 5);
  REQUIRE(c155.generator() == Poly({10, 8, 5, 4, 2, 1, 0}));
  REQUIRE(c155.code_bits() == 15);
  // t = 1 is the Hamming code: g = the primitive polynomial itself.
  const BchCode c1511(4, 1, 11);
  REQUIRE(c1511.generator() == Poly({4, 1, 0}));
  // GF(32) from x^5 + x^2 + 1, t = 2: m1 = x^5+x^2+1, m3 = x^5+x^4+x^3+x^2+1 (the minimal
  // polynomial of alpha^3); product x^10+x^9+x^8+x^6+x^5+x^3+1, the BCH(31,21) generator.
  const BchCode c3121(5, 2, 21);
  REQUIRE(c3121.generator() == Poly({10, 9, 8, 6, 5, 3, 0}));
}

TEST_CASE("bch model: the line code is m=11 t=11 with 1024 + 121 bits and g has the 2t roots",
          "[ecc][bch_model][directed]") {
  const BchCode c(m::kLineBchM, m::kLineBchT, m::kLineBchDataBits);
  REQUIRE(c.parity_bits() == 121);
  REQUIRE(c.code_bits() == 1145);
  REQUIRE(c.parity_bits() <= 16 * 8);  // fits the line's 16 spare bytes
  // g(alpha^j) = 0 for j = 1..2t, and g divides x^(2^m - 1) + 1 (it generates a cyclic code).
  const auto& g = c.generator();
  for (unsigned j = 1; j <= 2 * c.t(); ++j) {
    uint32_t sum = 0;
    for (size_t i = 0; i < g.size(); ++i) {
      if (g[i]) sum ^= c.Exp(static_cast<uint32_t>((i * j) % (c.field_order() - 1)));
    }
    INFO("j=" << j);
    REQUIRE(sum == 0);
  }
  const uint32_t big_n = c.field_order() - 1;
  std::vector<uint8_t> rem(big_n + 1, 0);  // x^N + 1, reduced by g in place
  rem[big_n] = rem[0] = 1;
  for (size_t top = big_n; top + 1 >= g.size(); --top) {
    if (rem[top]) {
      for (size_t i = 0; i < g.size(); ++i) rem[top - (g.size() - 1) + i] ^= g[i];
    }
    if (top == g.size() - 1) break;
  }
  unsigned left = 0;
  for (uint8_t b : rem) left += b;
  REQUIRE(left == 0);
}

TEST_CASE("bch model: exhaustive: every pattern up to t corrected and t+1 flagged or miscorrected",
          "[ecc][bch_model][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  std::mt19937_64 rng(seed);
  struct Shape {
    unsigned m, t, k;
    uint64_t a_min;  // published count of weight-(2t+1) codewords (0: not given here)
  };
  // Full-length and shortened codes over GF(16) and GF(32). Published weight distributions of
  // the full-length ones: A_5 = 18 for BCH(15,7), A_7 = 15 for BCH(15,5), A_5 = 186 for
  // BCH(31,21), A_7 = 155 for BCH(31,16).
  for (const Shape& s : {Shape{4, 2, 7, 18}, Shape{4, 3, 5, 15}, Shape{5, 2, 21, 186},
                         Shape{5, 3, 16, 155}, Shape{5, 3, 9, 0}, Shape{5, 2, 6, 0}}) {
    const BchCode c(s.m, s.t, s.k);
    const unsigned d = 2 * s.t + 1;  // designed distance
    // Weight distribution by listing every codeword (k <= 16), which also proves the minimum
    // distance: no non-zero codeword lighter than 2t + 1.
    uint64_t a_min = s.a_min;
    unsigned lightest = c.code_bits();
    if (s.k <= 16) {
      a_min = 0;
      for (uint64_t v = 1; v < (uint64_t{1} << s.k); ++v) {
        unsigned weight = 0;
        for (uint64_t w : c.Encode(BchBits{v})) {
          weight += static_cast<unsigned>(__builtin_popcountll(w));
        }
        lightest = std::min(lightest, weight);
        a_min += weight == d;
      }
      if (s.a_min != 0) CHECK(a_min == s.a_min);
      CHECK(lightest >= d);
    }
    Tally within, past;
    for (unsigned w = 0; w <= s.t + 1; ++w) {
      ForEachPattern(c.code_bits(), w, [&](const std::vector<uint32_t>& pos) {
        const BchBits code = c.Encode(RandomBits(s.k, rng));
        Classify(c, code, pos, w <= s.t ? &within : &past);
      });
    }
    std::printf(
        "bch exhaustive m=%u t=%u n=%u k=%u: %llu patterns of weight <= t all corrected; "
        "weight t+1: %llu flagged, %llu miscorrected of %llu\n",
        s.m, s.t, c.code_bits(), s.k, static_cast<unsigned long long>(within.patterns),
        static_cast<unsigned long long>(past.flagged),
        static_cast<unsigned long long>(past.miscorrected),
        static_cast<unsigned long long>(past.patterns));
    INFO(Replay(seed));
    INFO("first wrong within t: " << within.first_wrong);
    INFO("first wrong past t: " << past.first_wrong);
    CHECK(within.wrong == 0);
    CHECK(past.wrong == 0);
    CHECK(past.flagged + past.miscorrected == past.patterns);
    // A weight-(t+1) pattern lies within t of a non-zero codeword exactly when it is a
    // (t+1)-subset of a weight-(2t+1) codeword, and a bounded-distance decoder must then
    // decode to it: miscorrections = A_(2t+1) x C(2t+1, t+1), exactly.
    uint64_t subsets = 1;
    for (unsigned i = 0; i < s.t + 1; ++i) subsets = subsets * (d - i) / (i + 1);
    CHECK(past.miscorrected == a_min * subsets);
  }
}

TEST_CASE("bch model: line code: random patterns of weight 0..2t+1", "[ecc][bch_model][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  std::mt19937_64 rng(seed);
  const BchCode c(m::kLineBchM, m::kLineBchT, m::kLineBchDataBits);
  const unsigned per_weight_within = 400;  // 4 800 patterns of weight 0..11
  const unsigned per_weight_past = 150;    // 1 800 of weight 12..23
  Tally within, past;
  for (unsigned w = 0; w <= 2 * c.t() + 1; ++w) {
    const unsigned count = w <= c.t() ? per_weight_within : per_weight_past;
    for (unsigned i = 0; i < count; ++i) {
      const BchBits code = c.Encode(RandomBits(c.data_bits(), rng));
      Classify(c, code, RandomPattern(c.code_bits(), w, rng), w <= c.t() ? &within : &past);
    }
  }
  std::printf(
      "bch line code (m=11 t=11 n=1145): %llu patterns of weight 0..11 all handled; "
      "weight 12..23: %llu flagged, %llu miscorrected of %llu\n",
      static_cast<unsigned long long>(within.patterns),
      static_cast<unsigned long long>(past.flagged),
      static_cast<unsigned long long>(past.miscorrected),
      static_cast<unsigned long long>(past.patterns));
  INFO(Replay(seed));
  INFO("first wrong within t: " << within.first_wrong);
  INFO("first wrong past t: " << past.first_wrong);
  CHECK(within.wrong == 0);
  CHECK(past.wrong == 0);
}

TEST_CASE("bch model: encoding is linear and codewords have zero syndromes",
          "[ecc][bch_model][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  std::mt19937_64 rng(seed);
  struct Shape {
    unsigned m, t, k;
  };
  for (const Shape& s : {Shape{4, 2, 7}, Shape{5, 3, 9}, Shape{8, 4, 200},
                         Shape{m::kLineBchM, m::kLineBchT, m::kLineBchDataBits}}) {
    const BchCode c(s.m, s.t, s.k);
    unsigned nonlinear = 0, nonzero = 0, data_lost = 0;
    for (unsigned i = 0; i < 300; ++i) {
      const BchBits a = RandomBits(s.k, rng), b = RandomBits(s.k, rng);
      BchBits ab = a;
      for (size_t w = 0; w < ab.size(); ++w) ab[w] ^= b[w];
      const BchBits ca = c.Encode(a), cb = c.Encode(b);
      BchBits sum = ca;
      for (size_t w = 0; w < sum.size(); ++w) sum[w] ^= cb[w];
      nonlinear += c.Encode(ab) != sum;
      nonzero += !AllZero(c.Syndromes(ca));
      data_lost += c.Data(ca) != a;
    }
    // Unit vectors too: each single data bit's codeword is a row of the generator matrix.
    for (unsigned j = 0; j < s.k; ++j) {
      BchBits u(m::BchWords(s.k), 0);
      m::BchFlip(&u, j);
      nonzero += !AllZero(c.Syndromes(c.Encode(u)));
    }
    INFO(Replay(seed) << " m=" << s.m << " t=" << s.t << " k=" << s.k);
    CHECK(nonlinear == 0);
    CHECK(nonzero == 0);
    CHECK(data_lost == 0);
  }
}

TEST_CASE("bch model: an erased line (all ones) is flagged and not corrected",
          "[ecc][bch_model][corner]") {
  const BchCode c(m::kLineBchM, m::kLineBchT, m::kLineBchDataBits);
  BchBits erased(m::BchWords(c.code_bits()), ~uint64_t{0});
  erased.back() &= (uint64_t{1} << (c.code_bits() % 64)) - 1;
  const BchBits read = erased;
  const m::BchResult res = c.Decode(&erased);
  REQUIRE(res.status == BchStatus::kUncorrectable);
  REQUIRE(erased == read);
}

TEST_CASE("bch model: bad parameters and sizes are refused", "[ecc][bch_model][corner]") {
  REQUIRE_THROWS_AS(BchCode(2, 1, 1), std::invalid_argument);
  REQUIRE_THROWS_AS(BchCode(17, 1, 1), std::invalid_argument);
  REQUIRE_THROWS_AS(BchCode(5, 0, 1), std::invalid_argument);
  REQUIRE_THROWS_AS(BchCode(5, 2, 0), std::invalid_argument);
  REQUIRE_THROWS_AS(BchCode(4, 2, 8), std::invalid_argument);       // 8 + 8 > 15
  REQUIRE_THROWS_AS(BchCode(10, 11, 1024), std::invalid_argument);  // 1024 + 110 > 1023
  REQUIRE_NOTHROW(BchCode(11, 11, 1024));
  REQUIRE_NOTHROW(BchCode(11, 11, 2047 - 121));  // full length
  REQUIRE_THROWS_AS(BchCode(11, 11, 2047 - 120), std::invalid_argument);
  const BchCode c(4, 2, 7);
  BchBits wrong(2, 0);
  REQUIRE_THROWS_AS(c.Decode(&wrong), std::invalid_argument);
  REQUIRE_THROWS_AS(c.Encode(wrong), std::invalid_argument);
}
