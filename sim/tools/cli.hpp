// What the simulator's command-line tools share: a refusal that names the tool and exits 2, and
// the parsing of numbers and comma lists that refuses bad text with the flag's name.
#pragma once
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

// printf-style formatting of one number.
inline std::string Fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace flint::cli
