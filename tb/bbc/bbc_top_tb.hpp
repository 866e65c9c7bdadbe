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
#include <utility>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "model/ecc/secded.hpp"
#include "model/nand/page_content.hpp"
#include "tb/common/harness.hpp"
#include "tb/common/ports.hpp"
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
    h_.Eval();
  }
  NandDie& die(uint32_t d) { return holder_.die(d); }
  // Called every cycle of the last 40 before a run gives up (a hang): print the state.
  std::function<void(Dut&, uint64_t)> on_hang;
  BbcModel& holder() { return holder_; }
  Dut& dut() { return h_.dut(); }

  TopResult Run(const std::vector<BbcRequest>& reqs, uint64_t max_cycles = 2000000) {
    auto& d = h_.dut();
    TopResult r;
    r.by_request.assign(reqs.size(), Status::kOk);
    std::vector<uint8_t> answered(reqs.size(), 0);
    std::map<uint32_t, size_t> inflight;  // RTL id -> request index
    size_t next = 0, done = 0;
    uint64_t first_accept = 0, last_rsp = 0, guard = 0;
    bool any_accept = false;
    while (!d.ready_o) Cycle();
    const uint64_t t0 = h_.cycle();
    uint64_t want_xlat = 0;
    bool have_xlat = false;
    while (done < reqs.size()) {
      if (on_hang && guard + 40 >= max_cycles) on_hang(d, h_.cycle());
      REQUIRE(++guard < max_cycles);
      const uint64_t now = Now(t0);
      DriveDies(now);
      if (have_xlat) DriveXlat(want_xlat);
      // Lanes: the next requests in trace order whose cycle has come, each with a free id.
      std::vector<size_t> on_lane;
      d.req_valid_i = 0;
      for (uint32_t l = 0; l < cfg_.lanes && next + l < reqs.size(); ++l) {
        const BbcRequest& q = reqs[next + l];
        if (q.cycle > now || free_ids_.size() <= l) break;
        PutBits(d.req_valid_i, l, 1, 1);
        PutBits(d.req_id_i, l * cfg_.req_id_bits, static_cast<uint32_t>(cfg_.req_id_bits),
                free_ids_[l]);
        PutBits(d.req_addr_i, l * kAddrW, kAddrW, q.address);
        on_lane.push_back(next + l);
      }
      h_.Eval();
      // Accepted lanes (a prefix of the presented ones: the port's rule).
      uint32_t taken = 0;
      for (uint32_t l = 0; l < on_lane.size(); ++l) {
        const bool ready = GetBits(d.req_ready_o, l, 1);
        if (ready) {
          REQUIRE(taken == l);  // lane order
          ++taken;
        } else {
          ++r.backpressure;
        }
      }
      for (uint32_t l = 0; l < taken; ++l) {
        const uint32_t id = free_ids_.front();
        free_ids_.pop_front();
        REQUIRE(inflight.count(id) == 0);
        inflight[id] = on_lane[l];
        if (!any_accept) first_accept = h_.cycle();
        any_accept = true;
      }
      next += taken;
      // Responses on every lane.
      for (uint32_t l = 0; l < cfg_.lanes; ++l) {
        if (!GetBits(d.rsp_valid_o, l, 1)) continue;
        const auto id = static_cast<uint32_t>(
            GetBits(d.rsp_id_o, l * cfg_.req_id_bits, static_cast<uint32_t>(cfg_.req_id_bits)));
        const auto it = inflight.find(id);
        INFO("cycle " << h_.cycle() << " lane " << l << " id " << id);
        REQUIRE(it != inflight.end());  // never a response nobody asked for
        const size_t k = it->second;
        REQUIRE_FALSE(answered[k]);
        answered[k] = 1;
        inflight.erase(it);
        free_ids_.push_back(id);
        const auto st = static_cast<Status>(GetBits(d.rsp_status_o, l * 3, 3));
        r.by_request[k] = st;
        ++r.status[static_cast<unsigned>(st)];
        if (st == Status::kOk || st == Status::kCorrected) CheckData(reqs[k], l);
        ++done;
        last_rsp = h_.cycle();
      }
      ApplyNand(now);
      if (d.sense_o) r.senses.push_back(d.sense_burst_o);
      want_xlat = d.xlat_burst_o;
      have_xlat = true;
      h_.Tick();
      REQUIRE_FALSE(h_.Failed());
    }
    // A few idle cycles: nothing else comes out, the queue is empty.
    for (int i = 0; i < 64; ++i) {
      DriveDies(Now(t0));
      DriveXlat(d.xlat_burst_o);
      d.req_valid_i = 0;
      h_.Eval();
      REQUIRE(d.rsp_valid_o == 0);
      ApplyNand(Now(t0));
      h_.Tick();
    }
    REQUIRE_FALSE(h_.Failed());
    r.cycles = last_rsp - first_accept + 1;
    r.wall_cycles = h_.cycle();
    return r;
  }

 private:
  uint64_t Now(uint64_t t0) const { return start_ + (h_.cycle() - t0); }
  void Cycle() {
    h_.Tick();
    REQUIRE_FALSE(h_.Failed());
  }

  void DriveDies(uint64_t now) {
    auto& d = h_.dut();
    for (uint32_t k = 0; k < cfg_.dies; ++k) {
      NandDie& die = holder_.die(k);
      const auto pp = static_cast<uint32_t>(cfg_.phys_planes);
      for (uint32_t p = 0; p < pp; ++p) {
        PutBits(d.die_plane_idle_i, k * pp + p, 1, !die.PlaneBusy(p, now));
        PutBits(d.die_plane_cache_i, k * pp + p, 1,
                die.CacheBuffer(p) != nullptr && die.CacheReadyAt(p) <= now);
      }
      PutBits(d.die_io_ready_i, k, 1, die.IoBusyUntil() <= now);
      const bool data = pending_[k] && pending_[k]->first <= now;
      PutBits(d.die_data_valid_i, k, 1, data);
      if (data) {
        flint::tb::PutBytes(d.die_data_i, static_cast<uint32_t>(k * cfg_.cl_image_bytes),
                            pending_[k]->second);
      }
    }
  }

  // The stripe of `burst`: every plane its own logical index (no relocation here), one block.
  void DriveXlat(uint64_t burst) {
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
      if (pending_[k] && GetBits(d.die_data_valid_i, k, 1)) pending_[k].reset();
      if (!GetBits(d.nand_valid_o, k, 1)) continue;
      NandDie& die = holder_.die(k);
      const auto op = static_cast<NandCmd>(GetBits(d.nand_op_o, k * 3, 3));
      const uint32_t sp = static_cast<uint32_t>(cfg_.planes) * pb_;
      const uint32_t sb = static_cast<uint32_t>(cfg_.planes) * bb_;
      std::vector<PlaneBlock> targets;
      std::vector<uint32_t> plane_list;
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
          REQUIRE_FALSE(pending_[k].has_value());
          const auto plane = static_cast<uint32_t>(GetBits(d.nand_plane_o, k * pb_, pb_));
          const auto off = static_cast<uint32_t>(GetBits(d.nand_offset_o, k * ob_, ob_));
          const auto n = static_cast<uint32_t>(GetBits(d.nand_nbytes_o, k * ob_, ob_));
          REQUIRE(n == cfg_.cl_image_bytes);
          std::vector<uint8_t> img(n);
          const uint64_t free_at = die.DataOut(plane, off, n, now, img.data());
          pending_[k] = std::make_pair(std::max(free_at, now + 1), img);
          break;
        }
        default:
          FAIL("die " << k << ": opcode " << static_cast<int>(op));
      }
    }
  }

  // The line's data as load wrote it: the page of the burst's (block, page) on its slice.
  void CheckData(const BbcRequest& q, uint32_t lane) {
    const uint64_t in_burst = q.address % cfg_.burst_bytes;
    const flint::model::BlockPage bp = holder_.PhysicalOf(q.address / cfg_.burst_bytes);
    const PageTag tag{uint64_t{bp.block} * cfg_.pages + bp.page,
                      static_cast<uint32_t>(in_burst / cfg_.page_bytes), 0};
    const uint64_t line = in_burst % cfg_.page_bytes / cfg_.cl_bytes;
    const std::vector<uint8_t> img =
        flint::model::ExpectedLineImage(cfg_, tag, line, flint::model::SecdedEncode);
    const std::vector<uint8_t> got = flint::tb::GetBytes(
        h_.dut().rsp_data_o, static_cast<uint32_t>(lane * cfg_.cl_bytes),
        static_cast<uint32_t>(cfg_.cl_bytes));
    for (uint32_t i = 0; i < cfg_.cl_bytes; ++i) {
      const uint8_t want = img[(i / 8) * 9 + i % 8];  // codewords of 8 data bytes + 1 check
      INFO("address 0x" << std::hex << q.address << std::dec << " byte " << i);
      REQUIRE(static_cast<int>(got[i]) == static_cast<int>(want));
    }
  }

  Config cfg_;
  BbcOptions opt_;
  flint::tb::Harness<Dut> h_;
  BbcModel holder_;  // its dies serve the RTL; it is never Run
  uint64_t start_ = 0, loaded_ = 0;
  uint32_t pb_ = 1, bb_ = 1, pgb_ = 1, ob_ = 1;
  std::deque<uint32_t> free_ids_;
  std::vector<std::optional<std::pair<uint64_t, std::vector<uint8_t>>>> pending_;
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
  for (size_t k = 0; k < reqs.size(); ++k) {
    INFO("request " << k << " address 0x" << std::hex << reqs[k].address);
    REQUIRE(static_cast<int>(r.by_request[k]) == static_cast<int>(m.by_request[k]));
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
