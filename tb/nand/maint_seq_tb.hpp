// The maintenance sequencer (rtl/nand/flint_maint_seq.sv, in tb/nand/flint_maint_seq_tb.sv
// behind its flint_die_port) attached to a NandDie, the oracle. The die refuses any illegal
// command (busy plane, cache buffer being read out, I/O busy, out-of-order program, bad block):
// every refusal is a failure. Per cycle: drive the die's readiness and data-out return and the
// client's requests, beats and readies; Eval(); sample the transfers and check them; apply this
// cycle's maintenance command and data-in beat to the die (the contract of verif/top/attach.hpp:
// a Program sees the beats of the cycles before it; a data-out returns when the die I/O is done
// with it, one cycle later at the earliest); tick.
//
// The bench keeps a shadow of every page (its image as programmed, with injected corruption) and
// tracks the request in the sequencer's front end and the programs and erases issued and not yet
// answered (at most one a plane), by tag. It checks: every command belongs to the front end's
// request, names its plane/block/page and comes in the request's order; no program or erase to a
// plane with one outstanding;
// the read-port commands (Read, CacheEnd, DataOut) only while the controller side is parked;
// every data-out image equals the shadow's line; every line the sequencer returns is that image
// decoded by the SEC-DED model (data and status), in line order, exactly ClPerPage of them; every
// program's data-in is the ECC image of the lines the client gave (poisoned lines with two check
// bits flipped); every request gets exactly one response, with its tag, op and address echoed
// and the status the die's result implies, a program's or erase's only once its plane is idle.
// Submit() gives each request a tag (distinct among those outstanding). The first divergence is
// kept (cycle, request number, expected, actual); tests check Error() once.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
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
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
#include "verif/nand_port.hpp"

namespace flint::tb {

struct MaintTxn {
  MaintReq req;
  std::vector<std::vector<uint8_t>> lines;  // ProgramPage: the page's data, a line each
  std::vector<bool> poison;                 // ProgramPage: lines to write as uncorrectable
};

// How the client side and the controller side behave (all 1 / 0: no back-pressure, no gaps).
struct MaintClient {
  double req_p = 1.0;  // chance a cycle that a waiting request is offered
  double wr_p = 1.0;   // ... that the next program beat is offered
  double rd_ready_p = 1.0;
  double rsp_ready_p = 1.0;
  uint32_t park_delay = 0;  // cycles the controller side takes to park (beyond the first)
  // The sequencer has a line FIFO (OutDepth >= 2): rd_ready is free. Without one (OutDepth 0)
  // the client keeps rd_ready high from a data-out until its line is back, as flint_top's do.
  bool buffered = false;
};

template <class Dut>
class MaintBench {
 public:
  MaintBench(const Config& cfg, uint32_t seed, const model::NandOptions& nopt = Quiet())
      : cfg_(cfg), h_(seed, "maint_seq"), die_(cfg, 0, seed, WriteOffIo(nopt)), rng_(seed) {
    die_.SetSpareFn(model::SecdedEncode);
    auto& d = h_.dut();
    d.rst_ni = 1;
    d.req_valid_i = 0;
    d.wr_valid_i = 0;
    d.rd_ready_i = 0;
    d.rsp_ready_i = 0;
    d.parked_i = 0;
    DriveDie();
    h_.Eval();
    h_.Reset();
  }
  static model::NandOptions Quiet() {
    model::NandOptions o;
    o.reliability.base_rber = 0;  // exact images: errors only where a test injects them
    o.reliability.rber_at_limit = 0;
    return o;
  }

  model::NandDie& die() { return die_; }
  Dut& dut() { return h_.dut(); }
  MaintClient& client() { return client_; }
  uint64_t cycle() const { return h_.cycle(); }
  bool Failed() const { return h_.Failed(); }
  const std::string& Error() const { return error_; }
  uint64_t errors() const { return errors_; }
  uint64_t responses() const { return responses_; }
  const std::vector<MaintRsp>& rsps() const { return rsps_; }
  // The lines of the last ReadPage as the sequencer returned them: data and status.
  const std::vector<std::vector<uint8_t>>& last_lines() const { return last_lines_; }
  const std::vector<Status>& last_status() const { return last_status_; }
  // Cycles: of the last accepted request, of its response, park_o high, first park_o, first
  // parked read-port command (of the last request).
  uint64_t accepted_at() const { return accepted_at_; }
  // Cycle of each response, as rsps(); the most programs and erases seen in flight at once.
  const std::vector<uint64_t>& rsp_cycles() const { return rsp_cycles_; }
  size_t max_in_flight() const { return max_in_flight_; }
  uint64_t responded_at() const { return responded_at_; }
  uint64_t park_cycles() const { return park_cycles_; }
  uint64_t park_rose_at() const { return park_rose_at_; }
  uint64_t first_read_cmd_at() const { return first_read_cmd_at_; }
  uint64_t park_during_write() const { return park_during_write_; }

  // Queues a request; returns the tag it goes with.
  uint32_t Submit(MaintTxn t) {
    t.req.tag = next_tag_;
    next_tag_ = (next_tag_ + 1) % (1u << kMaintTagBits);
    queue_.push_back(t);
    return t.req.tag;
  }
  bool Idle() const { return queue_.empty() && !active_ && slots_.empty(); }

  // Runs until every submitted request is answered, the first divergence (the sequencer may then
  // wait for ever on a die that refused it), or `max_cycles` (an error).
  void Drain(uint64_t max_cycles = 2000000) {
    const uint64_t stop = h_.cycle() + max_cycles;
    while (!Idle() && errors_ == 0 && h_.cycle() < stop) Step();
    if (!Idle() && errors_ == 0)
      Fail("requests still unanswered after " + std::to_string(max_cycles) + " cycles");
  }
  MaintRsp Run(const MaintTxn& t) {
    Submit(t);
    Drain();
    return rsps_.empty() ? MaintRsp{} : rsps_.back();
  }

  // Shadow-aware fault and corruption hooks.
  void CorruptPage(uint32_t plane, uint32_t block, uint32_t page,
                   const std::vector<uint32_t>& bits) {
    die_.CorruptPage(model::PageAddr{plane, block, page}, bits);
    auto& img = Page(plane, block, page);
    if (img) {
      for (uint32_t b : bits) (*img)[b / 8] = static_cast<uint8_t>((*img)[b / 8] ^ (1u << (b % 8)));
    }
  }
  bool BlockBad(uint32_t plane, uint32_t block) { return Shadow(plane, block).bad; }
  uint32_t WritePointer(uint32_t plane, uint32_t block) { return Shadow(plane, block).wp; }

  // The page's image as the shadow knows it (nullopt: garbage of a failed program).
  std::optional<std::vector<uint8_t>>& Page(uint32_t plane, uint32_t block, uint32_t page) {
    return Shadow(plane, block).pages.at(page);
  }
  // A whole page's image from lines of data, poisoned lines as flint_ecc_cl_img writes them.
  std::vector<uint8_t> ImageOf(const MaintTxn& t) const {
    std::vector<uint8_t> img;
    for (size_t l = 0; l < t.lines.size(); ++l) {
      std::vector<uint8_t> li = model::ImageFromData(t.lines[l], model::SecdedEncode);
      if (t.poison[l]) {
        for (size_t w = 8; w < li.size(); w += 9) li[w] = static_cast<uint8_t>(li[w] ^ 0x03);
      }
      img.insert(img.end(), li.begin(), li.end());
    }
    return img;
  }
  MaintTxn RandomProgram(uint32_t plane, uint32_t block, uint32_t page, double poison_p = 0) {
    MaintTxn t;
    t.req = {MaintOp::kProgramPage, plane, block, page};
    std::uniform_int_distribution<int> byte(0, 255);
    std::bernoulli_distribution poison(poison_p);
    for (uint64_t l = 0; l < cfg_.cl_per_page; ++l) {
      std::vector<uint8_t> line(cfg_.cl_bytes);
      for (auto& b : line) b = static_cast<uint8_t>(byte(rng_));
      t.lines.push_back(line);
      t.poison.push_back(poison(rng_));
    }
    return t;
  }
  std::mt19937& rng() { return rng_; }

  void Step() {
    auto& d = h_.dut();
    const uint64_t t = h_.cycle();
    DriveDie();
    d.parked_i = parked_;
    DriveClient();
    h_.Eval();
    Sample();
    ApplyNand();
    // The controller side parks park_delay + 1 cycles after it is asked, and unparks at once.
    if (d.park_o) {
      ++park_cycles_;
      if (park_run_ == 0) park_rose_at_ = t;
      ++park_run_;
    } else {
      park_run_ = 0;
    }
    parked_ = d.park_o && park_run_ > client_.park_delay;
    // The park belongs to a read in the front end only (programs in flight may run beside it).
    if (d.park_o && !(active_ && active_->req.op == MaintOp::kReadPage)) ++park_during_write_;
    h_.TickAfterEval();
  }

 private:
  // A program or erase issued to its plane, awaiting its response.
  struct InFlight {
    MaintReq req;
    MaintStatus expect = MaintStatus::kOk;
    uint32_t beats = 0;
    uint64_t cmds = 0;
  };
  struct BlockShadow {
    uint32_t wp = 0;
    bool bad = false;
    std::vector<std::optional<std::vector<uint8_t>>> pages;
  };
  static model::NandOptions WriteOffIo(model::NandOptions o) {
    o.program_data_in_on_io = false;  // the phantom's write path (docs/nand_model.md)
    return o;
  }
  BlockShadow& Shadow(uint32_t plane, uint32_t block) {
    BlockShadow& s = shadow_[{plane, block}];
    if (s.pages.empty()) s.pages.assign(cfg_.pages, Erased());
    return s;
  }
  std::vector<uint8_t> Erased() const { return std::vector<uint8_t>(cfg_.page_image_bytes, 0xFF); }

  void Fail(const std::string& what) {
    if (errors_++ == 0) {
      std::ostringstream os;
      os << "cycle " << h_.cycle() << ", request " << responses_ << ": " << what;
      error_ = os.str();
    }
  }

  void DriveDie() {
    auto& d = h_.dut();
    const uint64_t t = h_.cycle();
    flint::verif::DriveDieReadiness(d, die_, 0, static_cast<uint32_t>(cfg_.phys_planes), t);
    const bool data = pending_ && pending_->first <= t;
    d.die_data_valid_i = data;
    if (data) PutBytes(d.die_data_i, 0, pending_->second);
  }

  void DriveClient() {
    auto& d = h_.dut();
    std::uniform_real_distribution<double> u(0, 1);
    if (!queue_.empty() && !req_on_ && u(rng_) < client_.req_p) req_on_ = true;
    d.req_valid_i = req_on_;
    if (req_on_) d.req_i = queue_.front().req.Pack();
    const bool prog =
        active_ && active_->req.op == MaintOp::kProgramPage && beat_ < active_->lines.size();
    if (prog && !wr_on_ && u(rng_) < client_.wr_p) wr_on_ = true;
    d.wr_valid_i = prog && wr_on_;
    if (prog && wr_on_) {
      PutBytes(d.wr_data_i, 0, active_->lines[beat_]);
      d.wr_poison_i = active_->poison[beat_];
    }
    d.rd_ready_i = u(rng_) < client_.rd_ready_p || (!client_.buffered && pending_);
    d.rsp_ready_i = u(rng_) < client_.rsp_ready_p;
  }

  void Sample() {
    auto& d = h_.dut();
    if (d.req_valid_i && d.req_ready_o) {
      if (active_) Fail("a request accepted while the front end still holds one");
      active_ = queue_.front();
      queue_.pop_front();
      req_on_ = false;
      beat_ = 0;
      lines_out_ = 0;
      worst_ = Status::kOk;
      expect_ = MaintStatus::kOk;
      raw_.clear();
      last_lines_.clear();
      last_status_.clear();
      accepted_at_ = h_.cycle();
      first_read_cmd_at_ = 0;
      cmds_ = 0;
      const auto& r = active_->req;
      if (r.op != MaintOp::kReadPage && r.op != MaintOp::kProgramPage &&
          r.op != MaintOp::kEraseBlock) {
        expect_ = MaintStatus::kBadOp;
      } else if (r.plane >= cfg_.phys_planes || r.block >= cfg_.blocks ||
                 (r.op != MaintOp::kEraseBlock && r.page >= cfg_.pages)) {
        expect_ = MaintStatus::kBadAddress;
      }
    }
    if (d.wr_valid_i && d.wr_ready_o) {
      ++beat_;
      wr_on_ = false;
    }
    if (d.rd_valid_o && d.rd_ready_i) CheckLine();
    if (d.rsp_valid_o && d.rsp_ready_i) CheckResponse();
  }

  void CheckLine() {
    auto& d = h_.dut();
    if (!active_ || active_->req.op != MaintOp::kReadPage) {
      Fail("a line returned outside a ReadPage");
      return;
    }
    if (raw_.empty()) {
      Fail("a line returned that no data-out read");
      return;
    }
    const std::vector<uint8_t> raw = raw_.front();
    raw_.pop_front();
    const model::DecodedBlock want = model::DecodeImage(raw.data(), raw.size());
    std::vector<uint8_t> got(cfg_.cl_bytes);
    GetBytesInto(d.rd_data_o, 0, static_cast<uint32_t>(cfg_.cl_bytes), got.data());
    const auto st = static_cast<Status>(d.rd_status_o);
    if (d.rd_line_o != lines_out_) {
      Fail("line " + std::to_string(d.rd_line_o) + " returned, expected line " +
           std::to_string(lines_out_));
    }
    if (static_cast<bool>(d.rd_last_o) != (lines_out_ + 1 == cfg_.cl_per_page)) {
      Fail("rd_last_o wrong on line " + std::to_string(lines_out_));
    }
    if (got != want.data)
      Fail("line " + std::to_string(lines_out_) + ": data differs from the decode");
    if (st != want.status) {
      Fail("line " + std::to_string(lines_out_) + ": status " +
           std::to_string(static_cast<int>(st)) + ", the decode says " +
           std::to_string(static_cast<int>(want.status)));
    }
    worst_ = std::max(worst_, want.status);
    last_lines_.push_back(got);
    last_status_.push_back(st);
    ++lines_out_;
  }

  void CheckResponse() {
    auto& d = h_.dut();
    const MaintRsp rsp = MaintRsp::Unpack(d.rsp_o);
    rsps_.push_back(rsp);
    rsp_cycles_.push_back(h_.cycle());
    responded_at_ = h_.cycle();
    // A program or erase in flight answers by its tag; else it must be the front end's request.
    const auto slot = slots_.find(rsp.tag);
    if (slot != slots_.end()) {
      const InFlight& f = slot->second;
      if (die_.PlaneBusy(f.req.plane, h_.cycle()))
        Fail("tag " + std::to_string(rsp.tag) + " answered while its plane is still busy");
      CheckEcho(rsp, f.req, f.expect, f.beats, f.cmds);
      slots_.erase(slot);
      ++responses_;
      return;
    }
    if (!active_ || active_->req.tag != rsp.tag) {
      Fail("a response with tag " + std::to_string(rsp.tag) + " that no request holds");
      return;
    }
    const MaintReq& r = active_->req;
    MaintStatus want = expect_;
    if (want == MaintStatus::kOk && r.op == MaintOp::kReadPage) {
      if (lines_out_ != cfg_.cl_per_page) {
        Fail("ReadPage answered after " + std::to_string(lines_out_) + " lines");
      }
      want = worst_ == Status::kUncorrectable ? MaintStatus::kUncorrectable
             : worst_ == Status::kCorrected   ? MaintStatus::kCorrected
                                              : MaintStatus::kOk;
    }
    if (!Refused(want) && r.op != MaintOp::kReadPage)
      Fail("a program or erase answered before its command");
    CheckEcho(rsp, r, want, beat_, cmds_);
    ++responses_;
    active_.reset();
  }

  // Answered without touching the die: an address past it, an op none of the three.
  static bool Refused(MaintStatus s) {
    return s == MaintStatus::kBadAddress || s == MaintStatus::kBadOp;
  }

  void CheckEcho(const MaintRsp& rsp, const MaintReq& r, MaintStatus want, uint32_t beats,
                 uint64_t cmds) {
    if (r.op == MaintOp::kProgramPage && !Refused(want) && beats != cfg_.cl_per_page) {
      Fail("ProgramPage answered after " + std::to_string(beats) + " beats");
    }
    if (!Refused(want) && r.op != MaintOp::kReadPage && cmds != 1) {
      Fail(std::to_string(cmds) + " die commands for one program or erase");
    }
    if (Refused(want) && cmds != 0) Fail("a refused request reached the die");
    if (rsp.tag != r.tag || rsp.op != r.op || rsp.plane != (r.plane & 0xFF) ||
        rsp.block != (r.block & 0xFFFF) || rsp.page != (r.page & 0xFFFF) || rsp.status != want) {
      std::ostringstream os;
      os << "response tag " << rsp.tag << " op " << int(rsp.op) << " status " << int(rsp.status)
         << " at " << rsp.plane << "/" << rsp.block << "/" << rsp.page << ", expected tag " << r.tag
         << " op " << int(r.op) << " status " << int(want) << " at " << r.plane << "/" << r.block
         << "/" << r.page;
      Fail(os.str());
    }
  }

  void ApplyNand() {
    auto& d = h_.dut();
    const uint64_t t = h_.cycle();
    if (pending_ && d.die_data_valid_i) pending_.reset();
    if (d.nand_m_valid_o) {
      const auto op = static_cast<model::NandCmd>(d.nand_m_op_o);
      const uint32_t plane = d.nand_m_plane_o, block = d.nand_m_block_o, page = d.nand_m_page_o;
      ++cmds_;
      if (!active_) {
        Fail("a die command with no request");
      } else {
        const MaintReq& r = active_->req;
        const bool read_port = op == model::NandCmd::kRead || op == model::NandCmd::kCacheEnd ||
                               op == model::NandCmd::kDataOut;
        if (read_port && !d.parked_i)
          Fail("a read-port command while the controller is not parked");
        if (read_port && first_read_cmd_at_ == 0) first_read_cmd_at_ = t;
        if (read_port) {
          for (const auto& [tag, f] : slots_) {
            if (f.req.plane == plane)
              Fail("a read-port command to plane " + std::to_string(plane) +
                   " while its program or erase (tag " + std::to_string(tag) + ") is unanswered");
          }
        }
        const model::NandCmd want_op = r.op == MaintOp::kProgramPage  ? model::NandCmd::kProgram
                                       : r.op == MaintOp::kEraseBlock ? model::NandCmd::kErase
                                       : cmds_ == 1                   ? model::NandCmd::kRead
                                       : cmds_ == 2                   ? model::NandCmd::kCacheEnd
                                                                      : model::NandCmd::kDataOut;
        if (op != want_op || plane != r.plane ||
            (op != model::NandCmd::kDataOut && op != model::NandCmd::kCacheEnd &&
             block != r.block) ||
            ((op == model::NandCmd::kRead || op == model::NandCmd::kProgram) && page != r.page)) {
          Fail("command " + std::to_string(static_cast<int>(op)) + " to " + std::to_string(plane) +
               "/" + std::to_string(block) + "/" + std::to_string(page) + " for request op " +
               std::to_string(static_cast<int>(r.op)) + " at " + std::to_string(r.plane) + "/" +
               std::to_string(r.block) + "/" + std::to_string(r.page));
        }
        if (op == model::NandCmd::kProgram || op == model::NandCmd::kErase) {
          for (const auto& [tag, f] : slots_) {
            if (f.req.plane == plane)
              Fail("a second program or erase on plane " + std::to_string(plane) + " (tag " +
                   std::to_string(tag) + " outstanding)");
          }
        }
        try {
          Apply(op, plane, block, page, t);
        } catch (const std::exception& e) {
          Fail(std::string("the die refused: ") + e.what());
        }
        if (op == model::NandCmd::kProgram || op == model::NandCmd::kErase) {
          // The front end hands it to the plane: it now answers on its own.
          slots_[r.tag] = InFlight{r, expect_, beat_, cmds_};
          max_in_flight_ = std::max(max_in_flight_, slots_.size());
          active_.reset();
        }
      }
    }
    if (d.nand_din_valid_o) {
      const std::vector<uint8_t> beat =
          GetBytes(d.nand_din_data_o, 0, static_cast<uint32_t>(cfg_.cl_image_bytes));
      din_.insert(din_.end(), beat.begin(), beat.end());
    }
  }

  void Apply(model::NandCmd op, uint32_t plane, uint32_t block, uint32_t page, uint64_t t) {
    auto& d = h_.dut();
    switch (op) {
      case model::NandCmd::kRead:
        die_.Read({{plane, block}}, page, t);
        break;
      case model::NandCmd::kCacheEnd:
        die_.CacheEnd({plane}, t);
        break;
      case model::NandCmd::kDataOut: {
        const uint32_t off = d.nand_m_offset_o, n = d.nand_m_nbytes_o;
        const uint32_t line = static_cast<uint32_t>(cmds_ - 3);
        if (n != cfg_.cl_image_bytes || off != line * cfg_.cl_image_bytes) {
          Fail("data-out of bytes " + std::to_string(off) + "+" + std::to_string(n) + " for line " +
               std::to_string(line));
        }
        if (pending_) Fail("two data-outs in flight");
        std::vector<uint8_t> img(n);
        const uint64_t free_at = die_.DataOut(plane, off, n, t, img.data());
        pending_ = std::make_pair(std::max(free_at, t + 1), img);
        raw_.push_back(img);
        const auto& want = Page(plane, active_->req.block, active_->req.page);
        if (want && !std::equal(img.begin(), img.end(), want->begin() + off)) {
          Fail("data-out of line " + std::to_string(line) + " differs from what the page holds");
        }
        break;
      }
      case model::NandCmd::kProgram: {
        std::vector<uint8_t> image;
        image.swap(din_);
        if (image != ImageOf(*active_)) Fail("a program's data-in is not the lines' ECC image");
        image.resize(cfg_.page_image_bytes, 0);
        const model::OpResult res =
            die_.ProgramBytes(model::PageAddr{plane, block, page}, image, t);
        BlockShadow& s = Shadow(plane, block);
        s.pages.at(page) = res.pass ? std::optional<std::vector<uint8_t>>(image) : std::nullopt;
        ++s.wp;
        if (!res.pass) {
          s.bad = true;
          expect_ = MaintStatus::kProgramFail;
        }
        break;
      }
      case model::NandCmd::kErase: {
        const model::OpResult res = die_.Erase(plane, block, t);
        BlockShadow& s = Shadow(plane, block);
        s.pages.assign(cfg_.pages, Erased());
        s.wp = 0;
        if (!res.pass) {
          s.bad = true;
          expect_ = MaintStatus::kEraseFail;
        }
        break;
      }
      default:
        Fail("opcode " + std::to_string(static_cast<int>(op)) + " on the maintenance port");
    }
  }

  const Config& cfg_;
  Harness<Dut> h_;
  model::NandDie die_;
  std::mt19937 rng_;
  MaintClient client_;
  std::deque<MaintTxn> queue_;
  std::optional<MaintTxn> active_;      // the request in the sequencer's front end
  std::map<uint32_t, InFlight> slots_;  // programs and erases issued, by tag
  uint32_t next_tag_ = 0;
  size_t max_in_flight_ = 0;
  std::vector<uint64_t> rsp_cycles_;
  bool req_on_ = false, wr_on_ = false, parked_ = false;
  uint32_t beat_ = 0, lines_out_ = 0, park_run_ = 0;
  uint64_t cmds_ = 0;
  Status worst_ = Status::kOk;
  MaintStatus expect_ = MaintStatus::kOk;
  std::deque<std::vector<uint8_t>> raw_;
  std::vector<uint8_t> din_;
  std::optional<std::pair<uint64_t, std::vector<uint8_t>>> pending_;
  std::map<std::pair<uint32_t, uint32_t>, BlockShadow> shadow_;
  std::vector<MaintRsp> rsps_;
  std::vector<std::vector<uint8_t>> last_lines_;
  std::vector<Status> last_status_;
  std::string error_;
  uint64_t errors_ = 0, responses_ = 0;
  uint64_t accepted_at_ = 0, responded_at_ = 0, park_cycles_ = 0, park_rose_at_ = 0;
  uint64_t first_read_cmd_at_ = 0, park_during_write_ = 0;
};

}  // namespace flint::tb
