// The decode workloads (docs/workloads.md): model shapes against their published sizes, the
// weight layout and stack striping, routing (Zipf and files), and the generated miss stream
// (counts against analytic weight bytes, trace validity, determinism, SM tiling, barriers).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

#include "flint_config.hpp"
#include "sim/workload/trace.hpp"
#include "sim/workload/workload_gen.hpp"
#include "sim/workload/workload_hash.hpp"
#include "tb/common/seed.hpp"

namespace {

using flint::kMediumConfig;
using flint::kPaperConfig;
using flint::kSmallConfig;
using flint::sim::AttentionKind;
using flint::sim::DecodeGenerator;
using flint::sim::DecodeOptions;
using flint::sim::FindModel;
using flint::sim::GroupKind;
using flint::sim::ModelShape;
using flint::sim::PhaseKind;
using flint::sim::Precision;
using flint::sim::RoutingError;
using flint::sim::RoutingTrace;
using flint::sim::TraceRequest;
using flint::sim::WeightLayout;

const ModelShape& Model(const char* name) {
  const ModelShape* m = FindModel(name);
  REQUIRE(m != nullptr);
  return *m;
}

// ---- An independent reading of the shapes: bytes per tensor from models.toml's fields. ----
double Bytes(uint64_t params, Precision p) {
  return static_cast<double>(params) * (p == Precision::kBf16 ? 2 : p == Precision::kFp8 ? 1 : 0.5);
}

uint64_t AttentionParams(const ModelShape& m) {
  const uint64_t h = m.hidden;
  switch (m.attention) {
    case AttentionKind::kGqa:
      return 2 * h * m.heads * m.head_dim + 2 * h * m.kv_heads * m.head_dim;
    case AttentionKind::kMla:
      return h * m.q_lora_rank +
             m.q_lora_rank * m.heads * (m.qk_nope_head_dim + m.qk_rope_head_dim) +
             h * (m.kv_lora_rank + m.qk_rope_head_dim) +
             m.kv_lora_rank * m.heads * (m.qk_nope_head_dim + m.v_head_dim) +
             m.heads * m.v_head_dim * h;
    case AttentionKind::kDsv4:
      return h * m.q_lora_rank + m.q_lora_rank * m.heads * m.head_dim + h * m.head_dim +
             m.heads * m.head_dim * m.o_lora_rank + m.o_groups * m.o_lora_rank * h;
  }
  return 0;
}

double ExpertBytes(const ModelShape& m) {
  return Bytes(3 * m.hidden * m.expert_intermediate, m.expert_precision);
}

// Bytes a step must read: embedding rows of the batch's distinct tokens, every layer's
// attention, dense MLP or router + shared + the given routed experts, and the LM head.
double AnalyticStepBytes(const ModelShape& m, const std::set<uint32_t>& tokens,
                         const std::map<uint64_t, std::set<uint32_t>>& experts_per_layer) {
  double b = static_cast<double>(tokens.size()) * Bytes(m.hidden, m.embed_precision);
  for (uint64_t l = 0; l < m.layers; ++l) {
    b += Bytes(AttentionParams(m), m.precision);
    if (!m.IsMoeLayer(l)) {
      b += Bytes(3 * m.hidden * m.dense_intermediate, m.precision);
      continue;
    }
    b += Bytes(m.experts * m.hidden, m.router_precision);
    b += Bytes(3 * m.hidden * m.shared_experts * m.shared_intermediate, m.precision);
    b += static_cast<double>(experts_per_layer.at(l).size()) * ExpertBytes(m);
  }
  return b + Bytes(m.vocab * m.hidden, m.embed_precision);
}

DecodeOptions Opts(uint32_t batch = 1, int64_t stack = flint::sim::kAllStacks) {
  DecodeOptions o;
  o.batch = batch;
  o.stack = stack;
  return o;
}

struct Emitted {
  TraceRequest r;
  uint64_t step;
  uint64_t phase;
};

std::vector<Emitted> EmitAll(DecodeGenerator& gen) {
  std::vector<Emitted> out;
  while (auto r = gen.Next()) out.push_back({*r, gen.current_step(), gen.current_phase()});
  return out;
}

std::vector<TraceRequest> Requests(const std::vector<Emitted>& e) {
  std::vector<TraceRequest> out;
  for (const auto& x : e) out.push_back(x.r);
  return out;
}

}  // namespace

TEST_CASE("workloads: every model has a source and the paper's six are present",
          "[sim][workload][directed]") {
  const char* paper[] = {"llama-3.1-405b",  "deepseek-v3",      "deepseek-v4-pro",
                         "qwen3-235b-a22b", "llama-4-maverick", "kimi-k2"};
  for (const char* name : paper) {
    INFO(name);
    const ModelShape& m = Model(name);
    CHECK_FALSE(m.synthetic);
    CHECK_FALSE(m.sources.empty());
    CHECK(m.published_params_b > 0);
  }
  CHECK_FALSE(Model("llama-3.1-405b").IsMoe());
  CHECK(Model("deepseek-v4-pro").expert_precision == Precision::kFp4);
  CHECK(Model("deepseek-v4-pro").precision == Precision::kFp8);
  CHECK(Model("qwen3-235b-a22b").precision == Precision::kBf16);
  CHECK(FindModel("no-such-model") == nullptr);
  // Maverick alternates dense and MoE layers, MoE on the odd ones.
  const ModelShape& mav = Model("llama-4-maverick");
  CHECK_FALSE(mav.IsMoeLayer(0));
  CHECK(mav.IsMoeLayer(1));
  CHECK(mav.IsMoeLayer(47));
  CHECK_FALSE(mav.IsMoeLayer(46));
  CHECK_FALSE(Model("deepseek-v3").IsMoeLayer(2));
  CHECK(Model("deepseek-v3").IsMoeLayer(3));
}

TEST_CASE("workloads: shapes reproduce the published parameter counts",
          "[sim][workload][directed]") {
  for (const ModelShape& m : flint::sim::AllModels()) {
    if (m.synthetic) continue;
    INFO(m.name);
    const WeightLayout lay(m, kPaperConfig.cl_bytes, kPaperConfig.burst_bytes);
    const double total = static_cast<double>(lay.param_count()) / 1e9;
    const double active = static_cast<double>(lay.ActiveParams()) / 1e9;
    INFO("total " << total << " B vs " << m.published_params_b << ", active " << active << " B vs "
                  << m.published_active_b);
    // Published totals are rounded and some include MTP layers (left out here): 3 %.
    CHECK(std::abs(total - m.published_params_b) <= 0.03 * m.published_params_b);
    CHECK(std::abs(active - m.published_active_b) <= 0.07 * m.published_active_b);
  }
}

TEST_CASE("workloads: layout aligns groups to bursts and tensors to lines",
          "[sim][workload][directed]") {
  struct Case {
    const char* model;
    const flint::Config* cfg;
  };
  const Case cases[] = {{"deepseek-v3", &kPaperConfig},      {"deepseek-v4-pro", &kPaperConfig},
                        {"llama-4-maverick", &kPaperConfig}, {"tiny-small", &kSmallConfig},
                        {"tiny-medium", &kMediumConfig},     {"tiny-dense", &kSmallConfig}};
  for (const Case& c : cases) {
    INFO(c.model);
    const ModelShape& m = Model(c.model);
    const WeightLayout lay(m, c.cfg->cl_bytes, c.cfg->burst_bytes);
    uint64_t prev_end = 0, next_burst = 0, weight = 0, experts = 0;
    for (uint32_t g = 0; g < lay.groups().size(); ++g) {
      const auto& grp = lay.groups()[g];
      REQUIRE(grp.offset % c.cfg->burst_bytes == 0);
      REQUIRE(grp.first_burst == next_burst);  // no gaps, no shared bursts between groups
      REQUIRE(grp.bursts == (grp.bytes + c.cfg->burst_bytes - 1) / c.cfg->burst_bytes);
      next_burst = grp.first_burst + grp.bursts;
      if (grp.kind == GroupKind::kExpert) ++experts;
      for (uint32_t t = grp.first_tensor; t < grp.first_tensor + grp.tensor_count; ++t) {
        const auto& ts = lay.tensors()[t];
        REQUIRE(ts.offset % c.cfg->cl_bytes == 0);
        REQUIRE(ts.offset >= prev_end);
        REQUIRE(ts.group == g);
        REQUIRE(ts.offset + ts.bytes <= grp.offset + grp.bytes);
        REQUIRE(lay.TensorAtLine(ts.offset / c.cfg->cl_bytes) == t);
        prev_end = ts.offset + ts.bytes;
        weight += ts.bytes;
      }
    }
    CHECK(next_burst == lay.total_bursts());
    CHECK(weight == lay.weight_bytes());
    uint64_t moe_layers = 0;
    for (uint64_t l = 0; l < m.layers; ++l) moe_layers += m.IsMoeLayer(l) ? 1 : 0;
    CHECK(experts == moe_layers * m.experts);
  }
  // A DeepSeek-V3 expert is 3 x 7168 x 2048 FP8 bytes = exactly 21 bursts of 2 MiB.
  const WeightLayout ds(Model("deepseek-v3"), 128, 2 << 20);
  CHECK(ds.groups()[ds.ExpertGroup(3, 0)].bursts == 21);
  CHECK(ds.groups()[ds.ExpertGroup(3, 0)].bytes == 3ULL * 7168 * 2048);
}

TEST_CASE("workloads: tiny models fit one stack of their config", "[sim][workload][corner]") {
  CHECK(WeightLayout(Model("tiny-small"), 32, kSmallConfig.burst_bytes).total_bursts() <=
        kSmallConfig.bursts_per_stack);
  CHECK(WeightLayout(Model("tiny-dense"), 32, kSmallConfig.burst_bytes).total_bursts() <=
        kSmallConfig.bursts_per_stack);
  CHECK(WeightLayout(Model("tiny-medium"), 64, kMediumConfig.burst_bytes).total_bursts() <=
        kMediumConfig.bursts_per_stack);
  DecodeOptions one = Opts();
  one.stacks = 1;
  one.stack = 0;
  CHECK_NOTHROW(DecodeGenerator(Model("tiny-small"), kSmallConfig, one));
  CHECK_NOTHROW(DecodeGenerator(Model("tiny-medium"), kMediumConfig, one));
}

TEST_CASE("workloads: stack striping maps every burst to exactly one stack",
          "[sim][workload][directed]") {
  const WeightLayout lay(Model("tiny-medium"), 64, kMediumConfig.burst_bytes);
  for (uint32_t stacks : {1u, 3u, 8u}) {
    INFO("stacks " << stacks);
    flint::sim::Striping s{stacks};
    std::set<std::pair<uint32_t, uint64_t>> seen;
    std::vector<uint64_t> per_stack(stacks);
    for (uint64_t b = 0; b < lay.total_bursts(); ++b) {
      const uint32_t st = s.StackOf(b);
      REQUIRE(st < stacks);
      REQUIRE(s.GlobalBurst(st, s.LocalBurst(b)) == b);
      REQUIRE(seen.insert({st, s.LocalBurst(b)}).second);
      per_stack[st]++;
    }
    uint64_t sum = 0;
    for (uint32_t st = 0; st < stacks; ++st) {
      CHECK(per_stack[st] == s.BurstsOn(lay.total_bursts(), st));
      sum += per_stack[st];
    }
    CHECK(sum == lay.total_bursts());
  }
  // Trace addresses of a stack are that stack's local bytes, and map back to the model line.
  DecodeOptions o = Opts(1, 2);
  o.stacks = 3;
  const DecodeGenerator gen(Model("tiny-medium"), kMediumConfig, o);
  const uint64_t lpb = lay.lines_per_burst();
  for (uint64_t local = 0; local < 20; ++local) {
    const uint64_t line = (local * 3 + 2) * lpb + 7;
    CHECK(gen.Address(line) == (local * lpb + 7) * 64);
    CHECK(gen.LineOf(gen.Address(line)) == line);
  }
}

TEST_CASE("workloads: a dense step reads every weight once", "[sim][workload][directed]") {
  const ModelShape& m = Model("llama-3.1-405b");
  for (uint32_t batch : {1u, 64u}) {
    INFO("batch " << batch);
    const DecodeGenerator gen(m, kPaperConfig, Opts(batch, 0));
    const auto plan = gen.Plan(0);
    const std::set<uint32_t> tokens(plan.tokens.begin(), plan.tokens.end());
    const auto sum = gen.Summarize();
    REQUIRE(sum.size() == 1);
    const double bytes = static_cast<double>(sum[0].lines * kPaperConfig.cl_bytes);
    CHECK(bytes == AnalyticStepBytes(m, tokens, {}));
    // Every weight except the embedding table, once.
    const double embed = Bytes(m.vocab * m.hidden, m.embed_precision);
    CHECK(bytes == static_cast<double>(gen.layout().weight_bytes()) - embed +
                       static_cast<double>(tokens.size()) * Bytes(m.hidden, m.embed_precision));
  }
  // Emitted, not only counted: a tiny dense model streams exactly its analytic lines.
  const ModelShape& td = Model("tiny-dense");
  DecodeGenerator gen(td, kSmallConfig, Opts(4));
  const auto plan = gen.Plan(0);
  const auto e = EmitAll(gen);
  std::set<uint64_t> lines;
  for (const auto& x : e) lines.insert(gen.LineOf(x.r.address));
  CHECK(lines.size() == e.size());  // no line twice in a step
  CHECK(static_cast<double>(e.size() * kSmallConfig.cl_bytes) ==
        AnalyticStepBytes(td, {plan.tokens.begin(), plan.tokens.end()}, {}));
}

TEST_CASE("workloads: an MoE step reads attention shared experts and the routed union",
          "[sim][workload][directed]") {
  SECTION("batch 1 with a fixed routing file, emitted") {
    const ModelShape& m = Model("tiny-small");  // layers 1..3 MoE, 8 experts, top-2
    std::istringstream file("0 1 0 3 5\n0 2 0 0 7\n0 3 0 5 6\n");
    auto rt = std::make_shared<RoutingTrace>(RoutingTrace::Parse(file, m, 1, "fixed"));
    DecodeOptions o = Opts(1);
    o.router = rt;
    DecodeGenerator gen(m, kSmallConfig, o);
    const auto plan = gen.Plan(0);
    CHECK(plan.phases[2].experts == std::vector<uint32_t>{3, 5});
    CHECK(plan.phases[3].experts == std::vector<uint32_t>{0, 7});
    const std::map<uint64_t, std::set<uint32_t>> ex{{1, {3, 5}}, {2, {0, 7}}, {3, {5, 6}}};
    const auto e = EmitAll(gen);
    CHECK(static_cast<double>(e.size() * kSmallConfig.cl_bytes) ==
          AnalyticStepBytes(m, {plan.tokens.begin(), plan.tokens.end()}, ex));
    // The requested expert lines are exactly those of the routed experts.
    std::set<std::pair<int64_t, int64_t>> touched;
    for (const auto& x : e) {
      const uint32_t t = gen.layout().TensorAtLine(gen.LineOf(x.r.address));
      REQUIRE(t != WeightLayout::kNone);
      const auto& g = gen.layout().groups()[gen.layout().tensors()[t].group];
      if (g.kind == GroupKind::kExpert) touched.insert({g.layer, g.expert});
    }
    CHECK(touched ==
          std::set<std::pair<int64_t, int64_t>>{{1, 3}, {1, 5}, {2, 0}, {2, 7}, {3, 5}, {3, 6}});
  }
  SECTION("batch 64 on DeepSeek-V3 at paper scale, counted") {
    const ModelShape& m = Model("deepseek-v3");
    const DecodeGenerator gen(m, kPaperConfig, Opts(64, 0));
    const auto plan = gen.Plan(0);
    std::map<uint64_t, std::set<uint32_t>> ex;
    for (uint64_t l = 0; l < m.layers; ++l) {
      if (!m.IsMoeLayer(l)) continue;
      REQUIRE(plan.routes[l].size() == 64 * m.top_k);
      ex[l].insert(plan.routes[l].begin(), plan.routes[l].end());
      REQUIRE(plan.phases[1 + l].experts.size() == ex[l].size());
    }
    const auto sum = gen.Summarize();
    CHECK(static_cast<double>(sum[0].lines * kPaperConfig.cl_bytes) ==
          AnalyticStepBytes(m, {plan.tokens.begin(), plan.tokens.end()}, ex));
    // At batch 64 the union is far above top_k and below all experts.
    CHECK(ex[10].size() > 3 * m.top_k);
    CHECK(ex[10].size() < m.experts);
  }
}

TEST_CASE("workloads: the emitted trace is valid and matches the summary",
          "[sim][workload][directed]") {
  for (int64_t stack : {int64_t{0}, int64_t{5}, flint::sim::kAllStacks}) {
    INFO("stack " << stack);
    DecodeOptions o = Opts(4, stack);
    o.steps = 2;
    DecodeGenerator gen(Model("tiny-small"), kSmallConfig, o);
    const auto e = EmitAll(gen);
    REQUIRE_FALSE(e.empty());
    std::stringstream text;
    {
      flint::sim::TraceTextWriter w(text);
      w.Comment("header\nsecond line");
      for (const auto& x : e) w.Write(x.r);
    }
    const auto parsed = flint::sim::ReadTrace(text, kSmallConfig.cl_bytes, "gen.trace");
    CHECK(parsed == Requests(e));
    // The writer's text is the same as the reference writer's.
    std::ostringstream ref;
    flint::sim::WriteTrace(ref, Requests(e));
    std::stringstream again;
    {
      flint::sim::TraceTextWriter w(again);
      w.Comment("<cycle> <sm> <address>");
      for (const auto& x : e) w.Write(x.r);
    }
    CHECK(again.str() == ref.str());
    // Per phase: emitted lines and distinct bursts equal the summary's.
    const auto sum = gen.Summarize();
    std::map<std::pair<uint64_t, uint64_t>, std::pair<uint64_t, std::set<uint64_t>>> got;
    const uint64_t lpb = gen.layout().lines_per_burst();
    for (const auto& x : e) {
      auto& g = got[{x.step, x.phase}];
      g.first++;
      g.second.insert(gen.LineOf(x.r.address) / lpb);
    }
    for (const auto& s : sum) {
      for (size_t p = 0; p < s.phases.size(); ++p) {
        INFO("step " << s.step << " phase " << p);
        const auto it = got.find({s.step, p});
        const uint64_t lines = it == got.end() ? 0 : it->second.first;
        const uint64_t bursts = it == got.end() ? 0 : it->second.second.size();
        CHECK(lines == s.phases[p].stack_lines);
        CHECK(bursts == s.phases[p].stack_bursts);
        if (stack == flint::sim::kAllStacks) CHECK(lines == s.phases[p].lines);
      }
    }
  }
}

TEST_CASE("workloads: stack filter emits exactly that stack with the same timing",
          "[sim][workload][directed]") {
  const ModelShape& m = Model("tiny-medium");
  DecodeOptions all = Opts(16);
  all.sms = 20;
  DecodeGenerator ga(m, kMediumConfig, all);
  std::map<uint64_t, uint64_t> cycle_of;  // model line -> cycle, every stack
  for (const auto& x : EmitAll(ga)) cycle_of[ga.LineOf(x.r.address)] = x.r.cycle;
  uint64_t covered = 0;
  const uint64_t lpb = ga.layout().lines_per_burst();
  for (int64_t k = 0; k < 8; ++k) {
    DecodeOptions o = all;
    o.stack = k;
    DecodeGenerator g(m, kMediumConfig, o);
    for (const auto& x : EmitAll(g)) {
      const uint64_t line = g.LineOf(x.r.address);
      REQUIRE((line / lpb) % 8 == static_cast<uint64_t>(k));
      const auto it = cycle_of.find(line);
      REQUIRE(it != cycle_of.end());
      REQUIRE(it->second == x.r.cycle);  // filtering does not change an SM's timing
      ++covered;
    }
  }
  CHECK(covered == cycle_of.size());
}

TEST_CASE("workloads: same seed same trace and a new seed new routing", "[sim][workload][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const ModelShape& m = Model("tiny-medium");
  DecodeOptions o = Opts(4, 1);
  o.seed = seed;
  o.steps = 2;
  DecodeGenerator a(m, kMediumConfig, o), b(m, kMediumConfig, o);
  const auto ta = Requests(EmitAll(a));
  CHECK(ta == Requests(EmitAll(b)));
  o.seed = seed + 1;
  DecodeGenerator c(m, kMediumConfig, o);
  CHECK(a.Plan(0).routes != c.Plan(0).routes);
  CHECK(ta != Requests(EmitAll(c)));
  // And the routing of a step does not depend on what was streamed before.
  CHECK(a.Plan(1).routes == b.Plan(1).routes);
}

TEST_CASE("workloads: skew concentrates routing on fewer experts", "[sim][workload][random]") {
  const uint32_t seed = flint::tb::TestSeed();
  INFO(flint::tb::ReplayCommand(seed));
  const ModelShape& m = Model("deepseek-v3");
  auto mean_union = [&](double skew) {
    DecodeOptions o = Opts(64, 0);
    o.skew = skew;
    o.seed = seed;
    const DecodeGenerator gen(m, kPaperConfig, o);
    const auto plan = gen.Plan(0);
    double sum = 0, n = 0;
    for (const auto& ph : plan.phases) {
      if (ph.kind != PhaseKind::kMoe) continue;
      sum += static_cast<double>(ph.experts.size());
      n += 1;
    }
    return sum / n;
  };
  const double uniform = mean_union(0.0), skewed = mean_union(1.5);
  INFO("distinct experts per layer: skew 0 " << uniform << ", skew 1.5 " << skewed);
  // Uniform: 256 * (1 - C(248,64)/C(256,64)) ~ 221 expected.
  CHECK(uniform > 200);
  CHECK(uniform < 240);
  CHECK(skewed < 0.7 * uniform);

  // The first pick of a token is one draw from the popularity: rank r has p ~ 1/(r+1)^s.
  flint::sim::ZipfRouter z(m, 1.0, seed);
  std::vector<uint32_t> ex(m.top_k);
  std::vector<uint64_t> first(m.experts);
  const uint32_t n = 20000;
  for (uint32_t t = 0; t < n; ++t) {
    z.Route(0, 5, t, ex.data());
    first[ex[0]]++;
    std::set<uint32_t> distinct(ex.begin(), ex.end());
    REQUIRE(distinct.size() == m.top_k);
  }
  for (uint32_t rank : {0u, 1u, 3u}) {
    const uint32_t e = z.ExpertOfRank(5, rank);
    const double p = z.Popularity(5, e);
    CHECK(p / z.Popularity(5, z.ExpertOfRank(5, 0)) == Approx(1.0 / (rank + 1)));
    const double sd = std::sqrt(p * (1 - p) / n);
    INFO("rank " << rank << " expected " << p << " got " << first[e] / double(n));
    CHECK(std::abs(first[e] / double(n) - p) < 5 * sd);
  }
  // Ranks are permuted per layer: the hottest expert differs across some layers.
  std::set<uint32_t> hottest;
  for (uint64_t l = 3; l < 20; ++l) hottest.insert(z.ExpertOfRank(l, 0));
  CHECK(hottest.size() > 1);
}

TEST_CASE("workloads: each SM walks its tile in ascending order", "[sim][workload][directed]") {
  const ModelShape& m = Model("tiny-medium");
  for (uint64_t tile : {uint64_t{0}, uint64_t{4}}) {
    INFO("tile_lines " << tile);
    DecodeOptions o = Opts(4);
    o.sms = 12;
    o.tile_lines = tile;
    DecodeGenerator gen(m, kMediumConfig, o);
    const auto& lay = gen.layout();
    // (phase, sm, tensor) -> lines in emission order
    std::map<std::tuple<uint64_t, uint32_t, uint32_t>, std::vector<uint64_t>> walk;
    for (const auto& x : EmitAll(gen)) {
      const uint64_t line = gen.LineOf(x.r.address);
      const uint32_t t = lay.TensorAtLine(line);
      REQUIRE(t != WeightLayout::kNone);
      walk[{x.phase, x.r.sm, t}].push_back(line);
    }
    REQUIRE_FALSE(walk.empty());
    for (const auto& [key, lines] : walk) {
      REQUIRE(std::is_sorted(lines.begin(), lines.end()));
      const auto& ts = lay.tensors()[std::get<2>(key)];
      const uint64_t first = ts.offset / lay.cl_bytes();
      const uint64_t len = ts.Lines(lay.cl_bytes());
      const uint32_t sm = std::get<1>(key);
      if (std::get<0>(key) == 0) continue;  // embedding rows are tiled per row run
      if (tile == 0) {
        // One contiguous tile: lines [len*sm/N, len*(sm+1)/N) of the tensor, all of them.
        REQUIRE(lines.front() == first + len * sm / o.sms);
        REQUIRE(lines.back() == first + len * (sm + 1) / o.sms - 1);
        REQUIRE(lines.size() == lines.back() - lines.front() + 1);
      } else {
        for (uint64_t line : lines) REQUIRE((line - first) / tile % o.sms == sm);
      }
    }
  }
}

TEST_CASE("workloads: requests of many SMs interleave", "[sim][workload][directed]") {
  DecodeOptions o = Opts(4);
  o.sms = 16;
  o.jitter = 0;
  o.issue_interval = 1;  // one line per SM per cycle: a pure round-robin
  DecodeGenerator gen(Model("tiny-medium"), kMediumConfig, o);
  const auto e = EmitAll(gen);
  // Without jitter every SM issues on the same grid: at one cycle, ascending SM ids.
  for (size_t i = 1; i < e.size(); ++i) {
    if (e[i].r.cycle == e[i - 1].r.cycle) REQUIRE(e[i].r.sm > e[i - 1].r.sm);
  }
  // In a long phase, every window of 64 requests holds many SMs and few repeats in a row.
  uint64_t checked = 0;
  for (size_t i = 0; i + 64 <= e.size(); i += 64) {
    if (e[i].phase != e[i + 63].phase || e[i].phase == 0) continue;
    std::set<uint32_t> sms;
    uint32_t same_as_prev = 0;
    for (size_t j = i; j < i + 64; ++j) {
      sms.insert(e[j].r.sm);
      if (j > i && e[j].r.sm == e[j - 1].r.sm) ++same_as_prev;
    }
    REQUIRE(sms.size() >= 12);
    REQUIRE(same_as_prev < 8);
    ++checked;
  }
  CHECK(checked > 100);
}

TEST_CASE("workloads: the next layer starts after the previous one ends",
          "[sim][workload][directed]") {
  DecodeOptions o = Opts(4);
  o.steps = 2;
  o.layer_gap_cycles = 10;
  DecodeGenerator gen(Model("tiny-small"), kSmallConfig, o);
  const auto e = EmitAll(gen);
  const auto sum = gen.Summarize();
  std::map<std::pair<uint64_t, uint64_t>, std::pair<uint64_t, uint64_t>> span;  // min, max
  for (const auto& x : e) {
    auto [it, fresh] = span.try_emplace({x.step, x.phase}, x.r.cycle, x.r.cycle);
    if (!fresh) {
      it->second.first = std::min(it->second.first, x.r.cycle);
      it->second.second = std::max(it->second.second, x.r.cycle);
    }
  }
  REQUIRE(span.size() == 2 * (Model("tiny-small").layers + 2));
  for (auto it = span.begin(); std::next(it) != span.end(); ++it) {
    const auto nx = std::next(it);
    INFO("step " << it->first.first << " phase " << it->first.second);
    CHECK(nx->second.first >= it->second.second + 1 + o.layer_gap_cycles);
    const auto& ps = sum[it->first.first].phases[it->first.second];
    CHECK(it->second.first >= ps.start_cycle);
    CHECK(it->second.second < ps.end_cycle);
  }
}

TEST_CASE("workloads: routing files are parsed strictly", "[sim][workload][corner]") {
  const ModelShape& m = Model("tiny-small");  // MoE layers 1..3, 8 experts, top-2
  SECTION("round trip and wrap-around") {
    flint::sim::ZipfRouter z(m, 0.8, 7);
    std::stringstream file;
    flint::sim::WriteRouting(file, m, z, 3, 2);
    const RoutingTrace rt = RoutingTrace::Parse(file, m, 3, "rt");
    CHECK(rt.steps() == 2);
    uint32_t a[2], b[2];
    for (uint64_t s = 0; s < 4; ++s) {
      for (uint64_t l = 1; l < 4; ++l) {
        for (uint32_t t = 0; t < 3; ++t) {
          z.Route(s % 2, l, t, a);
          rt.Route(s, l, t, b);
          REQUIRE(a[0] == b[0]);
          REQUIRE(a[1] == b[1]);
        }
      }
    }
  }
  SECTION("every malformed file names its line") {
    const std::string ok = "0 1 0 1 2\n0 2 0 3 4\n0 3 0 5 6\n";
    struct Case {
      std::string text;
      const char* expect;
    };
    const Case cases[] = {
        {"0 1 0 1\n", "r:1: expected '<step> <layer> <token>' and 2 expert ids"},
        {"0 1 0 1 2 3\n", "r:1: expected"},
        {"x 1 0 1 2\n", "r:1: step 'x' is not a decimal number"},
        {"0 -1 0 1 2\n", "r:1: layer '-1' is not a decimal number"},
        {"0 0 0 1 2\n", "r:1: layer 0 is a dense layer"},
        {"0 9 0 1 2\n", "r:1: layer 9 does not exist"},
        {"0 1 1 1 2\n", "r:1: token 1 is outside the batch of 1"},
        {"0 1 0 1 8\n", "r:1: expert 8 does not exist"},
        {"0 1 0 4 4\n", "r:1: expert 4 is listed twice"},
        {"0 1 0 1 z\n", "r:1: expert 'z' is not a decimal number"},
        {ok + "# again\n0 2 0 1 2\n",
         "r:5: step 0 layer 2 token 0 is routed again (first on line 2)"},
        {"0 1 0 1 2\n0 3 0 5 6\n", "r:2: step 0 layer 2 token 0 is not routed"},
        {"1 1 0 1 2\n1 2 0 3 4\n1 3 0 5 6\n", "r:3: step 0 has no lines"},
        {"# nothing\n\n", "r:2: no routing lines"},
    };
    std::istringstream good(ok);
    CHECK_NOTHROW(RoutingTrace::Parse(good, m, 1, "r"));
    for (const auto& c : cases) {
      INFO("file: " << c.text);
      std::istringstream in(c.text);
      std::string err;
      try {
        RoutingTrace::Parse(in, m, 1, "r");
      } catch (const RoutingError& e) {
        err = e.what();
      }
      REQUIRE_FALSE(err.empty());
      CHECK(err.find(c.expect) == 0);
    }
    CHECK_THROWS_AS(RoutingTrace::ReadFile("/nonexistent/routing.txt", m, 1), RoutingError);
    std::istringstream dense("0 0 0 1\n");
    CHECK_THROWS_AS(RoutingTrace::Parse(dense, Model("tiny-dense"), 1), RoutingError);
  }
}

TEST_CASE("workloads: bad options are rejected with a clear message", "[sim][workload][corner]") {
  auto error = [](const ModelShape& m, const flint::Config& cfg, const DecodeOptions& o) {
    try {
      DecodeGenerator g(m, cfg, o);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const ModelShape& tiny = Model("tiny-small");
  auto with = [](auto f) {
    DecodeOptions o;
    f(o);
    return o;
  };
  CHECK(error(Model("deepseek-v3"), kSmallConfig, DecodeOptions{}).find("use a tiny-* model") !=
        std::string::npos);
  CHECK(error(Model("tiny-medium"), kSmallConfig, DecodeOptions{}).find("needs") !=
        std::string::npos);
  CHECK(error(tiny, kSmallConfig, with([](DecodeOptions& o) { o.batch = 0; })).find("batch") == 0);
  CHECK(error(tiny, kSmallConfig, with([](DecodeOptions& o) { o.steps = 0; })).find("tokens") == 0);
  CHECK(error(tiny, kSmallConfig, with([](DecodeOptions& o) { o.sms = 0; })).find("sms") == 0);
  CHECK(error(tiny, kSmallConfig, with([](DecodeOptions& o) { o.stacks = 0; })).find("stacks") ==
        0);
  CHECK(error(tiny, kSmallConfig, with([](DecodeOptions& o) { o.stack = 8; }))
            .find("stack 8 does not exist") == 0);
  CHECK(error(tiny, kSmallConfig, with([](DecodeOptions& o) { o.skew = -1; })).find("skew") == 0);
  CHECK(error(tiny, kSmallConfig, with([](DecodeOptions& o) { o.skew = NAN; })).find("skew") == 0);
  CHECK(error(tiny, kSmallConfig, with([](DecodeOptions& o) { o.jitter = 1; })).find("jitter") ==
        0);
  CHECK(error(tiny, kSmallConfig, with([](DecodeOptions& o) { o.issue_interval = -2; }))
            .find("issue interval") == 0);
  std::istringstream file("0 1 0 1 2\n0 2 0 3 4\n0 3 0 5 6\n");
  auto rt = std::make_shared<RoutingTrace>(RoutingTrace::Parse(file, tiny, 1));
  CHECK(error(tiny, kSmallConfig, with([&](DecodeOptions& o) {
                o.router = rt;
                o.batch = 2;
              }))
            .find("routing file routes a batch of 1, the run has 2") != std::string::npos);
  CHECK(error(Model("tiny-dense"), kSmallConfig, with([&](DecodeOptions& o) { o.router = rt; }))
            .find("is dense") != std::string::npos);
  CHECK(error(tiny, kSmallConfig, DecodeOptions{}).empty());
}

TEST_CASE("workloads: default issue rate asks for the D2D peak of all stacks",
          "[sim][workload][directed]") {
  const DecodeGenerator p(Model("deepseek-v3"), kPaperConfig, Opts(1, 0));
  CHECK(p.issue_interval() == Approx(148.0 / (8 * kPaperConfig.lanes)));
  DecodeOptions o = Opts(4);
  o.jitter = 0;
  o.sms = 8;
  o.issue_interval = 3;
  DecodeGenerator g(Model("tiny-medium"), kMediumConfig, o);
  // Without jitter an SM's k-th line of a phase issues at phase start + 3k.
  std::map<std::pair<uint64_t, uint32_t>, std::vector<uint64_t>> per;
  for (const auto& x : EmitAll(g)) per[{x.phase, x.r.sm}].push_back(x.r.cycle);
  const auto sum = g.Summarize();
  for (const auto& [key, cycles] : per) {
    const uint64_t start = sum[0].phases[key.first].start_cycle;
    for (size_t k = 0; k < cycles.size(); ++k) REQUIRE(cycles[k] == start + 3 * k);
  }
}
