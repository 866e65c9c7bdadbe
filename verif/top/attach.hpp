// The NAND side of flint_top: one NandDie a die attached to the RTL's NAND ports, the way Ibex
// attaches its memory model. Every cycle Drive() puts the dies' state on the DUT's die inputs
// (plane idle, cache ready, fail, I/O ready, the data-out line when it is due) and Apply() runs
// the commands the DUT issued that cycle on the dies: the read port's, then the maintenance
// port's, then the data-in beat (a Program sees only the beats before it). An illegal command
// throws NandError out of the die. Before it changes a die, Apply() tells the observer (the
// driver, which hands it to the scoreboard) what it saw:
//   OnSense(k, stripe, page), OnDataOut(k, plane, offset, image, maintenance),
//   OnProgram(k, plane, block, page, image), OnErase(k, plane, block),
//   Violation(what) for a broken port rule (a data-out of other than one line, two in flight,
//   a program without a page of data-in, an opcode a port does not carry).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "flint_config.hpp"
#include "model/ecc/secded.hpp"
#include "model/nand/nand_die.hpp"
#include "verif/ports.hpp"
#include "verif/nand_port.hpp"

namespace flint::verif::top {

template <class Dut>
class TopNand {
 public:
  TopNand(const flint::Config& cfg, uint64_t seed, flint::model::NandOptions nopt) : cfg_(cfg) {
    nopt.program_data_in_on_io = false;
    for (uint32_t d = 0; d < cfg.dies; ++d) {
      dies_.emplace_back(cfg, d, seed, nopt);
      dies_.back().SetSpareFn(flint::model::SecdedEncode);
    }
    pb_ = Bits(cfg.phys_planes);
    bb_ = Bits(cfg.blocks);
    pgb_ = Bits(cfg.pages);
    ob_ = Bits(cfg.cl_per_page * cfg.cl_image_bytes + 1);
    pending_.resize(cfg.dies);
    din_.resize(cfg.dies);
    beat_.resize(cfg.cl_image_bytes);
  }

  flint::model::NandDie& die(uint32_t d) { return dies_.at(d); }
  const flint::model::NandDie& die(uint32_t d) const { return dies_.at(d); }

  // Power loss: the dies keep their cells; data-outs and data-in beats in flight are lost.
  void PowerUp() {
    for (auto& p : pending_) p.valid = false;
    for (auto& b : din_) b.clear();
  }

  // The largest read count of any block of any die (senses since its erase).
  uint64_t MaxDisturb() const {
    uint64_t m = 0;
    for (const flint::model::NandDie& die : dies_) {
      for (uint32_t p = 0; p < cfg_.phys_planes; ++p) {
        for (uint32_t b = 0; b < cfg_.blocks; ++b) m = std::max(m, die.DisturbCount(p, b));
      }
    }
    return m;
  }

  // The dies' state at cycle t onto the DUT's die inputs.
  void Drive(Dut& d, uint64_t t) {
    for (uint32_t k = 0; k < cfg_.dies; ++k) {
      flint::model::NandDie& die = dies_[k];
      DriveDieReadiness(d, die, k, static_cast<uint32_t>(cfg_.phys_planes), t);
      const bool data = pending_[k].valid && pending_[k].at <= t;
      PutBits(d.die_data_valid_i, k, 1, data);
      if (data) {
        PutBytes(d.die_data_i, static_cast<uint32_t>(k * cfg_.cl_image_bytes), pending_[k].image);
      }
    }
  }

  // The DUT's NAND commands of cycle t, applied to the dies (see the top of the file).
  template <class Observer>
  void Apply(Dut& d, uint64_t t, Observer& obs) {
    using flint::model::NandCmd;
    using flint::model::PlaneBlock;
    const uint32_t sp = static_cast<uint32_t>(cfg_.planes) * pb_;
    const uint32_t sb = static_cast<uint32_t>(cfg_.planes) * bb_;
    for (uint32_t k = 0; k < cfg_.dies; ++k) {
      if (pending_[k].valid && GetBits(d.die_data_valid_i, k, 1)) pending_[k].valid = false;
      flint::model::NandDie& die = dies_[k];
      if (GetBits(d.nand_valid_o, k, 1)) {
        const auto op = static_cast<NandCmd>(GetBits(d.nand_op_o, k * 3, 3));
        const auto page = static_cast<uint32_t>(GetBits(d.nand_page_o, k * pgb_, pgb_));
        // The stripe's vectors are the attachment's own, refilled: no allocation per command.
        std::vector<PlaneBlock>& stripe = stripe_;
        std::vector<uint32_t>& planes = planes_;
        stripe.clear();
        planes.clear();
        for (uint32_t p = 0; p < cfg_.planes; ++p) {
          const auto ph = static_cast<uint32_t>(GetBits(d.nand_planes_o, k * sp + p * pb_, pb_));
          const auto bl = static_cast<uint32_t>(GetBits(d.nand_blocks_o, k * sb + p * bb_, bb_));
          stripe.push_back({ph, bl});
          planes.push_back(ph);
        }
        switch (op) {
          case NandCmd::kRead:
            obs.OnSense(k, stripe, page);
            die.Read(stripe, page, t);
            break;
          case NandCmd::kCacheRead:
            obs.OnSense(k, stripe, page);
            die.CacheRead(stripe, page, t);
            break;
          case NandCmd::kCacheEnd:
            die.CacheEnd(planes, t);
            break;
          case NandCmd::kDataOut:
            DataOut(k, static_cast<uint32_t>(GetBits(d.nand_plane_o, k * pb_, pb_)),
                    static_cast<uint32_t>(GetBits(d.nand_offset_o, k * ob_, ob_)),
                    static_cast<uint32_t>(GetBits(d.nand_nbytes_o, k * ob_, ob_)), false, t, obs);
            break;
          default:
            obs.Violation("read port opcode " + std::to_string(static_cast<int>(op)));
        }
      }
      if (GetBits(d.nand_m_valid_o, k, 1)) {
        const auto op = static_cast<NandCmd>(GetBits(d.nand_m_op_o, k * 3, 3));
        const auto page = static_cast<uint32_t>(GetBits(d.nand_m_page_o, k * pgb_, pgb_));
        const auto plane = static_cast<uint32_t>(GetBits(d.nand_m_plane_o, k * pb_, pb_));
        const auto block = static_cast<uint32_t>(GetBits(d.nand_m_block_o, k * bb_, bb_));
        switch (op) {
          case NandCmd::kRead:
            die.Read({{plane, block}}, page, t);
            break;
          case NandCmd::kCacheEnd:
            die.CacheEnd({plane}, t);
            break;
          case NandCmd::kDataOut:
            DataOut(k, plane, static_cast<uint32_t>(GetBits(d.nand_m_offset_o, k * ob_, ob_)),
                    static_cast<uint32_t>(GetBits(d.nand_m_nbytes_o, k * ob_, ob_)), true, t, obs);
            break;
          case NandCmd::kProgram:
            Program(k, plane, block, page, t, obs);
            break;
          case NandCmd::kErase:
            obs.OnErase(k, plane, block);
            die.Erase(plane, block, t);
            break;
          default:
            obs.Violation("maintenance port opcode " + std::to_string(static_cast<int>(op)));
        }
      }
      if (GetBits(d.nand_din_valid_o, k, 1)) {
        GetBytesInto(d.nand_din_data_o, static_cast<uint32_t>(k * cfg_.cl_image_bytes),
                     static_cast<uint32_t>(cfg_.cl_image_bytes), beat_.data());
        din_[k].insert(din_[k].end(), beat_.begin(), beat_.end());
      }
    }
  }

 private:
  // A die's data-out on its way: the image buffer is kept from one to the next.
  struct Out {
    bool valid = false;
    uint64_t at = 0;
    std::vector<uint8_t> image;
  };

  // A line's data-out: due on the die's data port when the die's I/O has moved it.
  template <class Observer>
  void DataOut(uint32_t k, uint32_t plane, uint32_t off, uint32_t n, bool maintenance, uint64_t t,
               Observer& obs) {
    if (n != cfg_.cl_image_bytes) obs.Violation("a data-out of other than one line");
    if (pending_[k].valid) obs.Violation("two data-outs in flight on one die");
    Out& o = pending_[k];
    o.image.resize(n);
    const uint64_t free_at = dies_[k].DataOut(plane, off, n, t, o.image.data());
    o.valid = true;
    o.at = std::max(free_at, t + 1);
    obs.OnDataOut(k, plane, off, o.image, maintenance);
  }

  // A program of the page of data-in beats since the last one.
  template <class Observer>
  void Program(uint32_t k, uint32_t plane, uint32_t block, uint32_t page, uint64_t t,
               Observer& obs) {
    std::vector<uint8_t> image;
    image.swap(din_[k]);
    if (image.size() != cfg_.page_image_bytes) {
      obs.Violation("a program with " + std::to_string(image.size()) + " bytes of data-in");
      image.resize(cfg_.page_image_bytes, 0);
    }
    obs.OnProgram(k, plane, block, page, image);
    dies_[k].ProgramBytes(flint::model::PageAddr{plane, block, page}, image, t);
  }

  flint::Config cfg_;
  std::vector<flint::model::NandDie> dies_;
  uint32_t pb_ = 1, bb_ = 1, pgb_ = 1, ob_ = 1;
  std::vector<Out> pending_;
  std::vector<std::vector<uint8_t>> din_;
  std::vector<uint8_t> beat_;  // a data-in beat, on its way into din_
  std::vector<flint::model::PlaneBlock> stripe_;
  std::vector<uint32_t> planes_;
};

}  // namespace flint::verif::top
