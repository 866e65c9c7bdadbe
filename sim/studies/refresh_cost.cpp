#include "sim/studies/refresh_cost.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <queue>
#include <stdexcept>

#include "sim/studies/disturb.hpp"
#include "sim/studies/model_rotation.hpp"

namespace flint::sim {
namespace {

// Block index of every burst of each distinct step, in the step's read order.
std::vector<std::vector<uint32_t>> StepBlocks(const DecodeGenerator& gen, const Config& cfg,
                                              model::BurstPlacement placement, uint64_t distinct,
                                              uint32_t stack, uint64_t* stack_bursts) {
  *stack_bursts = gen.striping().BurstsOn(gen.layout().total_bursts(), stack);
  std::vector<std::vector<uint32_t>> out(distinct);
  for (uint64_t s = 0; s < distinct; ++s) {
    for (uint64_t b : StackBurstsOfStep(gen, gen.Plan(s), stack)) {
      out[s].push_back(
          model::PlaceBurst(placement, b, *stack_bursts, cfg.blocks, cfg.pages).block);
    }
  }
  return out;
}

uint64_t BitReverse(uint64_t v, unsigned bits) {
  uint64_t r = 0;
  for (unsigned i = 0; i < bits; ++i) r |= ((v >> i) & 1u) << (bits - 1 - i);
  return r;
}

unsigned Log2Ceil(uint64_t v) {
  unsigned b = 0;
  while ((uint64_t{1} << b) < v) ++b;
  return b;
}

}  // namespace

std::string_view ToString(RefreshMode m) {
  switch (m) {
    case RefreshMode::kNone: return "none";
    case RefreshMode::kFlint: return "flint";
    case RefreshMode::kInPlaceDistributed: return "in-place distributed";
    case RefreshMode::kInPlaceBurst: return "in-place burst";
  }
  return "?";
}

uint64_t StepsToTripAll(const DecodeGenerator& gen, const Config& cfg,
                        model::BurstPlacement placement, uint64_t distinct_steps, uint32_t stack,
                        uint64_t cap) {
  uint64_t stack_bursts = 0;
  const auto steps = StepBlocks(gen, cfg, placement, distinct_steps, stack, &stack_bursts);
  std::vector<uint64_t> per_block(model::LiveBlocks(stack_bursts, cfg.pages), 0);
  for (const auto& st : steps) {
    for (uint32_t b : st) ++per_block[b];
  }
  uint64_t least = 0;
  for (uint64_t c : per_block) {
    if (c > 0 && (least == 0 || c < least)) least = c;
  }
  if (least == 0) return cap;
  const uint64_t need = (cfg.disturb_limit * distinct_steps + least - 1) / least + distinct_steps;
  return std::min(need, cap);
}

RefreshCostResult RunRefreshCost(const DecodeGenerator& gen, const Config& cfg,
                                 const RefreshCostOptions& opt) {
  if (opt.steps == 0 || opt.distinct_steps == 0) {
    throw std::invalid_argument("refresh cost: steps and distinct_steps must be at least 1");
  }
  if (opt.stack >= gen.striping().stacks) throw std::out_of_range("refresh cost: no such stack");
  uint64_t stack_bursts = 0;
  const auto step_blocks =
      StepBlocks(gen, cfg, opt.placement, opt.distinct_steps, opt.stack, &stack_bursts);
  RefreshCostResult r;
  r.steps = opt.steps;
  r.live_blocks = model::LiveBlocks(stack_bursts, cfg.pages);
  const uint64_t period = cfg.burst_period_cycles;
  const uint64_t refresh_cycles = cfg.t_erase_cycles + cfg.pages * cfg.t_prog_cycles;
  const uint64_t limit = cfg.disturb_limit;

  std::vector<uint64_t> senses(r.live_blocks, 0);  // senses of each block index so far

  // In place: per block index, the absolute sense counts at which each of its planes' blocks
  // reaches the limit (a count is senses - its base + its initial offset).
  using MinHeap = std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>>;
  std::vector<MinHeap> due;
  const bool in_place = opt.mode == RefreshMode::kInPlaceDistributed ||
                        opt.mode == RefreshMode::kInPlaceBurst;
  if (in_place) {
    const unsigned key_bits = Log2Ceil(cfg.blocks) + Log2Ceil(cfg.dies) + Log2Ceil(cfg.planes);
    due.resize(r.live_blocks);
    for (uint64_t blk = 0; blk < r.live_blocks; ++blk) {
      std::vector<uint64_t> keys;
      for (uint64_t d = 0; d < cfg.dies; ++d) {
        for (uint64_t p = 0; p < cfg.planes; ++p) {
          uint64_t offset = 0;
          if (opt.mode == RefreshMode::kInPlaceDistributed) {
            // Spread over [0, limit) by the bit-reversed block address, as the FTL staggers.
            const uint64_t key = (blk << (Log2Ceil(cfg.dies) + Log2Ceil(cfg.planes))) |
                                 (d << Log2Ceil(cfg.planes)) | p;
            offset = static_cast<uint64_t>(
                static_cast<double>(BitReverse(key, key_bits)) * static_cast<double>(limit) /
                static_cast<double>(uint64_t{1} << key_bits));
          }
          keys.push_back(limit - offset);
        }
      }
      due[blk] = MinHeap(std::greater<uint64_t>(), std::move(keys));
    }
  }

  // FLINT: per logical plane of a die (every die sees the same stream), the sense count of each
  // block index when that plane's copy last switched in.
  const uint64_t copy_cycles = r.live_blocks * cfg.pages * cfg.t_prog_cycles;
  std::vector<std::vector<uint64_t>> base(cfg.planes, std::vector<uint64_t>(r.live_blocks, 0));
  uint64_t next_switch = copy_cycles, copies = 0;
  // Which logical plane each copy refreshes, and the copy's pages: the refresh model's rotation.
  std::optional<ModelRotation> rot;
  uint32_t copying = 0;  // the logical plane being copied
  if (opt.mode == RefreshMode::kFlint) {
    rot.emplace(cfg, static_cast<uint32_t>(r.live_blocks));
    copying = rot->StartStep();
  }

  uint64_t t = 0;  // foreground time, cycles
  for (uint64_t s = 0; s < opt.steps; ++s) {
    uint64_t step_stall = 0;
    for (uint32_t blk : step_blocks[s % opt.distinct_steps]) {
      if (opt.mode == RefreshMode::kFlint) {
        while (t >= next_switch) {
          // The plane copied last switches in with fresh blocks; its source's count at the
          // switch (plus the copy's own read of every page) is the highest it reached.
          for (uint32_t k = 0; k < r.live_blocks; ++k) {
            for (uint32_t page = 0; page < cfg.pages; ++page) rot->Program(k, page);
          }
          rot->EndStep();
          std::vector<uint64_t>& b = base[copying];
          for (uint64_t k = 0; k < r.live_blocks; ++k) {
            r.max_block_count = std::max(r.max_block_count, senses[k] - b[k] + cfg.pages);
            b[k] = senses[k];
          }
          copying = rot->StartStep();
          ++copies;
          next_switch += copy_cycles;
        }
      }
      ++senses[blk];
      ++r.bursts;
      t += period;
      if (in_place) {
        MinHeap& h = due[blk];
        while (h.top() <= senses[blk]) {
          const uint64_t at = h.top();
          h.pop();
          h.push(at + limit);  // erased: counts from 0 again
          ++r.refreshes;
          step_stall += refresh_cycles;
        }
      }
    }
    if (step_stall > 0) ++r.stalled_steps;
    if (step_stall > r.worst_step_stall_cycles) {
      r.worst_step_stall_cycles = step_stall;
      r.worst_step = s;
    }
    r.stall_cycles += step_stall;
  }
  r.foreground_cycles = r.bursts * period;
  r.step_cycles = static_cast<double>(r.foreground_cycles) / static_cast<double>(r.steps);
  if (opt.mode == RefreshMode::kFlint) {
    r.refreshes = copies;
    for (const auto& b : base) {
      for (uint64_t k = 0; k < r.live_blocks; ++k) {
        r.max_block_count = std::max(r.max_block_count, senses[k] - b[k]);
      }
    }
  } else if (opt.mode == RefreshMode::kNone) {
    r.max_block_count = *std::max_element(senses.begin(), senses.end());
  } else {
    // Each heap's top is the next due point; the highest count now is limit - (top - senses).
    for (uint64_t k = 0; k < r.live_blocks; ++k) {
      r.max_block_count = std::max(r.max_block_count, limit - (due[k].top() - senses[k]));
    }
  }
  return r;
}

}  // namespace flint::sim
