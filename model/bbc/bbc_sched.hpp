// Golden model of flint_bbc_sched (rtl/bbc/flint_bbc_sched.sv; docs/bbc.md): the cl-to-page map's
// slots and the burst scheduler's pick. Cycle-level: Outputs() is what the RTL shows in a cycle
// for given inputs, Step() the clock edge. The pick rule is BbcModel::Pick's (model/bbc).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "model/bbc/bbc_model.hpp"

namespace flint::model {

// One entry a lane in add_req / add_valid / add_burst (missing lanes offer nothing).
struct SchedIn {
  std::vector<bool> add_req, add_valid;
  std::vector<uint64_t> add_burst;
  bool sub_valid = false;
  uint32_t sub_slot = 0;
  uint64_t sub_n = 1;
  bool set_res = false;
  uint32_t set_res_slot = 0;
  bool clr_res = false;
  uint32_t clr_res_slot = 0;
  uint32_t query_slot = 0;
  uint32_t age_slot = 0;
};

struct SchedOut {
  std::vector<bool> add_ready, add_hit;
  std::vector<uint32_t> add_slot;
  bool pick_valid = false;
  uint32_t pick_slot = 0;
  uint64_t pick_burst = 0;
  uint64_t query_count = 0;
  bool query_valid = false;
  uint64_t age = 0;  // now - oldest of age_slot (meaningful while it has queued requests)
  uint32_t used = 0;
};

class BbcSched {
 public:
  BbcSched(uint32_t slots, BbcPolicy policy, uint64_t age_cap, uint32_t lanes = 1);

  SchedOut Outputs(const SchedIn& in) const;
  // The clock edge. Throws std::logic_error for inputs the RTL asserts against (a sub of a slot
  // with nothing queued, a residency mark on a free slot, a clear of a slot not resident).
  void Step(const SchedIn& in);

  struct Slot {
    bool used = false, resident = false;
    uint64_t burst = 0, count = 0, oldest = 0;
  };
  const Slot& slot(uint32_t s) const { return slots_.at(s); }
  uint32_t slots() const { return static_cast<uint32_t>(slots_.size()); }
  uint32_t lanes() const { return lanes_; }
  uint64_t now() const { return now_; }

 private:
  std::vector<Slot> slots_;
  BbcPolicy policy_;
  uint64_t age_cap_;
  uint32_t lanes_;
  uint64_t now_ = 0;
};

}  // namespace flint::model
