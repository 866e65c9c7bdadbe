#include "model/ftl/reloc_table.hpp"

#include <sstream>
#include <stdexcept>

namespace flint::model {

RelocTable::RelocTable(const Config& cfg)
    : dies_(static_cast<uint32_t>(cfg.dies)),
      planes_(static_cast<uint32_t>(cfg.planes)),
      blocks_(static_cast<uint32_t>(cfg.blocks)),
      cursor_(cfg.dies, 0),
      plane_map_(cfg) {
  map_.resize(size_t{dies_} * planes_ * blocks_);
  slots_.resize(size_t{dies_} * phys_planes() * blocks_, Slot{BlockState::kFree, 0, 0});
  for (uint32_t d = 0; d < dies_; ++d) {
    for (uint32_t l = 0; l < planes_; ++l) {
      for (uint32_t b = 0; b < blocks_; ++b) {
        map_[LogIdx(d, l, b)] = Phys{l, b};
        slots_[PhysIdx(d, l, b)] = Slot{BlockState::kMapped, l, b};
      }
    }
  }
}

size_t RelocTable::LogIdx(uint32_t die, uint32_t lplane, uint32_t lblock) const {
  if (die >= dies_ || lplane >= planes_ || lblock >= blocks_) {
    throw std::out_of_range("RelocTable: logical block outside the geometry");
  }
  return (size_t{die} * planes_ + lplane) * blocks_ + lblock;
}

size_t RelocTable::PhysIdx(uint32_t die, uint32_t plane, uint32_t block) const {
  if (!PhysInRange(die, plane, block)) {
    throw std::out_of_range("RelocTable: physical block outside the geometry");
  }
  return (size_t{die} * phys_planes() + plane) * blocks_ + block;
}

bool RelocTable::PhysInRange(uint32_t die, uint32_t plane, uint32_t block) const {
  return die < dies_ && plane < phys_planes() && block < blocks_;
}

RelocLookup RelocTable::Lookup(uint32_t die, uint32_t lplane, uint32_t lblock) const {
  const Phys& p = map_[LogIdx(die, lplane, lblock)];
  return {p.plane, p.block, plane_map_.Phantom(die, lblock)};
}

BlockState RelocTable::State(uint32_t die, uint32_t plane, uint32_t block) const {
  return slots_[PhysIdx(die, plane, block)].state;
}

uint32_t RelocTable::FreeBlocks(uint32_t die, uint32_t plane) const {
  uint32_t n = 0;
  for (uint32_t b = 0; b < blocks_; ++b) n += State(die, plane, b) == BlockState::kFree;
  return n;
}

RelocResult RelocTable::Named(uint32_t plane, uint32_t block, const Slot& s) const {
  RelocResult r;
  r.state = s.state;
  r.plane = plane;
  r.block = block;
  if (s.state == BlockState::kMapped || s.state == BlockState::kReserved) {
    r.lplane = s.lplane;
    r.lblock = s.lblock;
  }
  return r;
}

RelocResult RelocTable::Apply(RelocCmd op, uint32_t die, uint32_t plane, uint32_t block) {
  switch (op) {
    case RelocCmd::kAlloc:
      return Alloc(die, plane, block);
    case RelocCmd::kCommit:
      return Commit(die, plane, block);
    case RelocCmd::kRelease:
      return Release(die, plane, block);
    case RelocCmd::kMarkBad:
      return MarkBad(die, plane, block);
    case RelocCmd::kQuery:
      return Query(die, plane, block);
  }
  throw std::invalid_argument("RelocTable::Apply: unknown command");
}

RelocResult RelocTable::Alloc(uint32_t die, uint32_t lplane, uint32_t lblock) {
  RelocResult r;
  if (die >= dies_ || lplane >= planes_ || lblock >= blocks_) {
    r.status = FtlStatus::kOutOfRange;
    r.plane = lplane;
    r.block = lblock;
    return r;
  }
  const uint32_t phantom = plane_map_.Phantom(die, lblock);
  r.plane = phantom;
  r.lplane = lplane;
  r.lblock = lblock;
  if (plane_map_.Pending(die, lblock)) {
    r.status = FtlStatus::kBusy;
    return r;
  }
  // Next-fit: the first free block of the phantom plane at or after the die's cursor.
  for (uint32_t k = 0; k < blocks_; ++k) {
    const uint32_t pb = (cursor_[die] + k) % blocks_;
    Slot& s = slots_[PhysIdx(die, phantom, pb)];
    if (s.state != BlockState::kFree) continue;
    s = Slot{BlockState::kReserved, lplane, lblock};
    plane_map_.Set(die, lblock, phantom, true);
    cursor_[die] = (pb + 1) % blocks_;
    r.block = pb;
    return r;
  }
  r.status = FtlStatus::kNoFree;
  return r;
}

RelocResult RelocTable::Commit(uint32_t die, uint32_t plane, uint32_t block) {
  if (!PhysInRange(die, plane, block)) {
    RelocResult r;
    r.status = FtlStatus::kOutOfRange;
    r.plane = plane;
    r.block = block;
    return r;
  }
  Slot& dst = slots_[PhysIdx(die, plane, block)];
  if (dst.state != BlockState::kReserved) {
    RelocResult r = Named(plane, block, dst);
    r.status = FtlStatus::kWrongState;
    return r;
  }
  const uint32_t l = dst.lplane, b = dst.lblock;
  Phys& m = map_[LogIdx(die, l, b)];
  const Phys src = m;
  m = Phys{plane, block};
  dst = Slot{BlockState::kMapped, l, b};
  slots_[PhysIdx(die, src.plane, src.block)] = Slot{BlockState::kVacated, 0, 0};
  plane_map_.Set(die, b, src.plane, false);
  RelocResult r;
  r.state = BlockState::kReserved;
  r.plane = src.plane;
  r.block = src.block;
  r.lplane = l;
  r.lblock = b;
  return r;
}

RelocResult RelocTable::Release(uint32_t die, uint32_t plane, uint32_t block) {
  if (!PhysInRange(die, plane, block)) {
    RelocResult r;
    r.status = FtlStatus::kOutOfRange;
    r.plane = plane;
    r.block = block;
    return r;
  }
  Slot& s = slots_[PhysIdx(die, plane, block)];
  RelocResult r = Named(plane, block, s);
  if (s.state == BlockState::kReserved) {
    plane_map_.Set(die, s.lblock, plane_map_.Phantom(die, s.lblock), false);
  } else if (s.state != BlockState::kVacated) {
    r.status = FtlStatus::kWrongState;
    return r;
  }
  s = Slot{BlockState::kFree, 0, 0};
  return r;
}

RelocResult RelocTable::MarkBad(uint32_t die, uint32_t plane, uint32_t block) {
  if (!PhysInRange(die, plane, block)) {
    RelocResult r;
    r.status = FtlStatus::kOutOfRange;
    r.plane = plane;
    r.block = block;
    return r;
  }
  Slot& s = slots_[PhysIdx(die, plane, block)];
  RelocResult r = Named(plane, block, s);
  if (s.state == BlockState::kMapped) {
    r.status = FtlStatus::kWrongState;  // it backs a logical block: relocate it first
    return r;
  }
  if (s.state == BlockState::kReserved) {
    plane_map_.Set(die, s.lblock, plane_map_.Phantom(die, s.lblock), false);
  }
  s = Slot{BlockState::kBad, 0, 0};
  return r;
}

RelocResult RelocTable::Query(uint32_t die, uint32_t plane, uint32_t block) const {
  if (!PhysInRange(die, plane, block)) {
    RelocResult r;
    r.status = FtlStatus::kOutOfRange;
    r.plane = plane;
    r.block = block;
    return r;
  }
  return Named(plane, block, slots_[PhysIdx(die, plane, block)]);
}

std::string RelocTable::CheckInvariants() const {
  std::ostringstream err;
  size_t mapped = 0;
  for (const Slot& s : slots_) mapped += s.state == BlockState::kMapped;
  if (mapped != map_.size()) {
    err << mapped << " mapped blocks for " << map_.size() << " logical blocks";
    return err.str();
  }
  for (uint32_t d = 0; d < dies_; ++d) {
    for (uint32_t b = 0; b < blocks_; ++b) {
      uint64_t planes_used = 0;
      for (uint32_t l = 0; l < planes_; ++l) {
        const Phys& p = map_[LogIdx(d, l, b)];
        const Slot& s = slots_[PhysIdx(d, p.plane, p.block)];
        if (s.state != BlockState::kMapped || s.lplane != l || s.lblock != b) {
          err << "logical (" << d << "," << l << "," << b << ") -> (" << p.plane << "," << p.block
              << ") which is " << ToString(s.state) << " for (" << s.lplane << "," << s.lblock
              << ")";
          return err.str();
        }
        if (planes_used >> p.plane & 1) {
          err << "two copies of block " << b << " of die " << d << " on plane " << p.plane;
          return err.str();
        }
        planes_used |= uint64_t{1} << p.plane;
      }
      const uint32_t ph = plane_map_.Phantom(d, b);
      if (planes_used >> ph & 1) {
        err << "phantom plane " << ph << " of (die " << d << ", block " << b << ") holds a copy";
        return err.str();
      }
      uint32_t reserved = 0;
      for (uint32_t p = 0; p < phys_planes(); ++p) {
        for (uint32_t pb = 0; pb < blocks_; ++pb) {
          const Slot& s = slots_[PhysIdx(d, p, pb)];
          if (s.state != BlockState::kReserved || s.lblock != b) continue;
          ++reserved;
          if (p != ph) {
            err << "reservation for (die " << d << ", block " << b << ") on plane " << p
                << ", phantom is " << ph;
            return err.str();
          }
        }
      }
      if (reserved > 1 || plane_map_.Pending(d, b) != (reserved == 1)) {
        err << "(die " << d << ", block " << b << "): pending " << plane_map_.Pending(d, b)
            << " with " << reserved << " reservations";
        return err.str();
      }
    }
  }
  return "";
}

}  // namespace flint::model
