// One die's refresh controller (tb/refresh/flint_refresh_die_tb.sv: flint_refresh_die on its
// maintenance sequencer and die port) against the golden model of the rotation
// (model/refresh/refresh_model.hpp), with the NAND die model attached to the maintenance port.
//
// The bench plays the rest of the die's world:
//   - the burst-buffer controller: bursts of live logical blocks (an interleaved sweep, random
//     jumps), each NEXT then ACTIVE, its stripe (the physical planes the relocation table maps the
//     block to when the burst is looked up) in res_planes_i while resident; ACTIVE's corrected
//     lines of every logical plane of this die on the fork port, in random order, with gaps,
//     duplicates, lines first uncorrectable, and bursts cut short; idle gaps (the scrubber's time);
//     the park handshake (no new burst once park_o is high, parked_i once ACTIVE and NEXT are gone,
//     after park_delay cycles);
//   - the relocation table: the model's own RelocTable answers each command, after a random latency
//     (rc_ready_i random); the read counters: each reset acknowledged after a latency;
//   - trip events on evt_*, driven only while the rotation is past its choice (Alloc to Erase), so
//     each one counts for the next choice in the RTL and in the model alike;
//   - the NAND die: commands applied to NandDie as tb/nand/maint_seq_tb.hpp does (its timing,
//     data-out, data-in), with faults injected at the n-th program of a block or erase.
// Every relocation command, counter reset, NAND program, erase and scrub read goes to the model as
// it happens; the first divergence is kept with its cycle. Also checked every cycle: the stripe
// update of each Commit's answer, no halt the model does not predict (and the NoSpare code when it
// does), no erase of a plane a resident burst reads, the scrubber's reads only parked, RTL
// assertions; at each rotation's end the counters and a read-back of every live page through the
// table from the die (the data the load put there).
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "flint_config.hpp"
#include "model/common/types.hpp"
#include "model/ecc/secded.hpp"
#include "model/ftl/ftl_types.hpp"
#include "model/nand/nand_die.hpp"
#include "model/nand/page_content.hpp"
#include "model/refresh/refresh_model.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
#include "tb/refresh/refresh_bench_util.hpp"
#include "verif/nand_port.hpp"

namespace flint::tb {

// How the world around the controller behaves.
struct RefreshStim {
  bool traffic = true;      // bursts at all
  double burst_p = 1.0;     // chance a cycle that a free NEXT takes a burst
  double gap_p = 0.05;      // chance an idle gap follows a burst
  uint32_t gap_max = 600;   // its longest length (cycles)
  double line_p = 1.0;      // chance a cycle that ACTIVE's next fork line comes
  double jump_p = 0.0;      // chance a burst is a random one, not the sweep's next
  bool skip_page0 = false;  // no burst reads page 0 of a block (no fork can start a block)
  double cut_p = 0.0;       // chance a burst leaves ACTIVE before all its lines
  double dup_p = 0.0;       // chance a line comes twice
  double bad_line_p = 0.0;  // chance a line comes uncorrectable first (then again, good)
  double cut_on_line_p = 0.0;  // chance ACTIVE leaves in the cycle of one of its lines, unfinished
  uint32_t park_delay = 0;  // cycles to park beyond the first
  double rc_ready_p = 1.0;  // relocation port ready
  uint32_t rc_lat_max = 1;  // its answer 1..rc_lat_max cycles after the command
  double cc_ready_p = 1.0;
  uint32_t cc_lat_max = 1;
};

template <class Dut>
class RefreshDieBench : public BenchRun<RefreshDieBench<Dut>> {
  using Base = BenchRun<RefreshDieBench<Dut>>;
  using Base::Check, Base::error_, Base::Fail;

 public:
  // The NAND die erases in `t_erase_cycles` (refresh_bench_util.hpp).
  RefreshDieBench(const Config& cfg, uint32_t seed, uint32_t live_blocks,
                  uint64_t t_erase_cycles = 4000)
      : cfg_(cfg),
        die_cfg_(WithEraseCycles(cfg, t_erase_cycles)),
        h_(seed, "refresh_die"),
        die_(die_cfg_, 0, seed, RefreshNandOptions()),
        port_(die_cfg_, die_),
        rng_(seed),
        live_(live_blocks),
        content_seed_(model::Mix64(seed ^ 0xc0ffeeULL)),
        model_(cfg, live_blocks,
               [this](uint32_t lp, uint32_t b, uint32_t p) { return Content(lp, b, p); }) {
    die_.SetSpareFn(model::SecdedEncode);
    // The load: logical block b of logical plane lp on physical (lp, b), the table's identity.
    for (uint32_t lp = 0; lp < cfg_.planes; ++lp) {
      for (uint32_t b = 0; b < live_; ++b) {
        PreloadBlock(die_, cfg_, lp, b, [&](uint32_t p) { return Content(lp, b, p); });
      }
    }
    auto& d = h_.dut();
    d.rst_ni = 1;
    d.enable_i = 0;
    d.live_blocks_i = live_;
    d.act_new_i = 0;
    d.act_change_i = 0;
    d.fork_valid_i = 0;
    d.bbc_empty_i = 1;
    d.parked_i = 0;
    d.res_planes_i = 0;
    d.rc_ready_i = 0;
    d.rc_rsp_valid_i = 0;
    d.cc_ready_i = 0;
    d.cc_rsp_valid_i = 0;
    d.evt_valid_i = 0;
    DriveDie();
    h_.Eval();
    h_.Reset();
    d.enable_i = 1;
  }

  Dut& dut() { return h_.dut(); }
  model::RefreshModel& model() { return model_; }
  model::NandDie& die() { return die_; }
  RefreshStim& stim() { return stim_; }
  std::mt19937& rng() { return rng_; }
  uint64_t cycle() const { return h_.cycle(); }
  bool RtlFailed() const { return h_.Failed(); }
  bool Ok() const { return error_.empty() && !h_.Failed(); }
  uint64_t rc_cmds() const { return rc_cmds_; }
  uint64_t cc_cmds() const { return cc_cmds_; }
  uint64_t nand_cmds() const { return nand_cmds_; }
  uint64_t scrub_reads() const { return scrub_reads_; }
  uint64_t park_cycles() const { return park_cycles_; }
  uint64_t bursts() const { return bursts_; }
  uint64_t cut_on_line() const { return cut_on_line_; }  // ACTIVE released with a line
  uint64_t events() const { return events_; }
  // Cycle each rotation ended (the controller's count rose).
  const std::vector<uint64_t>& rotation_ends() const { return rotation_ends_; }

  // Logical page content: page_bytes of a hash of (lplane, lblock, page).
  std::vector<uint8_t> Content(uint32_t lp, uint32_t b, uint32_t p) const {
    return HashedPage(cfg_.page_bytes, content_seed_, lp, b, p);
  }

  // A due (or limit) trip event on a physical plane, driven at the next cycle the rotation is past
  // its choice.
  void Trip(uint32_t plane, bool limit = false) { trips_.push_back({plane, limit}); }
  // Drive trip events in any phase (Mode 2 has none).
  void TripsAnyPhase() { trips_any_phase_ = true; }
  bool TripsPending() const { return !trips_.empty(); }
  // The program of page `page` of live logical block `lblock` in rotation `rotation` fails (the
  // first time it is programmed there).
  void FailProgram(uint64_t rotation, uint32_t lblock, uint32_t page) {
    prog_faults_.push_back({rotation, lblock, page, false});
  }
  // The `nth` erase (from 0) of rotation `rotation` fails.
  void FailErase(uint64_t rotation, uint32_t nth) { erase_faults_.push_back({rotation, nth}); }

  bool RunRotations(uint64_t n, uint64_t max_cycles) {
    return this->RunUntil([&] { return dut().rotations_o >= n || model_.halted(); }, max_cycles,
                          std::to_string(n) + " rotations");
  }

  // Every live logical page, where the table maps it, holds the load's data.
  std::string ReadBack() {
    std::vector<uint8_t> img(cfg_.page_image_bytes);
    for (uint32_t lp = 0; lp < cfg_.planes; ++lp) {
      for (uint32_t b = 0; b < live_; ++b) {
        const model::RelocLookup loc = model_.table().Lookup(0, lp, b);
        for (uint32_t p = 0; p < cfg_.pages; ++p) {
          const model::PageImage stored = die_.StoredImage({loc.plane, loc.block, p});
          model::MaterialiseImage(die_cfg_, stored, die_.spare_fn(), 0, img.size(), img.data());
          const model::DecodedBlock dec = model::DecodeImage(img.data(), img.size());
          if (dec.status != Status::kOk || dec.data != Content(lp, b, p)) {
            std::ostringstream os;
            os << "read-back of logical page (" << lp << ", " << b << ", " << p << ") at "
               << loc.plane << "/" << loc.block << ": "
               << (dec.status != Status::kOk ? "not a clean codeword" : "data differs");
            return os.str();
          }
        }
      }
    }
    return "";
  }
  // The controller's counters against the model's, now.
  void CheckCounters() {
    auto& d = h_.dut();
    Check(model_.Counters(d.rotations_o, d.programmed_o, d.erased_o, d.retired_prog_o,
                          d.retired_erase_o));
  }

  void Step() {
    auto& d = h_.dut();
    now_ = h_.cycle();
    DriveDie();
    DriveBbc();
    DriveTables();
    DriveTrips();
    h_.Eval();
    Sample();
    // Park: the controller (or its sequencer) asks; parked once nothing is resident.
    park_req_ = d.park_o;
    if (park_req_) {
      ++park_cycles_;
      if (!active_ && !next_) ++park_run_;
    } else {
      park_run_ = 0;
    }
    parked_ = park_req_ && park_run_ > stim_.park_delay;
    h_.TickAfterEval();
    // The rising edge's outputs: a rotation ended at this edge.
    if (d.rotations_o != last_rotations_) {
      last_rotations_ = d.rotations_o;
      rotation_ends_.push_back(now_);
      if (d.phantom_o != model_.phantom())
        Fail("the new phantom is plane " + std::to_string(d.phantom_o) + ", expected plane " +
             std::to_string(model_.phantom()) + " (the old source)");
      CheckCounters();
      Check(ReadBack());
    }
  }

 private:
  struct Line {
    uint32_t lplane, line;
    Status status;
    std::vector<uint8_t> data;
  };
  struct Burst {
    uint32_t block = 0, page = 0;
    uint32_t planes = 0;  // stripe mask
    std::vector<Line> lines;
    size_t pos = 0;
    uint64_t start = 0;
  };
  struct ProgFault {
    uint64_t rotation;
    uint32_t lblock, page;
    bool fired;
  };
  struct EraseFault {
    uint64_t rotation;
    uint32_t nth;
  };
  struct Pending {
    uint64_t at;
    model::RelocResult rsp;
  };

  // --- the die ---------------------------------------------------------------------------
  void DriveDie() { port_.Drive(h_.dut(), h_.cycle()); }

  void ApplyNand() {
    auto& d = h_.dut();
    const uint64_t t = h_.cycle();
    if (d.nand_m_valid_o) ++nand_cmds_;
    try {
      std::optional<typename verif::MaintPortDie<Dut>::Cmd> cmd = port_.Sample(d, t);
      if (!cmd) return;
      const uint32_t plane = cmd->plane, block = cmd->block, page = cmd->page;
      switch (cmd->op) {
        case model::NandCmd::kRead:
          if (!d.parked_i) Fail("a scrub read while the controller is not parked");
          ++scrub_reads_;
          Check(model_.ScrubRead(plane, block, page));
          die_.Read({{plane, block}}, page, t);
          break;
        case model::NandCmd::kProgram: {
          const std::vector<uint8_t>& image = cmd->image;
          if (image.size() != cfg_.page_image_bytes) {
            Fail("a program with " + std::to_string(image.size()) + " image bytes");
            break;
          }
          InjectProgramFault(plane, block, page);
          const model::DecodedBlock dec = model::DecodeImage(image.data(), image.size());
          const model::OpResult res =
              die_.ProgramBytes(model::PageAddr{plane, block, page}, image, t);
          Check(model_.Program(plane, block, page, dec.data, res.pass));
          break;
        }
        case model::NandCmd::kErase: {
          if (erase_rotation_ != model_.rotations()) {
            erase_rotation_ = model_.rotations();
            erase_nth_ = 0;
          }
          for (const EraseFault& f : erase_faults_) {
            if (f.rotation == model_.rotations() && f.nth == erase_nth_)
              die_.InjectFault(plane, block, model::Fault::kEraseFail);
          }
          ++erase_nth_;
          const bool resident = (res_mask_ >> plane) & 1u;
          const model::OpResult res = die_.Erase(plane, block, t);
          Check(model_.Erase(plane, block, res.pass, resident));
          break;
        }
        default:
          Fail("opcode " + std::to_string(static_cast<int>(cmd->op)) + " on the maintenance port");
      }
    } catch (const std::exception& e) {
      Fail(std::string("the die refused: ") + e.what());
    }
  }
  void InjectProgramFault(uint32_t plane, uint32_t block, uint32_t page) {
    for (ProgFault& f : prog_faults_) {
      if (f.fired || f.rotation != model_.rotations() || !model_.copying() ||
          plane != model_.phantom() || f.lblock >= live_ || model_.Target(f.lblock) != block ||
          page != f.page) {
        continue;
      }
      die_.InjectFault(plane, block, model::Fault::kProgramFail);
      f.fired = true;
    }
  }

  // --- the burst-buffer controller --------------------------------------------------------
  Burst MakeBurst() {
    std::uniform_real_distribution<double> u(0, 1);
    Burst bu;
    if (u(rng_) < stim_.jump_p) {
      bu.block = static_cast<uint32_t>(rng_() % live_);
      bu.page = static_cast<uint32_t>(rng_() % cfg_.pages);
    } else {
      bu.block = static_cast<uint32_t>(sweep_ % live_);
      bu.page = static_cast<uint32_t>((sweep_ / live_) % cfg_.pages);
      ++sweep_;
    }
    if (stim_.skip_page0 && bu.page == 0)
      bu.page = 1 + static_cast<uint32_t>(rng_() % (cfg_.pages - 1));
    for (uint32_t lp = 0; lp < cfg_.planes; ++lp) {
      bu.planes |= 1u << model_.table().Lookup(0, lp, bu.block).plane;
    }
    const uint32_t lb = static_cast<uint32_t>(cfg_.cl_bytes);
    for (uint32_t lp = 0; lp < cfg_.planes; ++lp) {
      const std::vector<uint8_t> page = Content(lp, bu.block, bu.page);
      for (uint32_t l = 0; l < cfg_.cl_per_page; ++l) {
        Line li{lp, l, Status::kOk,
                std::vector<uint8_t>(page.begin() + l * lb, page.begin() + (l + 1) * lb)};
        bu.lines.push_back(li);
      }
    }
    std::shuffle(bu.lines.begin(), bu.lines.end(), rng_);
    // Duplicates, and lines first uncorrectable (their data wrong) and then good.
    std::vector<Line> out;
    for (const Line& li : bu.lines) {
      if (u(rng_) < stim_.bad_line_p) {
        Line bad = li;
        bad.status = Status::kUncorrectable;
        for (auto& byte : bad.data) byte = static_cast<uint8_t>(byte ^ 0x5a);
        out.push_back(bad);
      }
      out.push_back(li);
      if (u(rng_) < stim_.dup_p) out.push_back(li);
    }
    bu.lines.swap(out);
    if (u(rng_) < stim_.cut_p) bu.lines.resize(rng_() % bu.lines.size());
    ++bursts_;
    return bu;
  }

  void DriveBbc() {
    auto& d = h_.dut();
    std::uniform_real_distribution<double> u(0, 1);
    d.act_new_i = 0;
    d.act_change_i = 0;
    d.fork_valid_i = 0;
    if (active_ && active_->pos >= active_->lines.size() && now_ >= active_->start) {
      d.act_change_i = 1;
      active_.reset();
      if (u(rng_) < stim_.gap_p)
        gap_until_ = now_ + 1 + rng_() % std::max<uint32_t>(stim_.gap_max, 1);
    }
    if (!active_ && next_ && !parked_) {
      active_ = std::move(next_);
      next_.reset();
      active_->start = now_ + 2 + rng_() % 3;  // no line in the fork's lookup cycle
      d.act_new_i = 1;
      d.act_lblock_i = active_->block;
      d.act_page_i = active_->page;
    }
    if (stim_.traffic && !next_ && !park_req_ && !parked_ && now_ >= gap_until_ &&
        u(rng_) < stim_.burst_p) {
      next_ = MakeBurst();
    }
    if (active_ && now_ >= active_->start && active_->pos < active_->lines.size() &&
        u(rng_) < stim_.line_p) {
      const Line& li = active_->lines[active_->pos++];
      d.fork_valid_i = 1;
      d.fork_lplane_i = li.lplane;
      d.fork_line_i = li.line;
      d.fork_status_i = static_cast<uint8_t>(li.status);
      PutBytes(d.fork_data_i, 0, li.data);
      // The BBC releases ACTIVE in the cycle a line of it arrives, the rest never read (as when
      // the accelerator stops reading a burst, or an uncorrectable line is not read again).
      if (active_->pos < active_->lines.size() && u(rng_) < stim_.cut_on_line_p) {
        d.act_change_i = 1;
        active_.reset();
        ++cut_on_line_;
      }
    }
    d.bbc_empty_i = !active_ && !next_;
    res_mask_ = (active_ ? active_->planes : 0u) | (next_ ? next_->planes : 0u);
    d.res_planes_i = res_mask_;
    d.parked_i = parked_;
  }

  // --- relocation table, read counters, trip events -----------------------------------------
  void DriveTables() {
    auto& d = h_.dut();
    std::uniform_real_distribution<double> u(0, 1);
    d.rc_rsp_valid_i = 0;
    if (rc_pend_ && rc_pend_->at <= now_) {
      const model::RelocResult& r = rc_pend_->rsp;
      d.rc_rsp_valid_i = 1;
      d.rc_rsp_status_i = static_cast<uint8_t>(r.status);
      d.rc_rsp_state_i = static_cast<uint8_t>(r.state);
      d.rc_rsp_plane_i = r.plane;
      d.rc_rsp_block_i = r.block;
      d.rc_rsp_lplane_i = r.lplane;
      d.rc_rsp_lblock_i = r.lblock;
    }
    d.rc_ready_i = !rc_pend_ && u(rng_) < stim_.rc_ready_p;
    d.cc_rsp_valid_i = cc_pend_at_ && *cc_pend_at_ <= now_;
    d.cc_ready_i = !cc_pend_at_ && u(rng_) < stim_.cc_ready_p;
  }
  void DriveTrips() {
    auto& d = h_.dut();
    d.evt_valid_i = 0;
    const uint32_t phase = d.phase_o;  // Alloc (3) to Erase (8): past the choice
    if (!trips_.empty() && (trips_any_phase_ || (phase >= 3 && phase <= 8))) {
      d.evt_valid_i = 1;
      d.evt_plane_i = trips_.front().first;
      d.evt_block_i = static_cast<uint32_t>(rng_() % cfg_.blocks);
      d.evt_limit_i = trips_.front().second;
      model_.TripEvent(trips_.front().first, trips_.front().second);
      trips_.pop_front();
      ++events_;
    }
  }

  void Sample() {
    auto& d = h_.dut();
    std::uniform_int_distribution<uint32_t> rc_lat(1, std::max<uint32_t>(stim_.rc_lat_max, 1));
    std::uniform_int_distribution<uint32_t> cc_lat(1, std::max<uint32_t>(stim_.cc_lat_max, 1));
    // Answers given this cycle: a Commit's is the stripe table's update.
    if (d.rc_rsp_valid_i) {
      const model::RelocResult r = rc_pend_->rsp;
      const bool commit = rc_pend_op_ == RelocCmd::kCommit;
      const bool upd_ok = d.upd_valid_o == (commit && r.status == FtlStatus::kOk);
      if (!upd_ok || (d.upd_valid_o &&
                      (d.upd_lplane_o != r.lplane || d.upd_lblock_o != r.lblock ||
                       d.upd_pplane_o != rc_pend_plane_ || d.upd_pblock_o != rc_pend_block_))) {
        Fail("stripe update wrong at the answer to " + std::string(ToString(rc_pend_op_)));
      }
      rc_pend_.reset();
    }
    if (d.cc_rsp_valid_i) cc_pend_at_.reset();
    if (d.rc_valid_o && d.rc_ready_i) {
      ++rc_cmds_;
      model::RelocResult ans;
      rc_pend_op_ = static_cast<RelocCmd>(d.rc_op_o);
      rc_pend_plane_ = d.rc_plane_o;
      rc_pend_block_ = d.rc_block_o;
      Check(model_.Reloc(rc_pend_op_, d.rc_plane_o, d.rc_block_o, &ans));
      rc_pend_ = Pending{now_ + rc_lat(rng_), ans};
    }
    if (d.cc_valid_o && d.cc_ready_i) {
      ++cc_cmds_;
      Check(model_.CounterReset(d.cc_plane_o, d.cc_block_o));
      cc_pend_at_ = now_ + cc_lat(rng_);
    }
    ApplyNand();
    // A halt only where the model predicts one, and then NoSpare.
    if (d.err_o && !model_.halted())
      Fail("the controller halted (code " + std::to_string(d.err_code_o) + "), the model did not");
    if (d.err_o && d.err_code_o != 5)
      Fail("the controller halted with code " + std::to_string(d.err_code_o) +
           ", expected 5 (RefreshErrNoSpare)");
  }

  const Config& cfg_;
  Config die_cfg_;
  Harness<Dut> h_;
  model::NandDie die_;
  verif::MaintPortDie<Dut> port_;
  std::mt19937 rng_;
  uint32_t live_;
  uint64_t content_seed_;
  model::RefreshModel model_;
  RefreshStim stim_;
  uint64_t now_ = 0;
  // BBC
  std::optional<Burst> active_, next_;
  uint64_t sweep_ = 0, gap_until_ = 0;
  bool park_req_ = false, parked_ = false;
  uint32_t park_run_ = 0, res_mask_ = 0;
  // tables, events, faults
  std::optional<Pending> rc_pend_;
  RelocCmd rc_pend_op_ = RelocCmd::kQuery;
  uint32_t rc_pend_plane_ = 0, rc_pend_block_ = 0;
  std::optional<uint64_t> cc_pend_at_;
  std::deque<std::pair<uint32_t, bool>> trips_;
  bool trips_any_phase_ = false;
  std::vector<ProgFault> prog_faults_;
  std::vector<EraseFault> erase_faults_;
  uint64_t erase_rotation_ = ~uint64_t{0};
  uint32_t erase_nth_ = 0;
  // statistics
  uint64_t rc_cmds_ = 0, cc_cmds_ = 0, nand_cmds_ = 0, scrub_reads_ = 0, park_cycles_ = 0;
  uint64_t bursts_ = 0, events_ = 0, cut_on_line_ = 0;
  uint32_t last_rotations_ = 0;
  std::vector<uint64_t> rotation_ends_;
};

}  // namespace flint::tb
