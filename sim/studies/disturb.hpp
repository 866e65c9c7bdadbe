// Read-disturb profile of a decode workload under a burst placement (docs/refresh.md, Q3): how
// many senses each block of one stack takes per decode step when every burst a step needs is
// sensed once (FLINT's fetch-once stream; a re-fetching controller only adds senses), and how
// that compares with the time a phantom-plane rotation takes to refresh every block.
#pragma once
#include <cstdint>
#include <vector>

#include "flint_config.hpp"
#include "model/common/placement.hpp"
#include "sim/workload/workload_gen.hpp"

namespace flint::sim {

// Distinct stack-local bursts of stack `stack` that step `plan` reads, ascending.
std::vector<uint64_t> StackBurstsOfStep(const DecodeGenerator& gen, const StepPlan& plan,
                                        uint32_t stack);

struct DisturbProfile {
  model::BurstPlacement placement = model::BurstPlacement::kInterleaved;
  uint64_t steps = 0;
  uint64_t stack_bursts = 0;       // bursts of the model on the stack
  uint64_t live_blocks = 0;        // blocks a plane needs for them
  uint64_t senses = 0;             // block senses summed over blocks and steps (one plane)
  std::vector<uint64_t> per_block; // senses per live block over all steps
  uint64_t max_block_senses = 0;   // of the hottest block, over all steps
  double mean_block_senses = 0;    // over live blocks, over all steps
  // Time until the hottest block reaches the disturb limit, with the steps run back to back at
  // the full channel rate (one burst per burst period): the shortest it can be.
  double seconds_to_limit = 0;
  // One rotation pass: every physical plane of a die copied into the phantom, page by page
  // (PHYS_PLANES x live blocks x PAGES x tPROG; erases overlap in the phantom).
  double rotation_pass_seconds = 0;
  double margin() const { return seconds_to_limit / rotation_pass_seconds; }
};

// Runs `steps` decode steps of `gen` (steps 0..steps-1) on stack `stack`.
DisturbProfile MeasureDisturb(const DecodeGenerator& gen, const Config& cfg,
                              model::BurstPlacement placement, uint64_t steps, uint32_t stack);

}  // namespace flint::sim
