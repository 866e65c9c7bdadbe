// NAND die model: procedural page contents, sparse overrides, the spare hook.
#include "model/nand/page_content.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <type_traits>

#include "tb/common/seed.hpp"
#include "tb/nand/nand_test_util.hpp"

namespace {

using namespace flint::tb::nand;  // NOLINT: test-local helpers
using flint::Config;
using flint::kPaperConfig;
using flint::kSmallConfig;
using flint::model::BlockContent;
using flint::model::ContentKind;
using flint::model::TagBytes;

}  // namespace

TEST_CASE("nand: tagged content is a pure function of the tag", "[nand][page_content][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  const Config& cfg = kPaperConfig;
  std::set<std::vector<uint8_t>> seen;
  for (int i = 0; i < 50; ++i) {
    const PageTag tag{rng() % cfg.bursts_per_stack, static_cast<uint32_t>(rng() % 512),
                      static_cast<uint32_t>(rng() % 4)};
    const auto page = flint::model::ExpectedPageImage(cfg, tag);
    REQUIRE(page.size() == cfg.page_image_bytes);
    CHECK(page == flint::model::ExpectedPageImage(cfg, tag));  // same tag, same bytes
    seen.insert(page);
    const std::vector<uint8_t> data = flint::model::DataOfImage(page);
    REQUIRE(data.size() == cfg.page_bytes);
    // Any data sub-range equals the same bytes of the whole page (unaligned slices).
    const uint64_t off = rng() % cfg.page_bytes;
    const uint64_t n = 1 + rng() % (cfg.page_bytes - off);
    std::vector<uint8_t> part(n);
    TagBytes(tag, off, n, part.data());
    CHECK(part == Slice(data, off, n));
    // Any image sub-range equals the same bytes of the whole image.
    const uint64_t ioff = rng() % cfg.page_image_bytes;
    const uint64_t in = 1 + rng() % (cfg.page_image_bytes - ioff);
    std::vector<uint8_t> ipart(in);
    flint::model::TagImageBytes(tag, flint::model::ErasedSpare, ioff, in, ipart.data());
    CHECK(ipart == Slice(page, ioff, in));
    // Changing any one field changes the bytes.
    for (const PageTag& other : {tag.Plus(1), PageTag{tag.burst, tag.slice + 1, tag.generation},
                                 PageTag{tag.burst, tag.slice, tag.generation + 1}}) {
      CHECK(flint::model::ExpectedPageImage(cfg, other) != page);
    }
  }
  CHECK(seen.size() == 50);
  // Against the layout built byte by byte from the tag's words and a spare function: codeword w
  // is word w's 8 bytes, little endian, then its check byte, for any image range.
  const flint::model::SpareFn spare = [](uint64_t w) { return static_cast<uint8_t>(w * 7 >> 3); };
  for (int i = 0; i < 200; ++i) {
    const PageTag tag{rng() % cfg.bursts_per_stack, static_cast<uint32_t>(rng() % 512), 1};
    const uint64_t key = flint::model::TagKey(tag);
    const uint64_t off = rng() % cfg.page_image_bytes;
    const uint64_t n = rng() % 4 == 0
                           ? cfg.page_image_bytes - off
                           : 1 + rng() % std::min<uint64_t>(40, cfg.page_image_bytes - off);
    std::vector<uint8_t> got(n + 1, 0x5A);
    flint::model::TagImageBytes(tag, spare, off, n, got.data());
    for (uint64_t b = 0; b < n; ++b) {
      const uint64_t w = (off + b) / 9, j = (off + b) % 9;
      const uint64_t word = flint::model::TagWord(key, w);
      const auto want = static_cast<uint8_t>(j < 8 ? word >> (8 * j) : spare(word));
      if (got[b] != want) FAIL("image byte " << off + b << " of " << n << " from " << off);
    }
    CHECK(got[n] == 0x5A);  // nothing written past n
  }
  // Data bytes look random: about half the bits set over a page.
  std::vector<uint8_t> page(cfg.page_bytes);
  TagBytes(PageTag{0, 0, 0}, 0, page.size(), page.data());
  uint64_t ones = 0;
  for (uint64_t i = 0; i < cfg.page_bytes; ++i) ones += __builtin_popcount(page[i]);
  CHECK(ones == Approx(cfg.page_bytes * 4).epsilon(0.05));
}

TEST_CASE("nand: consecutive tags programmed in order are stored in O(1) per block",
          "[nand][page_content][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  const uint64_t empty = die.FootprintBytes();
  // Page by page with consecutive tags: no override, no growth.
  uint64_t t = 0;
  for (uint32_t page = 0; page < cfg.pages; ++page) {
    const auto r = die.ProgramTagged(PageAddr{0, 0, page}, LoadTag(cfg, 0, 0, page), t);
    REQUIRE(r.pass);
    t = r.done_at;
  }
  CHECK(die.FootprintBytes() == empty);
  // A break in the tag sequence costs one override for that page and every page after it.
  t = die.ProgramTagged(PageAddr{0, 1, 0}, LoadTag(cfg, 0, 1, 0), t).done_at;
  t = die.ProgramTagged(PageAddr{0, 1, 1}, PageTag{999, 0, 0}, t).done_at;
  t = die.ProgramTagged(PageAddr{0, 1, 2}, LoadTag(cfg, 0, 1, 2), t).done_at;
  const uint64_t broken = die.FootprintBytes();
  CHECK(broken > empty);
  CHECK(die.StoredImage(PageAddr{0, 1, 0}).tag == LoadTag(cfg, 0, 1, 0));
  CHECK(die.StoredImage(PageAddr{0, 1, 1}).tag == (PageTag{999, 0, 0}));
  CHECK(die.StoredImage(PageAddr{0, 1, 2}).tag == LoadTag(cfg, 0, 1, 2));
  // Explicit bytes are stored (sparsely): the footprint grows by about a page.
  die.ProgramBytes(PageAddr{0, 2, 0}, std::vector<uint8_t>(cfg.page_bytes, 1), t);
  CHECK(die.FootprintBytes() >= broken + cfg.page_image_bytes);
  CHECK(die.StoredImage(PageAddr{0, 2, 0}).kind == ContentKind::kBytes);
  // Erase drops the overrides again.
  t = die.Erase(0, 1, die.PlaneReadyAt(0)).done_at;
  die.Erase(0, 2, t);
  CHECK(die.FootprintBytes() == empty);
}

TEST_CASE("nand: block content keeps runs and overrides apart", "[nand][page_content][directed]") {
  BlockContent b;
  b.ProgramRun(PageTag{100, 3, 1}, 10);
  CHECK(b.programmed() == 10);
  CHECK(b.run_length() == 10);
  b.ProgramTag(10, PageTag{110, 3, 1});  // continues the run
  CHECK(b.run_length() == 11);
  CHECK_FALSE(b.has_overrides());
  b.Corrupt(4, {0, 9});  // a corrupted run page becomes an override, the run stays
  CHECK(b.run_length() == 11);
  CHECK(b.override_count() == 1);
  const auto img = b.Image(4);
  CHECK(img.kind == ContentKind::kTagged);
  CHECK(img.tag == (PageTag{104, 3, 1}));
  REQUIRE(img.corrupt);
  CHECK(*img.corrupt == std::vector<uint32_t>{0, 9});
  b.ProgramRun(PageTag{500, 0, 0}, 3);  // not consecutive: overrides, run unchanged
  CHECK(b.run_length() == 11);
  CHECK(b.override_count() == 4);
  CHECK(b.Image(13).tag == (PageTag{502, 0, 0}));
  CHECK(b.Image(14).kind == ContentKind::kErased);
  b.Erase();
  CHECK(b.programmed() == 0);
  CHECK(b.HeapBytes() == 0);
}

TEST_CASE("nand: block fast path equals page by page programming",
          "[nand][page_content][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie fast(cfg, 0, 1, QuietOptions());
  NandDie slow(cfg, 0, 1, QuietOptions());
  const PageTag base = LoadTag(cfg, 2, 3, 0);
  const auto rf = fast.ProgramBlockTagged(2, 3, base, static_cast<uint32_t>(cfg.pages), 0);
  uint64_t t = 0;
  for (uint32_t p = 0; p < cfg.pages; ++p) {
    t = slow.ProgramTagged(PageAddr{2, 3, p}, base.Plus(p), t).done_at;
  }
  CHECK(rf.done_at == t);  // the same plane time as back-to-back programs
  CHECK(fast.WritePointer(2, 3) == slow.WritePointer(2, 3));
  CHECK(fast.FootprintBytes() == slow.FootprintBytes());
  CHECK(fast.counters().program_cmds == slow.counters().program_cmds);
  CHECK(fast.Energy().program_pj == Approx(slow.Energy().program_pj));
  for (uint32_t p = 0; p < cfg.pages; ++p) {
    CHECK(fast.StoredImage(PageAddr{2, 3, p}).tag == slow.StoredImage(PageAddr{2, 3, p}).tag);
  }
  // A partial fast program continues from the write pointer.
  NandDie part(cfg, 0, 1, QuietOptions());
  auto r = part.ProgramBlockTagged(0, 0, base, 5, 0);
  r = part.ProgramBlockTagged(0, 0, base.Plus(5), static_cast<uint32_t>(cfg.pages) - 5, r.done_at);
  CHECK(part.WritePointer(0, 0) == cfg.pages);
  CHECK(part.FootprintBytes() == slow.FootprintBytes());
}

TEST_CASE("nand: spare hook computes each check byte from its data word",
          "[nand][page_content][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  // A plain function of the ECC encoder's shape (uint8_t(uint64_t)) installs as the hook.
  static_assert(std::is_constructible_v<flint::model::SpareFn, uint8_t (*)(uint64_t)>);
  die.SetSpareFn(&FoldCheck);
  const PageTag tag{77, 1, 0};
  uint64_t t = die.ProgramTagged(PageAddr{1, 1, 0}, tag, 0).done_at;
  t = die.Read({PlaneBlock{1, 1}}, 0, t);
  t = die.CacheEnd({1}, t).cache_ready_at;
  std::vector<uint8_t> data(cfg.page_bytes);
  TagBytes(tag, 0, data.size(), data.data());
  // One check byte alone: computed from its word only.
  const uint64_t w = 5;
  const auto check =
      die.DataOutBytes(1, static_cast<uint32_t>(flint::model::ImageOffsetOfCheck(w)), 1, t);
  CHECK(check == std::vector<uint8_t>{FoldCheck(WordOf(data, w))});
  // A read straddling a codeword boundary: data bytes 5..7 of word 2, its check, word 3's 0..1.
  const auto straddle = die.DataOutBytes(1, 9 * 2 + 5, 6, die.IoBusyUntil());
  CHECK(straddle == std::vector<uint8_t>{data[21], data[22], data[23], FoldCheck(WordOf(data, 2)),
                                         data[24], data[25]});
  // The default function is 0xFF, and an empty function falls back to it; data is unchanged.
  die.SetSpareFn(nullptr);
  const auto erased = die.DataOutBytes(1, 0, die.page_image_bytes(), die.IoBusyUntil());
  CHECK(erased == InterleaveRef(data, [](uint64_t) { return uint8_t{0xFF}; }));
  CHECK(flint::model::ChecksOfImage(erased) == std::vector<uint8_t>(cfg.spare_bytes, 0xFF));
}

TEST_CASE("nand: buffers hold a snapshot descriptor that survives erase",
          "[nand][page_content][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  const PageTag tag{42, 0, 0};
  uint64_t t = die.ProgramTagged(PageAddr{0, 2, 0}, tag, 0).done_at;
  t = die.Read({PlaneBlock{0, 2}}, 0, t);
  t = die.CacheEnd({0}, t).cache_ready_at;
  const auto* cb = die.CacheBuffer(0);
  REQUIRE(cb != nullptr);
  CHECK(cb->image.kind == ContentKind::kTagged);
  CHECK(cb->image.tag == tag);
  CHECK(cb->addr.block == 2);
  // Erase the block: the cache buffer still holds what was sensed (erase uses no register).
  t = die.Erase(0, 2, t).done_at;
  CHECK(die.DataOutBytes(0, 0, die.page_image_bytes(), t) == Expected(die, tag));
}

TEST_CASE("nand: a corrupted page flips exactly the stored bits",
          "[nand][page_content][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  const PageTag tag{5, 5, 5};
  uint64_t t = die.ProgramTagged(PageAddr{3, 0, 0}, tag, 0).done_at;
  // Image bits: a data bit of word 0, one of word 1, and bit 2 of the last word's check byte.
  const std::vector<uint32_t> bits{
      0, 13 * 8 + 1,
      static_cast<uint32_t>(flint::model::ImageOffsetOfCheck(cfg.page_bytes / 8 - 1) * 8 + 2)};
  die.CorruptPage(PageAddr{3, 0, 0}, bits);
  CHECK_THROWS_AS(die.CorruptPage(PageAddr{3, 0, 1}, {0}), std::invalid_argument);  // erased
  t = die.Read({PlaneBlock{3, 0}}, 0, t);
  t = die.CacheEnd({3}, t).cache_ready_at;
  CHECK(die.CacheBuffer(3)->BitErrors() == 3);
  const auto got = die.DataOutBytes(3, 0, die.page_image_bytes(), t);
  auto want = Expected(die, tag);
  for (uint32_t b : bits) want[b / 8] ^= static_cast<uint8_t>(1u << (b % 8));
  CHECK(got == want);
}
