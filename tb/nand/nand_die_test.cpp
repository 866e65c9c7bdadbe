// NAND die model: commands, timing, cache-read pipelining, program/erase, status, energy.
#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <sstream>

#include "tb/common/seed.hpp"
#include "tb/nand/nand_test_util.hpp"

namespace {

using namespace flint::tb::nand;  // NOLINT: test-local helpers
using flint::Config;
using flint::kMediumConfig;
using flint::kPaperConfig;
using flint::kSmallConfig;
using flint::model::CacheMove;
using flint::model::Fault;
using flint::model::NandCmd;
using flint::model::NandCommand;

// Distinct blocks per plane: shows independent plane addressing in every multi-plane test.
uint32_t SpreadBlock(const Config& cfg, uint32_t plane) {
  return static_cast<uint32_t>((plane * 3 + 1) % cfg.blocks);
}

// Load the blocks SpreadBlock names on every logical plane; returns when all are done.
uint64_t LoadSpread(NandDie& die) {
  const Config& cfg = die.config();
  uint64_t done = 0;
  for (uint32_t p = 0; p < cfg.planes; ++p) {
    done = std::max(done, LoadBlock(die, p, SpreadBlock(cfg, p), p, 0));
  }
  return done;
}

}  // namespace

TEST_CASE("nand: command opcodes equal flint_pkg nand_cmd_e", "[nand][nand_die][smoke]") {
  std::ifstream in(std::string(FLINT_SOURCE_DIR) + "/rtl/flint_pkg.sv");
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string sv = ss.str();
  const std::pair<const char*, NandCmd> names[] = {
      {"NandCmdRead", NandCmd::kRead},         {"NandCmdCacheRead", NandCmd::kCacheRead},
      {"NandCmdCacheEnd", NandCmd::kCacheEnd}, {"NandCmdDataOut", NandCmd::kDataOut},
      {"NandCmdProgram", NandCmd::kProgram},   {"NandCmdErase", NandCmd::kErase},
  };
  for (const auto& [name, cmd] : names) {
    INFO(name);
    std::smatch m;
    REQUIRE(std::regex_search(sv, m, std::regex(std::string(name) + R"(\s*=\s*3'd(\d+))")));
    CHECK(std::stoul(m[1]) == static_cast<unsigned>(cmd));
  }
  std::smatch w;
  REQUIRE(std::regex_search(sv, w, std::regex(R"(NandCmdWidth\s*=\s*(\d+))")));
  CHECK(std::stoul(w[1]) == flint::model::kNandCmdWidth);
}

TEST_CASE("nand: multi-plane read senses each plane's own block after tR",
          "[nand][nand_die][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  const uint64_t t0 = LoadSpread(die);
  const uint32_t page = 5;
  const auto targets = LogicalTargets(cfg, [&](uint32_t p) { return SpreadBlock(cfg, p); });
  const uint64_t ready = die.Read(targets, page, t0);
  REQUIRE(ready == t0 + cfg.t_read_cycles);
  for (uint32_t p = 0; p < cfg.planes; ++p) {
    CHECK(die.PlaneBusy(p, ready - 1));
    CHECK_FALSE(die.PlaneBusy(p, ready));
    CHECK_FALSE(die.Status(p, ready - 1).ready);
    CHECK(die.Status(p, ready).ready);
    const auto* pb = die.PageBuffer(p);
    REQUIRE(pb != nullptr);
    CHECK(pb->addr.block == SpreadBlock(cfg, p));
    CHECK(pb->addr.page == page);
    CHECK(pb->sensed_at == ready);
    CHECK(die.CacheBuffer(p) == nullptr);  // a plain read leaves the cache buffer alone
  }
  // The phantom plane took no part.
  CHECK_FALSE(die.PlaneBusy(static_cast<uint32_t>(cfg.planes), t0));
  CHECK(die.PageBuffer(static_cast<uint32_t>(cfg.planes)) == nullptr);
  // Move to the cache buffers and read every plane out: each plane its own block's page.
  std::vector<uint32_t> planes;
  for (uint32_t p = 0; p < cfg.planes; ++p) planes.push_back(p);
  const CacheMove mv = die.CacheEnd(planes, ready);
  CHECK(mv.cache_ready_at == ready + cfg.t_cache_xfer_cycles);
  uint64_t t = mv.cache_ready_at;
  for (uint32_t p = 0; p < cfg.planes; ++p) {
    const auto bytes = die.DataOutBytes(p, 0, die.page_image_bytes(), t);
    CHECK(bytes == Expected(die, LoadTag(cfg, p, SpreadBlock(cfg, p), page)));
    t = die.IoBusyUntil();
  }
  CHECK(die.counters().senses == cfg.planes);
  CHECK(die.DisturbCount(0, SpreadBlock(cfg, 0)) == 1);
}

TEST_CASE("nand: two-burst cache-read pipeline overlaps the second sense with the first drain",
          "[nand][nand_die][directed]") {
  for (const Config* cfgp : {&kSmallConfig, &kMediumConfig, &kPaperConfig}) {
    const Config& cfg = *cfgp;
    INFO("config " << cfg.name);
    NandDie die(cfg, 0, 7, QuietOptions());
    const uint64_t t0 = LoadSpread(die);
    const auto targets = LogicalTargets(cfg, [&](uint32_t p) { return SpreadBlock(cfg, p); });
    // A page drains as its whole image (data + check bytes) at the I/O rate, exactly.
    REQUIRE(cfg.page_image_bytes % cfg.die_io_bytes_per_cycle == 0);
    const uint64_t page_out = cfg.page_image_bytes / cfg.die_io_bytes_per_cycle;
    REQUIRE(cfg.planes * page_out == cfg.drain_cycles);

    // Burst 1 (page 0): sensed in tR.
    const uint64_t sensed1 = die.Read(targets, 0, t0);
    REQUIRE(sensed1 == t0 + cfg.t_read_cycles);
    REQUIRE_THROWS_MATCHES(die.CacheRead(targets, 1, sensed1 - 1), NandError,
                           HasCode(NandErrorCode::kPlaneBusy));
    // 31h: burst 1 to the cache buffers, burst 2 (page 1) sense starts right after the move.
    const CacheMove m1 = die.CacheRead(targets, 1, sensed1);
    REQUIRE(m1.cache_ready_at == sensed1 + cfg.t_cache_xfer_cycles);
    REQUIRE(m1.array_ready_at == m1.cache_ready_at + cfg.t_read_cycles);
    REQUIRE(die.PageBuffer(0)->addr.page == 1);
    REQUIRE(die.PageBuffer(0)->sensed_at == m1.array_ready_at);  // the sense starts after the move
    REQUIRE(die.CacheBuffer(0)->addr.page == 0);
    if (cfg.t_cache_xfer_cycles > 0) {
      REQUIRE_THROWS_MATCHES(die.DataOut(0, 0, 1, sensed1, nullptr), NandError,
                             HasCode(NandErrorCode::kCacheBusy));
    }
    // Drain burst 1 through the die I/O while burst 2 senses.
    uint64_t t = m1.cache_ready_at;
    for (uint32_t p = 0; p < cfg.planes; ++p) {
      CHECK(die.PlaneBusy(p, t));  // burst 2 still sensing on every plane
      const auto bytes = die.DataOutBytes(p, 0, die.page_image_bytes(), t);
      CHECK(die.IoBusyUntil() == t + page_out);
      CHECK(bytes == Expected(die, LoadTag(cfg, p, SpreadBlock(cfg, p), 0)));
      t = die.IoBusyUntil();
    }
    const uint64_t drain1_end = t;
    REQUIRE(drain1_end - m1.cache_ready_at == cfg.drain_cycles);
    // The overlap: burst 2's sense [cache_ready, array_ready) against burst 1's drain.
    // Both start at the move's end.
    const uint64_t overlap = std::min(m1.array_ready_at, drain1_end) - m1.cache_ready_at;
    CHECK(overlap == std::min(cfg.t_read_cycles, cfg.drain_cycles));
    CHECK(overlap > 0);
    // Burst 2 moves when both its sense and burst 1's drain are done: one burst period later.
    const uint64_t t2 = std::max(m1.array_ready_at, drain1_end);
    CHECK(t2 - sensed1 == cfg.burst_period_cycles);
    std::vector<uint32_t> planes;
    for (uint32_t p = 0; p < cfg.planes; ++p) planes.push_back(p);
    const CacheMove m2 = die.CacheEnd(planes, t2);
    REQUIRE(die.PageBuffer(0) == nullptr);
    t = m2.cache_ready_at;
    for (uint32_t p = 0; p < cfg.planes; ++p) {
      const auto bytes = die.DataOutBytes(p, 0, die.page_image_bytes(), t);
      CHECK(bytes == Expected(die, LoadTag(cfg, p, SpreadBlock(cfg, p), 1)));
      t = die.IoBusyUntil();
    }
    CHECK(t - m2.cache_ready_at == cfg.drain_cycles);
    CHECK(die.counters().senses == 2 * cfg.planes);
    CHECK(die.counters().cache_xfers == 2 * cfg.planes);
  }
}

TEST_CASE("nand: steady-state cache read delivers one burst per burst period",
          "[nand][nand_die][directed]") {
  for (const Config* cfgp : {&kSmallConfig, &kPaperConfig}) {
    const Config& cfg = *cfgp;
    INFO("config " << cfg.name);
    NandDie die(cfg, 2, 11, QuietOptions());
    const uint64_t t0 = LoadSpread(die);
    const auto targets = LogicalTargets(cfg, [&](uint32_t p) { return SpreadBlock(cfg, p); });
    const uint32_t bursts = 8;
    REQUIRE(cfg.cl_image_bytes % cfg.die_io_bytes_per_cycle == 0);
    const uint64_t cl_out = cfg.cl_image_bytes / cfg.die_io_bytes_per_cycle;
    uint64_t move_at = die.Read(targets, 0, t0);
    uint64_t prev_move = 0;
    for (uint32_t k = 0; k < bursts; ++k) {
      INFO("burst " << k);
      const CacheMove m = die.CacheRead(targets, k + 1, move_at);
      if (k > 0) CHECK(move_at - prev_move == cfg.burst_period_cycles);
      prev_move = move_at;
      uint64_t t = m.cache_ready_at;
      for (uint32_t p = 0; p < cfg.planes; ++p) {
        // Cache-line data-outs with their check bytes, as the BBC drains them.
        for (uint32_t line = 0; line < cfg.cl_per_page; ++line) {
          const auto off = static_cast<uint32_t>(line * cfg.cl_image_bytes);
          const auto cl = die.DataOutBytes(p, off, static_cast<uint32_t>(cfg.cl_image_bytes), t);
          CHECK(die.IoBusyUntil() == t + cl_out);
          t = die.IoBusyUntil();
          if (line == 1) {  // spot-check one line per page
            CHECK(cl == flint::model::ExpectedLineImage(
                            cfg, LoadTag(cfg, p, SpreadBlock(cfg, p), k), line, die.spare_fn()));
          }
        }
      }
      CHECK(t - m.cache_ready_at == cfg.drain_cycles);
      move_at = std::max(t, die.PlaneReadyAt(0));
    }
    // Sustained rate: planes x page_image_bytes every burst period.
    CHECK(die.counters().out_bytes == uint64_t{bursts} * cfg.planes * cfg.page_image_bytes);
  }
}

TEST_CASE("nand: data-out holds the shared die I/O for bytes over rate cycles",
          "[nand][nand_die][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  const uint64_t t0 = LoadSpread(die);
  const auto targets = LogicalTargets(cfg, [&](uint32_t p) { return SpreadBlock(cfg, p); });
  const uint64_t t1 = die.Read(targets, 3, t0);
  std::vector<uint32_t> planes{0, 1};
  const uint64_t t = die.CacheEnd(planes, t1).cache_ready_at;
  const uint64_t rate = cfg.die_io_bytes_per_cycle;
  // A partial last cycle still costs the whole cycle.
  const uint32_t n = static_cast<uint32_t>(rate + 1);
  const uint64_t done = die.DataOut(0, 0, n, t, nullptr);
  CHECK(done == t + 2);
  // One I/O per die: another plane's data-out must wait.
  REQUIRE_THROWS_MATCHES(die.DataOut(1, 0, 8, done - 1, nullptr), NandError,
                         HasCode(NandErrorCode::kIoBusy));
  CHECK(die.DataOut(1, 0, static_cast<uint32_t>(4 * rate), done, nullptr) == done + 4);
  // A whole page image (data + check bytes) takes page_image_bytes / rate.
  const uint64_t whole = die.DataOut(1, 0, die.page_image_bytes(), done + 4, nullptr);
  CHECK(whole == done + 4 + cfg.page_image_bytes / rate);
  // The cache buffer keeps its page: reading it again gives the same bytes.
  const auto a = die.DataOutBytes(0, 0, 64, whole);
  const auto b = die.DataOutBytes(0, 0, 64, die.IoBusyUntil());
  CHECK(a == b);
  CHECK(die.counters().out_bytes == n + 4 * rate + cfg.page_image_bytes + 128);
}

TEST_CASE("nand: program then read returns the programmed bytes", "[nand][nand_die][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  // A toy per-word check function (not the ECC code: any data bit changes it).
  die.SetSpareFn(FoldCheck);
  // Data-in carries the whole image, an exact number of I/O cycles.
  REQUIRE(cfg.page_image_bytes % cfg.die_io_bytes_per_cycle == 0);
  const uint64_t din = cfg.page_image_bytes / cfg.die_io_bytes_per_cycle;
  std::vector<uint8_t> main(cfg.page_bytes);
  for (std::size_t i = 0; i < main.size(); ++i) main[i] = static_cast<uint8_t>(i * 7 + 3);
  // Page 0: data only; the die interleaves the check bytes of the installed function.
  const auto r0 = die.ProgramBytes(PageAddr{2, 4, 0}, main, 100);
  CHECK(r0.pass);
  CHECK(r0.done_at == 100 + din + cfg.t_prog_cycles);
  CHECK(die.IoBusyUntil() == 100 + din);
  CHECK_FALSE(die.Status(2, r0.done_at - 1).ready);
  CHECK(die.Status(2, r0.done_at).ready);
  CHECK_FALSE(die.Status(2, r0.done_at).fail);
  // Page 1: a whole image given explicitly (stored as given, check bytes included).
  std::vector<uint8_t> full(cfg.page_image_bytes, 0x5A);
  full[0] = 1;
  const auto r1 = die.ProgramBytes(PageAddr{2, 4, 1}, full, r0.done_at);
  CHECK(r1.pass);
  // Page 2: tagged.
  const PageTag tag{12345, 9, 3};
  const auto r2 = die.ProgramTagged(PageAddr{2, 4, 2}, tag, r1.done_at);
  CHECK(die.WritePointer(2, 4) == 3);
  uint64_t t = r2.done_at;
  auto read_page = [&](uint32_t page) {
    t = die.Read({PlaneBlock{2, 4}}, page, t);
    t = die.CacheEnd({2}, t).cache_ready_at;
    auto bytes = die.DataOutBytes(2, 0, die.page_image_bytes(), t);
    t = die.IoBusyUntil();
    return bytes;
  };
  CHECK(read_page(0) == InterleaveRef(main, FoldCheck));
  CHECK(read_page(1) == full);
  CHECK(read_page(2) == Expected(die, tag));
  std::vector<uint8_t> tag_data(cfg.page_bytes);
  flint::model::TagBytes(tag, 0, tag_data.size(), tag_data.data());
  CHECK(Expected(die, tag) == InterleaveRef(tag_data, FoldCheck));
  CHECK(read_page(3) == std::vector<uint8_t>(die.page_image_bytes(), 0xFF));  // erased
  CHECK(die.counters().program_cmds == 3);
  CHECK(die.counters().programmed_bytes == uint64_t{3} * die.page_image_bytes());
}

TEST_CASE("nand: erase returns a block to erased and counts a P/E cycle",
          "[nand][nand_die][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  uint64_t t = LoadBlock(die, 1, 6, 0, 0);
  t = die.Read({PlaneBlock{1, 6}}, 0, t);
  t = die.Read({PlaneBlock{1, 6}}, 1, t);
  CHECK(die.DisturbCount(1, 6) == 2);
  CHECK(die.RetentionAge(1, 6, t + 10) > 0);
  const auto e = die.Erase(1, 6, t);
  CHECK(e.pass);
  CHECK(e.done_at == t + cfg.t_erase_cycles);
  CHECK(die.PlaneBusy(1, e.done_at - 1));
  CHECK(die.PeCycles(1, 6) == 1);
  CHECK(die.DisturbCount(1, 6) == 0);
  CHECK(die.WritePointer(1, 6) == 0);
  CHECK(die.RetentionAge(1, 6, e.done_at + 1000) == 0);
  CHECK(die.StoredImage(PageAddr{1, 6, 0}).kind == flint::model::ContentKind::kErased);
  // Erasing one block does not disturb another plane's work.
  CHECK_FALSE(die.PlaneBusy(0, t));
  // Programmable again from page 0.
  CHECK(die.ProgramTagged(PageAddr{1, 6, 0}, PageTag{1, 2, 3}, e.done_at).pass);
}

TEST_CASE("nand: status register reports busy ready and fail", "[nand][nand_die][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  die.InjectFault(0, 3, Fault::kProgramFail);
  const auto r = die.ProgramTagged(PageAddr{0, 3, 0}, PageTag{}, 10);
  CHECK_FALSE(r.pass);
  auto s = die.Status(0, r.done_at - 1);
  CHECK_FALSE(s.ready);
  CHECK_FALSE(s.array_ready);
  CHECK_FALSE(s.fail);  // FAIL is valid only once ready
  s = die.Status(0, r.done_at);
  CHECK(s.ready);
  CHECK(s.fail);
  CHECK(die.BadState(0, 3) == flint::model::BadBlock::kProgramFail);
  // A later good operation on the plane clears FAIL.
  const auto e = die.Erase(0, 4, r.done_at);
  CHECK(e.pass);
  CHECK_FALSE(die.Status(0, e.done_at).fail);
  CHECK(die.counters().program_fails == 1);
}

TEST_CASE("nand: energy counters follow the config's per-bit figures",
          "[nand][nand_die][directed]") {
  const Config& cfg = kMediumConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  uint64_t t = LoadBlock(die, 0, 0, 0, 0);  // pages programs
  t = die.Erase(1, 0, t).done_at;
  t = die.Read({PlaneBlock{0, 0}, PlaneBlock{1, 0}}, 0, t);  // two senses
  t = die.CacheEnd({0}, t).cache_ready_at;
  die.DataOut(0, 0, 100, t, nullptr);
  const double page_bits = 8.0 * static_cast<double>(cfg.page_image_bytes);
  const auto e = die.Energy();
  CHECK(e.read_pj == Approx(2 * page_bits * cfg.read_pj_per_bit));
  CHECK(e.program_pj == Approx(static_cast<double>(cfg.pages) * page_bits * cfg.prog_pj_per_bit));
  CHECK(e.erase_pj == Approx(cfg.erase_nj_per_block * 1000.0));
  CHECK(e.TotalPj() == Approx(e.read_pj + e.program_pj + e.erase_pj));
  const auto& c = die.counters();
  CHECK(c.senses == 2);
  CHECK(c.read_cmds == 1);
  CHECK(c.erase_cmds == 1);
  CHECK(c.program_cmds == cfg.pages);
  CHECK(c.out_bytes == 100);
  CHECK(c.data_out_cmds == 1);
  CHECK(c.cache_end_cmds == 1);
}

TEST_CASE("nand: apply maps each port command onto the model", "[nand][nand_die][directed]") {
  const Config& cfg = kSmallConfig;
  NandDie die(cfg, 0, 1, QuietOptions());
  NandCommand prog;
  prog.op = NandCmd::kProgram;
  prog.targets = {PlaneBlock{3, 2}};
  prog.page = 0;
  prog.data.assign(cfg.page_bytes, 0x3C);
  auto r = die.Apply(prog, 0);
  CHECK(r.pass);
  NandCommand read;
  read.op = NandCmd::kRead;
  read.targets = {PlaneBlock{3, 2}, PlaneBlock{0, 1}};
  read.page = 0;
  r = die.Apply(read, r.done_at);
  const uint64_t sensed = r.done_at;
  NandCommand cache;
  cache.op = NandCmd::kCacheRead;
  cache.targets = {PlaneBlock{3, 2}};
  cache.page = 1;
  r = die.Apply(cache, sensed);
  CHECK(r.done_at == sensed + cfg.t_cache_xfer_cycles);
  NandCommand out;
  out.op = NandCmd::kDataOut;
  out.targets = {PlaneBlock{3, 0}};
  out.offset = 4;
  out.nbytes = 8;
  r = die.Apply(out, r.done_at);
  // Image bytes 4..11: data bytes 4..7, word 0's check byte (erased hook: 0xFF), data 8..10.
  CHECK(r.data == std::vector<uint8_t>{0x3C, 0x3C, 0x3C, 0x3C, 0xFF, 0x3C, 0x3C, 0x3C});
  NandCommand end;
  end.op = NandCmd::kCacheEnd;
  end.targets = {PlaneBlock{3, 0}};
  r = die.Apply(end, die.PlaneReadyAt(3));
  NandCommand erase;
  erase.op = NandCmd::kErase;
  erase.targets = {PlaneBlock{3, 2}};
  r = die.Apply(erase, r.done_at);
  CHECK(r.pass);
  CHECK(die.PeCycles(3, 2) == 1);
  // Single-plane opcodes refuse a target list of another length.
  erase.targets = {PlaneBlock{3, 2}, PlaneBlock{2, 2}};
  REQUIRE_THROWS_MATCHES(die.Apply(erase, r.done_at), NandError,
                         HasCode(NandErrorCode::kBadArgument));
}

TEST_CASE("nand: program data-in can be taken off the die I/O", "[nand][nand_die][directed]") {
  const Config& cfg = kSmallConfig;
  NandOptions opt = QuietOptions();
  opt.program_data_in_on_io = false;
  NandDie die(cfg, 0, 1, opt);
  uint64_t t = LoadBlock(die, 0, 0, 0, 0);
  CHECK(t == cfg.pages * cfg.t_prog_cycles);  // no data-in time at all
  t = die.Read({PlaneBlock{0, 0}}, 0, t);
  t = die.CacheEnd({0}, t).cache_ready_at;
  const uint64_t io_done = die.DataOut(0, 0, die.page_image_bytes(), t, nullptr);
  // The phantom plane programs while plane 0 drains.
  CHECK(die.ProgramTagged(PageAddr{4, 0, 0}, PageTag{}, t).pass);
  CHECK(die.IoBusyUntil() == io_done);
}

// Preload (flint_top's mount in simulation): the block as erase + programs leave it, with no
// time passing and nothing counted; refused where the real operations would be.
TEST_CASE("nand: preload leaves what erase and program leave, and refuses what they refuse",
          "[nand][nand_die]") {
  const Config& cfg = kSmallConfig;
  NandDie loaded(cfg, 0, 1, QuietOptions());
  NandDie preloaded(cfg, 0, 1, QuietOptions());
  // A block programmed through the commands: erase, then three pages.
  uint64_t t = loaded.Erase(1, 2, 0).done_at;
  std::vector<flint::model::PageImage> pages;
  for (uint32_t pg = 0; pg < 3; ++pg) {
    const PageTag tag{100 + 7 * uint64_t{pg}, 5, 1};  // not consecutive: overrides
    t = loaded.ProgramTagged(PageAddr{1, 2, pg}, tag, t).done_at;
    flint::model::PageImage img;
    img.kind = flint::model::ContentKind::kTagged;
    img.tag = tag;
    pages.push_back(img);
  }
  preloaded.Preload(1, 2, true, pages, 0);
  REQUIRE(preloaded.PeCycles(1, 2) == loaded.PeCycles(1, 2));
  REQUIRE(preloaded.WritePointer(1, 2) == 3);
  for (uint32_t pg = 0; pg < 3; ++pg) {
    std::vector<uint8_t> a(cfg.page_image_bytes), b(cfg.page_image_bytes);
    flint::model::MaterialiseImage(cfg, loaded.StoredImage(PageAddr{1, 2, pg}), loaded.spare_fn(),
                                   0, a.size(), a.data());
    flint::model::MaterialiseImage(cfg, preloaded.StoredImage(PageAddr{1, 2, pg}),
                                   preloaded.spare_fn(), 0, b.size(), b.data());
    REQUIRE(a == b);
  }
  // Nothing ran: no busy plane, no command counted; a read of the preloaded page works at once.
  REQUIRE_FALSE(preloaded.PlaneBusy(1, 0));
  REQUIRE(preloaded.counters().program_cmds == 0);
  REQUIRE(preloaded.counters().erase_cmds == 0);
  const uint64_t sensed = preloaded.Read({{1, 2}}, 1, 0);
  REQUIRE(sensed == cfg.t_read_cycles);
  // Without erase: only on an erased block, and the erase count stays.
  preloaded.Preload(0, 0, false, pages, sensed);
  REQUIRE(preloaded.PeCycles(0, 0) == 0);
  REQUIRE_THROWS_MATCHES(preloaded.Preload(0, 0, false, pages, sensed), NandError,
                         HasCode(NandErrorCode::kBadArgument));
  // More pages than a block has; a bad block; a busy plane.
  std::vector<flint::model::PageImage> too_many(cfg.pages + 1, pages[0]);
  REQUIRE_THROWS_MATCHES(preloaded.Preload(0, 1, true, too_many, sensed), NandError,
                         HasCode(NandErrorCode::kBadArgument));
  preloaded.MarkBad(0, 3);
  REQUIRE_THROWS_MATCHES(preloaded.Preload(0, 3, true, pages, sensed), NandError,
                         HasCode(NandErrorCode::kBadBlock));
  const uint64_t busy = preloaded.Erase(2, 0, sensed).done_at;
  REQUIRE_THROWS_MATCHES(preloaded.Preload(2, 1, true, pages, busy - 1), NandError,
                         HasCode(NandErrorCode::kPlaneBusy));
}
