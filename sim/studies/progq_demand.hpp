// Program-queue demand of the phantom-plane rotation on a decode workload, transaction level
// (docs/progq_demand.md): the measurement behind the right-sized program queue of docs/area.md.
//
// One die of one stack (every burst stripes over every die, so every die sees the same stream
// and the dies rotate in lockstep). The die copies one logical plane at a time into its phantom,
// as flint_refresh_die does:
//   - a copy keeps next[b], the next page of block b to copy (NAND programs a block in order);
//   - fork: a foreground burst that senses page next[b] of the source's block b opens a queue
//     slot when the burst starts and commits the page when the burst ends (its last line); a full
//     queue drops the fork (the page stays for a later read or the scrubber);
//   - scrubber: reads page next[b] of its cursor's block, the cursor moving round robin over the
//     blocks with pages left (a sense and a page of data-outs, one burst period), only while
//     more than ForkReserve (1) slots are free. It runs
//     in the idle gap after a decode step and, under ScrubPolicy::kSteal, also takes a foreground
//     slot when the queue is empty, the phantom is about to idle and the copy is behind its pace
//     (pace x the program-bound copy time), which stalls the stack for one burst period;
//   - the program engine moves the oldest committed page into the phantom (its data-in, page
//     bytes at the die's I/O rate, frees the slot) and programs it (tPROG) before the next;
//   - when every live block is copied and programmed the copy switches in, the vacated blocks are
//     erased one after another (live blocks x tERASE, no copy meanwhile: the next phantom is the
//     plane being erased), and the next logical plane's copy starts.
// Which plane each copy takes and in which page order is the refresh model's (ModelRotation,
// sim/studies/model_rotation.hpp): every scrub read and program is told to it, and it refuses any
// the rotation does not allow.
// A slot is held from its open to the end of its data-in: that is the occupancy whose mean L,
// arrival rate lambda and mean residence W Little's law ties together (checked, not assumed).
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "flint_config.hpp"
#include "model/common/placement.hpp"
#include "sim/workload/workload_gen.hpp"

namespace flint::sim {

enum class ScrubPolicy : uint8_t {
  kIdleOnly,  // as built (flint_refresh_die): the scrubber reads only while the foreground idles
  kSteal,     // also takes a foreground slot when the queue runs empty and the copy is behind
              // its pace (a stall of one period)
};
std::string_view ToString(ScrubPolicy p);
// Parses "idle" / "steal"; throws std::invalid_argument naming the bad text.
ScrubPolicy ParseScrubPolicy(std::string_view text);

struct ProgqDemandOptions {
  uint32_t queue_pages = 0;            // K: program-queue slots of the die
  ScrubPolicy scrub = ScrubPolicy::kSteal;
  double pace = 1.0;                   // kSteal: copy time aimed at, over the program-bound one
  double idle_fraction = 0;            // of wall time the foreground idles: after a step of
                                       // S burst cycles comes a gap of S x f / (1 - f) cycles
  uint64_t copies = 0;                 // plane copies (rotation steps) to complete
  uint64_t max_cycles = 0;             // stop here even if the copies are not done (0: no cap)
  uint64_t distinct_steps = 64;        // routing period: step s reads what step s mod this reads
  uint32_t stack = 0;
  model::BurstPlacement placement = model::BurstPlacement::kInterleaved;
};

struct ProgqDemandResult {
  uint64_t live_blocks = 0;
  uint64_t cycles = 0;                 // simulated time
  uint64_t steps = 0;                  // decode steps started
  uint64_t bursts = 0;                 // foreground bursts
  uint64_t foreground_cycles = 0;      // bursts x burst period
  uint64_t stall_cycles = 0;           // foreground time lost to stolen scrub reads
  uint64_t forks_offered = 0;          // bursts that sensed the next page of their source block
  uint64_t forks_taken = 0;
  uint64_t forks_dropped = 0;          // offered while the queue was full
  uint64_t scrubbed_idle = 0;          // scrub reads in idle gaps
  uint64_t scrubbed_stolen = 0;        // scrub reads that took a foreground slot
  uint64_t programmed = 0;             // pages whose program completed
  uint64_t copies = 0;                 // copies switched in (and erased)
  uint64_t copy_cycles_sum = 0;        // copy start to switch, over completed copies
  uint64_t copy_cycles_max = 0;
  uint64_t step_cycles_sum = 0;        // copy start to the end of the erase, over copies
  uint64_t program_busy_cycles = 0;    // data-in + tPROG of every program started
  uint64_t copying_cycles = 0;         // time with a copy in progress (not erasing)
  // Occupancy, measured: the integral of slots in use over time, the slot holding times of the
  // pages whose data-in ended, and the most slots in use at once.
  double occupancy_integral = 0;
  uint64_t residence_sum = 0;
  uint64_t released = 0;
  uint32_t peak_occupancy = 0;
  uint64_t max_block_count = 0;        // highest read count of any block before its refresh

  uint64_t taken() const { return forks_taken + scrubbed_idle + scrubbed_stolen; }
  // Little's law's three figures, per cycle.
  double arrival_per_cycle() const {
    return cycles ? static_cast<double>(taken()) / static_cast<double>(cycles) : 0.0;
  }
  double mean_occupancy() const {
    return cycles ? occupancy_integral / static_cast<double>(cycles) : 0.0;
  }
  double mean_residence_cycles() const {
    return released ? static_cast<double>(residence_sum) / static_cast<double>(released) : 0.0;
  }
  // Fraction of copying time the phantom is programming (1: the copy runs at the program rate).
  double phantom_utilisation() const {
    return copying_cycles ? static_cast<double>(program_busy_cycles) /
                                static_cast<double>(copying_cycles)
                          : 0.0;
  }
  double stall_fraction() const {
    return foreground_cycles ? static_cast<double>(stall_cycles) /
                                   static_cast<double>(foreground_cycles)
                             : 0.0;
  }
};

// Runs the rotation on the workload's burst stream until opt.copies copies have switched in (or
// opt.max_cycles). Throws std::invalid_argument for a queue of 0 pages, 0 copies, a pace below 1
// or an idle fraction outside [0, 1).
ProgqDemandResult RunProgqDemand(const DecodeGenerator& gen, const Config& cfg,
                                 const ProgqDemandOptions& opt);

}  // namespace flint::sim
