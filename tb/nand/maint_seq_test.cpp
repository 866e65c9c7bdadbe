// flint_maint_seq (rtl/nand/, docs/nand_seq.md) behind its flint_die_port, attached to the NAND
// die model as the oracle (tb/nand/maint_seq_tb.hpp says what every cycle checks). Directed:
// programs of a block's pages in order read back; erase then read; a never-programmed page;
// injected program and erase failures answered and survived; injected bit errors corrected or
// flagged per line, poisoned lines read back uncorrectable; the park held off by the controller
// side; an address past the die refused. Seeded random: a legal mix of transactions over several
// blocks and planes with back-pressure, gaps, park delays, faults and corruption, every line
// read back checked against the shadow.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "Vmaint2_small.h"
#include "Vmaint_paper.h"
#include "Vmaint_small.h"
#include "flint_config.hpp"
#include "tb/common/seed.hpp"
#include "tb/nand/maint_seq_tb.hpp"

namespace {

using flint::MaintOp;
using flint::MaintReq;
using flint::MaintRsp;
using flint::MaintStatus;
using flint::Status;
using flint::tb::MaintTxn;
// The sequencer as flint_top builds it (OutDepth 0: each line to the client as it comes back),
// and with a two-line FIFO (OutDepth 2) for clients that back-pressure.
using Bench = flint::tb::MaintBench<Vmaint_small>;
using BufferedBench = flint::tb::MaintBench<Vmaint2_small>;

const flint::Config& Small() { return flint::kSmallConfig; }

MaintTxn Req(MaintOp op, uint32_t plane, uint32_t block, uint32_t page = 0) {
  MaintTxn t;
  t.req = MaintReq{op, plane, block, page};
  return t;
}

template <class B>
void RequireClean(const B& b) {
  INFO(b.Error());
  REQUIRE(b.errors() == 0);
  REQUIRE_FALSE(b.Failed());
}

}  // namespace

TEST_CASE("maint_seq: the C++ mirror packs as the RTL struct", "[nand][maint_seq][smoke]") {
  const MaintReq r{MaintOp::kProgramPage, 0xA5, 0xBEEF, 0x1234, 0xC3};
  REQUIRE(flint::kMaintReqBits == 50);
  REQUIRE(flint::kMaintRspBits == 53);
  REQUIRE(r.Pack() == ((uint64_t{0xC3} << 42) | (uint64_t{1} << 40) | (uint64_t{0xA5} << 32) |
                       (uint64_t{0xBEEF} << 16) | 0x1234));
  const MaintReq back = MaintReq::Unpack(r.Pack());
  REQUIRE((back.op == r.op && back.plane == r.plane && back.block == r.block &&
           back.page == r.page && back.tag == 0xC3));
  const MaintRsp s{MaintOp::kEraseBlock, MaintStatus::kEraseFail, 3, 7, 9, 0x5A};
  const MaintRsp sb = MaintRsp::Unpack(s.Pack());
  REQUIRE((sb.op == s.op && sb.status == s.status && sb.plane == 3 && sb.block == 7 &&
           sb.page == 9 && sb.tag == 0x5A));
  REQUIRE(s.Pack() >> 45 == 0x5A);
  REQUIRE(((s.Pack() >> 43) & 3) == 2);
  REQUIRE(((s.Pack() >> 40) & 7) == 4);
  // The tag is the MSB field: a tag of all ones is the top 8 bits of each.
  REQUIRE(MaintReq{MaintOp::kReadPage, 0, 0, 0, 0xFF}.Pack() == uint64_t{0xFF} << 42);
  REQUIRE(MaintRsp{MaintOp::kReadPage, MaintStatus::kOk, 0, 0, 0, 0xFF}.Pack() == uint64_t{0xFF}
                                                                                      << 45);
}

TEST_CASE("maint_seq: a block programmed in page order reads back", "[nand][maint_seq][directed]") {
  const flint::Config& cfg = Small();
  Bench b(cfg, flint::tb::TestSeed());
  const uint32_t plane = static_cast<uint32_t>(cfg.planes), block = 3;  // the extra plane
  std::vector<MaintTxn> progs;
  for (uint32_t p = 0; p < cfg.pages; ++p) {
    progs.push_back(b.RandomProgram(plane, block, p));
    REQUIRE(b.Run(progs.back()).status == MaintStatus::kOk);
    REQUIRE(b.park_during_write() == 0);  // a program never parks the controller
  }
  REQUIRE(b.WritePointer(plane, block) == cfg.pages);
  for (uint32_t p = 0; p < cfg.pages; ++p) {
    const MaintRsp rsp = b.Run(Req(MaintOp::kReadPage, plane, block, p));
    REQUIRE(rsp.status == MaintStatus::kOk);
    REQUIRE(b.last_lines() == progs[p].lines);
  }
  // Latency of one read at small with no back-pressure: accept, park, Read, tR, CacheEnd,
  // xfer, a line a data-out, response (docs/nand_seq.md).
  INFO("read latency " << b.responded_at() - b.accepted_at());
  REQUIRE(b.responded_at() - b.accepted_at() <=
          cfg.t_read_cycles + cfg.t_cache_xfer_cycles + 2 * cfg.cl_per_page + 8);
  REQUIRE(b.responses() == 2 * cfg.pages);
  RequireClean(b);
}

TEST_CASE("maint_seq: programs on every plane are in flight at once",
          "[nand][maint_seq][directed]") {
  const flint::Config& cfg = Small();
  Bench b(cfg, flint::tb::TestSeed());
  const auto pp = static_cast<uint32_t>(cfg.phys_planes);
  std::vector<MaintTxn> progs;
  for (uint32_t p = 0; p < pp; ++p) {
    progs.push_back(b.RandomProgram(p, 1, 0));
    b.Submit(progs.back());
  }
  const uint64_t start = b.cycle();
  b.Drain();
  const uint64_t took = b.cycle() - start;
  // Overlapped: one tPROG plus every page's beats and a few cycles of handshake a page, far
  // from the Planes x tPROG of one program at a time.
  INFO(pp << " programs took " << took << " cycles, tPROG " << cfg.t_prog_cycles);
  REQUIRE(b.max_in_flight() == pp);
  REQUIRE(took >= cfg.t_prog_cycles);
  REQUIRE(took <= cfg.t_prog_cycles + pp * (cfg.cl_per_page + 4) + 4);
  REQUIRE(b.responses() == pp);
  for (const MaintRsp& r : b.rsps()) REQUIRE(r.status == MaintStatus::kOk);
  for (uint32_t p = 0; p < pp; ++p) {
    REQUIRE(b.Run(Req(MaintOp::kReadPage, p, 1, 0)).status == MaintStatus::kOk);
    REQUIRE(b.last_lines() == progs[p].lines);
  }
  RequireClean(b);
}

TEST_CASE("maint_seq: responses come back out of order, a failed plane among them",
          "[nand][maint_seq][directed]") {
  const flint::Config& cfg = Small();
  Bench b(cfg, flint::tb::TestSeed());
  const auto pp = static_cast<uint32_t>(cfg.phys_planes);
  // An erase on plane 0 (tERASE), then a program on every other plane, plane 2's failing, then a
  // read of plane 1 (it waits for plane 1's program) and a read of plane 0's other block
  // (it waits for the erase).
  b.die().InjectFault(2, 5, flint::model::Fault::kProgramFail);
  const uint32_t erase_tag = b.Submit(Req(MaintOp::kEraseBlock, 0, 4));
  std::vector<MaintTxn> progs;
  std::vector<uint32_t> tags;
  for (uint32_t p = 1; p < pp; ++p) {
    progs.push_back(b.RandomProgram(p, 5, 0));
    tags.push_back(b.Submit(progs.back()));
  }
  const uint32_t read1 = b.Submit(Req(MaintOp::kReadPage, 1, 5, 0));
  const uint32_t read0 = b.Submit(Req(MaintOp::kReadPage, 0, 3, 0));
  b.Drain();
  REQUIRE(b.responses() == pp + 2);
  const auto& rs = b.rsps();
  // The erase, asked first, answers after every program and after the read of plane 1.
  std::vector<uint32_t> order;
  for (const MaintRsp& r : rs) order.push_back(r.tag);
  const auto pos = [&](uint32_t tag) {
    return std::find(order.begin(), order.end(), tag) - order.begin();
  };
  for (uint32_t t : tags) REQUIRE(pos(t) < pos(erase_tag));
  REQUIRE(pos(read1) < pos(erase_tag));
  REQUIRE(pos(read0) > pos(erase_tag));
  for (const MaintRsp& r : rs) {
    if (r.tag == erase_tag) {
      REQUIRE((r.op == MaintOp::kEraseBlock && r.status == MaintStatus::kOk && r.plane == 0));
    } else if (r.op == MaintOp::kProgramPage) {
      REQUIRE(r.status == (r.plane == 2 ? MaintStatus::kProgramFail : MaintStatus::kOk));
      REQUIRE(r.tag == tags[r.plane - 1]);
    }
  }
  // Every program was in flight beside the erase; the erase took one tERASE, not more.
  REQUIRE(b.max_in_flight() == pp);
  REQUIRE(b.cycle() < cfg.t_erase_cycles + 2 * cfg.t_read_cycles + 200 + 2 * cfg.t_prog_cycles);
  // The reads waited for their planes' slots unparked: the park covers only each read's own
  // sense and data-outs, never the program or erase it waited for.
  INFO("parked " << b.park_cycles() << " cycles for two reads");
  REQUIRE(b.park_cycles() <=
          2 * (cfg.t_read_cycles + cfg.t_cache_xfer_cycles + 2 * cfg.cl_per_page + 6));
  REQUIRE(b.BlockBad(2, 5));
  REQUIRE(b.last_lines().size() == cfg.cl_per_page);
  for (uint32_t p = 1; p < pp; ++p) {
    if (p == 2) continue;
    REQUIRE(b.Run(Req(MaintOp::kReadPage, p, 5, 0)).status == MaintStatus::kOk);
    REQUIRE(b.last_lines() == progs[p - 1].lines);
  }
  RequireClean(b);
}

TEST_CASE("maint_seq: an erased block and a never programmed page read as erased",
          "[nand][maint_seq][directed]") {
  const flint::Config& cfg = Small();
  Bench b(cfg, flint::tb::TestSeed());
  const std::vector<uint8_t> ff(cfg.cl_image_bytes, 0xFF);
  const flint::model::DecodedBlock erased = flint::model::DecodeImage(ff.data(), ff.size());
  // An erased line (all ones, check bytes too) is no codeword of the (72,64) code: it decodes
  // UNCORRECTABLE, and so does the page (docs/nand_seq.md).
  REQUIRE(erased.status == Status::kUncorrectable);
  // Never programmed.
  REQUIRE(b.Run(Req(MaintOp::kReadPage, 1, 2, 5)).status == MaintStatus::kUncorrectable);
  REQUIRE(b.last_lines().size() == cfg.cl_per_page);
  for (const auto& l : b.last_lines()) REQUIRE(l == erased.data);
  // Programmed, erased, read.
  const MaintTxn p0 = b.RandomProgram(1, 2, 0);
  REQUIRE(b.Run(p0).status == MaintStatus::kOk);
  b.Run(Req(MaintOp::kReadPage, 1, 2, 0));
  REQUIRE(b.last_lines() == p0.lines);
  REQUIRE(b.Run(Req(MaintOp::kEraseBlock, 1, 2)).status == MaintStatus::kOk);
  REQUIRE(b.WritePointer(1, 2) == 0);
  b.Run(Req(MaintOp::kReadPage, 1, 2, 0));
  for (const auto& l : b.last_lines()) REQUIRE(l == erased.data);
  for (const auto s : b.last_status()) REQUIRE(s == erased.status);
  // The block takes page 0 again after its erase.
  REQUIRE(b.Run(b.RandomProgram(1, 2, 0)).status == MaintStatus::kOk);
  RequireClean(b);
}

TEST_CASE("maint_seq: a failed program or erase is answered and the sequencer goes on",
          "[nand][maint_seq][directed]") {
  const flint::Config& cfg = Small();
  Bench b(cfg, flint::tb::TestSeed());
  b.die().InjectFault(2, 4, flint::model::Fault::kProgramFail);
  REQUIRE(b.Run(b.RandomProgram(2, 4, 0)).status == MaintStatus::kProgramFail);
  REQUIRE(b.BlockBad(2, 4));
  // The same plane, another block: works.
  const MaintTxn ok = b.RandomProgram(2, 5, 0);
  REQUIRE(b.Run(ok).status == MaintStatus::kOk);
  b.die().InjectFault(2, 6, flint::model::Fault::kEraseFail);
  const MaintRsp er = b.Run(Req(MaintOp::kEraseBlock, 2, 6));
  REQUIRE(er.status == MaintStatus::kEraseFail);
  REQUIRE((er.op == MaintOp::kEraseBlock && er.plane == 2 && er.block == 6));
  REQUIRE(b.Run(Req(MaintOp::kEraseBlock, 2, 7)).status == MaintStatus::kOk);
  REQUIRE(b.Run(Req(MaintOp::kReadPage, 2, 5, 0)).status == MaintStatus::kOk);
  REQUIRE(b.last_lines() == ok.lines);
  // A failed block still reads (a controller salvaging its other pages would).
  b.Run(Req(MaintOp::kReadPage, 2, 4, 0));
  REQUIRE(b.last_lines().size() == cfg.cl_per_page);
  RequireClean(b);
}

TEST_CASE("maint_seq: bit errors are corrected or flagged per line",
          "[nand][maint_seq][directed]") {
  const flint::Config& cfg = Small();
  Bench b(cfg, flint::tb::TestSeed());
  const MaintTxn p = b.RandomProgram(0, 1, 0);
  REQUIRE(b.Run(p).status == MaintStatus::kOk);
  const uint32_t line_bits = static_cast<uint32_t>(cfg.cl_image_bytes) * 8;
  // Line 0: one data bit of word 0. Line 1: two bits of word 1. Line 2: a check bit of word 2.
  b.CorruptPage(0, 1, 0,
                {0 * line_bits + 5, 1 * line_bits + 72 + 3, 1 * line_bits + 72 + 40,
                 2 * line_bits + 2 * 72 + 66});
  const MaintRsp rsp = b.Run(Req(MaintOp::kReadPage, 0, 1, 0));
  REQUIRE(rsp.status == MaintStatus::kUncorrectable);
  const auto& st = b.last_status();
  REQUIRE(st[0] == Status::kCorrected);
  REQUIRE(b.last_lines()[0] == p.lines[0]);
  REQUIRE(st[1] == Status::kUncorrectable);
  REQUIRE(st[2] == Status::kCorrected);
  REQUIRE(b.last_lines()[2] == p.lines[2]);
  for (uint64_t l = 3; l < cfg.cl_per_page; ++l) {
    REQUIRE(st[l] == Status::kOk);
    REQUIRE(b.last_lines()[l] == p.lines[l]);
  }
  // Only single-bit errors: the page reads CORRECTED.
  const MaintTxn q = b.RandomProgram(0, 1, 1);
  REQUIRE(b.Run(q).status == MaintStatus::kOk);
  b.CorruptPage(0, 1, 1, {7 * line_bits + 100});
  REQUIRE(b.Run(Req(MaintOp::kReadPage, 0, 1, 1)).status == MaintStatus::kCorrected);
  REQUIRE(b.last_lines() == q.lines);
  // A poisoned line (a copy of an uncorrectable one) reads back uncorrectable, the rest clean.
  MaintTxn r = b.RandomProgram(0, 1, 2);
  r.poison[4] = true;
  REQUIRE(b.Run(r).status == MaintStatus::kOk);
  REQUIRE(b.Run(Req(MaintOp::kReadPage, 0, 1, 2)).status == MaintStatus::kUncorrectable);
  for (uint64_t l = 0; l < cfg.cl_per_page; ++l) {
    REQUIRE(b.last_status()[l] == (l == 4 ? Status::kUncorrectable : Status::kOk));
    if (l != 4) REQUIRE(b.last_lines()[l] == r.lines[l]);
  }
  RequireClean(b);
}

TEST_CASE("maint_seq: a read waits for the park and releases it after its last line",
          "[nand][maint_seq][directed]") {
  const flint::Config& cfg = Small();
  Bench b(cfg, flint::tb::TestSeed());
  REQUIRE(b.Run(b.RandomProgram(3, 0, 0)).status == MaintStatus::kOk);
  REQUIRE(b.park_cycles() == 0);
  b.client().park_delay = 40;
  REQUIRE(b.Run(Req(MaintOp::kReadPage, 3, 0, 0)).status == MaintStatus::kOk);
  // The Read goes only once the controller side parked, 41 cycles after park_o rose.
  REQUIRE(b.first_read_cmd_at() >= b.park_rose_at() + 41);
  // Held from the request to the last line's return: park + sense + move + the data-outs.
  REQUIRE(b.park_cycles() >= 41 + cfg.t_read_cycles + cfg.cl_per_page);
  REQUIRE(b.park_cycles() <=
          41 + cfg.t_read_cycles + cfg.t_cache_xfer_cycles + 2 * cfg.cl_per_page + 6);
  // Without a line buffer the client is ready from a data-out until its line is back, so a slow
  // reader delays only the first data-out; the controller stays held until the last line is back
  // and taken, and the read's response follows within a few cycles.
  // A line a cycle at small (the die's rate): tR, the move, the lines, a few cycles of steps.
  b.client().park_delay = 0;
  REQUIRE(b.Run(Req(MaintOp::kReadPage, 3, 0, 0)).status == MaintStatus::kOk);
  const uint64_t fast = b.responded_at() - b.accepted_at();
  INFO("read latency at small, no back-pressure: " << fast << " cycles");
  REQUIRE(fast <= 1 + cfg.t_read_cycles + cfg.t_cache_xfer_cycles + cfg.cl_per_page + 6);
  uint64_t before = b.park_cycles();
  b.client().rd_ready_p = 0.1;
  REQUIRE(b.Run(Req(MaintOp::kReadPage, 3, 0, 0)).status == MaintStatus::kOk);
  uint64_t parked = b.park_cycles() - before;
  uint64_t took = b.responded_at() - b.accepted_at();
  INFO("no buffer: parked " << parked << " of " << took << " cycles");
  REQUIRE(took - parked <= 4);
  REQUIRE(parked >= cfg.t_read_cycles + cfg.cl_per_page);
  RequireClean(b);

  // With a two-line FIFO the data-outs run ahead of a slow reader by the buffer: the hold is
  // gone before the last line is taken.
  BufferedBench f(cfg, flint::tb::TestSeed());
  f.client().buffered = true;
  REQUIRE(f.Run(f.RandomProgram(3, 0, 0)).status == MaintStatus::kOk);
  f.client().rd_ready_p = 0.1;
  before = f.park_cycles();
  REQUIRE(f.Run(Req(MaintOp::kReadPage, 3, 0, 0)).status == MaintStatus::kOk);
  parked = f.park_cycles() - before;
  took = f.responded_at() - f.accepted_at();
  INFO("two-line FIFO: parked " << parked << " of " << took << " cycles");
  REQUIRE(parked + 2 < took);
  RequireClean(f);
}

TEST_CASE("maint_seq: a request past the die or with an unknown op is answered untouched",
          "[nand][maint_seq][directed]") {
  const flint::Config& cfg = Small();
  Bench b(cfg, flint::tb::TestSeed());
  const auto pp = static_cast<uint32_t>(cfg.phys_planes);
  const auto bl = static_cast<uint32_t>(cfg.blocks);
  const auto pg = static_cast<uint32_t>(cfg.pages);
  REQUIRE(b.Run(Req(MaintOp::kReadPage, pp, 0, 0)).status == MaintStatus::kBadAddress);
  REQUIRE(b.Run(Req(MaintOp::kEraseBlock, 0, bl)).status == MaintStatus::kBadAddress);
  REQUIRE(b.Run(Req(MaintOp::kReadPage, 0, 0, pg)).status == MaintStatus::kBadAddress);
  // An erase ignores the page field; a program checks it (page pg would wrap to page 0, which
  // the die would take).
  REQUIRE(b.Run(Req(MaintOp::kEraseBlock, 0, 0, 0xFFFF)).status == MaintStatus::kOk);
  REQUIRE(b.Run(Req(MaintOp::kProgramPage, 0, 0, pg)).status == MaintStatus::kBadAddress);
  REQUIRE(b.WritePointer(0, 0) == 0);
  const MaintRsp r = b.Run(Req(MaintOp::kProgramPage, 0xA5, 0xBEEF, pg));
  REQUIRE(r.status == MaintStatus::kBadAddress);
  REQUIRE((r.op == MaintOp::kProgramPage && r.plane == 0xA5 && r.block == 0xBEEF && r.page == pg));
  REQUIRE(b.park_cycles() == 0);
  // An op none of the three (the field's fourth value) is refused too, whatever its address:
  // answered MaintBadOp with the request echoed, nothing parked, programmed or erased.
  const MaintRsp o = b.Run(Req(static_cast<MaintOp>(3), 0, 0, 0));
  REQUIRE(o.status == MaintStatus::kBadOp);
  REQUIRE((static_cast<int>(o.op) == 3 && o.plane == 0 && o.block == 0 && o.page == 0));
  REQUIRE(b.Run(Req(static_cast<MaintOp>(3), pp, bl, pg)).status == MaintStatus::kBadOp);
  REQUIRE(b.park_cycles() == 0);
  REQUIRE(b.WritePointer(0, 0) == 0);
  RequireClean(b);
}

namespace {

// Random transactions of the client against the die model: OutDepth 0 (as built) or a FIFO.
template <class B>
void RandomTransactions(bool buffered) {
  const flint::Config& cfg = Small();
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  B b(cfg, seed);
  std::mt19937& rng = b.rng();
  std::uniform_real_distribution<double> u(0, 1);
  b.client() = {0.7, 0.8, 0.6, 0.6, 0, buffered};
  // Several blocks on three planes (the extra plane among them).
  const std::vector<uint32_t> planes = {0, 2, static_cast<uint32_t>(cfg.planes)};
  const uint32_t blocks = 4;
  const int transactions = 400;
  int reads = 0, programs = 0, erases = 0, faults = 0, corrupt = 0;
  int submitted = 0;
  while (submitted < transactions) {
    // One to six transactions queued at once, each on a block of its own (so each is chosen
    // from the shadow as it will stand when it runs); the client offers the next while the
    // sequencer is busy with the one before, programs and erases of several planes in flight.
    const int batch = std::min<int>(1 + static_cast<int>(rng() % 6), transactions - submitted);
    std::vector<std::pair<uint32_t, uint32_t>> used;
    for (int i = 0; i < batch; ++i) {
      uint32_t pl = 0, bk = 0;
      do {
        pl = planes[rng() % planes.size()];
        bk = rng() % blocks;
      } while (std::find(used.begin(), used.end(), std::make_pair(pl, bk)) != used.end());
      used.emplace_back(pl, bk);
      const double r = u(rng);
      if (r < 0.45 || b.BlockBad(pl, bk)) {
        // Read any page: programmed, garbage of a failed program, or erased.
        b.Submit(Req(MaintOp::kReadPage, pl, bk, rng() % cfg.pages));
        ++reads;
      } else if (r < 0.85 && b.WritePointer(pl, bk) < cfg.pages) {
        if (u(rng) < 0.03) {
          b.die().InjectFault(pl, bk, flint::model::Fault::kProgramFail);
          ++faults;
        }
        b.Submit(b.RandomProgram(pl, bk, b.WritePointer(pl, bk), 0.05));
        ++programs;
      } else {
        if (u(rng) < 0.05) {
          b.die().InjectFault(pl, bk, flint::model::Fault::kEraseFail);
          ++faults;
        }
        b.Submit(Req(MaintOp::kEraseBlock, pl, bk));
        ++erases;
      }
    }
    submitted += batch;
    b.client().park_delay = rng() % 12;
    b.Drain();
    // Now and then a programmed page loses a bit or two.
    const auto [pl, bk] = used[0];
    const uint32_t wp = b.WritePointer(pl, bk);
    if (wp > 0 && u(rng) < 0.15) {
      const uint32_t bits = static_cast<uint32_t>(cfg.page_image_bytes) * 8;
      std::vector<uint32_t> flips = {static_cast<uint32_t>(rng() % bits)};
      if (u(rng) < 0.4) flips.push_back(flips[0] ^ 1u);
      b.CorruptPage(pl, bk, static_cast<uint32_t>(rng() % wp), flips);
      ++corrupt;
    }
    if (b.errors() != 0) break;
  }
  int by_status[6] = {};
  for (const MaintRsp& r : b.rsps()) ++by_status[static_cast<int>(r.status) % 6];
  INFO(reads << " reads, " << programs << " programs, " << erases << " erases, " << faults
             << " faults, " << corrupt << " corruptions, " << b.cycle() << " cycles; responses OK "
             << by_status[0] << " corrected " << by_status[1] << " uncorrectable " << by_status[2]
             << " program fail " << by_status[3] << " erase fail " << by_status[4]);
  RequireClean(b);
  REQUIRE(b.responses() == static_cast<uint64_t>(transactions));
  REQUIRE(reads > 50);
  REQUIRE(programs > 50);
  INFO("most programs and erases in flight at once " << b.max_in_flight());
  REQUIRE(b.max_in_flight() >= 3);  // the three planes' slots all busy at some point
}

}  // namespace

TEST_CASE("maint_seq: random transactions against the NAND die model",
          "[nand][maint_seq][random]") {
  RandomTransactions<Bench>(false);
}

TEST_CASE("maint_seq: random transactions, a two-line FIFO and a back-pressuring client",
          "[nand][maint_seq][random]") {
  RandomTransactions<BufferedBench>(true);
}

TEST_CASE("maint_seq: paper-size program and read with errors and a bad page",
          "[nand][maint_seq][smoke]") {
  const flint::Config& cfg = flint::kPaperConfig;
  flint::tb::MaintBench<Vmaint_paper> b(cfg, flint::tb::TestSeed());
  const auto extra = static_cast<uint32_t>(cfg.planes);  // plane 32, the phantom at reset
  const MaintTxn p = b.RandomProgram(extra, 255, 0);
  REQUIRE(b.Run(p).status == MaintStatus::kOk);
  REQUIRE(b.responded_at() - b.accepted_at() >= cfg.t_prog_cycles);
  const uint32_t line_bits = static_cast<uint32_t>(cfg.cl_image_bytes) * 8;
  b.CorruptPage(extra, 255, 0, {31 * line_bits + 15 * 72 + 70});  // a check bit, last word
  REQUIRE(b.Run(Req(MaintOp::kReadPage, extra, 255, 0)).status == MaintStatus::kCorrected);
  REQUIRE(b.last_lines() == p.lines);
  REQUIRE(b.last_status()[31] == Status::kCorrected);
  // A line's data-out holds the die I/O 2 cycles at paper: the read runs at the die's rate.
  const uint64_t took = b.responded_at() - b.accepted_at();
  INFO("paper read latency " << took);
  REQUIRE(took <= cfg.t_read_cycles + cfg.t_cache_xfer_cycles + 2 * cfg.cl_per_page + 8);
  REQUIRE(b.Run(Req(MaintOp::kProgramPage, 0, 0, static_cast<uint32_t>(cfg.pages))).status ==
          MaintStatus::kBadAddress);
  RequireClean(b);
}
