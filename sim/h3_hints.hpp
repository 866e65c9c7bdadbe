// The H3 baseline's compiler-emitted prefetch hints (docs/h3.md), derived from a decode
// workload, and their text format.
//
// Derivation: the phases of a run (embedding, layers 0..L-1, LM head, step after step) form one
// sequence; phase k is hinted at the start cycle of phase k-1 (phase 0 of the run at its own
// start), one hint per distinct burst of the emitted stack that phase k reads from a tensor a
// compiler knows before the gate runs: everything except routed experts (attention, dense MLP,
// router, shared experts, embedding, LM head). The oracle variant hints the routed experts the
// batch actually uses as well, at the same time (paper Fig. 5(b)).
//
// Text format: one hint a line, `<cycle> <burst>`, both decimal, cycles non-decreasing; burst is
// the stack-local burst index (the trace address divided by the burst size). '#' starts a comment
// to the end of the line; blank lines are ignored. A malformed line is a TraceError naming the
// source and the line number.
#pragma once
#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/h3/h3_model.hpp"
#include "sim/trace.hpp"
#include "sim/workload_gen.hpp"

namespace flint::sim {

using model::H3Hint;

struct H3HintOptions {
  bool oracle = false;  // also hint the routed experts of the layer ahead
};

// The hints for every step of `gen`'s run (its options: steps, batch, routing, stack), in cycle
// order, from gen.Plan() and gen.Summarize(); does not advance the generator.
std::vector<H3Hint> MakeH3Hints(const DecodeGenerator& gen, const H3HintOptions& options = {});

// Writes `hints` in the text format, after `header` as '#' comment lines (if not empty).
void WriteH3Hints(std::ostream& out, const std::vector<H3Hint>& hints,
                  const std::string& header = "");

// Reads hints one at a time, validating each line (two decimal fields, cycles non-decreasing).
class H3HintReader {
 public:
  explicit H3HintReader(std::istream& in, std::string source = "<hints>");
  // The next hint, or nullopt at the end. Throws TraceError on a malformed line.
  std::optional<H3Hint> Next();
  uint64_t line() const { return line_; }

 private:
  std::istream& in_;
  std::string source_;
  uint64_t line_ = 0;
  uint64_t last_cycle_ = 0;
  std::string buf_;
};

std::vector<H3Hint> ReadH3Hints(std::istream& in, const std::string& source = "<hints>");
// Throws TraceError (also when the file cannot be opened).
std::vector<H3Hint> ReadH3HintsFile(const std::string& path);

}  // namespace flint::sim
