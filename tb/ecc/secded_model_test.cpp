// Unit tests of the ECC golden model alone (model/ecc/secded): the Hsiao rule, linearity, the
// data/spare layout and the NAND spare hook, bad sizes, and the probability functions of
// docs/ecc.md against closed forms and a Monte Carlo count.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <set>
#include <stdexcept>

#include "flint_config.hpp"
#include "model/ecc/secded.hpp"
#include "model/nand/page_content.hpp"
#include "tb/common/seed.hpp"
#include "tb/ecc/ecc_tb.hpp"

namespace {

namespace m = flint::model;
using flint::Status;

unsigned Weight(unsigned v) { return static_cast<unsigned>(__builtin_popcount(v)); }

}  // namespace

TEST_CASE("secded model: H follows the Hsiao rule", "[ecc][secded_model][directed]") {
  std::set<unsigned> cols;
  unsigned row_ones[8] = {};
  for (unsigned b = 0; b < m::kSecdedCodeBits; ++b) {
    const unsigned c = m::SecdedColumn(b);
    INFO("code bit " << b);
    REQUIRE(Weight(c) % 2 == 1);  // odd columns: double errors give an even syndrome
    REQUIRE(cols.insert(c).second);  // distinct: single errors are located
    if (b < m::kSecdedDataBits) {
      REQUIRE(Weight(c) >= 3);
      for (unsigned j = 0; j < 8; ++j) row_ones[j] += (c >> j) & 1u;
    } else {
      REQUIRE(c == (1u << (b - m::kSecdedDataBits)));
    }
  }
  for (unsigned j = 0; j < 8; ++j) REQUIRE(row_ones[j] == 26);  // balanced rows
  // The documented order: weight-3 ascending first (0x07 = rows 0..2), weight 5 last.
  REQUIRE(m::SecdedColumn(0) == 0x07);
  REQUIRE(m::SecdedColumn(55) == 0xE0);
  REQUIRE(m::SecdedColumn(56) == 0x1F);
  REQUIRE(m::SecdedColumn(63) == 0x8F);
  REQUIRE_THROWS_AS(m::SecdedColumn(72), std::out_of_range);
}

TEST_CASE("secded model: encoding is linear and decoding inverts it",
          "[ecc][secded_model][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t a = rng(), b = rng();
    REQUIRE(m::SecdedEncode(a ^ b) == (m::SecdedEncode(a) ^ m::SecdedEncode(b)));
    const m::SecdedWord d = m::SecdedDecode(a, m::SecdedEncode(a));
    REQUIRE(d.status == Status::kOk);
    REQUIRE(d.data == a);
    REQUIRE(d.corrected_bit == -1);
  }
  REQUIRE(m::SecdedEncode(0) == 0);
}

TEST_CASE("secded model: status reduction order", "[ecc][secded_model][directed]") {
  REQUIRE(m::ReduceStatus(Status::kOk, Status::kOk) == Status::kOk);
  REQUIRE(m::ReduceStatus(Status::kOk, Status::kCorrected) == Status::kCorrected);
  REQUIRE(m::ReduceStatus(Status::kCorrected, Status::kUncorrectable) == Status::kUncorrectable);
  REQUIRE(m::ReduceStatus(Status::kUncorrectable, Status::kOk) == Status::kUncorrectable);
}

TEST_CASE("secded model: the interleaved page image at every config",
          "[ecc][secded_model][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  for (const flint::Config* cfg : flint::kAllConfigs) {
    INFO("config " << cfg->name);
    // The configs reserve exactly one check byte per 8-byte word.
    REQUIRE(cfg->spare_bytes * 8 == cfg->page_bytes);
    const std::vector<uint8_t> main = flint::tb::ecc::RandomBytes(rng, cfg->page_bytes);
    // The NAND page image under the ECC encoder: codeword w = data word w then its check byte.
    const std::vector<uint8_t> image = m::ImageFromData(main, m::SecdedEncode);
    REQUIRE(image.size() == cfg->page_image_bytes);
    const std::vector<uint8_t> check = m::CheckBytes(main.data(), main.size());
    REQUIRE(check == m::ChecksOfImage(image));
    for (size_t w = 0; w < cfg->page_bytes / 8; ++w) {
      REQUIRE(image[9 * w + 8] == m::SecdedEncode(m::LoadWord(main.data(), w)));
    }
    // Every line of the page decodes clean from its own contiguous image slice.
    REQUIRE(cfg->page_bytes / cfg->cl_bytes == cfg->cl_per_page);
    for (size_t line = 0; line < cfg->cl_per_page; ++line) {
      const uint8_t* slice = image.data() + m::ImageOffsetOfLine(*cfg, line);
      const m::DecodedBlock d = m::DecodeImage(slice, cfg->cl_image_bytes);
      REQUIRE(d.status == Status::kOk);
      REQUIRE(d.word_status.size() == cfg->cl_bytes / 8);
      REQUIRE(std::equal(d.data.begin(), d.data.end(), main.begin() + line * cfg->cl_bytes));
    }
    // A whole page decodes as one slice too.
    REQUIRE(m::DecodeImage(image.data(), image.size()).data == main);
    // A tagged NAND page under the encoder as spare function decodes clean to its data.
    const m::PageTag tag{rng() & 0xFFFFFF, 3, 1};
    const std::vector<uint8_t> tagged = m::ExpectedPageImage(*cfg, tag, m::SecdedEncode);
    std::vector<uint8_t> tag_data(cfg->page_bytes);
    m::TagBytes(tag, 0, tag_data.size(), tag_data.data());
    const m::DecodedBlock page = m::DecodeImage(tagged.data(), tagged.size());
    REQUIRE(page.status == Status::kOk);
    REQUIRE(page.data == tag_data);
  }
}

TEST_CASE("secded model: bad sizes are refused loudly", "[ecc][secded_model][corner]") {
  const std::vector<uint8_t> odd_main(100, 0);  // not a multiple of 8
  REQUIRE_THROWS_AS(m::CheckBytes(odd_main.data(), odd_main.size()), std::invalid_argument);
  const std::vector<uint8_t> main(256, 0);
  REQUIRE_NOTHROW(m::CheckBytes(main.data(), main.size()));
  REQUIRE_THROWS_AS(m::DecodeImage(main.data(), 100), std::invalid_argument);  // not 9k
  REQUIRE_NOTHROW(m::DecodeImage(main.data(), 252));
  REQUIRE_THROWS_AS(m::DecodeBlock(main.data(), 12, main.data()), std::invalid_argument);
  REQUIRE_THROWS_AS(m::BinomialTail(72, 2, -0.1), std::invalid_argument);
  REQUIRE_THROWS_AS(m::BinomialTail(72, 2, std::nan("")), std::invalid_argument);
}

TEST_CASE("secded model: beyond-limit probability matches closed forms",
          "[ecc][secded_model][directed]") {
  for (double p : {1e-3, 1e-2, 0.1}) {
    INFO("p " << p);
    const double closed = 1.0 - std::pow(1 - p, 72) - 72 * p * std::pow(1 - p, 71);
    REQUIRE(m::WordBeyondLimitProbability(p) == Approx(closed).epsilon(1e-9));
  }
  // At small p the leading term C(72,2) p^2 dominates (where the closed form above cancels).
  REQUIRE(m::WordBeyondLimitProbability(1e-9) == Approx(2556e-18).epsilon(1e-6));
  REQUIRE(m::BinomialTail(10, 0, 0.3) == Approx(1.0));
  REQUIRE(m::BinomialTail(10, 11, 0.3) == 0.0);
  // A line of 16 words at 1e-8 per bit: about 16 x 2556e-16.
  REQUIRE(m::BlockBeyondLimitProbability(1e-8, 16) == Approx(16 * 2556e-16).epsilon(1e-6));
}

// Monte Carlo at an RBER high enough to count: the share of words past the limit must match the
// formula, every word within the limit must decode exactly, and no word with exactly two errors
// may come back as good data.
TEST_CASE("secded model: random errors at a raw bit error rate behave as the formula says",
          "[ecc][secded_model][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  const double p = 0.01;
  const int n = 200000;
  std::bernoulli_distribution flip(p);
  int beyond = 0, silent = 0;
  for (int i = 0; i < n; ++i) {
    const uint64_t w = rng();
    uint64_t data = w;
    uint8_t check = m::SecdedEncode(w);
    unsigned errors = 0;
    for (unsigned b = 0; b < m::kSecdedCodeBits; ++b) {
      if (!flip(rng)) continue;
      ++errors;
      if (b < 64) {
        data ^= uint64_t{1} << b;
      } else {
        check ^= static_cast<uint8_t>(1u << (b - 64));
      }
    }
    const m::SecdedWord d = m::SecdedDecode(data, check);
    if (errors <= 1) {
      REQUIRE(d.data == w);
      REQUIRE(d.status == (errors == 0 ? Status::kOk : Status::kCorrected));
    } else {
      ++beyond;
      if (errors == 2) REQUIRE(d.status == Status::kUncorrectable);
      if (d.status != Status::kUncorrectable && d.data != w) ++silent;
    }
  }
  const double q = m::WordBeyondLimitProbability(p);
  const double sigma = std::sqrt(n * q * (1 - q));
  REQUIRE(std::abs(beyond - n * q) < 5 * sigma);
  // Silent corruption needs >= 3 errors: P(>=3) at p = 0.01 is about 3.5 %, and only part of
  // those are miscorrected.
  REQUIRE(silent < 0.05 * n);
}

// DecodeImageInto, the allocation-free decode the stack top's scoreboard runs per line, must be
// DecodeImage exactly: the same data and reduced status on lines with 0 to 3 flips a word.
TEST_CASE("secded model: the allocation-free image decode equals DecodeImage",
          "[ecc][secded_model][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 2000; ++i) {
    const size_t words = 1 + rng() % 40;
    std::vector<uint8_t> data(words * 8);
    for (auto& b : data) b = static_cast<uint8_t>(rng());
    std::vector<uint8_t> image = m::ImageFromData(data, m::SecdedEncode);
    for (size_t w = 0; w < words; ++w) {
      for (uint64_t f = rng() % 4; f > 0; --f) {
        const uint64_t bit = rng() % 72;
        image[w * 9 + bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      }
    }
    const m::DecodedBlock want = m::DecodeImage(image.data(), image.size());
    std::vector<uint8_t> got(words * 8, 0xA5);
    const Status st = m::DecodeImageInto(image.data(), image.size(), got.data());
    REQUIRE(st == want.status);
    REQUIRE(got == want.data);
  }
  std::vector<uint8_t> out(16);
  REQUIRE_THROWS_AS(m::DecodeImageInto(out.data(), 10, out.data()), std::invalid_argument);
}
