// libFuzzer target: the trace parser (sim/workload/trace.{hpp,cpp}, docs/trace_format.md) on
// arbitrary bytes. What must hold for every input, or the target aborts (a finding):
// - the parser either returns requests or throws TraceError, never anything else, and a
//   TraceError names a line of the input (1 .. lines) and its message starts "source:line: ";
// - what it accepts is a valid trace: cycles non-decreasing, addresses aligned to the line;
// - the streaming reader and the whole-trace reader agree;
// - writing what was read and reading it again gives the same requests (round trip).
// Built with clang++ -fsanitize=fuzzer,address,undefined (tb/fuzz/CMakeLists.txt); the seed
// corpus is tb/fuzz/corpus/trace, and `make fuzz` runs it longer (docs/verification.md).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "sim/workload/trace.hpp"

namespace {

constexpr uint64_t kClBytes = 128;

[[noreturn]] void Finding(const char* what) {
  std::fprintf(stderr, "fuzz_trace: %s\n", what);
  std::abort();
}

uint64_t CountLines(const std::string& s) {
  uint64_t n = 1;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<flint::sim::TraceRequest> whole;
  bool whole_ok = true;
  uint64_t err_line = 0;
  try {
    std::istringstream in(text);
    whole = flint::sim::ReadTrace(in, kClBytes, "<fuzz>");
  } catch (const flint::sim::TraceError& e) {
    whole_ok = false;
    err_line = e.line();
    if (e.line() < 1 || e.line() > CountLines(text)) Finding("TraceError names no line of the input");
    const std::string where = "<fuzz>:" + std::to_string(e.line()) + ": ";
    if (std::string(e.what()).rfind(where, 0) != 0) {
      Finding("TraceError message does not start with source:line:");
    }
  } catch (...) {
    Finding("the parser threw something other than TraceError");
  }

  // The streaming reader: the same requests up to the same error.
  std::vector<flint::sim::TraceRequest> streamed;
  bool stream_ok = true;
  {
    std::istringstream in(text);
    flint::sim::TraceReader reader(in, kClBytes, "<fuzz>");
    try {
      while (auto r = reader.Next()) streamed.push_back(*r);
    } catch (const flint::sim::TraceError& e) {
      stream_ok = false;
      if (e.line() != err_line) Finding("streaming and whole reader fail on different lines");
    } catch (...) {
      Finding("the streaming reader threw something other than TraceError");
    }
  }
  if (stream_ok != whole_ok) Finding("streaming and whole reader disagree on validity");
  if (!whole_ok) return 0;
  if (streamed != whole) Finding("streaming and whole reader return different requests");

  for (size_t i = 0; i < whole.size(); ++i) {
    if (whole[i].address % kClBytes != 0) Finding("accepted an unaligned address");
    if (i > 0 && whole[i].cycle < whole[i - 1].cycle) Finding("accepted a decreasing cycle");
  }
  std::ostringstream out;
  flint::sim::WriteTrace(out, whole);
  std::vector<flint::sim::TraceRequest> again;
  try {
    std::istringstream in(out.str());
    again = flint::sim::ReadTrace(in, kClBytes, "<round trip>");
  } catch (...) {
    Finding("the writer's output does not parse");
  }
  if (again != whole) Finding("write then read does not give the requests back");
  return 0;
}
