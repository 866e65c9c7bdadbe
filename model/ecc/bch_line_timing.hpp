// Timing model of the multi-path BCH line decoder (docs/ecc.md, "The line decoder at line rate";
// issue #26 items 2 and 4): for a stream of lines and an output ready per cycle, the cycle each
// line is taken, the cycle its response is first valid and the cycle it leaves. Written from the
// decoder's documented rules, not from the RTL (rtl/ecc/flint_bch_line_dec.sv); what a line
// decodes to is model::BchCode::Decode's. The BBC golden model takes the decoder's latency from
// here.
//
// The rules (cycle c: the line is taken):
//   - A line is taken in the first cycle it is offered in which fewer than `depth` lines are in
//     the decoder (taken, and not yet left before that cycle). One line a cycle.
//   - Clean (all syndromes zero) or single (the syndromes of one bit error): done at c + 2.
//   - Slow: queued from c + 2. The oldest queued line goes to a unit in the first cycle, from
//     then on, in which some unit's Berlekamp-Massey is idle: to the lowest-numbered unit whose
//     Berlekamp-Massey and Chien search are both idle, else to the lowest with Berlekamp-Massey
//     idle (both judged at the start of the cycle). One line a cycle.
//   - Dispatched at d: Berlekamp-Massey has its locator from d + 2t + 1 and hands it to the
//     unit's Chien search in the first cycle e from then on in which the search is idle;
//     Berlekamp-Massey is idle from e + 1. The search ends at f = e + ceil(n/p) + 2 (e + 1 when
//     the locator's length L exceeds t: no search) and is idle from f + 1; the line is done at
//     f + 1.
//   - Responses in arrival order: line i's response is valid from the first cycle in which it is
//     done and line i - 1 has left before; it leaves in the first such cycle with the output
//     ready. A line that left in cycle x counts in the decoder until x and frees its place at
//     x + 1.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "model/ecc/bch.hpp"

namespace flint::model {

// Which path the decoder takes for a line (ClassifyBchLine).
enum class BchLinePath : uint8_t {
  kClean = 0,     // all syndromes zero
  kSingle = 1,    // the syndromes of one error (corrected, or uncorrectable outside the code)
  kSlow = 2,      // Berlekamp-Massey and the Chien search
  kSlowNoSearch,  // slow, with a locator longer than t: no search (uncorrectable)
};

// The path of a received word (code_bits bits) under the decoder's rules: clean if every
// syndrome is zero; single if S_1 != 0 and S_j = S_1^j for every odd j < 2t; else slow, without
// a search when Berlekamp-Massey's L exceeds t.
BchLinePath ClassifyBchLine(const BchCode& code, const BchBits& word);

struct BchLineDecParams {
  unsigned units = 3;   // slow-path units
  unsigned p = 32;      // Chien positions a cycle
  unsigned depth = 64;  // lines the decoder holds (in-order buffer)
  unsigned t = kLineBchT;
  unsigned n = 1145;  // code bits

  uint64_t BmCycles() const { return 2 * uint64_t{t} + 1; }
  uint64_t SearchCycles() const { return (uint64_t{n} + p - 1) / p + 2; }
  // From taken to first valid, alone in the decoder: 2 clean/single, 2 + BM + search + 1 slow.
  uint64_t SlowLatency() const { return 2 + BmCycles() + SearchCycles() + 1; }
};

struct BchLineArrival {
  uint64_t earliest = 0;  // offered from max(earliest, previous line taken + 1 + gap)
  uint32_t gap = 0;
  BchLinePath path = BchLinePath::kClean;
};

inline constexpr uint64_t kNoCycle = ~uint64_t{0};

struct BchLineTimes {
  uint64_t offered = 0, taken = 0, valid = 0, left = 0;
  // Slow lines only: the unit, dispatch d, search start e, search end f.
  int unit = -1;
  uint64_t dispatch = kNoCycle, search = kNoCycle, search_end = kNoCycle;
};

// Runs the stream through the decoder. out_ready(cycle) says whether the output is ready in
// that cycle (called once a cycle, in increasing order, while a response is valid or not).
// Throws std::invalid_argument for units, p or depth of 0.
std::vector<BchLineTimes> RunBchLineDec(const BchLineDecParams& params,
                                        const std::vector<BchLineArrival>& lines,
                                        const std::function<bool(uint64_t)>& out_ready);

}  // namespace flint::model
