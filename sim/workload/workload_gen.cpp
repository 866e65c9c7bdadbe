#include "sim/workload/workload_gen.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <stdexcept>

#include "sim/workload/workload_hash.hpp"

namespace flint::sim {

namespace {

__extension__ typedef unsigned __int128 U128;

// Cycles for k lines at iv_q16 (16.16 fixed point) cycles a line.
inline uint64_t MulQ16(uint64_t k, uint64_t iv_q16) {
  return static_cast<uint64_t>((static_cast<U128>(k) * iv_q16) >> 16);
}

std::string Num(double v) {
  std::string s = std::to_string(v);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

const char* PhaseKindName(PhaseKind k) {
  switch (k) {
    case PhaseKind::kEmbed:
      return "embed";
    case PhaseKind::kDense:
      return "dense";
    case PhaseKind::kMoe:
      return "moe";
    case PhaseKind::kHead:
      return "head";
  }
  return "?";
}

const char* WorkOrderName(WorkOrder o) { return o == WorkOrder::kCta ? "cta" : "tiled"; }

const char* WorkLoopName(WorkLoop l) { return l == WorkLoop::kClosed ? "closed" : "open"; }

uint32_t KernelStage(const char* name) {
  static const char* const kStage[][4] = {
      {"q_proj", "k_proj", "v_proj", "q_a_proj"}, {"q_b_proj", "kv_b_proj", "", ""},
      {"o_proj", "o_a_proj", "", ""},              {"o_b_proj", "", "", ""},
      {"router", "", "", ""},                      {"gate_proj", "up_proj", "", ""},
      {"down_proj", "", "", ""}};
  if (std::strcmp(name, "kv_a_proj") == 0 || std::strcmp(name, "kv_proj") == 0) return 0;
  for (uint32_t st = 0; st < 7; ++st) {
    for (const char* n : kStage[st]) {
      if (n[0] != '\0' && std::strcmp(name, n) == 0) return st;
    }
  }
  return 0;
}

void ValidateDecodeOptions(const ModelShape& model, const Config& config, const DecodeOptions& o) {
  auto bad = [](const std::string& what) { throw std::invalid_argument(what); };
  if (o.batch < 1 || o.batch > 65536)
    bad("batch must be in 1..65536, got " + std::to_string(o.batch));
  if (o.steps < 1) bad("tokens (decode steps) must be >= 1");
  if (o.sms < 1 || o.sms > 65536) bad("sms must be in 1..65536, got " + std::to_string(o.sms));
  if (o.stacks < 1 || o.stacks > 1024) {
    bad("stacks must be in 1..1024, got " + std::to_string(o.stacks));
  }
  if (o.stack != kAllStacks && (o.stack < 0 || o.stack >= static_cast<int64_t>(o.stacks))) {
    bad("stack " + std::to_string(o.stack) + " does not exist: stacks are 0.." +
        std::to_string(o.stacks - 1) + " (or all)");
  }
  if (!std::isfinite(o.skew) || o.skew < 0 || o.skew > 100) {
    bad("skew must be a number in [0, 100], got " + Num(o.skew));
  }
  if (!std::isfinite(o.jitter) || o.jitter < 0 || o.jitter >= 1) {
    bad("jitter must be in [0, 1), got " + Num(o.jitter));
  }
  if (!std::isfinite(o.issue_interval) || o.issue_interval < 0 || o.issue_interval > 1e6) {
    bad("issue interval must be in (0, 1e6] cycles (0 = default), got " + Num(o.issue_interval));
  }
  if (o.issue_interval > 0 && o.issue_interval * 65536.0 < 1.0) {
    bad("issue interval " + Num(o.issue_interval) + " is below the 1/65536-cycle resolution");
  }
  if (o.layer_gap_cycles > (1ULL << 40)) bad("layer gap must be <= 2^40 cycles");
  if (o.cta_lines < 1 || o.cta_lines > (1ULL << 30)) {
    bad("cta lines must be in 1..2^30, got " + std::to_string(o.cta_lines));
  }
  if (o.loop == WorkLoop::kClosed && o.order != WorkOrder::kCta) {
    bad("a closed loop needs the cta work order (an SM's slots are its thread blocks' lines)");
  }
  if (o.max_outstanding > (1ULL << 30)) {
    bad("max outstanding must be in 1..2^30 (0 = cta lines), got " +
        std::to_string(o.max_outstanding));
  }
  if (o.max_outstanding != 0 && o.loop != WorkLoop::kClosed) {
    bad("max outstanding applies to a closed loop only");
  }
  if (o.router && !model.IsMoe()) {
    bad("model " + model.name + " is dense: a routing file does not apply");
  }
  if (const auto* rt = dynamic_cast<const RoutingTrace*>(o.router.get());
      rt != nullptr && rt->batch() != o.batch) {
    bad("the routing file routes a batch of " + std::to_string(rt->batch()) + ", the run has " +
        std::to_string(o.batch));
  }
  const WeightLayout layout(model, config.cl_bytes, config.burst_bytes);
  const uint64_t per_stack = (layout.total_bursts() + o.stacks - 1) / o.stacks;
  if (per_stack > config.bursts_per_stack) {
    bad("model " + model.name + " needs " + std::to_string(layout.total_bursts()) + " bursts of " +
        std::to_string(config.burst_bytes) + " B (" + std::to_string(per_stack) +
        " per stack over " + std::to_string(o.stacks) + " stacks), but a " +
        std::string(config.name) + " stack holds " + std::to_string(config.bursts_per_stack) +
        (model.synthetic ? "" : "; use a tiny-* model for the small and medium configs"));
  }
}

DecodeGenerator::DecodeGenerator(const ModelShape& model, const Config& config,
                                 DecodeOptions options)
    : model_(&model),
      config_(config),
      opt_(std::move(options)),
      layout_(model, config.cl_bytes, config.burst_bytes) {
  ValidateDecodeOptions(model, config, opt_);
  striping_.stacks = opt_.stacks;
  if (model.IsMoe()) {
    router_ = opt_.router ? opt_.router : std::make_shared<ZipfRouter>(model, opt_.skew, opt_.seed);
  }
  interval_ = opt_.issue_interval > 0
                  ? opt_.issue_interval
                  : static_cast<double>(opt_.sms) / static_cast<double>(opt_.stacks * config.lanes);
  interval_q16_ = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(interval_ * 65536.0)));
  while ((1ULL << lpb_shift_) < layout_.lines_per_burst()) ++lpb_shift_;
  all_stacks_ = opt_.stack == kAllStacks;
  target_ = all_stacks_ ? 0 : static_cast<uint32_t>(opt_.stack);
  if (opt_.loop == WorkLoop::kClosed) {
    max_out_ = opt_.max_outstanding ? opt_.max_outstanding : opt_.cta_lines;
  }
}

StepPlan DecodeGenerator::Plan(uint64_t step) const {
  const ModelShape& m = *model_;
  const uint64_t cl = layout_.cl_bytes();
  StepPlan plan;
  plan.step = step;

  auto tensor_item = [&](uint32_t t) {
    const Tensor& ts = layout_.tensors()[t];
    return WorkItem{ts.offset / cl, ts.Lines(cl), t};
  };
  auto add_group = [&](PhasePlan& ph, uint32_t g) {
    const Group& grp = layout_.groups()[g];
    for (uint32_t t = grp.first_tensor; t < grp.first_tensor + grp.tensor_count; ++t) {
      ph.items.push_back(tensor_item(t));
    }
  };

  // Embedding: one row per sequence (a gather, not a GEMV); rows sharing lines are merged.
  PhasePlan embed;
  embed.kind = PhaseKind::kEmbed;
  const uint32_t embed_tensor = layout_.groups()[layout_.embed_group()].first_tensor;
  const Tensor& et = layout_.tensors()[embed_tensor];
  const uint64_t row_bytes = m.hidden * PrecisionBits(m.embed_precision) / 8;
  std::vector<std::pair<uint64_t, uint64_t>> rows;
  for (uint32_t b = 0; b < opt_.batch; ++b) {
    const auto token =
        static_cast<uint32_t>(Below(WorkloadHash(opt_.seed, HashTag::kToken, step, b), m.vocab));
    plan.tokens.push_back(token);
    const uint64_t first = et.offset + token * row_bytes;
    rows.emplace_back(first / cl, (first + row_bytes + cl - 1) / cl);
  }
  std::sort(rows.begin(), rows.end());
  for (const auto& [lo, hi] : rows) {
    if (!embed.items.empty()) {
      WorkItem& last = embed.items.back();
      if (lo <= last.first_line + last.lines) {
        last.lines = std::max(last.first_line + last.lines, hi) - last.first_line;
        continue;
      }
    }
    embed.items.push_back(WorkItem{lo, hi - lo, embed_tensor});
  }
  plan.phases.push_back(std::move(embed));

  plan.routes.resize(m.layers);
  std::vector<uint8_t> used(m.experts);
  for (uint64_t l = 0; l < m.layers; ++l) {
    PhasePlan ph;
    ph.layer = static_cast<int64_t>(l);
    const WeightLayout::LayerGroups& lg = layout_.layer(l);
    add_group(ph, lg.attention);
    if (!m.IsMoeLayer(l)) {
      ph.kind = PhaseKind::kDense;
      add_group(ph, lg.mlp);
    } else {
      ph.kind = PhaseKind::kMoe;
      std::vector<uint32_t>& route = plan.routes[l];
      route.resize(opt_.batch * m.top_k);
      std::fill(used.begin(), used.end(), 0);
      for (uint32_t b = 0; b < opt_.batch; ++b) {
        router_->Route(step, l, b, &route[b * m.top_k]);
        for (uint64_t j = 0; j < m.top_k; ++j) used.at(route[b * m.top_k + j]) = 1;
      }
      add_group(ph, lg.router);
      if (lg.shared != WeightLayout::kNone) add_group(ph, lg.shared);
      for (uint64_t e = 0; e < m.experts; ++e) {
        if (!used[e]) continue;
        ph.experts.push_back(static_cast<uint32_t>(e));
        add_group(ph, layout_.ExpertGroup(l, e));
      }
    }
    plan.phases.push_back(std::move(ph));
  }

  PhasePlan head;
  head.kind = PhaseKind::kHead;
  add_group(head, layout_.head_group());
  plan.phases.push_back(std::move(head));
  return plan;
}

uint64_t DecodeGenerator::TileLines(const WorkItem& item, uint32_t sm) const {
  const uint64_t n = opt_.sms;
  const uint64_t len = item.lines;
  if (opt_.tile_lines == 0) return len * (sm + 1) / n - len * sm / n;
  const uint64_t k = opt_.tile_lines;
  const uint64_t chunks = (len + k - 1) / k;
  if (sm >= chunks) return 0;
  const uint64_t owned = (chunks - 1 - sm) / n + 1;
  uint64_t lines = owned * k;
  if ((chunks - 1) % n == sm) lines -= chunks * k - len;  // the last chunk is short
  return lines;
}

std::vector<DecodeGenerator::SmTiming> DecodeGenerator::Timing(const PhasePlan& phase,
                                                               uint64_t step, uint64_t phase_index,
                                                               uint64_t start,
                                                               uint64_t* end) const {
  std::vector<SmTiming> t(opt_.sms);
  uint64_t total = 0;
  for (const WorkItem& item : phase.items) {
    total += item.lines;
    for (uint32_t sm = 0; sm < opt_.sms; ++sm) t[sm].lines += TileLines(item, sm);
  }
  // SMs start up to jitter x (the mean SM's issue time of this phase) late.
  const double stagger = opt_.jitter * interval_ * static_cast<double>(total) / opt_.sms;
  uint64_t last = 0;
  bool any = false;
  for (uint32_t sm = 0; sm < opt_.sms; ++sm) {
    SmTiming& s = t[sm];
    s.base = start;
    s.iv_q16 = interval_q16_;
    if (opt_.jitter > 0) {
      const double u =
          2.0 * UnitOpen(WorkloadHash(opt_.seed, HashTag::kRate, step, phase_index, sm)) - 1.0;
      const double v = UnitOpen(WorkloadHash(opt_.seed, HashTag::kStart, step, phase_index, sm));
      s.iv_q16 = std::max<uint64_t>(
          1, static_cast<uint64_t>(
                 std::llround(static_cast<double>(interval_q16_) * (1.0 + opt_.jitter * u))));
      s.base += static_cast<uint64_t>(stagger * v);
    }
    if (s.lines > 0) {
      last = std::max(last, s.base + MulQ16(s.lines - 1, s.iv_q16));
      any = true;
    }
  }
  *end = any ? last + 1 : start;
  return t;
}

std::vector<StepSummary> DecodeGenerator::Summarize() const {
  std::vector<StepSummary> out;
  const uint64_t lpb = layout_.lines_per_burst();
  uint64_t cycle = 0;
  for (uint64_t s = 0; s < opt_.steps; ++s) {
    const StepPlan plan = Plan(s);
    StepSummary ss;
    ss.step = s;
    ss.start_cycle = cycle;
    for (size_t p = 0; p < plan.phases.size(); ++p) {
      const PhasePlan& ph = plan.phases[p];
      PhaseSummary ps;
      ps.kind = ph.kind;
      ps.layer = ph.layer;
      ps.experts = ph.experts.size();
      ps.start_cycle = cycle;
      uint64_t end = 0;
      if (opt_.order == WorkOrder::kCta) {
        end = CtaPhaseEnd(ph, s, p, cycle);
      } else {
        Timing(ph, s, p, cycle, &end);
      }
      ps.end_cycle = end;
      cycle = end + opt_.layer_gap_cycles;
      uint64_t last_burst = UINT64_MAX;  // items ascend, so a shared burst is the previous one
      for (const WorkItem& it : ph.items) {
        ps.lines += it.lines;
        const uint64_t b0 = it.first_line / lpb;
        const uint64_t b1 = (it.first_line + it.lines - 1) / lpb;
        for (uint64_t b = b0; b <= b1; ++b) {
          const bool fresh = b != last_burst;
          if (fresh) ps.bursts++;
          if (all_stacks_ || striping_.StackOf(b) == target_) {
            const uint64_t lo = std::max(it.first_line, b * lpb);
            const uint64_t hi = std::min(it.first_line + it.lines, (b + 1) * lpb);
            ps.stack_lines += hi - lo;
            if (fresh) ps.stack_bursts++;
          }
          last_burst = b;
        }
      }
      ss.lines += ps.lines;
      ss.bursts += ps.bursts;
      ss.stack_lines += ps.stack_lines;
      ss.stack_bursts += ps.stack_bursts;
      ss.phases.push_back(ps);
    }
    ss.end_cycle = ss.phases.back().end_cycle;
    out.push_back(std::move(ss));
  }
  return out;
}

uint64_t DecodeGenerator::Address(uint64_t line) const {
  const uint64_t cl = layout_.cl_bytes();
  if (all_stacks_) return line * cl;
  const uint64_t burst = line >> lpb_shift_;
  const uint64_t local = striping_.LocalBurst(burst);
  return ((local << lpb_shift_) | (line & ((1ULL << lpb_shift_) - 1))) * cl;
}

uint64_t DecodeGenerator::LineOf(uint64_t address) const {
  const uint64_t line = address / layout_.cl_bytes();
  if (all_stacks_) return line;
  const uint64_t local = line >> lpb_shift_;
  return (striping_.GlobalBurst(target_, local) << lpb_shift_) |
         (line & ((1ULL << lpb_shift_) - 1));
}

bool DecodeGenerator::LoadChunk(Cursor& c, uint32_t sm) const {
  const std::vector<WorkItem>& items = *items_;
  while (c.item < items.size()) {
    const WorkItem& it = items[c.item];
    uint64_t lo = 0, hi = 0;
    if (opt_.tile_lines == 0) {
      if (c.chunk == 0) {
        lo = it.lines * sm / opt_.sms;
        hi = it.lines * (sm + 1) / opt_.sms;
      }
    } else if (c.chunk * opt_.tile_lines < it.lines) {
      lo = c.chunk * opt_.tile_lines;
      hi = std::min(it.lines, lo + opt_.tile_lines);
    }
    if (hi > lo) {
      c.line = it.first_line + lo;
      c.end = it.first_line + hi;
      c.run_end = c.line;
      return true;
    }
    if (opt_.tile_lines == 0 || c.chunk * opt_.tile_lines >= it.lines) {
      ++c.item;
      c.chunk = opt_.tile_lines == 0 ? 0 : sm;
    }
  }
  return false;
}

// Moves to the SM's next line on the emitted stack; lines on other stacks still take issue
// slots (k), so skipping them keeps the SM's timing.
bool DecodeGenerator::Advance(Cursor& c, uint32_t sm) const {
  for (;;) {
    if (c.line < c.run_end) {
      c.pending_line = c.line;
      c.pending_cycle = c.base + MulQ16(c.k, c.iv_q16);
      ++c.line;
      ++c.k;
      return true;
    }
    if (c.line >= c.end) {
      // Next chunk of this item (block-cyclic) or the next item.
      if (opt_.tile_lines == 0) {
        ++c.item;
      } else {
        c.chunk += opt_.sms;
      }
      if (!LoadChunk(c, sm)) return false;
      continue;
    }
    if (all_stacks_) {
      c.run_end = c.end;
      continue;
    }
    const uint64_t burst = c.line >> lpb_shift_;
    const uint32_t st = striping_.StackOf(burst);
    if (st == target_) {
      c.run_end = std::min(c.end, (burst + 1) << lpb_shift_);
      continue;
    }
    const uint64_t next = burst + (target_ + opt_.stacks - st) % opt_.stacks;
    const uint64_t nl = std::min(c.end, next << lpb_shift_);
    c.k += nl - c.line;
    c.line = nl;
  }
}

void DecodeGenerator::SiftDown(size_t i) {
  const size_t n = heap_.size();
  const HeapEntry x = heap_[i];
  auto less = [](const HeapEntry& a, const HeapEntry& b) {
    return a.cycle < b.cycle || (a.cycle == b.cycle && a.sm < b.sm);
  };
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && less(heap_[c + 1], heap_[c])) ++c;
    if (!less(heap_[c], x)) break;
    heap_[i] = heap_[c];
    i = c;
  }
  heap_[i] = x;
}

bool DecodeGenerator::StartPhase() {
  uint64_t start = 0;
  if (!started_) {
    started_ = true;
  } else {
    start = phase_end_ + opt_.layer_gap_cycles;
    ++phase_;
  }
  if (!plan_ || phase_ >= plan_->phases.size()) {
    if (next_step_ >= opt_.steps) {
      plan_.reset();
      return false;
    }
    step_ = next_step_++;
    plan_ = Plan(step_);
    phase_ = 0;
  }
  const PhasePlan& ph = plan_->phases[phase_];
  items_ = &ph.items;
  phase_starts_.push_back(start);
  if (opt_.order == WorkOrder::kCta) {
    kernels_ = Kernels(ph);
    kernel_ = 0;
    cta_rates_ = CtaRates(step_, phase_);
    barrier_q16_ = start << 16;
    cta_heap_.clear();
    if (!kernels_.empty()) StartKernelCta();
    return true;
  }
  const std::vector<SmTiming> t = Timing(ph, step_, phase_, start, &phase_end_);
  cursors_.assign(opt_.sms, Cursor{});
  heap_.clear();
  for (uint32_t sm = 0; sm < opt_.sms; ++sm) {
    Cursor& c = cursors_[sm];
    c.base = t[sm].base;
    c.iv_q16 = t[sm].iv_q16;
    c.chunk = opt_.tile_lines == 0 ? 0 : sm;
    if (LoadChunk(c, sm) && Advance(c, sm)) heap_.push_back(HeapEntry{c.pending_cycle, sm});
  }
  for (size_t i = heap_.size() / 2; i-- > 0;) SiftDown(i);
  return true;
}

// --- kCta: kernels, thread blocks, SMs that free first ---------------------------------------

std::vector<std::vector<WorkItem>> DecodeGenerator::Kernels(const PhasePlan& phase) const {
  std::vector<std::vector<WorkItem>> by_stage(7);
  for (const WorkItem& it : phase.items) {
    if (it.lines == 0) continue;
    by_stage[KernelStage(layout_.tensors()[it.tensor].name)].push_back(it);
  }
  std::vector<std::vector<WorkItem>> out;
  for (auto& k : by_stage) {
    if (!k.empty()) out.push_back(std::move(k));
  }
  return out;
}

std::vector<uint64_t> DecodeGenerator::CtaRates(uint64_t step, uint64_t phase_index) const {
  std::vector<uint64_t> iv(opt_.sms, interval_q16_);
  if (opt_.jitter > 0) {
    for (uint32_t sm = 0; sm < opt_.sms; ++sm) {
      const double u =
          2.0 * UnitOpen(WorkloadHash(opt_.seed, HashTag::kRate, step, phase_index, sm)) - 1.0;
      iv[sm] = std::max<uint64_t>(
          1, static_cast<uint64_t>(
                 std::llround(static_cast<double>(interval_q16_) * (1.0 + opt_.jitter * u))));
    }
  }
  return iv;
}

bool DecodeGenerator::CtaQueue::Take(uint64_t cta_lines, uint64_t* first, uint64_t* end) {
  while (item < items->size()) {
    const WorkItem& it = (*items)[item];
    if (offset < it.lines) {
      const uint64_t n = std::min(cta_lines, it.lines - offset);
      *first = it.first_line + offset;
      *end = *first + n;
      offset += n;
      return true;
    }
    ++item;
    offset = 0;
  }
  return false;
}

bool DecodeGenerator::CtaHeapLess::operator()(uint32_t a, uint32_t b) const {
  const uint64_t ta = (*sms)[a].t_q16, tb = (*sms)[b].t_q16;
  return ta > tb || (ta == tb && a > b);
}

uint64_t DecodeGenerator::CtaPhaseEnd(const PhasePlan& phase, uint64_t step,
                                      uint64_t phase_index, uint64_t start) const {
  const std::vector<std::vector<WorkItem>> kernels = Kernels(phase);
  const std::vector<uint64_t> iv = CtaRates(step, phase_index);
  uint64_t barrier = start << 16;
  std::vector<CtaSm> sms(opt_.sms);
  std::vector<uint32_t> heap(opt_.sms);
  const CtaHeapLess later{&sms};
  for (const auto& k : kernels) {
    for (uint32_t sm = 0; sm < opt_.sms; ++sm) {
      sms[sm].t_q16 = barrier;
      heap[sm] = sm;
    }
    std::make_heap(heap.begin(), heap.end(), later);
    CtaQueue q{&k, 0, 0};
    uint64_t first = 0, end = 0;
    while (q.Take(opt_.cta_lines, &first, &end)) {
      std::pop_heap(heap.begin(), heap.end(), later);
      sms[heap.back()].t_q16 += (end - first) * iv[heap.back()];
      std::push_heap(heap.begin(), heap.end(), later);
    }
    for (const CtaSm& s : sms) barrier = std::max(barrier, s.t_q16);
  }
  return (barrier + 0xffff) >> 16;
}

bool DecodeGenerator::StartKernelCta() {
  cta_sms_.assign(opt_.sms, CtaSm{});
  cta_heap_.resize(opt_.sms);
  cta_pos_.resize(opt_.sms);
  for (uint32_t sm = 0; sm < opt_.sms; ++sm) {
    cta_sms_[sm].t_q16 = barrier_q16_;
    cta_sms_[sm].iv_q16 = cta_rates_[sm];
    cta_heap_[sm] = CtaHeapEntry{barrier_q16_, sm};  // equal keys: ascending ids are a heap
    cta_pos_[sm] = sm;
  }
  ctas_ = CtaQueue{&kernels_[kernel_], 0, 0};
  return true;
}

void DecodeGenerator::HeapMove(size_t i) {
  const CtaHeapEntry x = cta_heap_[i];
  const size_t top = i;
  if (i > 0 && Earlier(x, cta_heap_[(i - 1) / 2])) {
    // Earlier than its parent: up.
    while (i > 0) {
      const size_t p = (i - 1) / 2;
      if (!Earlier(x, cta_heap_[p])) break;
      cta_heap_[i] = cta_heap_[p];
      cta_pos_[cta_heap_[i].sm] = i;
      i = p;
    }
  } else {
    // Down, bottom-up (Floyd): the hole goes to a leaf along the earlier children, one compare a
    // level, then x climbs back from there. The SM that just issued is usually later than all
    // but a few, so it climbs little: about half the compares of the usual sift-down. Which
    // entry is on top never depends on the layout ((key, sm) orders the SMs strictly).
    const size_t n = cta_heap_.size();
    for (;;) {
      size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && Earlier(cta_heap_[c + 1], cta_heap_[c])) ++c;
      cta_heap_[i] = cta_heap_[c];
      cta_pos_[cta_heap_[i].sm] = i;
      i = c;
    }
    while (i > top) {
      const size_t p = (i - 1) / 2;
      if (!Earlier(x, cta_heap_[p])) break;
      cta_heap_[i] = cta_heap_[p];
      cta_pos_[cta_heap_[i].sm] = i;
      i = p;
    }
  }
  cta_heap_[i] = x;
  cta_pos_[x.sm] = i;
}

void DecodeGenerator::HeapRemoveTop() {
  cta_pos_[cta_heap_.front().sm] = SIZE_MAX;
  const CtaHeapEntry last = cta_heap_.back();
  cta_heap_.pop_back();
  if (cta_heap_.empty()) return;
  cta_heap_[0] = last;
  HeapMove(0);
}

uint64_t DecodeGenerator::ReadyQ16(CtaSm& s) const {
  auto later = std::greater<uint64_t>();  // frees is a min-heap
  while (!s.frees.empty() && (s.frees.front() << 16) <= s.t_q16) {
    std::pop_heap(s.frees.begin(), s.frees.end(), later);
    s.frees.pop_back();
  }
  if (s.undelivered + s.frees.size() < max_out_) return s.t_q16;
  if (!s.frees.empty()) return s.frees.front() << 16;  // the first slot to free
  return UINT64_MAX;                                   // every slot waits for a response
}

void DecodeGenerator::Rekey(uint32_t sm) {
  CtaSm& s = cta_sms_[sm];
  const uint64_t key = max_out_ ? ReadyQ16(s) : s.t_q16;  // ReadyQ16 also drops passed frees
  if (cta_pos_[sm] != SIZE_MAX) {
    cta_heap_[cta_pos_[sm]].key_q16 = key;
    HeapMove(cta_pos_[sm]);
  }
}

DecodeGenerator::Reply DecodeGenerator::NextCta(uint64_t now) {
  const bool closed = max_out_ != 0;
  Reply wait;
  wait.kind = Reply::Kind::kWait;
  for (;;) {
    while (cta_heap_.empty()) {
      if (closed) {
        if (outstanding_ != 0) return wait;  // the barrier: the kernel's data is not all in
        barrier_q16_ = std::max(barrier_q16_, last_response_ << 16);
      }
      if (started_ && plan_ && kernel_ + 1 < kernels_.size()) {
        ++kernel_;  // the barrier: every SM of the last kernel is free
        StartKernelCta();
        continue;
      }
      if (started_) phase_end_ = (barrier_q16_ + 0xffff) >> 16;
      if (!StartPhase()) return Reply{};
    }
    const uint32_t sm = cta_heap_.front().sm;
    const uint64_t key = cta_heap_.front().key_q16;
    CtaSm& s = cta_sms_[sm];
    // Closed loop: act only on what no later response can change (nothing before `now`).
    if (closed && (key == UINT64_MAX || (key >> 16) > now)) {
      wait.wake = key == UINT64_MAX ? kNoWake : key >> 16;
      return wait;
    }
    if (s.line == s.end) {  // free: the next thread block of the kernel, if any
      if (!ctas_.Take(opt_.cta_lines, &s.line, &s.end)) {
        barrier_q16_ = std::max(barrier_q16_, s.t_q16);
        HeapRemoveTop();
      }
      continue;
    }
    if (!all_stacks_) {
      const uint64_t burst = s.line >> lpb_shift_;
      const uint32_t st = striping_.StackOf(burst);
      if (st != target_) {  // lines on other stacks still take the SM's issue slots
        const uint64_t next = burst + (target_ + opt_.stacks - st) % opt_.stacks;
        const uint64_t nl = std::min(s.end, next << lpb_shift_);
        s.t_q16 += (nl - s.line) * s.iv_q16;
        s.line = nl;
        Rekey(sm);
        continue;
      }
    }
    s.t_q16 = key;  // closed loop: the later of its pace and a free slot
    Reply r;
    r.kind = Reply::Kind::kRequest;
    r.request = TraceRequest{s.t_q16 >> 16, sm, Address(s.line)};
    ++s.line;
    s.t_q16 += s.iv_q16;
    if (closed) {
      ++s.undelivered;
      ++outstanding_;
    }
    Rekey(sm);
    return r;
  }
}

std::optional<TraceRequest> DecodeGenerator::Next() {
  if (max_out_ != 0) {
    throw std::logic_error("decode generator: a closed loop is driven with Poll and Respond");
  }
  if (opt_.order == WorkOrder::kCta) {
    const Reply r = NextCta(kNoWake);
    if (r.kind == Reply::Kind::kDone) return std::nullopt;
    return r.request;
  }
  while (heap_.empty()) {
    if (!StartPhase()) return std::nullopt;
  }
  const uint32_t sm = heap_[0].sm;
  Cursor& c = cursors_[sm];
  const TraceRequest r{c.pending_cycle, sm, Address(c.pending_line)};
  if (Advance(c, sm)) {
    heap_[0].cycle = c.pending_cycle;
  } else {
    heap_[0] = heap_.back();
    heap_.pop_back();
  }
  if (!heap_.empty()) SiftDown(0);
  return r;
}

DecodeGenerator::Reply DecodeGenerator::Poll(uint64_t now) {
  if (max_out_ == 0) {
    Reply r;
    if (auto q = Next()) {
      r.kind = Reply::Kind::kRequest;
      r.request = *q;
    }
    return r;
  }
  horizon_ = std::max(horizon_, now);
  return NextCta(now);
}

void DecodeGenerator::Respond(uint32_t sm, uint64_t cycle) {
  if (max_out_ == 0) return;
  if (sm >= cta_sms_.size() || cta_sms_[sm].undelivered == 0) {
    throw std::logic_error("decode generator: a response for SM " + std::to_string(sm) +
                           ", which has no request outstanding");
  }
  if (cycle <= horizon_) {
    throw std::logic_error("decode generator: a response at cycle " + std::to_string(cycle) +
                           " came after the engine asked at cycle " + std::to_string(horizon_) +
                           " (a response must come after the cycle asked)");
  }
  CtaSm& s = cta_sms_[sm];
  --s.undelivered;
  --outstanding_;
  last_response_ = std::max(last_response_, cycle);
  s.frees.push_back(cycle);
  std::push_heap(s.frees.begin(), s.frees.end(), std::greater<uint64_t>());
  Rekey(sm);
}

uint64_t DecodeGenerator::Run(const std::function<void(const TraceRequest&)>& sink) {
  uint64_t n = 0;
  while (auto r = Next()) {
    sink(*r);
    ++n;
  }
  return n;
}

TraceTextWriter::TraceTextWriter(std::ostream& out) : out_(out), buf_(1 << 20) {}

TraceTextWriter::~TraceTextWriter() { Flush(); }

void TraceTextWriter::Comment(const std::string& text) {
  size_t pos = 0;
  do {
    const size_t nl = text.find('\n', pos);
    const std::string line = text.substr(pos, nl == std::string::npos ? nl : nl - pos);
    Flush();
    out_ << "# " << line << '\n';
    pos = nl == std::string::npos ? nl : nl + 1;
  } while (pos != std::string::npos && pos < text.size());
}

void TraceTextWriter::Write(const TraceRequest& r) {
  if (buf_.size() - used_ < 64) Flush();
  char* p = buf_.data() + used_;
  char tmp[24];
  int n = 0;
  uint64_t v = r.cycle;
  do {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) *p++ = tmp[--n];
  *p++ = ' ';
  uint64_t s = r.sm;
  do {
    tmp[n++] = static_cast<char>('0' + s % 10);
    s /= 10;
  } while (s);
  while (n) *p++ = tmp[--n];
  *p++ = ' ';
  *p++ = '0';
  *p++ = 'x';
  uint64_t a = r.address;
  do {
    tmp[n++] = "0123456789abcdef"[a & 15];
    a >>= 4;
  } while (a);
  while (n) *p++ = tmp[--n];
  *p++ = '\n';
  used_ = static_cast<size_t>(p - buf_.data());
}

void TraceTextWriter::Flush() {
  if (used_ > 0) out_.write(buf_.data(), static_cast<std::streamsize>(used_));
  used_ = 0;
}

}  // namespace flint::sim
