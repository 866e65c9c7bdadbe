// The driver of flint_top: one NandDie a die attached to the RTL's NAND ports, the model-load
// stream, the accelerator lanes, and the checks that need no Catch2 (so flint-sim can use it as
// its RTL engine). Tests (top_test.cpp) add their assertions on what it records.
//
// What it checks, every cycle, independently of the RTL:
//  - the dies refuse any illegal command (NandError is thrown out of Step());
//  - model load: every page is programmed where the placement puts it, with its ECC image;
//  - every burst sense reads, on every (die, logical plane), a physical page that holds the
//    logical page the burst needs (a shadow of what each physical page holds);
//  - every response: status and data equal the SEC-DED golden model's decode of the raw line
//    the die returned (so an injected error is corrected exactly when the code can), and the
//    data equals the weights loaded unless the line had more errors than the code detects;
//  - refresh: programs go only to the die's phantom plane and copy a page of its source plane
//    (clean, or poisoned where the scrubbed line was uncorrectable); a remap names a block whose
//    every page holds the logical block's data; an erase hits only a block nothing maps to;
//  - in-place refresh (TopOptions::in_place): an erase takes a block's pages away until each is
//    programmed back, in order, with what it held (clean or poisoned); a sense of the block
//    meanwhile is a violation (the sense check sees an erased page).
// Violations are recorded as text (violations()); a test requires none.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "model/common/placement.hpp"
#include "model/common/types.hpp"
#include "model/ecc/secded.hpp"
#include "model/nand/nand_die.hpp"
#include "model/nand/page_content.hpp"
#include "tb/common/ports.hpp"

namespace flint::tb::top {

using flint::Config;
using flint::Status;
using flint::model::BbcRequest;
using flint::model::NandCmd;
using flint::model::NandDie;
using flint::model::NandOptions;
using flint::model::PageAddr;
using flint::model::PageTag;
using flint::model::PlaneBlock;

inline constexpr uint32_t kAddrW = 48;  // flint_top's AddrW

struct TopOptions {
  NandOptions nand{};                  // program_data_in_on_io is forced off (docs/refresh.md)
  uint32_t generation = 1;             // which weights a load streams (a reload changes them)
  flint::model::BurstPlacement placement = flint::model::BurstPlacement::kInterleaved;
  uint64_t seed = 1;                   // the dies' error draws
  bool in_place = false;               // the top refreshes in place (Mode 1 or 3)
};

// What a physical page holds: nothing, a pad page (zeros), or slice `tag.slice` of a burst.
struct Content {
  enum Kind : uint8_t { kErased, kPad, kTag } kind = kErased;
  PageTag tag{};
  bool operator==(const Content& o) const {
    return kind == o.kind && (kind != kTag || tag == o.tag);
  }
  bool operator!=(const Content& o) const { return !(*this == o); }
};

struct LoadResult {
  uint64_t cycles = 0;       // the loader's own count (start to done)
  uint64_t wall = 0;         // cycles the driver ran
  bool error = false;
  uint32_t code = 0;
  uint64_t not_loaded_during_load = 0;  // requests answered NOT_LOADED while loading
};

struct RunStats {
  uint64_t requests = 0, responses = 0;
  uint64_t status[5] = {0, 0, 0, 0, 0};
  uint64_t data_mismatches = 0;     // data differs from the loaded weights (OK or CORRECTED)
  uint64_t model_mismatches = 0;    // status or data differ from the SEC-DED model's decode
  uint64_t beyond_code = 0;         // lines the code miscorrected (>= 3 errors in a word)
  uint64_t first_accept = 0, last_response = 0, cycles = 0;
  uint64_t backpressure = 0;        // lane-cycles a request waited
  uint64_t senses = 0;
  std::vector<uint64_t> sense_bursts;
};

template <class Dut, class Harness>
class TopDriver {
 public:
  TopDriver(const Config& cfg, Harness& h, const TopOptions& opt)
      : cfg_(cfg), opt_(opt), h_(h) {
    NandOptions nopt = opt.nand;
    nopt.program_data_in_on_io = false;
    for (uint32_t d = 0; d < cfg.dies; ++d) {
      dies_.emplace_back(cfg, d, opt.seed, nopt);
      dies_.back().SetSpareFn(flint::model::SecdedEncode);
    }
    pb_ = Bits(cfg.phys_planes);
    bb_ = Bits(cfg.blocks);
    pgb_ = Bits(cfg.pages);
    ob_ = Bits(cfg.cl_per_page * cfg.cl_image_bytes + 1);
    pending_.resize(cfg.dies);
    din_.resize(cfg.dies);
    pred_.resize(cfg.dies);
    for (uint32_t id = 0; id < (1u << cfg.req_id_bits); ++id) free_ids_.push_back(id);
  }
  // The weights the next load streams (a reload after power loss may bring others).
  void SetGeneration(uint32_t g) { opt_.generation = g; }

  NandDie& die(uint32_t d) { return dies_.at(d); }
  Dut& dut() { return h_.dut(); }
  uint64_t now() const { return h_.cycle(); }
  const std::vector<std::string>& violations() const { return violations_; }
  uint64_t copies() const { return copies_; }
  uint64_t poisoned_copy_lines() const { return poisoned_copy_lines_; }
  uint64_t scrub_uncorrectable_lines() const { return scrub_uncorr_; }
  uint64_t remaps() const { return remaps_; }
  uint64_t refresh_erases() const { return refresh_erases_; }
  uint64_t loaded() const { return loaded_; }
  // Called every cycle after the transfers are sampled (tests add their own checks).
  std::function<void(TopDriver&)> on_cycle;

  // Out of reset until every table has cleared itself.
  void PowerUp(uint64_t max_cycles = 1000000) {
    auto& d = dut();
    d.rst_ni = 1;
    d.load_start_i = 0;
    d.load_valid_i = 0;
    d.req_valid_i = 0;
    DriveDies();
    h_.Eval();
    h_.Reset();
    // Power loss: the dies keep their cells, the base die forgets everything.
    in_service_ = false;
    loaded_ = loaded_n_ = 0;
    for (uint32_t k = 0; k < cfg_.dies; ++k) {
      for (uint32_t l = 0; l < cfg_.planes; ++l) {
        for (uint32_t b = 0; b < cfg_.blocks; ++b) map_[Key3(k, l, b)] = {l, b};
      }
    }
    held_.clear();  // a refresh cut short: its block is erased or half programmed, and unused
    for (auto& p : pending_) p.reset();
    for (auto& b : din_) b.clear();
    for (auto& q : pred_) q.clear();
    uint64_t guard = 0;
    while (!d.ready_o) {
      Step();
      if (++guard > max_cycles) throw std::runtime_error("flint_top: ready_o never rose");
    }
  }

  // Loads `bursts` bursts (erase first if asked). Requests offered meanwhile (`during`) must be
  // answered NOT_LOADED. Returns what the loader reported.
  LoadResult Load(uint64_t bursts, bool erase, const std::vector<uint64_t>& during = {},
                  uint64_t max_cycles = 50000000) {
    auto& d = dut();
    LoadResult r;
    loaded_n_ = bursts;
    live_ = flint::model::LiveBlocks(bursts, cfg_.pages);
    total_ = live_ * cfg_.pages;
    beat_k_ = beat_s_ = beat_j_ = 0;
    prog_k_ = prog_s_ = 0;
    loading_ = true;
    d.load_bursts_i = static_cast<uint32_t>(bursts);
    d.load_erase_i = erase;
    d.load_mount_i = 0;  // a random power-up value (a seed other than 1) would make it a mount
    d.load_start_i = 1;
    const uint64_t t0 = now();
    EvalAndSample([&](uint32_t, uint32_t, Status) {});
    if (d.load_refused_o) violations_.push_back("load start refused");
    Finish();
    d.load_start_i = 0;
    size_t next = 0;
    std::map<uint32_t, uint64_t> inflight;
    uint64_t guard = 0;
    while (!d.load_done_o) {
      if (++guard > max_cycles) throw std::runtime_error("flint_top: load never finished");
      // The stream: the next line of the model, as long as the loader takes it.
      d.load_valid_i = beat_k_ < bursts;
      if (beat_k_ < bursts) PutLine(d.load_data_i, 0, BeatData());
      // Requests during the load: answered NOT_LOADED, never served.
      d.req_valid_i = 0;
      if (next < during.size() && !free_ids_.empty()) {
        PutBits(d.req_valid_i, 0, 1, 1);
        PutBits(d.req_id_i, 0, static_cast<uint32_t>(cfg_.req_id_bits), free_ids_.front());
        PutBits(d.req_addr_i, 0, kAddrW, during[next]);
      }
      EvalAndSample([&](uint32_t lane, uint32_t id, Status st) {
        (void)lane;
        const auto it = inflight.find(id);
        if (it == inflight.end()) {
          violations_.push_back("response to an id nobody asked for during load");
          return;
        }
        inflight.erase(it);
        free_ids_.push_back(id);
        if (st == Status::kNotLoaded) ++r.not_loaded_during_load;
        else violations_.push_back("a request during load answered " + std::to_string(int(st)));
      });
      if (GetBits(d.req_valid_i, 0, 1) && GetBits(d.req_ready_o, 0, 1)) {
        inflight[free_ids_.front()] = next++;
        free_ids_.pop_front();
      }
      if (d.load_valid_i && d.load_ready_o) AdvanceBeat();
      Finish();
    }
    d.load_valid_i = 0;
    // Answers still on their way.
    for (int i = 0; i < 8 && !inflight.empty(); ++i) {
      d.req_valid_i = 0;
      EvalAndSample([&](uint32_t, uint32_t id, Status st) {
        inflight.erase(id);
        free_ids_.push_back(id);
        if (st == Status::kNotLoaded) ++r.not_loaded_during_load;
      });
      Finish();
    }
    loading_ = false;
    Done(r, bursts, t0);
    if (!r.error && beat_k_ != bursts) violations_.push_back("load done before the stream ended");
    if (!r.error && prog_k_ != total_) {
      violations_.push_back("load done after " + std::to_string(prog_k_) + " of " +
                            std::to_string(total_) + " bursts programmed");
    }
    return r;
  }

  // Mount (docs/top.md, "Mount"): the dies are given directly what Load(bursts, erase) leaves
  // in them (NandDie::Preload: every block erased if `erase`, the live blocks of the logical
  // planes holding their bursts' slices and pad pages), then the loader, in mount mode, writes
  // the BTT alone. A NAND command or a stream beat during the mount is a violation. The dies run
  // no operation for it, so their counters and energy leave the load out.
  LoadResult Mount(uint64_t bursts, bool erase, uint64_t max_cycles = 50000000) {
    auto& d = dut();
    LoadResult r;
    loaded_n_ = bursts;
    live_ = flint::model::LiveBlocks(bursts, cfg_.pages);
    total_ = live_ * cfg_.pages;
    shadow_.clear();
    if (bursts <= cfg_.bursts_per_stack) Preload(erase);
    mounting_ = true;
    d.load_bursts_i = static_cast<uint32_t>(bursts);
    d.load_erase_i = erase;
    d.load_mount_i = 1;
    d.load_valid_i = 0;
    d.req_valid_i = 0;
    d.load_start_i = 1;
    const uint64_t t0 = now();
    EvalAndSample([&](uint32_t, uint32_t, Status) {});
    if (d.load_refused_o) violations_.push_back("mount start refused");
    Finish();
    d.load_start_i = 0;
    d.load_mount_i = 0;
    uint64_t guard = 0;
    while (!d.load_done_o) {
      if (++guard > max_cycles) throw std::runtime_error("flint_top: mount never finished");
      EvalAndSample([&](uint32_t, uint32_t, Status) {
        violations_.push_back("a response during mount with no request");
      });
      if (d.load_ready_o) violations_.push_back("the loader took a stream beat during mount");
      Finish();
    }
    mounting_ = false;
    Done(r, bursts, t0);
    if (!r.error && d.loaded_o != bursts) violations_.push_back("mount done with loaded_o != n");
    if (!r.error && d.live_blocks_o != live_) {
      violations_.push_back("mount done with live_blocks_o " + std::to_string(d.live_blocks_o) +
                            ", a load of n fills " + std::to_string(live_));
    }
    return r;
  }

  // Runs `reqs` (cycles relative to now) to the last response.
  RunStats Run(const std::vector<BbcRequest>& reqs, uint64_t max_cycles = 20000000) {
    auto& d = dut();
    RunStats r;
    r.requests = reqs.size();
    std::vector<uint8_t> answered(reqs.size(), 0);
    constexpr size_t kNone = ~size_t{0};
    std::vector<size_t> inflight(size_t{1} << cfg_.req_id_bits, kNone);  // id -> request
    std::vector<size_t> on_lane;
    on_lane.reserve(cfg_.lanes);
    size_t next = 0, done = 0;
    bool any_accept = false;
    const uint64_t t0 = now();
    const uint64_t senses0 = d.stat_bursts_o;
    uint64_t guard = 0;
    while (done < reqs.size()) {
      if (++guard > max_cycles) {
        throw std::runtime_error("flint_top: run stuck at " + std::to_string(done) + " of " +
                                 std::to_string(reqs.size()) + " responses");
      }
      on_lane.clear();
      d.req_valid_i = 0;
      for (uint32_t l = 0; l < cfg_.lanes && next + l < reqs.size(); ++l) {
        const BbcRequest& q = reqs[next + l];
        if (t0 + q.cycle > now() || free_ids_.size() <= l) break;
        PutBits(d.req_valid_i, l, 1, 1);
        PutBits(d.req_id_i, l * cfg_.req_id_bits, static_cast<uint32_t>(cfg_.req_id_bits),
                free_ids_[l]);
        PutBits(d.req_addr_i, l * kAddrW, kAddrW, q.address);
        on_lane.push_back(next + l);
      }
      EvalAndSample([&](uint32_t lane, uint32_t id, Status st) {
        const size_t k = inflight[id];
        if (k == kNone) {
          violations_.push_back("response to id " + std::to_string(id) + " nobody asked for");
          return;
        }
        if (answered[k]) violations_.push_back("request answered twice");
        answered[k] = 1;
        inflight[id] = kNone;
        free_ids_.push_back(id);
        ++r.status[static_cast<unsigned>(st)];
        ++r.responses;
        ++done;
        r.last_response = now();
        CheckResponse(reqs[k].address, lane, st, &r);
      });
      uint32_t taken = 0;
      for (uint32_t l = 0; l < on_lane.size(); ++l) {
        if (GetBits(d.req_ready_o, l, 1)) {
          if (taken != l) violations_.push_back("lanes taken out of order");
          ++taken;
        } else {
          ++r.backpressure;
        }
      }
      for (uint32_t l = 0; l < taken; ++l) {
        if (inflight[free_ids_.front()] != kNone) violations_.push_back("an id reused in flight");
        inflight[free_ids_.front()] = on_lane[l];
        free_ids_.pop_front();
        if (!any_accept) r.first_accept = now();
        any_accept = true;
      }
      next += taken;
      if (d.sense_o) r.sense_bursts.push_back(d.sense_burst_o);
      Finish();
    }
    r.senses = d.stat_bursts_o - senses0;
    r.cycles = any_accept ? r.last_response - r.first_accept + 1 : 0;
    return r;
  }

  // Cycles with no request: the refresh controller works alone (scrubbing, erasing).
  void Idle(uint64_t cycles) {
    auto& d = dut();
    for (uint64_t i = 0; i < cycles; ++i) {
      d.req_valid_i = 0;
      EvalAndSample([&](uint32_t, uint32_t, Status) {
        violations_.push_back("a response while idle");
      });
      Finish();
    }
  }

  // The weights of logical burst k's slice s (what a line of it must read).
  Content Logical(uint64_t burst, uint32_t slice) const {
    Content c;
    c.kind = burst < loaded_n_ ? Content::kTag : Content::kPad;
    c.tag = PageTag{burst, slice, opt_.generation};
    return c;
  }
  // The largest read count of any block of any die (senses since its erase).
  uint64_t MaxDisturb() const {
    uint64_t m = 0;
    for (const NandDie& die : dies_) {
      for (uint32_t p = 0; p < cfg_.phys_planes; ++p) {
        for (uint32_t b = 0; b < cfg_.blocks; ++b) m = std::max(m, die.DisturbCount(p, b));
      }
    }
    return m;
  }

 private:
  using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>;
  static uint64_t Key3(uint32_t d, uint32_t l, uint32_t b) {
    return (uint64_t{d} << 40) | (uint64_t{l} << 20) | b;
  }

  // What the loader reports once done, and the bursts then in service.
  void Done(LoadResult& r, uint64_t bursts, uint64_t t0) {
    auto& d = dut();
    r.cycles = d.load_cycles_o;
    r.wall = now() - t0;
    r.error = d.load_err_o;
    r.code = d.load_err_code_o;
    loaded_ = r.error ? 0 : bursts;
    in_service_ = !r.error && bursts > 0;
  }
  // The dies' side of a mount: per die and physical plane, every block as the load leaves it.
  void Preload(bool erase) {
    const auto zeros = std::make_shared<const std::vector<uint8_t>>(
        ImageOf(Content{Content::kPad, PageTag{}}));
    std::vector<flint::model::PageImage> pages;
    for (uint32_t k = 0; k < cfg_.dies; ++k) {
      for (uint32_t p = 0; p < cfg_.phys_planes; ++p) {
        for (uint32_t b = 0; b < cfg_.blocks; ++b) {
          pages.clear();
          if (p < cfg_.planes && b < live_) {
            const auto slice = static_cast<uint32_t>(k * cfg_.planes + p);
            for (uint32_t pg = 0; pg < cfg_.pages; ++pg) {
              const Content c = Logical(BurstAt(b, pg), slice);
              flint::model::PageImage img;
              if (c.kind == Content::kTag) {
                img.kind = flint::model::ContentKind::kTagged;
                img.tag = c.tag;
              } else {
                img.kind = flint::model::ContentKind::kBytes;
                img.bytes = zeros;
              }
              pages.push_back(std::move(img));
              Shadow(k, p, b, pg) = c;
            }
          } else if (!erase) {
            continue;  // never touched: an unerased block keeps what it holds
          }
          dies_[k].Preload(p, b, erase, pages, now());
        }
      }
    }
  }
  // The burst the load puts at (block, page) of a live block (PlacePadded's inverse).
  uint64_t BurstAt(uint32_t block, uint32_t page) const {
    if (opt_.placement == flint::model::BurstPlacement::kLinear) {
      return uint64_t{block} * cfg_.pages + page;
    }
    return uint64_t{page} * live_ + block;
  }

  std::vector<uint8_t> BeatData() const {
    std::vector<uint8_t> line(cfg_.cl_bytes);
    flint::model::TagBytes(PageTag{beat_k_, beat_s_, opt_.generation},
                           beat_j_ * cfg_.cl_bytes, cfg_.cl_bytes, line.data());
    return line;
  }
  void AdvanceBeat() {
    if (++beat_j_ < cfg_.cl_per_page) return;
    beat_j_ = 0;
    if (++beat_s_ < cfg_.dies * cfg_.planes) return;
    beat_s_ = 0;
    ++beat_k_;
  }
  template <class T>
  void PutLine(T& port, uint32_t byte_pos, const std::vector<uint8_t>& bytes) {
    flint::tb::PutBytes(port, byte_pos, bytes);
  }

  std::vector<uint8_t> ImageOf(const Content& c) const {
    if (c.kind == Content::kTag) {
      return flint::model::ExpectedPageImage(cfg_, c.tag, flint::model::SecdedEncode);
    }
    const std::vector<uint8_t> zeros(cfg_.page_bytes, 0);
    if (c.kind == Content::kPad) {
      return flint::model::ImageFromData(zeros, flint::model::SecdedEncode);
    }
    return std::vector<uint8_t>(cfg_.page_image_bytes, 0xFF);
  }
  Content& Shadow(uint32_t d, uint32_t p, uint32_t b, uint32_t pg) {
    return shadow_[Key{d, p, b, pg}];
  }

  void DriveDies() {
    auto& d = dut();
    const uint64_t t = now();
    for (uint32_t k = 0; k < cfg_.dies; ++k) {
      NandDie& die = dies_[k];
      const auto pp = static_cast<uint32_t>(cfg_.phys_planes);
      for (uint32_t p = 0; p < pp; ++p) {
        const bool idle = !die.PlaneBusy(p, t);
        PutBits(d.die_plane_idle_i, k * pp + p, 1, idle);
        PutBits(d.die_plane_cache_i, k * pp + p, 1,
                die.CacheBuffer(p) != nullptr && die.CacheReadyAt(p) <= t);
        PutBits(d.die_plane_fail_i, k * pp + p, 1, idle && die.Status(p, t).fail);
      }
      PutBits(d.die_io_ready_i, k, 1, die.IoBusyUntil() <= t);
      const bool data = pending_[k] && pending_[k]->at <= t;
      PutBits(d.die_data_valid_i, k, 1, data);
      if (data) {
        flint::tb::PutBytes(d.die_data_i, static_cast<uint32_t>(k * cfg_.cl_image_bytes),
                            pending_[k]->image);
      }
    }
  }

  template <class OnResponse>
  void EvalAndSample(OnResponse&& on_rsp) {
    auto& d = dut();
    DriveDies();
    h_.Eval();
    for (uint32_t l = 0; l < cfg_.lanes; ++l) {
      if (!GetBits(d.rsp_valid_o, l, 1)) continue;
      const auto id = static_cast<uint32_t>(
          GetBits(d.rsp_id_o, l * cfg_.req_id_bits, static_cast<uint32_t>(cfg_.req_id_bits)));
      const auto st = static_cast<Status>(GetBits(d.rsp_status_o, l * 3, 3));
      on_rsp(l, id, st);
    }
  }

  // After the transfers of a cycle are sampled: the NAND commands, the remaps, then the edge.
  void Finish() {
    ApplyNand();
    ObserveRefresh();
    if (on_cycle) on_cycle(*this);
    h_.TickAfterEval();  // every Finish() follows an EvalAndSample(), no input set between
    if (h_.Failed()) throw std::runtime_error("flint_top: an RTL assertion failed");
  }
  void Step() {
    EvalAndSample([&](uint32_t, uint32_t, Status) {});
    Finish();
  }

  // The response's line against the SEC-DED model's decode of what the die returned, and the
  // loaded weights.
  void CheckResponse(uint64_t address, uint32_t lane, Status st, RunStats* r) {
    if (address >= cfg_.stack_bytes) {
      if (st != Status::kOutOfRange) Violation("address past the stack not OUT_OF_RANGE", address);
      return;
    }
    const uint64_t burst = address / cfg_.burst_bytes;
    if (burst >= loaded_) {
      if (st != Status::kNotLoaded) Violation("unloaded address not NOT_LOADED", address);
      return;
    }
    const uint64_t in_burst = address % cfg_.burst_bytes;
    const auto slice = static_cast<uint32_t>(in_burst / cfg_.page_bytes);
    const uint32_t die = slice / static_cast<uint32_t>(cfg_.planes);
    const std::vector<uint8_t> got = flint::tb::GetBytes(
        dut().rsp_data_o, static_cast<uint32_t>(lane * cfg_.cl_bytes),
        static_cast<uint32_t>(cfg_.cl_bytes));
    if (pred_[die].empty()) {
      Violation("a served response with no line read from its die", address);
      return;
    }
    const Pred p = pred_[die].front();
    pred_[die].pop_front();
    if (p.status != st || (st != Status::kUncorrectable && p.data != got)) {
      ++r->model_mismatches;
      Violation("response differs from the SEC-DED decode of the raw line", address);
    }
    if (st == Status::kOk || st == Status::kCorrected) {
      std::vector<uint8_t> want(cfg_.cl_bytes);
      flint::model::TagBytes(PageTag{burst, slice, opt_.generation},
                             in_burst % cfg_.page_bytes / cfg_.cl_bytes * cfg_.cl_bytes,
                             cfg_.cl_bytes, want.data());
      if (got != want) {
        if (p.beyond) ++r->beyond_code;
        else ++r->data_mismatches;
      }
    }
  }

  void Violation(const std::string& what, uint64_t address) {
    std::ostringstream os;
    os << "cycle " << now() << ": " << what << " (address 0x" << std::hex << address << ")";
    violations_.push_back(os.str());
  }
  void Violation(const std::string& what) {
    violations_.push_back("cycle " + std::to_string(now()) + ": " + what);
  }

  // Applies every die's commands of this cycle to its model (throwing on an illegal one): the
  // read port's, then the maintenance port's; then this cycle's data-in beat (a Program sees
  // only the beats before it).
  void ApplyNand() {
    auto& d = dut();
    const uint64_t t = now();
    if (mounting_ && (d.nand_valid_o || d.nand_m_valid_o || d.nand_din_valid_o)) {
      Violation("a NAND command or data-in beat during mount");
    }
    const uint32_t sp = static_cast<uint32_t>(cfg_.planes) * pb_;
    const uint32_t sb = static_cast<uint32_t>(cfg_.planes) * bb_;
    for (uint32_t k = 0; k < cfg_.dies; ++k) {
      if (pending_[k] && GetBits(d.die_data_valid_i, k, 1)) pending_[k].reset();
      NandDie& die = dies_[k];
      if (GetBits(d.nand_valid_o, k, 1)) {
        const auto op = static_cast<NandCmd>(GetBits(d.nand_op_o, k * 3, 3));
        const auto page = static_cast<uint32_t>(GetBits(d.nand_page_o, k * pgb_, pgb_));
        std::vector<PlaneBlock> stripe;
        std::vector<uint32_t> planes;
        for (uint32_t p = 0; p < cfg_.planes; ++p) {
          const auto ph = static_cast<uint32_t>(GetBits(d.nand_planes_o, k * sp + p * pb_, pb_));
          const auto bl = static_cast<uint32_t>(GetBits(d.nand_blocks_o, k * sb + p * bb_, bb_));
          stripe.push_back({ph, bl});
          planes.push_back(ph);
        }
        switch (op) {
          case NandCmd::kRead:
            CheckSense(k, stripe, page);
            die.Read(stripe, page, t);
            break;
          case NandCmd::kCacheRead:
            CheckSense(k, stripe, page);
            die.CacheRead(stripe, page, t);
            break;
          case NandCmd::kCacheEnd:
            die.CacheEnd(planes, t);
            break;
          case NandCmd::kDataOut:
            DataOut(k, static_cast<uint32_t>(GetBits(d.nand_plane_o, k * pb_, pb_)),
                    static_cast<uint32_t>(GetBits(d.nand_offset_o, k * ob_, ob_)),
                    static_cast<uint32_t>(GetBits(d.nand_nbytes_o, k * ob_, ob_)), false);
            break;
          default:
            Violation("read port opcode " + std::to_string(static_cast<int>(op)));
        }
      }
      if (GetBits(d.nand_m_valid_o, k, 1)) {
        const auto op = static_cast<NandCmd>(GetBits(d.nand_m_op_o, k * 3, 3));
        const auto page = static_cast<uint32_t>(GetBits(d.nand_m_page_o, k * pgb_, pgb_));
        const auto plane = static_cast<uint32_t>(GetBits(d.nand_m_plane_o, k * pb_, pb_));
        const auto block = static_cast<uint32_t>(GetBits(d.nand_m_block_o, k * bb_, bb_));
        switch (op) {
          case NandCmd::kRead:
            die.Read({{plane, block}}, page, t);
            break;
          case NandCmd::kCacheEnd:
            die.CacheEnd({plane}, t);
            break;
          case NandCmd::kDataOut:
            DataOut(k, plane, static_cast<uint32_t>(GetBits(d.nand_m_offset_o, k * ob_, ob_)),
                    static_cast<uint32_t>(GetBits(d.nand_m_nbytes_o, k * ob_, ob_)), true);
            break;
          case NandCmd::kProgram:
            Program(k, plane, block, page);
            break;
          case NandCmd::kErase:
            Erase(k, plane, block);
            die.Erase(plane, block, t);
            break;
          default:
            Violation("maintenance port opcode " + std::to_string(static_cast<int>(op)));
        }
      }
      if (GetBits(d.nand_din_valid_o, k, 1)) {
        const std::vector<uint8_t> beat = flint::tb::GetBytes(
            d.nand_din_data_o, static_cast<uint32_t>(k * cfg_.cl_image_bytes),
            static_cast<uint32_t>(cfg_.cl_image_bytes));
        din_[k].insert(din_[k].end(), beat.begin(), beat.end());
      }
    }
  }

  // A line's data-out; the raw line, decoded by the SEC-DED model, is what the response (read
  // port) or the refresh copy (maintenance port) must show.
  void DataOut(uint32_t k, uint32_t plane, uint32_t off, uint32_t n, bool maintenance) {
    if (n != cfg_.cl_image_bytes) Violation("a data-out of other than one line");
    if (pending_[k]) Violation("two data-outs in flight on one die");
    std::vector<uint8_t> img(n);
    const uint64_t t = now();
    const uint64_t free_at = dies_[k].DataOut(plane, off, n, t, img.data());
    pending_[k] = Out{std::max(free_at, t + 1), img};
    const flint::model::DecodedBlock dec = flint::model::DecodeImage(img.data(), n);
    if (maintenance) {
      scrub_uncorr_ += dec.status == Status::kUncorrectable;
    } else {
      pred_[k].push_back({dec.status, dec.data, Beyond(k, plane, off, img)});
    }
  }

  // A line read has more errors in one word than SEC-DED detects for sure (>= 3): the code may
  // miscorrect it. Judged from the cells' clean image, which the shadow knows.
  bool Beyond(uint32_t die, uint32_t plane, uint32_t offset, const std::vector<uint8_t>& img) {
    const flint::model::SensedPage* cb = dies_[die].CacheBuffer(plane);
    if (cb == nullptr) return false;
    const Content c = Shadow(die, cb->addr.plane, cb->addr.block, cb->addr.page);
    const std::vector<uint8_t> clean = ImageOf(c);
    for (size_t w = 0; w + 9 <= img.size(); w += 9) {
      int flips = 0;
      for (size_t i = 0; i < 9; ++i) flips += __builtin_popcount(img[w + i] ^ clean[offset + w + i]);
      if (flips >= 3) return true;
    }
    return false;
  }

  // Every (die, logical plane) of a burst sense must read a page that holds the burst's slice.
  void CheckSense(uint32_t die, const std::vector<PlaneBlock>& stripe, uint32_t page) {
    auto& d = dut();
    if (!d.sense_o) {
      Violation("a burst sense without sense_o");
      return;
    }
    const uint64_t burst = d.sense_burst_o;
    for (uint32_t l = 0; l < cfg_.planes; ++l) {
      const Content want = Logical(burst, die * static_cast<uint32_t>(cfg_.planes) + l);
      const Content have = Shadow(die, stripe[l].plane, stripe[l].block, page);
      if (have != want) {
        Violation("burst " + std::to_string(burst) + " senses die " + std::to_string(die) +
                  " plane " + std::to_string(stripe[l].plane) + " block " +
                  std::to_string(stripe[l].block) + " page " + std::to_string(page) +
                  ", which does not hold its slice");
      }
    }
  }

  void Program(uint32_t k, uint32_t plane, uint32_t block, uint32_t page) {
    std::vector<uint8_t> image;
    image.swap(din_[k]);
    if (image.size() != cfg_.page_image_bytes) {
      Violation("a program with " + std::to_string(image.size()) + " bytes of data-in");
      image.resize(cfg_.page_image_bytes, 0);
    }
    Content c;
    if (loading_) {
      // The loader's pages come in stream order: burst k, slice s.
      const uint64_t n = loaded_n_;
      const auto want_slice = static_cast<uint32_t>(prog_s_);
      const uint32_t want_die = want_slice / static_cast<uint32_t>(cfg_.planes);
      const uint32_t want_plane = want_slice % static_cast<uint32_t>(cfg_.planes);
      const flint::model::BlockPage bp = PlacePadded(prog_k_, n);
      if (k != want_die || plane != want_plane || block != bp.block || page != bp.page) {
        Violation("load programs die " + std::to_string(k) + " plane " + std::to_string(plane) +
                  " block " + std::to_string(block) + " page " + std::to_string(page) +
                  " for burst " + std::to_string(prog_k_) + " slice " + std::to_string(prog_s_));
      }
      c = Logical(prog_k_, want_slice);
      if (image != ImageOf(c)) Violation("load programs a page with the wrong image");
      if (++prog_s_ == cfg_.dies * cfg_.planes) {
        prog_s_ = 0;
        ++prog_k_;
      }
    } else if (opt_.in_place) {
      c = MatchInPlace(k, plane, block, page, image);
      ++copies_;
    } else {
      const uint32_t phantom = Field(dut().rf_phantom_o, k, pb_);
      const uint32_t source = Field(dut().rf_source_o, k, pb_);
      if (plane != phantom) Violation("a refresh program outside the phantom plane");
      c = MatchCopy(k, source, page, image);
      ++copies_;
    }
    Shadow(k, plane, block, page) = c;
    dies_[k].ProgramBytes(PageAddr{plane, block, page}, image, now());
  }

  // The loader places pad bursts past n with the same function, over whole live blocks.
  flint::model::BlockPage PlacePadded(uint64_t burst, uint64_t n) const {
    const uint64_t live = flint::model::LiveBlocks(n, cfg_.pages);
    if (opt_.placement == flint::model::BurstPlacement::kLinear) {
      return {static_cast<uint32_t>(burst / cfg_.pages), static_cast<uint32_t>(burst % cfg_.pages)};
    }
    return {static_cast<uint32_t>(burst % live), static_cast<uint32_t>(burst / live)};
  }

  // A refresh copy is page `page` of some block of the source plane: every line either clean,
  // or poisoned (the data as read, every word's check byte its code flipped in the two low bits,
  // so it reads back uncorrectable).
  Content MatchCopy(uint32_t die, uint32_t source, uint32_t page, const std::vector<uint8_t>& img) {
    const std::vector<uint8_t> poisoned_line = PoisonedLines(img);
    for (uint32_t x = 0; x < cfg_.blocks; ++x) {
      const Content c = Shadow(die, source, x, page);
      if (c.kind == Content::kErased) continue;
      if (IsCopyOf(img, c, poisoned_line)) return c;
    }
    Violation("die " + std::to_string(die) + ": a refresh program of page " +
              std::to_string(page) + " that copies no page of source plane " +
              std::to_string(source));
    return Content{};
  }

  std::vector<uint8_t> PoisonedLines(const std::vector<uint8_t>& img) const {
    std::vector<uint8_t> poisoned(cfg_.cl_per_page, 1);
    for (uint64_t l = 0; l < cfg_.cl_per_page; ++l) {
      for (uint64_t w = 0; w < cfg_.cl_image_bytes / 9; ++w) {
        const uint64_t o = l * cfg_.cl_image_bytes + w * 9;
        const uint64_t word = flint::model::LoadWord(&img[o], 0);
        poisoned[l] &= img[o + 8] == (flint::model::SecdedEncode(word) ^ 0x03);
      }
    }
    return poisoned;
  }

  // Every line of `img` is c's line, or poisoned (counted in poisoned_copy_lines).
  bool IsCopyOf(const std::vector<uint8_t>& img, const Content& c,
                const std::vector<uint8_t>& poisoned_line) {
    const uint64_t line_img = cfg_.cl_image_bytes;
    const std::vector<uint8_t> want = ImageOf(c);
    uint64_t poisoned = 0;
    for (uint64_t l = 0; l < cfg_.cl_per_page; ++l) {
      bool same = true;
      for (uint64_t i = 0; i < line_img; ++i) {
        same = same && img[l * line_img + i] == want[l * line_img + i];
      }
      if (!same && !poisoned_line[l]) return false;
      poisoned += !same;
    }
    poisoned_copy_lines_ += poisoned;
    return true;
  }

  // An in-place program: the next page of a block the refresh erased, with what it held.
  Content MatchInPlace(uint32_t die, uint32_t plane, uint32_t block, uint32_t page,
                       const std::vector<uint8_t>& img) {
    const std::string where = "die " + std::to_string(die) + " plane " + std::to_string(plane) +
                              " block " + std::to_string(block) + " page " + std::to_string(page);
    auto it = held_.find(Key3(die, plane, block));
    if (it == held_.end() || page != it->second.next) {
      Violation("an in-place program of " + where + " out of order or of a block not refreshed");
      return Content{};
    }
    const Content c = it->second.pages.at(page);
    if (c.kind != Content::kErased && !IsCopyOf(img, c, PoisonedLines(img))) {
      Violation("an in-place program of " + where + " that is not what it held");
    }
    if (++it->second.next == cfg_.pages) held_.erase(it);
    return c;
  }

  void Erase(uint32_t k, uint32_t plane, uint32_t block) {
    if (!loading_ && opt_.in_place) {
      ++refresh_erases_;
      Held h;
      for (uint32_t pg = 0; pg < cfg_.pages; ++pg) h.pages.push_back(Shadow(k, plane, block, pg));
      if (held_.count(Key3(k, plane, block)) != 0) {
        Violation("die " + std::to_string(k) + ": in-place erase of plane " +
                  std::to_string(plane) + " block " + std::to_string(block) +
                  " before its pages were programmed back");
      }
      held_[Key3(k, plane, block)] = h;
    } else if (!loading_) {
      ++refresh_erases_;
      for (uint32_t l = 0; l < cfg_.planes; ++l) {
        for (uint32_t b = 0; b < cfg_.blocks; ++b) {
          const auto& m = map_.at(Key3(k, l, b));
          if (m.first == plane && m.second == block) {
            Violation("die " + std::to_string(k) + ": erase of plane " + std::to_string(plane) +
                      " block " + std::to_string(block) + ", which logical block " +
                      std::to_string(b) + " still maps to");
          }
        }
      }
    }
    for (uint32_t pg = 0; pg < cfg_.pages; ++pg) Shadow(k, plane, block, pg) = Content{};
  }

  // A remap moves a logical block to a block that holds every page of it.
  void ObserveRefresh() {
    auto& d = dut();
    if (!d.remap_valid_o) return;
    ++remaps_;
    const auto die = static_cast<uint32_t>(d.remap_die_o);
    const auto l = static_cast<uint32_t>(d.remap_lplane_o);
    const auto b = static_cast<uint32_t>(d.remap_lblock_o);
    const auto plane = static_cast<uint32_t>(d.remap_pplane_o);
    const auto block = static_cast<uint32_t>(d.remap_pblock_o);
    auto& m = map_.at(Key3(die, l, b));
    for (uint32_t pg = 0; pg < cfg_.pages; ++pg) {
      if (Shadow(die, plane, block, pg) != Shadow(die, m.first, m.second, pg)) {
        Violation("die " + std::to_string(die) + ": remap of logical block " + std::to_string(b) +
                  " to plane " + std::to_string(plane) + " block " + std::to_string(block) +
                  " whose page " + std::to_string(pg) + " is not a copy");
        break;
      }
    }
    m = {plane, block};
  }

  template <class T>
  static uint32_t Field(const T& port, uint32_t i, uint32_t w) {
    return static_cast<uint32_t>(GetBits(port, i * w, w));
  }

  struct Out {
    uint64_t at;
    std::vector<uint8_t> image;
  };
  struct Held {
    std::vector<Content> pages;  // what the block held before its in-place erase
    uint32_t next = 0;           // the page to program back next
  };
  struct Pred {
    Status status;
    std::vector<uint8_t> data;
    bool beyond;
  };

  Config cfg_;
  TopOptions opt_;
  Harness& h_;
  std::vector<NandDie> dies_;
  uint32_t pb_ = 1, bb_ = 1, pgb_ = 1, ob_ = 1;
  std::vector<std::optional<Out>> pending_;
  std::vector<std::vector<uint8_t>> din_;
  std::vector<std::deque<Pred>> pred_;
  std::deque<uint32_t> free_ids_;
  std::map<Key, Content> shadow_;
  std::map<uint64_t, std::pair<uint32_t, uint32_t>> map_;  // (die, l, b) -> (plane, block)
  std::map<uint64_t, Held> held_;                          // (die, plane, block) in refresh
  std::vector<std::string> violations_;
  bool loading_ = false, in_service_ = false, mounting_ = false;
  uint64_t loaded_n_ = 0, loaded_ = 0, live_ = 0, total_ = 0;
  uint64_t beat_k_ = 0, prog_k_ = 0;
  uint32_t beat_s_ = 0, beat_j_ = 0, prog_s_ = 0;
  uint64_t copies_ = 0, poisoned_copy_lines_ = 0, scrub_uncorr_ = 0, remaps_ = 0;
  uint64_t refresh_erases_ = 0;
};

}  // namespace flint::tb::top
