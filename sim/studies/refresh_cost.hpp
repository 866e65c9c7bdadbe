// Refresh cost of a decode workload on one HBF stack, transaction level (docs/refresh_cost.md):
// the foreground burst stream of back-to-back decode steps, a read count per physical block, and
// one of four refresh policies:
//   kNone                no refresh (the reference step time);
//   kFlint               phantom-plane rotation: each die copies one logical plane at a time into
//                        its phantom (live blocks x PAGES x tPROG) and switches at the end of the
//                        copy (docs/refresh.md); foreground bursts never touch the phantom, so
//                        nothing stalls; the result is the highest count any block reaches;
//                        the plane each copy takes is the refresh model's (ModelRotation);
//   kInPlaceDistributed  counters start spread over [0, limit) (the paper's "initialized spread
//                        apart"), a block at the limit is refreshed in place;
//   kInPlaceBurst        counters start aligned at 0, so every block of a stripe trips together.
// An in-place refresh erases the block and programs its PAGES pages back (tERASE + PAGES x
// tPROG; the read-out is left out, as in the paper). It blocks its plane, and every burst needs
// every live plane, so the whole stack's foreground stream waits; refreshes of one stack are
// serialised (the data passes through the base die for ECC), so each costs its full duration.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "flint_config.hpp"
#include "model/common/placement.hpp"
#include "sim/workload/workload_gen.hpp"

namespace flint::sim {

enum class RefreshMode : uint8_t { kNone, kFlint, kInPlaceDistributed, kInPlaceBurst };
std::string_view ToString(RefreshMode m);

struct RefreshCostOptions {
  RefreshMode mode = RefreshMode::kFlint;
  model::BurstPlacement placement = model::BurstPlacement::kInterleaved;
  uint64_t steps = 0;          // decode steps simulated back to back
  uint64_t distinct_steps = 64;  // routing period: step s reads what step s mod this reads
  uint32_t stack = 0;
};

struct RefreshCostResult {
  uint64_t steps = 0;
  uint64_t live_blocks = 0;
  uint64_t bursts = 0;               // foreground bursts over the run
  uint64_t foreground_cycles = 0;    // bursts x burst period: the no-refresh run time
  uint64_t stall_cycles = 0;         // foreground time lost to refresh
  uint64_t refreshes = 0;            // in-place block refreshes, or FLINT plane copies
  uint64_t stalled_steps = 0;        // steps with any stall
  uint64_t worst_step_stall_cycles = 0;
  uint64_t worst_step = 0;
  uint64_t max_block_count = 0;      // highest read count any block reached
  double step_cycles = 0;            // mean foreground cycles of one step
  // Mean decode-step time with refresh over without.
  double slowdown() const {
    return static_cast<double>(foreground_cycles + stall_cycles) /
           static_cast<double>(foreground_cycles);
  }
  // The worst step's time over the mean step's.
  double worst_step_slowdown() const {
    return (step_cycles + static_cast<double>(worst_step_stall_cycles)) / step_cycles;
  }
};

RefreshCostResult RunRefreshCost(const DecodeGenerator& gen, const Config& cfg,
                                 const RefreshCostOptions& opt);

// Steps until every live block has been sensed `limit` times at least once, at the workload's
// least-read live block rate (capped at `cap`): long enough for every in-place block to trip.
uint64_t StepsToTripAll(const DecodeGenerator& gen, const Config& cfg,
                        model::BurstPlacement placement, uint64_t distinct_steps, uint32_t stack,
                        uint64_t cap);

}  // namespace flint::sim
