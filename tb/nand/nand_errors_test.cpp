// NAND die model: every illegal command raises a typed NandError and changes nothing.
#include <catch2/catch.hpp>

#include "tb/nand/nand_test_util.hpp"

namespace {

using namespace flint::tb::nand;  // NOLINT: test-local helpers
using flint::Config;
using flint::kSmallConfig;
using flint::model::Fault;
using flint::model::NandCmd;
using Code = flint::model::NandErrorCode;

}  // namespace

TEST_CASE("nand: commands to a busy plane are refused", "[nand][nand_errors][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  uint64_t t = LoadBlock(die, 0, 1, 0, 0);
  const uint64_t sensed = die.Read({PlaneBlock{0, 1}}, 0, t);
  const uint64_t mid = sensed - 1;
  REQUIRE_THROWS_MATCHES(die.Read({PlaneBlock{0, 2}}, 0, mid), NandError,
                         HasCode(Code::kPlaneBusy));
  REQUIRE_THROWS_MATCHES(die.CacheRead({PlaneBlock{0, 1}}, 1, mid), NandError,
                         HasCode(Code::kPlaneBusy));
  REQUIRE_THROWS_MATCHES(die.CacheEnd({0}, mid), NandError, HasCode(Code::kPlaneBusy));
  REQUIRE_THROWS_MATCHES(die.ProgramTagged(PageAddr{0, 2, 0}, PageTag{}, mid), NandError,
                         HasCode(Code::kPlaneBusy));
  REQUIRE_THROWS_MATCHES(die.Erase(0, 2, mid), NandError, HasCode(Code::kPlaneBusy));
  // Other planes are free meanwhile.
  CHECK(die.Erase(1, 2, mid).pass);
  // Busy through a program and an erase too.
  const auto e = die.Erase(1, 3, die.PlaneReadyAt(1));
  REQUIRE_THROWS_MATCHES(die.ProgramTagged(PageAddr{1, 2, 0}, PageTag{}, e.done_at - 1), NandError,
                         HasCode(Code::kPlaneBusy));
  REQUIRE_THROWS_MATCHES(die.Read({PlaneBlock{1, 2}}, 0, e.done_at - 1), NandError,
                         HasCode(Code::kPlaneBusy));
  CHECK(die.ProgramTagged(PageAddr{1, 2, 0}, PageTag{}, e.done_at).pass);
}

TEST_CASE("nand: out-of-range addresses are refused", "[nand][nand_errors][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  const auto P = static_cast<uint32_t>(cfg.phys_planes);
  const auto B = static_cast<uint32_t>(cfg.blocks);
  const auto G = static_cast<uint32_t>(cfg.pages);
  REQUIRE_THROWS_MATCHES(die.Read({PlaneBlock{P, 0}}, 0, 0), NandError, HasCode(Code::kOutOfRange));
  REQUIRE_THROWS_MATCHES(die.Read({PlaneBlock{0, B}}, 0, 0), NandError, HasCode(Code::kOutOfRange));
  REQUIRE_THROWS_MATCHES(die.Read({PlaneBlock{0, 0}}, G, 0), NandError, HasCode(Code::kOutOfRange));
  REQUIRE_THROWS_MATCHES(die.CacheEnd({P}, 0), NandError, HasCode(Code::kOutOfRange));
  REQUIRE_THROWS_MATCHES(die.ProgramTagged(PageAddr{0, 0, G}, PageTag{}, 0), NandError,
                         HasCode(Code::kOutOfRange));
  REQUIRE_THROWS_MATCHES(die.Erase(0, B, 0), NandError, HasCode(Code::kOutOfRange));
  REQUIRE_THROWS_MATCHES(die.DataOut(P, 0, 1, 0, nullptr), NandError, HasCode(Code::kOutOfRange));
  REQUIRE_THROWS_MATCHES(die.ProgramBlockTagged(0, 0, PageTag{}, G + 1, 0), NandError,
                         HasCode(Code::kOutOfRange));
  // Byte ranges past the page image (data + check bytes).
  uint64_t t = die.Read({PlaneBlock{0, 0}}, 0, 0);
  t = die.CacheEnd({0}, t).cache_ready_at;
  const uint32_t total = die.page_image_bytes();
  REQUIRE_THROWS_MATCHES(die.DataOut(0, total - 4, 5, t, nullptr), NandError,
                         HasCode(Code::kOutOfRange));
  REQUIRE_THROWS_MATCHES(die.DataOut(0, total, 1, t, nullptr), NandError,
                         HasCode(Code::kOutOfRange));
  CHECK(die.DataOut(0, total - 4, 4, t, nullptr) > t);  // the last bytes are fine
  // Queries refuse bad addresses too (std::out_of_range: they are not commands).
  CHECK_THROWS_AS(die.PlaneReadyAt(P), std::out_of_range);
  CHECK_THROWS_AS(die.DisturbCount(0, B), std::out_of_range);
}

TEST_CASE("nand: program of a page that is not erased is refused",
          "[nand][nand_errors][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  auto r = die.ProgramTagged(PageAddr{2, 5, 0}, PageTag{1, 0, 0}, 0);
  r = die.ProgramTagged(PageAddr{2, 5, 1}, PageTag{2, 0, 0}, r.done_at);
  REQUIRE_THROWS_MATCHES(die.ProgramTagged(PageAddr{2, 5, 0}, PageTag{9, 9, 9}, r.done_at),
                         NandError, HasCode(Code::kNotErased));
  REQUIRE_THROWS_MATCHES(
      die.ProgramBytes(PageAddr{2, 5, 1}, std::vector<uint8_t>(cfg.page_bytes), r.done_at),
      NandError, HasCode(Code::kNotErased));
  // The content is untouched by the refused program.
  CHECK(die.StoredImage(PageAddr{2, 5, 0}).tag == (PageTag{1, 0, 0}));
  // After an erase the page takes a program again.
  const auto e = die.Erase(2, 5, r.done_at);
  CHECK(die.ProgramTagged(PageAddr{2, 5, 0}, PageTag{9, 9, 9}, e.done_at).pass);
}

TEST_CASE("nand: program out of page order within a block is refused",
          "[nand][nand_errors][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  REQUIRE_THROWS_MATCHES(die.ProgramTagged(PageAddr{0, 0, 1}, PageTag{}, 0), NandError,
                         HasCode(Code::kOutOfOrder));
  const auto r = die.ProgramTagged(PageAddr{0, 0, 0}, PageTag{}, 0);
  REQUIRE_THROWS_MATCHES(die.ProgramTagged(PageAddr{0, 0, 5}, PageTag{}, r.done_at), NandError,
                         HasCode(Code::kOutOfOrder));
  CHECK(die.WritePointer(0, 0) == 1);
  // Other blocks keep their own write pointer.
  CHECK(die.ProgramTagged(PageAddr{0, 1, 0}, PageTag{}, r.done_at).pass);
  (void)cfg;
}

TEST_CASE("nand: data-out from an empty or filling cache buffer is refused",
          "[nand][nand_errors][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  REQUIRE_THROWS_MATCHES(die.DataOut(0, 0, 1, 0, nullptr), NandError, HasCode(Code::kCacheEmpty));
  const uint64_t sensed = die.Read({PlaneBlock{0, 0}}, 0, 0);
  // Sensed into the page buffer only: the cache buffer is still empty.
  REQUIRE_THROWS_MATCHES(die.DataOut(0, 0, 1, sensed, nullptr), NandError,
                         HasCode(Code::kCacheEmpty));
  const auto mv = die.CacheEnd({0}, sensed);
  if (cfg.t_cache_xfer_cycles > 0) {
    REQUIRE_THROWS_MATCHES(die.DataOut(0, 0, 1, mv.cache_ready_at - 1, nullptr), NandError,
                           HasCode(Code::kCacheBusy));
  }
  CHECK(die.DataOut(0, 0, 1, mv.cache_ready_at, nullptr) > mv.cache_ready_at);
  // A program goes through the buffers: they hold no sensed page afterwards.
  const auto r = die.ProgramTagged(PageAddr{0, 1, 0}, PageTag{}, die.IoBusyUntil());
  REQUIRE_THROWS_MATCHES(die.DataOut(0, 0, 1, r.done_at, nullptr), NandError,
                         HasCode(Code::kCacheEmpty));
  REQUIRE_THROWS_MATCHES(die.DataOut(0, 0, 0, r.done_at, nullptr), NandError,
                         HasCode(Code::kBadArgument));
}

TEST_CASE("nand: cache moves without a sensed page or during read-out are refused",
          "[nand][nand_errors][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  REQUIRE_THROWS_MATCHES(die.CacheRead({PlaneBlock{0, 0}}, 0, 0), NandError,
                         HasCode(Code::kPageBufferEmpty));
  REQUIRE_THROWS_MATCHES(die.CacheEnd({0}, 0), NandError, HasCode(Code::kPageBufferEmpty));
  uint64_t t = die.Read({PlaneBlock{0, 0}}, 0, 0);
  t = die.CacheRead({PlaneBlock{0, 0}}, 1, t).cache_ready_at;
  // Start reading the cache buffer out just before the next sense ends: a move when the sense
  // is done would overwrite the cache buffer in the middle of the transfer.
  const uint64_t sensed = die.PlaneReadyAt(0);
  REQUIRE(sensed >= t + 2);
  const uint64_t io_done = die.DataOut(0, 0, die.page_image_bytes(), sensed - 2, nullptr);
  REQUIRE(io_done > sensed);
  REQUIRE_THROWS_MATCHES(die.CacheEnd({0}, sensed), NandError, HasCode(Code::kCacheBusy));
  REQUIRE_THROWS_MATCHES(die.CacheRead({PlaneBlock{0, 0}}, 2, sensed), NandError,
                         HasCode(Code::kCacheBusy));
  CHECK(die.CacheEnd({0}, io_done).cache_ready_at == io_done + cfg.t_cache_xfer_cycles);
  // After CacheEnd the page buffer is empty: another 3Fh has nothing to move.
  REQUIRE_THROWS_MATCHES(die.CacheEnd({0}, die.PlaneReadyAt(0)), NandError,
                         HasCode(Code::kPageBufferEmpty));
}

TEST_CASE("nand: program and erase of a bad block are refused", "[nand][nand_errors][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  die.MarkBad(1, 7);
  CHECK(die.IsBad(1, 7));
  REQUIRE_THROWS_MATCHES(die.Erase(1, 7, 0), NandError, HasCode(Code::kBadBlock));
  REQUIRE_THROWS_MATCHES(die.ProgramTagged(PageAddr{1, 7, 0}, PageTag{}, 0), NandError,
                         HasCode(Code::kBadBlock));
  REQUIRE_THROWS_MATCHES(die.ProgramBlockTagged(1, 7, PageTag{}, 4, 0), NandError,
                         HasCode(Code::kBadBlock));
  CHECK(die.PeCycles(1, 7) == 0);  // the refused erase did not count
  // Reading a grown-bad block is allowed (a controller salvages its pages).
  CHECK(die.Read({PlaneBlock{1, 7}}, 0, 0) == cfg.t_read_cycles);
}

TEST_CASE("nand: malformed multi-plane commands are refused", "[nand][nand_errors][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  REQUIRE_THROWS_MATCHES(die.Read({}, 0, 0), NandError, HasCode(Code::kBadArgument));
  REQUIRE_THROWS_MATCHES(die.CacheEnd({}, 0), NandError, HasCode(Code::kBadArgument));
  REQUIRE_THROWS_MATCHES(die.Read({PlaneBlock{1, 0}, PlaneBlock{1, 3}}, 0, 0), NandError,
                         HasCode(Code::kDuplicatePlane));
  REQUIRE_THROWS_MATCHES(die.ProgramBytes(PageAddr{0, 0, 0}, std::vector<uint8_t>(7), 0), NandError,
                         HasCode(Code::kBadArgument));
  REQUIRE_THROWS_MATCHES(die.ProgramBlockTagged(0, 0, PageTag{}, 0, 0), NandError,
                         HasCode(Code::kBadArgument));
  // A refused multi-plane read changes no plane, even those listed before the bad one.
  REQUIRE_THROWS_MATCHES(die.Read({PlaneBlock{0, 0}, PlaneBlock{2, 0}, PlaneBlock{9, 0}}, 0, 0),
                         NandError, HasCode(Code::kOutOfRange));
  CHECK(die.PageBuffer(0) == nullptr);
  CHECK_FALSE(die.PlaneBusy(0, 0));
  CHECK(die.DisturbCount(0, 0) == 0);
  CHECK(die.counters().senses == 0);
  (void)cfg;
}

TEST_CASE("nand: a command dated before the previous one is refused",
          "[nand][nand_errors][directed]") {
  NandDie die(kSmallConfig, 0, 1, QuietOptions());
  die.Erase(0, 0, 1000);
  REQUIRE_THROWS_MATCHES(die.Erase(1, 0, 999), NandError, HasCode(Code::kTimeReversal));
  REQUIRE_THROWS_MATCHES(die.Read({PlaneBlock{1, 0}}, 0, 10), NandError,
                         HasCode(Code::kTimeReversal));
  CHECK(die.Erase(1, 0, 1000).pass);  // the same cycle is fine
}

TEST_CASE("nand: a program needs the die I/O for its data-in", "[nand][nand_errors][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  uint64_t t = die.Read({PlaneBlock{0, 0}}, 0, 0);
  t = die.CacheEnd({0}, t).cache_ready_at;
  const uint64_t io_done = die.DataOut(0, 0, die.page_image_bytes(), t, nullptr);
  REQUIRE_THROWS_MATCHES(die.ProgramTagged(PageAddr{4, 0, 0}, PageTag{}, io_done - 1), NandError,
                         HasCode(Code::kIoBusy));
  const auto r = die.ProgramTagged(PageAddr{4, 0, 0}, PageTag{}, io_done);
  CHECK(r.pass);
  // And its data-in holds the I/O against data-out.
  REQUIRE_THROWS_MATCHES(die.DataOut(0, 0, 1, io_done, nullptr), NandError, HasCode(Code::kIoBusy));
}

TEST_CASE("nand: error messages name the command address and cycle",
          "[nand][nand_errors][directed]") {
  NandDie die(kSmallConfig, 3, 1, QuietOptions());
  const auto r = die.ProgramTagged(PageAddr{2, 6, 0}, PageTag{}, 50);
  try {
    die.ProgramTagged(PageAddr{2, 6, 0}, PageTag{}, r.done_at);
    FAIL("no error");
  } catch (const NandError& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(e.code() == Code::kNotErased);
    CHECK(e.cmd() == NandCmd::kProgram);
    CHECK(e.plane() == 2);
    CHECK(e.block() == 6);
    CHECK(e.page() == 0);
    CHECK(e.cycle() == r.done_at);
    CHECK(msg.find("nand die 3") != std::string::npos);
    CHECK(msg.find("plane 2 block 6 page 0") != std::string::npos);
    CHECK(msg.find("cycle " + std::to_string(r.done_at)) != std::string::npos);
    CHECK(msg.find("not_erased") != std::string::npos);
  }
}

TEST_CASE("nand: injected program and erase faults fail once with status",
          "[nand][nand_errors][directed]") {
  NandDie die(kSmallConfig, 0, 1, QuietOptions());
  die.InjectFault(0, 2, Fault::kEraseFail);
  const auto e = die.Erase(0, 2, 0);
  CHECK_FALSE(e.pass);
  CHECK(die.Status(0, e.done_at).fail);
  CHECK(die.BadState(0, 2) == flint::model::BadBlock::kEraseFail);
  CHECK(die.counters().erase_fails == 1);
  REQUIRE_THROWS_MATCHES(die.Erase(0, 2, e.done_at), NandError, HasCode(Code::kBadBlock));
  // A failed program leaves undefined charge: the page no longer reads as what was sent.
  die.InjectFault(1, 2, Fault::kProgramFail);
  const auto p = die.ProgramTagged(PageAddr{1, 2, 0}, PageTag{5, 5, 5}, e.done_at);
  CHECK_FALSE(p.pass);
  CHECK(die.StoredImage(PageAddr{1, 2, 0}).kind == flint::model::ContentKind::kGarbage);
  CHECK(die.WritePointer(1, 2) == 1);
}
