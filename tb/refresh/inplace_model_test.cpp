// The in-place refresh model's own tests (model/refresh/inplace_model.hpp), no RTL: an ideal die
// played through its API refreshes due blocks in scan order, and each broken rule is refused by
// name.
#include "model/refresh/inplace_model.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "flint_config.hpp"

namespace {

using flint::MaintOp;
using flint::MaintReq;
using flint::MaintRsp;
using flint::MaintStatus;
using flint::Status;
using flint::model::InplaceModel;
using Blocks = std::vector<std::pair<uint32_t, uint32_t>>;

const flint::Config& Cfg() { return flint::kSmallConfig; }
uint32_t Pages() { return static_cast<uint32_t>(Cfg().pages); }
uint32_t Lines() { return static_cast<uint32_t>(Cfg().cl_per_page); }

InplaceModel Make() {
  return InplaceModel(Cfg(), [](uint32_t pl, uint32_t b, uint32_t p) {
    std::vector<uint8_t> d(Cfg().page_bytes);
    for (size_t i = 0; i < d.size(); ++i) d[i] = static_cast<uint8_t>(pl * 31 + b * 7 + p + i);
    return d;
  });
}

MaintRsp Answer(const MaintReq& q, MaintStatus st) {
  MaintRsp r;
  r.op = q.op;
  r.status = st;
  r.plane = q.plane;
  r.block = q.block;
  r.page = q.page;
  return r;
}

// An ideal die's park and read-out of one block, as the documents tell them; the first divergence
// or "". `during` runs once the first page is read; `swap` exchanges the first two pages (a broken
// die).
std::string ReadOut(InplaceModel& m, uint32_t plane, uint32_t block,
                    const std::function<void()>& during = {}, bool swap = false) {
  std::string e = m.Park(true);
  for (uint32_t i = 0; e.empty() && i < Pages(); ++i) {
    const uint32_t p = swap && i < 2 ? 1 - i : i;
    const MaintReq q{MaintOp::kReadPage, plane, block, p, 0};
    e = m.Request(q, true);
    MaintStatus worst = MaintStatus::kOk;
    for (uint32_t l = 0; e.empty() && l < Lines(); ++l) {
      const bool bad = m.Poisoned(plane, block, p, l);
      if (bad) worst = MaintStatus::kUncorrectable;
      e = m.ReadLine(l, m.LineData(plane, block, p, l), bad ? Status::kUncorrectable : Status::kOk);
    }
    if (e.empty()) e = m.Response(Answer(q, worst));
    if (i == 0 && during) during();
  }
  return e;
}

// An ideal die's refresh of one block: the read-out above, the erase, the program back, the count
// reset, the park released.
std::string Refresh(InplaceModel& m, uint32_t plane, uint32_t block,
                    const std::function<void()>& during = {}, bool swap = false) {
  std::string e = ReadOut(m, plane, block, during, swap);
  const MaintReq er{MaintOp::kEraseBlock, plane, block, 0, 0};
  if (e.empty()) e = m.Request(er, true);
  if (e.empty()) e = m.Response(Answer(er, MaintStatus::kOk));
  for (uint32_t p = 0; e.empty() && p < Pages(); ++p) {
    const MaintReq q{MaintOp::kProgramPage, plane, block, p, 0};
    e = m.Request(q, true);
    for (uint32_t l = 0; e.empty() && l < Lines(); ++l) {
      e = m.WriteBeat(m.LineData(plane, block, p, l), m.Poisoned(plane, block, p, l));
    }
    if (e.empty()) e = m.Response(Answer(q, MaintStatus::kOk));
  }
  if (e.empty()) e = m.CounterReset(plane, block);
  if (e.empty()) e = m.CounterAnswered();
  if (e.empty()) e = m.Park(false);
  return e;
}

}  // namespace

TEST_CASE("inplace_model: an ideal die refreshes the due blocks in scan order",
          "[refresh][inplace_model]") {
  InplaceModel m = Make();
  m.Enable();
  m.Due(2, 4);
  m.PoisonLine(2, 4, 3, 1);
  // Due while 2/4 is refreshed: 3/0 is after 2/4 in index order, 0/1 after the wrap.
  REQUIRE(Refresh(m, 2, 4, [&] {
            m.Due(0, 1);
            m.Due(3, 0);
          }) == "");
  m.Limit(1, 1);
  REQUIRE(Refresh(m, 3, 0) == "");
  REQUIRE(Refresh(m, 0, 1) == "");
  CHECK(m.order() == Blocks{{2, 4}, {3, 0}, {0, 1}});
  const flint::model::InplaceCounts& c = m.counts();
  CHECK(c.refreshed == 3);
  CHECK(c.read_out == 3 * uint64_t{Pages()});
  CHECK(c.programmed == 3 * uint64_t{Pages()});
  CHECK(c.erased == 3);
  CHECK(c.poisoned == 1);
  CHECK(c.due == 3);
  CHECK(c.limit == 1);
  CHECK(c.alarm);
  CHECK(c.pending == 0);
}

TEST_CASE("inplace_model: broken rules are refused by name", "[refresh][inplace_model]") {
  SECTION("a block passed over by the scan") {
    InplaceModel m = Make();
    m.Enable();
    m.Due(2, 4);
    REQUIRE(Refresh(m, 2, 4, [&] {
              m.Due(0, 1);
              m.Due(3, 0);
            }) == "");
    CHECK_THAT(Refresh(m, 0, 1), Catch::Contains("refreshed before block 3/0"));
  }
  SECTION("a block not due") {
    InplaceModel m = Make();
    m.Enable();
    m.Due(1, 1);
    CHECK_THAT(Refresh(m, 1, 2), Catch::Contains("not due"));
  }
  SECTION("the park with nothing due") {
    InplaceModel m = Make();
    CHECK_THAT(m.Park(true), Catch::Contains("no block due"));
  }
  SECTION("pages out of order") {
    InplaceModel m = Make();
    m.Due(1, 1);
    CHECK_THAT(Refresh(m, 1, 1, {}, true), Catch::Contains("expected ReadPage of page 0"));
  }
  SECTION("a transaction unparked, the park falling mid-block") {
    InplaceModel m = Make();
    m.Due(1, 1);
    REQUIRE(m.Park(true) == "");
    CHECK_THAT(m.Request({MaintOp::kReadPage, 1, 1, 0, 0}, false), Catch::Contains("not parked"));
    REQUIRE(m.Request({MaintOp::kReadPage, 1, 1, 0, 0}, true) == "");
    CHECK_THAT(m.Park(false), Catch::Contains("park fell"));
  }
  SECTION("a program before the erase, a beat that is not the line read") {
    InplaceModel m = Make();
    m.Due(0, 0);
    REQUIRE(ReadOut(m, 0, 0) == "");
    CHECK_THAT(m.Request({MaintOp::kProgramPage, 0, 0, 0, 0}, true),
               Catch::Contains("expected EraseBlock"));
    const MaintReq er{MaintOp::kEraseBlock, 0, 0, 0, 0};
    REQUIRE(m.Request(er, true) == "");
    REQUIRE(m.Response(Answer(er, MaintStatus::kOk)) == "");
    REQUIRE(m.Request({MaintOp::kProgramPage, 0, 0, 0, 0}, true) == "");
    CHECK_THAT(m.WriteBeat(m.LineData(0, 0, 1, 0), false), Catch::Contains("line read out"));
    CHECK_THAT(m.WriteBeat(m.LineData(0, 0, 0, 0), true), Catch::Contains("poisoned"));
  }
  SECTION("a failed erase: the halt and its code, nothing after") {
    InplaceModel m = Make();
    m.Due(0, 3);
    m.FailErase(0, 3);
    REQUIRE(ReadOut(m, 0, 3) == "");
    const MaintReq er{MaintOp::kEraseBlock, 0, 3, 0, 0};
    REQUIRE(m.Request(er, true) == "");
    CHECK_THAT(m.Response(Answer(er, MaintStatus::kOk)), Catch::Contains("expected 4"));
    REQUIRE(m.Response(Answer(er, MaintStatus::kEraseFail)) == "");
    CHECK_THAT(m.Request({MaintOp::kProgramPage, 0, 3, 0, 0}, true),
               Catch::Contains("after the failed answer"));
    CHECK_THAT(m.Halt(2), Catch::Contains("expected 3"));
    InplaceModel n = Make();
    CHECK_THAT(n.Halt(3), Catch::Contains("predicts no halt"));
  }
}
