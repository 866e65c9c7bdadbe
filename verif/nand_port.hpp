// The NAND die model's readiness onto a Verilated design's die inputs, as every bench that
// attaches a model::NandDie drives them (the stack top, the BBC top, the maintenance sequencer's
// and the refresh die's benches): for die k, plane p is bit k * planes + p of die_plane_idle_i
// (the plane's array idle), die_plane_cache_i (its cache register holds a sensed page ready now)
// and, where the design has it, die_plane_fail_i (idle and its last program or erase failed);
// bit k of die_io_ready_i (the die's I/O free). The data-out return stays with each bench, but for
// the benches of the maintenance sequencer's clients (MaintPortDie below).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "flint_config.hpp"
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

// The NAND die model on one die's maintenance port (nand_m_*, nand_din_*, die_data_*), as the
// benches of the sequencer's clients attach it (tb/refresh: the refresh die and the in-place die,
// each on tb/nand/flint_maint_seq_tb.sv): the contract of verif/top/attach.hpp, a Program sees the
// data-in beats of the cycles before it, a data-out returns when the die's I/O is done with it,
// one cycle later at the earliest. Per cycle: Drive() before the evaluation, Sample() after it.
template <class Dut>
class MaintPortDie {
 public:
  // A command the bench checks and applies itself (Read, Program with its image, Erase).
  struct Cmd {
    model::NandCmd op;
    uint32_t plane, block, page;
    std::vector<uint8_t> image;  // a Program's data-in since the last one
  };
  MaintPortDie(const Config& cfg, model::NandDie& die) : cfg_(cfg), die_(die) {}

  // The die's readiness and a data-out return due now.
  void Drive(Dut& d, uint64_t t) {
    DriveDieReadiness(d, die_, 0, static_cast<uint32_t>(cfg_.phys_planes), t);
    const bool data = dout_ && dout_->first <= t;
    d.die_data_valid_i = data;
    if (data) PutBytes(d.die_data_i, 0, dout_->second);
  }
  // This cycle's data-in beat and command: a DataOut or CacheEnd goes to the die here (it may
  // throw what the die refuses); the others come back to the bench.
  std::optional<Cmd> Sample(Dut& d, uint64_t t) {
    if (dout_ && d.die_data_valid_i) dout_.reset();
    if (d.nand_din_valid_o) {
      const std::vector<uint8_t> beat =
          GetBytes(d.nand_din_data_o, 0, static_cast<uint32_t>(cfg_.cl_image_bytes));
      din_.insert(din_.end(), beat.begin(), beat.end());
    }
    if (!d.nand_m_valid_o) return std::nullopt;
    Cmd c{static_cast<model::NandCmd>(d.nand_m_op_o),
          static_cast<uint32_t>(d.nand_m_plane_o),
          static_cast<uint32_t>(d.nand_m_block_o),
          static_cast<uint32_t>(d.nand_m_page_o),
          {}};
    if (c.op == model::NandCmd::kCacheEnd) {
      die_.CacheEnd({c.plane}, t);
      return std::nullopt;
    }
    if (c.op == model::NandCmd::kDataOut) {
      const uint32_t off = d.nand_m_offset_o, n = d.nand_m_nbytes_o;
      std::vector<uint8_t> img(n);
      const uint64_t free_at = die_.DataOut(c.plane, off, n, t, img.data());
      dout_ = std::make_pair(std::max(free_at, t + 1), img);
      return std::nullopt;
    }
    if (c.op == model::NandCmd::kProgram) c.image.swap(din_);
    return c;
  }

 private:
  const Config& cfg_;
  model::NandDie& die_;
  std::vector<uint8_t> din_;
  std::optional<std::pair<uint64_t, std::vector<uint8_t>>> dout_;
};

}  // namespace flint::verif
