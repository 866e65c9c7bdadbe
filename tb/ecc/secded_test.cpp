// flint_secded_enc / flint_secded_dec (one 64-bit word) against the C++ model: the H matrix,
// exhaustive single and double errors, every triple error measured, random words on every output.
#include <catch2/catch.hpp>
#include <iostream>
#include <random>

#include "Vecc_word.h"
#include "Vecc_word_bug.h"
#include "model/ecc/secded.hpp"
#include "tb/common/harness.hpp"
#include "tb/ecc/ecc_tb.hpp"

namespace {

using flint::Status;
using flint::tb::Harness;
namespace m = flint::model;
namespace e = flint::tb::ecc;

struct WordOut {
  uint8_t enc_check;
  uint64_t data;
  Status status;
  uint8_t syndrome;
};

Status ToStatus(unsigned raw) {
  // Only OK / CORRECTED / UNCORRECTABLE are legal from the ECC; anything else fails loudly.
  REQUIRE(raw <= static_cast<unsigned>(Status::kUncorrectable));
  return static_cast<Status>(raw);
}

// Drive one word, settle, sample, advance the clock (so a waveform shows one vector a cycle).
template <class Dut>
WordOut Apply(Harness<Dut>& h, uint64_t data, uint8_t check) {
  auto& d = h.dut();
  d.data_i = data;
  d.check_i = check;
  h.Eval();
  WordOut out{static_cast<uint8_t>(d.enc_check_o), static_cast<uint64_t>(d.dec_data_o),
              ToStatus(d.dec_status_o), static_cast<uint8_t>(d.dec_syndrome_o)};
  h.Tick();
  return out;
}

// The RTL and the model must agree on every output of a (data, check) read.
void RequireMatchesModel(const WordOut& rtl, uint64_t data, uint8_t check) {
  const m::SecdedWord want = m::SecdedDecode(data, check);
  INFO("data 0x" << std::hex << data << " check 0x" << unsigned{check} << std::dec);
  REQUIRE(rtl.enc_check == m::SecdedEncode(data));
  REQUIRE(rtl.syndrome == want.syndrome);
  REQUIRE(flint::ToString(rtl.status) == flint::ToString(want.status));
  REQUIRE(rtl.data == want.data);
}

std::vector<uint64_t> TestWords(std::mt19937_64& rng, unsigned random_words) {
  std::vector<uint64_t> words = e::CornerWords();
  for (unsigned i = 0; i < random_words; ++i) words.push_back(rng());
  return words;
}

// Flip code bits (0..63 data, 64..71 check) of a codeword.
void Flip(uint64_t& data, uint8_t& check, unsigned bit) {
  if (bit < m::kSecdedDataBits) {
    data ^= uint64_t{1} << bit;
  } else {
    check ^= static_cast<uint8_t>(1u << (bit - m::kSecdedDataBits));
  }
}

}  // namespace

TEST_CASE("secded: RTL H matrix equals the model's Hsiao construction",
          "[ecc][secded][directed]") {
  Harness<Vecc_word> h(1, "ecc_word");
  h.Reset();
  // Encoder on unit vectors: check byte = column of that data bit.
  for (unsigned i = 0; i < m::kSecdedDataBits; ++i) {
    INFO("data bit " << i);
    const WordOut out = Apply(h, uint64_t{1} << i, 0);
    REQUIRE(out.enc_check == m::SecdedColumn(i));
    // The same read seen by the decoder: a single data-bit error against the zero codeword.
    REQUIRE(out.syndrome == m::SecdedColumn(i));
    REQUIRE(out.status == Status::kCorrected);
    REQUIRE(out.data == 0);
  }
  for (unsigned j = 0; j < m::kSecdedCheckBits; ++j) {
    INFO("check bit " << j);
    const WordOut out = Apply(h, 0, static_cast<uint8_t>(1u << j));
    REQUIRE(out.syndrome == (1u << j));
    REQUIRE(out.status == Status::kCorrected);
    REQUIRE(out.data == 0);
  }
  REQUIRE_FALSE(h.Failed());
}

TEST_CASE("secded: clean codewords decode OK and unchanged", "[ecc][secded][directed]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  Harness<Vecc_word> h(seed, "ecc_word");
  h.Reset();
  for (uint64_t w : TestWords(rng, 200)) {
    const uint8_t check = m::SecdedEncode(w);
    const WordOut out = Apply(h, w, check);
    INFO("word 0x" << std::hex << w);
    REQUIRE(out.enc_check == check);
    REQUIRE(out.status == Status::kOk);
    REQUIRE(out.syndrome == 0);
    REQUIRE(out.data == w);
  }
  REQUIRE_FALSE(h.Failed());
}

TEST_CASE("secded: every single-bit error is corrected", "[ecc][secded][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  Harness<Vecc_word> h(seed, "ecc_word");
  h.Reset();
  unsigned checked = 0;
  for (uint64_t w : TestWords(rng, 16)) {
    for (unsigned b = 0; b < m::kSecdedCodeBits; ++b) {
      uint64_t data = w;
      uint8_t check = m::SecdedEncode(w);
      Flip(data, check, b);
      const WordOut out = Apply(h, data, check);
      INFO("word 0x" << std::hex << w << std::dec << " flipped code bit " << b);
      REQUIRE(out.status == Status::kCorrected);
      REQUIRE(out.data == w);
      REQUIRE(out.syndrome == m::SecdedColumn(b));
      RequireMatchesModel(out, data, check);
      REQUIRE(m::SecdedDecode(data, check).corrected_bit == static_cast<int>(b));
      ++checked;
    }
  }
  REQUIRE(checked == (e::CornerWords().size() + 16) * 72);
  REQUIRE_FALSE(h.Failed());
}

TEST_CASE("secded: every double-bit error is detected as uncorrectable",
          "[ecc][secded][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  Harness<Vecc_word> h(seed, "ecc_word");
  h.Reset();
  unsigned pairs = 0;
  for (uint64_t w : TestWords(rng, 4)) {
    pairs = 0;
    for (unsigned a = 0; a < m::kSecdedCodeBits; ++a) {
      for (unsigned b = a + 1; b < m::kSecdedCodeBits; ++b) {
        uint64_t data = w;
        uint8_t check = m::SecdedEncode(w);
        Flip(data, check, a);
        Flip(data, check, b);
        const WordOut out = Apply(h, data, check);
        INFO("word 0x" << std::hex << w << std::dec << " flipped code bits " << a << " " << b);
        REQUIRE(out.status == Status::kUncorrectable);
        REQUIRE(out.data == data);  // passed as read: no bit flipped on a guess
        REQUIRE(out.syndrome != 0);
        REQUIRE(__builtin_popcount(out.syndrome) % 2 == 0);
        RequireMatchesModel(out, data, check);
        ++pairs;
      }
    }
  }
  REQUIRE(pairs == 72 * 71 / 2);
  REQUIRE_FALSE(h.Failed());
}

// SEC-DED guarantees nothing for three errors: the syndrome is odd, so it is either a column
// (the decoder "corrects" the wrong bit: silent corruption) or an unused odd vector (detected).
// The split depends only on H, not on the data: measured exhaustively on two words.
TEST_CASE("secded: triple errors are never reported OK and the detected share is measured",
          "[ecc][secded][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  Harness<Vecc_word> h(seed, "ecc_word");
  h.Reset();
  std::vector<unsigned> detected_per_word;
  unsigned triples = 0;
  for (uint64_t w : {uint64_t{0}, uint64_t{rng()}}) {
    unsigned detected = 0;
    triples = 0;
    for (unsigned a = 0; a < m::kSecdedCodeBits; ++a) {
      for (unsigned b = a + 1; b < m::kSecdedCodeBits; ++b) {
        for (unsigned c = b + 1; c < m::kSecdedCodeBits; ++c) {
          uint64_t data = w;
          uint8_t check = m::SecdedEncode(w);
          Flip(data, check, a);
          Flip(data, check, b);
          Flip(data, check, c);
          const WordOut out = Apply(h, data, check);
          INFO("word 0x" << std::hex << w << std::dec << " bits " << a << " " << b << " " << c);
          REQUIRE(out.status != Status::kOk);  // distance 4: three flips never look clean
          if (out.status == Status::kUncorrectable) {
            ++detected;
            REQUIRE(out.data == data);
          } else {
            REQUIRE(out.data != w);  // a "correction" of a triple is always a miscorrection
          }
          RequireMatchesModel(out, data, check);
          ++triples;
        }
      }
    }
    detected_per_word.push_back(detected);
  }
  REQUIRE(triples == 72 * 71 * 70 / 6);
  REQUIRE(detected_per_word[0] == detected_per_word[1]);  // a property of H alone
  REQUIRE(detected_per_word[0] > 0);
  REQUIRE(detected_per_word[0] < triples);
  std::cout << "secded: triple errors: " << detected_per_word[0] << " of " << triples
            << " detected (" << 100.0 * detected_per_word[0] / triples << " %), "
            << triples - detected_per_word[0] << " miscorrected\n";
  REQUIRE_FALSE(h.Failed());
}

TEST_CASE("secded: random reads match the model on every output", "[ecc][secded][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  Harness<Vecc_word> h(seed, "ecc_word");
  h.Reset();
  std::uniform_int_distribution<unsigned> errors_d(0, 5);
  unsigned seen[3] = {0, 0, 0};
  for (int i = 0; i < 20000; ++i) {
    const uint64_t w = rng();
    uint64_t data = w;
    uint8_t check = m::SecdedEncode(w);
    const unsigned errors = errors_d(rng);
    if (errors == 5) {
      check = static_cast<uint8_t>(rng());  // an arbitrary check byte
    } else {
      for (unsigned b : e::RandomCodeBits(rng, errors)) Flip(data, check, b);
    }
    const WordOut out = Apply(h, data, check);
    INFO("vector " << i << " errors " << errors);
    RequireMatchesModel(out, data, check);
    ++seen[static_cast<unsigned>(out.status)];
  }
  // Every outcome must have been exercised, or the comparison proved little.
  REQUIRE(seen[0] > 1000);
  REQUIRE(seen[1] > 1000);
  REQUIRE(seen[2] > 1000);
  REQUIRE_FALSE(h.Failed());
}

// The decoder's assertions must be live: a build with a deliberately wrong status for check-bit
// errors has to trip them (and disagree with the model).
TEST_CASE("secded: decoder assertions fire on an injected status bug", "[ecc][secded][corner]") {
  Harness<Vecc_word_bug> h(1, "ecc_word");
  h.Reset();
  const uint64_t w = 0x0123456789ABCDEFull;
  const WordOut clean = Apply(h, w, m::SecdedEncode(w));
  REQUIRE(clean.status == Status::kOk);
  REQUIRE_FALSE(h.Failed());
  const uint8_t bad_check = static_cast<uint8_t>(m::SecdedEncode(w) ^ 0x10);
  const WordOut out = Apply(h, w, bad_check);
  REQUIRE(out.status == Status::kOk);  // the injected bug
  REQUIRE(m::SecdedDecode(w, bad_check).status == Status::kCorrected);
  REQUIRE(h.Failed());
}
