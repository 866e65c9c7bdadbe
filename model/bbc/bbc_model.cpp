#include "model/bbc/bbc_model.hpp"

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
}

std::string_view ToString(BbcPolicy p) {
  return p == BbcPolicy::kFcfs ? "fcfs" : "most-pending";
}

BbcPolicy ParseBbcPolicy(std::string_view text) {
  if (text == "fcfs") return BbcPolicy::kFcfs;
  if (text == "most-pending") return BbcPolicy::kMostPending;
  throw std::invalid_argument("bbc: unknown policy '" + std::string(text) +
                              "' (fcfs or most-pending)");
}

BbcModel::BbcModel(const Config& cfg, const BbcOptions& options) : cfg_(cfg), opt_(options) {
  loaded_ = opt_.loaded_bursts ? opt_.loaded_bursts : cfg_.bursts_per_stack;
  if (loaded_ > cfg_.bursts_per_stack) {
    throw std::invalid_argument("bbc: " + std::to_string(loaded_) + " loaded bursts, the stack holds " +
                                std::to_string(cfg_.bursts_per_stack));
  }
  live_blocks_ = LiveBlocks(loaded_, cfg_.pages);
  if (live_blocks_ > cfg_.blocks) throw std::invalid_argument("bbc: the model does not fit a plane");
  age_cap_ = opt_.age_cap_cycles ? opt_.age_cap_cycles : 4 * cfg_.burst_period_cycles;
  hold_ = opt_.policy == BbcPolicy::kFcfs ? 0
          : opt_.hold_cycles ? opt_.hold_cycles : std::max<uint64_t>(1, cfg_.burst_period_cycles / 4);
  crq_cap_ = opt_.crq_entries ? opt_.crq_entries : cfg_.crq_entries;
  die_queued_.assign(cfg_.dies, 0);
  auto pow2 = [](uint64_t v) { return v != 0 && (v & (v - 1)) == 0; };
  auto log2 = [](uint64_t v) {
    uint32_t n = 0;
    while (v > 1) v >>= 1, ++n;
    return n;
  };
  pow2_ = pow2(cfg_.burst_bytes) && pow2(cfg_.page_bytes) && pow2(cfg_.cl_bytes) &&
          pow2(cfg_.planes) && pow2(cfg_.lanes);
  burst_shift_ = log2(cfg_.burst_bytes);
  page_shift_ = log2(cfg_.page_bytes);
  cl_shift_ = log2(cfg_.cl_bytes);
  plane_shift_ = log2(cfg_.planes);
  lane_shift_ = log2(cfg_.lanes);
  port_ = PortAcceptor(cfg_.lanes);
  if (crq_cap_ == 0) throw std::invalid_argument("bbc: a cache request queue of 0 entries");
  for (uint32_t d = 0; d < cfg_.dies; ++d) dies_.emplace_back(cfg_, d, opt_.seed, opt_.nand);
  for (auto& die : dies_) die.SetSpareFn(SecdedEncode);
  for (uint32_t p = 0; p < cfg_.planes; ++p) all_planes_.push_back(p);
  active_q_.resize(cfg_.dies);
  cache_ready_.assign(cfg_.dies, 0);
  while (serve_leaves_ < cfg_.dies) serve_leaves_ *= 4;
  serve_inner_ = (serve_leaves_ - 1) / 3;
  serve_t_.assign(serve_inner_ + serve_leaves_, kNever);  // the padding dies never serve
  serve_d_.assign(serve_inner_ + serve_leaves_, 0);
  for (uint32_t d = 0; d < serve_leaves_; ++d) serve_d_[serve_inner_ + d] = d;
  RebuildServeMin();
  ever_fetched_.assign(loaded_, 0);
  line_buf_.resize(cfg_.cl_image_bytes);
}

LineAddr BbcModel::Decode(uint64_t address) const {
  if (!pow2_) return DecodeLine(cfg_, address);
  const uint64_t in_burst = address & (cfg_.burst_bytes - 1);
  return {address >> burst_shift_, static_cast<uint32_t>(in_burst >> page_shift_),
          static_cast<uint32_t>((in_burst & (cfg_.page_bytes - 1)) >> cl_shift_)};
}

BlockPage BbcModel::PhysicalOf(uint64_t burst) const {
  return PlaceBurst(opt_.placement, burst, loaded_, cfg_.blocks, cfg_.pages);
}

uint64_t BbcModel::Load() {
  stats_.load_cycles = LoadTaggedStack(cfg_, dies_, live_blocks_, "bbc");
  return stats_.load_cycles;
}

std::vector<PlaneBlock> BbcModel::Stripe(uint64_t burst, uint32_t* page) const {
  const BlockPage bp = PhysicalOf(burst);
  std::vector<PlaneBlock> t(cfg_.planes);
  for (uint32_t p = 0; p < cfg_.planes; ++p) t[p] = {p, bp.block};
  *page = bp.page;
  return t;
}

// --- The queue and the scheduler's indexes --------------------------------------------------

// by_count_ orders bursts for most-pending only; FCFS never reads it, so it is not kept.
void BbcModel::Index(uint64_t burst, const Waiting& w) {
  by_age_.insert({w.oldest_seq, burst});
  if (opt_.policy != BbcPolicy::kFcfs) {
    by_count_.insert({~w.indexed_count, w.oldest_seq, burst});
  }
}

void BbcModel::Unindex(uint64_t burst, const Waiting& w) {
  by_age_.erase({w.oldest_seq, burst});
  by_count_.erase({~w.indexed_count, w.oldest_seq, burst});
}

// by_count_ as if every request had moved its burst's node at once (the order Pick reads).
void BbcModel::FreshenCounts() {
  for (const uint64_t burst : stale_) {
    const auto it = waiting_.find(burst);
    if (it == waiting_.end() || !it->second.stale) continue;  // activated since, or listed twice
    Waiting& w = it->second;
    auto node = by_count_.extract({~w.indexed_count, w.oldest_seq, burst});
    w.indexed_count = w.count;
    std::get<0>(node.value()) = ~w.indexed_count;
    by_count_.insert(std::move(node));
    w.stale = false;
  }
  stale_.clear();
}

BbcModel::Waiting& BbcModel::FindWaiting(uint64_t burst) {
  const auto [it, inserted] = waiting_.try_emplace(burst);
  if (inserted) {
    if (spare_by_die_.empty()) {
      it->second.by_die.resize(cfg_.dies);
    } else {
      it->second.by_die = std::move(spare_by_die_.back());
      spare_by_die_.pop_back();
    }
  }
  last_waiting_burst_ = burst;
  last_waiting_ = &it->second;
  return it->second;
}

void BbcModel::EraseWaiting(std::unordered_map<uint64_t, Waiting>::iterator it) {
  if (last_waiting_ == &it->second) last_waiting_ = nullptr;
  for (auto& v : it->second.by_die) v.clear();
  spare_by_die_.push_back(std::move(it->second.by_die));
  waiting_.erase(it);
}

inline void BbcModel::Enqueue(uint64_t burst, uint32_t d, const Queued& q) {
  if (active_ && *active_ == burst) {
    active_q_[d].push_back(q);
    ++active_queued_;
    active_last_arrival_ = std::max(active_last_arrival_, q.accept);
    if (active_q_[d].size() == 1) SetServeAt(d, ServeTime(d));
    return;
  }
  Waiting& w = WaitingOf(burst);
  w.by_die[d].push_back(q);
  w.latest_accept = std::max(w.latest_accept, q.accept);
  if (w.count++ == 0) {
    w.oldest_seq = q.seq;
    w.oldest_accept = q.accept;
    w.latest_accept = q.accept;
    if (next_ && *next_ == burst) next_oldest_accept_ = q.accept;
    w.indexed_count = 1;
    Index(burst, w);
    return;
  }
  // One more request: the age order is unchanged; the count order is re-keyed before it is
  // next read (FreshenCounts).
  if (opt_.policy != BbcPolicy::kFcfs && !w.stale) {
    w.stale = true;
    stale_.push_back(burst);
  }
}

// The next burst to sense: not resident, with queued requests, by policy.
std::optional<uint64_t> BbcModel::Pick(uint64_t now) {
  if (!stale_.empty()) FreshenCounts();
  auto resident = [&](uint64_t b) { return (active_ && *active_ == b) || (next_ && *next_ == b); };
  for (const auto& [seq, b] : by_age_) {
    if (resident(b)) continue;
    const Waiting& w = waiting_.at(b);
    if (opt_.policy == BbcPolicy::kFcfs || now >= w.oldest_accept + age_cap_) return b;
    break;
  }
  if (opt_.policy == BbcPolicy::kFcfs) return std::nullopt;
  for (const auto& [ncount, seq, b] : by_count_) {
    if (!resident(b)) return b;
  }
  return std::nullopt;
}

// Every sense of a burst: counted, recorded, and a re-fetch if it was fetched before.
bool BbcModel::NoteFetch(uint64_t burst) {
  ++stats_.bursts_fetched;
  stats_.fetched_bytes += cfg_.burst_bytes;
  if (burst_sequence_.size() < sequence_limit_) burst_sequence_.push_back(burst);
  const bool refetch = ever_fetched_[burst] != 0;
  ever_fetched_[burst] = 1;
  stats_.bursts_refetched += refetch;
  return refetch;
}

void BbcModel::IssueRead(uint64_t burst, uint64_t now) {
  uint32_t page = 0;
  const auto targets = Stripe(burst, &page);
  next_sensed_at_ = 0;
  for (uint32_t d = 0; d < cfg_.dies; ++d) {
    next_sensed_at_ = std::max(next_sensed_at_, dies_[d].Read(targets, page, now));
  }
  next_ = burst;
  NoteNext();
  next_refetch_ = NoteFetch(burst);
}

// NEXT's requests move to the per-die queues of the server.
void BbcModel::Activate(uint64_t burst, bool refetch) {
  active_ = burst;
  active_bp_ = PhysicalOf(burst);
  active_refetch_ = refetch;
  active_last_arrival_ = 0;
  auto it = waiting_.find(burst);
  if (it == waiting_.end()) return;
  Waiting& w = it->second;
  Unindex(burst, w);
  // Every die queue is empty here (Promote drained or displaced them): each takes its part
  // whole.
  for (uint32_t d = 0; d < cfg_.dies; ++d) active_q_[d].Append(w.by_die[d]);
  active_queued_ += w.count;
  active_last_arrival_ = w.latest_accept;
  EraseWaiting(it);
}

void BbcModel::Promote(uint64_t now) {
  if (active_queued_ != 0) {
    // Age-cap displacement: what ACTIVE still has goes back to waiting (a re-fetch later).
    ++stats_.age_cap_displacements;
    const uint64_t old = *active_;
    active_.reset();
    for (auto& q : active_q_) {
      for (const Queued& r : q) Enqueue(old, DieOf(r.slice), r);
      q.clear();
    }
    active_queued_ = 0;
  }
  active_.reset();  // the old ACTIVE is released: CacheRead / CacheEnd overwrite its buffers
  const uint64_t promoted = *next_;
  const bool promoted_refetch = next_refetch_;
  const std::optional<uint64_t> pick = Pick(now);  // NEXT is still resident: never picked
  next_.reset();
  bool pick_refetch = false;
  if (pick) {
    uint32_t page = 0;
    const auto targets = Stripe(*pick, &page);
    next_sensed_at_ = 0;
    for (uint32_t d = 0; d < cfg_.dies; ++d) {
      const CacheMove m = dies_[d].CacheRead(targets, page, now);
      cache_ready_[d] = m.cache_ready_at;
      next_sensed_at_ = std::max(next_sensed_at_, m.array_ready_at);
    }
    pick_refetch = NoteFetch(*pick);
  } else {
    for (uint32_t d = 0; d < cfg_.dies; ++d) {
      cache_ready_[d] = dies_[d].CacheEnd(all_planes_, now).cache_ready_at;
    }
  }
  Activate(promoted, promoted_refetch);
  next_ = pick;
  next_refetch_ = pick_refetch;
  NoteNext();
  for (uint32_t d = 0; d < cfg_.dies; ++d) serve_t_[serve_inner_ + d] = ServeTime(d);
  RebuildServeMin();
}

void BbcModel::NoteNext() {
  next_oldest_accept_ = kNever;
  if (!next_) return;
  const auto it = waiting_.find(*next_);
  if (it != waiting_.end()) next_oldest_accept_ = it->second.oldest_accept;
}

// --- Serving --------------------------------------------------------------------------------

// Node p of the serve tree from its four children: the first of the earliest (the lowest die on
// a tie), chosen by conditional moves, not branches (a branch here mispredicted about twice an
// update).
void BbcModel::PullServeMin(uint32_t p) {
  const uint32_t c = 4 * p + 1;
  uint32_t win = c;
  uint64_t t = serve_t_[c];
  for (uint32_t j = c + 1; j < c + 4; ++j) {
    const bool earlier = serve_t_[j] < t;
    win = earlier ? j : win;
    t = earlier ? serve_t_[j] : t;
  }
  serve_t_[p] = t;
  serve_d_[p] = serve_d_[win];
}

void BbcModel::SetServeAt(uint32_t d, uint64_t t) {
  uint32_t n = serve_inner_ + d;
  serve_t_[n] = t;
  // log4(serve_leaves_) levels, no early exit (cheaper than its test).
  while (n > 0) {
    n = (n - 1) / 4;
    PullServeMin(n);
  }
}

void BbcModel::RebuildServeMin() {
  for (uint32_t p = serve_inner_; p-- > 0;) PullServeMin(p);
}

uint64_t BbcModel::ServeTime(uint32_t d) const {
  if (active_q_[d].empty()) return kNever;
  return std::max({cache_ready_[d], dies_[d].IoBusyUntil(), active_q_[d].front().accept + 1});
}

// Decodes the line DataOut left in line_buf_ word by word in place and compares it with what
// load wrote (no allocation per line): the response's status and data_mismatch.
void BbcModel::CheckLine(const Queued& q, BbcResponse* r) const {
  const uint64_t key =
      TagKey(PageTag{uint64_t{active_bp_.block} * cfg_.pages + active_bp_.page, q.slice, 0});
  const uint64_t first_word = uint64_t{q.line} * cfg_.cl_bytes / kCodewordDataBytes;
  const uint64_t words = cfg_.cl_bytes / kCodewordDataBytes;
  Status status = Status::kOk;
  bool differs = false;
  for (uint64_t w = 0; w < words; ++w) {
    const uint8_t* cw = line_buf_.data() + w * kCodewordBytes;
    const SecdedWord dec = SecdedDecode(LoadWord(cw, 0), cw[kCodewordDataBytes]);
    status = ReduceStatus(status, dec.status);
    differs = differs || dec.data != TagWord(key, first_word + w);
  }
  r->status = status;
  r->data_mismatch = status != Status::kUncorrectable && differs;
}

void BbcModel::Serve(uint32_t d, uint64_t now, const Sink& sink) {
  const Queued q = active_q_[d].front();
  active_q_[d].pop_front();
  --active_queued_;
  --queued_;
  --die_queued_[d];
  const uint32_t plane = q.slice - d * static_cast<uint32_t>(cfg_.planes);
  const uint32_t offset = static_cast<uint32_t>(q.line * cfg_.cl_image_bytes);
  uint8_t* out = opt_.check_data ? line_buf_.data() : nullptr;
  const uint64_t io_end =
      dies_[d].DataOut(plane, offset, static_cast<uint32_t>(cfg_.cl_image_bytes), now, out);
  SetServeAt(d, ServeTime(d));  // the next line of this die, once this data-out frees its I/O
  io_busy_max_ = std::max(io_busy_max_, io_end);
  BbcResponse r;
  r.id = q.id;
  r.accept_cycle = q.accept;
  r.refetch = active_refetch_;
  if (opt_.check_data) CheckLine(q, &r);
  // One line slot on the response lanes (lanes lines a cycle), after the die I/O delivered it.
  link_slot_ = std::max(link_slot_, io_end * cfg_.lanes);
  r.cycle = LaneCycle(link_slot_) + 1;
  ++link_slot_;
  ++stats_.link_busy_slots;
  stats_.useful_bytes += cfg_.cl_bytes;
  CountResponse(stats_, r);
  sink(r);
}

// --- Accept ---------------------------------------------------------------------------------

// An out-of-range or unloaded address: answered at once with its error, never the NAND.
void BbcModel::Reject(const BbcRequest& req, uint64_t at, const Sink& sink) {
  BbcResponse r;
  r.id = req.id;
  r.accept_cycle = at;
  r.cycle = at + 1;
  r.status = *AddressError(cfg_, loaded_, req.address);
  CountResponse(stats_, r);
  sink(r);
}

void BbcModel::Accept(const BbcRequest& req, uint64_t at, const Sink& sink) {
  ++stats_.requests;
  if (stats_.requests == 1) stats_.first_cycle = at;
  port_.Take(at);
  const LineAddr la = Decode(req.address);
  if (req.address >= cfg_.stack_bytes || la.burst >= loaded_) {  // AddressError's two cases
    Reject(req, at, sink);
    return;
  }
  const uint64_t burst = la.burst;
  Queued q;
  q.id = req.id;
  q.accept = at;
  q.seq = seq_++;
  q.slice = la.slice;
  q.line = la.line;
  const bool hit = (active_ && *active_ == burst) || (next_ && *next_ == burst);
  stats_.hits += hit;
  ++queued_;
  stats_.queue_high_water = std::max(stats_.queue_high_water, queued_);
  const uint32_t die = DieOf(la.slice);
  const uint64_t on_die = ++die_queued_[die];
  stats_.die_queue_high_water = std::max(stats_.die_queue_high_water, on_die);
  Enqueue(burst, die, q);
  // ACTIVE never has a waiting entry (its requests go to the per-die queues); NEXT may.
  const uint64_t in_flight = waiting_.size() + (active_ ? 1 : 0) +
                             (next_ && next_oldest_accept_ == kNever ? 1 : 0);
  stats_.bursts_in_flight_high_water = std::max(stats_.bursts_in_flight_high_water, in_flight);
}

// --- The event loop -------------------------------------------------------------------------

void BbcModel::Run(const Source& source, const Sink& sink) {
  Run(PolledSource([&](uint64_t) { return SourceReply::Of(source()); }), sink);
}

void BbcModel::Run(const PolledSource& source, const Sink& sink) {
  using Kind = SourceReply::Kind;
  uint64_t last_accept = stats_.load_cycles;
  uint64_t now = stats_.load_cycles;
  bool answered = false;  // a response left since the source was last asked
  const Sink deliver = [&](const BbcResponse& r) {
    answered = true;
    sink(r);
  };
  auto ask = [&]() {
    answered = false;
    return source(now);
  };
  SourceReply next = ask();
  // Only data-outs move a die's I/O from here on (load's programs are over): a running max.
  io_busy_max_ = 0;
  for (const auto& die : dies_) io_busy_max_ = std::max(io_busy_max_, die.IoBusyUntil());
  for (;;) {
    if (next.kind == Kind::kWait && answered) next = ask();  // a response may free an SM
    // Every other kind of event is due at `now` or later, and serving goes first at a cycle: a
    // die due now is served without working out the others.
    if (active_queued_ != 0 && serve_t_[0] <= now) {
      now = serve_t_[0];
      Serve(serve_d_[0], now, deliver);
      continue;
    }
    // Likewise a request the port takes now, when NEXT is set (no read to issue) and cannot be
    // promoted before a later cycle (its sense or a die's I/O is still busy): with no die due now
    // and no source waiting (the source gave a request), the comparison below would pick the
    // accept.
    if (next.kind == Kind::kRequest && next_ && queued_ < crq_cap_ &&
        std::max(next_sensed_at_, io_busy_max_) > now &&
        port_.Earliest(std::max({next.request.cycle, last_accept, now})) == now) {
      last_accept = now;
      Accept(next.request, now, deliver);
      next = ask();
      continue;
    }
    // Earliest time of each kind of event, from the state as it is now.
    uint64_t t_accept = kNever;
    if (next.kind == Kind::kRequest && queued_ < crq_cap_) {
      t_accept = std::max({next.request.cycle, last_accept, now});
      t_accept = port_.Earliest(t_accept);
    }
    const uint64_t t_ask = next.kind == Kind::kWait && next.wake != SourceReply::kNoWake
                               ? std::max(next.wake, now)
                               : kNever;
    uint64_t t_serve = kNever;
    uint32_t serve_die = 0;
    if (active_queued_ != 0) {
      // The first die with the earliest serve time: the tree's root.
      serve_die = serve_d_[0];
      t_serve = serve_t_[0];
    }
    uint64_t t_read = kNever;
    if (!next_ && Pick(now)) {
      t_read = now;
      for (auto& die : dies_) {
        for (uint32_t p = 0; p < cfg_.planes; ++p) t_read = std::max(t_read, die.PlaneReadyAt(p));
      }
    }
    uint64_t t_promote = kNever;
    if (next_) {
      uint64_t cond = kNever;
      if (!active_) {
        cond = now;
      } else if (active_queued_ == 0) {
        cond = std::max(now, active_last_arrival_ + hold_);
      }
      if (active_ && next_oldest_accept_ != kNever) {
        cond = std::min(cond, std::max(now, next_oldest_accept_ + age_cap_));
      }
      if (cond != kNever) {
        t_promote = std::max({cond, next_sensed_at_, io_busy_max_});
      }
    }
    const uint64_t t = std::min({t_accept, t_ask, t_serve, t_read, t_promote});
    if (t == kNever) break;
    now = t;
    // At one cycle: serve first (frees the queue), then sequence the NAND, then accept (or ask
    // a waiting source again).
    if (t_serve == t) {
      Serve(serve_die, now, deliver);
    } else if (t_promote == t) {
      Promote(now);
    } else if (t_read == t) {
      IssueRead(*Pick(now), now);
    } else if (t_ask == t) {
      next = ask();
    } else {
      last_accept = now;
      Accept(next.request, now, deliver);
      next = ask();
    }
  }
  if (next.kind == Kind::kRequest) throw std::logic_error("bbc: a request was left unaccepted");
  if (next.kind == Kind::kWait) {
    throw std::logic_error("bbc: the source waits for a response, but nothing is in flight");
  }
}

}  // namespace flint::model
