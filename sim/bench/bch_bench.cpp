// Micro-benchmark of the BCH golden model's speed (model/ecc/bch), for `make bench`.
//
//   bench_bch [--out FILE] [--seconds S]
//
// The 128 B line code of docs/ecc.md (GF(2^11), t = 11, 1024 data + 121 parity bits): lines
// encoded a second, and lines decoded a second with 0 errors (syndromes only), with t errors
// (syndromes, Berlekamp-Massey, a Chien search that stops at the t-th root) and with t + 1
// errors (mostly flagged: the Chien search runs the whole length). Each decode copies the
// received line first (part of the figure). Writes the bench_report JSON to FILE and prints a
// table. A host-speed figure, not a test: nothing is asserted.
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "model/ecc/bch.hpp"
#include "sim/tools/cli.hpp"
#include "verif/bench_report.hpp"

namespace {

namespace m = flint::model;
using Clock = std::chrono::steady_clock;
using flint::bench::Result;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// `count` random lines with `errors` distinct random bit errors each.
std::vector<m::BchBits> Received(const m::BchCode& code, unsigned count, unsigned errors,
                                 std::mt19937_64& rng) {
  std::vector<m::BchBits> lines;
  std::uniform_int_distribution<uint32_t> pick(0, code.code_bits() - 1);
  for (unsigned i = 0; i < count; ++i) {
    m::BchBits data(m::BchWords(code.data_bits()));
    for (auto& w : data) w = rng();
    m::BchBits line = code.Encode(data);
    std::vector<uint32_t> used;
    while (used.size() < errors) {
      const uint32_t p = pick(rng);
      bool seen = false;
      for (uint32_t u : used) seen = seen || u == p;
      if (seen) continue;
      used.push_back(p);
      m::BchFlip(&line, p);
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

void DecodeLoop(const m::BchCode& code, unsigned errors, double seconds, const char* metric,
                std::vector<Result>* out) {
  std::mt19937_64 rng(errors + 1);
  const std::vector<m::BchBits> lines = Received(code, 256, errors, rng);
  uint64_t decoded = 0, corrected_bits = 0;
  const auto start = Clock::now();
  double elapsed = 0.0;
  while (elapsed < seconds) {
    for (const m::BchBits& line : lines) {
      m::BchBits work = line;
      corrected_bits += code.Decode(&work).corrected_bits;
    }
    decoded += lines.size();
    elapsed = Seconds(start, Clock::now());
  }
  out->push_back({metric, static_cast<double>(decoded) / elapsed, "lines/s",
                  std::to_string(errors) + " bit errors a line (" +
                      std::to_string(corrected_bits / decoded) + " corrected a line)"});
}

void EncodeLoop(const m::BchCode& code, double seconds, std::vector<Result>* out) {
  std::mt19937_64 rng(7);
  std::vector<m::BchBits> data(256, m::BchBits(m::BchWords(code.data_bits())));
  for (auto& d : data) {
    for (auto& w : d) w = rng();
  }
  uint64_t encoded = 0, sink = 0;
  const auto start = Clock::now();
  double elapsed = 0.0;
  while (elapsed < seconds) {
    for (const m::BchBits& d : data) sink ^= code.Parity(d)[0];
    encoded += data.size();
    elapsed = Seconds(start, Clock::now());
  }
  out->push_back(
      {"bch_line_encode_per_s", static_cast<double>(encoded) / elapsed, "lines/s",
       "bit-serial LFSR parity of 1024 data bits (checksum " + std::to_string(sink & 1u) + ")"});
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path;
  double seconds = 0.4;
  flint::cli::Cli cli("bench_bch", "[options]",
                      "Host speed of the BCH golden model on the 128 B line code.");
  cli.Text("--out", "FILE", "also write the results as JSON to FILE", &out_path)
      .Number("--seconds", "S", "time per measurement", &seconds, 1e-3);
  cli.Parse(argc, argv);
  const m::BchCode code(m::kLineBchM, m::kLineBchT, m::kLineBchDataBits);
  std::vector<Result> results;
  EncodeLoop(code, seconds, &results);
  DecodeLoop(code, 0, seconds, "bch_line_decode_clean_per_s", &results);
  DecodeLoop(code, 1, seconds, "bch_line_decode_1_error_per_s", &results);
  DecodeLoop(code, code.t(), seconds, "bch_line_decode_t_errors_per_s", &results);
  DecodeLoop(code, code.t() + 1, seconds, "bch_line_decode_t_plus_1_errors_per_s", &results);
  flint::bench::PrintResults(results);
  if (!out_path.empty() &&
      !flint::bench::WriteResults(out_path, "bench_bch", "bch_line",
                                  "Host speed of the BCH golden model (model/ecc/bch, docs/ecc.md) "
                                  "on the 128 B line code, GF(2^11), t = 11.",
                                  results)) {
    return 1;
  }
  return 0;
}
