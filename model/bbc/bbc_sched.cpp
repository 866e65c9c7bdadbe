#include "model/bbc/bbc_sched.hpp"

#include <stdexcept>
#include <string>

namespace flint::model {

namespace {
bool Lane(const std::vector<bool>& v, uint32_t l) { return l < v.size() && v[l]; }
uint64_t LaneBurst(const SchedIn& in, uint32_t l) {
  return l < in.add_burst.size() ? in.add_burst[l] : 0;
}
}  // namespace

BbcSched::BbcSched(uint32_t slots, BbcPolicy policy, uint64_t age_cap, uint32_t lanes)
    : slots_(slots), policy_(policy), age_cap_(age_cap), lanes_(lanes) {
  if (slots == 0) throw std::invalid_argument("bbc_sched: no slots");
  if (lanes == 0) throw std::invalid_argument("bbc_sched: no lanes");
}

SchedOut BbcSched::Outputs(const SchedIn& in) const {
  SchedOut o;
  std::optional<uint32_t> free;
  for (uint32_t s = 0; s < slots(); ++s) {
    if (!slots_[s].used && !free) free = s;
    o.used += slots_[s].used;
  }
  // Each lane looks up its burst; the first offered lane with a new burst names the one burst
  // that may take the free slot this cycle.
  std::optional<uint64_t> new_burst;
  for (uint32_t l = 0; l < lanes_; ++l) {
    std::optional<uint32_t> hit;
    for (uint32_t s = 0; s < slots() && !hit; ++s) {
      if (slots_[s].used && slots_[s].burst == LaneBurst(in, l)) hit = s;
    }
    if (Lane(in.add_req, l) && !hit && !new_burst) new_burst = LaneBurst(in, l);
    o.add_hit.push_back(hit.has_value());
    o.add_slot.push_back(hit ? *hit : free.value_or(0));
  }
  for (uint32_t l = 0; l < lanes_; ++l) {
    o.add_ready.push_back(o.add_hit[l] ||
                          (free && (!new_burst || *new_burst == LaneBurst(in, l))));
  }
  // Candidates: queued requests, not resident. Oldest first (FCFS); most queued, ties oldest.
  std::optional<uint32_t> oldest, most;
  for (uint32_t s = 0; s < slots(); ++s) {
    const Slot& x = slots_[s];
    if (!x.used || x.resident || x.count == 0) continue;
    const uint64_t age = now_ - x.oldest;
    if (!oldest || age > now_ - slots_[*oldest].oldest) oldest = s;
    if (!most || x.count > slots_[*most].count ||
        (x.count == slots_[*most].count && age > now_ - slots_[*most].oldest)) {
      most = s;
    }
  }
  o.pick_valid = oldest.has_value();
  if (oldest) {
    const bool capped = now_ - slots_[*oldest].oldest >= age_cap_;
    o.pick_slot = (policy_ == BbcPolicy::kFcfs || capped) ? *oldest : *most;
  }
  o.pick_burst = slots_[o.pick_slot].burst;
  o.query_count = slots_.at(in.query_slot).count;
  o.query_valid = slots_.at(in.query_slot).used;
  o.age = (now_ - slots_.at(in.age_slot).oldest) & 0xffffffffu;  // the RTL's 32-bit difference
  return o;
}

void BbcSched::Step(const SchedIn& in) {
  const SchedOut o = Outputs(in);
  if (in.sub_valid && (!slots_.at(in.sub_slot).used || slots_[in.sub_slot].count < in.sub_n)) {
    throw std::logic_error("bbc_sched: sub of " + std::to_string(in.sub_n) + " from slot " +
                           std::to_string(in.sub_slot) + ", which has fewer queued");
  }
  std::vector<uint64_t> added(slots(), 0);
  bool alloc = false;
  for (uint32_t l = 0; l < lanes_; ++l) {
    if (!Lane(in.add_valid, l)) continue;
    if (!Lane(in.add_req, l) || !o.add_ready[l]) {
      throw std::logic_error("bbc_sched: add on lane " + std::to_string(l) +
                             ", which was not offered and ready");
    }
    ++added[o.add_slot[l]];
    alloc = alloc || !o.add_hit[l];
  }
  std::optional<uint32_t> free;
  for (uint32_t s = 0; s < slots() && !free; ++s) {
    if (!slots_[s].used) free = s;
  }
  if (in.set_res && !slots_.at(in.set_res_slot).used &&
      !(alloc && free && *free == in.set_res_slot)) {
    throw std::logic_error("bbc_sched: residency mark on free slot " +
                           std::to_string(in.set_res_slot));
  }
  if (in.clr_res && !slots_.at(in.clr_res_slot).resident) {
    throw std::logic_error("bbc_sched: clear of slot " + std::to_string(in.clr_res_slot) +
                           ", which is not resident");
  }
  for (uint32_t s = 0; s < slots(); ++s) {
    Slot& x = slots_[s];
    const bool a = added[s] != 0;
    const uint64_t d = (in.sub_valid && in.sub_slot == s) ? in.sub_n : 0;
    const uint64_t before = x.count;
    if (a && !x.used) {
      for (uint32_t l = 0; l < lanes_; ++l) {
        if (Lane(in.add_valid, l) && !o.add_hit[l]) x.burst = LaneBurst(in, l);
      }
    }
    // Requests join an empty queue (or replace the last ones served in the same cycle).
    if (a && (before == 0 || (d != 0 && before == d))) x.oldest = now_;
    x.count = before + added[s] - d;
    x.resident = (x.resident || (in.set_res && in.set_res_slot == s)) &&
                 !(in.clr_res && in.clr_res_slot == s);
    x.used = (x.used || a) && (x.resident || x.count != 0);
  }
  ++now_;
}

}  // namespace flint::model
