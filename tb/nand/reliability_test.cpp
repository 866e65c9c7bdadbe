// NAND die model: raw bit error model (disturb, retention, wear), bad blocks, wear-out.
#include "model/nand/reliability.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "tb/common/seed.hpp"
#include "tb/nand/nand_test_util.hpp"

namespace {

using namespace flint::tb::nand;  // NOLINT: test-local helpers
using flint::Config;
using flint::kPaperConfig;
using flint::kSmallConfig;
using flint::model::BadBlock;
using flint::model::ErrorModel;
using flint::model::ReliabilityParams;
using Code = flint::model::NandErrorCode;

NandOptions WithParams(const ReliabilityParams& p) {
  NandOptions o;
  o.reliability = p;
  return o;
}

// Error-visible parameters for the small config: 1e-3 at the disturb limit on a fresh block,
// about 2.3 flips a page there, no base rate.
ReliabilityParams Loud() {
  ReliabilityParams p;
  p.base_rber = 0.0;
  p.rber_at_limit = 1e-2;
  return p;
}

// One sense of (plane, block, page) moved to the cache buffer and read out whole at `*t`.
// Returns the bit positions where the bytes differ from the stored content.
std::set<uint32_t> SenseErrors(NandDie& die, uint32_t plane, uint32_t block, uint32_t page,
                               uint64_t* t) {
  *t = die.Read({PlaneBlock{plane, block}}, page, std::max(*t, die.PlaneReadyAt(plane)));
  *t = die.CacheEnd({plane}, *t).cache_ready_at;
  const auto got = die.DataOutBytes(plane, 0, die.page_image_bytes(), *t);
  *t = die.IoBusyUntil();
  std::vector<uint8_t> want(die.page_image_bytes());
  flint::model::MaterialiseImage(die.config(), die.StoredImage(PageAddr{plane, block, page}),
                                 die.spare_fn(), 0, want.size(), want.data());
  std::set<uint32_t> bits;
  for (uint32_t i = 0; i < got.size(); ++i) {
    for (uint32_t b = 0; b < 8; ++b) {
      if (((got[i] ^ want[i]) >> b) & 1u) bits.insert(i * 8 + b);
    }
  }
  // The bytes show exactly the errors the cache buffer announced.
  REQUIRE(bits.size() == die.CacheBuffer(plane)->BitErrors());
  return bits;
}

}  // namespace

TEST_CASE("nand: error model reaches the stated RBER at its limits",
          "[nand][reliability][directed]") {
  const Config& cfg = kPaperConfig;
  const ReliabilityParams p;
  const ErrorModel m(cfg, p);
  const double w_end = 1.0 + p.wear_gain;
  CHECK(m.WearFactor(0) == 1.0);
  CHECK(m.WearFactor(cfg.pe_limit) == Approx(w_end));
  CHECK(m.Rber(0, 0, uint64_t{0}) == Approx(p.base_rber));
  // End of P/E life: each term reaches rber_at_limit at its own limit.
  CHECK(m.Rber(cfg.disturb_limit, 0, cfg.pe_limit) ==
        Approx(p.rber_at_limit + w_end * p.base_rber));
  CHECK(m.Rber(0, cfg.retention_cycles, cfg.pe_limit) ==
        Approx(p.rber_at_limit + w_end * p.base_rber));
  // A fresh block at the disturb limit: W(pe_limit) times lower.
  CHECK(m.Rber(cfg.disturb_limit, 0, uint64_t{0}) == Approx(p.base_rber + p.rber_at_limit / w_end));
  // Half the disturb limit: half the disturb term (linear).
  CHECK(m.Rber(cfg.disturb_limit / 2, 0, cfg.pe_limit) ==
        Approx(p.rber_at_limit / 2 + w_end * p.base_rber));
  // Monotone in every argument.
  double prev = -1.0;
  for (uint64_t d = 0; d <= 4 * cfg.disturb_limit; d += cfg.disturb_limit / 4) {
    const double r = m.Rber(d, 0, uint64_t{0});
    CHECK(r > prev);
    prev = r;
  }
  prev = -1.0;
  for (uint64_t c = 0; c <= 2 * cfg.pe_limit; c += cfg.pe_limit / 4) {
    const double r = m.Rber(100, 1000, c);
    CHECK(r > prev);
    prev = r;
  }
  CHECK(m.Rber(0, 2 * cfg.retention_cycles, uint64_t{0}) >
        m.Rber(0, cfg.retention_cycles, uint64_t{0}));
  CHECK(m.Rber(uint64_t{1} << 62, 0, uint64_t{1} << 40) == 0.5);  // capped
  // Bad tunables are refused loudly.
  ReliabilityParams bad;
  bad.disturb_exponent = 0.0;
  CHECK_THROWS_AS(ErrorModel(cfg, bad), std::invalid_argument);
  bad = ReliabilityParams{};
  bad.base_rber = -1.0;
  CHECK_THROWS_AS(ErrorModel(cfg, bad), std::invalid_argument);
  Config zero = cfg;
  zero.disturb_limit = 0;
  CHECK_THROWS_AS(ErrorModel(zero, ReliabilityParams{}), std::invalid_argument);
}

TEST_CASE("nand: poisson draws match their mean and variance", "[nand][reliability][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const int n = 20000;
  for (double mean : {0.05, 3.0, 40.0, 500.0}) {
    INFO("mean " << mean);
    double sum = 0, sum2 = 0;
    for (int i = 0; i < n; ++i) {
      const double k =
          ErrorModel::DrawCount(mean, flint::model::Mix64(seed * 1000003ULL + i), 1u << 30);
      sum += k;
      sum2 += k * k;
    }
    const double m = sum / n, var = sum2 / n - m * m;
    CHECK(std::abs(m - mean) < 5.0 * std::sqrt(mean / n));
    CHECK(var == Approx(mean).epsilon(0.15));
  }
  CHECK(ErrorModel::DrawCount(0.0, 1, 100) == 0);
  CHECK(ErrorModel::DrawCount(1e6, 1, 100) == 100);  // capped
  // Positions: distinct, in range, and a longer draw extends a shorter one.
  std::vector<uint32_t> a, b;
  ErrorModel::DrawPositions(seed, 10, 1000, &a);
  ErrorModel::DrawPositions(seed, 200, 1000, &b);
  CHECK(std::set<uint32_t>(a.begin(), a.end()).size() == 10);
  CHECK(std::set<uint32_t>(b.begin(), b.end()).size() == 200);
  CHECK(std::equal(a.begin(), a.end(), b.begin()));
  for (uint32_t x : b) CHECK(x < 1000);
}

TEST_CASE("nand: a fresh block reads at the stated base rate", "[nand][reliability][directed]") {
  const Config& cfg = kSmallConfig;
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  {
    // Base rate zero, first sense at the program's completion: exactly zero errors.
    ReliabilityParams p;
    p.base_rber = 0.0;
    NandDie die(cfg, 0, seed, WithParams(p));
    const auto r = die.ProgramTagged(PageAddr{0, 0, 0}, PageTag{1, 1, 1}, 0);
    uint64_t t = r.done_at;
    CHECK(die.Rber(0, 0, t) == 0.0);
    CHECK(SenseErrors(die, 0, 0, 0, &t).empty());
    CHECK(die.CacheBuffer(0)->rber == 0.0);
  }
  {
    // Only a base rate: errors per sense average base x bits, whatever the disturb and age.
    ReliabilityParams p;
    p.base_rber = 1e-3;
    p.rber_at_limit = 0.0;
    NandDie die(cfg, 0, seed, WithParams(p));
    uint64_t t = LoadBlock(die, 1, 1, 0, 0);
    const int senses = 1000;
    uint64_t errors = 0;
    for (int i = 0; i < senses; ++i) errors += SenseErrors(die, 1, 1, i % cfg.pages, &t).size();
    const double mean = p.base_rber * die.page_image_bytes() * 8;
    CHECK(static_cast<double>(errors) / senses == Approx(mean).epsilon(0.1));
  }
}

TEST_CASE("nand: bit errors grow with senses since erase", "[nand][reliability][random]") {
  const Config& cfg = kSmallConfig;
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  NandDie die(cfg, 0, seed, WithParams(Loud()));
  uint64_t t = LoadBlock(die, 2, 4, 0, 0);
  const uint32_t quarter = static_cast<uint32_t>(cfg.disturb_limit);  // 4 quarters = 4x limit
  uint64_t per_quarter[4] = {0, 0, 0, 0};
  double prev_rber = -1.0;
  for (uint32_t i = 0; i < 4 * quarter; ++i) {
    per_quarter[i / quarter] += SenseErrors(die, 2, 4, i % cfg.pages, &t).size();
    const double rber = die.CacheBuffer(2)->rber;
    CHECK(rber >= prev_rber);
    prev_rber = rber;
  }
  CHECK(die.DisturbCount(2, 4) == uint64_t{4} * quarter);
  INFO("errors per quarter " << per_quarter[0] << " " << per_quarter[1] << " " << per_quarter[2]
                             << " " << per_quarter[3]);
  // Expected per quarter ~ 300, 880, 1470, 2060: every quarter well above the one before.
  CHECK(per_quarter[1] > per_quarter[0]);
  CHECK(per_quarter[2] > per_quarter[1]);
  CHECK(per_quarter[3] > per_quarter[2]);
  CHECK(per_quarter[3] > 4 * per_quarter[0]);
  // Erase and reload: the disturb count and the errors start over.
  t = die.Erase(2, 4, die.PlaneReadyAt(2)).done_at;
  t = LoadBlock(die, 2, 4, 0, t);
  CHECK(die.DisturbCount(2, 4) == 0);
  CHECK(die.Rber(2, 4, t) < prev_rber / 10);
}

TEST_CASE("nand: bit errors grow with retention age and with wear", "[nand][reliability][random]") {
  const Config& cfg = kSmallConfig;
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  // Three dies with one seed, the same reads: they differ only in age or wear.
  NandDie young(cfg, 0, seed, WithParams(Loud()));
  NandDie old(cfg, 0, seed, WithParams(Loud()));
  NandDie worn(cfg, 0, seed, WithParams(Loud()));
  worn.SetPeCycles(0, 0, cfg.pe_limit);
  uint64_t ty = LoadBlock(young, 0, 0, 0, 0);
  uint64_t to = LoadBlock(old, 0, 0, 0, 0) + 2 * cfg.retention_cycles;
  uint64_t tw = LoadBlock(worn, 0, 0, 0, 0);
  CHECK(old.RetentionAge(0, 0, to) >= 2 * cfg.retention_cycles);
  uint64_t ey = 0, eo = 0, ew = 0;
  for (uint32_t i = 0; i < 200; ++i) {
    const uint32_t page = i % cfg.pages;
    ey += SenseErrors(young, 0, 0, page, &ty).size();
    eo += SenseErrors(old, 0, 0, page, &to).size();
    ew += SenseErrors(worn, 0, 0, page, &tw).size();
  }
  INFO("young " << ey << " old " << eo << " worn " << ew);
  // Expected ~ 230, 1150, 2300 (retention term 2e-3 at twice the retention time; wear x10).
  CHECK(eo > 3 * ey);
  CHECK(ew > 6 * ey);
  CHECK(old.Rber(0, 0, to) > young.Rber(0, 0, ty));
}

TEST_CASE("nand: bit errors are deterministic for a seed", "[nand][reliability][random]") {
  const Config& cfg = kSmallConfig;
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  auto run = [&](uint64_t die_seed, uint32_t die_index) {
    NandDie die(cfg, die_index, die_seed, WithParams(Loud()));
    uint64_t t = LoadBlock(die, 1, 2, 0, 0);
    std::vector<std::set<uint32_t>> errors;
    for (uint32_t i = 0; i < 300; ++i) errors.push_back(SenseErrors(die, 1, 2, i % 4, &t));
    return errors;
  };
  const auto a = run(seed, 0);
  CHECK(a == run(seed, 0));
  CHECK(a != run(seed + 1, 0));
  CHECK(a != run(seed, 1));  // another die of the stack, same seed
  uint64_t total = 0;
  for (const auto& s : a) total += s.size();
  CHECK(total > 100);  // the comparison saw errors, not only clean reads
}

TEST_CASE("nand: raw bit errors persist from one sense to the next",
          "[nand][reliability][random]") {
  const Config& cfg = kSmallConfig;
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  NandDie die(cfg, 0, seed, WithParams(Loud()));
  uint64_t t = LoadBlock(die, 3, 3, 0, 0);
  // Sense one page many times: each error set contains every smaller one (shifted cells stay
  // shifted; only how many show varies from sense to sense).
  std::vector<std::set<uint32_t>> sets;
  for (int i = 0; i < 400; ++i) sets.push_back(SenseErrors(die, 3, 3, 7, &t));
  std::size_t checked = 0;
  for (std::size_t i = 1; i < sets.size(); ++i) {
    const auto& small = sets[i - 1].size() <= sets[i].size() ? sets[i - 1] : sets[i];
    const auto& big = sets[i - 1].size() <= sets[i].size() ? sets[i] : sets[i - 1];
    CHECK(std::includes(big.begin(), big.end(), small.begin(), small.end()));
    checked += !small.empty();
  }
  CHECK(checked > 100);
  // A reprogram (after erase) draws new positions: the largest error set before is no longer
  // part of the chain after (with the same positions, one would contain the other).
  auto largest = [](const std::vector<std::set<uint32_t>>& v) {
    return *std::max_element(v.begin(), v.end(),
                             [](const auto& x, const auto& y) { return x.size() < y.size(); });
  };
  const auto before = largest(sets);
  t = die.Erase(3, 3, die.PlaneReadyAt(3)).done_at;
  t = LoadBlock(die, 3, 3, 0, t);
  sets.clear();
  for (int i = 0; i < 400; ++i) sets.push_back(SenseErrors(die, 3, 3, 7, &t));
  const auto after = largest(sets);
  REQUIRE(before.size() >= 2);
  REQUIRE(after.size() >= 2);
  const auto& small = before.size() <= after.size() ? before : after;
  const auto& big = before.size() <= after.size() ? after : before;
  CHECK_FALSE(std::includes(big.begin(), big.end(), small.begin(), small.end()));
}

TEST_CASE("nand: every cache-read burst shows exactly its own sense errors",
          "[nand][reliability][random]") {
  const Config& cfg = kSmallConfig;
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  NandDie die(cfg, 0, seed, WithParams(Loud()));
  uint64_t t = 0;
  for (uint32_t p = 0; p < cfg.planes; ++p) t = std::max(t, LoadBlock(die, p, 1, p, 0));
  const auto targets = LogicalTargets(cfg, [](uint32_t) { return 1u; });
  t = die.Read(targets, 0, t);
  uint64_t total = 0;
  for (uint32_t k = 0; k < 200; ++k) {
    const auto mv = die.CacheRead(targets, (k + 1) % cfg.pages, t);
    uint64_t io = mv.cache_ready_at;
    for (uint32_t p = 0; p < cfg.planes; ++p) {
      const auto* cb = die.CacheBuffer(p);
      REQUIRE(cb != nullptr);
      const auto got = die.DataOutBytes(p, 0, die.page_image_bytes(), io);
      io = die.IoBusyUntil();
      const auto want = Expected(die, LoadTag(cfg, p, 1, k % cfg.pages));
      INFO("burst " << k << " plane " << p);
      CHECK(CountBitDiffs(got, want) == cb->BitErrors());
      total += cb->BitErrors();
      if (p == 0) {
        // Read again byte by byte: the same bytes (errors stay put, every byte edge is a range
        // edge).
        std::vector<uint8_t> again;
        for (uint32_t off = 0; off < die.page_image_bytes(); ++off) {
          again.push_back(die.DataOutBytes(p, off, 1, io)[0]);
          io = die.IoBusyUntil();
        }
        CHECK(again == got);
      }
    }
    t = std::max(io, mv.array_ready_at);
  }
  CHECK(total > 100);  // errors were there to be compared
}

TEST_CASE("nand: read disturb counts senses per block and resets at erase",
          "[nand][reliability][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  uint64_t t = die.Read({PlaneBlock{0, 1}, PlaneBlock{1, 5}}, 0, 0);
  t = die.CacheRead({PlaneBlock{0, 1}, PlaneBlock{1, 6}}, 1, t).array_ready_at;
  t = die.CacheRead({PlaneBlock{0, 1}}, 2, t).array_ready_at;
  CHECK(die.DisturbCount(0, 1) == 3);
  CHECK(die.DisturbCount(1, 5) == 1);
  CHECK(die.DisturbCount(1, 6) == 1);
  CHECK(die.DisturbCount(2, 1) == 0);  // same block number on another plane: untouched
  CHECK(die.PageBuffer(0)->sense_index == 3);
  t = die.CacheEnd({0, 1}, t).cache_ready_at;
  die.Erase(0, 1, t);
  CHECK(die.DisturbCount(0, 1) == 0);
  CHECK(die.DisturbCount(1, 5) == 1);
}

TEST_CASE("nand: factory bad blocks follow the configured ppm", "[nand][reliability][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Config cfg = kPaperConfig;
  cfg.factory_bad_block_ppm = 20000;  // 2 %
  NandDie a(cfg, 0, seed, QuietOptions());
  NandDie b(cfg, 0, seed, QuietOptions());
  NandDie c(cfg, 0, seed + 1, QuietOptions());
  const double candidates = static_cast<double>(cfg.phys_planes * (cfg.blocks - 1));
  const double mean = candidates * 0.02;
  INFO("bad " << a.BadBlockCount() << " expected " << mean);
  CHECK(std::abs(static_cast<double>(a.BadBlockCount()) - mean) < 5.0 * std::sqrt(mean));
  bool differ = false;
  uint32_t bad_plane = 0, bad_block = 0;
  for (uint32_t p = 0; p < cfg.phys_planes; ++p) {
    CHECK_FALSE(a.IsBad(p, 0));  // block 0 is guaranteed good
    for (uint32_t blk = 0; blk < cfg.blocks; ++blk) {
      CHECK(a.BadState(p, blk) == b.BadState(p, blk));  // same seed, same marks
      differ |= a.BadState(p, blk) != c.BadState(p, blk);
      if (a.BadState(p, blk) == BadBlock::kFactory) {
        bad_plane = p;
        bad_block = blk;
      }
    }
  }
  CHECK(differ);
  REQUIRE(a.IsBad(bad_plane, bad_block));
  // A factory-bad block reads as 0x00, data and check bytes (the marker a bad-block scan finds),
  // and refuses writes.
  uint64_t t = a.Read({PlaneBlock{bad_plane, bad_block}}, 0, 0);
  t = a.CacheEnd({bad_plane}, t).cache_ready_at;
  CHECK(a.DataOutBytes(bad_plane, 0, a.page_image_bytes(), t) ==
        std::vector<uint8_t>(cfg.page_image_bytes, 0x00));
  t = a.IoBusyUntil();
  REQUIRE_THROWS_MATCHES(a.Erase(bad_plane, bad_block, t), NandError, HasCode(Code::kBadBlock));
  REQUIRE_THROWS_MATCHES(a.ProgramTagged(PageAddr{bad_plane, bad_block, 0}, PageTag{}, t),
                         NandError, HasCode(Code::kBadBlock));
  // The shipped configs have none.
  NandDie none(kPaperConfig, 0, seed, QuietOptions());
  CHECK(none.BadBlockCount() == 0);
}

TEST_CASE("nand: erase past the P/E budget fails and grows a bad block",
          "[nand][reliability][corner]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  uint64_t t = 0;
  for (uint64_t i = 0; i < cfg.pe_limit; ++i) {
    const auto r = die.Erase(2, 3, t);
    REQUIRE(r.pass);
    t = r.done_at;
  }
  CHECK(die.PeCycles(2, 3) == cfg.pe_limit);
  // Still programmable in its last budgeted cycle.
  t = die.ProgramTagged(PageAddr{2, 3, 0}, PageTag{}, t).done_at;
  const auto over = die.Erase(2, 3, t);
  CHECK_FALSE(over.pass);
  CHECK(die.Status(2, over.done_at).fail);
  CHECK(die.BadState(2, 3) == BadBlock::kWornOut);
  CHECK(die.counters().erase_fails == 1);
  REQUIRE_THROWS_MATCHES(die.Erase(2, 3, over.done_at), NandError, HasCode(Code::kBadBlock));
  CHECK(die.Energy().erase_pj == Approx((cfg.pe_limit + 1) * cfg.erase_nj_per_block * 1000.0));
}

TEST_CASE("nand: program past the P/E budget fails with status", "[nand][reliability][corner]") {
  const Config& cfg = kPaperConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  die.SetPeCycles(5, 9, cfg.pe_limit + 1);
  const auto r = die.ProgramTagged(PageAddr{5, 9, 0}, PageTag{1, 2, 3}, 0);
  CHECK_FALSE(r.pass);
  CHECK(die.Status(5, r.done_at).fail);
  CHECK(die.BadState(5, 9) == BadBlock::kWornOut);
  CHECK(die.counters().program_fails == 1);
  // Within the budget the same program passes.
  die.SetPeCycles(5, 10, cfg.pe_limit);
  CHECK(die.ProgramTagged(PageAddr{5, 10, 0}, PageTag{1, 2, 3}, r.done_at).pass);
}
