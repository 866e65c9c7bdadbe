// flint_reloc_table against model::RelocTable: identity start, relocation (alloc, commit,
// release), next-fit allocation, a full rotation step, bad blocks, refused commands, lookup
// timing around a commit, and seeded remap storms with lookups running beside them.
#include "model/ftl/reloc_table.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "Vreloc_medium.h"
#include "Vreloc_paper.h"
#include "Vreloc_small.h"
#include "flint_config.hpp"
#include "tb/common/harness.hpp"
#include "tb/ftl/ftl_tb.hpp"

namespace {

using flint::BlockState;
using flint::Config;
using flint::FtlStatus;
using flint::RelocCmd;
using flint::model::RelocLookup;
using flint::model::RelocResult;
using flint::model::RelocTable;
using flint::tb::Harness;

struct Drive {
  bool lk = false;
  uint32_t lk_die = 0, lk_plane = 0, lk_block = 0;
  bool lk_rsp_ready = true;
  bool cmd = false;
  RelocCmd op = RelocCmd::kQuery;
  uint32_t die = 0, plane = 0, block = 0;
  bool cmd_rsp_ready = true;
};

struct Seen {
  bool lk_fire = false, lk_rsp_fire = false, cmd_fire = false, cmd_rsp_fire = false;
  bool lk_ready = false;
  RelocLookup lk_rsp;
  RelocResult cmd_rsp;
  uint64_t cmd_latency = 0;  // acceptance to first valid response, when cmd_rsp_fire
};

struct Cmd {
  RelocCmd op;
  uint32_t die, plane, block;
};

std::string Describe(const RelocResult& r) {
  return std::string(ToString(r.status)) + " " + std::string(ToString(r.state)) + " (" +
         std::to_string(r.plane) + "," + std::to_string(r.block) + ") owner (" +
         std::to_string(r.lplane) + "," + std::to_string(r.lblock) + ")";
}

// Drives the DUT cycle by cycle beside the model. A command takes effect in the model in the
// cycle its response first becomes valid (the RTL contract for lookups), before the lookups of
// that cycle; every response and every lookup answer is compared as it appears.
template <class Dut>
class RelocBench {
 public:
  RelocBench(uint32_t seed, const Config& cfg) : h_(seed, "reloc_table"), model_(cfg), cfg_(cfg) {
    start_ = flint::tb::ResetFromHigh(h_);
  }

  uint64_t InitCycles() const { return cfg_.dies * cfg_.phys_planes * cfg_.blocks; }

  Seen Step(const Drive& in) {
    auto& d = h_.dut();
    d.lk_valid_i = in.lk;
    d.lk_die_i = in.lk_die;
    d.lk_plane_i = in.lk_plane;
    d.lk_block_i = in.lk_block;
    d.lk_rsp_ready_i = in.lk_rsp_ready;
    d.cmd_valid_i = in.cmd;
    d.cmd_op_i = static_cast<uint8_t>(in.op);
    d.cmd_die_i = in.die;
    d.cmd_plane_i = in.plane;
    d.cmd_block_i = in.block;
    d.cmd_rsp_ready_i = in.cmd_rsp_ready;
    h_.Eval();
    INFO("cycle " << h_.cycle());
    Seen s;
    REQUIRE(static_cast<bool>(d.busy_o) == (h_.cycle() - start_ < init_end_));
    if (d.cmd_rsp_valid_o) {
      if (!expected_cmd_) {
        REQUIRE(pending_);  // a response without a command
        expected_cmd_ = model_.Apply(pending_->op, pending_->die, pending_->plane, pending_->block);
        latency_ = h_.cycle() - accept_cycle_;
      }
      s.cmd_rsp = {static_cast<FtlStatus>(d.cmd_rsp_status_o),
                   static_cast<BlockState>(d.cmd_rsp_state_o),
                   d.cmd_rsp_plane_o,
                   d.cmd_rsp_block_o,
                   d.cmd_rsp_lplane_o,
                   d.cmd_rsp_lblock_o};
      INFO(ToString(pending_->op) << " (" << pending_->die << "," << pending_->plane << ","
                                  << pending_->block << "): expected " << Describe(*expected_cmd_)
                                  << ", got " << Describe(s.cmd_rsp));
      REQUIRE(s.cmd_rsp == *expected_cmd_);
      if (in.cmd_rsp_ready) {
        s.cmd_rsp_fire = true;
        s.cmd_latency = latency_;
        expected_cmd_.reset();
        pending_.reset();
      }
    } else {
      REQUIRE_FALSE(expected_cmd_);
    }
    REQUIRE(static_cast<bool>(d.lk_rsp_valid_o) == expected_lk_.has_value());
    if (d.lk_rsp_valid_o) {
      s.lk_rsp = {d.lk_rsp_plane_o, d.lk_rsp_block_o, d.lk_rsp_phantom_o};
      INFO("lookup: expected (" << expected_lk_->plane << "," << expected_lk_->block << ") phantom "
                                << expected_lk_->phantom << ", got (" << s.lk_rsp.plane << ","
                                << s.lk_rsp.block << ") phantom " << s.lk_rsp.phantom);
      REQUIRE(s.lk_rsp == *expected_lk_);
      if (in.lk_rsp_ready) {
        s.lk_rsp_fire = true;
        expected_lk_.reset();
      }
    }
    s.lk_ready = d.lk_ready_o;
    s.lk_fire = in.lk && d.lk_ready_o;
    s.cmd_fire = in.cmd && d.cmd_ready_o;
    if (s.lk_fire) expected_lk_ = model_.Lookup(in.lk_die, in.lk_plane, in.lk_block);
    if (s.cmd_fire) {
      REQUIRE_FALSE(pending_);
      pending_ = Cmd{in.op, in.die, in.plane, in.block};
      accept_cycle_ = h_.cycle();
    }
    h_.Tick();
    REQUIRE_FALSE(h_.Failed());
    return s;
  }

  void WaitReady() {
    while (h_.cycle() - start_ < init_end_) Step(Drive{});
  }

  // One command on an otherwise idle bench; returns the response (checked against the model).
  RelocResult Command(RelocCmd op, uint32_t die, uint32_t plane, uint32_t block,
                      uint64_t* latency = nullptr) {
    Drive in;
    in.cmd = true;
    in.op = op;
    in.die = die;
    in.plane = plane;
    in.block = block;
    REQUIRE(Step(in).cmd_fire);
    for (int i = 0; i < static_cast<int>(cfg_.blocks) + 8; ++i) {
      const Seen s = Step(Drive{});
      if (s.cmd_rsp_fire) {
        if (latency != nullptr) *latency = s.cmd_latency;
        return s.cmd_rsp;
      }
    }
    FAIL("no response to " << ToString(op));
    return {};
  }

  RelocLookup Lookup(uint32_t die, uint32_t plane, uint32_t block) {
    Drive in;
    in.lk = true;
    in.lk_die = die;
    in.lk_plane = plane;
    in.lk_block = block;
    REQUIRE(Step(in).lk_fire);
    const Seen s = Step(Drive{});
    REQUIRE(s.lk_rsp_fire);
    return s.lk_rsp;
  }

  // Every logical block looked up and every physical block queried, against the model; and the
  // model's own invariants.
  void CheckAll() {
    for (uint32_t d = 0; d < cfg_.dies; ++d) {
      for (uint32_t l = 0; l < cfg_.planes; ++l) {
        for (uint32_t b = 0; b < cfg_.blocks; ++b) {
          REQUIRE(Lookup(d, l, b) == model_.Lookup(d, l, b));
        }
      }
      for (uint32_t p = 0; p < cfg_.phys_planes; ++p) {
        for (uint32_t b = 0; b < cfg_.blocks; ++b) Command(RelocCmd::kQuery, d, p, b);
      }
    }
    const std::string broken = model_.CheckInvariants();
    INFO(broken);
    REQUIRE(broken.empty());
  }

  Harness<Dut>& h() { return h_; }
  const RelocTable& model() const { return model_; }
  const Config& cfg() const { return cfg_; }

 private:
  Harness<Dut> h_;
  RelocTable model_;
  const Config& cfg_;
  uint64_t start_ = 0;  // cycle count at the end of reset
  uint64_t init_end_ = cfg_.dies * cfg_.phys_planes * cfg_.blocks;
  std::optional<Cmd> pending_;
  std::optional<RelocResult> expected_cmd_;
  std::optional<RelocLookup> expected_lk_;
  uint64_t accept_cycle_ = 0, latency_ = 0;
};

// A random physical block of a die in `state` (per the model), if any.
template <class Rng>
std::optional<std::pair<uint32_t, uint32_t>> PickBlock(const RelocTable& m, uint32_t die,
                                                       BlockState state, Rng& rng) {
  std::vector<std::pair<uint32_t, uint32_t>> hits;
  for (uint32_t p = 0; p < m.phys_planes(); ++p) {
    for (uint32_t b = 0; b < m.blocks(); ++b) {
      if (m.State(die, p, b) == state) hits.emplace_back(p, b);
    }
  }
  if (hits.empty()) return std::nullopt;
  return hits[std::uniform_int_distribution<size_t>(0, hits.size() - 1)(rng)];
}

// Remap storm: random relocations (alloc, commit, release of vacated blocks), abandoned
// reservations, bad blocks, queries and bad arguments, with random lookups every cycle and
// random back-pressure on both responses; lock-step with the model; then the whole table.
template <class Dut>
void RunStorm(uint32_t seed, const Config& cfg, int commands) {
  INFO(flint::tb::ReplayCommand(seed));
  RelocBench<Dut> b(seed, cfg);
  b.WaitReady();
  std::mt19937 rng(seed);
  auto uni = [&](uint64_t n) {
    return static_cast<uint32_t>(std::uniform_int_distribution<uint64_t>(0, n - 1)(rng));
  };
  std::bernoulli_distribution lk_d(0.6), lk_rdy_d(0.8), rsp_rdy_d(0.7);
  uint64_t commits = 0, no_free = 0, busy = 0, wrong = 0, oor = 0, bads = 0, fsm_reads = 0;
  uint64_t lk_blocked = 0, lookups = 0;
  Drive in;
  RelocCmd inflight = RelocCmd::kQuery;
  int issued = 0;
  while (issued < commands || in.cmd) {
    if (!in.cmd && issued < commands) {
      ++issued;
      in.cmd = true;
      const uint32_t die = uni(cfg.dies);
      in.die = die;
      const uint32_t pick = uni(100);
      std::optional<std::pair<uint32_t, uint32_t>> blk;
      if (pick < 35) {
        in.op = RelocCmd::kAlloc;
        in.plane = uni(cfg.planes);
        in.block = uni(cfg.blocks);
      } else if (pick < 60) {
        in.op = RelocCmd::kCommit;
        blk = PickBlock(b.model(), die, BlockState::kReserved, rng);
      } else if (pick < 78) {
        in.op = RelocCmd::kRelease;  // mostly an erased vacated block, sometimes an abandon
        blk = PickBlock(b.model(), die, uni(4) ? BlockState::kVacated : BlockState::kReserved, rng);
      } else if (pick < 85) {
        in.op = RelocCmd::kMarkBad;
        // Keep half of each die's spare blocks good, or the pool runs dry for good.
        uint32_t bad = 0;
        for (uint32_t p = 0; p < cfg.phys_planes; ++p) {
          for (uint32_t k = 0; k < cfg.blocks; ++k) {
            bad += b.model().State(die, p, k) == BlockState::kBad;
          }
        }
        const BlockState st = static_cast<BlockState>(uni(5));
        if (st == BlockState::kMapped || bad < cfg.blocks / 2) {
          blk = PickBlock(b.model(), die, st, rng);
        }
      } else if (pick < 95) {
        in.op = RelocCmd::kQuery;
      } else {
        // Out of range: a plane past the die, or an Alloc naming the extra plane as logical.
        in.op = static_cast<RelocCmd>(uni(5));
        in.plane = in.op == RelocCmd::kAlloc
                       ? static_cast<uint32_t>(cfg.planes)
                       : static_cast<uint32_t>(cfg.phys_planes) +
                             uni((1u << cfg.phys_plane_bits) - cfg.phys_planes);
        in.block = uni(cfg.blocks);
      }
      if (pick >= 35 && pick < 95) {
        if (blk) {
          in.plane = blk->first;
          in.block = blk->second;
        } else {  // nothing in that state: any block (mostly a refused command)
          in.plane = uni(cfg.phys_planes);
          in.block = uni(cfg.blocks);
        }
      }
    }
    if (!in.lk) {
      in.lk = lk_d(rng);
      in.lk_die = uni(cfg.dies);
      in.lk_plane = uni(cfg.planes);
      in.lk_block = uni(cfg.blocks);
    }
    in.lk_rsp_ready = lk_rdy_d(rng);
    in.cmd_rsp_ready = rsp_rdy_d(rng);
    const bool lk_rsp_held = b.h().dut().lk_rsp_valid_o && !in.lk_rsp_ready;
    const Seen s = b.Step(in);
    if (s.cmd_fire) {
      in.cmd = false;
      inflight = in.op;
      fsm_reads += in.op == RelocCmd::kAlloc || in.op == RelocCmd::kCommit;
    }
    if (s.lk_fire) {
      in.lk = false;
      ++lookups;
    }
    if (!s.lk_ready && !lk_rsp_held) ++lk_blocked;
    if (s.cmd_rsp_fire) {
      const RelocResult& r = s.cmd_rsp;
      commits += r.status == FtlStatus::kOk && r.state == BlockState::kReserved;
      no_free += r.status == FtlStatus::kNoFree;
      busy += r.status == FtlStatus::kBusy;
      wrong += r.status == FtlStatus::kWrongState;
      oor += r.status == FtlStatus::kOutOfRange;
      bads += inflight == RelocCmd::kMarkBad && r.status == FtlStatus::kOk &&
              r.state != BlockState::kBad;
      // Latency bounds of the contract.
      REQUIRE(s.cmd_latency <= cfg.blocks + 3);
    }
  }
  // A lookup still waiting is kept up until taken (valid/ready); then the last responses drain.
  in.lk_rsp_ready = true;
  in.cmd_rsp_ready = true;
  while (in.lk) {
    if (b.Step(in).lk_fire) in.lk = false;
  }
  for (int i = 0; i < 8; ++i) b.Step(Drive{});
  // Lookups lose at most the one cycle per Alloc and Commit in which the command reads the
  // shared ports.
  REQUIRE(lk_blocked <= fsm_reads);
  REQUIRE(lookups > static_cast<uint64_t>(commands));
  // The storm must have exercised every outcome.
  CHECK(commits > static_cast<uint64_t>(commands) / 20);
  CHECK(no_free > 0);
  CHECK(busy > 0);
  CHECK(wrong > 0);
  CHECK(oor > 0);
  CHECK(bads > 0);
  b.CheckAll();
}

}  // namespace

TEST_CASE("reloc table: starts as the identity with the extra plane free",
          "[ftl][reloc_table][directed]") {
  const Config& cfg = flint::kSmallConfig;
  RelocBench<Vreloc_small> b(1, cfg);
  uint64_t busy = 0;
  while (b.h().dut().busy_o) {
    b.Step(Drive{});
    ++busy;
  }
  REQUIRE(busy == cfg.dies * cfg.phys_planes * cfg.blocks);
  for (uint32_t d = 0; d < cfg.dies; ++d) {
    for (uint32_t l = 0; l < cfg.planes; ++l) {
      for (uint32_t k = 0; k < cfg.blocks; ++k) {
        REQUIRE(b.Lookup(d, l, k) == RelocLookup{l, k, static_cast<uint32_t>(cfg.planes)});
      }
    }
    for (uint32_t p = 0; p < cfg.phys_planes; ++p) {
      for (uint32_t k = 0; k < cfg.blocks; ++k) {
        const RelocResult r = b.Command(RelocCmd::kQuery, d, p, k);
        REQUIRE(r.status == FtlStatus::kOk);
        if (p < cfg.planes) {
          REQUIRE(r.state == BlockState::kMapped);
          REQUIRE(r.lplane == p);
          REQUIRE(r.lblock == k);
        } else {
          REQUIRE(r.state == BlockState::kFree);
        }
      }
    }
  }
}

TEST_CASE("reloc table: a relocation moves one block and vacates its source",
          "[ftl][reloc_table][directed]") {
  const Config& cfg = flint::kSmallConfig;
  const uint32_t extra = static_cast<uint32_t>(cfg.planes);
  RelocBench<Vreloc_small> b(1, cfg);
  b.WaitReady();
  uint64_t lat = 0;
  // Alloc for logical (die 1, plane 2, block 3): a free block on the phantom plane of block 3.
  RelocResult r = b.Command(RelocCmd::kAlloc, 1, 2, 3, &lat);
  REQUIRE(r.status == FtlStatus::kOk);
  REQUIRE(r.plane == extra);
  REQUIRE(r.block == 0);  // next-fit from the die's cursor, 0 after reset
  REQUIRE(lat == 3 + 1);  // one block examined
  REQUIRE(b.Command(RelocCmd::kQuery, 1, extra, 0).state == BlockState::kReserved);
  REQUIRE(b.Lookup(1, 2, 3) == RelocLookup{2, 3, extra});  // reads still go to the source
  r = b.Command(RelocCmd::kCommit, 1, extra, 0, &lat);
  REQUIRE(r.status == FtlStatus::kOk);
  REQUIRE(r.plane == 2);  // the vacated block
  REQUIRE(r.block == 3);
  REQUIRE(lat == 4);
  // Reads now go to the copy, and plane 2 is the phantom of block 3 on die 1 (only there).
  REQUIRE(b.Lookup(1, 2, 3) == RelocLookup{extra, 0, 2});
  REQUIRE(b.Lookup(1, 0, 3) == RelocLookup{0, 3, 2});
  REQUIRE(b.Lookup(0, 2, 3) == RelocLookup{2, 3, extra});
  REQUIRE(b.Lookup(1, 2, 4) == RelocLookup{2, 4, extra});
  REQUIRE(b.Command(RelocCmd::kQuery, 1, 2, 3).state == BlockState::kVacated);
  // The vacated block is not free until its erase is reported.
  r = b.Command(RelocCmd::kRelease, 1, 2, 3, &lat);
  REQUIRE(r.status == FtlStatus::kOk);
  REQUIRE(r.state == BlockState::kVacated);
  REQUIRE(lat == 2);
  REQUIRE(b.Command(RelocCmd::kQuery, 1, 2, 3).state == BlockState::kFree);
  // The next copy of block 3 (any logical plane) goes to plane 2, next-fit from cursor 1: the
  // scan passes the mapped blocks 1 and 2 and takes the freed block 3.
  r = b.Command(RelocCmd::kAlloc, 1, 0, 3, &lat);
  REQUIRE(r.status == FtlStatus::kOk);
  REQUIRE(r.plane == 2);
  REQUIRE(r.block == 3);
  REQUIRE(lat == 3 + 3);
  r = b.Command(RelocCmd::kCommit, 1, 2, 3);
  REQUIRE(r.plane == 0);
  REQUIRE(r.block == 3);
  REQUIRE(b.Lookup(1, 0, 3) == RelocLookup{2, 3, 0});
  b.CheckAll();
}

TEST_CASE("reloc table: a rotation step moves a whole plane and its source becomes the phantom",
          "[ftl][reloc_table][directed]") {
  const Config& cfg = flint::kSmallConfig;
  const uint32_t extra = static_cast<uint32_t>(cfg.planes);
  RelocBench<Vreloc_small> b(1, cfg);
  b.WaitReady();
  const uint32_t die = 1, src = 1;
  // Switch at the end of the step (docs/refresh.md): every block of logical plane 1 gets a
  // reservation in the extra plane first, the copies are programmed (not modelled here), and
  // only then are the commits made; until then every read still goes to the source plane.
  std::vector<uint32_t> dst;
  for (uint32_t k = 0; k < cfg.blocks; ++k) {
    const RelocResult a = b.Command(RelocCmd::kAlloc, die, src, k);
    REQUIRE(a.status == FtlStatus::kOk);
    REQUIRE(a.plane == extra);
    dst.push_back(a.block);
  }
  for (uint32_t k = 0; k < cfg.blocks; ++k) {
    REQUIRE(b.Lookup(die, src, k) == RelocLookup{src, k, extra});
  }
  for (uint32_t k = 0; k < cfg.blocks; ++k) {
    const RelocResult c = b.Command(RelocCmd::kCommit, die, extra, dst[k]);
    REQUIRE(c.status == FtlStatus::kOk);
    REQUIRE(c.plane == src);
    REQUIRE(c.block == k);
  }
  REQUIRE(b.model().FreeBlocks(die, extra) == 0);
  for (uint32_t k = 0; k < cfg.blocks; ++k) {
    REQUIRE(b.Lookup(die, src, k).plane == extra);
    REQUIRE(b.Lookup(die, src, k).phantom == src);
  }
  // Until an erase is reported, the new phantom plane has no free block.
  RelocResult r = b.Command(RelocCmd::kAlloc, die, 0, 5);
  REQUIRE(r.status == FtlStatus::kNoFree);
  REQUIRE(r.plane == src);
  REQUIRE(b.Command(RelocCmd::kRelease, die, src, 6).status == FtlStatus::kOk);
  r = b.Command(RelocCmd::kAlloc, die, 0, 5);
  REQUIRE(r.status == FtlStatus::kOk);
  REQUIRE(r.plane == src);
  REQUIRE(r.block == 6);
  // A second reservation for the same (die, block) is refused while one is pending.
  REQUIRE(b.Command(RelocCmd::kAlloc, die, 3, 5).status == FtlStatus::kBusy);
  // ... but other dies and other blocks are independent.
  REQUIRE(b.Command(RelocCmd::kAlloc, 0, 3, 5).status == FtlStatus::kOk);
  // Abandoning the reservation frees the block and the (die, block) again.
  r = b.Command(RelocCmd::kRelease, die, src, 6);
  REQUIRE(r.state == BlockState::kReserved);
  REQUIRE(r.lplane == 0);
  REQUIRE(r.lblock == 5);
  REQUIRE(b.Command(RelocCmd::kAlloc, die, 3, 5).status == FtlStatus::kOk);
  b.CheckAll();
}

TEST_CASE("reloc table: bad blocks never enter the pool", "[ftl][reloc_table][directed]") {
  const Config& cfg = flint::kSmallConfig;
  const uint32_t extra = static_cast<uint32_t>(cfg.planes);
  RelocBench<Vreloc_small> b(1, cfg);
  b.WaitReady();
  // Factory bad block on a live plane: relocate its logical block first, then mark it.
  REQUIRE(b.Command(RelocCmd::kMarkBad, 0, 2, 4).status == FtlStatus::kWrongState);
  const RelocResult a = b.Command(RelocCmd::kAlloc, 0, 2, 4);
  REQUIRE(a.status == FtlStatus::kOk);
  REQUIRE(b.Command(RelocCmd::kCommit, 0, a.plane, a.block).status == FtlStatus::kOk);
  REQUIRE(b.Command(RelocCmd::kMarkBad, 0, 2, 4).status == FtlStatus::kOk);
  REQUIRE(b.Command(RelocCmd::kQuery, 0, 2, 4).state == BlockState::kBad);
  REQUIRE(b.Command(RelocCmd::kRelease, 0, 2, 4).status == FtlStatus::kWrongState);
  // Bad free blocks on the extra plane are skipped by the allocator; marking twice is harmless.
  for (uint32_t k : {1u, 2u, 3u}) {
    REQUIRE(b.Command(RelocCmd::kMarkBad, 0, extra, k).status == FtlStatus::kOk);
  }
  REQUIRE(b.Command(RelocCmd::kMarkBad, 0, extra, 3).state == BlockState::kBad);
  const RelocResult a2 = b.Command(RelocCmd::kAlloc, 0, 1, 0);
  REQUIRE(a2.plane == extra);
  REQUIRE(a2.block == 4);  // cursor was 1; blocks 1 to 3 are bad
  // A reserved block whose program failed: marking it bad drops the reservation.
  REQUIRE(b.Command(RelocCmd::kMarkBad, 0, extra, 4).state == BlockState::kReserved);
  REQUIRE(b.Command(RelocCmd::kCommit, 0, extra, 4).status == FtlStatus::kWrongState);
  const RelocResult a3 = b.Command(RelocCmd::kAlloc, 0, 1, 0);
  REQUIRE(a3.status == FtlStatus::kOk);
  REQUIRE(a3.block == 5);
  // Mark every other free block of the plane bad: the pool of that plane is empty.
  for (uint32_t k : {6u, 7u}) b.Command(RelocCmd::kMarkBad, 0, extra, k);
  REQUIRE(b.model().FreeBlocks(0, extra) == 0);
  REQUIRE(b.Command(RelocCmd::kAlloc, 0, 3, 7).status == FtlStatus::kNoFree);
  b.CheckAll();
}

TEST_CASE("reloc table: commands with bad arguments or in the wrong state change nothing",
          "[ftl][reloc_table][corner]") {
  const Config& cfg = flint::kSmallConfig;
  RelocBench<Vreloc_small> b(1, cfg);
  b.WaitReady();
  uint64_t lat = 0;
  const uint32_t past = static_cast<uint32_t>(cfg.phys_planes);  // 5: fits the 3-bit field
  for (RelocCmd op :
       {RelocCmd::kCommit, RelocCmd::kRelease, RelocCmd::kMarkBad, RelocCmd::kQuery}) {
    const RelocResult r = b.Command(op, 1, past + 1, 2, &lat);
    REQUIRE(r.status == FtlStatus::kOutOfRange);
    REQUIRE(lat == 1);
  }
  // Alloc names a logical plane: the extra plane is not one.
  REQUIRE(b.Command(RelocCmd::kAlloc, 0, static_cast<uint32_t>(cfg.planes), 0).status ==
          FtlStatus::kOutOfRange);
  REQUIRE(b.Command(RelocCmd::kCommit, 0, 1, 1).status == FtlStatus::kWrongState);         // mapped
  REQUIRE(b.Command(RelocCmd::kCommit, 0, past - 1, 1).status == FtlStatus::kWrongState);  // free
  REQUIRE(b.Command(RelocCmd::kRelease, 0, 1, 1).status == FtlStatus::kWrongState);
  REQUIRE(b.Command(RelocCmd::kRelease, 0, past - 1, 1).status == FtlStatus::kWrongState);
  b.CheckAll();  // still the identity, by the model
}

TEST_CASE("reloc table: lookups run every cycle and see a commit from its response on",
          "[ftl][reloc_table][corner]") {
  const Config& cfg = flint::kSmallConfig;
  const uint32_t extra = static_cast<uint32_t>(cfg.planes);
  RelocBench<Vreloc_small> b(1, cfg);
  b.WaitReady();
  const RelocResult a = b.Command(RelocCmd::kAlloc, 0, 3, 6);
  REQUIRE(a.status == FtlStatus::kOk);
  // Lookups of the moving block every cycle while the commit runs; the bench applies the commit
  // to the model in the cycle its response first shows, so every answer is checked exactly.
  Drive in;
  in.lk = true;
  in.lk_die = 0;
  in.lk_plane = 3;
  in.lk_block = 6;
  in.cmd = true;
  in.op = RelocCmd::kCommit;
  in.plane = extra;
  in.block = a.block;
  in.cmd_rsp_ready = false;  // hold the response: lookups keep going meanwhile
  int not_ready = 0, old_seen = 0, new_seen = 0;
  for (int c = 0; c < 12; ++c) {
    const Seen s = b.Step(in);
    if (s.cmd_fire) in.cmd = false;
    if (!s.lk_ready) ++not_ready;
    if (s.lk_rsp_fire) (s.lk_rsp.plane == 3 ? old_seen : new_seen)++;
  }
  REQUIRE(not_ready == 1);  // the cycle the commit reads the forward table
  REQUIRE(old_seen >= 3);
  REQUIRE(new_seen >= 6);
  in.lk = false;
  in.cmd_rsp_ready = true;
  REQUIRE(b.Step(in).cmd_rsp_fire);
}

TEST_CASE("reloc table: random remap storms with bad blocks match the model",
          "[ftl][reloc_table][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  SECTION("small") { RunStorm<Vreloc_small>(seed, flint::kSmallConfig, 1500); }
  SECTION("medium") { RunStorm<Vreloc_medium>(seed, flint::kMediumConfig, 1500); }
}

TEST_CASE("reloc table: paper size table initialises and relocates", "[ftl][reloc_table][smoke]") {
  const Config& cfg = flint::kPaperConfig;
  const uint32_t extra = static_cast<uint32_t>(cfg.planes);
  RelocBench<Vreloc_paper> b(1, cfg);
  b.WaitReady();
  REQUIRE(b.Lookup(15, 31, 255) == RelocLookup{31, 255, extra});
  REQUIRE(b.Command(RelocCmd::kQuery, 15, extra, 255).state == BlockState::kFree);
  const RelocResult a = b.Command(RelocCmd::kAlloc, 7, 20, 100);
  REQUIRE(a.status == FtlStatus::kOk);
  REQUIRE(b.Command(RelocCmd::kCommit, 7, a.plane, a.block).status == FtlStatus::kOk);
  REQUIRE(b.Lookup(7, 20, 100) == RelocLookup{extra, a.block, 20});
  REQUIRE(b.Command(RelocCmd::kRelease, 7, 20, 100).status == FtlStatus::kOk);
  REQUIRE(b.Command(RelocCmd::kQuery, 7, 20, 100).state == BlockState::kFree);
}
