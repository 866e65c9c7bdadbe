// The BCH line decoder's occupancy study (bch_occupancy.hpp).
#include "sim/studies/bch_occupancy.hpp"

#include <algorithm>
#include <random>
#include <vector>

namespace flint::sim {

BchOccupancy RunBchOccupancy(const model::BchLineDecParams& params, double rber, uint64_t interval,
                             uint64_t lines, uint64_t seed) {
  BchOccupancy r;
  r.lines = lines;
  std::mt19937_64 rng(seed);
  std::binomial_distribution<unsigned> errors(params.n, rber);
  std::vector<model::BchLineArrival> arrivals(lines);
  for (uint64_t i = 0; i < lines; ++i) {
    const unsigned w = errors(rng);
    auto& a = arrivals[i];
    a.earliest = i * interval;
    a.path = w == 0   ? model::BchLinePath::kClean
             : w == 1 ? model::BchLinePath::kSingle
                      : model::BchLinePath::kSlow;
    r.clean += w == 0;
    r.single += w == 1;
    r.slow += w >= 2;
  }
  const auto t = model::RunBchLineDec(params, arrivals, [](uint64_t) { return true; });
  if (t.empty()) return r;
  const uint64_t span = t.back().left + 1;
  uint64_t search = 0, busy = 0, latency = 0;
  for (uint64_t i = 0; i < lines; ++i) {
    const auto& l = t[i];
    if (l.unit >= 0) {
      search += l.search_end - l.search + 1;
      busy += l.search - l.dispatch + 1;
    }
    const uint64_t lag = l.taken - arrivals[i].earliest;
    r.max_lag = std::max(r.max_lag, lag);
    r.stall_lines += lag != 0;
    latency += l.valid - l.taken;
    r.max_latency = std::max(r.max_latency, l.valid - l.taken);
  }
  r.search_busy = static_cast<double>(search) / static_cast<double>(params.units * span);
  r.bm_busy = static_cast<double>(busy) / static_cast<double>(params.units * span);
  // The die offers `lines` lines in (lines - 1) interval + 1 cycles; the decoder took them in
  // taken_last + 1.
  r.throughput =
      static_cast<double>((lines - 1) * interval + 1) / static_cast<double>(t.back().taken + 1);
  r.mean_latency = static_cast<double>(latency) / static_cast<double>(lines);
  return r;
}

}  // namespace flint::sim
