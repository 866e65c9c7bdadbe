// Every output port of flint_top, as bytes: two models compared cycle by cycle (test_top's fast
// power-up case, flint-sim's --check-fast-powerup) compare these.
#pragma once
#include <string>

namespace flint::verif::top {

// The output ports (the same list at every config; widths differ).
// clang-format off
#define FLINT_TOP_OUTPUTS(X)                                                                       \
  X(ready_o) X(load_ready_o) X(load_busy_o) X(load_done_o) X(load_refused_o) X(loaded_o)           \
  X(live_blocks_o) X(load_progress_o) X(load_err_o) X(load_err_code_o) X(load_err_die_o)           \
  X(load_err_plane_o) X(load_err_block_o) X(load_err_page_o) X(req_ready_o) X(rsp_valid_o)         \
  X(rsp_status_o) X(rsp_id_o) X(rsp_data_o) X(nand_valid_o) X(nand_op_o) X(nand_page_o)            \
  X(nand_plane_o) X(nand_planes_o) X(nand_blocks_o) X(nand_offset_o) X(nand_nbytes_o)              \
  X(nand_m_valid_o) X(nand_m_op_o) X(nand_m_plane_o) X(nand_m_block_o) X(nand_m_page_o)            \
  X(nand_m_offset_o) X(nand_m_nbytes_o) X(nand_din_valid_o) X(nand_din_data_o) X(sense_o)          \
  X(sense_burst_o) X(rf_phantom_o) X(rf_source_o) X(rf_phase_o) X(rf_alarm_o) X(rf_err_o)          \
  X(rf_err_code_o) X(remap_valid_o) X(remap_die_o) X(remap_lplane_o) X(remap_lblock_o)             \
  X(remap_pplane_o) X(remap_pblock_o) X(counters_err_o) X(sense_overflow_o) X(load_cycles_o)       \
  X(stat_requests_o) X(stat_responses_o) X(stat_bursts_o) X(stat_refetched_o)                      \
  X(stat_useful_bytes_o) X(stat_fetched_bytes_o) X(stat_link_slots_o) X(stat_busy_cycles_o)        \
  X(stat_queue_high_water_o) X(stat_displacements_o) X(stat_park_wait_o) X(rf_rotations_o)         \
  X(rf_forked_o) X(rf_scrubbed_o) X(rf_programmed_o) X(rf_erased_o) X(rf_dropped_o)                \
  X(rf_poisoned_o) X(rf_due_o) X(rf_limit_o) X(rf_retired_prog_o) X(rf_retired_erase_o)
// clang-format on

// The bytes of every output port, appended to `out`.
template <class Dut>
void AppendOutputs(const Dut& d, std::string& out) {
#define FLINT_APPEND(p) out.append(reinterpret_cast<const char*>(&d.p), sizeof(d.p));
  FLINT_TOP_OUTPUTS(FLINT_APPEND)
#undef FLINT_APPEND
}

}  // namespace flint::verif::top
