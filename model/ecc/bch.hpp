// Golden model of a binary BCH code over GF(2^m), shortened to a given number of data bits
// (docs/ecc.md, "NAND-grade code: the choice"; issue #26). Written from the textbook
// definition, not from any RTL:
//
// - GF(2^m) from a primitive polynomial (a fixed one per m, checked primitive at construction),
//   with log / antilog tables; alpha is the root x.
// - g(x) = LCM of the minimal polynomials of alpha^1 .. alpha^(2t): the product of the distinct
//   minimal polynomials, found through the cyclotomic cosets of 1 .. 2t modulo 2^m - 1.
//   parity_bits = deg g (m*t when every coset has m members, as for the line code).
// - Systematic encoding: c(x) = x^r d(x) + (x^r d(x) mod g(x)), r = deg g. Code bit i is the
//   coefficient of x^i: bits [0, r) are the parity, bits [r, r + k) the data (data bit j at
//   code bit r + j). The code is shortened: positions r + k .. 2^m - 2 are always zero.
// - Decoding: syndromes S_j = c(alpha^j), j = 1..2t (S_2j = S_j^2 for a binary code), the
//   error locator Lambda(x) by Berlekamp-Massey, its roots by a Chien search over the n
//   positions of the shortened code (an error at position i makes alpha^-i a root), and the
//   bits at the roots flipped.
//
// Outcome: clean (all syndromes zero), corrected (with the number of bits flipped), or
// uncorrectable: the locator's degree is above t, or it has fewer roots among the n positions
// than its degree (repeated roots, roots outside the field, or roots outside the shortened
// length). An uncorrectable word is left exactly as read. Past t errors the decoder can also
// miscorrect to another codeword, like any bounded-distance decoder.
//
// Bit vectors are packed little-endian in 64-bit words: bit i is (v[i / 64] >> (i % 64)) & 1.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace flint::model {

using BchBits = std::vector<uint64_t>;

enum class BchStatus : uint8_t { kClean = 0, kCorrected = 1, kUncorrectable = 2 };

struct BchResult {
  BchStatus status = BchStatus::kClean;
  unsigned corrected_bits = 0;      // bits flipped (kCorrected only)
  std::vector<uint32_t> positions;  // code bits flipped, ascending (kCorrected only)
};

class BchCode {
 public:
  // Throws std::invalid_argument unless 3 <= m <= 16, t >= 1, data_bits >= 1, 2t < 2^m - 1,
  // and data_bits + deg g <= 2^m - 1.
  BchCode(unsigned m, unsigned t, unsigned data_bits);

  unsigned m() const { return m_; }
  unsigned t() const { return t_; }
  unsigned data_bits() const { return k_; }
  unsigned parity_bits() const { return r_; }
  unsigned code_bits() const { return n_; }
  uint32_t field_order() const { return field_n_ + 1; }  // 2^m
  uint32_t primitive_poly() const { return prim_; }      // bit i = coefficient of x^i

  // Coefficients g_0 .. g_r of the generator polynomial (each 0 or 1).
  const std::vector<uint8_t>& generator() const { return gen_; }

  // GF(2^m) arithmetic (elements as m-bit vectors in the polynomial basis).
  uint32_t Exp(uint32_t i) const { return exp_[i % field_n_]; }  // alpha^i
  uint32_t Log(uint32_t a) const { return log_[a]; }             // a != 0
  uint32_t Mul(uint32_t a, uint32_t b) const;
  uint32_t Inv(uint32_t a) const;  // a != 0

  // Parity (parity_bits bits) of data (data_bits bits).
  BchBits Parity(const BchBits& data) const;
  // The codeword (code_bits bits): parity at [0, r), data at [r, n).
  BchBits Encode(const BchBits& data) const;
  // The data bits of a codeword.
  BchBits Data(const BchBits& code) const;

  // S_1 .. S_2t of a received word (code_bits bits); index 0 is unused (0). All zero for a
  // codeword.
  std::vector<uint32_t> Syndromes(const BchBits& code) const;

  // The error locator of the syndromes s (S_1 .. S_2t as Syndromes() gives them): Lambda's
  // coefficients in *lambda (Lambda_0 = 1; 2t + 2 entries) and the LFSR length L it returns, as
  // Decode() finds them. Exposed for the RTL's Berlekamp-Massey unit (tb/ecc/bch_dec_test.cpp).
  unsigned ErrorLocator(const std::vector<uint32_t>& s, std::vector<uint32_t>* lambda) const {
    return BerlekampMassey(s, lambda);
  }

  // Decode a received word in place (code_bits bits): corrected on kCorrected, untouched
  // otherwise. Throws std::invalid_argument for a vector of the wrong size.
  BchResult Decode(BchBits* code) const;

 private:
  void BuildField();
  void BuildGenerator();
  // Lambda by Berlekamp-Massey from S_1..S_2t; returns its degree L (coefficients in *lambda).
  unsigned BerlekampMassey(const std::vector<uint32_t>& s, std::vector<uint32_t>* lambda) const;

  unsigned m_, t_, k_, r_ = 0, n_ = 0;
  uint32_t field_n_;  // 2^m - 1
  uint32_t prim_;
  std::vector<uint32_t> exp_;  // 2 * field_n_ entries: exp_[i] = alpha^i
  std::vector<uint32_t> log_;  // log_[0] unused
  std::vector<uint8_t> gen_;
};

// Words needed for a bit vector of `bits` bits.
inline size_t BchWords(size_t bits) { return (bits + 63) / 64; }
inline bool BchBit(const BchBits& v, size_t i) { return ((v[i / 64] >> (i % 64)) & 1u) != 0; }
inline void BchFlip(BchBits* v, size_t i) { (*v)[i / 64] ^= uint64_t{1} << (i % 64); }

// The code of the 128 B line (docs/ecc.md): GF(2^11), t = 11, 1024 data bits, 121 parity bits
// (in the line's 16 spare bytes, 7 bits unused).
inline constexpr unsigned kLineBchM = 11;
inline constexpr unsigned kLineBchT = 11;
inline constexpr unsigned kLineBchDataBits = 1024;

}  // namespace flint::model
