#include "sim/studies/disturb.hpp"

#include <algorithm>
#include <stdexcept>

namespace flint::sim {

std::vector<uint64_t> StackBurstsOfStep(const DecodeGenerator& gen, const StepPlan& plan,
                                        uint32_t stack) {
  const uint64_t lpb = gen.layout().lines_per_burst();
  const Striping& st = gen.striping();
  std::vector<uint64_t> out;
  for (const PhasePlan& phase : plan.phases) {
    for (const WorkItem& item : phase.items) {
      if (item.lines == 0) continue;
      const uint64_t first = item.first_line / lpb;
      const uint64_t last = (item.first_line + item.lines - 1) / lpb;
      for (uint64_t b = first; b <= last; ++b) {
        if (st.StackOf(b) == stack) out.push_back(st.LocalBurst(b));
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

DisturbProfile MeasureDisturb(const DecodeGenerator& gen, const Config& cfg,
                              model::BurstPlacement placement, uint64_t steps, uint32_t stack) {
  if (steps == 0) throw std::invalid_argument("disturb: 0 steps");
  if (stack >= gen.striping().stacks) throw std::out_of_range("disturb: no such stack");
  DisturbProfile p;
  p.placement = placement;
  p.steps = steps;
  p.stack_bursts = gen.striping().BurstsOn(gen.layout().total_bursts(), stack);
  p.live_blocks = model::LiveBlocks(p.stack_bursts, cfg.pages);
  p.per_block.assign(p.live_blocks, 0);
  for (uint64_t s = 0; s < steps; ++s) {
    for (uint64_t b : StackBurstsOfStep(gen, gen.Plan(s), stack)) {
      const model::BlockPage bp =
          model::PlaceBurst(placement, b, p.stack_bursts, cfg.blocks, cfg.pages);
      ++p.per_block[bp.block];
      ++p.senses;
    }
  }
  p.max_block_senses = *std::max_element(p.per_block.begin(), p.per_block.end());
  p.mean_block_senses = static_cast<double>(p.senses) / static_cast<double>(p.live_blocks);
  const double cycle_s = 1e-6 / static_cast<double>(cfg.clock_mhz);
  const double steps_time = static_cast<double>(p.senses) *
                            static_cast<double>(cfg.burst_period_cycles) * cycle_s;
  p.seconds_to_limit = p.max_block_senses == 0
                           ? 1e300
                           : steps_time * static_cast<double>(cfg.disturb_limit) /
                                 static_cast<double>(p.max_block_senses);
  p.rotation_pass_seconds = static_cast<double>(cfg.phys_planes * p.live_blocks * cfg.pages *
                                                cfg.t_prog_cycles) * cycle_s;
  return p;
}

}  // namespace flint::sim
