// The rotation's golden model alone (model/refresh/refresh_model.hpp), no RTL: an ideal controller
// played through its API is accepted step after step, with the sources it predicts; each broken
// rule is refused with a message naming it.
#include "model/refresh/refresh_model.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/ftl/ftl_types.hpp"

namespace {

using flint::RelocCmd;
using flint::model::RefreshModel;
using flint::model::RelocResult;

const flint::Config& Small() { return flint::kSmallConfig; }

std::vector<uint8_t> Content(uint32_t lp, uint32_t b, uint32_t p) {
  std::vector<uint8_t> d(Small().page_bytes);
  for (size_t i = 0; i < d.size(); ++i) d[i] = static_cast<uint8_t>(lp * 31 + b * 7 + p + i);
  return d;
}

// One step as the controller should run it; returns the first refusal ("" if none).
std::string IdealStep(RefreshModel& m, uint32_t live) {
  const flint::Config& cfg = Small();
  const uint32_t blocks = static_cast<uint32_t>(cfg.blocks);
  const uint32_t s = m.PredictSource();
  std::string e;
  RelocResult r;
  uint32_t ls = 0;
  std::vector<uint32_t> owner(blocks);
  for (uint32_t x = 0; x < blocks && e.empty(); ++x) {
    e = m.Reloc(RelocCmd::kQuery, s, x, &r);
    owner[x] = r.lblock;
    ls = r.lplane;
  }
  for (uint32_t b = 0; b < live && e.empty(); ++b) e = m.Reloc(RelocCmd::kAlloc, ls, b, &r);
  for (uint32_t b = 0; b < live && e.empty(); ++b) {
    for (uint32_t p = 0; p < cfg.pages && e.empty(); ++p)
      e = m.Program(m.phantom(), m.Target(b), p, Content(ls, b, p), true);
  }
  for (uint32_t b = 0; b < blocks && e.empty(); ++b) {
    if (b >= live) e = m.Reloc(RelocCmd::kAlloc, ls, b, &r);
    if (e.empty()) e = m.Reloc(RelocCmd::kCommit, m.phantom(), m.Target(b), &r);
  }
  for (uint32_t x = 0; x < blocks && e.empty(); ++x) {
    if (owner[x] < live) e = m.Erase(s, x, true, false);
    if (e.empty()) e = m.Reloc(RelocCmd::kRelease, s, x, &r);
    if (e.empty()) e = m.CounterReset(s, x);
  }
  return e;
}

}  // namespace

TEST_CASE("refresh_model: an ideal controller rotates every plane once a pass",
          "[refresh][refresh_model][directed]") {
  RefreshModel m(Small(), 3, Content);
  for (int k = 0; k < 6; ++k) {
    const std::string e = IdealStep(m, 3);
    INFO("step " << k << ": " << e);
    REQUIRE(e.empty());
  }
  CHECK(m.sources() == std::vector<uint32_t>{0, 1, 2, 3, 4, 0});
  CHECK(m.rotations() == 6);
  CHECK(m.programmed() == 6 * 3 * Small().pages);
  CHECK(m.erased() == 6 * 3);
  CHECK(m.Counters(6, 6 * 3 * Small().pages, 18, 0, 0).empty());
  CHECK_FALSE(m.Counters(6, 6 * 3 * Small().pages, 17, 0, 0).empty());
}

TEST_CASE("refresh_model: a due event makes its plane the next source",
          "[refresh][refresh_model][directed]") {
  RefreshModel m(Small(), 2, Content);
  REQUIRE(IdealStep(m, 2).empty());  // source 0
  m.TripEvent(3, false);
  m.TripEvent(2, true);  // a limit event: no steering
  REQUIRE(IdealStep(m, 2).empty());
  CHECK(m.sources() == std::vector<uint32_t>{0, 3});
  CHECK(m.steered() == 1);
  // The wrong plane is refused.
  m.TripEvent(1, false);
  RelocResult r;
  const std::string e = m.Reloc(RelocCmd::kQuery, 2, 0, &r);
  INFO(e);
  CHECK(e.find("expected plane 1") != std::string::npos);
}

TEST_CASE("refresh_model: broken rules are refused", "[refresh][refresh_model][directed]") {
  const flint::Config& cfg = Small();
  RefreshModel m(cfg, 2, Content);
  RelocResult r;
  for (uint32_t x = 0; x < cfg.blocks; ++x) REQUIRE(m.Reloc(RelocCmd::kQuery, 0, x, &r).empty());
  REQUIRE(m.Reloc(RelocCmd::kAlloc, 0, 0, &r).empty());
  REQUIRE(m.Reloc(RelocCmd::kAlloc, 0, 1, &r).empty());
  const uint32_t p = m.phantom(), y = m.Target(0);
  // Pages in order, the source's data, into the phantom only.
  CHECK(m.Program(p, y, 1, Content(0, 0, 1), true).find("expects page 0") != std::string::npos);
  CHECK(m.Program(p, y, 0, Content(1, 0, 0), true).find("data differs") != std::string::npos);
  CHECK(m.Program(1, y, 0, Content(0, 0, 0), true).find("not into the phantom") !=
        std::string::npos);
  REQUIRE(m.Program(p, y, 0, Content(0, 0, 0), true).empty());
  // No erase before the copy ends.
  CHECK(m.Erase(0, 0, true, false).find("before every block") != std::string::npos);
  // A failed program: MarkBad of that block, then a new Alloc, the copy from page 0.
  REQUIRE(m.Program(p, y, 1, Content(0, 0, 1), false).empty());
  CHECK_FALSE(m.Program(p, y, 2, Content(0, 0, 2), true).empty());
  CHECK_FALSE(m.Reloc(RelocCmd::kAlloc, 0, 0, &r).empty());  // MarkBad first
  REQUIRE(m.Reloc(RelocCmd::kMarkBad, p, y, &r).empty());
  REQUIRE(m.Reloc(RelocCmd::kAlloc, 0, 0, &r).empty());
  CHECK(m.Target(0) != y);
  CHECK(m.Next(0) == 0);
  CHECK(m.retired_prog() == 1);
  REQUIRE(m.Program(p, m.Target(0), 0, Content(0, 0, 0), true).empty());
}

TEST_CASE("refresh_model: no commit before the whole copy", "[refresh][refresh_model][directed]") {
  // A refused command still reaches the table (the bench answers the RTL from it and stops at
  // the first divergence), so each refusal that changes the table gets a model of its own.
  const flint::Config& cfg = Small();
  RefreshModel m(cfg, 2, Content);
  RelocResult r;
  for (uint32_t x = 0; x < cfg.blocks; ++x) REQUIRE(m.Reloc(RelocCmd::kQuery, 0, x, &r).empty());
  REQUIRE(m.Reloc(RelocCmd::kAlloc, 0, 0, &r).empty());
  REQUIRE(m.Reloc(RelocCmd::kAlloc, 0, 1, &r).empty());
  for (uint32_t p = 0; p < cfg.pages; ++p)
    REQUIRE(m.Program(m.phantom(), m.Target(0), p, Content(0, 0, p), true).empty());
  const std::string e = m.Reloc(RelocCmd::kCommit, m.phantom(), m.Target(0), &r);
  INFO(e);
  CHECK(e.find("block 1 has 0 of 16 pages programmed") != std::string::npos);
}
