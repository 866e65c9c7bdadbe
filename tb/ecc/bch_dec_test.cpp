// The BCH line decoder's slow path (issue #26 item 2) in lock-step with model/ecc/bch:
// flint_bch_bm against the model's Berlekamp-Massey (the locator up to its nonzero factor
// Lambda_0, and L), flint_bch_chien (P = 16) against a root count done here with the model's
// field arithmetic and against the model's error positions, and flint_bch_dec (P = 8) against
// the model's Decode(): data, status and bits flipped of every line, in order.
//
// Every block is driven a cycle at a time through the wrapper flint_bch_dec_tb, its results
// compared at each output transfer (valid && ready) with the model's, in the order they were
// sent. Each case keeps the first mismatch and asserts once at its end; random cases print the
// seed with the command that replays them with waves.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "Vbch_dec.h"
#include "model/ecc/bch.hpp"
#include "tb/common/harness.hpp"
#include "tb/ecc/bch_tb_util.hpp"

namespace {

namespace m = flint::model;
using flint::tb::Harness;

using flint::tb::BchLineCode;

using flint::tb::FlipRandom;
using flint::tb::GetBch;
using flint::tb::kStatusCorrected;
using flint::tb::kStatusOk;
using flint::tb::kStatusUncorrectable;
using flint::tb::PutBch;
using flint::tb::RandomBits;
using flint::tb::Received;
using flint::tb::StatusOf;

// Field elements e[0], e[1], .. (m bits each) packed as e[j] at bits [j*m, j*m + m).
m::BchBits PackElems(const std::vector<uint32_t>& e, unsigned mb) {
  m::BchBits v(m::BchWords(e.size() * mb), 0);
  for (size_t j = 0; j < e.size(); ++j) {
    for (unsigned b = 0; b < mb; ++b) {
      if ((e[j] >> b) & 1u) m::BchFlip(&v, j * mb + b);
    }
  }
  return v;
}

std::vector<uint32_t> UnpackElems(const m::BchBits& v, size_t count, unsigned mb) {
  std::vector<uint32_t> e(count, 0);
  for (size_t j = 0; j < count; ++j) {
    for (unsigned b = 0; b < mb; ++b) {
      if (m::BchBit(v, j * mb + b)) e[j] |= 1u << b;
    }
  }
  return e;
}

using flint::tb::BchHex;

std::string Elems(const std::vector<uint32_t>& e) {
  std::ostringstream s;
  for (size_t j = 0; j < e.size(); ++j) s << (j ? " " : "") << e[j];
  return s.str();
}

// The odd syndromes S_1, S_3, .. of the model's Syndromes() result.
std::vector<uint32_t> OddOf(const std::vector<uint32_t>& s, unsigned t) {
  std::vector<uint32_t> odd(t);
  for (unsigned k = 0; k < t; ++k) odd[k] = s[2 * k + 1];
  return odd;
}

// The full syndrome list (S_0 unused, S_1 .. S_2t) from the odd ones: S_2j = S_j^2.
std::vector<uint32_t> FullFromOdd(const m::BchCode& code, const std::vector<uint32_t>& odd) {
  std::vector<uint32_t> s(2 * code.t() + 1, 0);
  for (unsigned k = 0; k < code.t(); ++k) s[2 * k + 1] = odd[k];
  for (unsigned j = 2; j <= 2 * code.t(); j += 2) s[j] = code.Mul(s[j / 2], s[j / 2]);
  return s;
}

// Roots of Lambda among positions [0, n): Lambda(alpha^-i) = 0, by Horner's rule with the
// model's field arithmetic (a third way to the same answer, besides the RTL and Decode()).
std::vector<uint32_t> RootsByHorner(const m::BchCode& code, const std::vector<uint32_t>& lambda) {
  std::vector<uint32_t> roots;
  const uint32_t order = code.field_order() - 1;
  for (uint32_t i = 0; i < code.code_bits(); ++i) {
    const uint32_t x = code.Exp((order - i % order) % order);
    uint32_t acc = 0;
    for (size_t j = lambda.size(); j-- > 0;) acc = code.Mul(acc, x) ^ lambda[j];
    if (acc == 0) roots.push_back(i);
  }
  return roots;
}

// How the benches hold their handshakes: always ready and valid as soon as possible, or each
// side toggled at random (valid kept until taken, as the protocol requires).
struct Handshake {
  bool random = false;
  double p_valid = 0.6;
  double p_ready = 0.5;
};

// One Verilated wrapper; the three blocks' transactions are run through it one block at a time.
class Bench {
 public:
  explicit Bench(uint32_t seed, Handshake hs = {})
      : h_(seed, "bch_dec"), code_(BchLineCode()), rng_(seed ^ 0x9e3779b9u), hs_(hs) {
    auto& d = h_.dut();
    REQUIRE(sizeof(d.dec_in_code_i) * 8 >= code_.code_bits());
    REQUIRE(sizeof(d.dec_in_code_i) * 8 < code_.code_bits() + 32);
    REQUIRE(sizeof(d.dec_out_data_o) * 8 == code_.data_bits());
    REQUIRE(sizeof(d.bm_in_syn_i) * 8 >= size_t{code_.t()} * code_.m());
    d.bm_in_valid_i = d.ch_in_valid_i = d.dec_in_valid_i = 0;
    d.bm_out_ready_i = d.ch_out_ready_i = d.dec_out_ready_i = 0;
    h_.Reset();
  }

  // --- Berlekamp-Massey: `odd` syndromes in, (L, Lambda / Lambda_0) compared with the model's.
  struct BmJob {
    std::vector<uint32_t> odd;
    std::string what;
  };
  void RunBm(const std::vector<BmJob>& jobs) {
    auto& d = h_.dut();
    const unsigned mb = code_.m();
    std::deque<size_t> sent;
    size_t next = 0, done = 0;
    uint64_t guard = 0;
    while (done < jobs.size() && ++guard < 400 * (jobs.size() + 4)) {
      if (!d.bm_in_valid_i && next < jobs.size() && Coin(hs_.p_valid)) {
        PutBch(d.bm_in_syn_i, PackElems(jobs[next].odd, mb));
        d.bm_in_valid_i = 1;
      }
      d.bm_out_ready_i = Coin(hs_.p_ready);
      h_.Eval();
      const bool in_fire = d.bm_in_valid_i && d.bm_in_ready_o;
      if (d.bm_out_valid_o && d.bm_out_ready_i) {
        if (sent.empty()) {
          Fail("bm: a result with no syndromes sent");
        } else {
          CheckBm(jobs[sent.front()]);
          sent.pop_front();
          ++done;
        }
      }
      if (in_fire) sent.push_back(next++);
      h_.Tick();
      if (in_fire) d.bm_in_valid_i = 0;
      ++cycle_;
    }
    if (done < jobs.size())
      Fail("bm: " + std::to_string(done) + " of " + std::to_string(jobs.size()) +
           " results before the time limit");
  }

  // --- Chien search: (Lambda, L) in; mask, count, verdict compared.
  struct ChienJob {
    std::vector<uint32_t> lambda;  // T + 1 coefficients
    unsigned deg;
    // Decode()'s positions when the locator came from a word Decode() corrects; else empty.
    std::vector<uint32_t> model_positions;
    bool model_corrects = false;
    bool from_word = false;  // the two fields above are Decode()'s
    std::string what;
  };
  void RunChien(const std::vector<ChienJob>& jobs) {
    auto& d = h_.dut();
    std::deque<size_t> sent;
    size_t next = 0, done = 0;
    uint64_t guard = 0;
    while (done < jobs.size() && ++guard < 400 * (jobs.size() + 4)) {
      if (!d.ch_in_valid_i && next < jobs.size() && Coin(hs_.p_valid)) {
        PutBch(d.ch_in_lambda_i, PackElems(jobs[next].lambda, code_.m()));
        d.ch_in_deg_i = static_cast<uint8_t>(jobs[next].deg);
        d.ch_in_valid_i = 1;
      }
      d.ch_out_ready_i = Coin(hs_.p_ready);
      h_.Eval();
      const bool in_fire = d.ch_in_valid_i && d.ch_in_ready_o;
      if (d.ch_out_valid_o && d.ch_out_ready_i) {
        if (sent.empty()) {
          Fail("chien: a result with no locator sent");
        } else {
          CheckChien(jobs[sent.front()]);
          sent.pop_front();
          ++done;
        }
      }
      if (in_fire) sent.push_back(next++);
      h_.Tick();
      if (in_fire) d.ch_in_valid_i = 0;
      ++cycle_;
    }
    if (done < jobs.size())
      Fail("chien: " + std::to_string(done) + " of " + std::to_string(jobs.size()) +
           " results before the time limit");
  }

  // --- The line decoder: received words in, (data, status, bits flipped) compared with
  // Decode()'s, in order. Records the latency of each line (taken to first valid).
  struct DecJob {
    m::BchBits word;
    std::string what;
    m::BchBits sent_data = {};  // the line's data before errors, when they are at most t
  };
  void RunDec(const std::vector<DecJob>& jobs) {
    auto& d = h_.dut();
    struct Expect {
      size_t job;
      uint64_t taken;
      m::BchBits data;
      m::BchResult result;
    };
    std::deque<Expect> sent;
    size_t next = 0, done = 0;
    uint64_t guard = 0;
    bool waiting = false;  // the head of `sent` has not been valid yet
    while (done < jobs.size() && ++guard < 400 * (jobs.size() + 4)) {
      if (!d.dec_in_valid_i && next < jobs.size() && Coin(hs_.p_valid)) {
        PutBch(d.dec_in_code_i, jobs[next].word);
        d.dec_in_valid_i = 1;
      }
      d.dec_out_ready_i = Coin(hs_.p_ready);
      h_.Eval();
      const bool in_fire = d.dec_in_valid_i && d.dec_in_ready_o;
      if (d.dec_out_valid_o && !sent.empty() && waiting) {
        latencies_.push_back({sent.front().result.status, cycle_ - sent.front().taken});
        waiting = false;
      }
      if (d.dec_out_valid_o && d.dec_out_ready_i) {
        if (sent.empty()) {
          Fail("dec: a response with no line sent");
        } else {
          CheckDec(jobs[sent.front().job], sent.front().data, sent.front().result);
          sent.pop_front();
          waiting = !sent.empty();
          ++done;
        }
      }
      if (in_fire) {
        m::BchBits word = jobs[next].word;
        m::BchResult r = code_.Decode(&word);
        sent.push_back({next, cycle_, code_.Data(word), r});
        if (sent.size() == 1) waiting = true;
        // One line at a time: a line is taken only once the previous response is leaving.
        if (sent.size() > 1) Fail("dec: a line taken while another is inside the decoder");
        ++next;
      }
      h_.Tick();
      if (in_fire) d.dec_in_valid_i = 0;
      ++cycle_;
    }
    if (done < jobs.size())
      Fail("dec: " + std::to_string(done) + " of " + std::to_string(jobs.size()) +
           " responses before the time limit");
  }

  struct Latency {
    m::BchStatus status;
    uint64_t cycles;
  };
  const std::vector<Latency>& latencies() const { return latencies_; }

  // One assertion a case: no mismatch, no RTL assertion fired.
  void Finish() {
    INFO("mismatches: " << mismatches_ << "; first: " << first_);
    CHECK(mismatches_ == 0);
    REQUIRE_FALSE(h_.Failed());
  }

  const m::BchCode& code() const { return code_; }
  uint64_t cycles() const { return cycle_; }

 private:
  bool Coin(double p) {
    if (!hs_.random) return true;
    return std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < p;
  }

  void Fail(const std::string& msg) {
    ++mismatches_;
    if (first_.empty()) first_ = "cycle " + std::to_string(cycle_) + ": " + msg;
  }

  void CheckBm(const BmJob& job) {
    auto& d = h_.dut();
    const unsigned t = code_.t(), mb = code_.m();
    std::vector<uint32_t> want;
    const unsigned want_l = code_.ErrorLocator(FullFromOdd(code_, job.odd), &want);
    const unsigned got_l = d.bm_out_deg_o;
    const std::vector<uint32_t> got =
        UnpackElems(GetBch(d.bm_out_lambda_o, size_t{t + 1} * mb), t + 1, mb);
    if (got_l != want_l) {
      Fail(job.what + ": L " + std::to_string(got_l) + ", model " + std::to_string(want_l) +
           "; syndromes " + Elems(job.odd));
      return;
    }
    if (got[0] == 0) {
      Fail(job.what + ": Lambda_0 is zero");
      return;
    }
    if (want_l > t) return;  // uncorrectable: only L is defined past T
    const uint32_t inv0 = code_.Inv(got[0]);
    std::vector<uint32_t> norm(t + 1);
    for (unsigned j = 0; j <= t; ++j) norm[j] = code_.Mul(got[j], inv0);
    want.resize(t + 1);
    if (norm != want) {
      Fail(job.what + ": Lambda / Lambda_0 " + Elems(norm) + ", model " + Elems(want) +
           "; syndromes " + Elems(job.odd));
    }
    ++bm_checked_;
  }

  void CheckChien(const ChienJob& job) {
    auto& d = h_.dut();
    const unsigned t = code_.t(), n = code_.code_bits();
    const m::BchBits mask = GetBch(d.ch_out_mask_o, n);
    const unsigned count = d.ch_out_count_o;
    const bool uncorr = d.ch_out_uncorr_o != 0;
    std::vector<uint32_t> want_roots;
    if (job.deg <= t) want_roots = RootsByHorner(code_, job.lambda);
    m::BchBits want_mask(m::BchWords(n), 0);
    for (uint32_t i : want_roots) m::BchFlip(&want_mask, i);
    const bool want_uncorr = job.deg > t || want_roots.size() != job.deg;
    if (mask != want_mask || count != want_roots.size() || uncorr != want_uncorr) {
      Fail(job.what + ": mask " + BchHex(mask) + " count " + std::to_string(count) + " uncorr " +
           std::to_string(uncorr) + "; expected mask " + BchHex(want_mask) + " count " +
           std::to_string(want_roots.size()) + " uncorr " + std::to_string(want_uncorr) +
           "; Lambda " + Elems(job.lambda) + " deg " + std::to_string(job.deg));
      return;
    }
    // A locator from a word Decode() handles: the same verdict and, when it corrects, the same
    // positions.
    if (job.from_word) {
      if (uncorr == job.model_corrects ||
          (job.model_corrects && want_roots != job.model_positions)) {
        Fail(job.what + ": verdict or positions differ from Decode()'s");
      }
    }
  }

  void CheckDec(const DecJob& job, const m::BchBits& want_data, const m::BchResult& r) {
    auto& d = h_.dut();
    const m::BchBits data = GetBch(d.dec_out_data_o, code_.data_bits());
    const uint8_t status = d.dec_out_status_o;
    const unsigned nerr = d.dec_out_nerr_o;
    const uint8_t want_status = StatusOf(r.status);
    const unsigned want_nerr = r.status == m::BchStatus::kCorrected ? r.corrected_bits : 0;
    if (status != want_status || nerr != want_nerr || data != want_data) {
      Fail(job.what + ": status " + std::to_string(status) + " nerr " + std::to_string(nerr) +
           ", model " + std::to_string(want_status) + " " + std::to_string(want_nerr) +
           (data != want_data ? "; data differs: " + BchHex(data) + " vs " + BchHex(want_data)
                              : ""));
    }
    // Up to t errors: the data sent, whatever the model says.
    if (!job.sent_data.empty() && data != job.sent_data) {
      Fail(job.what + ": at most t errors, data not restored: " + BchHex(data) + " vs " +
           BchHex(job.sent_data));
    }
    ++per_status_[want_status];
  }

 public:
  unsigned per_status(uint8_t s) const { return per_status_[s]; }
  unsigned bm_checked() const { return bm_checked_; }

 private:
  Harness<Vbch_dec> h_;
  const m::BchCode& code_;
  std::mt19937_64 rng_;
  Handshake hs_;
  std::string first_;
  uint64_t mismatches_ = 0;
  uint64_t cycle_ = 0;
  std::vector<Latency> latencies_;
  unsigned per_status_[3] = {0, 0, 0};
  unsigned bm_checked_ = 0;
};

// A decoder job: `weight` random errors in a random codeword; the data sent is kept when the
// weight is at most t (the decoder must restore it).
Bench::DecJob DecJobOf(const m::BchCode& code, std::mt19937_64& rng, unsigned weight,
                       const std::string& what) {
  const m::BchBits data = RandomBits(rng, code.data_bits());
  m::BchBits word = code.Encode(data);
  FlipRandom(rng, weight, &word, code.code_bits());
  return {word, what, weight <= code.t() ? data : m::BchBits{}};
}

// A Chien job from a received word: the model's locator and L, and Decode()'s verdict.
Bench::ChienJob ChienJobOf(const m::BchCode& code, const m::BchBits& word,
                           const std::string& what) {
  Bench::ChienJob job;
  std::vector<uint32_t> lambda;
  job.deg = code.ErrorLocator(code.Syndromes(word), &lambda);
  lambda.resize(code.t() + 1);
  job.lambda = lambda;
  m::BchBits copy = word;
  const m::BchResult r = code.Decode(&copy);
  job.model_corrects = r.status == m::BchStatus::kCorrected;
  job.model_positions = r.positions;
  job.from_word = true;
  job.what = what;
  return job;
}

}  // namespace

TEST_CASE("bch_dec: Berlekamp-Massey equals the model for errors of weight 0, 1, t, t+1",
          "[ecc][bch_dec][directed]") {
  Bench b(1);
  const m::BchCode& code = b.code();
  std::mt19937_64 rng(1);
  std::vector<Bench::BmJob> jobs;
  for (unsigned weight : {0u, 1u, code.t(), code.t() + 1}) {
    for (int rep = 0; rep < 20; ++rep) {
      m::BchBits word(m::BchWords(code.code_bits()), 0);
      FlipRandom(rng, weight, &word, code.code_bits());
      jobs.push_back({OddOf(code.Syndromes(word), code.t()),
                      "weight " + std::to_string(weight) + " #" + std::to_string(rep)});
    }
  }
  b.RunBm(jobs);
  b.Finish();
}

TEST_CASE("bch_dec: Berlekamp-Massey equals the model on random syndromes and error patterns",
          "[ecc][bch_dec][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Bench b(seed, Handshake{true});
  const m::BchCode& code = b.code();
  std::mt19937_64 rng(seed);
  std::vector<Bench::BmJob> jobs;
  for (int i = 0; i < 1500; ++i) {
    if (i % 3 == 0) {
      // Any 121-bit vector is the syndrome of some received word (the parity-check matrix has
      // full rank), so random odd syndromes are fair input.
      std::vector<uint32_t> odd(code.t());
      for (auto& s : odd) s = static_cast<uint32_t>(rng()) & (code.field_order() - 1);
      jobs.push_back({odd, "random syndromes #" + std::to_string(i)});
    } else {
      const unsigned weight = static_cast<unsigned>(i) % (2 * code.t() + 2);
      m::BchBits word(m::BchWords(code.code_bits()), 0);
      FlipRandom(rng, weight, &word, code.code_bits());
      jobs.push_back({OddOf(code.Syndromes(word), code.t()),
                      "pattern #" + std::to_string(i) + " weight " + std::to_string(weight)});
    }
  }
  b.RunBm(jobs);
  REQUIRE(b.bm_checked() > 500);
  b.Finish();
}

TEST_CASE("bch_dec: the Chien search finds the model's error positions, and every root",
          "[ecc][bch_dec][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Bench b(seed, Handshake{true});
  const m::BchCode& code = b.code();
  std::mt19937_64 rng(seed);
  std::vector<Bench::ChienJob> jobs;
  // Errors at the first and the last positions, and in the last cycle's partial group.
  for (uint32_t pos : {0u, 1u, code.code_bits() - 1, code.code_bits() - 2}) {
    m::BchBits word(m::BchWords(code.code_bits()), 0);
    m::BchFlip(&word, pos);
    jobs.push_back(ChienJobOf(code, word, "single error at " + std::to_string(pos)));
  }
  for (int i = 0; i < 300; ++i) {
    if (i % 4 == 3) {
      // A random locator of a random degree (0 .. 2T-1, and the 5-bit port's top values):
      // roots by Horner here, verdict by the degree.
      Bench::ChienJob job;
      job.lambda.resize(code.t() + 1);
      std::uniform_int_distribution<unsigned> deg(0, 31);
      job.deg = deg(rng);
      for (unsigned j = 0; j <= code.t(); ++j) {
        job.lambda[j] = j <= job.deg ? static_cast<uint32_t>(rng()) & (code.field_order() - 1) : 0;
      }
      job.what = "random locator #" + std::to_string(i);
      jobs.push_back(job);
    } else {
      const unsigned weight = 1 + static_cast<unsigned>(i) % (2 * code.t() + 1);
      jobs.push_back(
          ChienJobOf(code, Received(code, rng, weight),
                     "pattern #" + std::to_string(i) + " weight " + std::to_string(weight)));
    }
  }
  b.RunChien(jobs);
  b.Finish();
}

TEST_CASE("bch_dec: the Chien search counts no root past the shortened length",
          "[ecc][bch_dec][corner]") {
  Bench b(1);
  const m::BchCode& code = b.code();
  const uint32_t n = code.code_bits();
  // Lambda = product of (1 + alpha^i x) over `at`: its roots are alpha^-i, i in `at`.
  auto locator = [&](const std::vector<uint32_t>& at) {
    std::vector<uint32_t> lambda(code.t() + 1, 0);
    lambda[0] = 1;
    for (uint32_t i : at) {
      const uint32_t x = code.Exp(i);
      for (size_t j = lambda.size() - 1; j > 0; --j) lambda[j] ^= code.Mul(lambda[j - 1], x);
    }
    return lambda;
  };
  std::vector<Bench::ChienJob> jobs;
  // Roots at n - 1 and n (the first position outside the code), at the end of the last
  // 16-position group, at the field's last position, and one root inside with one outside.
  const std::vector<std::vector<uint32_t>> sets = {
      {n - 1}, {n}, {n - 1, n}, {(n + 15) / 16 * 16 - 1}, {code.field_order() - 2}, {0, n + 3}};
  for (const auto& at : sets) {
    Bench::ChienJob job;
    job.lambda = locator(at);
    job.deg = static_cast<unsigned>(at.size());
    job.what = "roots at " + Elems(at);
    jobs.push_back(job);
  }
  b.RunChien(jobs);
  b.Finish();
}

TEST_CASE("bch_dec: the decoder corrects every single error and reports it",
          "[ecc][bch_dec][directed]") {
  Bench b(1);
  const m::BchCode& code = b.code();
  std::mt19937_64 rng(1);
  std::vector<Bench::DecJob> jobs;
  jobs.push_back(DecJobOf(code, rng, 0, "clean line"));
  for (uint32_t i = 0; i < code.code_bits(); ++i) {
    const m::BchBits data = RandomBits(rng, code.data_bits());
    m::BchBits word = code.Encode(data);
    m::BchFlip(&word, i);
    jobs.push_back({word, "error at code bit " + std::to_string(i), data});
  }
  b.RunDec(jobs);
  CHECK(b.per_status(kStatusCorrected) == code.code_bits());
  b.Finish();
}

TEST_CASE("bch_dec: the decoder's latency is 1 cycle clean, 170 searched, 25 when L > t",
          "[ecc][bch_dec][directed]") {
  Bench b(1);
  const m::BchCode& code = b.code();
  std::mt19937_64 rng(2);
  std::vector<Bench::DecJob> jobs;
  for (unsigned weight : {0u, 1u, code.t(), code.t() + 1, 0u, 2 * code.t() + 1, 0u}) {
    jobs.push_back(DecJobOf(code, rng, weight, "weight " + std::to_string(weight)));
  }
  // A word whose locator is longer than t (about 1 in 2000 patterns of t+1 errors): the search
  // is skipped. Found here with the model.
  bool found = false;
  for (int tries = 0; tries < 100000 && !found; ++tries) {
    Bench::DecJob job = DecJobOf(code, rng, code.t() + 1, "L > t");
    std::vector<uint32_t> lambda;
    if (code.ErrorLocator(code.Syndromes(job.word), &lambda) > code.t()) {
      jobs.push_back(job);
      jobs.push_back(DecJobOf(code, rng, 0, "clean after L > t"));
      found = true;
    }
  }
  REQUIRE(found);
  b.RunDec(jobs);
  // Fast path 1; slow path 2T+1 (Berlekamp-Massey) + ceil(N/8) + 2 (Chien) + 1 (output); with
  // L > T, 2T+1 + 1 + 1.
  const uint64_t slow = 2 * code.t() + 1 + (code.code_bits() + 7) / 8 + 2 + 1;
  const uint64_t unsearched = 2 * code.t() + 3;
  REQUIRE(b.latencies().size() == jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    const auto& l = b.latencies()[i];
    std::vector<uint32_t> lambda;
    const unsigned len = code.ErrorLocator(code.Syndromes(jobs[i].word), &lambda);
    const uint64_t want = l.status == m::BchStatus::kClean ? 1 : len > code.t() ? unsearched : slow;
    INFO(jobs[i].what << ": status " << static_cast<int>(l.status) << " latency " << l.cycles);
    CHECK(l.cycles == want);
  }
  CHECK(slow == 170);
  b.Finish();
}

TEST_CASE("bch_dec: the decoder corrects t errors and matches the model at t+1",
          "[ecc][bch_dec][directed]") {
  Bench b(3);
  const m::BchCode& code = b.code();
  std::mt19937_64 rng(3);
  std::vector<Bench::DecJob> jobs;
  for (int rep = 0; rep < 60; ++rep) {
    jobs.push_back(DecJobOf(code, rng, code.t(), "weight t #" + std::to_string(rep)));
    jobs.push_back(DecJobOf(code, rng, code.t() + 1, "weight t+1 #" + std::to_string(rep)));
  }
  b.RunDec(jobs);
  CHECK(b.per_status(kStatusCorrected) >= 60);
  b.Finish();
}

TEST_CASE("bch_dec: random lines of weight 0 to 2t+1 under a random handshake decode as the model",
          "[ecc][bch_dec][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  Bench b(seed, Handshake{true});
  const m::BchCode& code = b.code();
  std::mt19937_64 rng(seed);
  std::vector<Bench::DecJob> jobs;
  const unsigned max_weight = 2 * code.t() + 1;
  unsigned clean = 0, correctable = 0;
  for (int i = 0; i < 2000; ++i) {
    // Half the lines clean (the fast path's back-to-back streaming), the rest weights 1..2t+1.
    const unsigned weight = i % 2 == 0 ? 0 : 1 + static_cast<unsigned>(i / 2) % max_weight;
    clean += weight == 0;
    correctable += weight >= 1 && weight <= code.t();
    jobs.push_back(DecJobOf(code, rng, weight,
                            "line " + std::to_string(i) + " weight " + std::to_string(weight)));
  }
  b.RunDec(jobs);
  // Up to t errors: every line corrected to the data sent (checked line by line above).
  // Past t: flagged, or miscorrected where the code cannot tell, as the model decides.
  CHECK(b.per_status(kStatusOk) == clean);
  CHECK(b.per_status(kStatusCorrected) >= correctable);
  CHECK(b.per_status(kStatusUncorrectable) > 0);
  b.Finish();
}
