// Throughput and correction-path occupancy of the multi-path BCH line decoder (docs/ecc.md, "The
// line decoder at line rate"; issue #26 item 4), from its timing model
// (model/ecc/bch_line_timing): one die's decoder fed a line image every `interval` cycles (the
// config's line image over its die I/O rate), each line's path drawn from the number of bit
// errors in its 1145 code bits at a given RBER (binomial: 0 clean, 1 single, 2 or more slow; up
// to 2t = 22 errors never look like one, so the draw is exact for every weight the rates here
// produce), the output always ready.
#pragma once
#include <cstdint>

#include "model/ecc/bch_line_timing.hpp"

namespace flint::sim {

struct BchOccupancy {
  uint64_t lines = 0;
  uint64_t clean = 0, single = 0, slow = 0;
  double search_busy = 0;  // Chien-search busy cycles over (units x cycles of the run)
  double bm_busy = 0;     // Berlekamp-Massey holding a line (to its hand-off) over (units x cycles)
  double throughput = 0;  // lines taken a cycle over the die's rate (1 = keeps up)
  uint64_t max_lag = 0;   // the most cycles a line was taken after the die offered it
  double mean_latency = 0;  // taken to first valid, cycles
  uint64_t max_latency = 0;
  uint64_t stall_lines = 0;  // lines taken later than offered at the die's rate
};

// `lines` lines offered at 0, interval, 2 interval, ... (each held until taken, and the next
// offered no earlier than the cycle after); error weights from `seed`.
BchOccupancy RunBchOccupancy(const model::BchLineDecParams& params, double rber, uint64_t interval,
                             uint64_t lines, uint64_t seed);

}  // namespace flint::sim
