// The closed loop of the decode generator (docs/workloads.md "Closed loop"): each SM holds at
// most K lines in flight and issues its next at the later of its pace and the cycle a response
// frees a slot; a kernel ends when its last response is in. Driven here by a stand-in engine of
// fixed latency and by the two engines of model/ (FLINT's BBC golden model, H3) through
// sim/engines/engine_feed. Pinned: no SM ever has more than K requests outstanding (counted from
// the requests' cycles and their responses' cycles) and a slow engine reaches K; with K large and a
// fast engine the closed loop is the open-loop stream exactly; a slow engine stretches the
// closed-loop stream and leaves the open-loop one alone; no request of a kernel issues before
// the previous kernel's last response; every request gets exactly one response in both modes;
// the runs end (a source left waiting with nothing in flight is an error, not a hang); bad
// options and a response that breaks the engines' contract are refused.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <queue>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "model/h3/h3_model.hpp"
#include "sim/engines/engine_feed.hpp"
#include "sim/engines/h3_hints.hpp"
#include "sim/workload/workload_gen.hpp"
#include "sim/workload/workload_model.hpp"

namespace {

using flint::model::BbcResponse;
using flint::model::SourceReply;
using flint::sim::DecodeGenerator;
using flint::sim::DecodeOptions;
using flint::sim::KernelStage;
using flint::sim::TraceRequest;
using flint::sim::WorkLoop;
using flint::sim::WorkOrder;
using Kind = DecodeGenerator::Reply::Kind;

const flint::sim::ModelShape& Tiny() { return *flint::sim::FindModel("tiny-medium"); }

DecodeOptions Opts(WorkLoop loop, uint64_t max_outstanding = 0) {
  DecodeOptions o;
  o.batch = 2;
  o.sms = 16;
  o.stacks = 8;
  o.stack = 0;
  o.jitter = 0;
  o.cta_lines = 16;
  o.order = WorkOrder::kCta;
  o.loop = loop;
  o.max_outstanding = max_outstanding;
  return o;
}

struct Issued {
  TraceRequest req;
  uint64_t response = 0;  // the cycle its response reached the SM
  uint64_t step = 0, phase = 0;
};

// A stand-in engine: takes each request at its cycle (or when it is handed out, if later) and
// answers it at respond(n, that cycle) for the n-th request. It keeps the engines' side of
// Poll's contract: every response of cycle <= now is delivered before asking at `now`.
std::vector<Issued> Drive(DecodeGenerator& gen,
                          const std::function<uint64_t(size_t, uint64_t)>& respond) {
  std::vector<Issued> out;
  using Due = std::pair<uint64_t, size_t>;  // (response cycle, request index)
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due;
  uint64_t now = 0;
  for (;;) {
    const DecodeGenerator::Reply r = gen.Poll(now);
    if (r.kind == Kind::kDone) break;
    if (r.kind == Kind::kRequest) {
      now = std::max(now, r.request.cycle);
      const uint64_t at = respond(out.size(), now);
      REQUIRE(at > now);
      out.push_back({r.request, at, gen.current_step(), gen.current_phase()});
      due.push({at, out.size() - 1});
      continue;
    }
    REQUIRE((r.wake != DecodeGenerator::kNoWake || !due.empty()));  // else: deadlock
    REQUIRE((r.wake == DecodeGenerator::kNoWake || r.wake > now));
    now = std::min(r.wake, due.empty() ? DecodeGenerator::kNoWake : due.top().first);
    while (!due.empty() && due.top().first <= now) {
      gen.Respond(out[due.top().second].req.sm, due.top().first);
      due.pop();
    }
  }
  return out;
}

std::vector<Issued> RunFixed(DecodeGenerator& gen, uint64_t latency) {
  return Drive(gen, [&](size_t, uint64_t at) { return at + latency; });
}

// The most requests one SM had outstanding at once: at each request's cycle, its SM's requests
// issued at or before it whose response comes after it.
uint64_t MaxInFlight(const std::vector<Issued>& run) {
  std::map<uint32_t, std::vector<const Issued*>> by_sm;
  for (const Issued& i : run) by_sm[i.req.sm].push_back(&i);
  uint64_t worst = 0;
  for (const auto& [sm, list] : by_sm) {
    for (size_t k = 0; k < list.size(); ++k) {
      const uint64_t t = list[k]->req.cycle;
      uint64_t n = 0;
      for (size_t j = 0; j < list.size() && list[j]->req.cycle <= t; ++j) {
        n += list[j]->response > t;
      }
      worst = std::max(worst, n);
    }
  }
  return worst;
}

std::vector<TraceRequest> Requests(const std::vector<Issued>& run) {
  std::vector<TraceRequest> out;
  for (const Issued& i : run) out.push_back(i.req);
  return out;
}

// The kernel (step, phase, stage) of every request, in stream order.
std::vector<std::tuple<uint64_t, uint64_t, uint32_t>> Kernels(const DecodeGenerator& gen,
                                                              const std::vector<Issued>& run) {
  std::map<std::pair<uint64_t, uint64_t>, std::map<uint64_t, uint32_t>> stage_of;  // first line
  std::vector<std::tuple<uint64_t, uint64_t, uint32_t>> out;
  for (const Issued& i : run) {
    auto [it, fresh] = stage_of.try_emplace({i.step, i.phase});
    if (fresh) {
      const flint::sim::StepPlan plan = gen.Plan(i.step);
      for (const auto& w : plan.phases.at(i.phase).items) {
        it->second[w.first_line] = KernelStage(gen.layout().tensors()[w.tensor].name);
      }
    }
    const uint64_t line = gen.LineOf(i.req.address);
    out.emplace_back(i.step, i.phase, std::prev(it->second.upper_bound(line))->second);
  }
  return out;
}

}  // namespace

TEST_CASE("closed loop: no SM ever has more than K lines outstanding, and a slow engine fills K",
          "[sim][workload][closed]") {
  for (const uint64_t k : {1ull, 4ull, 16ull}) {
    for (const uint64_t latency : {3ull, 500ull}) {
      INFO("K " << k << " latency " << latency);
      DecodeGenerator gen(Tiny(), flint::kMediumConfig, Opts(WorkLoop::kClosed, k));
      REQUIRE(gen.max_outstanding() == k);
      const auto run = RunFixed(gen, latency);
      REQUIRE(!run.empty());
      CHECK(MaxInFlight(run) <= k);
      if (latency == 500) CHECK(MaxInFlight(run) == k);  // the limit is what held the SMs
      for (size_t i = 1; i < run.size(); ++i) REQUIRE(run[i].req.cycle >= run[i - 1].req.cycle);
    }
  }
  // The default K is a thread block's lines.
  DecodeGenerator def(Tiny(), flint::kMediumConfig, Opts(WorkLoop::kClosed));
  CHECK(def.max_outstanding() == 16);
  CHECK(MaxInFlight(RunFixed(def, 500)) == 16);
}

TEST_CASE("closed loop: with K large and a fast engine it is the open-loop stream exactly",
          "[sim][workload][closed]") {
  for (const uint64_t steps : {1ull, 2ull}) {
    DecodeOptions open = Opts(WorkLoop::kOpen);
    DecodeOptions closed = Opts(WorkLoop::kClosed, 1ull << 30);
    open.steps = closed.steps = steps;
    // 148 SMs: a pace of 4.6 cycles a line, so a 1-cycle response never holds a kernel's end.
    open.sms = closed.sms = 148;
    open.jitter = closed.jitter = 0.05;  // uneven SM rates: ties and fractions must agree too
    DecodeGenerator a(Tiny(), flint::kMediumConfig, open);
    DecodeGenerator b(Tiny(), flint::kMediumConfig, closed);
    std::vector<TraceRequest> ref;
    while (auto r = a.Next()) ref.push_back(*r);
    const auto run = RunFixed(b, 1);
    REQUIRE(ref.size() > 1000);
    CHECK(Requests(run) == ref);
    CHECK(b.phase_starts() == a.phase_starts());
  }
}

TEST_CASE("closed loop: a slow engine stretches the closed-loop stream, never the open-loop one",
          "[sim][workload][closed]") {
  auto last = [](const std::vector<Issued>& run) { return run.back().req.cycle; };
  DecodeGenerator open_fast(Tiny(), flint::kMediumConfig, Opts(WorkLoop::kOpen));
  DecodeGenerator open_slow(Tiny(), flint::kMediumConfig, Opts(WorkLoop::kOpen));
  const auto of = RunFixed(open_fast, 3), os = RunFixed(open_slow, 2000);
  CHECK(Requests(of) == Requests(os));  // open loop: the engine does not move a request
  DecodeGenerator closed_fast(Tiny(), flint::kMediumConfig, Opts(WorkLoop::kClosed));
  DecodeGenerator closed_slow(Tiny(), flint::kMediumConfig, Opts(WorkLoop::kClosed));
  const auto cf = RunFixed(closed_fast, 3), cs = RunFixed(closed_slow, 2000);
  REQUIRE(cf.size() == of.size());
  REQUIRE(cs.size() == of.size());
  // A fast engine keeps up with the pace; a slow one holds every SM for its data.
  CHECK(last(cf) < last(of) + last(of) / 10);
  CHECK(last(cs) > 2 * last(of));
  // Request by request (the same lines, in the same order of one SM), never earlier.
  std::map<uint32_t, std::vector<uint64_t>> fast, slow;
  for (const Issued& i : cf) fast[i.req.sm].push_back(i.req.cycle);
  for (const Issued& i : cs) slow[i.req.sm].push_back(i.req.cycle);
  uint64_t later = 0;
  for (const auto& [sm, cycles] : fast) {
    REQUIRE(slow[sm].size() == cycles.size());
    for (size_t j = 0; j < cycles.size(); ++j) later += slow[sm][j] > cycles[j];
  }
  CHECK(later > cf.size() / 2);
}

TEST_CASE("closed loop: a kernel's first request waits for the previous kernel's last response",
          "[sim][workload][closed]") {
  for (const uint64_t latency : {3ull, 800ull}) {
    INFO("latency " << latency);
    DecodeGenerator gen(Tiny(), flint::kMediumConfig, Opts(WorkLoop::kClosed));
    const auto run = RunFixed(gen, latency);
    const auto kernel = Kernels(gen, run);
    uint64_t last_response = 0, kernels = 1;
    for (size_t i = 1; i < run.size(); ++i) {
      if (kernel[i] != kernel[i - 1]) {
        ++kernels;
        last_response = 0;
        for (size_t j = 0; j < i; ++j) last_response = std::max(last_response, run[j].response);
        INFO("request " << i);
        REQUIRE(run[i].req.cycle >= last_response);
      }
    }
    CHECK(kernels > 10);
  }
}

TEST_CASE("closed loop: open-loop phase starts are Summarize's intent times",
          "[sim][workload][closed]") {
  for (const WorkOrder order : {WorkOrder::kTiled, WorkOrder::kCta}) {
    DecodeOptions o = Opts(WorkLoop::kOpen);
    o.order = order;
    o.steps = 2;
    DecodeGenerator gen(Tiny(), flint::kMediumConfig, o);
    std::vector<uint64_t> want;
    for (const auto& s : gen.Summarize()) {
      for (const auto& p : s.phases) want.push_back(p.start_cycle);
    }
    while (gen.Next()) {
    }
    CHECK(gen.phase_starts() == want);
  }
}

TEST_CASE("closed loop: H3's layer-ahead hints follow the phases the workload really reaches",
          "[sim][workload][closed]") {
  DecodeGenerator gen(Tiny(), flint::kMediumConfig, Opts(WorkLoop::kClosed));
  std::vector<uint64_t> timed_by;
  const auto intent = flint::sim::MakeH3Hints(gen, {}, &timed_by);
  REQUIRE(timed_by.size() == intent.size());
  std::vector<uint64_t> starts;  // Summarize's intent times, steps x phases
  for (const auto& st : gen.Summarize()) {
    for (const auto& p : st.phases) starts.push_back(p.start_cycle);
  }
  for (size_t i = 0; i < intent.size(); ++i) REQUIRE(intent[i].cycle == starts.at(timed_by[i]));
  flint::sim::H3HintFeed feed(gen, {}, 1000);
  REQUIRE(feed.size() == intent.size());
  // Before the workload has begun, no hint is due.
  CHECK(feed.Ask(0).kind == flint::model::H3Model::HintReply::Kind::kWait);
  RunFixed(gen, 500);  // a slow engine: the phases start late
  REQUIRE(gen.phase_starts().size() == starts.size());
  uint64_t moved = 0;
  for (size_t i = 0; i < intent.size(); ++i) {
    const auto r = feed.Ask(0);
    REQUIRE(r.kind == flint::model::H3Model::HintReply::Kind::kHint);
    CHECK(r.hint.burst == intent[i].burst);
    CHECK(r.hint.cycle == 1000 + gen.phase_starts()[timed_by[i]]);
    moved += r.hint.cycle > 1000 + intent[i].cycle;
  }
  CHECK(feed.Ask(0).kind == flint::model::H3Model::HintReply::Kind::kDone);
  CHECK(moved > intent.size() / 2);
}

TEST_CASE("closed loop: bad options and broken engine contracts are refused",
          "[sim][workload][closed]") {
  using Catch::Matchers::Contains;
  DecodeOptions tiled = Opts(WorkLoop::kClosed);
  tiled.order = WorkOrder::kTiled;
  CHECK_THROWS_WITH(DecodeGenerator(Tiny(), flint::kMediumConfig, tiled),
                    Contains("closed loop needs the cta work order"));
  CHECK_THROWS_WITH(DecodeGenerator(Tiny(), flint::kMediumConfig, Opts(WorkLoop::kOpen, 8)),
                    Contains("max outstanding applies to a closed loop"));
  CHECK_THROWS_WITH(
      DecodeGenerator(Tiny(), flint::kMediumConfig, Opts(WorkLoop::kClosed, (1ull << 30) + 1)),
      Contains("max outstanding must be in 1..2^30"));
  DecodeGenerator gen(Tiny(), flint::kMediumConfig, Opts(WorkLoop::kClosed));
  CHECK_THROWS_WITH(gen.Next(), Contains("Poll and Respond"));
  DecodeGenerator::Reply r = gen.Poll(0);
  while (r.kind == Kind::kWait) r = gen.Poll(r.wake);  // the stack's first line
  REQUIRE(r.kind == Kind::kRequest);
  const uint64_t c = r.request.cycle;
  CHECK_THROWS_WITH(gen.Respond(r.request.sm + 1, c + 10), Contains("no request outstanding"));
  gen.Poll(c + 5);
  // A response at or before a cycle already asked about could have moved a request handed out.
  CHECK_THROWS_WITH(gen.Respond(r.request.sm, c + 5), Contains("after the cycle asked"));
  gen.Respond(r.request.sm, c + 6);
}

// --- The engines of model/ ------------------------------------------------------------------

namespace {

struct EngineRun {
  std::vector<Issued> issued;  // by request id
  std::vector<int> answers;    // responses per request id
  flint::model::BbcStats stats;
};

// Runs `gen` through FLINT's BBC model ("flint") or H3 ("h3") as flint-eval does, recording
// every request and response.
EngineRun RunEngine(DecodeGenerator& gen, const std::string& engine) {
  const uint64_t loaded = gen.striping().BurstsOn(gen.layout().total_bursts(), 0);
  flint::sim::EngineFeed feed(gen);
  EngineRun out;
  uint64_t offset = 0;
  auto source = [&](uint64_t now) {
    const SourceReply r = feed.Ask(now);
    if (r.kind == SourceReply::Kind::kRequest) {
      REQUIRE(r.request.id == out.issued.size());
      REQUIRE(r.request.cycle <= std::max(now, r.request.cycle));
      out.issued.push_back({TraceRequest{r.request.cycle - offset, r.request.sm, 0}, 0,
                            gen.current_step(), gen.current_phase()});
      out.answers.push_back(0);
    }
    return r;
  };
  auto sink = [&](const BbcResponse& r) {
    REQUIRE(r.id < out.issued.size());
    ++out.answers[r.id];
    out.issued[r.id].response = r.cycle - offset;
    feed.Deliver(r);
  };
  if (engine == "flint") {
    flint::model::BbcOptions o;
    o.loaded_bursts = loaded;
    flint::model::BbcModel bbc(flint::kMediumConfig, o);
    offset = bbc.Load();
    feed.set_service_start(offset);
    bbc.Run(flint::model::BbcModel::PolledSource(source), sink);
    out.stats = bbc.stats();
  } else {
    flint::model::H3Options o;
    o.loaded_bursts = loaded;
    o.evict = flint::model::H3Evict::kStrictFifo;
    flint::model::H3Model h3(flint::kMediumConfig, o);
    offset = h3.Load();
    feed.set_service_start(offset);
    if (gen.max_outstanding() != 0) {
      flint::sim::H3HintFeed hints(gen, {}, offset);
      h3.Run(flint::model::H3Model::PolledSource(source),
             [&](uint64_t now) { return hints.Ask(now); }, sink);
    } else {
      const auto hints = flint::sim::MakeH3Hints(gen);
      size_t next = 0;
      h3.Run(flint::model::H3Model::PolledSource(source),
             [&](uint64_t) {
               flint::model::H3Model::HintReply r;
               if (next == hints.size()) return r;
               r.kind = flint::model::H3Model::HintReply::Kind::kHint;
               r.hint = hints[next++];
               r.hint.cycle += offset;
               return r;
             },
             sink);
    }
    out.stats = h3.stats();
  }
  return out;
}

}  // namespace

TEST_CASE("closed loop: FLINT's and H3's models answer every request once and keep K, in both "
          "loops", "[sim][workload][closed][engine]") {
  for (const std::string engine : {"flint", "h3"}) {
    for (const WorkLoop loop : {WorkLoop::kOpen, WorkLoop::kClosed}) {
      for (const uint64_t k : {1ull, 16ull}) {
        if (loop == WorkLoop::kOpen && k != 16) continue;
        INFO(engine << " loop " << flint::sim::WorkLoopName(loop) << " K " << k);
        DecodeGenerator gen(Tiny(), flint::kMediumConfig,
                            Opts(loop, loop == WorkLoop::kClosed ? k : 0));
        const EngineRun run = RunEngine(gen, engine);
        REQUIRE(run.issued.size() > 1000);
        CHECK(run.stats.requests == run.issued.size());
        CHECK(run.stats.responses == run.issued.size());
        CHECK(std::all_of(run.answers.begin(), run.answers.end(), [](int n) { return n == 1; }));
        for (size_t i = 1; i < run.issued.size(); ++i) {
          REQUIRE(run.issued[i].req.cycle >= run.issued[i - 1].req.cycle);
        }
        if (loop == WorkLoop::kClosed) {
          // NAND latency (tR alone is 128 cycles at medium) is far above an SM's pace: K binds.
          CHECK(MaxInFlight(run.issued) == k);
        } else {
          CHECK(MaxInFlight(run.issued) > 16);  // nothing holds an open-loop SM back
        }
      }
    }
  }
}

TEST_CASE("closed loop: the engines' closed-loop streams are the generator's with the same "
          "responses", "[sim][workload][closed][engine]") {
  // Replaying the responses the BBC model gave through the stand-in engine's bookkeeping gives
  // back the same requests: the engine only delivers responses, the generator decides.
  DecodeGenerator gen(Tiny(), flint::kMediumConfig, Opts(WorkLoop::kClosed));
  const EngineRun run = RunEngine(gen, "flint");
  DecodeGenerator replay(Tiny(), flint::kMediumConfig, Opts(WorkLoop::kClosed));
  const auto again = Drive(replay, [&](size_t n, uint64_t) {
    REQUIRE(n < run.issued.size());
    return run.issued[n].response;
  });
  REQUIRE(again.size() == run.issued.size());
  for (size_t i = 0; i < again.size(); ++i) {
    INFO("request " << i);
    REQUIRE(again[i].req.cycle == run.issued[i].req.cycle);
    REQUIRE(again[i].req.sm == run.issued[i].req.sm);
  }
}

TEST_CASE("closed loop: an engine whose source waits with nothing in flight stops with an error",
          "[sim][closed][engine]") {
  // A source that never gets a request out and waits for a response: the run must end.
  auto waiting = [](uint64_t) {
    SourceReply r;
    r.kind = SourceReply::Kind::kWait;
    return r;
  };
  auto sink = [](const BbcResponse&) {};
  flint::model::BbcModel bbc(flint::kSmallConfig, {});
  bbc.Load();
  CHECK_THROWS_WITH(bbc.Run(flint::model::BbcModel::PolledSource(waiting), sink),
                    Catch::Matchers::Contains("waits for a response, but nothing is in flight"));
  flint::model::H3Model h3(flint::kSmallConfig, {});
  h3.Load();
  CHECK_THROWS_WITH(h3.Run(flint::model::H3Model::PolledSource(waiting),
                           [](uint64_t) { return flint::model::H3Model::HintReply{}; }, sink),
                    Catch::Matchers::Contains("a source waits, but nothing is in flight"));
}
