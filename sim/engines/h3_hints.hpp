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
#include "sim/workload/trace.hpp"
#include "sim/workload/workload_gen.hpp"

namespace flint::sim {

using model::H3Hint;

struct H3HintOptions {
  bool oracle = false;  // also hint the routed experts of the layer ahead
};

// The hints for every step of `gen`'s run (its options: steps, batch, routing, stack), in cycle
// order, from gen.Plan() and gen.Summarize(); does not advance the generator. If `timed_by` is
// given, it receives for each hint the phase (steps x phases in order) whose start times it.
std::vector<H3Hint> MakeH3Hints(const DecodeGenerator& gen, const H3HintOptions& options = {},
                                std::vector<uint64_t>* timed_by = nullptr);

// Closed loop: the phases start when the responses let them, so a hint is given at the real
// start of the phase that times it (gen.phase_starts()), plus `offset` (the engine's service
// start), and waits while the workload has not reached that phase. An H3Model::PolledHints.
class H3HintFeed {
 public:
  H3HintFeed(const DecodeGenerator& gen, const H3HintOptions& options, uint64_t offset = 0);
  model::H3Model::HintReply Ask(uint64_t now);
  size_t size() const { return hints_.size(); }

 private:
  const DecodeGenerator& gen_;
  std::vector<H3Hint> hints_;
  std::vector<uint64_t> timed_by_;
  uint64_t offset_;
  size_t next_ = 0;
};

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
