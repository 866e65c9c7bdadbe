#include "sim/workload/trace.hpp"

#include <cctype>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>

namespace flint::sim {

namespace {

// Splits `line` (comment already removed) into whitespace-separated fields.
std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// Parses digits only (no sign, no spaces); false on anything else or overflow.
bool ParseUnsigned(std::string_view s, unsigned base, uint64_t max, uint64_t* out) {
  if (s.empty()) return false;
  uint64_t v = 0;
  for (char ch : s) {
    unsigned d;
    if (ch >= '0' && ch <= '9') {
      d = static_cast<unsigned>(ch - '0');
    } else if (base == 16 && ch >= 'a' && ch <= 'f') {
      d = static_cast<unsigned>(ch - 'a' + 10);
    } else if (base == 16 && ch >= 'A' && ch <= 'F') {
      d = static_cast<unsigned>(ch - 'A' + 10);
    } else {
      return false;
    }
    if (d >= base || v > (max - d) / base) return false;
    v = v * base + d;
  }
  *out = v;
  return true;
}

}  // namespace

TraceError::TraceError(const std::string& source, uint64_t line, const std::string& what)
    : std::runtime_error(source + ":" + std::to_string(line) + ": " + what), line_(line) {}

TraceReader::TraceReader(std::istream& in, uint64_t cl_bytes, std::string source)
    : in_(in), cl_bytes_(cl_bytes), source_(std::move(source)) {
  if (cl_bytes_ == 0 || (cl_bytes_ & (cl_bytes_ - 1)) != 0) {
    throw std::invalid_argument("TraceReader: cl_bytes must be a power of two");
  }
}

std::optional<TraceRequest> TraceReader::Next() {
  while (std::getline(in_, buf_)) {
    ++line_;
    std::string_view text(buf_);
    if (const size_t hash = text.find('#'); hash != std::string_view::npos) {
      text = text.substr(0, hash);
    }
    const auto f = Fields(text);
    if (f.empty()) continue;
    auto fail = [&](const std::string& what) { throw TraceError(source_, line_, what); };
    if (f.size() != 3) {
      fail("expected '<cycle> <sm> <address>', got " + std::to_string(f.size()) + " field(s)");
    }
    TraceRequest r;
    if (!ParseUnsigned(f[0], 10, std::numeric_limits<uint64_t>::max(), &r.cycle)) {
      fail("cycle '" + std::string(f[0]) + "' is not a decimal number");
    }
    uint64_t sm = 0;
    if (!ParseUnsigned(f[1], 10, std::numeric_limits<uint32_t>::max(), &sm)) {
      fail("sm '" + std::string(f[1]) + "' is not a decimal number below 2^32");
    }
    r.sm = static_cast<uint32_t>(sm);
    const std::string_view a = f[2];
    if (a.size() < 3 || a[0] != '0' || (a[1] != 'x' && a[1] != 'X')) {
      fail("address '" + std::string(a) + "' must be hex with a 0x prefix");
    }
    if (!ParseUnsigned(a.substr(2), 16, std::numeric_limits<uint64_t>::max(), &r.address)) {
      fail("address '" + std::string(a) + "' is not a 64-bit hex number");
    }
    if (r.address % cl_bytes_ != 0) {
      fail("address " + std::string(a) + " is not aligned to the " + std::to_string(cl_bytes_) +
           "-byte cache line");
    }
    if (r.cycle < last_cycle_) {
      fail("cycle " + std::to_string(r.cycle) + " is earlier than the previous line's " +
           std::to_string(last_cycle_) + " (cycles must not decrease)");
    }
    last_cycle_ = r.cycle;
    return r;
  }
  if (in_.bad()) throw TraceError(source_, line_, "read error");
  return std::nullopt;
}

std::vector<TraceRequest> ReadTrace(std::istream& in, uint64_t cl_bytes,
                                    const std::string& source) {
  TraceReader reader(in, cl_bytes, source);
  std::vector<TraceRequest> out;
  while (auto r = reader.Next()) out.push_back(*r);
  return out;
}

namespace {
std::ifstream OpenTrace(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TraceError(path, 0, "cannot open the trace file");
  return in;
}
}  // namespace

std::vector<TraceRequest> ReadTraceFile(const std::string& path, uint64_t cl_bytes) {
  std::ifstream in = OpenTrace(path);
  return ReadTrace(in, cl_bytes, path);
}

uint64_t ValidateTraceFile(const std::string& path, uint64_t cl_bytes) {
  std::ifstream in = OpenTrace(path);
  TraceReader reader(in, cl_bytes, path);
  uint64_t n = 0;
  while (reader.Next()) ++n;
  return n;
}

void WriteTrace(std::ostream& out, const std::vector<TraceRequest>& requests) {
  out << "# <cycle> <sm> <address>\n";
  for (const auto& r : requests) {
    out << r.cycle << ' ' << r.sm << " 0x" << std::hex << r.address << std::dec << '\n';
  }
}

}  // namespace flint::sim
