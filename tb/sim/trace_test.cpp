// The trace format: strict validation with line numbers, comments, round trip.
#include <catch2/catch.hpp>
#include <random>
#include <sstream>

#include "sim/workload/trace.hpp"
#include "tb/common/seed.hpp"

namespace {

using flint::sim::ReadTrace;
using flint::sim::TraceError;
using flint::sim::TraceRequest;

std::vector<TraceRequest> Parse(const std::string& text, uint64_t cl = 128) {
  std::istringstream in(text);
  return ReadTrace(in, cl, "t.trace");
}

// The error a malformed trace raises, as text ("" if none).
std::string ErrorOf(const std::string& text) {
  try {
    Parse(text);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("trace: parses requests with comments and blank lines", "[sim][trace][directed]") {
  const auto r = Parse(
      "# a header comment\n"
      "\n"
      "0 0 0x0\n"
      "0 3 0x80   # trailing comment\n"
      "  7\t12 0xFFFFFF80\n"
      "7 1 0x100\n");
  REQUIRE(r.size() == 4);
  CHECK(r[0] == TraceRequest{0, 0, 0x0});
  CHECK(r[1] == TraceRequest{0, 3, 0x80});
  CHECK(r[2] == TraceRequest{7, 12, 0xFFFFFF80});
  CHECK(r[3] == TraceRequest{7, 1, 0x100});
  CHECK(Parse("").empty());
  CHECK(Parse("# only comments\n\n").empty());
}

TEST_CASE("trace: malformed lines name their line number", "[sim][trace][corner]") {
  struct Case {
    const char* text;
    const char* expect;
  };
  const Case cases[] = {
      {"0 0 0x0\n1 1\n", "t.trace:2: expected '<cycle> <sm> <address>', got 2"},
      {"0 0 0x0 9\n", "t.trace:1: expected"},
      {"\n\nx 0 0x0\n", "t.trace:3: cycle 'x'"},
      {"-1 0 0x0\n", "t.trace:1: cycle '-1'"},
      {"+1 0 0x0\n", "t.trace:1: cycle '+1'"},
      {"1.5 0 0x0\n", "t.trace:1: cycle '1.5'"},
      {"99999999999999999999 0 0x0\n", "t.trace:1: cycle"},
      {"0 s 0x0\n", "t.trace:1: sm 's'"},
      {"0 4294967296 0x0\n", "t.trace:1: sm"},
      {"0 0 128\n", "t.trace:1: address '128' must be hex with a 0x prefix"},
      {"0 0 0x\n", "t.trace:1: address '0x' must be hex"},
      {"0 0 0xG0\n", "t.trace:1: address '0xG0' is not a 64-bit hex number"},
      {"0 0 0x10000000000000000\n", "t.trace:1: address"},
      {"0 0 0x40\n", "t.trace:1: address 0x40 is not aligned to the 128-byte cache line"},
      {"5 0 0x0\n4 0 0x80\n", "t.trace:2: cycle 4 is earlier than the previous line's 5"},
  };
  for (const auto& c : cases) {
    INFO("trace text: " << c.text);
    const std::string err = ErrorOf(c.text);
    REQUIRE_FALSE(err.empty());
    CHECK(err.find(c.expect) == 0);
  }
}

TEST_CASE("trace: alignment follows the configured line size", "[sim][trace][corner]") {
  CHECK(Parse("0 0 0x20\n", 32).size() == 1);
  CHECK_THROWS_AS(Parse("0 0 0x20\n", 64), TraceError);
  CHECK_THROWS_AS(Parse("0 0 0x0\n", 48), std::invalid_argument);
}

TEST_CASE("trace: a missing file is an error not an empty trace", "[sim][trace][corner]") {
  CHECK_THROWS_AS(flint::sim::ReadTraceFile("/nonexistent/flint.trace", 128), TraceError);
  CHECK_THROWS_AS(flint::sim::ValidateTraceFile("/nonexistent/flint.trace", 128), TraceError);
}

TEST_CASE("trace: random traces survive a write and read round trip", "[sim][trace][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  std::mt19937_64 rng(seed);
  std::vector<TraceRequest> reqs;
  uint64_t cycle = 0;
  for (int i = 0; i < 2000; ++i) {
    cycle += rng() % 4;
    reqs.push_back({cycle, static_cast<uint32_t>(rng()), (rng() >> 8) & ~uint64_t{127}});
  }
  std::stringstream buf;
  flint::sim::WriteTrace(buf, reqs);
  CHECK(ReadTrace(buf, 128) == reqs);
}

}  // namespace
