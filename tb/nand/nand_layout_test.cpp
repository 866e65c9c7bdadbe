// NAND die model: the interleaved page image (codeword w = data word w + its check byte at image
// bytes [9w, 9w+9)), the parity-carrying I/O rate, the per-word spare hook and the layout
// helpers of page_content.hpp (docs/nand_model.md, "Page image").
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <set>
#include <stdexcept>

#include "model/nand/page_content.hpp"
#include "tb/common/seed.hpp"
#include "tb/nand/nand_test_util.hpp"

namespace {

using namespace flint::tb::nand;  // NOLINT: test-local helpers
using flint::Config;
using flint::kMediumConfig;
using flint::kPaperConfig;
using flint::kSmallConfig;
namespace m = flint::model;

const Config* const kConfigs[] = {&kSmallConfig, &kMediumConfig, &kPaperConfig};

// Sense `page` of (plane, block) into the cache buffer, ready for DataOut at the returned cycle.
uint64_t SenseToCache(NandDie& die, uint32_t plane, uint32_t block, uint32_t page, uint64_t t) {
  t = std::max({t, die.PlaneReadyAt(plane), die.IoBusyUntil()});
  t = die.Read({PlaneBlock{plane, block}}, page, t);
  return die.CacheEnd({plane}, t).cache_ready_at;
}

}  // namespace

TEST_CASE("nand: page image layout puts every data and check byte in one place",
          "[nand][nand_layout][directed]") {
  for (const Config* cfgp : kConfigs) {
    const Config& cfg = *cfgp;
    INFO("config " << cfg.name);
    REQUIRE(cfg.spare_bytes * 8 == cfg.page_bytes);
    REQUIRE(cfg.page_image_bytes == cfg.page_bytes + cfg.spare_bytes);
    REQUIRE(cfg.cl_image_bytes * 8 == cfg.cl_bytes * 9);
    // Every image byte is claimed exactly once: by one data byte or by one word's check byte.
    std::vector<int> owner(cfg.page_image_bytes, 0);
    bool placed = true;
    for (uint64_t i = 0; i < cfg.page_bytes; ++i) {
      const uint64_t off = m::ImageOffsetOfData(i);
      placed &=
          off == 9 * (i / 8) + i % 8 && !m::IsCheckByte(off) && m::WordOfImageByte(off) == i / 8;
      if (off < owner.size()) ++owner[off];
    }
    for (uint64_t w = 0; w < cfg.page_bytes / 8; ++w) {
      const uint64_t off = m::ImageOffsetOfCheck(w);
      placed &= off == 9 * w + 8 && m::IsCheckByte(off) && m::WordOfImageByte(off) == w;
      if (off < owner.size()) ++owner[off];
    }
    CHECK(placed);
    CHECK(std::all_of(owner.begin(), owner.end(), [](int n) { return n == 1; }));
    // Cache line k is one contiguous range: it starts at its first data byte and ends with the
    // check byte of its last word.
    const uint64_t words_per_line = cfg.cl_bytes / 8;
    for (uint64_t k = 0; k < cfg.cl_per_page; ++k) {
      INFO("line " << k);
      CHECK(m::ImageOffsetOfLine(cfg, k) == m::ImageOffsetOfData(k * cfg.cl_bytes));
      CHECK(m::ImageOffsetOfLine(cfg, k) + cfg.cl_image_bytes - 1 ==
            m::ImageOffsetOfCheck((k + 1) * words_per_line - 1));
    }
    CHECK(m::ImageOffsetOfLine(cfg, cfg.cl_per_page) == cfg.page_image_bytes);
  }
}

TEST_CASE("nand: the die I/O rate carries the parity and drains stay exact",
          "[nand][nand_layout][directed]") {
  // The lead's figures (docs/nand_model.md): rate = lanes * cl_bytes / dies * 9/8.
  const struct {
    const Config* cfg;
    uint64_t rate, cl_cycles, drain;
  } want[] = {
      {&kSmallConfig, 36, 1, 32}, {&kMediumConfig, 72, 1, 128}, {&kPaperConfig, 72, 2, 2048}};
  for (const auto& w : want) {
    const Config& cfg = *w.cfg;
    INFO("config " << cfg.name);
    CHECK(cfg.die_io_bytes_per_cycle * 8 == cfg.lanes * cfg.cl_bytes / cfg.dies * 9);
    CHECK(cfg.die_io_bytes_per_cycle == w.rate);
    // One cache line with its parity, and a whole page image, in whole I/O cycles.
    CHECK(cfg.cl_image_bytes % cfg.die_io_bytes_per_cycle == 0);
    CHECK(cfg.cl_image_bytes / cfg.die_io_bytes_per_cycle == w.cl_cycles);
    CHECK(cfg.page_image_bytes % cfg.die_io_bytes_per_cycle == 0);
    CHECK(cfg.drain_cycles == cfg.planes * cfg.page_image_bytes / cfg.die_io_bytes_per_cycle);
    CHECK(cfg.drain_cycles == w.drain);
    CHECK(cfg.burst_period_cycles ==
          std::max(cfg.drain_cycles, cfg.t_read_cycles) + cfg.t_cache_xfer_cycles);
  }
  // The BDP condition of the simulation configs survives the wider images.
  CHECK(kSmallConfig.drain_cycles == kSmallConfig.t_read_cycles);
  CHECK(kMediumConfig.drain_cycles == kMediumConfig.t_read_cycles);
}

TEST_CASE("nand: a programmed data byte and its check byte land where the layout says",
          "[nand][nand_layout][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  for (const Config* cfgp : {&kSmallConfig, &kPaperConfig}) {
    const Config& cfg = *cfgp;
    INFO("config " << cfg.name);
    NandDie die(cfg, 0, seed, QuietOptions());
    die.SetSpareFn(FoldCheck);
    std::vector<uint8_t> data(cfg.page_bytes);
    for (auto& b : data) b = static_cast<uint8_t>(rng());
    // The model's interleaving equals the one built here from the rule, and splits back.
    const std::vector<uint8_t> image = InterleaveRef(data, FoldCheck);
    REQUIRE(image.size() == cfg.page_image_bytes);
    CHECK(m::ImageFromData(data, FoldCheck) == image);
    CHECK(m::DataOfImage(image) == data);
    std::vector<uint8_t> checks;
    for (uint64_t w = 0; w < cfg.page_bytes / 8; ++w) checks.push_back(FoldCheck(WordOf(data, w)));
    CHECK(m::ChecksOfImage(image) == checks);

    const auto r = die.ProgramBytes(PageAddr{1, 2, 0}, data, 0);
    REQUIRE(r.pass);
    uint64_t t = SenseToCache(die, 1, 2, 0, r.done_at);
    // Single bytes read back at the layout's offsets: data byte i, and the check of word w.
    const uint64_t words = cfg.page_bytes / 8;
    if (words == 0) FAIL("config without a whole data word");
    for (int n = 0; n < 64; ++n) {
      const uint64_t i = rng() % cfg.page_bytes;
      const uint64_t w = rng() % words;
      INFO("data byte " << i << " word " << w);
      CHECK(die.DataOutBytes(1, static_cast<uint32_t>(m::ImageOffsetOfData(i)), 1, t) ==
            std::vector<uint8_t>{data[i]});
      t = die.IoBusyUntil();
      CHECK(die.DataOutBytes(1, static_cast<uint32_t>(m::ImageOffsetOfCheck(w)), 1, t) ==
            std::vector<uint8_t>{FoldCheck(WordOf(data, w))});
      t = die.IoBusyUntil();
    }
    CHECK(die.DataOutBytes(1, 0, die.page_image_bytes(), t) == image);
  }
}

TEST_CASE("nand: a cache line data-out returns data and check bytes of exactly its words",
          "[nand][nand_layout][directed]") {
  for (const Config* cfgp : kConfigs) {
    const Config& cfg = *cfgp;
    INFO("config " << cfg.name);
    NandDie die(cfg, 0, 3, QuietOptions());
    die.SetSpareFn(&FoldCheck);  // a plain uint8_t(uint64_t) function, as the ECC encoder is
    const PageTag tag = LoadTag(cfg, 2, 1, 0);
    const auto r = die.ProgramTagged(PageAddr{2, 1, 0}, tag, 0);
    REQUIRE(r.pass);
    uint64_t t = SenseToCache(die, 2, 1, 0, r.done_at);
    std::vector<uint8_t> data(cfg.page_bytes);
    m::TagBytes(tag, 0, data.size(), data.data());
    const auto page_image = Expected(die, tag);
    const uint64_t words_per_line = cfg.cl_bytes / 8;
    const uint64_t cl_cycles = cfg.cl_image_bytes / cfg.die_io_bytes_per_cycle;
    REQUIRE(cl_cycles * cfg.die_io_bytes_per_cycle == cfg.cl_image_bytes);
    for (uint32_t k = 0; k < cfg.cl_per_page; ++k) {
      INFO("line " << k);
      const auto off = static_cast<uint32_t>(m::ImageOffsetOfLine(cfg, k));
      const auto got = die.DataOutBytes(2, off, static_cast<uint32_t>(cfg.cl_image_bytes), t);
      // Exactly cl_image_bytes / rate cycles of the die I/O.
      CHECK(die.IoBusyUntil() - t == cl_cycles);
      t = die.IoBusyUntil();
      REQUIRE(got.size() == cfg.cl_image_bytes);
      // Its data is data bytes [k * cl_bytes, (k+1) * cl_bytes), no more, no less.
      CHECK(m::LineDataFromImage(cfg, got) == Slice(data, k * cfg.cl_bytes, cfg.cl_bytes));
      // Its check bytes are those of its own words, in order.
      std::vector<uint8_t> want_checks;
      for (uint64_t j = 0; j < words_per_line; ++j) {
        want_checks.push_back(FoldCheck(WordOf(data, k * words_per_line + j)));
      }
      CHECK(m::ChecksOfImage(got) == want_checks);
      // And it is the golden model's line image and the matching slice of the page image.
      CHECK(got == m::ExpectedLineImage(cfg, tag, k, FoldCheck));
      CHECK(got == Slice(page_image, off, cfg.cl_image_bytes));
    }
    CHECK(die.counters().out_bytes == cfg.page_image_bytes);
  }
}

TEST_CASE("nand: a whole-image program is stored as given and corruption hits check bytes",
          "[nand][nand_layout][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  die.SetSpareFn(FoldCheck);
  // An image whose check bytes are not the hook's: a program of a whole image keeps them.
  std::vector<uint8_t> data(cfg.page_bytes);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 13 + 1);
  std::vector<uint8_t> image =
      InterleaveRef(data, [](uint64_t w) { return static_cast<uint8_t>(~FoldCheck(w)); });
  const auto r = die.ProgramBytes(PageAddr{0, 3, 0}, image, 0);
  REQUIRE(r.pass);
  // Stored corruption addresses image bits: one in a data byte, one in a check byte.
  const uint64_t data_bit = m::ImageOffsetOfData(20) * 8 + 3;
  const uint64_t check_bit = m::ImageOffsetOfCheck(7) * 8 + 6;
  die.CorruptPage(PageAddr{0, 3, 0},
                  {static_cast<uint32_t>(data_bit), static_cast<uint32_t>(check_bit)});
  uint64_t t = SenseToCache(die, 0, 3, 0, r.done_at);
  const auto got = die.DataOutBytes(0, 0, die.page_image_bytes(), t);
  std::vector<uint8_t> want = image;
  want[data_bit / 8] ^= 1u << 3;
  want[check_bit / 8] ^= 1u << 6;
  CHECK(got == want);
  CHECK(CountBitDiffs(got, image) == 2);
  // The flipped check byte is word 7's, the flipped data byte is data byte 20 (word 2).
  CHECK(m::ChecksOfImage(got)[7] == static_cast<uint8_t>(image[m::ImageOffsetOfCheck(7)] ^ 0x40));
  CHECK(m::DataOfImage(got)[20] == static_cast<uint8_t>(data[20] ^ 0x08));
  // A bit past the image is refused.
  CHECK_THROWS_AS(
      die.CorruptPage(PageAddr{0, 3, 0}, {static_cast<uint32_t>(cfg.page_image_bytes * 8)}),
      std::invalid_argument);
}

TEST_CASE("nand: sense errors land in data and check bytes alike", "[nand][nand_layout][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const Config& cfg = kSmallConfig;
  NandOptions opt;
  opt.reliability.base_rber = 1e-2;  // about 23 errors a 2304-bit image
  opt.reliability.rber_at_limit = 0.0;
  NandDie die(cfg, 0, seed, opt);
  die.SetSpareFn(FoldCheck);
  uint64_t t = LoadBlock(die, 1, 0, 1, 0);
  uint64_t in_check = 0, in_data = 0;
  for (uint32_t page = 0; page < 16; ++page) {
    t = SenseToCache(die, 1, 0, page, t);
    const auto got = die.DataOutBytes(1, 0, die.page_image_bytes(), t);
    t = die.IoBusyUntil();
    const auto want = Expected(die, LoadTag(cfg, 1, 0, page));
    uint64_t flips = 0;
    for (uint64_t i = 0; i < got.size(); ++i) {
      const auto n = static_cast<uint64_t>(__builtin_popcount(got[i] ^ want[i]));
      flips += n;
      (m::IsCheckByte(i) ? in_check : in_data) += n;
    }
    CHECK(flips == die.CacheBuffer(1)->BitErrors());
  }
  // Positions are uniform over the image's bits: a ninth of them in check bytes.
  const double total = static_cast<double>(in_check + in_data);
  const double mean = total / 9.0, sd = std::sqrt(total * (1.0 / 9.0) * (8.0 / 9.0));
  INFO("errors in check bytes " << in_check << " in data bytes " << in_data);
  CHECK(total > 200);
  CHECK(std::abs(static_cast<double>(in_check) - mean) < 5.0 * sd);
}

TEST_CASE("nand: layout helpers and the die refuse bad sizes loudly",
          "[nand][nand_layout][directed]") {
  const Config& cfg = kSmallConfig;
  CHECK_THROWS_AS(m::ImageFromData(std::vector<uint8_t>(7)), std::invalid_argument);
  CHECK_THROWS_AS(m::DataOfImage(std::vector<uint8_t>(10)), std::invalid_argument);
  CHECK_THROWS_AS(m::ChecksOfImage(std::vector<uint8_t>(8)), std::invalid_argument);
  CHECK_THROWS_AS(m::LineDataFromImage(cfg, std::vector<uint8_t>(cfg.cl_image_bytes + 9)),
                  std::invalid_argument);
  CHECK_THROWS_AS(m::LineDataFromImage(cfg, std::vector<uint8_t>(cfg.cl_bytes)),
                  std::invalid_argument);
  CHECK_THROWS_AS(m::ExpectedLineImage(cfg, PageTag{}, cfg.cl_per_page), std::out_of_range);
  std::vector<uint8_t> buf(cfg.page_image_bytes + 1);
  CHECK_THROWS_AS(
      m::MaterialiseImage(cfg, m::PageImage{}, m::ErasedSpare, 1, cfg.page_image_bytes, buf.data()),
      std::out_of_range);
  // Program data of neither size (data, or a whole image) is refused with kBadArgument.
  NandDie die(cfg, 0, 1, QuietOptions());
  for (const uint64_t n : {cfg.page_bytes - 8, cfg.page_bytes + 8, cfg.page_image_bytes - 1,
                           cfg.page_image_bytes + 1}) {
    INFO("bytes " << n);
    REQUIRE_THROWS_MATCHES(die.ProgramBytes(PageAddr{0, 0, 0}, std::vector<uint8_t>(n), 0),
                           NandError, HasCode(flint::model::NandErrorCode::kBadArgument));
  }
  CHECK(die.WritePointer(0, 0) == 0);
  // A config that breaks the layout's invariants does not make a die.
  Config bad = cfg;
  bad.spare_bytes = cfg.spare_bytes + 1;
  bad.page_image_bytes = bad.page_bytes + bad.spare_bytes;
  CHECK_THROWS_AS(NandDie(bad, 0, 1), std::invalid_argument);
  bad = cfg;
  bad.page_image_bytes = cfg.page_bytes;
  CHECK_THROWS_AS(NandDie(bad, 0, 1), std::invalid_argument);
  bad = cfg;
  bad.cl_image_bytes = cfg.cl_bytes;
  CHECK_THROWS_AS(NandDie(bad, 0, 1), std::invalid_argument);
}
