#include "sim/engines/h3_hints.hpp"

#include <set>

namespace flint::sim {

std::vector<H3Hint> MakeH3Hints(const DecodeGenerator& gen, const H3HintOptions& options,
                                std::vector<uint64_t>* timed_by) {
  const WeightLayout& lay = gen.layout();
  const DecodeOptions& o = gen.options();
  const uint64_t lpb = lay.lines_per_burst();
  const bool all_stacks = o.stack == kAllStacks;
  const std::vector<StepSummary> summary = gen.Summarize();
  std::vector<H3Hint> out;
  uint64_t prev_start = 0;  // start cycle of the phase before the one being hinted
  bool first = true;
  uint64_t phase_index = 0;  // steps x phases in order
  for (const StepSummary& ss : summary) {
    const StepPlan plan = gen.Plan(ss.step);
    for (size_t p = 0; p < plan.phases.size(); ++p) {
      const PhasePlan& ph = plan.phases[p];
      const uint64_t at = first ? ss.phases[p].start_cycle : prev_start;
      const uint64_t by = first ? phase_index : phase_index - 1;
      ++phase_index;
      first = false;
      prev_start = ss.phases[p].start_cycle;
      std::set<uint64_t> bursts;  // stack-local, ascending
      for (const WorkItem& it : ph.items) {
        if (it.lines == 0) continue;
        const GroupKind kind = lay.groups()[lay.tensors()[it.tensor].group].kind;
        if (kind == GroupKind::kExpert && !options.oracle) continue;
        for (uint64_t b = it.first_line / lpb; b <= (it.first_line + it.lines - 1) / lpb; ++b) {
          if (!all_stacks && gen.striping().StackOf(b) != static_cast<uint32_t>(o.stack)) continue;
          bursts.insert(gen.Address(b * lpb) / lay.burst_bytes());
        }
      }
      for (uint64_t b : bursts) {
        out.push_back(H3Hint{at, b});
        if (timed_by) timed_by->push_back(by);
      }
    }
  }
  return out;
}

H3HintFeed::H3HintFeed(const DecodeGenerator& gen, const H3HintOptions& options, uint64_t offset)
    : gen_(gen), offset_(offset) {
  hints_ = MakeH3Hints(gen, options, &timed_by_);
}

model::H3Model::HintReply H3HintFeed::Ask(uint64_t /*now*/) {
  using Reply = model::H3Model::HintReply;
  Reply r;
  if (next_ == hints_.size()) return r;
  const uint64_t phase = timed_by_[next_];
  if (phase >= gen_.phase_starts().size()) {
    r.kind = Reply::Kind::kWait;  // the workload has not reached it: ask after the next request
    return r;
  }
  r.kind = Reply::Kind::kHint;
  r.hint = H3Hint{offset_ + gen_.phase_starts()[phase], hints_[next_].burst};
  ++next_;
  return r;
}

}  // namespace flint::sim
