// Fault campaign of the read path's line decoders (issue #24 item 4, issue #26 item 4;
// docs/fault_campaign.md). Cache lines of random data are encoded with each line code, read
// back with bit errors drawn the way the NAND die model draws them (model/nand/reliability: a
// Poisson count at the sense's RBER over the stored bits, distinct uniform positions), and
// decoded by the Verilated RTL decoders:
//   - SEC-DED: flint_ecc_cl_dec at the paper line (16 x (72,64) words, the 144 B interleaved
//     image DataOut returns; the decoder flint_bbc_die has on its data-out), wrapper
//     flint_ecc_cl_tb;
//   - BCH t = 11 over GF(2^11) (the NAND-grade line code, docs/ecc.md): the line decoder at line
//     rate, flint_bch_line_dec (clean and single-error lines one a cycle, 3 slow-path units at
//     P = 32, a 64-line in-order buffer), wrapper flint_bch_line_dec_tb, stored as the 128 data
//     bytes then 121 parity bits and 7 pad bits.
// Both codes see the same error positions over the same 1 152 stored bits of each line, so the
// two columns of the report are the same reads.
//
// Each line's RTL result is checked against the C++ model of its code (model/ecc: data, status,
// and for BCH the bits flipped) and against the truth (the data written): clean, corrected,
// flagged (UNCORRECTABLE) or silently wrong (OK or CORRECTED with wrong data). A line within the
// code's design limit must come back right: SEC-DED every word with at most one error
// (corrected) or two (at least flagged); BCH at most t errors (corrected). Observed counts are
// compared with the code's theory at the point's RBER (Poisson errors per word or line; the
// SEC-DED split of 3- and 4-error words by enumerating them through the model decoder).
//
// Points: the NAND model's RBER with disturb at the limit and a year of retention (the worst a
// page sees before refresh) at 0, 1/2 and 1 of the P/E budget (fresh, mid, eol), and
// accelerated points (a stated RBER) where the codes' limits are crossed often enough to count.
//
// Exit status: 0 if the RTL equals the model on every line, nothing within a code's limit came
// back wrong and every count is within 5 sigma of its theory; 1 otherwise (the first failing
// line is printed with the command that replays it, with an FST waveform); 2 on bad arguments.
#include <algorithm>
#include <array>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "Vbch_line.h"
#include "Vecc_cl_paper.h"
#include "flint_config.hpp"
#include "model/ecc/bch.hpp"
#include "model/ecc/secded.hpp"
#include "model/nand/reliability.hpp"
#include "tb/ecc/bch_tb_util.hpp"
#include "verif/harness.hpp"

namespace {

namespace m = flint::model;

constexpr unsigned kWords = 16;                // 64-bit words of a 128 B line
constexpr unsigned kDataBits = kWords * 64;    // 1024
constexpr unsigned kStoredBits = kWords * 72;  // 1152: the line and its 16 spare bytes
constexpr unsigned kPool = 4096;               // distinct data lines, picked per line
constexpr uint8_t kOk = 0, kCorrected = 1, kUncorrectable = 2;  // flint_pkg::status_e

uint64_t Mix(uint64_t x) {  // splitmix64 finalizer
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

struct Point {
  std::string name;
  double rber = 0;
  std::string source;      // how the RBER was obtained
  uint64_t bch_lines = 0;  // lines through BCH at this point (0: --bch-lines)
};

// Outcome counts of one code at one point.
struct Counts {
  uint64_t lines = 0, clean = 0, corrected = 0, flagged = 0, silent = 0;
  uint64_t within = 0;        // lines within the code's design limit
  uint64_t within_wrong = 0;  // of those, not corrected (must be 0)
  uint64_t rtl_vs_model = 0;  // lines where the RTL and the model differ (must be 0)
  uint64_t bits = 0;          // bit errors in the code's stored bits
  uint64_t cycles = 0;        // decoder cycles (BCH: the throughput figure)
  uint64_t busy_cycles = 0;   // BCH: cycles the decoder refused a line (its buffer full)
  double seconds = 0;
};

// One line's outcome: clean (no error, OK, right), flagged (UNCORRECTABLE), corrected (right
// otherwise) or silently wrong.
void Count(Counts* c, bool errors, uint8_t status, bool right) {
  ++c->lines;
  if (!errors && status == kOk && right)
    ++c->clean;
  else if (status == kUncorrectable)
    ++c->flagged;
  else if (right)
    ++c->corrected;
  else
    ++c->silent;
}

struct Theory {
  double clean = 0, corrected = 0, flagged = 0, silent = 0;
};

struct Failure {
  bool set = false;
  std::string text;
};

struct Args {
  uint64_t lines = 100000;
  uint64_t bch_lines = 0;  // 0: as --lines
  uint32_t seed = 1;
  bool inject = false;  // flip one decoded bit of one line: the checks must catch it
  std::vector<Point> points;
  std::string json, md;
  bool secded = true, bch = true;
  int64_t replay_line = -1;  // decode only this line of the first point, with waves
  std::string fst;
};

[[noreturn]] void Usage(const std::string& why) {
  const bool help = why.empty();
  std::fprintf(help ? stdout : stderr,
               "%s%s"
               "usage: flint-fault-campaign [--lines N] [--bch-lines N] [--seed S]\n"
               "         [--points LIST] [--codes secded,bch] [--json FILE] [--md FILE]\n"
               "         [--replay-line I --fst FILE] [--inject-error]\n"
               "  LIST: comma-separated fresh, mid, eol (the NAND model's RBER with disturb at\n"
               "        the limit and a year of retention at 0, 1/2, 1 of the P/E budget) or\n"
               "        NAME=RBER (an accelerated point), each optionally @N: N lines through\n"
               "        BCH at that point; default fresh,mid,eol\n"
               "  --bch-lines: lines for the BCH decoder (default: --lines; a line with two\n"
               "        or more errors takes its slow path, about 64 cycles\n"
               "  --inject-error: the testbench flips a decoded bit of line 100 of each run\n"
               "        (the campaign must then fail: a check of the checks)\n",
               help ? "" : "flint-fault-campaign: ", help ? "" : (why + "\n").c_str());
  std::exit(help ? 0 : 2);
}

uint64_t ParseU64(const std::string& flag, const std::string& v) {
  char* end = nullptr;
  const unsigned long long x = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0') Usage(flag + " wants a non-negative integer, got '" + v + "'");
  return x;
}

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

Point NandPoint(const std::string& name) {
  const flint::Config& cfg = flint::kPaperConfig;
  const m::ErrorModel em(cfg, m::ReliabilityParams{});
  uint64_t pe = 0;
  if (name == "mid")
    pe = cfg.pe_limit / 2;
  else if (name == "eol")
    pe = cfg.pe_limit;
  else if (name != "fresh")
    Usage("unknown point '" + name + "' (fresh, mid, eol or NAME=RBER)");
  Point p;
  p.name = name;
  p.rber = em.Rber(cfg.disturb_limit, cfg.retention_cycles, pe);
  std::ostringstream s;
  s << "NAND model, P/E " << pe << " of " << cfg.pe_limit << ", " << cfg.disturb_limit
    << " senses (the disturb limit), " << cfg.retention_cycles << " cycles of retention";
  p.source = s.str();
  return p;
}

Args Parse(int argc, char** argv) {
  Args a;
  std::string points = "fresh,mid,eol";
  for (int i = 1; i < argc; ++i) {
    const std::string f = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) Usage(f + " needs a value");
      return argv[++i];
    };
    if (f == "--lines")
      a.lines = ParseU64(f, val());
    else if (f == "--bch-lines")
      a.bch_lines = ParseU64(f, val());
    else if (f == "--inject-error")
      a.inject = true;
    else if (f == "--seed")
      a.seed = static_cast<uint32_t>(ParseU64(f, val()));
    else if (f == "--points")
      points = val();
    else if (f == "--json")
      a.json = val();
    else if (f == "--md")
      a.md = val();
    else if (f == "--replay-line")
      a.replay_line = static_cast<int64_t>(ParseU64(f, val()));
    else if (f == "--fst")
      a.fst = val();
    else if (f == "--codes") {
      a.secded = a.bch = false;
      for (const std::string& c : Split(val())) {
        if (c == "secded")
          a.secded = true;
        else if (c == "bch")
          a.bch = true;
        else
          Usage("unknown code '" + c + "' (secded, bch)");
      }
    } else if (f == "--help" || f == "-h")
      Usage("");
    else
      Usage("unknown argument '" + f + "'");
  }
  if (a.lines == 0) Usage("--lines must be at least 1");
  if (a.bch_lines == 0) a.bch_lines = a.lines;
  for (std::string p : Split(points)) {
    uint64_t point_bch = 0;
    const size_t at = p.find('@');
    if (at != std::string::npos) {
      point_bch = ParseU64("a point's @LINES", p.substr(at + 1));
      if (point_bch == 0) Usage("a point's @LINES must be at least 1");
      p = p.substr(0, at);
    }
    const size_t eq = p.find('=');
    if (eq == std::string::npos) {
      a.points.push_back(NandPoint(p));
      a.points.back().bch_lines = point_bch;
      continue;
    }
    Point q;
    q.name = p.substr(0, eq);
    char* end = nullptr;
    q.rber = std::strtod(p.c_str() + eq + 1, &end);
    if (q.name.empty() || *end != '\0' || !(q.rber > 0.0) || q.rber >= 0.5)
      Usage("bad point '" + p + "' (NAME=RBER with 0 < RBER < 0.5)");
    q.source = "accelerated (stated)";
    q.bch_lines = point_bch;
    a.points.push_back(q);
  }
  if (a.points.empty()) Usage("no points");
  uint64_t most = a.lines;
  for (Point& p : a.points) {
    if (p.bch_lines == 0) p.bch_lines = a.bch_lines;
    most = std::max(most, p.bch_lines);
  }
  if (a.replay_line >= 0 && static_cast<uint64_t>(a.replay_line) >= most)
    Usage("--replay-line must be below the lines run");
  return a;
}

// ---- theory ---------------------------------------------------------------------------------

// How the (72,64) decoder answers k errors in one word, over every pattern of weight k (the
// split depends on H only, not on the data), enumerated through the model decoder for k <= 5:
// right (data right, not flagged), silent (data wrong, not flagged) or flagged. Six or more
// errors in a word are taken as flagged (below 4e-5 of a line at the highest rate used here).
constexpr unsigned kEnumMax = 5;
struct WordSplit {
  std::array<double, kEnumMax + 1> right{}, silent{};  // fractions of the C(72, k) patterns
};

WordSplit EnumerateSecded() {
  WordSplit s;
  s.right[0] = s.right[1] = 1.0;
  std::array<uint64_t, kEnumMax + 1> n{}, right{}, silent{};
  std::array<unsigned, kEnumMax> bits{};
  // Every k-subset of the 72 code bits, in lexicographic order.
  for (unsigned k = 2; k <= kEnumMax; ++k) {
    for (unsigned i = 0; i < k; ++i) bits[i] = i;
    while (true) {
      uint64_t data = 0;
      uint8_t check = m::SecdedEncode(0);
      for (unsigned i = 0; i < k; ++i) {
        if (bits[i] < 64)
          data ^= uint64_t{1} << bits[i];
        else
          check ^= static_cast<uint8_t>(1u << (bits[i] - 64));
      }
      const m::SecdedWord w = m::SecdedDecode(data, check);
      ++n[k];
      if (w.status != flint::Status::kUncorrectable) ++(w.data == 0 ? right[k] : silent[k]);
      int i = static_cast<int>(k) - 1;
      while (i >= 0 && bits[i] == 72 - k + static_cast<unsigned>(i)) --i;
      if (i < 0) break;
      ++bits[i];
      for (unsigned j = static_cast<unsigned>(i) + 1; j < k; ++j) bits[j] = bits[j - 1] + 1;
    }
    s.right[k] = static_cast<double>(right[k]) / static_cast<double>(n[k]);
    s.silent[k] = static_cast<double>(silent[k]) / static_cast<double>(n[k]);
  }
  return s;
}

double LogChoose(unsigned n, unsigned k) {
  return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}

// The line's count K as the die model draws it: Poisson(kStoredBits p), then K distinct
// positions uniform over the stored bits. Counts K with pmf below 1e-18 are left out.
std::vector<double> CountPmf(double p) {
  const double mu = kStoredBits * p;
  std::vector<double> pmf;
  for (unsigned k = 0; k <= kStoredBits; ++k) {
    const double q = std::exp(-mu + k * std::log(mu) - std::lgamma(k + 1.0));
    if (k > mu && q < 1e-18) break;
    pmf.push_back(q);
  }
  return pmf;
}

// [x^K] (sum_k C(72, k) f_k x^k)^16 / C(1152, K) for K < kmax: the probability that K distinct
// positions spread over the 16 words so that every word's outcome is weighed by f (the
// fraction of its patterns that qualify). In long double: the coefficients reach C(1152, K).
std::vector<long double> WordsProduct(const std::array<double, kEnumMax + 1>& f, size_t kmax) {
  std::vector<long double> word(kEnumMax + 1), acc(kmax, 0.0L), next(kmax);
  for (unsigned k = 0; k <= kEnumMax; ++k) word[k] = std::exp(LogChoose(72, k)) * f[k];
  acc[0] = 1.0L;
  for (unsigned w = 0; w < kWords; ++w) {
    std::fill(next.begin(), next.end(), 0.0L);
    for (size_t a = 0; a < kmax; ++a) {
      if (acc[a] == 0.0L) continue;
      for (unsigned k = 0; k <= kEnumMax && a + k < kmax; ++k) next[a + k] += acc[a] * word[k];
    }
    acc.swap(next);
  }
  for (size_t K = 0; K < kmax; ++K) {
    acc[K] /= std::exp(static_cast<long double>(LogChoose(kStoredBits, static_cast<unsigned>(K))));
  }
  return acc;
}

// The line outcome: flagged if any word is flagged, else silent if any word is silently wrong,
// else corrected (clean if no error at all).
Theory SecdedTheory(double p, const WordSplit& split) {
  const std::vector<double> pmf = CountPmf(p);
  std::array<double, kEnumMax + 1> unflagged{};
  for (unsigned k = 0; k <= kEnumMax; ++k) unflagged[k] = split.right[k] + split.silent[k];
  const std::vector<long double> good = WordsProduct(split.right, pmf.size());
  const std::vector<long double> quiet = WordsProduct(unflagged, pmf.size());
  Theory t;
  t.clean = pmf[0];
  for (size_t K = 1; K < pmf.size(); ++K) {
    t.corrected += pmf[K] * static_cast<double>(good[K]);
    t.silent += pmf[K] * static_cast<double>(quiet[K] - good[K]);
  }
  t.flagged = std::max(0.0, 1.0 - t.clean - t.corrected - t.silent);
  return t;
}

// Errors in the code's n bits: of the line's K distinct positions, how many miss the 7 pad bits
// (hypergeometric). Beyond t the decoder flags (a miscorrection needs a syndrome within t of
// another codeword: of the order of C(1145, 11) / 2^121 = 4e-11 of such lines; counted as
// flagged here).
Theory BchTheory(double p, unsigned n, unsigned t) {
  const std::vector<double> pmf = CountPmf(p);
  const unsigned pad = kStoredBits - n;
  Theory th;
  for (size_t K = 0; K < pmf.size(); ++K) {
    for (unsigned w = 0; w <= K && w <= t; ++w) {
      const unsigned out = static_cast<unsigned>(K) - w;
      if (out > pad) continue;
      const double hyp = std::exp(LogChoose(n, w) + LogChoose(pad, out) -
                                  LogChoose(kStoredBits, static_cast<unsigned>(K)));
      (w == 0 ? th.clean : th.corrected) += pmf[K] * hyp;
    }
  }
  th.flagged = std::max(0.0, 1.0 - th.clean - th.corrected);
  return th;
}

// Observed against expected: within 5 sigma of a Poisson count (1 below an expectation of 1).
bool Agrees(uint64_t observed, double expected) {
  return std::fabs(static_cast<double>(observed) - expected) <=
         5.0 * std::sqrt(std::max(expected, 1.0));
}

// ---- the stimulus ---------------------------------------------------------------------------

struct LineErrors {
  std::vector<uint32_t> pos;  // stored bits in error, distinct
};

// The errors of line `i` at point `pi`, as the die model draws a sense's errors.
void DrawErrors(uint32_t seed, size_t pi, uint64_t i, double rber, LineErrors* e) {
  const uint64_t key = Mix(Mix(seed) ^ Mix(pi + 1) * 31 ^ i * 0x2545f4914f6cdd1dULL);
  const uint32_t count = m::ErrorModel::DrawCount(rber * kStoredBits, key, kStoredBits);
  m::ErrorModel::DrawPositions(Mix(key ^ 0xa0761d6478bd642fULL), count, kStoredBits, &e->pos);
}

struct DataPool {
  std::vector<std::array<uint64_t, kWords>> data;
  std::vector<m::BchBits> bch;  // each line's BCH codeword
  std::vector<std::array<uint8_t, kWords>> check;
};

DataPool MakePool(uint32_t seed, const m::BchCode& code) {
  DataPool p;
  p.data.resize(kPool);
  p.bch.resize(kPool);
  p.check.resize(kPool);
  for (unsigned j = 0; j < kPool; ++j) {
    m::BchBits d(m::BchWords(kDataBits), 0);
    for (unsigned w = 0; w < kWords; ++w) {
      p.data[j][w] = Mix(Mix(seed ^ 0x51ed270b27f3a1c5ULL) + j * kWords + w);
      p.check[j][w] = m::SecdedEncode(p.data[j][w]);
      d[w] = p.data[j][w];
    }
    p.bch[j] = code.Encode(d);
  }
  return p;
}

unsigned PoolIndex(uint32_t seed, uint64_t i) {
  return static_cast<unsigned>(Mix(seed * 0x9e3779b97f4a7c15ULL + i) % kPool);
}

std::string Positions(const LineErrors& e) {
  std::ostringstream s;
  std::vector<uint32_t> v = e.pos;
  std::sort(v.begin(), v.end());
  for (size_t k = 0; k < v.size(); ++k) s << (k ? " " : "") << v[k];
  return s.str();
}

std::string Replay(const Args& a, size_t pi, uint64_t i, const std::string& code) {
  std::ostringstream s;
  s << "flint-fault-campaign --seed " << a.seed << " --lines " << a.lines << " --bch-lines "
    << a.bch_lines << " --points " << a.points[pi].name;
  if (a.points[pi].source.rfind("accelerated", 0) == 0) s << "=" << a.points[pi].rber;
  s << "@" << a.points[pi].bch_lines;
  s << " --codes " << code << " --replay-line " << i << " --fst " << code << "_line" << i << ".fst"
    << (a.inject ? " --inject-error" : "");
  return s.str();
}

flint::verif::HarnessOptions Options(const Args& a, const std::string& block) {
  flint::verif::HarnessOptions o;
  o.seed = a.seed;
  o.rand_reset = 2;
  if (!a.fst.empty()) {
    o.fst = a.fst;
    o.gtkw = a.fst.substr(0, a.fst.rfind('.')) + ".gtkw";
    o.gtkw_groups = flint::verif::WaveGroups(block);
  }
  return o;
}

// ---- SEC-DED through flint_ecc_cl_dec -------------------------------------------------------

Counts RunSecded(const Args& a, size_t pi, const DataPool& pool, Failure* fail) {
  const Point& pt = a.points[pi];
  flint::verif::Harness<Vecc_cl_paper> h(Options(a, "ecc_cl"));
  Vecc_cl_paper& d = h.dut();
  h.Reset();
  Counts c;
  LineErrors e;
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t first = a.replay_line >= 0 ? static_cast<uint64_t>(a.replay_line) : 0;
  const uint64_t last = a.replay_line >= 0 ? first + 1 : a.lines;
  for (uint64_t i = first; i < last; ++i) {
    const unsigned j = PoolIndex(a.seed, i);
    DrawErrors(a.seed, pi, i, pt.rber, &e);
    std::array<uint64_t, kWords> data = pool.data[j];
    std::array<uint8_t, kWords> check = pool.check[j];
    std::array<unsigned, kWords> per_word{};
    for (uint32_t b : e.pos) {  // the interleaved image: word w is bytes [9w, 9w + 9)
      const unsigned byte = b / 8, w = byte / 9, k = byte % 9;
      if (k < 8)
        data[w] ^= uint64_t{1} << (k * 8 + b % 8);
      else
        check[w] ^= static_cast<uint8_t>(1u << (b % 8));
      ++per_word[w];
    }
    c.bits += e.pos.size();
    for (unsigned w = 0; w < kWords; ++w) {
      d.data_i[2 * w] = static_cast<uint32_t>(data[w]);
      d.data_i[2 * w + 1] = static_cast<uint32_t>(data[w] >> 32);
    }
    for (unsigned w = 0; w < kWords / 4; ++w) {
      d.check_i[w] = static_cast<uint32_t>(check[4 * w]) | uint32_t{check[4 * w + 1]} << 8 |
                     uint32_t{check[4 * w + 2]} << 16 | uint32_t{check[4 * w + 3]} << 24;
    }
    h.Tick();
    ++c.cycles;
    // The model.
    flint::Status want = flint::Status::kOk;
    bool model_same = true, right = true;
    for (unsigned w = 0; w < kWords; ++w) {
      const m::SecdedWord mw = m::SecdedDecode(data[w], check[w]);
      want = m::ReduceStatus(want, mw.status);
      uint64_t got = uint64_t{d.dec_data_o[2 * w]} | uint64_t{d.dec_data_o[2 * w + 1]} << 32;
      if (a.inject && i == 100 && w == 3) got ^= uint64_t{1} << 17;
      model_same = model_same && got == mw.data;
      right = right && got == pool.data[j][w];
    }
    const uint8_t status = d.dec_status_o;
    model_same = model_same && status == static_cast<uint8_t>(want);
    Count(&c, !e.pos.empty(), status, right);
    const unsigned worst = *std::max_element(per_word.begin(), per_word.end());
    bool within_wrong = false;
    if (worst <= 2) {
      ++c.within;
      // At most one error a word: corrected (clean if none); two in some word: flagged.
      within_wrong = worst <= 1 ? !(right && status == (e.pos.empty() ? kOk : kCorrected))
                                : status != kUncorrectable;
      c.within_wrong += within_wrong;
    }
    c.rtl_vs_model += !model_same;
    if ((within_wrong || !model_same || h.Failed()) && !fail->set) {
      std::ostringstream s;
      s << "secded, point " << pt.name << " (RBER " << pt.rber << "), line " << i << ": status "
        << unsigned{status} << ", model " << static_cast<unsigned>(want) << ", data "
        << (right ? "right" : "wrong") << (model_same ? "" : ", RTL differs from the model")
        << (h.Failed() ? ", an RTL assertion fired" : "") << "; errors at stored bits "
        << Positions(e) << "\n  replay: " << Replay(a, pi, i, "secded");
      fail->set = true;
      fail->text = s.str();
    }
  }
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return c;
}

// ---- BCH through flint_bch_line_dec
// --------------------------------------------------------------

struct BchJob {
  uint64_t line;
  unsigned pool;
  m::BchBits code;  // as read
  unsigned nerr;    // errors in the code's bits
  LineErrors errors;
};

Counts RunBch(const Args& a, size_t pi, const DataPool& pool, const m::BchCode& code,
              Failure* fail) {
  const Point& pt = a.points[pi];
  flint::verif::Harness<Vbch_line> h(Options(a, "bch_line_dec"));
  Vbch_line& d = h.dut();
  d.in_valid_i = 0;
  d.out_ready_i = 1;
  h.Reset();
  const unsigned n = code.code_bits(), r = code.parity_bits(), t = code.t();
  Counts c;
  std::deque<BchJob> sent;
  const uint64_t first = a.replay_line >= 0 ? static_cast<uint64_t>(a.replay_line) : 0;
  const uint64_t last = a.replay_line >= 0 ? first + 1 : pt.bch_lines;
  uint64_t next = first;
  BchJob pending;
  bool have = false;
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t limit = (last - first) * 400 + 1000;  // a stuck decoder ends the run
  m::BchBits got_data(m::BchWords(kDataBits), 0);
  while ((next < last || have || !sent.empty()) && c.cycles < limit) {
    if (!have && next < last) {
      pending.line = next;
      pending.pool = PoolIndex(a.seed, next);
      DrawErrors(a.seed, pi, next, pt.rber, &pending.errors);
      pending.code = pool.bch[pending.pool];
      pending.nerr = 0;
      for (uint32_t b : pending.errors.pos) {
        // Stored: data bits 0..1023 (code bits r..n-1), parity (code bits 0..r-1), 7 pad bits.
        if (b < kDataBits)
          m::BchFlip(&pending.code, r + b);
        else if (b < kDataBits + r)
          m::BchFlip(&pending.code, b - kDataBits);
        else
          continue;
        ++pending.nerr;
      }
      have = true;
      ++next;
      flint::tb::PutBch(d.in_code_i, pending.code);
    }
    d.in_valid_i = have;
    h.Eval();
    const bool in_fire = d.in_valid_i && d.in_ready_o;
    c.busy_cycles += !d.in_ready_o;
    if (d.out_valid_o) {
      if (sent.empty()) {
        if (!fail->set) {
          fail->set = true;
          fail->text = "bch, point " + pt.name + ": a response with no line outstanding";
        }
        break;
      }
      const BchJob job = std::move(sent.front());
      sent.pop_front();
      for (size_t w = 0; w < got_data.size(); ++w) {
        got_data[w] = uint64_t{d.out_data_o[2 * w]} | uint64_t{d.out_data_o[2 * w + 1]} << 32;
      }
      if (a.inject && job.line == 100) m::BchFlip(&got_data, 17);
      const uint8_t status = d.out_status_o;
      const unsigned nerr = d.out_nerr_o;
      // The model, on the same word (clean words need no decode: all syndromes are zero).
      m::BchBits word = job.code;
      m::BchResult want;
      if (job.nerr > 0) want = code.Decode(&word);
      const m::BchBits want_data = code.Data(word);
      bool right = true;
      for (unsigned w = 0; w < kWords; ++w) right = right && got_data[w] == pool.data[job.pool][w];
      const bool model_same =
          got_data == want_data && status == static_cast<uint8_t>(want.status) &&
          nerr == (want.status == m::BchStatus::kCorrected ? want.corrected_bits : 0u);
      c.bits += job.nerr;
      Count(&c, job.nerr > 0, status, right);
      bool within_wrong = false;
      if (job.nerr <= t) {
        ++c.within;
        within_wrong = !right || status != (job.nerr == 0 ? kOk : kCorrected) ||
                       (job.nerr > 0 && nerr != job.nerr);
        c.within_wrong += within_wrong;
      }
      c.rtl_vs_model += !model_same;
      if ((within_wrong || !model_same || h.Failed()) && !fail->set) {
        std::ostringstream s;
        s << "bch, point " << pt.name << " (RBER " << pt.rber << "), line " << job.line
          << ": status " << unsigned{status} << " (" << nerr << " flipped), model "
          << static_cast<unsigned>(want.status) << " (" << want.corrected_bits << "), data "
          << (right ? "right" : "wrong") << (model_same ? "" : ", RTL differs from the model")
          << (h.Failed() ? ", an RTL assertion fired" : "") << "; " << job.nerr
          << " errors in the code, at stored bits " << Positions(job.errors)
          << "\n  replay: " << Replay(a, pi, job.line, "bch");
        fail->set = true;
        fail->text = s.str();
      }
    }
    if (in_fire) {
      sent.push_back(std::move(pending));
      pending = BchJob{};
      have = false;
    }
    h.TickAfterEval();
    ++c.cycles;
  }
  if ((next < last || have || !sent.empty()) && !fail->set) {
    fail->set = true;
    fail->text = "bch, point " + pt.name + ": the decoder stopped answering (" +
                 std::to_string(sent.size()) + " lines outstanding after " +
                 std::to_string(c.cycles) + " cycles)";
  }
  (void)n;
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return c;
}

// ---- report ---------------------------------------------------------------------------------

struct Row {
  std::string code;
  size_t point;
  Counts c;
  Theory th;
  bool agrees = true;
};

std::string Sci(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", x);
  return b;
}

bool RowAgrees(const Row& r) {
  const double n = static_cast<double>(r.c.lines);
  return Agrees(r.c.clean, n * r.th.clean) && Agrees(r.c.corrected, n * r.th.corrected) &&
         Agrees(r.c.flagged, n * r.th.flagged) && Agrees(r.c.silent, n * r.th.silent);
}

void WriteJson(const std::string& path, const Args& a, const std::vector<Row>& rows) {
  std::ofstream o(path);
  o << "{\n \"seed\": " << a.seed << ",\n \"lines\": " << a.lines
    << ",\n \"bch_lines\": " << a.bch_lines << ",\n \"points\": [";
  for (size_t i = 0; i < a.points.size(); ++i) {
    o << (i ? ", " : "") << "{\"name\": \"" << a.points[i].name
      << "\", \"rber\": " << Sci(a.points[i].rber) << ", \"source\": \"" << a.points[i].source
      << "\", \"bch_lines\": " << a.points[i].bch_lines << "}";
  }
  o << "],\n \"rows\": [\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const double n = static_cast<double>(r.c.lines);
    o << "  {\"code\": \"" << r.code << "\", \"point\": \"" << a.points[r.point].name
      << "\", \"lines\": " << r.c.lines << ", \"bit_errors\": " << r.c.bits
      << ", \"clean\": " << r.c.clean << ", \"corrected\": " << r.c.corrected
      << ", \"flagged\": " << r.c.flagged << ", \"silent\": " << r.c.silent
      << ", \"within_limit\": " << r.c.within << ", \"within_limit_wrong\": " << r.c.within_wrong
      << ", \"rtl_vs_model\": " << r.c.rtl_vs_model
      << ", \"expected\": {\"clean\": " << Sci(n * r.th.clean)
      << ", \"corrected\": " << Sci(n * r.th.corrected)
      << ", \"flagged\": " << Sci(n * r.th.flagged) << ", \"silent\": " << Sci(n * r.th.silent)
      << "}, \"agrees\": " << (r.agrees ? "true" : "false") << ", \"cycles\": " << r.c.cycles
      << ", \"busy_cycles\": " << r.c.busy_cycles << "}" << (i + 1 < rows.size() ? "," : "")
      << "\n";
  }
  o << " ]\n}\n";
}

void WriteMd(const std::string& path, const Args& a, const std::vector<Row>& rows,
             const WordSplit& split, const std::string& command) {
  std::ofstream o(path);
  o << "# Fault campaign of the read path's line decoders\n\n"
       "<!-- generated by flint-fault-campaign (make fault-campaign); edit the tool, not this "
       "file -->\n\n"
       "Cache lines of random data (a pool of "
    << kPool
    << " lines, one picked at random a read), encoded with each line code, read back with bit "
       "errors drawn as the NAND die model draws a sense's errors (model/nand/reliability: a "
       "Poisson count at the RBER over the line's 1 152 stored bits, distinct uniform "
       "positions), and decoded by the Verilated RTL:\n\n"
       "- **SEC-DED**: `flint_ecc_cl_dec` at the paper line (16 (72,64) words, the 144 B "
       "interleaved image a DataOut returns; the decoder `flint_bbc_die` has on its data-out).\n"
       "- **BCH** t = 11 over GF(2^11) (docs/ecc.md, the NAND-grade code): `flint_bch_line_dec`, "
       "the line decoder at line rate (clean and single-error lines one a cycle, 3 slow-path "
       "units at P = 32, a 64-line in-order buffer), stored as the 128 data bytes, the 121 "
       "parity bits and 7 pad bits.\n\n"
       "Both codes see the same error positions on the same reads. Every line's RTL answer is "
       "compared with the C++ model of its code (data, status; BCH also the bits flipped) and "
       "with the data written. **Within the design limit** means every word with at most one "
       "error (corrected) or two (flagged at least) for SEC-DED, at most t = 11 errors "
       "(corrected) for BCH; such a line coming back otherwise fails the run. Theory, exact for "
       "the draw: a line's count Poisson at the RBER, its positions a uniform set of distinct "
       "bits, spread over the words (SEC-DED) or the code and pad bits (BCH) by counting; the "
       "SEC-DED word decoder's answer to 2 to 5 errors enumerated over every pattern through the "
       "model ("
    << Sci(100 * split.silent[3]) << " % of 3-error, " << Sci(100 * split.silent[4])
    << " % of 4-error and " << Sci(100 * split.silent[5])
    << " % of 5-error words come back silently wrong, the rest flagged; 6 or more taken as "
       "flagged); BCH beyond t counted as "
       "flagged (a miscorrection needs a syndrome within t of another codeword, of the order of "
       "4e-11 of such lines). Each count must lie within 5 sigma of its expectation.\n\n"
       "Points: the NAND model's RBER with disturb at the limit and a year of retention (the "
       "worst a page sees before refresh: docs/ecc.md) at 0, 1/2 and 1 of the P/E budget "
       "(`fresh`, `mid`, `eol`), and accelerated points at a stated RBER where the codes' limits "
       "are crossed often enough to count.\n\n"
       "Command: `"
    << command << "`\n\n";
  o << "| point | RBER | code | lines | bit errors | clean | corrected (theory) | flagged "
       "(theory) | silently wrong (theory) | within limit, wrong | RTL vs model |\n";
  o << "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const Row& r : rows) {
    const double n = static_cast<double>(r.c.lines);
    o << "| " << a.points[r.point].name << " | " << Sci(a.points[r.point].rber) << " | " << r.code
      << " | " << r.c.lines << " | " << r.c.bits << " | " << r.c.clean << " | " << r.c.corrected
      << " (" << Sci(n * r.th.corrected) << ") | " << r.c.flagged << " (" << Sci(n * r.th.flagged)
      << ") | " << r.c.silent << " (" << Sci(n * r.th.silent) << ") | " << r.c.within_wrong << " | "
      << r.c.rtl_vs_model << " |\n";
  }
  o << "\nPoints: ";
  for (size_t i = 0; i < a.points.size(); ++i) {
    o << (i ? "; " : "") << "`" << a.points[i].name << "` " << a.points[i].source;
  }
  o << ".\n";
  bool any_bch = false;
  for (const Row& r : rows) any_bch = any_bch || r.code == "bch";
  if (any_bch) {
    o << "\nThe BCH line decoder's pace, one line offered every cycle (a gapless stream, "
         "harder than a die's), the output always ready. A die returns a line every "
      << Sci(static_cast<double>(flint::kPaperConfig.cl_image_bytes) /
             static_cast<double>(flint::kPaperConfig.die_io_bytes_per_cycle))
      << " cycles at `paper` (a " << flint::kPaperConfig.cl_image_bytes << " B line image at "
      << flint::kPaperConfig.die_io_bytes_per_cycle
      << " B a cycle); the decoder keeps that pace while its lines a cycle below stay above "
         "it (docs/ecc.md, \"The line decoder at line rate\", has the study at the die's own "
         "pace):\n\n";
    o << "| point | lines | cycles | lines a cycle | cycles refused (buffer full) |\n";
    o << "|---|---:|---:|---:|---:|\n";
    for (const Row& r : rows) {
      if (r.code != "bch") continue;
      o << "| " << a.points[r.point].name << " | " << r.c.lines << " | " << r.c.cycles << " | "
        << Sci(static_cast<double>(r.c.lines) / static_cast<double>(r.c.cycles)) << " | "
        << Sci(static_cast<double>(r.c.busy_cycles) / static_cast<double>(r.c.cycles)) << " |\n";
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = Parse(argc, argv);
  const m::BchCode& code = flint::tb::BchLineCode();
  const DataPool pool = MakePool(a.seed, code);
  const WordSplit split = EnumerateSecded();
  std::printf(
      "SEC-DED words, enumerated: silently wrong %.4f of 3-error, %.4f of 4-error, %.4f of "
      "5-error patterns\n",
      split.silent[3], split.silent[4], split.silent[5]);
  std::vector<Row> rows;
  Failure fail;
  for (size_t pi = 0; pi < a.points.size(); ++pi) {
    const Point& pt = a.points[pi];
    std::printf("point %s: RBER %.3g (%s)\n", pt.name.c_str(), pt.rber, pt.source.c_str());
    if (a.secded) {
      Row r{"secded", pi, RunSecded(a, pi, pool, &fail), SecdedTheory(pt.rber, split)};
      rows.push_back(r);
    }
    if (a.bch) {
      Row r{"bch", pi, RunBch(a, pi, pool, code, &fail),
            BchTheory(pt.rber, code.code_bits(), code.t())};
      rows.push_back(r);
    }
  }
  bool ok = !fail.set;
  for (Row& r : rows) {
    r.agrees = a.replay_line >= 0 || RowAgrees(r);
    ok = ok && r.agrees && r.c.within_wrong == 0 && r.c.rtl_vs_model == 0;
    const double n = static_cast<double>(r.c.lines);
    std::printf(
        "%-6s %-8s lines %" PRIu64 " bits %" PRIu64 " clean %" PRIu64 " (%s) corrected %" PRIu64
        " (%s) flagged %" PRIu64 " (%s) silent %" PRIu64 " (%s) within-limit wrong %" PRIu64
        " rtl-vs-model %" PRIu64 " cycles %" PRIu64 " %.1f s%s\n",
        r.code.c_str(), a.points[r.point].name.c_str(), r.c.lines, r.c.bits, r.c.clean,
        Sci(n * r.th.clean).c_str(), r.c.corrected, Sci(n * r.th.corrected).c_str(), r.c.flagged,
        Sci(n * r.th.flagged).c_str(), r.c.silent, Sci(n * r.th.silent).c_str(), r.c.within_wrong,
        r.c.rtl_vs_model, r.c.cycles, r.c.seconds, r.agrees ? "" : "  <- NOT as the theory says");
  }
  if (!a.json.empty()) WriteJson(a.json, a, rows);
  if (!a.md.empty()) {
    std::string command = "flint-fault-campaign";
    for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
    WriteMd(a.md, a, rows, split, command);
  }
  if (fail.set) std::printf("FIRST FAILURE: %s\n", fail.text.c_str());
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
