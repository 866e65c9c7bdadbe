#include "model/h3/h3_model.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "model/bbc/stack_port.hpp"
#include "model/ecc/secded.hpp"
#include "model/nand/page_content.hpp"

namespace flint::model {

namespace {
constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
// Paper Table 2: 5000-cycle minimum residency, at the paper's tR of 2000 cycles.
constexpr uint64_t kPaperResidencyCycles = 5000;
constexpr uint64_t kPaperReadCycles = 2000;

enum class DieOp : uint8_t { kNone, kRead, kCacheEnd, kDataOut };
}  // namespace

H3Model::H3Model(const Config& cfg, const H3Options& options) : cfg_(cfg), opt_(options) {
  if (opt_.slots == 0) throw std::invalid_argument("h3: an LHB of 0 slots");
  loaded_ = opt_.loaded_bursts ? opt_.loaded_bursts : cfg_.bursts_per_stack;
  if (loaded_ > cfg_.bursts_per_stack) {
    throw std::invalid_argument("h3: " + std::to_string(loaded_) + " loaded bursts, the stack holds " +
                                std::to_string(cfg_.bursts_per_stack));
  }
  live_blocks_ = LiveBlocks(loaded_, cfg_.pages);
  if (live_blocks_ > cfg_.blocks) throw std::invalid_argument("h3: the model does not fit a plane");
  const uint64_t gpu_mhz = opt_.residency_gpu_mhz ? opt_.residency_gpu_mhz : 1000;
  residency_ = opt_.min_residency_cycles
                   ? opt_.min_residency_cycles
                   : std::max<uint64_t>(1, kPaperResidencyCycles * cfg_.t_read_cycles * 1000 /
                                               (kPaperReadCycles * gpu_mhz));
  crq_cap_ = opt_.crq_entries ? opt_.crq_entries : cfg_.crq_entries;
  port_ = PortAcceptor(cfg_.lanes);
  if (crq_cap_ == 0) throw std::invalid_argument("h3: a request queue of 0 entries");
  slices_ = static_cast<uint32_t>(cfg_.dies * cfg_.planes);
  for (uint32_t d = 0; d < cfg_.dies; ++d) dies_.emplace_back(cfg_, d, opt_.seed, opt_.nand);
  for (auto& die : dies_) die.SetSpareFn(SecdedEncode);
  for (uint32_t p = 0; p < cfg_.planes; ++p) all_planes_.push_back(p);
  slots_.resize(opt_.slots);
  for (Slot& s : slots_) {
    s.ready_at.assign(slices_, kNever);
    s.waiting.resize(slices_);
    if (opt_.check_data) s.image.resize(uint64_t{slices_} * cfg_.page_image_bytes);
  }
  die_state_.resize(cfg_.dies);
  die_at_.assign(cfg_.dies, kNever);
  state_.assign(loaded_, BurstState::kNone);
  slot_of_.assign(loaded_, kNoSlot);
  ever_fetched_.assign(loaded_, 0);
}

BlockPage H3Model::PhysicalOf(uint64_t burst) const {
  return PlaceBurst(opt_.placement, burst, loaded_, cfg_.blocks, cfg_.pages);
}

std::vector<PlaneBlock> H3Model::Stripe(uint64_t burst, uint32_t* page) const {
  const BlockPage bp = PhysicalOf(burst);
  std::vector<PlaneBlock> t(cfg_.planes);
  for (uint32_t p = 0; p < cfg_.planes; ++p) t[p] = {p, bp.block};
  *page = bp.page;
  return t;
}

uint64_t H3Model::Load() {
  stats_.load_cycles = LoadTaggedStack(cfg_, dies_, live_blocks_, "h3");
  return stats_.load_cycles;
}

// --- Requests and hints ---------------------------------------------------------------------

void H3Model::Accept(const BbcRequest& req, uint64_t at, const Sink& sink) {
  ++stats_.requests;
  if (stats_.requests == 1) stats_.first_cycle = at;
  port_.Take(at);
  if (const auto error = AddressError(cfg_, loaded_, req.address)) {
    BbcResponse r;
    r.id = req.id;
    r.accept_cycle = at;
    r.cycle = at + 1;
    r.status = *error;
    CountResponse(stats_, r);
    sink(r);
    return;
  }
  const LineAddr la = DecodeLine(cfg_, req.address);
  const uint64_t burst = la.burst;
  Queued q;
  q.id = req.id;
  q.accept = at;
  q.slice = la.slice;
  q.line = la.line;
  q.burst = burst;
  ++queued_;
  stats_.queue_high_water = std::max(stats_.queue_high_water, queued_);
  if (state_[burst] == BurstState::kInSlot) {
    ++stats_.hits;
    Join(slot_of_[burst], q, at);
    return;
  }
  ++extra_.demand_misses;
  Park(q, at);
}

void H3Model::Park(const Queued& q, uint64_t at) {
  const uint64_t burst = q.burst;
  switch (state_[burst]) {
    case BurstState::kInSlot:
      Join(slot_of_[burst], q, at);
      return;
    case BurstState::kPendingHint: {
      // The hint has not got a slot yet: the request makes it a demand fetch.
      const auto it = std::find_if(hint_q_.begin(), hint_q_.end(),
                                   [&](const auto& e) { return e.first == burst; });
      demand_q_.push_back(*it);
      hint_q_.erase(it);
      ++extra_.hints_overtaken;
      state_[burst] = BurstState::kPendingDemand;
      break;
    }
    case BurstState::kNone:
      demand_q_.push_back({burst, at});
      state_[burst] = BurstState::kPendingDemand;
      break;
    case BurstState::kPendingDemand:
      break;
  }
  parked_[burst].push_back(q);
}

void H3Model::Hint(const H3Hint& h) {
  ++extra_.hints;
  if (h.burst >= loaded_) {
    ++extra_.hints_invalid;
    return;
  }
  if (state_[h.burst] != BurstState::kNone) {
    ++extra_.hints_skipped;
    return;
  }
  state_[h.burst] = BurstState::kPendingHint;
  hint_q_.push_back({h.burst, h.cycle});
}

// A request of a burst in `slot`: served once its slice is in SRAM.
void H3Model::Join(uint32_t slot, const Queued& q, uint64_t now) {
  Slot& s = slots_[slot];
  ++s.pending;
  if (s.ready_at[q.slice] != kNever) {
    serve_q_.push(ServeEntry{std::max(now, s.ready_at[q.slice]), seq_++, slot, q, s.gen});
  } else {
    s.waiting[q.slice].push_back(q);
  }
}

// --- Slots ----------------------------------------------------------------------------------

uint64_t H3Model::SlotFreeAt(uint32_t slot) const {
  const Slot& s = slots_[slot];
  if (!s.burst) return 0;
  if (s.dies_left != 0) return kNever;  // filling
  if (opt_.evict == H3Evict::kStrictFifo) return s.filled_at + residency_;
  if (s.pending != 0) return kNever;  // lines still to serve
  // The next fill's first page lands tR + t_cache_xfer after its fetch is issued at the soonest,
  // so the slot may be given to a fetch while its last lines are still leaving on the link.
  const uint64_t lead = cfg_.t_read_cycles + cfg_.t_cache_xfer_cycles;
  return std::max(s.filled_at + residency_, s.last_read > lead ? s.last_read - lead : 0);
}

// A free slot, else of the slots evictable at `now` the one filled first (FIFO).
std::optional<uint32_t> H3Model::VictimAt(uint64_t now) const {
  std::optional<uint32_t> best;
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    if (!slots_[i].burst) return i;
    if (SlotFreeAt(i) > now) continue;
    if (!best || slots_[i].filled_at < slots_[*best].filled_at) best = i;
  }
  return best;
}

uint64_t H3Model::FetchTime(uint64_t now) const {
  if (demand_q_.empty() && hint_q_.empty()) return kNever;
  uint64_t t = kNever;
  for (uint32_t i = 0; i < slots_.size(); ++i) t = std::min(t, SlotFreeAt(i));
  return t == kNever ? kNever : std::max(now, t);
}

void H3Model::StartFetch(uint64_t now) {
  const bool demand = !demand_q_.empty() &&
                      (opt_.demand_first || hint_q_.empty() ||
                       demand_q_.front().second <= hint_q_.front().second);
  const auto [burst, since] = demand ? demand_q_.front() : hint_q_.front();
  (demand ? demand_q_ : hint_q_).pop_front();
  const uint32_t victim = *VictimAt(now);
  Slot& s = slots_[victim];
  if (s.burst) {
    ++extra_.evictions;
    extra_.unused_evictions += s.served == 0;
    state_[*s.burst] = BurstState::kNone;
    slot_of_[*s.burst] = kNoSlot;
  }
  extra_.residency_waits += now > std::max(since, stats_.load_cycles);
  (demand ? extra_.demand_fetches : extra_.hint_fetches) += 1;
  ++s.gen;  // serve entries of the evicted fill (kStrictFifo) are re-queued when they come up
  s.burst = burst;
  s.hinted = !demand;
  s.refetch = ever_fetched_[burst] != 0;
  ever_fetched_[burst] = 1;
  s.dies_left = static_cast<uint32_t>(cfg_.dies);
  s.filled_at = 0;
  s.last_read = 0;
  s.served = 0;
  s.pending = 0;
  std::fill(s.ready_at.begin(), s.ready_at.end(), kNever);
  for (auto& w : s.waiting) w.clear();
  ++stats_.bursts_fetched;
  stats_.bursts_refetched += s.refetch;
  stats_.fetched_bytes += cfg_.burst_bytes;
  if (burst_sequence_.size() < sequence_limit_) burst_sequence_.push_back(burst);
  state_[burst] = BurstState::kInSlot;
  slot_of_[burst] = victim;
  if (auto it = parked_.find(burst); it != parked_.end()) {
    for (const Queued& q : it->second) Join(victim, q, now);
    parked_.erase(it);
  }
  for (DieState& ds : die_state_) ds.fetches.push_back(victim);
  DieTimesChanged(cfg_.dies);
}

// --- The serve queue --------------------------------------------------------------------

void H3Model::ServeQueue::push(const ServeEntry& e) {
  std::deque<ServeEntry>& q = by_at_[e.at];
  if (!q.empty() && q.back().seq > e.seq) throw std::logic_error("h3: serve entries out of order");
  q.push_back(e);
}

H3Model::ServeEntry H3Model::ServeQueue::pop() {
  auto it = by_at_.begin();
  const ServeEntry e = it->second.front();
  it->second.pop_front();
  if (it->second.empty()) by_at_.erase(it);
  return e;
}

void H3Model::DieTimesChanged(uint32_t d) {
  if (d < cfg_.dies) {
    die_at_[d] = DieEventTime(d);
  } else {
    for (uint32_t i = 0; i < cfg_.dies; ++i) die_at_[i] = DieEventTime(i);
  }
  die_min_ = *std::min_element(die_at_.begin(), die_at_.end());
}

// --- The dies: Read, CacheEnd, then a DataOut of every plane's page into the slot ------------

uint64_t H3Model::DieEventTime(uint32_t d) const {
  const DieState& ds = die_state_[d];
  const NandDie& die = dies_[d];
  uint64_t t = kNever;
  if (ds.draining != kNoSlot) {
    t = std::max(ds.cache_ready, die.IoBusyUntil());
  } else if (ds.sensing != kNoSlot) {
    // The cache buffers are read out: move the sensed pages there.
    t = std::max(ds.sensed_at, die.IoBusyUntil());
  }
  if (ds.sensing == kNoSlot && !ds.fetches.empty()) {
    uint64_t r = 0;
    for (uint32_t p = 0; p < cfg_.planes; ++p) r = std::max(r, die.PlaneReadyAt(p));
    t = std::min(t, r);
  }
  return t;
}

void H3Model::DieEvent(uint32_t d, uint64_t now) {
  DieState& ds = die_state_[d];
  NandDie& die = dies_[d];
  // Which command is due now (DieEventTime said one is): the drain first, then the move, then
  // the next sense, the order that frees the buffers.
  if (ds.draining != kNoSlot && std::max(ds.cache_ready, die.IoBusyUntil()) <= now) {
    Slot& s = slots_[ds.draining];
    const uint32_t plane = ds.next_plane;
    const uint32_t slice = static_cast<uint32_t>(d * cfg_.planes + plane);
    uint8_t* out = opt_.check_data ? s.image.data() + uint64_t{slice} * cfg_.page_image_bytes : nullptr;
    const uint64_t end =
        die.DataOut(plane, 0, static_cast<uint32_t>(cfg_.page_image_bytes), now, out);
    s.ready_at[slice] = end;
    for (const Queued& q : s.waiting[slice]) {
      serve_q_.push(ServeEntry{std::max(q.accept, end), seq_++, ds.draining, q, s.gen});
    }
    s.waiting[slice].clear();
    s.filled_at = std::max(s.filled_at, end);
    if (++ds.next_plane == cfg_.planes) {
      --s.dies_left;
      ds.draining = kNoSlot;
      ds.next_plane = 0;
    }
    return;
  }
  if (ds.sensing != kNoSlot && ds.draining == kNoSlot &&
      std::max(ds.sensed_at, die.IoBusyUntil()) <= now) {
    ds.cache_ready = die.CacheEnd(all_planes_, now).cache_ready_at;
    ds.draining = ds.sensing;
    ds.next_plane = 0;
    ds.sensing = kNoSlot;
    return;
  }
  if (ds.sensing == kNoSlot && !ds.fetches.empty()) {
    const uint32_t slot = ds.fetches.front();
    ds.fetches.pop_front();
    uint32_t page = 0;
    const auto targets = Stripe(*slots_[slot].burst, &page);
    ds.sensed_at = die.Read(targets, page, now);
    ds.sensing = slot;
    return;
  }
  throw std::logic_error("h3: a die event with nothing to do");
}

// --- Serving from SRAM ----------------------------------------------------------------------

void H3Model::Serve(const ServeEntry& e, const Sink& sink) {
  Slot& s = slots_[e.slot];
  --queued_;
  --s.pending;
  ++s.served;
  BbcResponse r;
  r.id = e.q.id;
  r.accept_cycle = e.q.accept;
  r.refetch = s.refetch;
  if (opt_.check_data) {
    const uint8_t* line = s.image.data() + uint64_t{e.q.slice} * cfg_.page_image_bytes +
                          uint64_t{e.q.line} * cfg_.cl_image_bytes;
    const DecodedBlock dec = DecodeImage(line, cfg_.cl_image_bytes);
    r.status = dec.status;
    if (dec.status != Status::kUncorrectable) {
      const BlockPage bp = PhysicalOf(*s.burst);
      const PageTag tag{uint64_t{bp.block} * cfg_.pages + bp.page, e.q.slice, 0};
      std::vector<uint8_t> want(cfg_.cl_bytes);
      TagBytes(tag, uint64_t{e.q.line} * cfg_.cl_bytes, cfg_.cl_bytes, want.data());
      r.data_mismatch = want != dec.data;
    }
  }
  // One line slot on the response lanes (lanes lines a cycle), once the line is in SRAM.
  link_slot_ = std::max(link_slot_, e.at * cfg_.lanes);
  r.cycle = link_slot_ / cfg_.lanes + 1;
  ++link_slot_;
  s.last_read = std::max(s.last_read, r.cycle);
  ++stats_.link_busy_slots;
  stats_.useful_bytes += cfg_.cl_bytes;
  CountResponse(stats_, r);
  sink(r);
}

// --- The event loop -------------------------------------------------------------------------

void H3Model::Run(const Source& source, const Hints& hints, const Sink& sink) {
  Run(PolledSource([&](uint64_t) { return SourceReply::Of(source()); }),
      PolledHints([&](uint64_t) {
        HintReply r;
        if (auto h = hints ? hints() : std::nullopt) {
          r.kind = HintReply::Kind::kHint;
          r.hint = *h;
        }
        return r;
      }),
      sink);
}

void H3Model::Run(const PolledSource& source, const PolledHints& hints, const Sink& sink) {
  using Kind = SourceReply::Kind;
  using HintKind = HintReply::Kind;
  constexpr uint64_t kNoWake = SourceReply::kNoWake;
  uint64_t last_hint = 0;
  uint64_t last_accept = stats_.load_cycles;
  uint64_t now = stats_.load_cycles;
  bool answered = false;  // a response left since the source was last asked
  const Sink deliver = [&](const BbcResponse& r) {
    answered = true;
    sink(r);
  };
  HintReply hint = hints ? hints(now) : HintReply{};
  auto ask = [&]() {
    answered = false;
    SourceReply r = source(now);
    // The workload moved on: a hint waiting for it may be due now.
    if (hint.kind == HintKind::kWait && hint.wake == kNoWake) hint = hints(now);
    return r;
  };
  DieTimesChanged(cfg_.dies);
  SourceReply next = ask();
  for (;;) {
    if (next.kind == Kind::kWait && answered) next = ask();  // a response may free an SM
    uint64_t t_accept = kNever;
    if (next.kind == Kind::kRequest && queued_ < crq_cap_) {
      t_accept = std::max({next.request.cycle, last_accept, now});
      t_accept = port_.Earliest(t_accept);
    }
    const uint64_t t_ask =
        next.kind == Kind::kWait && next.wake != kNoWake ? std::max(next.wake, now) : kNever;
    const uint64_t t_hint = hint.kind == HintKind::kHint ? std::max(hint.hint.cycle, now) : kNever;
    const uint64_t t_hint_ask = hint.kind == HintKind::kWait && hint.wake != kNoWake
                                    ? std::max(hint.wake, now)
                                    : kNever;
    uint64_t t_serve = serve_q_.empty() ? kNever : std::max(serve_q_.top_at(), now);
    // kStrictFifo: a line leaves SRAM when its link slot comes, so it can still be evicted.
    if (opt_.evict == H3Evict::kStrictFifo && t_serve != kNever) {
      t_serve = std::max(t_serve, link_slot_ / cfg_.lanes);
    }
    // The first die command due (which die: below, only when it is the event taken).
    const uint64_t t_die = std::max(die_min_, now);
    const uint64_t t_fetch = FetchTime(now);
    const uint64_t t =
        std::min({t_accept, t_ask, t_hint, t_hint_ask, t_serve, t_die, t_fetch});
    if (t == kNever) break;
    now = t;
    // At one cycle: serve (frees slots and the queue), sequence the NAND, start fetches, take
    // hints, then accept (or ask a waiting source again).
    if (t_serve == t) {
      const ServeEntry e = serve_q_.pop();
      if (e.gen != slots_[e.slot].gen) {
        ++extra_.evicted_waiting;  // its slot was evicted first: fetch the burst again
        Park(e.q, now);
      } else {
        Serve(e, deliver);
      }
    } else if (t_die == t) {
      // The lowest-numbered die due by then (each die's time clamped to the present: the order
      // of die events at one cycle is the dies' order).
      uint32_t die = 0;
      while (std::max(die_at_[die], now) != t_die) ++die;
      DieEvent(die, now);
      DieTimesChanged(die);
    } else if (t_fetch == t) {
      StartFetch(now);
    } else if (t_hint == t) {
      if (hint.hint.cycle < last_hint) {
        throw std::invalid_argument("h3: hint for burst " + std::to_string(hint.hint.burst) +
                                    " at cycle " + std::to_string(hint.hint.cycle) +
                                    " after one at cycle " + std::to_string(last_hint));
      }
      last_hint = hint.hint.cycle;
      Hint(hint.hint);
      hint = hints(now);
    } else if (t_hint_ask == t) {
      hint = hints(now);
    } else if (t_ask == t) {
      next = ask();
    } else {
      last_accept = now;
      Accept(next.request, now, deliver);
      next = ask();
    }
  }
  if (next.kind == Kind::kRequest) throw std::logic_error("h3: a request was left unaccepted");
  if (next.kind == Kind::kWait || hint.kind == HintKind::kWait) {
    throw std::logic_error("h3: a source waits, but nothing is in flight");
  }
  if (queued_ != 0) throw std::logic_error("h3: requests were left unanswered");
}

}  // namespace flint::model
