// The GPU work order `cta` of the decode generator (docs/workloads.md "GPU work order"):
// kernels split at the data dependencies with a barrier between them, thread blocks (CTAs) of
// cta_lines lines dispatched in order to the SM that frees first. Pinned here: a drift-free
// stream reads each kernel front to back across all SMs at once (no SM more than the SMs' lines
// in flight behind the front; the tiled order fails this), kernels never overlap (attention,
// router, gate/up, down in that order), every SM's share of a kernel is within one thread block
// of every other's (no dealing bias; the barrier keeps a lead from building up), and Summarize's
// phase times bound the stream.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <vector>

#include "flint_config.hpp"
#include "sim/workload/workload_gen.hpp"
#include "sim/workload/workload_model.hpp"

namespace {

using flint::sim::DecodeGenerator;
using flint::sim::DecodeOptions;
using flint::sim::KernelStage;
using flint::sim::WorkOrder;

struct Req {
  uint64_t cycle, line;
  uint32_t sm;
  uint64_t step, phase;
};

DecodeOptions CtaOpts(uint32_t sms, uint64_t cta_lines, WorkOrder order = WorkOrder::kCta) {
  DecodeOptions o;
  o.batch = 4;
  o.stack = flint::sim::kAllStacks;
  o.stacks = 1;
  o.sms = sms;
  o.cta_lines = cta_lines;
  o.jitter = 0;
  o.order = order;
  return o;
}

std::vector<Req> Emit(DecodeGenerator& gen) {
  std::vector<Req> out;
  while (auto r = gen.Next()) {
    out.push_back({r->cycle, gen.LineOf(r->address), r->sm, gen.current_step(),
                   gen.current_phase()});
  }
  return out;
}

// The stage and the position in its kernel's CTA order of every line a phase reads.
struct KernelMap {
  std::map<uint64_t, std::pair<uint32_t, uint64_t>> at;  // line -> (stage, rank)
};

KernelMap Map(const DecodeGenerator& gen, uint64_t step, uint64_t phase) {
  const auto plan = gen.Plan(step);
  KernelMap m;
  std::map<uint32_t, uint64_t> next_rank;
  for (const auto& it : plan.phases.at(phase).items) {
    const uint32_t st = KernelStage(gen.layout().tensors()[it.tensor].name);
    for (uint64_t l = it.first_line; l < it.first_line + it.lines; ++l) {
      m.at[l] = {st, next_rank[st]++};
    }
  }
  return m;
}

// The largest distance (in kernel order) between the furthest line read so far in a kernel and
// a line read now.
uint64_t MaxLag(const DecodeGenerator& gen, const std::vector<Req>& reqs) {
  uint64_t worst = 0;
  std::map<std::pair<uint64_t, uint64_t>, KernelMap> maps;
  std::map<std::tuple<uint64_t, uint64_t, uint32_t>, uint64_t> front;
  for (const Req& r : reqs) {
    auto [it, fresh] = maps.try_emplace({r.step, r.phase});
    if (fresh) it->second = Map(gen, r.step, r.phase);
    const auto [stage, rank] = it->second.at.at(r.line);
    uint64_t& f = front[{r.step, r.phase, stage}];
    f = std::max(f, rank);
    worst = std::max(worst, f - rank);
  }
  return worst;
}

}  // namespace

TEST_CASE("workloads cta: a drift-free stream reads every kernel front to back on all SMs at once",
          "[sim][workload][directed]") {
  const auto& model = *flint::sim::FindModel("tiny-medium");
  for (const uint32_t sms : {4u, 16u, 37u}) {
    for (const uint64_t cta : {8ull, 64ull}) {
      INFO("sms " << sms << " cta lines " << cta);
      DecodeGenerator gen(model, flint::kMediumConfig, CtaOpts(sms, cta));
      const auto reqs = Emit(gen);
      REQUIRE(!reqs.empty());
      // No line is read more than the SMs' lines in flight behind the furthest one: a burst
      // opens, is read by every SM together and closes, before the front moves on.
      CHECK(MaxLag(gen, reqs) < sms * cta);
    }
  }
  // The tiled order (one contiguous tile per SM) reads the kernel from sms places at once.
  DecodeGenerator tiled(model, flint::kMediumConfig, CtaOpts(16, 8, WorkOrder::kTiled));
  CHECK(MaxLag(tiled, Emit(tiled)) >= 16 * 8);
}

TEST_CASE("workloads cta: kernels run one after another in dependency order",
          "[sim][workload][directed]") {
  const auto& model = *flint::sim::FindModel("tiny-medium");
  DecodeOptions o = CtaOpts(16, 8);
  o.steps = 2;
  DecodeGenerator gen(model, flint::kMediumConfig, o);
  const auto reqs = Emit(gen);
  std::map<std::pair<uint64_t, uint64_t>, KernelMap> maps;
  // Per (step, phase): the stage of the previous request and the last cycle of each stage.
  std::map<std::pair<uint64_t, uint64_t>, std::map<uint32_t, std::pair<uint64_t, uint64_t>>> span;
  bool saw_router = false, saw_down = false;
  uint32_t prev_stage = 0;
  std::pair<uint64_t, uint64_t> prev_phase{~0ull, ~0ull};
  for (const Req& r : reqs) {
    auto [it, fresh] = maps.try_emplace({r.step, r.phase});
    if (fresh) it->second = Map(gen, r.step, r.phase);
    const uint32_t stage = it->second.at.at(r.line).first;
    if (prev_phase == std::make_pair(r.step, r.phase)) {
      INFO("step " << r.step << " phase " << r.phase << " line " << r.line);
      REQUIRE(stage >= prev_stage);  // never back to an earlier kernel
    }
    prev_phase = {r.step, r.phase};
    prev_stage = stage;
    saw_router |= stage == 4;
    saw_down |= stage == 6;
    auto [s, f2] = span[{r.step, r.phase}].try_emplace(stage, r.cycle, r.cycle);
    s->second.second = std::max(s->second.second, r.cycle);
  }
  REQUIRE(saw_router);
  REQUIRE(saw_down);
  // A kernel's first line comes after the previous kernel's last (the barrier).
  for (const auto& [key, stages] : span) {
    for (auto it = stages.begin(); std::next(it) != stages.end(); ++it) {
      INFO("step " << key.first << " phase " << key.second << " stage " << it->first);
      CHECK(std::next(it)->second.first > it->second.second);
    }
  }
}

TEST_CASE("workloads cta: SMs that free first take the next thread block, so shares stay even",
          "[sim][workload][directed]") {
  const auto& model = *flint::sim::FindModel("tiny-medium");
  const uint64_t cta = 8;
  const uint32_t sms = 37;  // no tensor's CTA count is a multiple of it
  DecodeGenerator gen(model, flint::kMediumConfig, CtaOpts(sms, cta));
  const auto reqs = Emit(gen);
  std::map<std::pair<uint64_t, uint64_t>, KernelMap> maps;
  // Lines per SM per kernel.
  std::map<std::tuple<uint64_t, uint64_t, uint32_t>, std::vector<uint64_t>> per_sm;
  for (const Req& r : reqs) {
    auto [it, fresh] = maps.try_emplace({r.step, r.phase});
    if (fresh) it->second = Map(gen, r.step, r.phase);
    auto& v = per_sm[{r.step, r.phase, it->second.at.at(r.line).first}];
    v.resize(sms);
    ++v[r.sm];
  }
  for (const auto& [key, v] : per_sm) {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    INFO("phase " << std::get<1>(key) << " stage " << std::get<2>(key));
    CHECK(*hi - *lo <= cta);
  }
}

TEST_CASE("workloads cta: Summarize's phase times bound the stream's", "[sim][workload][directed]") {
  const auto& model = *flint::sim::FindModel("tiny-small");
  DecodeOptions o = CtaOpts(8, 4);
  o.steps = 2;
  o.stack = 0;
  o.stacks = 2;
  o.layer_gap_cycles = 5;
  DecodeGenerator gen(model, flint::kSmallConfig, o);
  const auto reqs = Emit(gen);
  const auto sum = gen.Summarize();
  std::map<std::pair<uint64_t, uint64_t>, std::pair<uint64_t, uint64_t>> span;
  for (const Req& r : reqs) {
    auto [it, fresh] = span.try_emplace({r.step, r.phase}, r.cycle, r.cycle);
    it->second.first = std::min(it->second.first, r.cycle);
    it->second.second = std::max(it->second.second, r.cycle);
  }
  REQUIRE(!span.empty());
  for (const auto& [key, mm] : span) {
    const auto& ps = sum[key.first].phases[key.second];
    INFO("step " << key.first << " phase " << key.second);
    CHECK(mm.first >= ps.start_cycle);
    CHECK(mm.second < ps.end_cycle);
  }
  for (size_t s = 0; s < sum.size(); ++s) {
    for (size_t p = 0; p + 1 < sum[s].phases.size(); ++p) {
      CHECK(sum[s].phases[p + 1].start_cycle == sum[s].phases[p].end_cycle + 5);
    }
  }
}
