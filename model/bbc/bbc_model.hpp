// Golden model of the burst-buffer controller (paper section 4.1; docs/bbc.md) over one stack's
// NAND die models: cache request queue, cl-to-page grouping by burst, burst scheduler,
// residency of the page and cache buffers, multi-plane cache-read sequencing, data-out to the
// response lanes and SEC-DED decode. Transaction level and event-timed: it computes when each
// response leaves without ticking idle cycles, so a paper-size decode step runs in minutes.
//
// Residency (stack-wide, docs/bbc.md "Residency"): at most two bursts are resident, ACTIVE in
// the cache buffers (served) and NEXT in the page buffers (sensing or sensed). With no NEXT and
// a queued request for a non-resident burst, the scheduler picks one and issues Read on every
// die as soon as the page buffers are free (the lookahead). When NEXT is sensed and ACTIVE has
// no queued request (kMostPending: and none arrived for hold_cycles; or NEXT's oldest request
// has waited past the age cap), CacheRead moves
// NEXT to the cache buffers and starts the sense of a new pick, or CacheEnd if there is none;
// the old ACTIVE is released then. A request for a resident burst is a hit; a fetch of a burst
// that was fetched and released before is a re-fetch.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "flint_config.hpp"
#include "model/bbc/port_acceptor.hpp"
#include "model/common/placement.hpp"
#include "model/common/types.hpp"
#include "model/nand/nand_die.hpp"

namespace flint::model {

struct LineAddr;  // stack_port.hpp

enum class BbcPolicy : uint8_t {
  kFcfs,         // the paper: the burst of the oldest queued request
  kMostPending,  // this design: the burst with most queued requests (ties: oldest), age-capped
};
std::string_view ToString(BbcPolicy p);
// Parses "fcfs" / "most-pending"; throws std::invalid_argument naming the bad text.
BbcPolicy ParseBbcPolicy(std::string_view text);

struct BbcOptions {
  BbcPolicy policy = BbcPolicy::kMostPending;
  // A queued request older than this (cycles since accept) makes its burst the next pick, and
  // lets NEXT displace an ACTIVE that still has requests. 0: 4 burst periods.
  uint64_t age_cap_cycles = 0;
  // kMostPending only: ACTIVE is kept while it had a request within this many cycles, so a burst
  // that SMs are still walking is not released between two of its lines. 0: a quarter period.
  uint64_t hold_cycles = 0;
  uint64_t loaded_bursts = 0;  // bursts [0, n) are loaded; 0: every burst of the stack
  BurstPlacement placement = BurstPlacement::kInterleaved;
  uint64_t seed = 1;        // NAND die models (error draws)
  bool check_data = true;   // read bytes, decode and compare every line (off: timing only)
  uint64_t crq_entries = 0;  // 0: the config's
  NandOptions nand{};
};

struct BbcRequest {
  uint64_t id = 0;
  uint64_t cycle = 0;  // earliest issue cycle (non-decreasing from request to request)
  uint32_t sm = 0;     // requests are taken in order, up to LANES a cycle (any lane)
  uint64_t address = 0;
};

struct BbcResponse {
  uint64_t id = 0;
  uint64_t accept_cycle = 0;
  uint64_t cycle = 0;  // the response leaves the port
  Status status = Status::kOk;
  bool data_mismatch = false;  // decoded OK/CORRECTED data differs from what load wrote
  bool refetch = false;        // served from a burst fetched again after a release
};

// What a request source answers when an engine asks it at cycle `now`: the next request; or
// nothing before cycle `wake` (kNoWake: nothing until a response), which a closed loop says when
// its next request depends on responses still to come; or done. The engine asks again at `wake`
// and after every event that delivered a response, and every response it delivers after asking
// at `now` leaves after `now`. An open-loop source never waits.
struct SourceReply {
  static constexpr uint64_t kNoWake = UINT64_MAX;
  enum class Kind : uint8_t { kRequest, kWait, kDone } kind = Kind::kDone;
  BbcRequest request;       // kRequest
  uint64_t wake = kNoWake;  // kWait
  // An open-loop source's answer: its next request, or done.
  static SourceReply Of(const std::optional<BbcRequest>& q) {
    SourceReply r;
    if (q) {
      r.kind = Kind::kRequest;
      r.request = *q;
    }
    return r;
  }
};

struct BbcStats {
  uint64_t requests = 0, responses = 0;
  uint64_t status_counts[5] = {0, 0, 0, 0, 0};  // by Status value
  uint64_t data_mismatches = 0;
  uint64_t bursts_fetched = 0;    // burst senses (Read or CacheRead) on the stack
  uint64_t bursts_refetched = 0;  // of those, bursts fetched before and released
  uint64_t hits = 0;              // requests that found their burst resident at accept
  uint64_t useful_bytes = 0;      // cl_bytes per NAND-served response
  uint64_t fetched_bytes = 0;     // bursts_fetched x burst_bytes
  uint64_t link_busy_slots = 0;   // line slots used on the response lanes (lanes per cycle)
  uint64_t queue_high_water = 0;
  // Most bursts at once with queued requests or resident: the scheduler slots the RTL needs
  // for this stream never to refuse a request for want of a slot (docs/bbc.md, "Slots").
  uint64_t bursts_in_flight_high_water = 0;
  // Most requests queued at once for lines of one die: the queue banks of a die (the RTL's
  // crq_die_slack x crq_entries / dies) that never refuse a request for want of room.
  uint64_t die_queue_high_water = 0;
  uint64_t first_cycle = 0, last_cycle = 0;
  uint64_t age_cap_displacements = 0;  // ACTIVE displaced with requests still queued
  uint64_t load_cycles = 0;
  double ChannelBusyCycles(uint64_t lanes) const {
    return static_cast<double>(link_busy_slots) / static_cast<double>(lanes);
  }
};

class BbcModel {
 public:
  // Throws std::invalid_argument for unusable options (more bursts than the stack holds, a
  // placement that does not fit, a zero-entry queue).
  BbcModel(const Config& cfg, const BbcOptions& options);

  // Model load: programs every live block of every plane, tagged with its physical position
  // (tag.burst = block * PAGES + page, tag.slice = die * PLANES + plane), so a read checks that
  // the BTT led to the right page. Throws std::runtime_error on a program failure (this model
  // does not remap bad blocks; the relocation table does). Returns the cycle load finished.
  uint64_t Load();

  using Source = std::function<std::optional<BbcRequest>()>;
  using Sink = std::function<void(const BbcResponse&)>;
  // Runs the stream to the end: every request gets exactly one response, through `sink`, in the
  // order the model produces them (not sorted by cycle across dies).
  void Run(const Source& source, const Sink& sink);
  // The same with a source that may wait for responses (SourceReply). Throws std::logic_error
  // if the source still waits when nothing is left in flight (a closed loop that deadlocked).
  using PolledSource = std::function<SourceReply(uint64_t now)>;
  void Run(const PolledSource& source, const Sink& sink);

  const BbcStats& stats() const { return stats_; }
  // The bursts in the order they were sensed (first `limit` of them, for comparison with RTL).
  const std::vector<uint64_t>& burst_sequence() const { return burst_sequence_; }
  void set_sequence_limit(uint64_t n) { sequence_limit_ = n; }
  const std::vector<NandDie>& dies() const { return dies_; }
  NandDie& die(uint32_t d) { return dies_.at(d); }  // tests: inject corruption after load
  const Config& config() const { return cfg_; }
  BlockPage PhysicalOf(uint64_t burst) const;

 private:
  // A queued request. Its re-fetch flag is ACTIVE's (active_refetch_), known when it is served:
  // every request in the per-die queues belongs to ACTIVE.
  struct Queued {
    uint64_t id, accept, seq;
    uint32_t slice, line;  // slice of the burst, cache line within the page
  };
  struct Waiting {  // requests of one non-active burst
    // Per die, in arrival order: the per-die queues ACTIVE is served from, taken whole when the
    // burst is activated (no copy per request).
    std::vector<std::vector<Queued>> by_die;
    uint64_t count = 0;  // requests over by_die
    uint64_t oldest_seq = 0, oldest_accept = 0, latest_accept = 0;
    // by_count_ holds this burst under ~indexed_count; `stale` (listed in stale_) when count has
    // grown since: re-keyed in FreshenCounts() before by_count_ is read, so a request costs no
    // tree update.
    uint64_t indexed_count = 0;
    bool stale = false;
  };
  // A FIFO of one die's ACTIVE requests: a vector read from `head`, its storage kept from burst
  // to burst (no allocation per request, as a std::deque has per block).
  class DieQueue {
   public:
    bool empty() const { return head_ == v_.size(); }
    size_t size() const { return v_.size() - head_; }
    const Queued& front() const { return v_[head_]; }
    void push_back(const Queued& q) { v_.push_back(q); }
    void pop_front() {
      if (++head_ == v_.size()) {
        clear();
      } else if (head_ >= 1024 && head_ * 2 >= v_.size()) {  // a queue that never drains
        v_.erase(v_.begin(), v_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
      }
    }
    void clear() {
      v_.clear();
      head_ = 0;
    }
    // Appends `v`'s requests and leaves `v` empty: an empty queue (as at every activation)
    // swaps storage with it instead of copying.
    void Append(std::vector<Queued>& v) {
      if (empty()) {
        v_.swap(v);
        head_ = 0;
      } else {
        v_.insert(v_.end(), v.begin(), v.end());
      }
      v.clear();
    }
    std::vector<Queued>::const_iterator begin() const {
      return v_.begin() + static_cast<std::ptrdiff_t>(head_);
    }
    std::vector<Queued>::const_iterator end() const { return v_.end(); }

   private:
    std::vector<Queued> v_;
    size_t head_ = 0;
  };

  void Accept(const BbcRequest& r, uint64_t at, const Sink& sink);
  void Reject(const BbcRequest& r, uint64_t at, const Sink& sink);  // Accept's address errors
  void Enqueue(uint64_t burst, uint32_t die, const Queued& q);  // die: DieOf(q.slice)
  std::optional<uint64_t> Pick(uint64_t now);  // freshens by_count_ first
  void FreshenCounts();
  Waiting& WaitingOf(uint64_t burst) {  // creates an empty entry if there is none
    if (last_waiting_ != nullptr && last_waiting_burst_ == burst) return *last_waiting_;
    return FindWaiting(burst);
  }
  Waiting& FindWaiting(uint64_t burst);
  void EraseWaiting(std::unordered_map<uint64_t, Waiting>::iterator it);
  void Unindex(uint64_t burst, const Waiting& w);
  void Index(uint64_t burst, const Waiting& w);
  void IssueRead(uint64_t burst, uint64_t now);
  void Promote(uint64_t now);  // NEXT -> ACTIVE (CacheRead or CacheEnd on every die)
  void Activate(uint64_t burst, bool refetch);
  uint64_t ServeTime(uint32_t die) const;  // from the die's state now; kNever if nothing queued
  void NoteNext();                         // NEXT changed: cache its oldest waiting request
  void Serve(uint32_t die, uint64_t now, const Sink& sink);
  void CheckLine(const Queued& q, BbcResponse* r) const;  // Serve's data check
  bool NoteFetch(uint64_t burst);  // returns whether it is a re-fetch
  // Address arithmetic of every request: shifts and masks when the config's sizes are powers of
  // two (every shipped config), the divisions of DecodeLine otherwise; the same results.
  LineAddr Decode(uint64_t address) const;
  uint32_t DieOf(uint32_t slice) const {
    return pow2_ ? slice >> plane_shift_ : static_cast<uint32_t>(slice / cfg_.planes);
  }
  uint64_t LaneCycle(uint64_t slot) const {
    return pow2_ ? slot >> lane_shift_ : slot / cfg_.lanes;
  }
  std::vector<PlaneBlock> Stripe(uint64_t burst, uint32_t* page) const;

  Config cfg_;
  BbcOptions opt_;
  bool pow2_ = false;  // burst_bytes, page_bytes, cl_bytes, planes and lanes are powers of two
  uint32_t burst_shift_ = 0, page_shift_ = 0, cl_shift_ = 0, plane_shift_ = 0, lane_shift_ = 0;
  uint64_t loaded_ = 0, live_blocks_ = 0, age_cap_ = 0, crq_cap_ = 0, hold_ = 0;
  uint64_t active_last_arrival_ = 0;
  std::vector<NandDie> dies_;
  std::vector<uint32_t> all_planes_;

  std::unordered_map<uint64_t, Waiting> waiting_;  // bursts other than ACTIVE with requests
  std::set<std::pair<uint64_t, uint64_t>> by_age_;                   // (oldest seq, burst)
  std::set<std::tuple<uint64_t, uint64_t, uint64_t>> by_count_;     // (~count, oldest seq, burst)
  std::vector<DieQueue> active_q_;                                  // per die, ACTIVE's requests
  std::vector<uint64_t> stale_;           // bursts whose by_count_ key is behind (Waiting::stale)
  // Emptied Waiting::by_die, their storage reused.
  std::vector<std::vector<std::vector<Queued>>> spare_by_die_;
  // The last burst WaitingOf() returned (unordered_map nodes do not move): a run of requests
  // for one burst costs one hash lookup. Reset when its entry is erased.
  uint64_t last_waiting_burst_ = 0;
  Waiting* last_waiting_ = nullptr;
  uint64_t active_queued_ = 0;

  std::optional<uint64_t> active_, next_;
  BlockPage active_bp_{};  // ACTIVE's (block, page), for the data check
  uint64_t next_sensed_at_ = 0;  // NEXT sensed into the page buffers of every die (the latest)
  uint64_t io_busy_max_ = 0;     // the latest I/O busy-until over the dies
  std::vector<uint64_t> cache_ready_;     // per die, ACTIVE's data readable from
  // Per die, ServeTime() as of the last change to its queue, cache buffer or I/O, in a
  // four-way tournament tree so the event loop finds the next die to serve in O(1) (not a scan of
  // every die at every event) and a change costs O(log4 dies): node p (children 4p+1..4p+4)
  // holds the smallest (time, die) under it, the root node 0, die d's own time at leaf
  // serve_inner_ + d (padding leaves: kNever). Ties go to the lower die, as a scan from die 0.
  std::vector<uint64_t> serve_t_;
  std::vector<uint32_t> serve_d_;
  uint32_t serve_leaves_ = 4;  // a power of four >= dies
  uint32_t serve_inner_ = 1;   // nodes above the leaves: (serve_leaves_ - 1) / 3
  void SetServeAt(uint32_t die, uint64_t t);
  void PullServeMin(uint32_t node);
  void RebuildServeMin();
  // The oldest accept cycle among NEXT's waiting requests (~0 if none): the age-cap promotion.
  uint64_t next_oldest_accept_ = ~uint64_t{0};
  std::vector<uint8_t> ever_fetched_;     // per burst: fetched before (so a new fetch is a re-fetch)
  bool active_refetch_ = false, next_refetch_ = false;

  uint64_t queued_ = 0;  // requests in the CRQ (accepted, data-out not yet started)
  std::vector<uint64_t> die_queued_;  // of those, per die
  uint64_t seq_ = 0;
  uint64_t link_slot_ = 0;  // next free line slot on the response lanes (cycle x lanes)
  PortAcceptor port_{1};  // LANES a cycle: set in the constructor
  BbcStats stats_;
  std::vector<uint64_t> burst_sequence_;
  uint64_t sequence_limit_ = 1u << 20;
  std::vector<uint8_t> line_buf_;
};

}  // namespace flint::model
