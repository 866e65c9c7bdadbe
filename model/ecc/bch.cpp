#include "model/ecc/bch.hpp"

#include <stdexcept>
#include <string>

namespace flint::model {

namespace {

void Require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("bch: " + what);
}

// A primitive polynomial of degree m (bit i = coefficient of x^i), for m = 3..16: low-weight
// entries of the usual published tables. The field construction checks that each is primitive
// (alpha = x must have order 2^m - 1), so a wrong entry cannot pass unseen.
uint32_t PrimitivePoly(unsigned m) {
  static const uint32_t kPolys[17] = {
      0,        // m = 0 (not offered)
      0,        // m = 1 (not offered)
      0,        // m = 2 (not offered)
      0xB,      // x^3 + x + 1
      0x13,     // x^4 + x + 1
      0x25,     // x^5 + x^2 + 1
      0x43,     // x^6 + x + 1
      0x89,     // x^7 + x^3 + 1
      0x11D,    // x^8 + x^4 + x^3 + x^2 + 1
      0x211,    // x^9 + x^4 + 1
      0x409,    // x^10 + x^3 + 1
      0x805,    // x^11 + x^2 + 1
      0x1053,   // x^12 + x^6 + x^4 + x + 1
      0x201B,   // x^13 + x^4 + x^3 + x + 1
      0x4443,   // x^14 + x^10 + x^6 + x + 1
      0x8003,   // x^15 + x + 1
      0x1100B,  // x^16 + x^12 + x^3 + x + 1
  };
  return kPolys[m];
}

}  // namespace

BchCode::BchCode(unsigned m, unsigned t, unsigned data_bits) : m_(m), t_(t), k_(data_bits) {
  Require(m >= 3 && m <= 16, "m must be in 3..16");
  Require(t >= 1, "t must be >= 1");
  Require(data_bits >= 1, "data_bits must be >= 1");
  field_n_ = (uint32_t{1} << m) - 1;
  Require(2 * t < field_n_, "2t must be below 2^m - 1");
  prim_ = PrimitivePoly(m);
  BuildField();
  BuildGenerator();
  n_ = k_ + r_;
  Require(n_ <= field_n_, "data_bits + parity_bits (" + std::to_string(n_) +
                              ") exceeds the field's length 2^m - 1 (" + std::to_string(field_n_) +
                              ")");
}

void BchCode::BuildField() {
  exp_.assign(2 * static_cast<size_t>(field_n_), 0);
  log_.assign(static_cast<size_t>(field_n_) + 1, 0);
  std::vector<uint8_t> seen(static_cast<size_t>(field_n_) + 1, 0);
  uint32_t x = 1;
  for (uint32_t i = 0; i < field_n_; ++i) {
    if (seen[x] != 0) {
      throw std::logic_error("bch: polynomial for m=" + std::to_string(m_) + " is not primitive");
    }
    seen[x] = 1;
    exp_[i] = x;
    log_[x] = i;
    x <<= 1;
    if (x & (uint32_t{1} << m_)) x ^= prim_;
  }
  if (x != 1) throw std::logic_error("bch: alpha^(2^m-1) != 1");
  for (uint32_t i = field_n_; i < 2 * field_n_; ++i) exp_[i] = exp_[i - field_n_];
}

uint32_t BchCode::Mul(uint32_t a, uint32_t b) const {
  if (a == 0 || b == 0) return 0;
  return exp_[log_[a] + log_[b]];
}

uint32_t BchCode::Inv(uint32_t a) const {
  if (a == 0) throw std::domain_error("bch: inverse of 0");
  return exp_[(field_n_ - log_[a]) % field_n_];
}

void BchCode::BuildGenerator() {
  // Each minimal polynomial once: the roots of the minimal polynomial of alpha^i are alpha^c
  // for c in the cyclotomic coset {i, 2i, 4i, ...} mod 2^m - 1.
  std::vector<uint8_t> covered(field_n_, 0);
  gen_.assign(1, 1);
  for (uint32_t i = 1; i <= 2 * t_; ++i) {
    if (covered[i]) continue;
    std::vector<uint32_t> min_poly(1, 1);  // GF(2^m) coefficients, ascending powers
    uint32_t c = i;
    do {
      covered[c] = 1;
      // min_poly *= (x + alpha^c)
      const uint32_t root = exp_[c];
      std::vector<uint32_t> next(min_poly.size() + 1, 0);
      for (size_t j = 0; j < min_poly.size(); ++j) {
        next[j + 1] ^= min_poly[j];
        next[j] ^= Mul(min_poly[j], root);
      }
      min_poly.swap(next);
      c = static_cast<uint32_t>((2 * static_cast<uint64_t>(c)) % field_n_);
    } while (c != i);
    // A minimal polynomial has binary coefficients; multiply it into g over GF(2).
    std::vector<uint8_t> product(gen_.size() + min_poly.size() - 1, 0);
    for (size_t j = 0; j < min_poly.size(); ++j) {
      if (min_poly[j] > 1) throw std::logic_error("bch: minimal polynomial not binary");
      if (min_poly[j] == 0) continue;
      for (size_t a = 0; a < gen_.size(); ++a) product[a + j] ^= gen_[a];
    }
    gen_.swap(product);
  }
  r_ = static_cast<unsigned>(gen_.size() - 1);
}

BchBits BchCode::Parity(const BchBits& data) const {
  Require(data.size() == BchWords(k_), "data must be " + std::to_string(k_) + " bits");
  // Remainder of x^r d(x) by g(x), the usual LFSR: feed the data from its highest power.
  const size_t words = BchWords(r_);
  BchBits g_low(words, 0);  // g_0 .. g_(r-1)
  for (unsigned i = 0; i < r_; ++i) {
    if (gen_[i]) BchFlip(&g_low, i);
  }
  const size_t top_word = (r_ - 1) / 64;
  const unsigned top_bit = (r_ - 1) % 64;
  const uint64_t top_mask = top_bit == 63 ? ~uint64_t{0} : (uint64_t{1} << (top_bit + 1)) - 1;
  BchBits reg(words, 0);
  for (unsigned j = k_; j-- > 0;) {
    const bool feedback = BchBit(data, j) != (((reg[top_word] >> top_bit) & 1u) != 0);
    for (size_t w = words - 1; w > 0; --w) reg[w] = (reg[w] << 1) | (reg[w - 1] >> 63);
    reg[0] <<= 1;
    reg[top_word] &= top_mask;
    if (feedback) {
      for (size_t w = 0; w < words; ++w) reg[w] ^= g_low[w];
    }
  }
  return reg;
}

BchBits BchCode::Encode(const BchBits& data) const {
  const BchBits parity = Parity(data);
  BchBits code(BchWords(n_), 0);
  for (unsigned i = 0; i < r_; ++i) {
    if (BchBit(parity, i)) BchFlip(&code, i);
  }
  for (unsigned j = 0; j < k_; ++j) {
    if (BchBit(data, j)) BchFlip(&code, r_ + j);
  }
  return code;
}

BchBits BchCode::Data(const BchBits& code) const {
  Require(code.size() == BchWords(n_), "codeword must be " + std::to_string(n_) + " bits");
  BchBits data(BchWords(k_), 0);
  for (unsigned j = 0; j < k_; ++j) {
    if (BchBit(code, r_ + j)) BchFlip(&data, j);
  }
  return data;
}

std::vector<uint32_t> BchCode::Syndromes(const BchBits& code) const {
  Require(code.size() == BchWords(n_), "codeword must be " + std::to_string(n_) + " bits");
  std::vector<uint32_t> s(2 * t_ + 1, 0);
  // Odd syndromes directly: S_j = sum over set bits i of alpha^(i j).
  for (size_t w = 0; w < code.size(); ++w) {
    uint64_t bits = code[w];
    while (bits != 0) {
      const auto i = static_cast<uint32_t>(w * 64 + static_cast<unsigned>(__builtin_ctzll(bits)));
      bits &= bits - 1;
      if (i >= n_) break;  // bits past the shortened length are not part of the word
      uint32_t e = i;      // i * j mod (2^m - 1), for j = 1, 3, 5, ...
      const uint32_t step = (2 * i) % field_n_;
      for (unsigned j = 1; j < 2 * t_; j += 2) {
        s[j] ^= exp_[e];
        e += step;
        if (e >= field_n_) e -= field_n_;
      }
    }
  }
  // Even syndromes of a binary word: S_2j = S_j^2.
  for (unsigned j = 2; j <= 2 * t_; j += 2) s[j] = Mul(s[j / 2], s[j / 2]);
  return s;
}

unsigned BchCode::BerlekampMassey(const std::vector<uint32_t>& s,
                                  std::vector<uint32_t>* lambda) const {
  const size_t len = 2 * t_ + 2;
  std::vector<uint32_t> c(len, 0), b(len, 0), saved;
  c[0] = b[0] = 1;
  unsigned l = 0;
  unsigned shift = 1;   // power of x the correction polynomial is shifted by
  uint32_t b_disc = 1;  // discrepancy when b was last saved
  for (unsigned step = 0; step < 2 * t_; ++step) {
    uint32_t d = s[step + 1];
    for (unsigned i = 1; i <= l; ++i) d ^= Mul(c[i], s[step + 1 - i]);
    if (d == 0) {
      ++shift;
      continue;
    }
    const uint32_t coef = Mul(d, Inv(b_disc));
    const bool grow = 2 * l <= step;
    if (grow) saved = c;
    for (size_t i = 0; i + shift < len; ++i) c[i + shift] ^= Mul(coef, b[i]);
    if (grow) {
      l = step + 1 - l;
      b.swap(saved);
      b_disc = d;
      shift = 1;
    } else {
      ++shift;
    }
  }
  lambda->swap(c);
  return l;
}

BchResult BchCode::Decode(BchBits* code) const {
  Require(code->size() == BchWords(n_), "codeword must be " + std::to_string(n_) + " bits");
  BchResult result;
  const std::vector<uint32_t> s = Syndromes(*code);
  bool clean = true;
  for (unsigned j = 1; j <= 2 * t_; ++j) clean = clean && s[j] == 0;
  if (clean) return result;

  result.status = BchStatus::kUncorrectable;
  std::vector<uint32_t> lambda;
  const unsigned l = BerlekampMassey(s, &lambda);
  unsigned degree = 0;
  for (unsigned i = 0; i < lambda.size(); ++i) {
    if (lambda[i] != 0) degree = i;
  }
  if (l > t_ || degree != l) return result;

  // Chien search over the shortened code's positions: position i is in error iff
  // Lambda(alpha^-i) = 0. term[j] holds log(Lambda_j) - j*i (mod 2^m - 1).
  std::vector<uint32_t> term_log(l + 1, 0);
  std::vector<uint8_t> present(l + 1, 0);
  for (unsigned j = 0; j <= l; ++j) {
    present[j] = lambda[j] != 0;
    if (present[j]) term_log[j] = log_[lambda[j]];
  }
  std::vector<uint32_t> roots;
  roots.reserve(l);
  for (uint32_t i = 0; i < n_ && roots.size() < l; ++i) {
    uint32_t sum = 0;
    for (unsigned j = 0; j <= l; ++j) {
      if (!present[j]) continue;
      sum ^= exp_[term_log[j]];
      term_log[j] += field_n_ - j;  // times alpha^-j for the next position
      if (term_log[j] >= field_n_) term_log[j] -= field_n_;
    }
    if (sum == 0) roots.push_back(i);
  }
  if (roots.size() != l) return result;  // roots repeated, outside the field or the length

  for (uint32_t pos : roots) BchFlip(code, pos);
  result.status = BchStatus::kCorrected;
  result.corrected_bits = l;
  result.positions = std::move(roots);
  return result;
}

}  // namespace flint::model
