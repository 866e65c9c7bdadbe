// The trace format of flint-sim (docs/trace_format.md): one request a line,
//   <cycle> <sm> <address>
// cycle: decimal, non-decreasing earliest issue cycle; sm: decimal SM (stream) id; address: the
// logical byte address of a cache line, hex with 0x, aligned to the line. '#' starts a comment
// (to the end of the line); blank lines are ignored. Out-of-range addresses are legal input (the
// controller answers them with an error status); anything malformed is a TraceError naming the
// source and line number.
#pragma once
#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace flint::sim {

struct TraceRequest {
  uint64_t cycle = 0;
  uint32_t sm = 0;
  uint64_t address = 0;
  bool operator==(const TraceRequest& o) const {
    return cycle == o.cycle && sm == o.sm && address == o.address;
  }
};

class TraceError : public std::runtime_error {
 public:
  TraceError(const std::string& source, uint64_t line, const std::string& what);
  uint64_t line() const { return line_; }

 private:
  uint64_t line_;
};

// Reads a trace one request at a time, validating as it goes, so a trace larger than memory can
// be checked in one pass and simulated in a second.
class TraceReader {
 public:
  // `cl_bytes` (a power of two) is the line size addresses must be aligned to.
  TraceReader(std::istream& in, uint64_t cl_bytes, std::string source = "<trace>");
  // The next request, or nullopt at the end. Throws TraceError on a malformed line.
  std::optional<TraceRequest> Next();
  uint64_t line() const { return line_; }

 private:
  std::istream& in_;
  uint64_t cl_bytes_;
  std::string source_;
  uint64_t line_ = 0;
  uint64_t last_cycle_ = 0;
  std::string buf_;
};

// Whole-trace helpers. ReadTraceFile throws TraceError (also when the file cannot be opened).
std::vector<TraceRequest> ReadTrace(std::istream& in, uint64_t cl_bytes,
                                    const std::string& source = "<trace>");
std::vector<TraceRequest> ReadTraceFile(const std::string& path, uint64_t cl_bytes);
// Counts the requests of a file after validating every line (the first pass of a large run).
uint64_t ValidateTraceFile(const std::string& path, uint64_t cl_bytes);

void WriteTrace(std::ostream& out, const std::vector<TraceRequest>& requests);

}  // namespace flint::sim
