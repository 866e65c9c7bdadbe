// The decode-step workload generator (docs/workloads.md): per decode step, per layer in order,
// the weight tensors the batch needs (attention and dense/shared always, routed experts = the
// union of the batch's top-k draws), each read as a GEMV/GEMM tiled over the accelerator's SMs,
// merged into one cache-line miss stream in the trace format (docs/trace_format.md). Streams:
// nothing holds more than one step's plan and one cursor per SM.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "sim/workload/trace.hpp"
#include "sim/workload/workload_model.hpp"
#include "sim/workload/workload_routing.hpp"

namespace flint::sim {

inline constexpr int64_t kAllStacks = -1;

// How a phase's lines are split over the SMs (docs/workloads.md "GPU work order").
//   kTiled: the original order: one contiguous tile per SM per tensor (tile_lines = 0) or
//           tile_lines-line chunks dealt round-robin from SM 0 for every tensor; no barrier
//           inside a phase.
//   kCta:   kernels as a GPU runs them: a phase is split into kernels at its data
//           dependencies (attention in -> attention out -> router -> gate/up -> down), with a
//           barrier between kernels; each kernel's tensors are cut into thread blocks (CTAs) of
//           cta_lines lines, dispatched in order to whichever SM frees first (ties: lowest SM).
enum class WorkOrder : uint8_t { kTiled, kCta };
const char* WorkOrderName(WorkOrder o);

// Whether the SMs wait for data (docs/workloads.md "Closed loop").
//   kOpen:   every SM issues at its own fixed pace and never waits: cycles are intent, and the
//            stream is the same whatever serves it.
//   kClosed: kCta only. An SM holds at most max_outstanding lines in flight; its next line issues
//            at the later of its pace and the cycle a response frees one of its slots; a kernel
//            ends when the last response of its lines has arrived. The stream depends on the
//            engine: it is driven with Poll() and Respond() instead of Next().
enum class WorkLoop : uint8_t { kOpen, kClosed };
const char* WorkLoopName(WorkLoop l);

struct DecodeOptions {
  uint32_t batch = 1;  // sequences decoded together
  uint64_t steps = 1;  // decode steps; each produces one token per sequence
  uint64_t seed = 1;
  double skew = 0.5;                     // Zipf exponent of expert popularity (0 = uniform)
  std::shared_ptr<const Router> router;  // if set, replaces the Zipf draw (e.g. RoutingTrace)
  uint32_t sms = 148;                    // B200 (paper Table 2)
  uint32_t stacks = 8;                   // HBF stacks the weights are striped over (paper Table 2)
  int64_t stack = 0;                     // the stack whose requests are emitted, or kAllStacks
  // Cycles (base-die clock) between two lines of one SM; 0 = sms / (stacks * lanes), i.e. the
  // SMs together ask for exactly the D2D peak of all stacks.
  double issue_interval = 0;
  double jitter = 0.05;     // per phase: SM rates spread +-jitter, starts staggered over
                            // jitter x the phase's mean per-SM issue time
  uint64_t tile_lines = 0;  // 0: one contiguous tile per SM per tensor; K: K-line chunks dealt
                            // round-robin over the SMs
  uint64_t layer_gap_cycles = 0;  // idle cycles between the end of a layer and the next
  WorkOrder order = WorkOrder::kTiled;
  uint64_t cta_lines = 64;  // kCta: lines one thread block reads (the SM's lines in flight)
  WorkLoop loop = WorkLoop::kOpen;
  // kClosed: lines of the emitted stack one SM may have outstanding; 0 = cta_lines (one thread
  // block's lines in flight).
  uint64_t max_outstanding = 0;
};

// kCta: the kernel (dependency stage) a tensor belongs to inside its phase, by its role:
// 0 attention inputs (q/k/v, q_a, kv_a, kv), 1 their second LoRA half (q_b, kv_b), 2 the
// attention output (o, o_a), 3 o_b, 4 the router, 5 gate/up (dense, shared and routed experts
// together: one grouped GEMM), 6 down. Embedding and LM head are 0.
uint32_t KernelStage(const char* tensor_name);

// Throws std::invalid_argument with a message naming the bad option.
void ValidateDecodeOptions(const ModelShape& model, const Config& config,
                           const DecodeOptions& options);

// Lines [first_line, first_line + lines) of the model-logical line space, read by one GEMV.
struct WorkItem {
  uint64_t first_line = 0;
  uint64_t lines = 0;
  uint32_t tensor = 0;
};

enum class PhaseKind : uint8_t { kEmbed, kDense, kMoe, kHead };
const char* PhaseKindName(PhaseKind k);

// One barrier-separated phase of a step: the embedding rows, one layer, or the LM head.
struct PhasePlan {
  PhaseKind kind = PhaseKind::kEmbed;
  int64_t layer = -1;
  std::vector<WorkItem> items;    // in ascending address order
  std::vector<uint32_t> experts;  // MoE layers: union of the batch's routed experts, ascending
};

struct StepPlan {
  uint64_t step = 0;
  std::vector<uint32_t> tokens;               // embedding rows read (one per sequence)
  std::vector<std::vector<uint32_t>> routes;  // [layer][token * top_k + j]; empty if dense
  std::vector<PhasePlan> phases;              // embed, layers 0..L-1, head
};

struct PhaseSummary {
  PhaseKind kind = PhaseKind::kEmbed;
  int64_t layer = -1;
  uint64_t experts = 0;      // distinct routed experts (MoE)
  uint64_t lines = 0;        // requested lines, every stack
  uint64_t bursts = 0;       // distinct bursts touched, every stack
  uint64_t stack_lines = 0;  // on the emitted stack (== lines for kAllStacks)
  uint64_t stack_bursts = 0;
  uint64_t start_cycle = 0;  // intent times
  uint64_t end_cycle = 0;    // one past the phase's last intended issue
};

struct StepSummary {
  uint64_t step = 0;
  std::vector<PhaseSummary> phases;
  uint64_t lines = 0;
  uint64_t bursts = 0;
  uint64_t stack_lines = 0;
  uint64_t stack_bursts = 0;
  uint64_t start_cycle = 0;
  uint64_t end_cycle = 0;
};

class DecodeGenerator {
 public:
  // Validates (ValidateDecodeOptions) and lays the model out for `config`.
  DecodeGenerator(const ModelShape& model, const Config& config, DecodeOptions options);

  const ModelShape& model() const { return *model_; }
  const WeightLayout& layout() const { return layout_; }
  const DecodeOptions& options() const { return opt_; }
  const Striping& striping() const { return striping_; }
  double issue_interval() const { return interval_; }
  // The router in use (the Zipf one unless options().router was given); nullptr if dense.
  const Router* router() const { return router_.get(); }

  // What step `step` reads: a pure function of (seed, step), independent of Next().
  StepPlan Plan(uint64_t step) const;
  // Per-step, per-phase counts and intent times for steps 0..steps-1, without emitting.
  std::vector<StepSummary> Summarize() const;

  // The next request in cycle order (ties by SM id), or nullopt after the last step. Open loop
  // only (throws std::logic_error in closed loop: use Poll).
  std::optional<TraceRequest> Next();

  // What the generator says when asked at cycle `now` (the engine's clock, in the generator's
  // cycles): the next request, or nothing before cycle `wake` (kNoWake: nothing until a
  // response), or done. Open loop: Next()'s requests, whatever `now` is. Closed loop: a request
  // only once its cycle is <= now, so every response that could move it has been delivered;
  // the caller must deliver, through Respond(), every response of cycle <= now before asking
  // at `now`.
  static constexpr uint64_t kNoWake = UINT64_MAX;
  struct Reply {
    enum class Kind : uint8_t { kRequest, kWait, kDone } kind = Kind::kDone;
    TraceRequest request;     // kRequest
    uint64_t wake = kNoWake;  // kWait
  };
  Reply Poll(uint64_t now);
  // A response to one of `sm`'s requests, reaching the SM at `cycle`. Closed loop: frees one of
  // its slots from `cycle` on; throws std::logic_error for an SM with nothing outstanding or a
  // cycle not after the last `now` asked (the engine broke Poll's contract). Open loop:
  // ignored.
  void Respond(uint32_t sm, uint64_t cycle);
  // Closed loop: the slot limit in use (max_outstanding, or cta_lines for 0); 0 in open loop.
  uint64_t max_outstanding() const { return max_out_; }
  // Streams every remaining request into `sink`; returns how many.
  uint64_t Run(const std::function<void(const TraceRequest&)>& sink);
  // The step and phase of the request Next() returned last (phase 0 = embedding, 1 + l =
  // layer l, layers + 1 = LM head).
  uint64_t current_step() const { return step_; }
  uint64_t current_phase() const { return phase_; }
  // The start cycle of every phase begun so far, steps x phases in order: Summarize's intent
  // times in open loop, the real ones (moved by the responses) in closed loop.
  const std::vector<uint64_t>& phase_starts() const { return phase_starts_; }

  // Trace address of model-logical line `line` (stack-local when one stack is emitted).
  uint64_t Address(uint64_t line) const;
  // Model-logical line of a trace address (inverse of Address for the emitted stack).
  uint64_t LineOf(uint64_t address) const;

 private:
  struct SmTiming {
    uint64_t base = 0;    // first issue cycle
    uint64_t iv_q16 = 0;  // cycles per line, 16.16 fixed point
    uint64_t lines = 0;   // lines of the phase this SM reads (every stack)
  };
  struct Cursor {
    uint32_t item = 0;
    uint64_t chunk = 0;
    uint64_t line = 0;
    uint64_t end = 0;
    uint64_t run_end = 0;
    uint64_t k = 0;
    uint64_t base = 0;
    uint64_t iv_q16 = 0;
    uint64_t pending_line = 0;
    uint64_t pending_cycle = 0;
  };
  struct HeapEntry {
    uint64_t cycle;
    uint32_t sm;
  };

  uint64_t TileLines(const WorkItem& item, uint32_t sm) const;
  std::vector<SmTiming> Timing(const PhasePlan& phase, uint64_t step, uint64_t phase_index,
                               uint64_t start, uint64_t* end) const;
  bool LoadChunk(Cursor& c, uint32_t sm) const;
  bool Advance(Cursor& c, uint32_t sm) const;
  bool StartPhase();
  void SiftDown(size_t i);
  // kCta: the phase's kernels (items grouped by KernelStage, in stage order).
  std::vector<std::vector<WorkItem>> Kernels(const PhasePlan& phase) const;
  // kCta: per-SM cycles a line (16.16) for one phase.
  std::vector<uint64_t> CtaRates(uint64_t step, uint64_t phase_index) const;
  // kCta: one phase's end (one past the last SM's free cycle) without emitting.
  uint64_t CtaPhaseEnd(const PhasePlan& phase, uint64_t step, uint64_t phase_index,
                       uint64_t start) const;
  bool StartKernelCta();
  Reply NextCta(uint64_t now);  // open loop: now = kNoWake (never waits)

  struct CtaSm {
    uint64_t t_q16 = 0;  // next line's issue time at the SM's pace, or its free time (line == end)
    uint64_t line = 0, end = 0;
    uint64_t iv_q16 = 0;
    // Closed loop: requests whose response has not been delivered, and the cycles of delivered
    // responses still ahead of t_q16 (a min-heap): together, the slots held at t_q16.
    uint64_t undelivered = 0;
    std::vector<uint64_t> frees;
  };
  struct CtaQueue {  // the kernel's CTAs still to dispatch
    const std::vector<WorkItem>* items = nullptr;
    size_t item = 0;
    uint64_t offset = 0;
    bool Take(uint64_t cta_lines, uint64_t* first, uint64_t* end);
  };
  struct CtaHeapLess {
    const std::vector<CtaSm>* sms;
    bool operator()(uint32_t a, uint32_t b) const;  // true if a is later than b
  };
  // The running kernel's SMs by key_q16 (ties: lowest SM id): a binary min-heap that knows
  // where each SM sits, so a response can move an SM up.
  // An SM's key lives in its heap entry, so the heap's moves compare without reaching into
  // cta_sms_ (the sift of the SM that just issued is most of the generator's time).
  struct CtaHeapEntry {
    uint64_t key_q16;  // t_q16, or in closed loop when the SM can issue (UINT64_MAX: not before
                       // a response)
    uint32_t sm;
  };
  static bool Earlier(const CtaHeapEntry& a, const CtaHeapEntry& b) {
    return a.key_q16 < b.key_q16 || (a.key_q16 == b.key_q16 && a.sm < b.sm);
  }
  void HeapMove(size_t i);  // restores the heap around position i
  void HeapRemoveTop();
  void Rekey(uint32_t sm);  // recomputes key_q16 and moves the SM in the heap
  // Closed loop: when the SM has a slot (UINT64_MAX: not before a response); drops the frees
  // its pace has passed.
  uint64_t ReadyQ16(CtaSm& s) const;
  std::vector<std::vector<WorkItem>> kernels_;
  size_t kernel_ = 0;
  uint64_t barrier_q16_ = 0;  // the latest free time of the running kernel's SMs
  CtaQueue ctas_;
  std::vector<CtaSm> cta_sms_;
  std::vector<CtaHeapEntry> cta_heap_;
  std::vector<size_t> cta_pos_;  // per SM, its index in cta_heap_ (SIZE_MAX: not in it)
  std::vector<uint64_t> cta_rates_;
  // Closed loop.
  uint64_t max_out_ = 0;
  uint64_t outstanding_ = 0;        // requests of the running kernel without a response yet
  uint64_t last_response_ = 0;      // the latest response cycle of the running kernel
  uint64_t horizon_ = 0;            // the latest `now` asked

  const ModelShape* model_;
  Config config_;
  DecodeOptions opt_;
  WeightLayout layout_;
  Striping striping_;
  std::shared_ptr<const Router> router_;
  double interval_ = 0;
  uint64_t interval_q16_ = 0;
  uint32_t lpb_shift_ = 0;
  bool all_stacks_ = false;
  uint32_t target_ = 0;

  // Streaming state.
  std::optional<StepPlan> plan_;
  const std::vector<WorkItem>* items_ = nullptr;
  uint64_t next_step_ = 0;
  uint64_t step_ = 0;
  uint64_t phase_ = 0;
  uint64_t phase_end_ = 0;
  bool started_ = false;
  std::vector<uint64_t> phase_starts_;
  std::vector<Cursor> cursors_;
  std::vector<HeapEntry> heap_;
};

// Writes requests as trace text, buffered (the same lines sim/workload/trace.hpp's WriteTrace
// writes).
class TraceTextWriter {
 public:
  explicit TraceTextWriter(std::ostream& out);
  ~TraceTextWriter();
  TraceTextWriter(const TraceTextWriter&) = delete;
  TraceTextWriter& operator=(const TraceTextWriter&) = delete;
  void Comment(const std::string& text);  // one '# ...' line per line of text
  void Write(const TraceRequest& r);
  void Flush();

 private:
  std::ostream& out_;
  std::vector<char> buf_;
  size_t used_ = 0;
};

}  // namespace flint::sim
