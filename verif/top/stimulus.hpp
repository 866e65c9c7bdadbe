// The driver of flint_top: the stimulus (power-up, the model-load stream, a mount, requests on
// the accelerator lanes, idle time) over the dies attached to its NAND ports (attach.hpp), with
// every NAND command, sense, remap and response handed to the scoreboard (scoreboard.hpp). No
// Catch2 in it, so flint-sim's RTL engine runs the same driver and checks as test_top: a broken
// rule is recorded as text (violations()), a stuck run, an RTL assertion or an illegal NAND
// command throws (std::runtime_error, NandError); tests require no violation.
//
// `Harness` is any harness with dut(), cycle(), Eval(), Reset(), TickAfterEval(), Skip() and
// Failed(): verif/harness.hpp, or tb/common/harness.hpp built on it.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "model/common/placement.hpp"
#include "model/common/types.hpp"
#include "model/nand/nand_die.hpp"
#include "model/nand/page_content.hpp"
#include "verif/ports.hpp"
#include "verif/top/attach.hpp"
#include "verif/top/backdoor.hpp"
#include "verif/top/scoreboard.hpp"
#include "verif/top/top_types.hpp"

namespace flint::verif::top {

template <class Dut, class Harness>
class TopDriver {
 public:
  TopDriver(const flint::Config& cfg, Harness& h, const TopOptions& opt)
      : cfg_(cfg), h_(h), nand_(cfg, opt.seed, opt.nand), sb_(cfg, opt) {
    for (uint32_t id = 0; id < (1u << cfg.req_id_bits); ++id) free_ids_.push_back(id);
  }
  // The weights the next load streams (a reload after power loss may bring others).
  void SetGeneration(uint32_t g) { sb_.SetGeneration(g); }

  flint::model::NandDie& die(uint32_t d) { return nand_.die(d); }
  Dut& dut() { return h_.dut(); }
  uint64_t now() const { return h_.cycle(); }
  TopScoreboard& scoreboard() { return sb_; }
  const std::vector<std::string>& violations() const { return sb_.violations(); }
  uint64_t copies() const { return sb_.copies(); }
  uint64_t poisoned_copy_lines() const { return sb_.poisoned_copy_lines(); }
  uint64_t miscorrected_copy_lines() const { return sb_.miscorrected_copy_lines(); }
  uint64_t scrub_uncorrectable_lines() const { return sb_.scrub_uncorrectable_lines(); }
  uint64_t remaps() const { return sb_.remaps(); }
  uint64_t refresh_erases() const { return sb_.refresh_erases(); }
  uint64_t loaded() const { return sb_.loaded(); }
  // The largest read count of any block of any die (senses since its erase).
  uint64_t MaxDisturb() const { return nand_.MaxDisturb(); }
  // The weights of logical burst k's slice s (what a line of it must read).
  Content Logical(uint64_t burst, uint32_t slice) const { return sb_.Logical(burst, slice); }
  // Called every cycle after the transfers are sampled (tests add their own checks).
  std::function<void(TopDriver&)> on_cycle;

  // Out of reset until every table has cleared itself (ready_o). `fast`: the backdoor
  // (backdoor.hpp) writes what the first BackdoorCycles() cycles of the sweeps leave, those
  // cycles count as run (now() moves on by them), and the RTL clocks the last few; either way
  // now() is then the cycle ready_o rose and the model holds what the sweeps leave (test_top,
  // "fast power-up"). `p`: the RTL's parameters beyond the config, if Verilated with -G.
  void PowerUp(bool fast = false, const BackdoorParams& p = {}, uint64_t max_cycles = 1000000) {
    auto& d = dut();
    d.rst_ni = 1;
    d.load_start_i = 0;
    d.load_valid_i = 0;
    d.req_valid_i = 0;
    nand_.Drive(d, now());
    h_.Eval();
    h_.Reset();
    // Power loss: the dies keep their cells, the base die forgets everything.
    sb_.PowerUp();
    nand_.PowerUp();
    backdoor_cycles_ = fast ? BackdoorCycles(cfg_) : 0;
    if (backdoor_cycles_ > 0) {
      FastPowerUp(d, cfg_, backdoor_cycles_, p);
      h_.Eval();  // settles the model from the state written
      h_.Skip(backdoor_cycles_);
    }
    uint64_t guard = 0;
    while (!d.ready_o) {
      Step();
      if (++guard > max_cycles) throw std::runtime_error("flint_top: ready_o never rose");
    }
  }
  // The power-up cycles the last PowerUp() left to the backdoor (0: all simulated).
  uint64_t backdoor_cycles() const { return backdoor_cycles_; }

  // Loads `bursts` bursts (erase first if asked). Requests offered meanwhile (`during`) must be
  // answered NOT_LOADED. Returns what the loader reported.
  LoadResult Load(uint64_t bursts, bool erase, const std::vector<uint64_t>& during = {},
                  uint64_t max_cycles = 50000000) {
    auto& d = dut();
    LoadResult r;
    sb_.StartLoad(bursts);
    beat_k_ = beat_s_ = beat_j_ = 0;
    d.load_bursts_i = static_cast<uint32_t>(bursts);
    d.load_erase_i = erase;
    d.load_mount_i = 0;  // a random power-up value (a seed other than 1) would make it a mount
    d.load_start_i = 1;
    const uint64_t t0 = now();
    EvalAndSample([&](uint32_t, uint32_t, flint::Status) {});
    if (d.load_refused_o) sb_.Record("load start refused");
    Finish();
    d.load_start_i = 0;
    size_t next = 0;
    std::map<uint32_t, uint64_t> inflight;
    uint64_t guard = 0;
    while (!d.load_done_o) {
      if (++guard > max_cycles) throw std::runtime_error("flint_top: load never finished");
      // The stream: the next line of the model, as long as the loader takes it.
      d.load_valid_i = beat_k_ < bursts;
      if (beat_k_ < bursts) PutBytes(d.load_data_i, 0, BeatData());
      // Requests during the load: answered NOT_LOADED, never served.
      d.req_valid_i = 0;
      if (next < during.size() && !free_ids_.empty()) {
        PutBits(d.req_valid_i, 0, 1, 1);
        PutBits(d.req_id_i, 0, static_cast<uint32_t>(cfg_.req_id_bits), free_ids_.front());
        PutBits(d.req_addr_i, 0, kAddrW, during[next]);
      }
      EvalAndSample([&](uint32_t lane, uint32_t id, flint::Status st) {
        (void)lane;
        const auto it = inflight.find(id);
        if (it == inflight.end()) {
          sb_.Record("response to an id nobody asked for during load");
          return;
        }
        inflight.erase(it);
        free_ids_.push_back(id);
        if (st == flint::Status::kNotLoaded) {
          ++r.not_loaded_during_load;
        } else {
          sb_.Record("a request during load answered " + std::to_string(int(st)));
        }
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
      EvalAndSample([&](uint32_t, uint32_t id, flint::Status st) {
        inflight.erase(id);
        free_ids_.push_back(id);
        if (st == flint::Status::kNotLoaded) ++r.not_loaded_during_load;
      });
      Finish();
    }
    sb_.EndLoad();
    Done(r, bursts, t0);
    if (!r.error && beat_k_ != bursts) sb_.Record("load done before the stream ended");
    if (!r.error && sb_.bursts_programmed() != sb_.padded_bursts()) {
      sb_.Record("load done after " + std::to_string(sb_.bursts_programmed()) + " of " +
                 std::to_string(sb_.padded_bursts()) + " bursts programmed");
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
    sb_.StartMount(bursts);
    if (bursts <= cfg_.bursts_per_stack) Preload(erase);
    mounting_ = true;
    d.load_bursts_i = static_cast<uint32_t>(bursts);
    d.load_erase_i = erase;
    d.load_mount_i = 1;
    d.load_valid_i = 0;
    d.req_valid_i = 0;
    d.load_start_i = 1;
    const uint64_t t0 = now();
    EvalAndSample([&](uint32_t, uint32_t, flint::Status) {});
    if (d.load_refused_o) sb_.Record("mount start refused");
    Finish();
    d.load_start_i = 0;
    d.load_mount_i = 0;
    uint64_t guard = 0;
    while (!d.load_done_o) {
      if (++guard > max_cycles) throw std::runtime_error("flint_top: mount never finished");
      EvalAndSample([&](uint32_t, uint32_t, flint::Status) {
        sb_.Record("a response during mount with no request");
      });
      if (d.load_ready_o) sb_.Record("the loader took a stream beat during mount");
      Finish();
    }
    mounting_ = false;
    Done(r, bursts, t0);
    if (!r.error && d.loaded_o != bursts) sb_.Record("mount done with loaded_o != n");
    if (!r.error && d.live_blocks_o != sb_.live_blocks()) {
      sb_.Record("mount done with live_blocks_o " + std::to_string(d.live_blocks_o) +
                 ", a load of n fills " + std::to_string(sb_.live_blocks()));
    }
    return r;
  }

  // Runs `reqs` (cycles relative to now) to the last response.
  RunStats Run(const std::vector<flint::model::BbcRequest>& reqs, uint64_t max_cycles = 20000000) {
    auto& d = dut();
    RunStats r;
    ResponseErrors e;
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
        const flint::model::BbcRequest& q = reqs[next + l];
        if (t0 + q.cycle > now() || free_ids_.size() <= l) break;
        PutBits(d.req_valid_i, l, 1, 1);
        PutBits(d.req_id_i, l * cfg_.req_id_bits, static_cast<uint32_t>(cfg_.req_id_bits),
                free_ids_[l]);
        PutBits(d.req_addr_i, l * kAddrW, kAddrW, q.address);
        on_lane.push_back(next + l);
      }
      EvalAndSample([&](uint32_t lane, uint32_t id, flint::Status st) {
        const size_t k = inflight[id];
        if (k == kNone) {
          sb_.Record("response to id " + std::to_string(id) + " nobody asked for");
          return;
        }
        if (answered[k]) sb_.Record("request answered twice");
        answered[k] = 1;
        inflight[id] = kNone;
        free_ids_.push_back(id);
        ++r.status[static_cast<unsigned>(st)];
        ++r.responses;
        ++done;
        r.last_response = now();
        sb_.OnResponse(
            now(), reqs[k].address, st,
            [&]() -> const std::vector<uint8_t>& {
              rsp_line_.resize(cfg_.cl_bytes);
              GetBytesInto(d.rsp_data_o, static_cast<uint32_t>(lane * cfg_.cl_bytes),
                           static_cast<uint32_t>(cfg_.cl_bytes), rsp_line_.data());
              return rsp_line_;
            },
            &e);
      });
      uint32_t taken = 0;
      for (uint32_t l = 0; l < on_lane.size(); ++l) {
        if (GetBits(d.req_ready_o, l, 1)) {
          if (taken != l) sb_.Record("lanes taken out of order");
          ++taken;
        } else {
          ++r.backpressure;
        }
      }
      for (uint32_t l = 0; l < taken; ++l) {
        if (inflight[free_ids_.front()] != kNone) sb_.Record("an id reused in flight");
        inflight[free_ids_.front()] = on_lane[l];
        free_ids_.pop_front();
        if (!any_accept) r.first_accept = now();
        any_accept = true;
      }
      next += taken;
      if (d.sense_o) r.sense_bursts.push_back(d.sense_burst_o);
      Finish();
    }
    r.data_mismatches = e.data_mismatches;
    r.model_mismatches = e.model_mismatches;
    r.beyond_code = e.beyond_code;
    r.senses = d.stat_bursts_o - senses0;
    r.cycles = any_accept ? r.last_response - r.first_accept + 1 : 0;
    return r;
  }

  // Cycles with no request: the refresh controller works alone (scrubbing, erasing).
  void Idle(uint64_t cycles) {
    auto& d = dut();
    for (uint64_t i = 0; i < cycles; ++i) {
      d.req_valid_i = 0;
      EvalAndSample(
          [&](uint32_t, uint32_t, flint::Status) { sb_.Record("a response while idle"); });
      Finish();
    }
  }

  // The attached dies' observer (attach.hpp): what they saw, with the DUT's view of it that
  // cycle, to the scoreboard.
  void OnSense(uint32_t k, const std::vector<flint::model::PlaneBlock>& stripe, uint32_t page) {
    auto& d = dut();
    const bool sense = d.sense_o;
    sb_.OnSense(now(), k, stripe, page, sense, sense ? uint64_t{d.sense_burst_o} : 0);
  }
  void OnDataOut(uint32_t k, uint32_t plane, uint32_t off, const std::vector<uint8_t>& img,
                 bool maintenance) {
    sb_.OnDataOut(nand_.die(k), k, plane, off, img, maintenance);
  }
  void OnProgram(uint32_t k, uint32_t plane, uint32_t block, uint32_t page,
                 const std::vector<uint8_t>& image) {
    const uint32_t pb = Bits(cfg_.phys_planes);
    sb_.OnProgram(now(), k, plane, block, page, image,
                  static_cast<uint32_t>(GetBits(dut().rf_phantom_o, k * pb, pb)),
                  static_cast<uint32_t>(GetBits(dut().rf_source_o, k * pb, pb)));
  }
  void OnErase(uint32_t k, uint32_t plane, uint32_t block) { sb_.OnErase(now(), k, plane, block); }
  void Violation(const std::string& what) { sb_.Violation(now(), what); }

 private:
  // What the loader reports once done, and the bursts then in service.
  void Done(LoadResult& r, uint64_t bursts, uint64_t t0) {
    auto& d = dut();
    r.cycles = d.load_cycles_o;
    r.wall = now() - t0;
    r.error = d.load_err_o;
    r.code = d.load_err_code_o;
    sb_.SetLoaded(r.error ? 0 : bursts);
  }
  // The dies' side of a mount: per die and physical plane, every block as the load leaves it,
  // and the scoreboard's shadow with it.
  void Preload(bool erase) {
    const auto zeros = std::make_shared<const std::vector<uint8_t>>(
        sb_.ImageOf(Content{Content::kPad, flint::model::PageTag{}}));
    std::vector<flint::model::PageImage> pages;
    for (uint32_t k = 0; k < cfg_.dies; ++k) {
      for (uint32_t p = 0; p < cfg_.phys_planes; ++p) {
        for (uint32_t b = 0; b < cfg_.blocks; ++b) {
          pages.clear();
          if (p < cfg_.planes && b < sb_.live_blocks()) {
            const auto slice = static_cast<uint32_t>(k * cfg_.planes + p);
            for (uint32_t pg = 0; pg < cfg_.pages; ++pg) {
              const Content c = sb_.Logical(sb_.BurstAt(b, pg), slice);
              flint::model::PageImage img;
              if (c.kind == Content::kTag) {
                img.kind = flint::model::ContentKind::kTagged;
                img.tag = c.tag;
              } else {
                img.kind = flint::model::ContentKind::kBytes;
                img.bytes = zeros;
              }
              pages.push_back(std::move(img));
              sb_.Shadow(k, p, b, pg) = c;
            }
          } else if (!erase) {
            continue;  // never touched: an unerased block keeps what it holds
          }
          nand_.die(k).Preload(p, b, erase, pages, now());
        }
      }
    }
  }

  // The model's stream: line j of slice s of burst k, the weights of this generation (into a
  // buffer kept from one beat to the next).
  const std::vector<uint8_t>& BeatData() {
    beat_line_.resize(cfg_.cl_bytes);
    flint::model::TagBytes(flint::model::PageTag{beat_k_, beat_s_, sb_.generation()},
                           beat_j_ * cfg_.cl_bytes, cfg_.cl_bytes, beat_line_.data());
    return beat_line_;
  }
  void AdvanceBeat() {
    if (++beat_j_ < cfg_.cl_per_page) return;
    beat_j_ = 0;
    if (++beat_s_ < cfg_.dies * cfg_.planes) return;
    beat_s_ = 0;
    ++beat_k_;
  }

  template <class OnResponse>
  void EvalAndSample(OnResponse&& on_rsp) {
    auto& d = dut();
    nand_.Drive(d, now());
    h_.Eval();
    for (uint32_t l = 0; l < cfg_.lanes; ++l) {
      if (!GetBits(d.rsp_valid_o, l, 1)) continue;
      const auto id = static_cast<uint32_t>(
          GetBits(d.rsp_id_o, l * cfg_.req_id_bits, static_cast<uint32_t>(cfg_.req_id_bits)));
      const auto st = static_cast<flint::Status>(GetBits(d.rsp_status_o, l * 3, 3));
      on_rsp(l, id, st);
    }
  }

  // After the transfers of a cycle are sampled: the NAND commands, the remaps, then the edge.
  void Finish() {
    auto& d = dut();
    if (mounting_ && (d.nand_valid_o || d.nand_m_valid_o || d.nand_din_valid_o)) {
      Violation("a NAND command or data-in beat during mount");
    }
    nand_.Apply(d, now(), *this);
    if (d.remap_valid_o) {
      sb_.OnRemap(now(), static_cast<uint32_t>(d.remap_die_o),
                  static_cast<uint32_t>(d.remap_lplane_o), static_cast<uint32_t>(d.remap_lblock_o),
                  static_cast<uint32_t>(d.remap_pplane_o), static_cast<uint32_t>(d.remap_pblock_o));
    }
    if (on_cycle) on_cycle(*this);
    h_.TickAfterEval();  // every Finish() follows an EvalAndSample(), no input set between
    if (h_.Failed()) throw std::runtime_error("flint_top: an RTL assertion failed");
  }
  void Step() {
    EvalAndSample([&](uint32_t, uint32_t, flint::Status) {});
    Finish();
  }

  flint::Config cfg_;
  Harness& h_;
  TopNand<Dut> nand_;
  TopScoreboard sb_;
  std::deque<uint32_t> free_ids_;
  std::vector<uint8_t> rsp_line_;   // a response's line, refilled per response
  std::vector<uint8_t> beat_line_;  // a load beat's line, refilled per beat
  bool mounting_ = false;
  uint64_t backdoor_cycles_ = 0;
  uint64_t beat_k_ = 0;
  uint32_t beat_s_ = 0, beat_j_ = 0;
};

}  // namespace flint::verif::top
