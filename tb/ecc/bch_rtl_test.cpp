// flint_bch_enc / flint_bch_syn (the BCH line code's encoder and syndrome unit, issue #26 item 2)
// in lock-step with model/ecc/bch. The RTL's matrices come from scripts/gen_bch.py and the
// model's code from its own construction: two derivations of the same code.
//
// Each case keeps the first mismatch (what was driven, expected and actual) and asserts once at
// its end; random cases print the seed with the command that replays them with waves.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "Vbch.h"
#include "model/ecc/bch.hpp"
#include "tb/common/harness.hpp"
#include "tb/ecc/bch_tb_util.hpp"

namespace {

namespace m = flint::model;
using flint::tb::Harness;

using flint::tb::BchLineCode;

using flint::tb::GetBch;
using flint::tb::PutBch;

using flint::tb::BchHex;

// The model's odd syndromes packed as the RTL's syn_o: S_(2s+1) at bits [s*m, s*m + m).
m::BchBits OddSyndromes(const m::BchCode& code, const m::BchBits& word) {
  const std::vector<uint32_t> s = code.Syndromes(word);
  m::BchBits packed(m::BchWords(size_t{code.t()} * code.m()), 0);
  for (unsigned k = 0; k < code.t(); ++k) {
    for (unsigned b = 0; b < code.m(); ++b) {
      if ((s[2 * k + 1] >> b) & 1u) m::BchFlip(&packed, k * code.m() + b);
    }
  }
  return packed;
}

bool AllZero(const m::BchBits& v) {
  return std::all_of(v.begin(), v.end(), [](uint64_t w) { return w == 0; });
}

// One line through the wrapper: the encoder gets `data`, the syndrome unit `word`.
struct Out {
  m::BchBits parity;
  m::BchBits syn;
  bool zero;
};

class Bench {
 public:
  explicit Bench(uint32_t seed) : h_(seed, "bch"), code_(BchLineCode()) {
    auto& d = h_.dut();
    // The RTL's widths must be the model's: a port of another size would be half-driven.
    REQUIRE(sizeof(d.data_i) * 8 >= code_.data_bits());
    REQUIRE(sizeof(d.data_i) * 8 < code_.data_bits() + 32);
    REQUIRE(sizeof(d.code_i) * 8 >= code_.code_bits());
    REQUIRE(sizeof(d.code_i) * 8 < code_.code_bits() + 32);
  }

  // `data` to the encoder, `word` to the syndrome unit, in the same evaluation.
  Out Apply(const m::BchBits& data,  // NOLINT(bugprone-easily-swappable-parameters)
            const m::BchBits& word) {
    auto& d = h_.dut();
    PutBch(d.data_i, data);
    PutBch(d.code_i, word);
    h_.Eval();
    Out out{GetBch(d.enc_parity_o, code_.parity_bits()),
            GetBch(d.syn_o, size_t{code_.t()} * code_.m()), d.syn_zero_o != 0};
    h_.Tick();
    return out;
  }

  // The encoder against the model for `data`, and the syndrome unit on the model's codeword
  // {data, parity} in the same evaluation: zero. Records the first mismatch.
  void CheckEncode(const m::BchBits& data, const std::string& what) {
    const m::BchBits want = code_.Parity(data);
    const Out first = Apply(data, Codeword(data, want));
    if (first.parity != want) {
      Fail(what + ": parity " + BchHex(first.parity) + ", model " + BchHex(want) + ", data " +
           BchHex(data));
    }
    if (!AllZero(first.syn) || !first.zero) {
      Fail(what + ": a codeword's syndromes " + BchHex(first.syn) + " zero_o " +
           std::to_string(first.zero));
    }
  }

  // The syndrome unit against the model for `word`; zero_o must be `want_zero`.
  void CheckSyndromes(const m::BchBits& word, bool want_zero, const std::string& what) {
    const m::BchBits want = OddSyndromes(code_, word);
    const Out out = Apply(m::BchBits(m::BchWords(code_.data_bits()), 0), word);
    if (out.syn != want) {
      Fail(what + ": syndromes " + BchHex(out.syn) + ", model " + BchHex(want) + ", word " +
           BchHex(word));
    }
    if (out.zero != want_zero || out.zero != AllZero(want)) {
      Fail(what + ": zero_o " + std::to_string(out.zero) + ", expected " +
           std::to_string(want_zero) +
           " (model's syndromes all zero: " + std::to_string(AllZero(want)) + ")");
    }
  }

  m::BchBits Codeword(const m::BchBits& data, const m::BchBits& parity) const {
    m::BchBits word(m::BchWords(code_.code_bits()), 0);
    for (unsigned i = 0; i < code_.parity_bits(); ++i) {
      if (m::BchBit(parity, i)) m::BchFlip(&word, i);
    }
    for (unsigned j = 0; j < code_.data_bits(); ++j) {
      if (m::BchBit(data, j)) m::BchFlip(&word, code_.parity_bits() + j);
    }
    return word;
  }

  void Fail(const std::string& msg) {
    ++mismatches_;
    if (first_.empty()) first_ = "cycle " + std::to_string(cycle_) + ": " + msg;
  }
  void Next() { ++cycle_; }

  // One assertion a case: no mismatch, no RTL assertion fired.
  void Finish() {
    INFO("mismatches: " << mismatches_ << "; first: " << first_);
    CHECK(mismatches_ == 0);
    REQUIRE_FALSE(h_.Failed());
  }

  const m::BchCode& code() const { return code_; }

 private:
  Harness<Vbch> h_;
  const m::BchCode& code_;
  std::string first_;
  uint64_t mismatches_ = 0;
  uint64_t cycle_ = 0;
};

m::BchBits RandomData(std::mt19937_64& rng, unsigned bits) {
  m::BchBits v(m::BchWords(bits), 0);
  for (auto& w : v) w = rng();
  if (bits % 64 != 0) v.back() &= (uint64_t{1} << (bits % 64)) - 1;
  return v;
}

}  // namespace

TEST_CASE("bch_rtl: the encoder's parity equals the model's for zero data and every data bit",
          "[ecc][bch_rtl][directed]") {
  Bench b(1);
  const unsigned k = b.code().data_bits();
  m::BchBits data(m::BchWords(k), 0);
  b.CheckEncode(data, "zero data");
  for (unsigned j = 0; j < k; ++j, b.Next()) {
    m::BchBits unit(m::BchWords(k), 0);
    m::BchFlip(&unit, j);
    b.CheckEncode(unit, "data bit " + std::to_string(j));
  }
  b.Finish();
}

TEST_CASE("bch_rtl: the syndromes of every single-bit error equal the model's",
          "[ecc][bch_rtl][directed]") {
  Bench b(1);
  const unsigned n = b.code().code_bits();
  b.CheckSyndromes(m::BchBits(m::BchWords(n), 0), true, "zero codeword");
  for (unsigned i = 0; i < n; ++i, b.Next()) {
    m::BchBits word(m::BchWords(n), 0);
    m::BchFlip(&word, i);
    b.CheckSyndromes(word, false, "error at code bit " + std::to_string(i));
  }
  b.Finish();
}

TEST_CASE("bch_rtl: random lines encode as the model", "[ecc][bch_rtl][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Bench b(seed);
  std::mt19937_64 rng(seed);
  for (int line = 0; line < 4000; ++line, b.Next()) {
    b.CheckEncode(RandomData(rng, b.code().data_bits()), "line " + std::to_string(line));
  }
  b.Finish();
}

TEST_CASE("bch_rtl: the syndromes of random error patterns of weight 0 to 2t+1 equal the model's",
          "[ecc][bch_rtl][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Bench b(seed);
  const m::BchCode& code = b.code();
  std::mt19937_64 rng(seed);
  const unsigned n = code.code_bits();
  const unsigned max_weight = 2 * code.t() + 1;
  std::vector<uint32_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0u);
  std::vector<unsigned> per_weight(max_weight + 1, 0);
  for (int line = 0; line < 6000; ++line, b.Next()) {
    m::BchBits word = code.Encode(RandomData(rng, code.data_bits()));
    const unsigned weight = static_cast<unsigned>(line) % (max_weight + 1);
    // `weight` distinct positions: a partial Fisher-Yates shuffle.
    for (unsigned e = 0; e < weight; ++e) {
      std::uniform_int_distribution<uint32_t> pick(e, n - 1);
      std::swap(positions[e], positions[pick(rng)]);
      m::BchFlip(&word, positions[e]);
    }
    ++per_weight[weight];
    // Up to 2t errors never make another codeword (distance 2t + 1): zero_o iff weight 0. At
    // 2t + 1 the pattern can be a codeword: zero_o must then follow the model's syndromes.
    const bool want_zero = weight <= 2 * code.t() ? weight == 0 : AllZero(OddSyndromes(code, word));
    b.CheckSyndromes(word, want_zero,
                     "line " + std::to_string(line) + ", weight " + std::to_string(weight));
  }
  for (unsigned w = 0; w <= max_weight; ++w) REQUIRE(per_weight[w] > 0);
  b.Finish();
}
