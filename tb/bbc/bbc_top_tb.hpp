// The BBC top's testbench, shared by its tests (bbc_top_test.cpp) and its benchmark
// (bbc_top_bench.cpp): flint_bbc on one NandDie a die, the translation port answered from
// BbcModel::PhysicalOf, a driver that puts requests on the lanes in trace order and checks every
// response (exactly once, status, data against what load wrote), and BbcModel on the same
// requests. Checks are Catch2 assertions: include it where a Catch2 session runs.
#pragma once
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "model/ecc/secded.hpp"
#include "model/nand/page_content.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
#include "verif/nand_port.hpp"
#include "tb/ftl/ftl_tb.hpp"

namespace flint::tb::bbctop {

using flint::Config;
using flint::model::BbcModel;
using flint::model::BbcOptions;
using flint::model::BbcPolicy;
using flint::model::BbcRequest;
using flint::model::BbcResponse;
using flint::model::NandCmd;
using flint::model::NandDie;
using flint::model::PageTag;
using flint::model::PlaneBlock;
using flint::Status;
using flint::tb::GetBits;
using flint::tb::PutBits;

inline constexpr uint32_t kAddrW = 48;  // flint_bbc's AddrW

inline BbcOptions Quiet(BbcOptions o) {
  o.nand.reliability.base_rber = 0;  // exact data unless a test corrupts pages on purpose
  o.nand.reliability.rber_at_limit = 0;
  return o;
}

struct TopResult {
  uint64_t cycles = 0;           // first accept to last response
  uint64_t wall_cycles = 0;      // every cycle simulated, reset sweep included
  uint64_t backpressure = 0;     // lane-cycles a presented request was refused
  uint64_t status[5] = {0, 0, 0, 0, 0};
  std::vector<uint64_t> senses;  // burst sense sequence
  std::vector<Status> by_request;
};

// The RTL top with one NandDie a die (loaded as BbcModel::Load loads them), the translation
// port answered from BbcModel::PhysicalOf one cycle after it is asked, and a driver that puts
// requests on the lanes in trace order.
template <class Dut>
class TopBench {
 public:
  TopBench(const Config& cfg, uint32_t seed, const BbcOptions& opt)
      : cfg_(cfg), opt_(opt), h_(seed, "bbc_top"), holder_(cfg, opt) {
    start_ = holder_.Load();
    loaded_ = opt.loaded_bursts ? opt.loaded_bursts : cfg.bursts_per_stack;
    flint::tb::ResetFromHigh(h_);
    h_.dut().loaded_bursts_i = static_cast<uint32_t>(loaded_);
    pb_ = Bits(cfg.phys_planes);
    bb_ = Bits(cfg.blocks);
    pgb_ = Bits(cfg.pages);
    ob_ = Bits(cfg.cl_per_page * cfg.cl_image_bytes + 1);
    for (uint32_t id = 0; id < (1u << cfg.req_id_bits); ++id) free_ids_.push_back(id);
    pending_.resize(cfg.dies);
    // Verilator starts inputs random (--x-initial unique): the dies and lanes start idle.
    DriveDies(start_);
    h_.dut().req_valid_i = 0;
    h_.dut().park_i = 0;
    h_.dut().hold_i = 0;
    h_.Eval();
  }
  NandDie& die(uint32_t d) { return holder_.die(d); }
  // Called every cycle of the last 40 before a run gives up (a hang): print the state.
  std::function<void(Dut&, uint64_t)> on_hang;
  BbcModel& holder() { return holder_; }
  Dut& dut() { return h_.dut(); }

  // Per cycle only what the checks need (STYLE.md, simulation speed): no Catch2 macro and no
  // string until something is wrong. The first divergence stops the run and fails the test
  // with its cycle, request and what differed.
  TopResult Run(const std::vector<BbcRequest>& reqs, uint64_t max_cycles = 2000000) {
    auto& d = h_.dut();
    TopResult r;
    r.by_request.assign(reqs.size(), Status::kOk);
    std::vector<uint8_t> answered(reqs.size(), 0);
    constexpr size_t kNone = ~size_t{0};
    std::vector<size_t> inflight(size_t{1} << cfg_.req_id_bits, kNone);  // RTL id -> request
    std::vector<size_t> on_lane;
    on_lane.reserve(cfg_.lanes);
    const auto idw = static_cast<uint32_t>(cfg_.req_id_bits);
    size_t next = 0, done = 0;
    uint64_t first_accept = 0, last_rsp = 0, guard = 0;
    bool any_accept = false;
    error_.clear();
    while (!d.ready_o) {
      h_.Tick();
      if (h_.Failed()) Fail("an RTL assertion fired during reset");
    }
    const uint64_t t0 = h_.cycle();
    uint64_t want_xlat = 0;
    bool have_xlat = false;
    while (done < reqs.size() && error_.empty()) {
      if (on_hang && guard + 40 >= max_cycles) on_hang(d, h_.cycle());
      if (++guard >= max_cycles) {
        Fail("no progress: " + std::to_string(done) + " of " + std::to_string(reqs.size()) +
             " requests answered after " + std::to_string(max_cycles) + " cycles");
        break;
      }
      const uint64_t now = Now(t0);
      DriveDies(now);
      if (have_xlat) DriveXlat(want_xlat);
      // Lanes: the next requests in trace order whose cycle has come, each with a free id.
      on_lane.clear();
      d.req_valid_i = 0;
      for (uint32_t l = 0; l < cfg_.lanes && next + l < reqs.size(); ++l) {
        const BbcRequest& q = reqs[next + l];
        if (q.cycle > now || free_ids_.size() <= l) break;
        PutBits(d.req_valid_i, l, 1, 1);
        PutBits(d.req_id_i, l * idw, idw, free_ids_[l]);
        PutBits(d.req_addr_i, l * kAddrW, kAddrW, q.address);
        on_lane.push_back(next + l);
      }
      h_.Eval();
      // Accepted lanes (a prefix of the presented ones: the port's rule).
      uint32_t taken = 0;
      for (uint32_t l = 0; l < on_lane.size(); ++l) {
        if (GetBits(d.req_ready_o, l, 1)) {
          if (taken != l) Fail("lane " + std::to_string(l) + " taken after a refused lane");
          ++taken;
        } else {
          ++r.backpressure;
        }
      }
      for (uint32_t l = 0; l < taken; ++l) {
        const uint32_t id = free_ids_.front();
        free_ids_.pop_front();
        if (inflight[id] != kNone) Fail("id " + std::to_string(id) + " reused while in flight");
        inflight[id] = on_lane[l];
        if (!any_accept) first_accept = h_.cycle();
        any_accept = true;
      }
      next += taken;
      // Responses on every lane.
      for (uint32_t l = 0; l < cfg_.lanes; ++l) {
        if (!GetBits(d.rsp_valid_o, l, 1)) continue;
        const auto id = static_cast<uint32_t>(GetBits(d.rsp_id_o, l * idw, idw));
        const size_t k = inflight[id];
        if (k == kNone) {
          Fail("lane " + std::to_string(l) + ": a response to id " + std::to_string(id) +
               " nobody asked for");
          break;
        }
        if (answered[k]) Fail("request " + std::to_string(k) + " answered twice");
        answered[k] = 1;
        inflight[id] = kNone;
        free_ids_.push_back(id);
        const auto st = static_cast<Status>(GetBits(d.rsp_status_o, l * 3, 3));
        r.by_request[k] = st;
        ++r.status[static_cast<unsigned>(st)];
        if (st == Status::kOk || st == Status::kCorrected) CheckData(k, reqs[k], l);
        ++done;
        last_rsp = h_.cycle();
      }
      ApplyNand(now);
      if (d.sense_o) r.senses.push_back(d.sense_burst_o);
      want_xlat = d.xlat_burst_o;
      have_xlat = true;
      h_.TickAfterEval();  // evaluated above; ApplyNand sets no input
      if (h_.Failed()) Fail("an RTL assertion fired");
    }
    // A few idle cycles: nothing else comes out, the queue is empty.
    for (int i = 0; i < 64 && error_.empty(); ++i) {
      DriveDies(Now(t0));
      DriveXlat(d.xlat_burst_o);
      d.req_valid_i = 0;
      h_.Eval();
      if (d.rsp_valid_o != 0) Fail("a response after every request was answered");
      ApplyNand(Now(t0));
      h_.TickAfterEval();
    }
    if (error_.empty() && h_.Failed()) Fail("an RTL assertion fired");
    if (!error_.empty()) FAIL(error_);
    r.cycles = last_rsp - first_accept + 1;
    r.wall_cycles = h_.cycle();
    return r;
  }

 private:
  uint64_t Now(uint64_t t0) const { return start_ + (h_.cycle() - t0); }
  void DriveDies(uint64_t now) {
    auto& d = h_.dut();
    for (uint32_t k = 0; k < cfg_.dies; ++k) {
      NandDie& die = holder_.die(k);
      flint::verif::DriveDieReadiness(d, die, k, static_cast<uint32_t>(cfg_.phys_planes), now);
      const bool data = pending_[k].valid && pending_[k].at <= now;
      PutBits(d.die_data_valid_i, k, 1, data);
      if (data) {
        flint::tb::PutBytes(d.die_data_i, static_cast<uint32_t>(k * cfg_.cl_image_bytes),
                            pending_[k].image);
      }
    }
  }

  // Keeps the first divergence (cycle and what differed); later ones are consequences.
  void Fail(const std::string& what) {
    if (error_.empty()) error_ = "cycle " + std::to_string(h_.cycle()) + ": " + what;
  }

  // The stripe of `burst`: every plane its own logical index (no relocation here), one block.
  // Driven only when the burst asked for changes.
  void DriveXlat(uint64_t burst) {
    if (xlat_driven_ && burst == xlat_burst_) return;
    xlat_driven_ = true;
    xlat_burst_ = burst;
    auto& d = h_.dut();
    const flint::model::BlockPage bp = holder_.PhysicalOf(burst < loaded_ ? burst : 0);
    d.xlat_page_i = bp.page;
    d.xlat_lblock_i = bp.block;
    for (uint32_t k = 0; k < cfg_.dies; ++k) {
      for (uint32_t p = 0; p < cfg_.planes; ++p) {
        const uint32_t i = k * static_cast<uint32_t>(cfg_.planes) + p;
        PutBits(d.xlat_planes_i, i * pb_, pb_, p);
        PutBits(d.xlat_blocks_i, i * bb_, bb_, bp.block);
      }
    }
  }

  // Applies each die's command to its model at `now`; an illegal one throws (busy/ready broken).
  void ApplyNand(uint64_t now) {
    auto& d = h_.dut();
    for (uint32_t k = 0; k < cfg_.dies; ++k) {
      if (pending_[k].valid && GetBits(d.die_data_valid_i, k, 1)) pending_[k].valid = false;
      if (!GetBits(d.nand_valid_o, k, 1)) continue;
      NandDie& die = holder_.die(k);
      const auto op = static_cast<NandCmd>(GetBits(d.nand_op_o, k * 3, 3));
      const uint32_t sp = static_cast<uint32_t>(cfg_.planes) * pb_;
      const uint32_t sb = static_cast<uint32_t>(cfg_.planes) * bb_;
      std::vector<PlaneBlock>& targets = targets_;  // refilled: no allocation per command
      std::vector<uint32_t>& plane_list = plane_list_;
      targets.clear();
      plane_list.clear();
      for (uint32_t p = 0; p < cfg_.planes; ++p) {
        const auto phys = static_cast<uint32_t>(GetBits(d.nand_planes_o, k * sp + p * pb_, pb_));
        const auto blk = static_cast<uint32_t>(GetBits(d.nand_blocks_o, k * sb + p * bb_, bb_));
        targets.push_back({phys, blk});
        plane_list.push_back(phys);
      }
      const auto page = static_cast<uint32_t>(GetBits(d.nand_page_o, k * pgb_, pgb_));
      switch (op) {
        case NandCmd::kRead:
          die.Read(targets, page, now);
          break;
        case NandCmd::kCacheRead:
          die.CacheRead(targets, page, now);
          break;
        case NandCmd::kCacheEnd:
          die.CacheEnd(plane_list, now);
          break;
        case NandCmd::kDataOut: {
          if (pending_[k].valid) Fail("die " + std::to_string(k) + ": two data-outs");
          const auto plane = static_cast<uint32_t>(GetBits(d.nand_plane_o, k * pb_, pb_));
          const auto off = static_cast<uint32_t>(GetBits(d.nand_offset_o, k * ob_, ob_));
          const auto n = static_cast<uint32_t>(GetBits(d.nand_nbytes_o, k * ob_, ob_));
          if (n != cfg_.cl_image_bytes) Fail("a data-out of " + std::to_string(n) + " bytes");
          Out& o = pending_[k];
          o.image.resize(n);
          const uint64_t free_at = die.DataOut(plane, off, n, now, o.image.data());
          o.valid = true;
          o.at = std::max(free_at, now + 1);
          break;
        }
        default:
          Fail("die " + std::to_string(k) + ": opcode " + std::to_string(static_cast<int>(op)));
      }
    }
  }

  // The line's data as load wrote it: the page of the burst's (block, page) on its slice. Only
  // the data bytes of the line's image are compared, so they come from TagBytes (the same words
  // without their check bytes), into a buffer kept from one response to the next.
  void CheckData(size_t k, const BbcRequest& q, uint32_t lane) {
    const uint64_t in_burst = q.address % cfg_.burst_bytes;
    const flint::model::BlockPage bp = holder_.PhysicalOf(q.address / cfg_.burst_bytes);
    const PageTag tag{uint64_t{bp.block} * cfg_.pages + bp.page,
                      static_cast<uint32_t>(in_burst / cfg_.page_bytes), 0};
    const uint64_t line = in_burst % cfg_.page_bytes / cfg_.cl_bytes;
    want_.resize(cfg_.cl_bytes);
    flint::model::TagBytes(tag, line * cfg_.cl_bytes, cfg_.cl_bytes, want_.data());
    got_.resize(cfg_.cl_bytes);
    flint::tb::GetBytesInto(h_.dut().rsp_data_o, static_cast<uint32_t>(lane * cfg_.cl_bytes),
                            static_cast<uint32_t>(cfg_.cl_bytes), got_.data());
    if (got_ == want_) return;
    for (uint32_t i = 0; i < cfg_.cl_bytes; ++i) {
      const uint8_t want = want_[i];
      if (got_[i] == want) continue;
      std::ostringstream os;
      os << "request " << k << " (address 0x" << std::hex << q.address << std::dec << ") byte "
         << i << ": expected 0x" << std::hex << int{want} << ", got 0x" << int{got_[i]};
      Fail(os.str());
      return;
    }
  }

  Config cfg_;
  BbcOptions opt_;
  flint::tb::Harness<Dut> h_;
  BbcModel holder_;  // its dies serve the RTL; it is never Run
  uint64_t start_ = 0, loaded_ = 0;
  uint32_t pb_ = 1, bb_ = 1, pgb_ = 1, ob_ = 1;
  std::deque<uint32_t> free_ids_;
  // A die's data-out on its way: the image buffer is kept from one to the next.
  struct Out {
    bool valid = false;
    uint64_t at = 0;
    std::vector<uint8_t> image;
  };
  std::vector<Out> pending_;
  std::vector<PlaneBlock> targets_;
  std::vector<uint32_t> plane_list_;
  std::vector<uint8_t> got_, want_;
  std::string error_;
  bool xlat_driven_ = false;
  uint64_t xlat_burst_ = 0;
};

struct ModelResult {
  flint::model::BbcStats stats;
  std::vector<Status> by_request;
  std::vector<uint64_t> senses;
};

inline ModelResult RunModel(const Config& cfg, const BbcOptions& opt,
                            const std::vector<BbcRequest>& reqs,
                            const std::function<void(BbcModel&)>& prepare = {}) {
  BbcModel m(cfg, opt);
  m.Load();
  if (prepare) prepare(m);
  ModelResult r;
  r.by_request.assign(reqs.size(), Status::kOk);
  size_t i = 0;
  m.Run([&]() -> std::optional<BbcRequest> {
          if (i == reqs.size()) return std::nullopt;
          BbcRequest q = reqs[i];
          q.id = i++;
          return q;
        },
        [&](const BbcResponse& x) { r.by_request.at(x.id) = x.status; });
  r.stats = m.stats();
  r.senses = m.burst_sequence();
  return r;
}

// Runs both, compares what must be equal, returns both for the test's own checks.
template <class Dut>
std::pair<TopResult, ModelResult> Compare(const Config& cfg, uint32_t seed, BbcOptions opt,
                                          const std::vector<BbcRequest>& reqs,
                                          const std::function<void(BbcModel&)>& prepare = {},
                                          const std::function<void(Dut&, uint64_t)>& on_hang = {}) {
  opt = Quiet(opt);
  const ModelResult m = RunModel(cfg, opt, reqs, prepare);
  TopBench<Dut> b(cfg, seed, opt);
  if (prepare) prepare(b.holder());
  b.on_hang = on_hang;
  const TopResult r = b.Run(reqs);
  // The first request whose status differs, if any (one assertion, not one per request).
  size_t k = 0;
  while (k < reqs.size() && r.by_request[k] == m.by_request[k]) ++k;
  if (k < reqs.size()) {
    INFO("request " << k << " address 0x" << std::hex << reqs[k].address << std::dec
                    << ": RTL status " << static_cast<int>(r.by_request[k]) << ", model "
                    << static_cast<int>(m.by_request[k]));
    FAIL("RTL and model differ in a response's status");
  }
  for (unsigned s = 0; s < 5; ++s) REQUIRE(r.status[s] == m.stats.status_counts[s]);
  REQUIRE(m.stats.data_mismatches == 0);
  // The statistics registers against what the testbench saw.
  auto& d = b.dut();
  REQUIRE(d.stat_requests_o == reqs.size());
  REQUIRE(d.stat_responses_o == reqs.size());
  REQUIRE(d.stat_bursts_o == r.senses.size());
  REQUIRE(d.stat_fetched_bytes_o == r.senses.size() * cfg.burst_bytes);
  const uint64_t served = reqs.size() - r.status[3] - r.status[4];
  REQUIRE(d.stat_useful_bytes_o == served * cfg.cl_bytes);
  REQUIRE(d.stat_link_slots_o == reqs.size());
  REQUIRE(d.stat_queue_high_water_o <= cfg.crq_entries);
  // Re-fetches: a sense of a burst sensed before, from the sequence itself.
  std::vector<uint8_t> seen(cfg.bursts_per_stack, 0);
  uint64_t refetched = 0;
  for (uint64_t s : r.senses) {
    refetched += seen[s];
    seen[s] = 1;
  }
  REQUIRE(d.stat_refetched_o == refetched);
  return {r, m};
}

// `bursts` bursts from `first`, every line once, in address order, one SM, all at cycle 0.
inline std::vector<BbcRequest> Sweep(const Config& cfg, uint64_t first, uint64_t bursts) {
  std::vector<BbcRequest> v;
  for (uint64_t a = first * cfg.burst_bytes; a < (first + bursts) * cfg.burst_bytes;
       a += cfg.cl_bytes) {
    v.push_back({0, 0, 0, a});
  }
  return v;
}

// SMs each walking its own lines of a few bursts, interleaved at random, some stray requests
// and error addresses, arrival cycles with random gaps.
inline std::vector<BbcRequest> RandomStream(const Config& cfg, std::mt19937_64& rng, uint32_t sms,
                                     uint64_t bursts, uint64_t n) {
  std::vector<BbcRequest> v;
  std::vector<uint64_t> cursor(sms);
  const uint64_t lines = cfg.burst_bytes / cfg.cl_bytes;
  for (auto& c : cursor) c = (rng() % bursts) * lines;
  uint64_t cycle = 0;
  for (uint64_t i = 0; i < n; ++i) {
    cycle += rng() % 4 == 0 ? rng() % 8 : 0;
    const uint32_t sm = static_cast<uint32_t>(rng() % sms);
    uint64_t a;
    const uint64_t kind = rng() % 100;
    if (kind < 2) {
      a = cfg.stack_bytes + (rng() % 1000) * cfg.cl_bytes;
    } else if (kind < 10) {
      a = (rng() % bursts) * cfg.burst_bytes + (rng() % lines) * cfg.cl_bytes;
    } else {
      a = (cursor[sm]++ % (bursts * lines)) * cfg.cl_bytes;
      if (rng() % 16 == 0) cursor[sm] = (rng() % bursts) * lines;
    }
    v.push_back({0, cycle, sm, a});
  }
  return v;
}

}  // namespace flint::tb::bbctop
