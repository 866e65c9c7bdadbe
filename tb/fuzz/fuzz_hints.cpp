// libFuzzer target: the H3 hints parser (sim/engines/h3_hints_io.cpp, docs/h3.md) on arbitrary
// bytes. What must hold for every input, or the target aborts (a finding):
// - the parser either returns hints or throws TraceError naming a line of the input;
// - what it accepts has non-decreasing cycles; the streaming reader and the whole reader agree;
// - writing what was read (with a header made of the input's first bytes, as comment lines) and
//   reading it again gives the same hints (round trip).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "sim/engines/h3_hints.hpp"

namespace {

[[noreturn]] void Finding(const char* what) {
  std::fprintf(stderr, "fuzz_hints: %s\n", what);
  std::abort();
}

bool Same(const std::vector<flint::sim::H3Hint>& a, const std::vector<flint::sim::H3Hint>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].cycle != b[i].cycle || a[i].burst != b[i].burst) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  uint64_t lines = 1;
  for (char c : text) lines += c == '\n';
  std::vector<flint::sim::H3Hint> whole;
  uint64_t err_line = 0;
  bool ok = true;
  try {
    std::istringstream in(text);
    whole = flint::sim::ReadH3Hints(in, "<fuzz>");
  } catch (const flint::sim::TraceError& e) {
    ok = false;
    err_line = e.line();
    if (e.line() < 1 || e.line() > lines) Finding("TraceError names no line of the input");
    const std::string where = "<fuzz>:" + std::to_string(e.line()) + ": ";
    if (std::string(e.what()).rfind(where, 0) != 0) {
      Finding("TraceError message does not start with source:line:");
    }
  } catch (...) {
    Finding("the parser threw something other than TraceError");
  }
  std::vector<flint::sim::H3Hint> streamed;
  bool stream_ok = true;
  {
    std::istringstream in(text);
    flint::sim::H3HintReader reader(in, "<fuzz>");
    try {
      while (auto h = reader.Next()) streamed.push_back(*h);
    } catch (const flint::sim::TraceError& e) {
      stream_ok = false;
      if (e.line() != err_line) Finding("streaming and whole reader fail on different lines");
    } catch (...) {
      Finding("the streaming reader threw something other than TraceError");
    }
  }
  if (stream_ok != ok) Finding("streaming and whole reader disagree on validity");
  if (!ok) return 0;
  if (!Same(streamed, whole)) Finding("streaming and whole reader return different hints");
  for (size_t i = 1; i < whole.size(); ++i) {
    if (whole[i].cycle < whole[i - 1].cycle) Finding("accepted a decreasing cycle");
  }
  std::ostringstream out;
  flint::sim::WriteH3Hints(out, whole, text.substr(0, 64));
  std::vector<flint::sim::H3Hint> again;
  try {
    std::istringstream in(out.str());
    again = flint::sim::ReadH3Hints(in, "<round trip>");
  } catch (...) {
    Finding("the writer's output does not parse");
  }
  if (!Same(again, whole)) Finding("write then read does not give the hints back");
  return 0;
}
