// The multi-path BCH line decoder (flint_bch_line_dec; issue #26 items 2 and 4) in lock-step with
// the models: every response against model::BchCode::Decode (data, status, bits flipped), in
// arrival order, and every line's cycles (taken, first valid, left) against the timing model
// model/ecc/bch_line_timing, which is written from the decoder's documented rules.
//
// Two Verilated configurations: the default parameters (Vbch_line) and one unit, P = 8, four
// slots (Vbch_line_bp), where the buffer fills and the unit is busy most of the time. The bench
// offers line i from gap_i cycles after line i-1 was taken (held until taken) and drives the
// output ready from a hash of (seed, cycle), so the timing model sees the same stimulus. Each
// case keeps the first mismatch and asserts once at its end; random cases print the seed and the
// command that replays them with waves.
#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vbch_line.h"
#include "Vbch_line_bp.h"
#include "model/ecc/bch.hpp"
#include "model/ecc/bch_line_timing.hpp"
#include "tb/common/harness.hpp"
#include "tb/ecc/bch_tb_util.hpp"

namespace {

namespace m = flint::model;
using flint::tb::BchHex;
using flint::tb::BchLineCode;
using flint::tb::FlipRandom;
using flint::tb::GetBch;
using flint::tb::Harness;
using flint::tb::kStatusCorrected;
using flint::tb::kStatusOk;
using flint::tb::kStatusUncorrectable;
using flint::tb::PutBch;
using flint::tb::RandomBits;
using flint::tb::Received;
using flint::tb::StatusOf;

// x^p mod g(x), as a word of the shortened code (its bits in the parity positions): its
// syndromes are those of a single error at field position p, since x^p minus it is a multiple
// of g, whose roots include alpha^1 .. alpha^2t.
m::BchBits SingleLookalike(const m::BchCode& code, uint32_t p) {
  const unsigned r = code.parity_bits();
  const std::vector<uint8_t>& g = code.generator();
  std::vector<uint8_t> rem(r, 0);
  rem[0] = 1;  // x^0
  for (uint32_t step = 0; step < p; ++step) {
    const uint8_t top = rem[r - 1];
    for (unsigned i = r - 1; i > 0; --i) rem[i] = rem[i - 1] ^ (top ? g[i] : 0);
    rem[0] = top ? g[0] : 0;
  }
  m::BchBits word(m::BchWords(code.code_bits()), 0);
  for (unsigned i = 0; i < r; ++i) {
    if (rem[i]) m::BchFlip(&word, i);
  }
  return word;
}

// The output ready of cycle c: a hash of (seed, c) against p_ready; the timing model evaluates
// the same function.
bool ReadyAt(uint32_t seed, double p_ready, uint64_t c) {
  if (p_ready >= 1.0) return true;
  uint64_t z = (uint64_t{seed} << 32) ^ c ^ 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53 < p_ready;
}

struct Job {
  m::BchBits word;
  uint32_t gap = 0;  // cycles between the previous line taken and this one offered
  std::string what;
};

struct Stimulus {
  uint32_t seed = 1;
  double p_ready = 1.0;
};

template <class Dut>
class Bench {
 public:
  Bench(uint32_t seed, m::BchLineDecParams params)
      : h_(seed, "bch_line_dec"), code_(BchLineCode()), params_(params) {
    auto& d = h_.dut();
    REQUIRE(sizeof(d.in_code_i) * 8 >= code_.code_bits());
    REQUIRE(sizeof(d.out_data_o) * 8 == code_.data_bits());
    d.in_valid_i = 0;
    d.out_ready_i = 0;
    h_.Reset();
  }

  // Runs the jobs; compares responses with Decode() as they leave, then every line's cycles
  // with the timing model.
  void Run(const std::vector<Job>& jobs, Stimulus stim) {
    auto& d = h_.dut();
    const size_t count = jobs.size();
    std::vector<m::BchLineTimes> got(count);
    std::vector<uint8_t> seen_valid(count, 0);
    size_t next = 0, done = 0, put = count;  // put: the line on in_code_i
    uint64_t offered = jobs.empty() ? 0 : jobs[0].gap;
    uint64_t c = 0;  // cycles since this run started
    const uint64_t limit = 400 * (count + 4) + 4 * params_.SlowLatency();
    for (; done < count && c < limit; ++c) {
      const bool want_valid = next < count && offered <= c;
      if (want_valid && put != next) {
        PutBch(d.in_code_i, jobs[next].word);
        put = next;
      }
      d.in_valid_i = want_valid;
      d.out_ready_i = ReadyAt(stim.seed, stim.p_ready, c);
      h_.Eval();
      if (d.in_valid_i && !d.in_ready_o) ++stalls_;
      if (d.out_valid_o) {
        if (done >= next) {
          Fail(c, "a response with no line inside");
        } else if (!seen_valid[done]) {
          seen_valid[done] = 1;
          got[done].valid = c;
        }
      }
      if (d.out_valid_o && d.out_ready_i && done < next) {
        Check(jobs[done], done, c);
        got[done].left = c;
        ++done;
      }
      if (d.in_valid_i && d.in_ready_o) {
        got[next].taken = c;
        got[next].offered = offered;
        ++next;
        if (next < count) offered = c + 1 + jobs[next].gap;
      }
      h_.Tick();
    }
    d.in_valid_i = 0;
    if (done < count) {
      Fail(c, std::to_string(done) + " of " + std::to_string(count) + " responses in time");
      return;
    }
    // The timing model on the same stimulus.
    std::vector<m::BchLineArrival> arrivals(count);
    for (size_t i = 0; i < count; ++i) {
      arrivals[i].gap = jobs[i].gap;
      arrivals[i].path = m::ClassifyBchLine(code_, jobs[i].word);
      ++paths_[static_cast<size_t>(arrivals[i].path)];
    }
    arrivals[0].earliest = jobs[0].gap;
    const auto want = m::RunBchLineDec(
        params_, arrivals, [&](uint64_t cyc) { return ReadyAt(stim.seed, stim.p_ready, cyc); });
    for (size_t i = 0; i < count; ++i) {
      const auto& g = got[i];
      const auto& w = want[i];
      if (g.taken != w.taken || g.valid != w.valid || g.left != w.left) {
        std::ostringstream s;
        s << "line " << i << " (" << jobs[i].what << ", path " << static_cast<int>(arrivals[i].path)
          << "): taken/valid/left " << g.taken << "/" << g.valid << "/" << g.left
          << ", timing model " << w.taken << "/" << w.valid << "/" << w.left;
        Fail(g.taken, s.str());
        break;
      }
    }
    times_ = want;
  }

  void Finish() {
    INFO("mismatches: " << mismatches_ << "; first: " << first_);
    CHECK(mismatches_ == 0);
    REQUIRE_FALSE(h_.Failed());
  }

  const m::BchCode& code() const { return code_; }
  uint64_t stalls() const { return stalls_; }
  uint64_t per_status(uint8_t s) const { return per_status_[s]; }
  uint64_t per_path(m::BchLinePath p) const { return paths_[static_cast<size_t>(p)]; }
  const std::vector<m::BchLineTimes>& times() const { return times_; }

 private:
  void Check(const Job& job, size_t i, uint64_t c) {
    auto& d = h_.dut();
    m::BchBits word = job.word;
    const m::BchResult r = code_.Decode(&word);
    const m::BchBits want = code_.Data(word);
    const m::BchBits got = GetBch(d.out_data_o, code_.data_bits());
    const uint8_t status = static_cast<uint8_t>(d.out_status_o);
    const unsigned nerr = d.out_nerr_o;
    if (status < 3) ++per_status_[status];
    if (got != want || status != StatusOf(r.status) || nerr != r.corrected_bits) {
      std::ostringstream s;
      s << "line " << i << " (" << job.what << "): status " << int{status} << " nerr " << nerr
        << ", model " << int{StatusOf(r.status)} << " " << r.corrected_bits
        << (got != want ? "; data " + BchHex(got) + ", model " + BchHex(want) : "");
      Fail(c, s.str());
    }
  }
  void Fail(uint64_t c, const std::string& what) {
    if (mismatches_++ == 0) first_ = "cycle " + std::to_string(c) + ": " + what;
  }

  Harness<Dut> h_;
  const m::BchCode& code_;
  m::BchLineDecParams params_;
  uint64_t mismatches_ = 0, stalls_ = 0;
  uint64_t per_status_[3] = {0, 0, 0};
  uint64_t paths_[4] = {0, 0, 0, 0};
  std::string first_;
  std::vector<m::BchLineTimes> times_;
};

// The Verilated configurations and their parameters (tb/ecc/CMakeLists.txt).
m::BchLineDecParams DefaultParams() { return {}; }
m::BchLineDecParams BpParams() {
  m::BchLineDecParams p;
  p.units = 1;
  p.p = 8;
  p.depth = 4;
  return p;
}

// `count` random lines: a fraction clean, a fraction with one error, the rest of weight 2..2t+1
// (cycling), with random gaps (mostly back to back).
std::vector<Job> RandomJobs(const m::BchCode& code, std::mt19937_64& rng, size_t count,
                            double p_clean, double p_single) {
  std::vector<Job> jobs;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  unsigned multi = 0;
  for (size_t i = 0; i < count; ++i) {
    const double x = u(rng);
    unsigned weight = 0;
    if (x >= p_clean + p_single) {
      weight = 2 + multi++ % (2 * code.t());
    } else if (x >= p_clean) {
      weight = 1;
    }
    Job job{Received(code, rng, weight), 0,
            "line " + std::to_string(i) + " weight " + std::to_string(weight)};
    const double g = u(rng);
    job.gap = g < 0.7 ? 0 : g < 0.9 ? 1 : static_cast<uint32_t>(rng() % 40);
    jobs.push_back(job);
  }
  return jobs;
}

}  // namespace

TEST_CASE("bch_line: clean lines and every single error stream at one a cycle",
          "[ecc][bch_line][directed]") {
  Bench<Vbch_line> b(1, DefaultParams());
  const m::BchCode& code = b.code();
  std::mt19937_64 rng(1);
  std::vector<Job> jobs;
  for (int i = 0; i < 8; ++i) jobs.push_back({Received(code, rng, 0), 0, "clean"});
  // Every code bit: parity bits (data unchanged, one bit counted) and data bits.
  for (uint32_t pos = 0; pos < code.code_bits(); ++pos) {
    m::BchBits word = code.Encode(RandomBits(rng, code.data_bits()));
    m::BchFlip(&word, pos);
    jobs.push_back({word, 0, "error at code bit " + std::to_string(pos)});
  }
  b.Run(jobs, {});
  CHECK(b.per_path(m::BchLinePath::kSingle) == code.code_bits());
  CHECK(b.per_status(kStatusCorrected) == code.code_bits());
  CHECK(b.stalls() == 0);
  // One line a cycle in and out, two cycles each.
  const auto& t = b.times();
  REQUIRE(t.size() == jobs.size());
  for (size_t i = 0; i < t.size(); ++i) {
    INFO("line " << i);
    REQUIRE(t[i].taken == i);
    REQUIRE(t[i].valid == i + 2);
  }
  b.Finish();
}

TEST_CASE("bch_line: single-error syndromes outside the shortened code are flagged as Decode does",
          "[ecc][bch_line][corner]") {
  Bench<Vbch_line> b(1, DefaultParams());
  const m::BchCode& code = b.code();
  std::mt19937_64 rng(2);
  std::vector<Job> jobs;
  const uint32_t n = code.code_bits();
  // Field positions just past the code, in the middle of the unused range, and the last; each
  // alone (bits in the parity positions only) and added to a random codeword (weight about 60).
  for (uint32_t p : {n, n + 1, n + 7, 1500u, 2000u, code.field_order() - 2}) {
    const m::BchBits look = SingleLookalike(code, p);
    REQUIRE(m::ClassifyBchLine(code, look) == m::BchLinePath::kSingle);
    m::BchBits copy = look;
    REQUIRE(code.Decode(&copy).status == m::BchStatus::kUncorrectable);
    jobs.push_back({look, 0, "x^" + std::to_string(p) + " mod g"});
    m::BchBits word = code.Encode(RandomBits(rng, code.data_bits()));
    for (size_t w = 0; w < word.size(); ++w) word[w] ^= look[w];
    jobs.push_back({word, 0, "codeword + x^" + std::to_string(p) + " mod g"});
  }
  // And inside the code (p < n): the same construction is corrected, as a single error.
  for (uint32_t p : {0u, 120u, 121u, n - 1}) {
    jobs.push_back({SingleLookalike(code, p), 0, "x^" + std::to_string(p) + " mod g"});
  }
  b.Run(jobs, {});
  CHECK(b.per_status(kStatusUncorrectable) == 12);
  CHECK(b.per_status(kStatusCorrected) == 4);
  b.Finish();
}

TEST_CASE("bch_line: weights 2, t, t+1 .. 2t+1 through the slow path decode as the model",
          "[ecc][bch_line][directed]") {
  Bench<Vbch_line> b(1, DefaultParams());
  const m::BchCode& code = b.code();
  std::mt19937_64 rng(3);
  std::vector<Job> jobs;
  std::vector<unsigned> weights = {2, 3, code.t() - 1, code.t()};
  for (unsigned w = code.t() + 1; w <= 2 * code.t() + 1; ++w) weights.push_back(w);
  for (int rep = 0; rep < 4; ++rep) {
    for (unsigned w : weights) {
      jobs.push_back({Received(code, rng, w), 0, "weight " + std::to_string(w)});
      jobs.push_back({Received(code, rng, 0), 0, "clean behind weight " + std::to_string(w)});
    }
  }
  // A word whose locator is longer than t: no search (found with the model).
  for (int tries = 0; tries < 100000; ++tries) {
    m::BchBits word = Received(code, rng, code.t() + 1);
    if (m::ClassifyBchLine(code, word) == m::BchLinePath::kSlowNoSearch) {
      jobs.push_back({word, 0, "L > t"});
      break;
    }
  }
  REQUIRE(jobs.back().what == "L > t");
  b.Run(jobs, {});
  CHECK(b.per_path(m::BchLinePath::kSlow) >= 4 * weights.size() - 2);
  b.Finish();
}

TEST_CASE("bch_line: a slow line's latency, and the clean lines behind it wait in order",
          "[ecc][bch_line][directed]") {
  Bench<Vbch_line> b(1, DefaultParams());
  const m::BchCode& code = b.code();
  std::mt19937_64 rng(4);
  std::vector<Job> jobs;
  jobs.push_back({Received(code, rng, 5), 0, "weight 5"});
  for (int i = 0; i < 20; ++i) jobs.push_back({Received(code, rng, 0), 0, "clean"});
  b.Run(jobs, {});
  const m::BchLineDecParams p = DefaultParams();
  const auto& t = b.times();
  REQUIRE(t.size() == jobs.size());
  CHECK(t[0].valid - t[0].taken == p.SlowLatency());
  CHECK(p.SlowLatency() == 2 + 23 + (1145 + p.p - 1) / p.p + 2 + 1);
  // Every clean line is out right after the slow one, one a cycle.
  for (size_t i = 1; i < t.size(); ++i) CHECK(t[i].valid == t[0].valid + i);
  b.Finish();
}

TEST_CASE("bch_line: back-pressure when the buffer is full and the unit busy",
          "[ecc][bch_line][corner]") {
  Bench<Vbch_line_bp> b(1, BpParams());
  const m::BchCode& code = b.code();
  std::mt19937_64 rng(5);
  std::vector<Job> jobs;
  // Slow lines back to back (one unit: they queue), then clean lines behind them, then an
  // output that stalls at random.
  for (int i = 0; i < 6; ++i) jobs.push_back({Received(code, rng, 2 + i), 0, "slow"});
  for (int i = 0; i < 10; ++i) jobs.push_back({Received(code, rng, 0), 0, "clean"});
  for (int i = 0; i < 6; ++i) jobs.push_back({Received(code, rng, i % 2), 0, "fast"});
  b.Run(jobs, {});
  CHECK(b.stalls() > 0);
  b.Run(RandomJobs(code, rng, 200, 0.4, 0.3), {7, 0.3});
  CHECK(b.stalls() > 100);
  b.Finish();
}

TEST_CASE("bch_line: random lines, gaps and output stalls match Decode and the timing model",
          "[ecc][bch_line][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  SECTION("default configuration") {
    Bench<Vbch_line> b(seed, DefaultParams());
    // A slow-line share far above end of life (2 %), so units and buffer fill.
    b.Run(RandomJobs(b.code(), rng, 1500, 0.5, 0.2), {seed, 0.8});
    CHECK(b.per_path(m::BchLinePath::kSlow) > 300);
    b.Run(RandomJobs(b.code(), rng, 500, 0.2, 0.2), {seed + 1, 0.5});
    b.Finish();
  }
  SECTION("one unit, four slots") {
    Bench<Vbch_line_bp> b(seed, BpParams());
    b.Run(RandomJobs(b.code(), rng, 600, 0.6, 0.3), {seed, 0.6});
    CHECK(b.stalls() > 0);
    b.Finish();
  }
}

TEST_CASE("bch_line: the timing model follows its rules on hand-worked streams",
          "[ecc][bch_line][model]") {
  using P = m::BchLinePath;
  auto ready = [](uint64_t) { return true; };
  m::BchLineDecParams one;
  one.units = 1;
  one.p = 32;
  one.depth = 4;
  REQUIRE(one.SearchCycles() == 38);  // ceil(1145 / 32) + 2
  REQUIRE(one.SlowLatency() == 64);
  // Alone: clean 2, slow 64, no search 27 (2 + 23 + 1 + 1).
  auto t = m::RunBchLineDec(one, {{0, 0, P::kSlow}}, ready);
  CHECK(t[0].valid == 64);
  CHECK(t[0].dispatch == 2);
  CHECK(t[0].search == 25);
  CHECK(t[0].search_end == 63);
  t = m::RunBchLineDec(one, {{0, 0, P::kSlowNoSearch}}, ready);
  CHECK(t[0].valid == 27);
  // Two slow lines back to back on one unit: the second is queued from 3 but Berlekamp-Massey
  // holds the first until it enters the search at 25, so the second is dispatched at 26, has its
  // locator at 49, waits for the search (idle from 64): search 64..102, valid at 103.
  t = m::RunBchLineDec(one, {{0, 0, P::kSlow}, {0, 0, P::kSlow}}, ready);
  CHECK(t[1].dispatch == 26);
  CHECK(t[1].search == 64);
  CHECK(t[1].valid == 103);
  CHECK(t[1].left == 103);
  // Depth 4: slow, then five clean lines offered back to back. Lines 1..3 are taken at 1..3,
  // line 4 waits for a free slot: line 0 leaves at 64, so line 4 is taken at 65; line 1..3
  // leave at 65..67, line 4 (done at 67) at 68, line 5 (taken 66, done 68) at 69.
  t = m::RunBchLineDec(one,
                       {{0, 0, P::kSlow},
                        {0, 0, P::kClean},
                        {0, 0, P::kClean},
                        {0, 0, P::kSingle},
                        {0, 0, P::kClean},
                        {0, 0, P::kClean}},
                       ready);
  CHECK(t[3].taken == 3);
  CHECK(t[4].taken == 65);
  CHECK(t[5].taken == 66);
  CHECK(t[1].left == 65);
  CHECK(t[4].left == 68);
  CHECK(t[5].left == 69);
  // Two units: the second slow line goes to unit 1 (wholly idle), not behind unit 0.
  m::BchLineDecParams two = one;
  two.units = 2;
  t = m::RunBchLineDec(two, {{0, 0, P::kSlow}, {0, 0, P::kSlow}}, ready);
  CHECK(t[1].unit == 1);
  CHECK(t[1].valid == 65);
  // The output stalled until cycle 10: a clean line is valid at 2 and leaves at 10.
  t = m::RunBchLineDec(one, {{0, 0, P::kClean}, {0, 0, P::kClean}},
                       [](uint64_t c) { return c >= 10; });
  CHECK(t[0].valid == 2);
  CHECK(t[0].left == 10);
  CHECK(t[1].valid == 11);
  CHECK(t[1].left == 11);
}
