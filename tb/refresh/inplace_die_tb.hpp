// One die's in-place refresh (tb/refresh/flint_refresh_inplace_die_tb.sv: flint_refresh_inplace_die
// on its maintenance sequencer and die port) against its golden model
// (model/refresh/inplace_model.hpp), with the NAND die model attached to the maintenance port.
//
// The bench plays the rest of the die's world:
//   - the load: every block of every physical plane holds pages of a hash of their address, with
//     the correctable errors and poisoned (uncorrectable) lines a test puts in;
//   - the read counters: due and limit events on evt_*, one a cycle, in the order a test queues
//     them; each count reset acknowledged after a random latency (cc_ready_i random);
//   - the burst-buffer controller's park: parked_i some cycles after park_o rises (park_delay),
//     down with it;
//   - the NAND die (verif::MaintPortDie), with faults: the erase, or the program of a page, of the
//     n-th block refreshed fails.
// Checked as it happens, against the model: the die's park, every transaction with the sequencer
// (request, program beat, read line, answer; the monitor ports), every count reset and its answer,
// the halt and its code; no sense counted; the NAND commands of the read port only parked (the die
// model refuses any illegal command); after each block's refresh, its pages read from the die:
// the load's data in clean codewords, a poisoned line uncorrectable. The counters on demand
// (CheckCounters()). The first divergence is kept with its cycle.
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
#include "model/nand/nand_die.hpp"
#include "model/nand/page_content.hpp"
#include "model/refresh/inplace_model.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
#include "tb/refresh/refresh_bench_util.hpp"
#include "verif/nand_port.hpp"

namespace flint::tb {

// How the world around the die behaves.
struct InplaceStim {
  uint32_t park_delay = 0;  // cycles to park beyond the first
  double cc_ready_p = 1.0;  // the counters take a reset
  uint32_t cc_lat_max = 1;  // its answer 1..cc_lat_max cycles after
};

// One block's refresh as the bench saw it (cycles).
struct InplaceSpan {
  uint32_t plane = 0, block = 0;
  uint64_t park_up = 0, first_req = 0, count_done = 0, park_down = 0;
};

template <class Dut>
class InplaceDieBench : public BenchRun<InplaceDieBench<Dut>> {
  using Base = BenchRun<InplaceDieBench<Dut>>;
  using Base::Check, Base::error_, Base::Fail;

 public:
  // The NAND die erases in `t_erase_cycles` (refresh_bench_util.hpp). The die starts disabled:
  // Enable() once the test has queued what it wants before.
  InplaceDieBench(const Config& cfg, uint32_t seed, uint64_t t_erase_cycles = 4000)
      : cfg_(cfg),
        die_cfg_(WithEraseCycles(cfg, t_erase_cycles)),
        h_(seed, "refresh_inplace_die"),
        die_(die_cfg_, 0, seed, RefreshNandOptions()),
        port_(die_cfg_, die_),
        rng_(seed),
        content_seed_(model::Mix64(seed ^ 0x1dbULL)),
        model_(cfg, [this](uint32_t pl, uint32_t b, uint32_t p) { return Content(pl, b, p); }) {
    die_.SetSpareFn(model::SecdedEncode);
    line_.resize(cfg_.cl_bytes);
    for (uint32_t pl = 0; pl < cfg_.phys_planes; ++pl) {
      for (uint32_t b = 0; b < cfg_.blocks; ++b) {
        PreloadBlock(die_, cfg_, pl, b, [&](uint32_t p) { return Content(pl, b, p); });
      }
    }
    auto& d = h_.dut();
    d.rst_ni = 1;
    d.enable_i = 0;
    d.parked_i = 0;
    d.cc_ready_i = 0;
    d.cc_rsp_valid_i = 0;
    d.evt_valid_i = 0;
    port_.Drive(d, h_.cycle());
    h_.Eval();
    h_.Reset();
  }

  Dut& dut() { return h_.dut(); }
  model::InplaceModel& model() { return model_; }
  model::NandDie& die() { return die_; }
  InplaceStim& stim() { return stim_; }
  uint64_t cycle() const { return h_.cycle(); }
  bool RtlFailed() const { return h_.Failed(); }
  const std::vector<InplaceSpan>& spans() const { return spans_; }
  uint64_t park_cycles() const { return park_cycles_; }

  // Physical page content: page_bytes of a hash of (plane, block, page).
  std::vector<uint8_t> Content(uint32_t pl, uint32_t b, uint32_t p) const {
    return HashedPage(cfg_.page_bytes, content_seed_, pl, b, p);
  }

  void Enable() {
    dut().enable_i = 1;
    model_.Enable();
  }
  // Trip events, driven one a cycle from the next, in order.
  void Due(uint32_t plane, uint32_t block) { events_.push_back({plane, block, false}); }
  void Limit(uint32_t plane, uint32_t block) { events_.push_back({plane, block, true}); }
  bool EventsPending() const { return !events_.empty(); }
  // The load's errors: a correctable one (a data bit of the line's first word) or two in that
  // word (uncorrectable: the line is poisoned).
  void CorruptLine(uint32_t plane, uint32_t block, uint32_t page, uint32_t line) {
    die_.CorruptPage({plane, block, page}, {LineBit(line, 3)});
    model_.CorruptLine(plane, block, page, line);
  }
  void PoisonLine(uint32_t plane, uint32_t block, uint32_t page, uint32_t line) {
    die_.CorruptPage({plane, block, page}, {LineBit(line, 3), LineBit(line, 12)});
    model_.PoisonLine(plane, block, page, line);
  }
  // The erase of the n-th block refreshed (from 0) fails; the program of its page `page` fails.
  void FailErase(uint64_t nth) { erase_fault_ = nth; }
  void FailProgram(uint64_t nth, uint32_t page) { prog_fault_ = std::make_pair(nth, page); }

  // Until every queued event is driven and every due block refreshed (or the die halted).
  bool RunIdle(uint64_t max_cycles) {
    return this->RunUntil(
        [&] {
          return events_.empty() &&
                 ((!model_.busy() && model_.counts().pending == 0) || model_.halted());
        },
        max_cycles, "idle");
  }
  // The die's counters against the model's, now.
  void CheckCounters() {
    auto& d = h_.dut();
    model::InplaceCounts c;
    c.refreshed = d.refreshed_o;
    c.read_out = d.read_out_o;
    c.programmed = d.programmed_o;
    c.erased = d.erased_o;
    c.poisoned = d.poisoned_o;
    c.due = d.due_o;
    c.limit = d.limit_o;
    c.pending = d.pending_o;
    c.alarm = d.alarm_o;
    Check(model_.Counters(c));
  }
  // Every page of a block as the die stores it: the load's data in clean codewords, a poisoned
  // line uncorrectable.
  std::string CheckBlock(uint32_t plane, uint32_t block) {
    std::vector<uint8_t> img(cfg_.page_image_bytes);
    const size_t li = cfg_.cl_image_bytes;
    for (uint32_t p = 0; p < cfg_.pages; ++p) {
      const model::PageImage stored = die_.StoredImage({plane, block, p});
      model::MaterialiseImage(die_cfg_, stored, die_.spare_fn(), 0, img.size(), img.data());
      for (uint32_t l = 0; l < cfg_.cl_per_page; ++l) {
        const model::DecodedBlock dec = model::DecodeImage(img.data() + l * li, li);
        const bool bad = model_.Poisoned(plane, block, p, l);
        const bool ok =
            bad ? dec.status == Status::kUncorrectable
                : dec.status == Status::kOk && dec.data == model_.LineData(plane, block, p, l);
        if (!ok) {
          std::ostringstream os;
          os << "block " << plane << "/" << block << " page " << p << " line " << l
             << " after its refresh: " << ToString(dec.status)
             << (bad ? ", expected uncorrectable (poisoned)" : ", expected the load's data, clean");
          return os.str();
        }
      }
    }
    return "";
  }

  void Step() {
    auto& d = h_.dut();
    now_ = h_.cycle();
    port_.Drive(d, now_);
    DriveWorld();
    h_.Eval();
    Sample();
    // The park: parked park_delay + 1 cycles after the request, down with it.
    park_req_ = d.park_o;
    park_run_ = park_req_ ? park_run_ + 1 : 0;
    if (park_req_) ++park_cycles_;
    parked_ = park_req_ && park_run_ > stim_.park_delay;
    h_.TickAfterEval();
  }

 private:
  struct Event {
    uint32_t plane, block;
    bool limit;
  };

  uint32_t LineBit(uint32_t line, uint32_t bit) const {
    return static_cast<uint32_t>(line * cfg_.cl_image_bytes * 8 + bit);
  }

  void DriveWorld() {
    auto& d = h_.dut();
    std::uniform_real_distribution<double> u(0, 1);
    d.parked_i = parked_;
    d.cc_rsp_valid_i = cc_pend_at_ && *cc_pend_at_ <= now_;
    d.cc_ready_i = !cc_pend_at_ && u(rng_) < stim_.cc_ready_p;
    d.evt_valid_i = !events_.empty();
    if (!events_.empty()) {
      const Event e = events_.front();
      events_.pop_front();
      d.evt_plane_i = e.plane;
      d.evt_block_i = e.block;
      d.evt_limit_i = e.limit;
      if (e.limit) {
        model_.Limit(e.plane, e.block);
      } else {
        model_.Due(e.plane, e.block);
      }
    }
  }

  void Sample() {
    auto& d = h_.dut();
    if (d.err_o && !halted_) {
      halted_ = true;
      Check(model_.Halt(d.err_code_o));
    }
    if (static_cast<bool>(d.ip_park_o) != ip_park_) {
      ip_park_ = d.ip_park_o;
      Check(model_.Park(ip_park_));
      if (ip_park_) {
        spans_.push_back({});
        spans_.back().park_up = now_;
      } else if (!spans_.empty()) {
        spans_.back().park_down = now_;
      }
    }
    if (d.mon_req_go_o) {
      const MaintReq req = MaintReq::Unpack(d.mon_req_o);
      if (req.op == MaintOp::kReadPage && req.page == 0 && !spans_.empty()) {
        spans_.back().plane = req.plane;
        spans_.back().block = req.block;
        spans_.back().first_req = now_;
      }
      Check(model_.Request(req, d.parked_i));
    }
    if (d.mon_wr_go_o) {
      GetBytesInto(d.mon_wr_data_o, 0, static_cast<uint32_t>(cfg_.cl_bytes), line_.data());
      Check(model_.WriteBeat(line_, d.mon_wr_poison_o));
    }
    if (d.mon_rd_go_o) {
      GetBytesInto(d.mon_rd_data_o, 0, static_cast<uint32_t>(cfg_.cl_bytes), line_.data());
      Check(model_.ReadLine(d.mon_rd_line_o, line_, static_cast<Status>(d.mon_rd_status_o)));
    }
    if (d.mon_rsp_go_o) Check(model_.Response(MaintRsp::Unpack(d.mon_rsp_o)));
    if (d.cc_rsp_valid_i) {
      cc_pend_at_.reset();
      const uint32_t pl = model_.plane(), b = model_.block();
      Check(model_.CounterAnswered());
      if (!spans_.empty()) spans_.back().count_done = now_;
      if (error_.empty()) Check(CheckBlock(pl, b));
    }
    if (d.cc_valid_o && d.cc_ready_i) {
      std::uniform_int_distribution<uint32_t> lat(1, std::max<uint32_t>(stim_.cc_lat_max, 1));
      Check(model_.CounterReset(d.cc_plane_o, d.cc_block_o));
      cc_pend_at_ = now_ + lat(rng_);
    }
    if (d.sn_valid_o) Fail("a sense counted for the read-out");
    ApplyNand();
  }

  void ApplyNand() {
    auto& d = h_.dut();
    const uint64_t t = h_.cycle();
    try {
      std::optional<typename verif::MaintPortDie<Dut>::Cmd> cmd = port_.Sample(d, t);
      if (!cmd) return;
      const uint32_t plane = cmd->plane, block = cmd->block, page = cmd->page;
      const uint64_t nth = model_.counts().refreshed;  // the block being refreshed
      switch (cmd->op) {
        case model::NandCmd::kRead:
          if (!d.parked_i) Fail("a NAND read while the controller is not parked");
          die_.Read({{plane, block}}, page, t);
          break;
        case model::NandCmd::kProgram:
          if (prog_fault_ && prog_fault_->first == nth && prog_fault_->second == page) {
            die_.InjectFault(plane, block, model::Fault::kProgramFail);
            model_.FailProgram(plane, block, page);
            prog_fault_.reset();
          }
          die_.ProgramBytes(model::PageAddr{plane, block, page}, cmd->image, t);
          break;
        case model::NandCmd::kErase:
          if (erase_fault_ && *erase_fault_ == nth) {
            die_.InjectFault(plane, block, model::Fault::kEraseFail);
            model_.FailErase(plane, block);
            erase_fault_.reset();
          }
          die_.Erase(plane, block, t);
          break;
        default:
          Fail("opcode " + std::to_string(static_cast<int>(cmd->op)) + " on the maintenance port");
      }
    } catch (const std::exception& e) {
      Fail(std::string("the die refused: ") + e.what());
    }
  }

  const Config& cfg_;
  Config die_cfg_;
  Harness<Dut> h_;
  model::NandDie die_;
  verif::MaintPortDie<Dut> port_;
  std::mt19937 rng_;
  uint64_t content_seed_;
  model::InplaceModel model_;
  InplaceStim stim_;
  uint64_t now_ = 0;
  std::vector<uint8_t> line_;  // a monitored line (cl_bytes)
  // the world
  std::deque<Event> events_;
  std::optional<uint64_t> cc_pend_at_;
  bool park_req_ = false, parked_ = false, ip_park_ = false, halted_ = false;
  uint32_t park_run_ = 0;
  std::optional<uint64_t> erase_fault_;
  std::optional<std::pair<uint64_t, uint32_t>> prog_fault_;
  // what the bench saw
  std::vector<InplaceSpan> spans_;
  uint64_t park_cycles_ = 0;
};

}  // namespace flint::tb
