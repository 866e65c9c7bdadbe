#include "model/bbc/bbc_sched.hpp"

#include <stdexcept>
#include <string>

namespace flint::model {

BbcSched::BbcSched(uint32_t slots, BbcPolicy policy, uint64_t age_cap)
    : slots_(slots), policy_(policy), age_cap_(age_cap) {
  if (slots == 0) throw std::invalid_argument("bbc_sched: no slots");
}

SchedOut BbcSched::Outputs(const SchedIn& in) const {
  SchedOut o;
  std::optional<uint32_t> hit, free;
  for (uint32_t s = 0; s < slots(); ++s) {
    if (slots_[s].used && slots_[s].burst == in.add_burst && !hit) hit = s;
    if (!slots_[s].used && !free) free = s;
    o.used += slots_[s].used;
  }
  o.add_hit = hit.has_value();
  o.add_ready = hit || free;
  o.add_slot = hit ? *hit : free.value_or(0);
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
  return o;
}

void BbcSched::Step(const SchedIn& in) {
  const SchedOut o = Outputs(in);
  if (in.sub_valid && (!slots_.at(in.sub_slot).used || slots_[in.sub_slot].count == 0)) {
    throw std::logic_error("bbc_sched: sub of slot " + std::to_string(in.sub_slot) +
                           " with nothing queued");
  }
  const bool add = in.add_valid && o.add_ready;
  if (in.set_res && !slots_.at(in.set_res_slot).used && !(add && o.add_slot == in.set_res_slot)) {
    throw std::logic_error("bbc_sched: residency mark on free slot " +
                           std::to_string(in.set_res_slot));
  }
  if (in.clr_res && !slots_.at(in.clr_res_slot).resident) {
    throw std::logic_error("bbc_sched: clear of slot " + std::to_string(in.clr_res_slot) +
                           ", which is not resident");
  }
  for (uint32_t s = 0; s < slots(); ++s) {
    Slot& x = slots_[s];
    const bool a = add && o.add_slot == s;
    const bool d = in.sub_valid && in.sub_slot == s;
    const uint64_t before = x.count;
    if (a && !x.used) x.burst = in.add_burst;
    // A request joins an empty queue (or replaces the last one served in the same cycle).
    if (a && (before == 0 || (d && before == 1))) x.oldest = now_;
    x.count = before + a - d;
    x.resident = (x.resident || (in.set_res && in.set_res_slot == s)) &&
                 !(in.clr_res && in.clr_res_slot == s);
    x.used = (x.used || a) && (x.resident || x.count != 0);
  }
  ++now_;
}

}  // namespace flint::model
