// C++ mirrors of the refresh buses' packed structs, which scripts/gen_config.py generates into
// flint_cfg_pkg (their widths come from the config; docs/refresh.md, "The buses as structs").
// Pack() / Unpack() put the first SV field at the MSB, as a packed struct does; Level::kStack is
// the stack_ version of a struct (flint_refresh to flint_top), with the die as its first field.
// The enum fields are raw bits of flint_pkg's enum widths (flint_cfg_pkg::RelocCmdBits, ...).
#pragma once
#include <cstdint>

#include "flint_config.hpp"
#include "model/ftl/ftl_types.hpp"

namespace flint {

enum class BusLevel : uint8_t { kDie, kStack };

inline constexpr uint32_t kRelocCmdBits = 3;   // flint_cfg_pkg::RelocCmdBits
inline constexpr uint32_t kFtlStatusBits = 3;  // flint_cfg_pkg::FtlStatusBits
inline constexpr uint32_t kBlkStateBits = 3;   // flint_cfg_pkg::BlkStateBits

namespace bus_detail {
inline constexpr uint64_t Mask(uint64_t bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}
// Fields first to last: the first ends at the MSB.
class Packer {
 public:
  Packer& Put(uint64_t v, uint64_t bits) {
    v_ = (v_ << bits) | (v & Mask(bits));
    return *this;
  }
  uint64_t value() const { return v_; }

 private:
  uint64_t v_ = 0;
};
// Fields last to first, from the LSB.
class Unpacker {
 public:
  explicit Unpacker(uint64_t v) : v_(v) {}
  uint32_t Take(uint64_t bits) {
    const uint64_t f = v_ & Mask(bits);
    v_ >>= bits;
    return static_cast<uint32_t>(f);
  }

 private:
  uint64_t v_;
};
inline uint64_t DieBits(const Config& c, BusLevel l) {
  return l == BusLevel::kStack ? c.die_bits : 0;
}
}  // namespace bus_detail

// rc_cmd_t / stack_rc_cmd_t: a relocation-table command.
struct RcCmd {
  uint32_t die = 0;  // kStack only
  RelocCmd op = RelocCmd::kQuery;
  uint32_t plane = 0, block = 0;

  static uint64_t Width(const Config& c, BusLevel l) {
    return bus_detail::DieBits(c, l) + kRelocCmdBits + c.phys_plane_bits + c.block_bits;
  }
  uint64_t Pack(const Config& c, BusLevel l) const {
    return bus_detail::Packer()
        .Put(die, bus_detail::DieBits(c, l))
        .Put(static_cast<uint64_t>(op), kRelocCmdBits)
        .Put(plane, c.phys_plane_bits)
        .Put(block, c.block_bits)
        .value();
  }
  static RcCmd Unpack(const Config& c, BusLevel l, uint64_t v) {
    bus_detail::Unpacker u(v);
    RcCmd r;
    r.block = u.Take(c.block_bits);
    r.plane = u.Take(c.phys_plane_bits);
    r.op = static_cast<RelocCmd>(u.Take(kRelocCmdBits));
    r.die = u.Take(bus_detail::DieBits(c, l));
    return r;
  }
};

// rc_rsp_t: the table's answer (the same at both levels).
struct RcRsp {
  FtlStatus status = FtlStatus::kOk;
  BlockState state = BlockState::kFree;
  uint32_t plane = 0, block = 0, lplane = 0, lblock = 0;

  static uint64_t Width(const Config& c) {
    return kFtlStatusBits + kBlkStateBits + c.phys_plane_bits + 2 * c.block_bits + c.plane_bits;
  }
  uint64_t Pack(const Config& c) const {
    return bus_detail::Packer()
        .Put(static_cast<uint64_t>(status), kFtlStatusBits)
        .Put(static_cast<uint64_t>(state), kBlkStateBits)
        .Put(plane, c.phys_plane_bits)
        .Put(block, c.block_bits)
        .Put(lplane, c.plane_bits)
        .Put(lblock, c.block_bits)
        .value();
  }
  static RcRsp Unpack(const Config& c, uint64_t v) {
    bus_detail::Unpacker u(v);
    RcRsp r;
    r.lblock = u.Take(c.block_bits);
    r.lplane = u.Take(c.plane_bits);
    r.block = u.Take(c.block_bits);
    r.plane = u.Take(c.phys_plane_bits);
    r.state = static_cast<BlockState>(u.Take(kBlkStateBits));
    r.status = static_cast<FtlStatus>(u.Take(kFtlStatusBits));
    return r;
  }
};

// pblk_t / stack_pblk_t: a physical block (a read-count reset, a scrubber's sense).
struct Pblk {
  uint32_t die = 0;  // kStack only
  uint32_t plane = 0, block = 0;

  static uint64_t Width(const Config& c, BusLevel l) {
    return bus_detail::DieBits(c, l) + c.phys_plane_bits + c.block_bits;
  }
  uint64_t Pack(const Config& c, BusLevel l) const {
    return bus_detail::Packer()
        .Put(die, bus_detail::DieBits(c, l))
        .Put(plane, c.phys_plane_bits)
        .Put(block, c.block_bits)
        .value();
  }
  static Pblk Unpack(const Config& c, BusLevel l, uint64_t v) {
    bus_detail::Unpacker u(v);
    Pblk r;
    r.block = u.Take(c.block_bits);
    r.plane = u.Take(c.phys_plane_bits);
    r.die = u.Take(bus_detail::DieBits(c, l));
    return r;
  }
};

// evt_t / stack_evt_t: a read-counter trip event.
struct Evt {
  uint32_t die = 0;  // kStack only
  uint32_t plane = 0, block = 0;
  bool limit = false;

  static uint64_t Width(const Config& c, BusLevel l) {
    return bus_detail::DieBits(c, l) + c.phys_plane_bits + c.block_bits + 1;
  }
  uint64_t Pack(const Config& c, BusLevel l) const {
    return bus_detail::Packer()
        .Put(die, bus_detail::DieBits(c, l))
        .Put(plane, c.phys_plane_bits)
        .Put(block, c.block_bits)
        .Put(limit ? 1 : 0, 1)
        .value();
  }
  static Evt Unpack(const Config& c, BusLevel l, uint64_t v) {
    bus_detail::Unpacker u(v);
    Evt r;
    r.limit = u.Take(1) != 0;
    r.block = u.Take(c.block_bits);
    r.plane = u.Take(c.phys_plane_bits);
    r.die = u.Take(bus_detail::DieBits(c, l));
    return r;
  }
};

// upd_t / stack_upd_t: a committed relocation for the stripe table.
struct Upd {
  uint32_t die = 0;  // kStack only
  uint32_t lplane = 0, lblock = 0, pplane = 0, pblock = 0;

  static uint64_t Width(const Config& c, BusLevel l) {
    return bus_detail::DieBits(c, l) + c.plane_bits + 2 * c.block_bits + c.phys_plane_bits;
  }
  uint64_t Pack(const Config& c, BusLevel l) const {
    return bus_detail::Packer()
        .Put(die, bus_detail::DieBits(c, l))
        .Put(lplane, c.plane_bits)
        .Put(lblock, c.block_bits)
        .Put(pplane, c.phys_plane_bits)
        .Put(pblock, c.block_bits)
        .value();
  }
  static Upd Unpack(const Config& c, BusLevel l, uint64_t v) {
    bus_detail::Unpacker u(v);
    Upd r;
    r.pblock = u.Take(c.block_bits);
    r.pplane = u.Take(c.phys_plane_bits);
    r.lblock = u.Take(c.block_bits);
    r.lplane = u.Take(c.plane_bits);
    r.die = u.Take(bus_detail::DieBits(c, l));
    return r;
  }
};

}  // namespace flint
