// The multi-path BCH line decoder's timing rules (bch_line_timing.hpp), stepped a cycle at a
// time.
#include "model/ecc/bch_line_timing.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace flint::model {

BchLinePath ClassifyBchLine(const BchCode& code, const BchBits& word) {
  const std::vector<uint32_t> s = code.Syndromes(word);
  const unsigned t = code.t();
  bool clean = true;
  for (unsigned j = 1; j <= 2 * t; ++j) clean = clean && s[j] == 0;
  if (clean) return BchLinePath::kClean;
  if (s[1] != 0) {
    bool single = true;
    uint32_t pw = s[1];  // S_1^j
    const uint32_t sq = code.Mul(s[1], s[1]);
    for (unsigned j = 3; j < 2 * t; j += 2) {
      pw = code.Mul(pw, sq);
      single = single && s[j] == pw;
    }
    if (single) return BchLinePath::kSingle;
  }
  std::vector<uint32_t> lambda;
  return code.ErrorLocator(s, &lambda) > t ? BchLinePath::kSlowNoSearch : BchLinePath::kSlow;
}

namespace {

struct Unit {
  int bm_line = -1;  // line in Berlekamp-Massey (dispatched, not handed on)
  uint64_t bm_out = 0;
  int ch_line = -1;  // line in the Chien search
  uint64_t ch_end = 0;
};

}  // namespace

std::vector<BchLineTimes> RunBchLineDec(const BchLineDecParams& params,
                                        const std::vector<BchLineArrival>& lines,
                                        const std::function<bool(uint64_t)>& out_ready) {
  if (params.units == 0 || params.p == 0 || params.depth == 0) {
    throw std::invalid_argument("RunBchLineDec: units, p and depth must be at least 1");
  }
  const size_t count = lines.size();
  std::vector<BchLineTimes> times(count);
  std::vector<uint64_t> done(count, kNoCycle);  // cycle from which the line is done
  std::vector<Unit> units(params.units);
  std::deque<size_t> queue;  // slow lines, oldest first

  size_t next_in = 0;      // next line to take
  size_t next_out = 0;     // oldest line not left
  uint64_t in_dec = 0;     // lines taken and not left, at the start of the cycle
  uint64_t head_from = 0;  // cycle from which next_out is the oldest
  if (count != 0) times[0].offered = lines[0].earliest;

  std::vector<uint8_t> bm_idle(units.size()), ch_idle(units.size());
  for (uint64_t c = 0; next_out < count; ++c) {
    // The units, on their state at the start of the cycle.
    for (size_t u = 0; u < units.size(); ++u) {
      bm_idle[u] = units[u].bm_line < 0;
      ch_idle[u] = units[u].ch_line < 0;
    }
    for (size_t u = 0; u < units.size(); ++u) {
      Unit& unit = units[u];
      if (unit.ch_line >= 0 && c == unit.ch_end) {
        done[static_cast<size_t>(unit.ch_line)] = c + 1;
      }
      if (unit.bm_line >= 0 && c >= unit.bm_out && ch_idle[u]) {
        BchLineTimes& l = times[static_cast<size_t>(unit.bm_line)];
        l.search = c;
        l.search_end =
            c + (lines[static_cast<size_t>(unit.bm_line)].path == BchLinePath::kSlowNoSearch
                     ? 1
                     : params.SearchCycles());
        unit.ch_line = unit.bm_line;
        unit.ch_end = l.search_end;
        unit.bm_line = -1;
      }
    }
    // Dispatch the oldest queued line.
    if (!queue.empty() && times[queue.front()].taken + 2 <= c) {
      int pick = -1;
      for (size_t u = 0; u < units.size() && pick < 0; ++u) {
        if (bm_idle[u] && ch_idle[u]) pick = static_cast<int>(u);
      }
      for (size_t u = 0; u < units.size() && pick < 0; ++u) {
        if (bm_idle[u]) pick = static_cast<int>(u);
      }
      if (pick >= 0) {
        const size_t i = queue.front();
        queue.pop_front();
        Unit& unit = units[static_cast<size_t>(pick)];
        unit.bm_line = static_cast<int>(i);
        unit.bm_out = c + params.BmCycles();
        times[i].unit = pick;
        times[i].dispatch = c;
      }
    }
    // Chien searches that ended this cycle are idle from the next.
    for (Unit& unit : units) {
      if (unit.ch_line >= 0 && c == unit.ch_end) unit.ch_line = -1;
    }
    // The oldest line's response.
    uint64_t left_now = 0;
    const bool ready = out_ready(c);
    if (next_out < next_in && done[next_out] <= c && head_from <= c) {
      BchLineTimes& l = times[next_out];
      if (l.valid == 0)
        l.valid = c;  // never 0 otherwise: a line is done 2 cycles after it is taken
      if (ready) {
        l.left = c;
        ++next_out;
        head_from = c + 1;
        left_now = 1;
      }
    }
    // Take the next line.
    if (next_in < count && times[next_in].offered <= c && in_dec < params.depth) {
      BchLineTimes& l = times[next_in];
      l.taken = c;
      const BchLinePath path = lines[next_in].path;
      if (path == BchLinePath::kClean || path == BchLinePath::kSingle) {
        done[next_in] = c + 2;
      } else {
        queue.push_back(next_in);
      }
      ++next_in;
      ++in_dec;
      if (next_in < count) {
        const BchLineArrival& a = lines[next_in];
        times[next_in].offered = std::max(a.earliest, c + 1 + a.gap);
      }
    }
    in_dec -= left_now;
  }
  return times;
}

}  // namespace flint::model
