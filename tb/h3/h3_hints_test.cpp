// The H3 hints (sim/engines/h3_hints): derivation from the decode workloads, checked against the
// trace the generator emits (phase k's bursts, hinted at the start of phase k-1; routed experts
// only in the oracle variant), and the text format's reader (strict, naming the bad line) and
// writer.
#include "sim/engines/h3_hints.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "flint_config.hpp"
#include "model/h3/h3_model.hpp"
#include "sim/workload/workload_gen.hpp"

namespace {

using flint::sim::DecodeGenerator;
using flint::sim::DecodeOptions;
using flint::sim::H3Hint;

// What the hints must be, from the emitted trace: per (step, phase), the stack-local bursts its
// requests touch, split by whether they hold a routed expert; hinted at the previous phase's start.
std::vector<H3Hint> HintsFromTrace(DecodeGenerator& gen, bool oracle) {
  const auto& lay = gen.layout();
  const auto summary = gen.Summarize();
  std::map<std::pair<uint64_t, uint64_t>, std::set<uint64_t>> touched;
  while (auto r = gen.Next()) {
    const uint32_t t = lay.TensorAtLine(gen.LineOf(r->address));
    REQUIRE(t != flint::sim::WeightLayout::kNone);
    const bool expert = lay.groups()[lay.tensors()[t].group].kind == flint::sim::GroupKind::kExpert;
    if (expert && !oracle) continue;
    touched[{gen.current_step(), gen.current_phase()}].insert(r->address / lay.burst_bytes());
  }
  std::vector<H3Hint> out;
  uint64_t prev = 0;
  bool first = true;
  for (const auto& ss : summary) {
    for (uint64_t p = 0; p < ss.phases.size(); ++p) {
      const uint64_t at = first ? ss.phases[p].start_cycle : prev;
      first = false;
      prev = ss.phases[p].start_cycle;
      for (uint64_t b : touched[{ss.step, p}]) out.push_back({at, b});
    }
  }
  return out;
}

}  // namespace

TEST_CASE("h3 hints: layer-ahead hints cover the compiler-known bursts of the next phase",
          "[h3][hints]") {
  const flint::Config& cfg = flint::kSmallConfig;
  for (const char* name : {"tiny-small", "tiny-dense"}) {
    for (uint32_t stacks : {1u, 2u}) {
      INFO("model " << name << " stacks " << stacks);
      DecodeOptions o;
      o.batch = 4;
      o.steps = 2;
      o.sms = 8;
      o.stacks = stacks;
      o.stack = stacks - 1;
      const auto* model = flint::sim::FindModel(name);
      REQUIRE(model != nullptr);
      DecodeGenerator gen(*model, cfg, o);
      const auto plain = flint::sim::MakeH3Hints(gen);
      const auto oracle = flint::sim::MakeH3Hints(gen, {true});
      for (size_t i = 1; i < plain.size(); ++i) REQUIRE(plain[i - 1].cycle <= plain[i].cycle);
      for (size_t i = 1; i < oracle.size(); ++i) REQUIRE(oracle[i - 1].cycle <= oracle[i].cycle);
      DecodeGenerator g1(*model, cfg, o), g2(*model, cfg, o);
      REQUIRE(plain == HintsFromTrace(g1, false));
      REQUIRE(oracle == HintsFromTrace(g2, true));
      REQUIRE(!plain.empty());
      if (model->IsMoe()) {
        REQUIRE(oracle.size() > plain.size());
      } else {
        REQUIRE(oracle == plain);
      }
      for (const H3Hint& h : oracle) REQUIRE(h.burst < cfg.bursts_per_stack);
    }
  }
}

TEST_CASE("h3 hints: the text format round-trips and comments and blank lines are skipped",
          "[h3][hints]") {
  const std::vector<H3Hint> hints = {{0, 0}, {0, 7}, {12, 3}, {12, 3}, {99999999999ULL, 127}};
  std::stringstream ss;
  flint::sim::WriteH3Hints(ss, hints, "made by a test\nsecond line");
  const std::string text = ss.str();
  REQUIRE(text.rfind("# made by a test\n# second line\n", 0) == 0);
  REQUIRE(flint::sim::ReadH3Hints(ss) == hints);
  std::istringstream in("# header\n\n  5 1   # trailing comment\n\t6\t2\n");
  REQUIRE(flint::sim::ReadH3Hints(in) == std::vector<H3Hint>{{5, 1}, {6, 2}});
}

TEST_CASE("h3 hints: a malformed line is refused naming its number", "[h3][hints]") {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"1 2\n# ok\n3\n", "1 field"},
      {"1 2\n3 4 5\n", "3 field"},
      {"0x10 2\n", "not a decimal"},
      {"1 -2\n", "not a decimal"},
      {"1 2\n2 0x3\n", "not a decimal"},
      {"10 1\n\n9 2\n", "earlier than"},
      {"99999999999999999999 1\n", "not a decimal"},
      {"1 2x\n", "not a decimal"},
  };
  const std::vector<uint64_t> line = {3, 2, 1, 1, 2, 3, 1, 1};
  for (size_t i = 0; i < bad.size(); ++i) {
    INFO("case " << i << ": " << bad[i].first);
    std::istringstream in(bad[i].first);
    try {
      flint::sim::ReadH3Hints(in, "h.txt");
      FAIL("accepted a malformed hints file");
    } catch (const flint::sim::TraceError& e) {
      INFO(e.what());
      REQUIRE(e.line() == line[i]);
      REQUIRE(std::string(e.what()).find("h.txt:" + std::to_string(line[i]) + ":") == 0);
      REQUIRE(std::string(e.what()).find(bad[i].second) != std::string::npos);
    }
  }
  REQUIRE_THROWS_AS(flint::sim::ReadH3HintsFile("/nonexistent/hints.txt"), flint::sim::TraceError);
}
