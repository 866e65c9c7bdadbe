// flint_ecc_cl_enc / flint_ecc_cl_dec (a whole cache line per cycle) at the small, medium and
// paper line sizes, against the C++ model.
#include <catch2/catch.hpp>
#include <algorithm>
#include <random>

#include "Vecc_cl_medium.h"
#include "Vecc_cl_paper.h"
#include "Vecc_cl_small.h"
#include "flint_config.hpp"
#include "model/ecc/secded.hpp"
#include "model/nand/page_content.hpp"
#include "tb/common/harness.hpp"
#include "tb/ecc/ecc_tb.hpp"

namespace {

using flint::Status;
using flint::tb::Harness;
namespace m = flint::model;
namespace e = flint::tb::ecc;

Status ToStatus(unsigned raw) {
  REQUIRE(raw <= static_cast<unsigned>(Status::kUncorrectable));
  return static_cast<Status>(raw);
}

struct LineOut {
  std::vector<uint8_t> enc_check;  // encoder: check bytes of the driven data
  std::vector<uint8_t> data;       // decoder outputs
  Status status;
  uint64_t corrected;
  uint64_t uncorrectable;
};

// One line through the wrapper (encoder and decoder side by side).
template <class Dut>
LineOut Apply(Harness<Dut>& h, size_t cl_bytes, const std::vector<uint8_t>& main,
              const std::vector<uint8_t>& check) {
  auto& d = h.dut();
  // The RTL's line width must be the config's: a port of another size would be half-driven.
  REQUIRE(sizeof(d.data_i) == cl_bytes);
  e::PutBytes(d.data_i, main);
  e::PutBytes(d.check_i, check);
  h.Eval();
  LineOut out{e::GetBytes(d.enc_check_o, cl_bytes / 8), e::GetBytes(d.dec_data_o, cl_bytes),
              ToStatus(d.dec_status_o), static_cast<uint64_t>(d.dec_word_corrected_o),
              static_cast<uint64_t>(d.dec_word_uncorrectable_o)};
  h.Tick();
  return out;
}

// Compare every output with the model's decode of the same read.
void RequireMatchesModel(const LineOut& rtl, const std::vector<uint8_t>& main,
                         const std::vector<uint8_t>& check) {
  const size_t words = main.size() / 8;
  REQUIRE(rtl.enc_check == m::CheckBytes(main.data(), main.size()));
  const m::DecodedBlock want = m::DecodeBlock(main.data(), main.size(), check.data());
  REQUIRE(flint::ToString(rtl.status) == flint::ToString(want.status));
  for (size_t w = 0; w < words; ++w) {
    INFO("word " << w);
    REQUIRE(((rtl.corrected >> w) & 1u) == (want.word_status[w] == Status::kCorrected));
    REQUIRE(((rtl.uncorrectable >> w) & 1u) == (want.word_status[w] == Status::kUncorrectable));
    REQUIRE(m::LoadWord(rtl.data.data(), w) == m::LoadWord(want.data.data(), w));
  }
}

std::vector<uint8_t> CheckOf(const std::vector<uint8_t>& main) {
  return m::CheckBytes(main.data(), main.size());
}

template <class Dut>
void CleanLines(const flint::Config& cfg, uint32_t seed) {
  INFO("config " << cfg.name);
  std::mt19937_64 rng(seed);
  Harness<Dut> h(seed, "ecc_cl");
  h.Reset();
  for (int i = 0; i < 500; ++i) {
    std::vector<uint8_t> main = e::RandomBytes(rng, cfg.cl_bytes);
    if (i == 0) std::fill(main.begin(), main.end(), 0x00);
    if (i == 1) std::fill(main.begin(), main.end(), 0xFF);
    const std::vector<uint8_t> check = CheckOf(main);
    const LineOut out = Apply(h, cfg.cl_bytes, main, check);
    REQUIRE(out.enc_check == check);
    REQUIRE(out.status == Status::kOk);
    REQUIRE(out.data == main);
    REQUIRE(out.corrected == 0);
    REQUIRE(out.uncorrectable == 0);
  }
  REQUIRE_FALSE(h.Failed());
}

// Each code bit of the line in turn, then one error in every word at once.
template <class Dut>
void SingleErrors(const flint::Config& cfg, uint32_t seed) {
  INFO("config " << cfg.name);
  std::mt19937_64 rng(seed);
  Harness<Dut> h(seed, "ecc_cl");
  h.Reset();
  const size_t words = cfg.cl_bytes / 8;
  const std::vector<uint8_t> main = e::RandomBytes(rng, cfg.cl_bytes);
  const std::vector<uint8_t> check = CheckOf(main);
  for (size_t w = 0; w < words; ++w) {
    for (unsigned b = 0; b < m::kSecdedCodeBits; ++b) {
      INFO("word " << w << " code bit " << b);
      std::vector<uint8_t> bad_main = main, bad_check = check;
      e::FlipCodeBit(bad_main, bad_check, w, b);
      const LineOut out = Apply(h, cfg.cl_bytes, bad_main, bad_check);
      REQUIRE(out.status == Status::kCorrected);
      REQUIRE(out.data == main);
      REQUIRE(out.corrected == (uint64_t{1} << w));
      REQUIRE(out.uncorrectable == 0);
      RequireMatchesModel(out, bad_main, bad_check);
    }
  }
  for (int round = 0; round < 50; ++round) {
    std::vector<uint8_t> bad_main = main, bad_check = check;
    for (size_t w = 0; w < words; ++w) {
      e::FlipCodeBit(bad_main, bad_check, w, e::RandomCodeBits(rng, 1)[0]);
    }
    const LineOut out = Apply(h, cfg.cl_bytes, bad_main, bad_check);
    REQUIRE(out.status == Status::kCorrected);
    REQUIRE(out.data == main);
    REQUIRE(out.corrected == (words == 64 ? ~uint64_t{0} : (uint64_t{1} << words) - 1));
  }
  REQUIRE_FALSE(h.Failed());
}

// A double error in any one word makes the line UNCORRECTABLE whatever the other words hold;
// that word comes back as read, the others corrected.
template <class Dut>
void DetectedWordPoisonsLine(const flint::Config& cfg, uint32_t seed) {
  INFO("config " << cfg.name);
  std::mt19937_64 rng(seed);
  Harness<Dut> h(seed, "ecc_cl");
  h.Reset();
  const size_t words = cfg.cl_bytes / 8;
  for (int round = 0; round < 20; ++round) {
    const std::vector<uint8_t> main = e::RandomBytes(rng, cfg.cl_bytes);
    const std::vector<uint8_t> check = CheckOf(main);
    for (size_t bad = 0; bad < words; ++bad) {
      INFO("round " << round << " double error in word " << bad);
      std::vector<uint8_t> rd_main = main, rd_check = check;
      for (unsigned b : e::RandomCodeBits(rng, 2)) e::FlipCodeBit(rd_main, rd_check, bad, b);
      const std::vector<uint8_t> as_read = rd_main;
      // Other words: clean or a single error (correctable), at random.
      for (size_t w = 0; w < words; ++w) {
        if (w != bad && (rng() & 1)) {
          e::FlipCodeBit(rd_main, rd_check, w, e::RandomCodeBits(rng, 1)[0]);
        }
      }
      const LineOut out = Apply(h, cfg.cl_bytes, rd_main, rd_check);
      REQUIRE(out.status == Status::kUncorrectable);
      REQUIRE(out.uncorrectable == (uint64_t{1} << bad));
      for (size_t w = 0; w < words; ++w) {
        const uint64_t want = m::LoadWord((w == bad ? as_read : main).data(), w);
        REQUIRE(m::LoadWord(out.data.data(), w) == want);
      }
      RequireMatchesModel(out, rd_main, rd_check);
    }
  }
  REQUIRE_FALSE(h.Failed());
}

// Random patterns: each word clean or with 1..4 errors. Every output against the model, and a
// model-free rule: a line with any word holding 1..3 errors (never a zero syndrome at distance
// 4) must not be reported OK.
template <class Dut>
void RandomPatterns(const flint::Config& cfg, uint32_t seed, int lines) {
  INFO("config " << cfg.name);
  std::mt19937_64 rng(seed);
  Harness<Dut> h(seed, "ecc_cl");
  h.Reset();
  const size_t words = cfg.cl_bytes / 8;
  std::discrete_distribution<unsigned> errors_d({80, 10, 5, 4, 1});
  unsigned by_status[3] = {0, 0, 0};
  for (int i = 0; i < lines; ++i) {
    INFO("line " << i);
    const std::vector<uint8_t> main = e::RandomBytes(rng, cfg.cl_bytes);
    std::vector<uint8_t> rd_main = main, rd_check = CheckOf(main);
    bool any_visible = false;
    for (size_t w = 0; w < words; ++w) {
      const unsigned errors = errors_d(rng);
      if (errors >= 1 && errors <= 3) any_visible = true;
      for (unsigned b : e::RandomCodeBits(rng, errors)) e::FlipCodeBit(rd_main, rd_check, w, b);
    }
    const LineOut out = Apply(h, cfg.cl_bytes, rd_main, rd_check);
    RequireMatchesModel(out, rd_main, rd_check);
    if (any_visible) REQUIRE(out.status != Status::kOk);
    ++by_status[static_cast<unsigned>(out.status)];
  }
  REQUIRE(by_status[0] > 0);
  REQUIRE(by_status[1] > 0);
  REQUIRE(by_status[2] > 0);
  REQUIRE_FALSE(h.Failed());
}

// Pages encoded into the NAND page image (codeword w = data word w + its check byte, the
// encoder as the die's spare function) and read back line by line
// through the RTL decoder with random bit errors at a raw bit error rate: every line whose
// words hold at most one error each returns the written data exactly; a line with a word at
// two errors is UNCORRECTABLE; nothing beyond the limit is returned as OK.
template <class Dut>
void PagesThroughImage(const flint::Config& cfg, uint32_t seed, double rber, int pages,
                           unsigned* lines_beyond) {
  INFO("config " << cfg.name << " rber " << rber);
  std::mt19937_64 rng(seed);
  Harness<Dut> h(seed, "ecc_cl");
  h.Reset();
  std::bernoulli_distribution flip(rber);
  const size_t words_per_line = cfg.cl_bytes / 8;
  for (int pg = 0; pg < pages; ++pg) {
    const std::vector<uint8_t> main = e::RandomBytes(rng, cfg.page_bytes);
    // Errors anywhere in the stored image: data and check bytes alike.
    std::vector<uint8_t> rd_image = m::ImageFromData(main, m::SecdedEncode);
    std::vector<unsigned> errors(cfg.page_bytes / 8, 0);
    for (size_t w = 0; w < errors.size(); ++w) {
      for (unsigned b = 0; b < m::kSecdedCodeBits; ++b) {
        if (!flip(rng)) continue;
        ++errors[w];
        rd_image[w * m::kCodewordBytes + b / 8] ^= static_cast<uint8_t>(1u << (b % 8));
      }
    }
    for (size_t line = 0; line < cfg.cl_per_page; ++line) {
      INFO("page " << pg << " line " << line);
      const size_t off = line * cfg.cl_bytes;
      const auto slice = rd_image.begin() + m::ImageOffsetOfLine(cfg, line);
      const std::vector<uint8_t> line_image(slice, slice + cfg.cl_image_bytes);
      const std::vector<uint8_t> line_main = m::DataOfImage(line_image);
      const std::vector<uint8_t> line_check = m::ChecksOfImage(line_image);
      const LineOut out = Apply(h, cfg.cl_bytes, line_main, line_check);
      RequireMatchesModel(out, line_main, line_check);
      // What the reference says from the injected error counts alone.
      unsigned max_err = 0, total = 0;
      for (size_t w = 0; w < words_per_line; ++w) {
        max_err = std::max(max_err, errors[line * words_per_line + w]);
        total += errors[line * words_per_line + w];
      }
      const std::vector<uint8_t> written(main.begin() + off, main.begin() + off + cfg.cl_bytes);
      if (max_err <= 1) {
        REQUIRE(out.data == written);
        REQUIRE(out.status == (total == 0 ? Status::kOk : Status::kCorrected));
      } else {
        ++*lines_beyond;
        REQUIRE(out.status != Status::kOk);
        if (max_err == 2) {
          bool only_doubles_or_less = true;
          for (size_t w = 0; w < words_per_line; ++w) {
            only_doubles_or_less &= errors[line * words_per_line + w] <= 2;
          }
          if (only_doubles_or_less) REQUIRE(out.status == Status::kUncorrectable);
        }
      }
    }
  }
  REQUIRE_FALSE(h.Failed());
}

}  // namespace

TEST_CASE("ecc_cl: clean lines encode as the model and decode OK at small medium and paper",
          "[ecc][ecc_cl][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  CleanLines<Vecc_cl_small>(flint::kSmallConfig, seed);
  CleanLines<Vecc_cl_medium>(flint::kMediumConfig, seed);
  CleanLines<Vecc_cl_paper>(flint::kPaperConfig, seed);
}

TEST_CASE("ecc_cl: every single-bit error of a line is corrected at small medium and paper",
          "[ecc][ecc_cl][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  SingleErrors<Vecc_cl_small>(flint::kSmallConfig, seed);
  SingleErrors<Vecc_cl_medium>(flint::kMediumConfig, seed);
  SingleErrors<Vecc_cl_paper>(flint::kPaperConfig, seed);
}

TEST_CASE("ecc_cl: a detected error in any word makes the line UNCORRECTABLE",
          "[ecc][ecc_cl][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  DetectedWordPoisonsLine<Vecc_cl_small>(flint::kSmallConfig, seed);
  DetectedWordPoisonsLine<Vecc_cl_medium>(flint::kMediumConfig, seed);
  DetectedWordPoisonsLine<Vecc_cl_paper>(flint::kPaperConfig, seed);
}

TEST_CASE("ecc_cl: random error patterns match the model on every output",
          "[ecc][ecc_cl][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  RandomPatterns<Vecc_cl_small>(flint::kSmallConfig, seed, 4000);
  RandomPatterns<Vecc_cl_medium>(flint::kMediumConfig, seed, 3000);
  RandomPatterns<Vecc_cl_paper>(flint::kPaperConfig, seed, 2000);
}

TEST_CASE("ecc_cl: NAND page images with random bit errors read back line by line",
          "[ecc][ecc_cl][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  unsigned beyond = 0;
  // Low RBER: almost all lines clean or corrected. High RBER: many lines past the limit.
  PagesThroughImage<Vecc_cl_small>(flint::kSmallConfig, seed, 1e-3, 200, &beyond);
  PagesThroughImage<Vecc_cl_paper>(flint::kPaperConfig, seed, 2e-4, 20, &beyond);
  PagesThroughImage<Vecc_cl_paper>(flint::kPaperConfig, seed + 1, 5e-3, 10, &beyond);
  PagesThroughImage<Vecc_cl_medium>(flint::kMediumConfig, seed, 2e-3, 40, &beyond);
  REQUIRE(beyond > 10);  // the beyond-the-limit branch was exercised
}
