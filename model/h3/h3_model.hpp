// Model of the H3 baseline (paper section 3 "Static Prefetch Underutilizes the HBF Channel",
// Table 2 "latency-hiding buffer (LHB) 2 MB/slot, 5000-cycle min. residency"; DESIGN.md
// section 1; docs/h3.md) over one stack's NAND die models: an SRAM latency-hiding buffer of
// `slots` slots of one whole burst each, filled by compiler-emitted layer-ahead prefetch hints
// and by demand misses, with FIFO eviction behind a minimum residency. The same request,
// response and statistics types as the BBC golden model (model/bbc), so both run the same trace.
//
// A fetch takes a slot when it is issued (the slot is the destination of the burst in flight),
// then on every die: multi-plane Read of the burst's (block, page), CacheEnd, and a DataOut of
// each plane's whole page image into the slot (the next fetch's sense overlaps this drain, as
// in the NAND's cache-read mode). A line is ready in SRAM when its plane's DataOut ends; a
// request for a line in SRAM is served at the link rate (LANES lines a cycle). A slot is
// evictable once filled, `min residency` cycles past its fill, with every request for it served
// (its last lines may still be on the link: the next fill cannot land before tR); of the
// evictable slots the one filled first goes (FIFO). A fetch that finds
// no free or evictable slot waits. Fetches take slots in the order they were asked for, hints
// and demand misses alike (an option puts demand first). A fetch of a burst
// fetched before (so evicted since) is a re-fetch.
//
// Event-timed like the BBC model: no idle cycle is ticked, every NAND command is dated at or
// after the previous one of its die, and every accepted request gets exactly one response.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/bbc_model.hpp"
#include "model/common/placement.hpp"
#include "model/common/types.hpp"
#include "model/nand/nand_die.hpp"

namespace flint::model {

// A compiler-emitted prefetch hint: from `cycle` on, fetch stack-local burst `burst` into the
// LHB (skipped if it is resident, in flight or already waiting for a slot).
struct H3Hint {
  uint64_t cycle = 0;
  uint64_t burst = 0;
  bool operator==(const H3Hint& o) const { return cycle == o.cycle && burst == o.burst; }
};

// When a filled slot may be evicted (docs/h3.md "Variants").
//   kHoldWhilePending: min residency past its fill AND every request that arrived for it
//     served (the model before issue #21; it lends H3 FLINT's hold-until-drained).
//   kStrictFifo: min residency past its fill, whether or not requests wait (the paper: expert
//     bursts "leave its LHB before every consuming GPU reads them"); requests still waiting
//     for the link when their slot goes are re-queued and re-fetch the burst. Lines are served
//     in link order (a request leaves SRAM only when its link slot comes).
enum class H3Evict : uint8_t { kHoldWhilePending, kStrictFifo };

struct H3Options {
  uint32_t slots = 2;  // LHB slots, one burst each
  H3Evict evict = H3Evict::kHoldWhilePending;
  // The clock the 5000-cycle residency of Table 2 is read at when min_residency_cycles is 0:
  // 0, the base die's (5000 cycles x tR/2000, 2.5 tR); else this GPU clock in MHz relative to
  // the paper's 1 GHz base die (2500: 2000 cycles x tR/2000, 1 tR).
  uint32_t residency_gpu_mhz = 0;
  // Cycles a filled slot stays before it may be evicted. 0: the paper's 5000 cycles scaled by
  // t_read_cycles / 2000 (paper tR = 2000 cycles), i.e. 2.5 tR in every config.
  uint64_t min_residency_cycles = 0;
  uint64_t loaded_bursts = 0;  // bursts [0, n) are loaded; 0: every burst of the stack
  BurstPlacement placement = BurstPlacement::kInterleaved;
  uint64_t seed = 1;          // NAND die models (error draws)
  bool check_data = true;     // DataOut bytes into the slot, decode and compare every served line
  uint64_t crq_entries = 0;   // requests accepted and not yet served; 0: the config's
  // Fetch order when a slot frees: false (the static controller), one FIFO of hints and demand
  // misses by arrival, so the compiler's layer-ahead order competes with the live misses; true,
  // demand misses before pending hints.
  bool demand_first = false;
  NandOptions nand{};
};

// What the H3 model counts beyond BbcStats.
struct H3Extra {
  uint64_t hints = 0;             // hints read
  uint64_t hints_skipped = 0;     // burst resident, in flight or already waiting for a slot
  uint64_t hints_invalid = 0;     // burst not loaded (ignored)
  uint64_t hints_overtaken = 0;   // a request came before the hinted fetch had a slot (demand)
  uint64_t hint_fetches = 0;      // fetches started by a hint
  uint64_t demand_fetches = 0;    // fetches started by a request
  uint64_t demand_misses = 0;     // requests that found their burst neither resident nor in flight
  uint64_t evictions = 0;
  uint64_t unused_evictions = 0;  // slots evicted before any request read them
  uint64_t residency_waits = 0;   // fetches that had to wait for a slot
  uint64_t evicted_waiting = 0;   // kStrictFifo: requests whose slot was evicted before serving
};

class H3Model {
 public:
  // Throws std::invalid_argument for unusable options (no slots, more bursts than the stack
  // holds, a placement that does not fit, a zero-entry queue).
  H3Model(const Config& cfg, const H3Options& options);

  // Model load, as BbcModel::Load: every live block programmed, tagged with its physical
  // position. Returns the cycle load finished (requests and hints start there at the earliest).
  uint64_t Load();

  using Source = std::function<std::optional<BbcRequest>()>;
  using Hints = std::function<std::optional<H3Hint>()>;  // in non-decreasing cycle order
  using Sink = std::function<void(const BbcResponse&)>;
  // Runs both streams to the end; `hints` may be empty (no prefetch: every fetch is on demand).
  // Throws std::invalid_argument if a hint's cycle is below the previous hint's.
  void Run(const Source& source, const Hints& hints, const Sink& sink);
  // The same with sources that may wait (BbcModel::Run's PolledSource): requests as there; a
  // hint source answers a hint, done, or kWait (no hint before `wake`, kNoWake: none until the
  // request source has been asked again: a closed loop times the layer-ahead hints by the
  // phases the workload has reached). Throws std::logic_error if either still waits when
  // nothing is left in flight.
  struct HintReply {
    enum class Kind : uint8_t { kHint, kWait, kDone } kind = Kind::kDone;
    H3Hint hint;                            // kHint
    uint64_t wake = SourceReply::kNoWake;  // kWait
  };
  using PolledSource = std::function<SourceReply(uint64_t now)>;
  using PolledHints = std::function<HintReply(uint64_t now)>;
  void Run(const PolledSource& source, const PolledHints& hints, const Sink& sink);

  const BbcStats& stats() const { return stats_; }
  const H3Extra& extra() const { return extra_; }
  uint64_t min_residency_cycles() const { return residency_; }
  // The bursts in the order they were fetched (first `limit` of them).
  const std::vector<uint64_t>& burst_sequence() const { return burst_sequence_; }
  void set_sequence_limit(uint64_t n) { sequence_limit_ = n; }
  const std::vector<NandDie>& dies() const { return dies_; }
  NandDie& die(uint32_t d) { return dies_.at(d); }  // tests: inject corruption after load
  const Config& config() const { return cfg_; }
  BlockPage PhysicalOf(uint64_t burst) const;

 private:
  static constexpr uint32_t kNoSlot = ~0u;
  enum class BurstState : uint8_t { kNone, kPendingHint, kPendingDemand, kInSlot };

  struct Queued {
    uint64_t id, accept;
    uint32_t slice, line;
    uint64_t burst;
  };
  struct Slot {
    std::optional<uint64_t> burst;
    bool refetch = false;
    bool hinted = false;
    uint32_t dies_left = 0;          // dies whose DataOut of this fill is not all issued
    uint64_t filled_at = 0;          // valid when dies_left == 0: the last DataOut's end
    uint64_t last_read = 0;          // latest response cycle of a line served from the slot
    uint64_t served = 0;             // requests served from this fill
    uint64_t pending = 0;            // requests of this fill not yet served
    std::vector<uint64_t> ready_at;  // per slice: DataOut end, or kNever before it is issued
    std::vector<std::vector<Queued>> waiting;  // per slice: requests before the DataOut
    std::vector<uint8_t> image;      // check_data: slices x page_image_bytes as read out
    uint64_t gen = 0;                // fills so far (a serve entry of an older fill is stale)
  };
  struct DieState {
    std::deque<uint32_t> fetches;   // slots whose Read this die has not issued yet, in order
    uint32_t sensing = kNoSlot;     // its page buffers hold (or sense) this slot's burst
    uint64_t sensed_at = 0;
    uint32_t draining = kNoSlot;    // its cache buffers hold this slot's burst
    uint32_t next_plane = 0;
    uint64_t cache_ready = 0;
  };
  struct ServeEntry {  // a request whose line is in SRAM (or will be at `at`)
    uint64_t at, seq;
    uint32_t slot;
    Queued q;
    uint64_t gen;
  };

  void Accept(const BbcRequest& r, uint64_t at, const Sink& sink);
  void Hint(const H3Hint& h);
  void Join(uint32_t slot, const Queued& q, uint64_t now);
  void Park(const Queued& q, uint64_t now);  // a request whose burst is not in a slot
  uint64_t SlotFreeAt(uint32_t slot) const;  // free, or evictable from; kNever if neither
  std::optional<uint32_t> VictimAt(uint64_t now) const;
  uint64_t FetchTime(uint64_t now) const;
  void StartFetch(uint64_t now);
  // When die d's next command can issue, not yet clamped to the present (the event loop takes
  // max(now, it)); kNever if it has none. Only DieEvent(d) and a new fetch change it, so the
  // loop keeps it per die (die_at_) instead of asking every die at every event.
  uint64_t DieEventTime(uint32_t d) const;
  void DieTimesChanged(uint32_t d);  // die d's time (d == dies: every die's) and the least
  void DieEvent(uint32_t d, uint64_t now);
  void Serve(const ServeEntry& e, const Sink& sink);
  std::vector<PlaneBlock> Stripe(uint64_t burst, uint32_t* page) const;

  Config cfg_;
  H3Options opt_;
  uint64_t loaded_ = 0, live_blocks_ = 0, residency_ = 0, crq_cap_ = 0;
  uint32_t slices_ = 0;
  std::vector<NandDie> dies_;
  std::vector<uint32_t> all_planes_;
  std::vector<Slot> slots_;
  std::vector<DieState> die_state_;
  std::vector<uint64_t> die_at_;      // per die: DieEventTime(d), kept current
  uint64_t die_min_ = ~uint64_t{0};   // the least of die_at_ (none due: never)
  std::vector<BurstState> state_;     // per burst
  std::vector<uint32_t> slot_of_;     // per burst, valid in kInSlot
  std::vector<uint8_t> ever_fetched_;  // per burst
  std::deque<std::pair<uint64_t, uint64_t>> demand_q_, hint_q_;  // (burst, since): no slot yet
  std::unordered_map<uint64_t, std::vector<Queued>> parked_;  // requests before their slot
  // Serve entries in (at, seq) order: a FIFO per `at`, as seq grows with every push (so the
  // entries of one `at` are in seq order in their FIFO). A page's DataOut pushes every request
  // waiting on it with one `at`; a binary heap of them was most of the event loop's time.
  class ServeQueue {
   public:
    bool empty() const { return by_at_.empty(); }
    uint64_t top_at() const { return by_at_.begin()->first; }
    void push(const ServeEntry& e);
    ServeEntry pop();

   private:
    std::map<uint64_t, std::deque<ServeEntry>> by_at_;
  };
  ServeQueue serve_q_;

  uint64_t queued_ = 0;  // accepted, not yet served
  uint64_t seq_ = 0;
  uint64_t link_slot_ = 0;
  PortAcceptor port_{1};  // LANES a cycle: set in the constructor
  BbcStats stats_;
  H3Extra extra_;
  std::vector<uint64_t> burst_sequence_;
  uint64_t sequence_limit_ = 1u << 20;
};

}  // namespace flint::model
