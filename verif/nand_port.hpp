// The NAND die model's readiness onto a Verilated design's die inputs, as every bench that
// attaches a model::NandDie drives them (the stack top, the BBC top, the maintenance sequencer's
// and the refresh die's benches): for die k, plane p is bit k * planes + p of die_plane_idle_i
// (the plane's array idle), die_plane_cache_i (its cache register holds a sensed page ready now)
// and, where the design has it, die_plane_fail_i (idle and its last program or erase failed);
// bit k of die_io_ready_i (the die's I/O free). The data-out return stays with each bench.
#pragma once
#include <cstdint>
#include <type_traits>
#include <utility>

#include "model/nand/nand_die.hpp"
#include "verif/ports.hpp"

namespace flint::verif {

namespace nand_port_detail {
template <class D, class = void>
struct HasFail : std::false_type {};
template <class D>
struct HasFail<D, std::void_t<decltype(std::declval<D&>().die_plane_fail_i)>> : std::true_type {};
}  // namespace nand_port_detail

template <class Dut>
void DriveDieReadiness(Dut& d, const model::NandDie& die, uint32_t k, uint32_t planes,
                       uint64_t t) {
  for (uint32_t p = 0; p < planes; ++p) {
    const bool idle = !die.PlaneBusy(p, t);
    PutBits(d.die_plane_idle_i, k * planes + p, 1, idle);
    PutBits(d.die_plane_cache_i, k * planes + p, 1,
            die.CacheBuffer(p) != nullptr && die.CacheReadyAt(p) <= t);
    if constexpr (nand_port_detail::HasFail<Dut>::value) {
      PutBits(d.die_plane_fail_i, k * planes + p, 1, idle && die.Status(p, t).fail);
    }
  }
  PutBits(d.die_io_ready_i, k, 1, die.IoBusyUntil() <= t);
}

}  // namespace flint::verif
