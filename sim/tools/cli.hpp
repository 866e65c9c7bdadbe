// What the simulator's command-line tools share: a refusal that names the tool and exits 2, the
// parsing of numbers and comma lists that refuses bad text with the flag's name, and a progress
// line for long runs.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace flint::cli {

class Cli {
 public:
  explicit Cli(std::string tool) : tool_(std::move(tool)) {}

  [[noreturn]] void Fail(const std::string& msg) const {
    std::cerr << tool_ << ": " << msg << "\n(" << tool_ << " --help lists the options)\n";
    std::exit(2);
  }

  // A decimal number that fits 64 bits (at most 19 digits).
  uint64_t U64(const std::string& flag, const std::string& s) const {
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) {
      Fail(flag + " needs a decimal number, not '" + s + "'");
    }
    return std::stoull(s);
  }

  // A whole decimal number (the caller checks its range).
  double Real(const std::string& flag, const std::string& s) const {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size()) {
      Fail(flag + " needs a number, not '" + s + "'");
    }
    return v;
  }

  // Comma-separated items, none empty.
  std::vector<std::string> List(const std::string& flag, const std::string& s) const {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
      if (item.empty()) Fail(flag + " has an empty item in '" + s + "'");
      out.push_back(item);
    }
    if (out.empty()) Fail(flag + " needs at least one item");
    return out;
  }

 private:
  std::string tool_;
};

// A progress line on stderr for a run of `total` steps: "tool: 3/8 what, 41 s, ~68 s left".
// Step() prints every step when each is long (min_gap 0), else at most every min_gap seconds
// and at the last step.
class Progress {
 public:
  Progress(std::string tool, uint64_t total, double min_gap_s = 0)
      : tool_(std::move(tool)), total_(total), min_gap_s_(min_gap_s),
        t0_(std::chrono::steady_clock::now()), last_(t0_) {}

  void Step(uint64_t done, const std::string& what = "") {
    const auto now = std::chrono::steady_clock::now();
    const double since = std::chrono::duration<double>(now - last_).count();
    if (done < total_ && min_gap_s_ > 0 && since < min_gap_s_) return;
    last_ = now;
    const double el = std::chrono::duration<double>(now - t0_).count();
    std::cerr << tool_ << ": " << done << "/" << total_ << (what.empty() ? "" : " ") << what
              << ", " << static_cast<uint64_t>(el + 0.5) << " s";
    if (done > 0 && done < total_) {
      const double left = el / static_cast<double>(done) * static_cast<double>(total_ - done);
      std::cerr << ", ~" << static_cast<uint64_t>(left + 0.5) << " s left";
    }
    std::cerr << "\n";
  }

 private:
  std::string tool_;
  uint64_t total_;
  double min_gap_s_;
  std::chrono::steady_clock::time_point t0_, last_;
};

// printf-style formatting of one number.
inline std::string Fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace flint::cli
