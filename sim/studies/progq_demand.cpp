#include "sim/studies/progq_demand.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

#include "sim/studies/disturb.hpp"
#include "sim/studies/model_rotation.hpp"

namespace flint::sim {
namespace {

// Slots the fork keeps for itself: the scrubber opens a page only while more are free
// (flint_progq's ForkReserve).
constexpr uint32_t kForkReserve = 1;

struct Slot {
  uint64_t open = 0;    // the read that fills it starts
  uint64_t commit = 0;  // its last line is in: the page may be programmed
  uint32_t block = 0;   // the source's logical block and page it holds
  uint32_t page = 0;
};

class Rotation {
 public:
  Rotation(const Config& cfg, const ProgqDemandOptions& opt, uint64_t live, ProgqDemandResult* r)
      : cfg_(cfg), opt_(opt), live_(live), r_(r), rot_(cfg, static_cast<uint32_t>(live)),
        next_(live, 0), senses_(live, 0),
        scrub_senses_(live, 0), base_(cfg.planes, std::vector<uint64_t>(live, 0)),
        xfer_((cfg.page_bytes + cfg.die_io_bytes_per_cycle - 1) / cfg.die_io_bytes_per_cycle),
        pace_cycles_(opt.pace * static_cast<double>(cfg.t_prog_cycles + xfer_)),
        blocks_left_(live) {}

  bool done() const { return r_->copies >= opt_.copies; }

  // Brings every slot release, switch, erase end and copy start up to time t.
  void AdvanceTo(uint64_t t) {
    for (;;) {
      if (!slots_.empty()) {
        const uint64_t start = std::max(engine_free_, slots_.front().commit);
        if (start + xfer_ <= t) {
          Release(start);
          continue;
        }
      }
      if (copying_ && blocks_left_ == 0 && slots_.empty() && engine_free_ <= t) {
        Switch(std::max(engine_free_, copy_start_));
        continue;
      }
      if (!copying_ && erase_end_ <= t && !done()) {
        StartCopy(erase_end_);
        continue;
      }
      break;
    }
  }

  // A foreground burst sensing (block, page) of every plane starts at t.
  void Burst(uint64_t t, model::BlockPage bp) {
    ++senses_[bp.block];
    ++r_->bursts;
    if (!copying_ || bp.block >= live_ || next_[bp.block] != bp.page) return;
    ++r_->forks_offered;
    if (slots_.size() >= opt_.queue_pages) {
      ++r_->forks_dropped;
      return;
    }
    ++r_->forks_taken;
    Open(t, bp.block, false);
  }

  // Under kSteal, whether the scrubber takes the foreground slot at t: just in time, when the
  // queue is empty, the phantom would otherwise idle before a page could arrive, and fewer pages
  // are under way than the pace asks for by now.
  bool WantsSteal(uint64_t t, uint64_t period) const {
    if (opt_.scrub != ScrubPolicy::kSteal || !CanScrub() || !slots_.empty() ||
        engine_free_ > t + period) {
      return false;
    }
    return static_cast<double>(opened_) < static_cast<double>(t - copy_start_) / pace_cycles_ + 1;
  }

  bool CanScrub() const {
    return copying_ && blocks_left_ > 0 &&
           opt_.queue_pages > kForkReserve + static_cast<uint32_t>(slots_.size());
  }

  // A scrub read of the cursor's block, started at t. The cursor moves on one block a read,
  // round robin over the blocks with pages left, as flint_refresh_die's does, so the scrubber
  // takes every block's first pages early and frees the forks behind them.
  void Scrub(uint64_t t, bool stolen) {
    while (next_[cursor_] == cfg_.pages) cursor_ = (cursor_ + 1) % live_;
    const uint64_t block = cursor_;
    cursor_ = (cursor_ + 1) % live_;
    ++scrub_senses_[block];
    if (stolen) {
      ++r_->scrubbed_stolen;
    } else {
      ++r_->scrubbed_idle;
    }
    Open(t, block, true);
  }

  // When the scrubber could next open a page if the queue is what stops it (for idle gaps).
  uint64_t NextRelease() const {
    if (slots_.empty()) return UINT64_MAX;
    return std::max(engine_free_, slots_.front().commit) + xfer_;
  }
  bool copying() const { return copying_; }
  uint64_t erase_end() const { return erase_end_; }

  void Finish(uint64_t t) {
    Occupy(t);
    if (copying_) r_->copying_cycles += t - copy_start_;
    for (uint32_t l = 0; l < cfg_.planes; ++l) CountPlane(l, copying_ && l == source_);
  }

 private:
  // The read counts logical plane l's blocks hold now, into the highest seen; the source's also
  // carry the scrubber's senses.
  void CountPlane(uint32_t l, bool source) {
    for (uint64_t k = 0; k < live_; ++k) {
      r_->max_block_count = std::max(
          r_->max_block_count, senses_[k] - base_[l][k] + (source ? scrub_senses_[k] : 0));
    }
  }

  void Occupy(uint64_t t) {
    r_->occupancy_integral += static_cast<double>(slots_.size()) * static_cast<double>(t - occ_t_);
    occ_t_ = t;
  }

  // A page of `block` read into a slot from t, by the fork or the scrubber.
  void Open(uint64_t t, uint64_t block, bool scrub) {
    Occupy(t);
    const auto b = static_cast<uint32_t>(block);
    if (scrub) rot_.ScrubRead(b, next_[block]);
    slots_.push_back({t, t + period(), b, next_[block]});
    r_->peak_occupancy = std::max(r_->peak_occupancy, static_cast<uint32_t>(slots_.size()));
    ++opened_;
    if (++next_[block] == cfg_.pages) --blocks_left_;
  }

  void Release(uint64_t start) {
    const uint64_t end = start + xfer_;
    Occupy(end);
    r_->residence_sum += end - slots_.front().open;
    rot_.Program(slots_.front().block, slots_.front().page);
    ++r_->released;
    slots_.pop_front();
    engine_free_ = end + cfg_.t_prog_cycles;
    r_->program_busy_cycles += xfer_ + cfg_.t_prog_cycles;
    ++r_->programmed;
  }

  // Every page is programmed: the copy serves the logical plane from `at`; the source's
  // blocks, read until now, are erased one after another.
  void Switch(uint64_t at) {
    // The bursts of the last period before the switch may count on the old base: a count
    // is high by at most one, never low.
    CountPlane(source_, true);
    base_[source_] = senses_;
    std::fill(scrub_senses_.begin(), scrub_senses_.end(), 0);
    rot_.EndStep();
    const uint64_t copy = at - copy_start_;
    r_->copy_cycles_sum += copy;
    r_->copy_cycles_max = std::max(r_->copy_cycles_max, copy);
    r_->copying_cycles += copy;
    erase_end_ = at + live_ * cfg_.t_erase_cycles;
    r_->step_cycles_sum += erase_end_ - copy_start_;
    ++r_->copies;
    copying_ = false;
  }

  void StartCopy(uint64_t at) {
    source_ = rot_.StartStep();
    std::fill(next_.begin(), next_.end(), 0);
    blocks_left_ = live_;
    cursor_ = 0;
    opened_ = 0;
    copy_start_ = at;
    copying_ = true;
  }

  uint64_t period() const { return cfg_.burst_period_cycles; }

  const Config& cfg_;
  const ProgqDemandOptions& opt_;
  uint64_t live_;
  ProgqDemandResult* r_;
  ModelRotation rot_;  // which plane, which pages, in which order: the refresh model's rules
  std::vector<uint32_t> next_;
  std::vector<uint64_t> senses_;        // senses of each block index, every plane alike
  std::vector<uint64_t> scrub_senses_;  // the scrubber's extra senses of the source's blocks
  std::vector<std::vector<uint64_t>> base_;  // senses_ when each logical plane last switched in
  uint64_t xfer_;
  double pace_cycles_;  // kSteal: a page every this many cycles of the copy
  uint64_t blocks_left_;
  uint64_t cursor_ = 0;
  uint64_t opened_ = 0;  // pages of this copy read into the queue
  std::deque<Slot> slots_;
  uint64_t engine_free_ = 0;  // the phantom can take the next data-in
  uint64_t occ_t_ = 0;
  uint32_t source_ = 0;
  bool copying_ = false;
  uint64_t copy_start_ = 0;
  uint64_t erase_end_ = 0;  // the first copy starts at 0
};

}  // namespace

std::string_view ToString(ScrubPolicy p) {
  return p == ScrubPolicy::kIdleOnly ? "idle" : "steal";
}

ScrubPolicy ParseScrubPolicy(std::string_view text) {
  if (text == "idle") return ScrubPolicy::kIdleOnly;
  if (text == "steal") return ScrubPolicy::kSteal;
  throw std::invalid_argument("unknown scrub policy '" + std::string(text) +
                              "' (idle, steal)");
}

ProgqDemandResult RunProgqDemand(const DecodeGenerator& gen, const Config& cfg,
                                 const ProgqDemandOptions& opt) {
  if (opt.queue_pages == 0 || opt.copies == 0 || opt.distinct_steps == 0) {
    throw std::invalid_argument("program-queue demand: queue pages, copies and distinct steps "
                                "must be at least 1");
  }
  if (!(opt.pace >= 1.0)) {
    throw std::invalid_argument("program-queue demand: the pace must be at least 1");
  }
  if (!(opt.idle_fraction >= 0 && opt.idle_fraction < 1)) {
    throw std::invalid_argument("program-queue demand: the idle fraction must be in [0, 1)");
  }
  if (opt.stack >= gen.striping().stacks) {
    throw std::out_of_range("program-queue demand: no such stack");
  }
  const uint64_t stack_bursts = gen.striping().BurstsOn(gen.layout().total_bursts(), opt.stack);
  std::vector<std::vector<model::BlockPage>> steps(opt.distinct_steps);
  for (uint64_t s = 0; s < opt.distinct_steps; ++s) {
    for (uint64_t b : StackBurstsOfStep(gen, gen.Plan(s), opt.stack)) {
      steps[s].push_back(model::PlaceBurst(opt.placement, b, stack_bursts, cfg.blocks, cfg.pages));
    }
    if (steps[s].empty()) {
      throw std::invalid_argument("program-queue demand: decode step " + std::to_string(s) +
                                  " reads nothing on the stack");
    }
  }
  ProgqDemandResult r;
  r.live_blocks = model::LiveBlocks(stack_bursts, cfg.pages);
  Rotation rot(cfg, opt, r.live_blocks, &r);
  const uint64_t period = cfg.burst_period_cycles;
  const auto over = [&](uint64_t t) { return opt.max_cycles != 0 && t >= opt.max_cycles; };
  uint64_t t = 0;
  while (!rot.done() && !over(t)) {
    const auto& step = steps[r.steps % opt.distinct_steps];
    ++r.steps;
    for (const model::BlockPage& bp : step) {
      rot.AdvanceTo(t);
      if (rot.WantsSteal(t, period)) {
        rot.Scrub(t, true);
        t += period;
        r.stall_cycles += period;
        rot.AdvanceTo(t);
      }
      rot.Burst(t, bp);
      t += period;
    }
    // The idle gap: the scrubber reads while a read fits before the next step.
    const double busy = static_cast<double>(step.size() * period);
    const uint64_t gap_end =
        t + static_cast<uint64_t>(busy * opt.idle_fraction / (1.0 - opt.idle_fraction) + 0.5);
    while (t < gap_end) {
      rot.AdvanceTo(t);
      if (rot.CanScrub() && t + period <= gap_end) {
        rot.Scrub(t, false);
        t += period;
      } else if (rot.copying() && rot.NextRelease() < gap_end && rot.NextRelease() > t) {
        t = rot.NextRelease();
      } else if (!rot.copying() && rot.erase_end() > t && rot.erase_end() < gap_end) {
        t = rot.erase_end();
      } else {
        t = gap_end;
      }
    }
  }
  rot.AdvanceTo(t);
  rot.Finish(t);
  r.cycles = t;
  r.foreground_cycles = r.bursts * period;
  return r;
}

}  // namespace flint::sim
