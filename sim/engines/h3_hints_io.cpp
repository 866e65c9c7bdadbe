// The text format of the H3 hints (sim/engines/h3_hints.hpp): writer and validating reader. Apart
// from the derivation of the hints so that the parser builds alone (the fuzz targets, tb/fuzz).
#include <cctype>
#include <fstream>
#include <limits>
#include <string_view>

#include "sim/engines/h3_hints.hpp"

namespace flint::sim {

void WriteH3Hints(std::ostream& out, const std::vector<H3Hint>& hints, const std::string& header) {
  size_t pos = 0;
  while (pos < header.size()) {
    const size_t nl = header.find('\n', pos);
    const size_t end = nl == std::string::npos ? header.size() : nl;
    out << "# " << header.substr(pos, end - pos) << '\n';
    pos = end + 1;
  }
  out << "# <cycle> <burst>\n";
  for (const H3Hint& h : hints) out << h.cycle << ' ' << h.burst << '\n';
}

namespace {

bool ParseDecimal(std::string_view s, uint64_t* out) {
  if (s.empty()) return false;
  uint64_t v = 0;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    const auto d = static_cast<uint64_t>(ch - '0');
    if (v > (kMax - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

}  // namespace

H3HintReader::H3HintReader(std::istream& in, std::string source)
    : in_(in), source_(std::move(source)) {}

std::optional<H3Hint> H3HintReader::Next() {
  while (std::getline(in_, buf_)) {
    ++line_;
    std::string_view text(buf_);
    if (const size_t hash = text.find('#'); hash != std::string_view::npos) {
      text = text.substr(0, hash);
    }
    std::vector<std::string_view> f;
    size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      const size_t start = i;
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      if (i > start) f.push_back(text.substr(start, i - start));
    }
    if (f.empty()) continue;
    auto fail = [&](const std::string& what) { throw TraceError(source_, line_, what); };
    if (f.size() != 2) {
      fail("expected '<cycle> <burst>', got " + std::to_string(f.size()) + " field(s)");
    }
    H3Hint h;
    if (!ParseDecimal(f[0], &h.cycle)) {
      fail("cycle '" + std::string(f[0]) + "' is not a decimal number");
    }
    if (!ParseDecimal(f[1], &h.burst)) {
      fail("burst '" + std::string(f[1]) + "' is not a decimal number");
    }
    if (h.cycle < last_cycle_) {
      fail("cycle " + std::to_string(h.cycle) + " is earlier than the previous line's " +
           std::to_string(last_cycle_) + " (cycles must not decrease)");
    }
    last_cycle_ = h.cycle;
    return h;
  }
  if (in_.bad()) throw TraceError(source_, line_, "read error");
  return std::nullopt;
}

std::vector<H3Hint> ReadH3Hints(std::istream& in, const std::string& source) {
  H3HintReader reader(in, source);
  std::vector<H3Hint> out;
  while (auto h = reader.Next()) out.push_back(*h);
  return out;
}

std::vector<H3Hint> ReadH3HintsFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TraceError(path, 0, "cannot open the hints file");
  return ReadH3Hints(in, path);
}

}  // namespace flint::sim
