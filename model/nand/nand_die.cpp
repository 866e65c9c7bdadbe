#include "model/nand/nand_die.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

namespace flint::model {

namespace {

constexpr uint64_t kFactorySalt = 0x6661'6374'6f72'7921ULL;  // "factory!"
constexpr uint64_t kPositionSalt = 0x706f'7369'7469'6f6eULL;
constexpr uint64_t kGarbageSalt = 0x6761'7262'6167'6521ULL;

uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

std::string Str(uint64_t v) { return std::to_string(v); }

}  // namespace

NandDie::NandDie(const Config& cfg, uint32_t die_index, uint64_t seed, const NandOptions& options)
    : cfg_(cfg),
      die_index_(die_index),
      seed_(Mix64(seed ^ Mix64(0x64696500ULL + die_index))),
      options_(options),
      error_model_(cfg, options.reliability),
      spare_fn_(ErasedSpare) {
  auto require = [&](bool ok, const char* what) {
    if (!ok)
      throw std::invalid_argument(std::string("nand die: config '") + std::string(cfg.name) +
                                  "': " + what);
  };
  require(cfg.phys_planes > 0 && cfg.blocks > 0 && cfg.pages > 0, "empty geometry");
  require(cfg.page_bytes > 0 && cfg.page_bytes % kCodewordDataBytes == 0,
          "page_bytes must be a positive multiple of 8 (whole 64-bit words)");
  require(cfg.cl_bytes > 0 && cfg.cl_bytes % kCodewordDataBytes == 0 &&
              cfg.page_bytes % cfg.cl_bytes == 0,
          "cl_bytes must be a multiple of 8 that divides page_bytes");
  // The interleaved layout: one check byte per data word (docs/nand_model.md, "Page image").
  require(cfg.spare_bytes * kCodewordDataBytes == cfg.page_bytes,
          "spare_bytes must be page_bytes / 8 (one check byte a 64-bit word)");
  require(cfg.page_image_bytes == cfg.page_bytes + cfg.spare_bytes,
          "page_image_bytes must be page_bytes + spare_bytes");
  require(cfg.cl_image_bytes * kCodewordDataBytes == cfg.cl_bytes * kCodewordBytes,
          "cl_image_bytes must be cl_bytes * 9/8");
  require(cfg.die_io_bytes_per_cycle > 0, "die_io_bytes_per_cycle must be > 0");
  require(cfg.page_image_bytes * 8 < (uint64_t{1} << 32), "page too large");
  require(cfg.phys_planes < (uint64_t{1} << 31) && cfg.blocks < (uint64_t{1} << 31) &&
              cfg.pages < (uint64_t{1} << 31),
          "geometry too large");
  image_bytes_ = static_cast<uint32_t>(cfg.page_image_bytes);
  page_bits_ = image_bytes_ * 8;
  data_in_cycles_ = options.program_data_in_on_io
                        ? static_cast<uint32_t>(CeilDiv(image_bytes_, cfg.die_io_bytes_per_cycle))
                        : 0;
  blocks_.resize(cfg.phys_planes * cfg.blocks);
  planes_.resize(cfg.phys_planes);
  seen_epoch_.assign(cfg.phys_planes, 0);
  // Factory marks: seeded per block; block 0 of each plane is guaranteed good, as vendors do.
  const double p_bad = static_cast<double>(cfg.factory_bad_block_ppm) / 1e6;
  if (p_bad > 0.0) {
    for (uint32_t plane = 0; plane < cfg.phys_planes; ++plane) {
      for (uint32_t block = 1; block < cfg.blocks; ++block) {
        const uint64_t u = Mix64(seed_ ^ kFactorySalt ^ Mix64(plane * cfg.blocks + block));
        if (UnitInterval(u) < p_bad) Block(plane, block).bad = BadBlock::kFactory;
      }
    }
  }
}

// --- Checks --------------------------------------------------------------------------------

void NandDie::Throw(NandErrorCode code, NandCmd cmd, int64_t plane, int64_t block, int64_t page,
                    uint64_t now, const std::string& what) const {
  throw NandError(code, die_index_, cmd, plane, block, page, now, what);
}

void NandDie::ThrowTimeReversal(NandCmd cmd, uint64_t now) const {
  Throw(NandErrorCode::kTimeReversal, cmd, -1, -1, -1, now,
        "issued before the previous command (cycle " + Str(last_cmd_cycle_) + ")");
}

void NandDie::ThrowPlaneRange(NandCmd cmd, uint32_t plane, uint64_t now) const {
  Throw(NandErrorCode::kOutOfRange, cmd, plane, -1, -1, now,
        "plane outside 0.." + Str(cfg_.phys_planes - 1));
}

void NandDie::CheckBlock(NandCmd cmd, uint32_t plane, uint32_t block, uint64_t now) const {
  CheckPlane(cmd, plane, now);
  if (block >= cfg_.blocks) {
    Throw(NandErrorCode::kOutOfRange, cmd, plane, block, -1, now,
          "block outside 0.." + Str(cfg_.blocks - 1));
  }
}

void NandDie::CheckPage(NandCmd cmd, uint32_t plane, uint32_t block, uint32_t page,
                        uint64_t now) const {
  CheckBlock(cmd, plane, block, now);
  if (page >= cfg_.pages) {
    Throw(NandErrorCode::kOutOfRange, cmd, plane, block, page, now,
          "page outside 0.." + Str(cfg_.pages - 1));
  }
}

void NandDie::CheckNotDuplicate(NandCmd cmd, uint32_t plane, uint64_t now) {
  if (seen_epoch_[plane] == epoch_) {
    Throw(NandErrorCode::kDuplicatePlane, cmd, plane, -1, -1, now,
          "plane named twice in one multi-plane command");
  }
  seen_epoch_[plane] = epoch_;
}

void NandDie::CheckSenseTargets(NandCmd cmd, const std::vector<PlaneBlock>& targets, uint32_t page,
                                uint64_t now) {
  CheckTime(cmd, now);
  if (targets.empty()) Throw(NandErrorCode::kBadArgument, cmd, -1, -1, page, now, "no planes");
  if (++epoch_ == 0) {  // wrapped: forget old marks
    std::fill(seen_epoch_.begin(), seen_epoch_.end(), 0);
    epoch_ = 1;
  }
  for (const PlaneBlock& t : targets) {
    CheckPage(cmd, t.plane, t.block, page, now);
    CheckNotDuplicate(cmd, t.plane, now);
    const PlaneState& ps = planes_[t.plane];
    if (now < ps.array_busy_until) {
      Throw(NandErrorCode::kPlaneBusy, cmd, t.plane, t.block, page, now,
            "plane busy until cycle " + Str(ps.array_busy_until));
    }
    if (cmd == NandCmd::kCacheRead) {
      if (!ps.page_valid) {
        Throw(NandErrorCode::kPageBufferEmpty, cmd, t.plane, t.block, page, now,
              "page buffer holds no sensed page to move to the cache buffer");
      }
      if (CacheReadingOut(t.plane, now)) {
        Throw(NandErrorCode::kCacheBusy, cmd, t.plane, t.block, page, now,
              "cache buffer is being read out until cycle " + Str(io_busy_until_));
      }
    }
  }
}

// --- Sensing -------------------------------------------------------------------------------

uint64_t NandDie::PageKey(uint32_t plane, uint32_t block, uint32_t page) const {
  uint64_t k = Mix64(seed_ ^ plane);
  k = Mix64(k ^ block);
  return Mix64(k ^ page);
}

void NandDie::Sense(uint32_t plane, uint32_t block, uint32_t page, uint64_t start,
                    SensedPage* out) {
  BlockState& b = Block(plane, block);
  const uint64_t disturb_before = b.disturb++;
  out->addr = PageAddr{plane, block, page};
  if (b.bad == BadBlock::kFactory) {
    out->image = PageImage{};
    out->image.kind = ContentKind::kBadMarker;
  } else {
    out->image = b.content.Image(page);
  }
  out->sense_index = b.disturb;
  out->sensed_at = start + cfg_.t_read_cycles;
  const uint64_t age =
      (b.content.programmed() > 0 && start > b.program_cycle) ? start - b.program_cycle : 0;
  out->rber = error_model_.Rber(disturb_before, age, b.wear);
  const uint64_t page_key = PageKey(plane, block, page);
  // Per sense: the sense index, and the erase count so that a new generation draws afresh.
  out->flip_key = Mix64(page_key ^ Mix64(b.disturb) ^ Mix64(~b.pe));
  // Positions belong to the page's current program (erase generation): errors persist.
  out->position_key = Mix64(page_key ^ kPositionSalt ^ Mix64(b.pe));
  out->flip_count = ErrorModel::DrawCount(out->rber * page_bits_, out->flip_key, page_bits_ / 2);
  ++counters_.senses;
  counters_.sensed_bytes += image_bytes_;
}

uint64_t NandDie::Read(const std::vector<PlaneBlock>& targets, uint32_t page, uint64_t now) {
  CheckSenseTargets(NandCmd::kRead, targets, page, now);
  last_cmd_cycle_ = now;
  ++counters_.read_cmds;
  const uint64_t done = now + cfg_.t_read_cycles;
  for (const PlaneBlock& t : targets) {
    PlaneState& ps = planes_[t.plane];
    Sense(t.plane, t.block, page, now, &ps.page_buf);
    ps.page_valid = true;
    ps.array_busy_until = done;
  }
  return done;
}

CacheMove NandDie::CacheRead(const std::vector<PlaneBlock>& targets, uint32_t page, uint64_t now) {
  CheckSenseTargets(NandCmd::kCacheRead, targets, page, now);
  last_cmd_cycle_ = now;
  ++counters_.cache_read_cmds;
  const uint64_t moved = now + cfg_.t_cache_xfer_cycles;
  const uint64_t sensed = moved + cfg_.t_read_cycles;
  for (const PlaneBlock& t : targets) {
    PlaneState& ps = planes_[t.plane];
    std::swap(ps.cache_buf, ps.page_buf);  // the old cache page is dropped; reuse its storage
    ps.cache_valid = true;
    ps.positions_ready = false;
    ps.cache_ready_at = moved;
    // The page buffer is free once the move is done: the next sense starts then.
    Sense(t.plane, t.block, page, moved, &ps.page_buf);
    ps.page_valid = true;
    ps.array_busy_until = sensed;
    ++counters_.cache_xfers;
  }
  return CacheMove{moved, sensed};
}

CacheMove NandDie::CacheEnd(const std::vector<uint32_t>& planes, uint64_t now) {
  const NandCmd cmd = NandCmd::kCacheEnd;
  CheckTime(cmd, now);
  if (planes.empty()) Throw(NandErrorCode::kBadArgument, cmd, -1, -1, -1, now, "no planes");
  if (++epoch_ == 0) {
    std::fill(seen_epoch_.begin(), seen_epoch_.end(), 0);
    epoch_ = 1;
  }
  for (uint32_t plane : planes) {
    CheckPlane(cmd, plane, now);
    CheckNotDuplicate(cmd, plane, now);
    const PlaneState& ps = planes_[plane];
    if (now < ps.array_busy_until) {
      Throw(NandErrorCode::kPlaneBusy, cmd, plane, -1, -1, now,
            "plane busy until cycle " + Str(ps.array_busy_until));
    }
    if (!ps.page_valid) {
      Throw(NandErrorCode::kPageBufferEmpty, cmd, plane, -1, -1, now,
            "page buffer holds no sensed page to move to the cache buffer");
    }
    if (CacheReadingOut(plane, now)) {
      Throw(NandErrorCode::kCacheBusy, cmd, plane, -1, -1, now,
            "cache buffer is being read out until cycle " + Str(io_busy_until_));
    }
  }
  last_cmd_cycle_ = now;
  ++counters_.cache_end_cmds;
  const uint64_t moved = now + cfg_.t_cache_xfer_cycles;
  for (uint32_t plane : planes) {
    PlaneState& ps = planes_[plane];
    std::swap(ps.cache_buf, ps.page_buf);
    ps.cache_valid = true;
    ps.page_valid = false;
    ps.positions_ready = false;
    ps.cache_ready_at = moved;
    ps.array_busy_until = moved;
    ++counters_.cache_xfers;
  }
  return CacheMove{moved, moved};
}

// DataOut's checks in order, each throwing its own error: called only when one fails.
void NandDie::ThrowDataOut(uint32_t plane, uint32_t offset, uint32_t nbytes, uint64_t now) const {
  const NandCmd cmd = NandCmd::kDataOut;
  CheckTime(cmd, now);
  CheckPlane(cmd, plane, now);
  if (nbytes == 0) Throw(NandErrorCode::kBadArgument, cmd, plane, -1, -1, now, "zero bytes");
  if (static_cast<uint64_t>(offset) + nbytes > image_bytes_) {
    Throw(NandErrorCode::kOutOfRange, cmd, plane, -1, -1, now,
          "image bytes " + Str(offset) + ".." + Str(uint64_t{offset} + nbytes - 1) +
              " outside the page image (0.." + Str(image_bytes_ - 1) + ")");
  }
  const PlaneState& ps = planes_[plane];
  if (!ps.cache_valid) {
    Throw(NandErrorCode::kCacheEmpty, cmd, plane, -1, -1, now,
          "cache buffer holds no sensed page (CacheRead or CacheEnd first)");
  }
  const int64_t blk = ps.cache_buf.addr.block, pg = ps.cache_buf.addr.page;
  if (now < ps.cache_ready_at) {
    Throw(NandErrorCode::kCacheBusy, cmd, plane, blk, pg, now,
          "cache buffer filling until cycle " + Str(ps.cache_ready_at));
  }
  if (now < io_busy_until_) {
    Throw(NandErrorCode::kIoBusy, cmd, plane, blk, pg, now,
          "die I/O busy until cycle " + Str(io_busy_until_));
  }
  Throw(NandErrorCode::kBadArgument, NandCmd::kDataOut, plane, -1, -1, now, "no check failed");
}

// DataOut's bytes: the cache buffer's image with this sense's bit errors (apart from DataOut, so
// that its timing-only path stays short).
void NandDie::ReadOut(PlaneState& ps, uint32_t offset, uint32_t nbytes, uint8_t* out) {
  MaterialiseImage(cfg_, ps.cache_buf.image, spare_fn_, offset, nbytes, out);
  if (ps.cache_buf.flip_count > 0) {
    if (!ps.positions_ready) {
      ErrorModel::DrawPositions(ps.cache_buf.position_key, ps.cache_buf.flip_count, page_bits_,
                                &ps.cache_positions);
      ps.positions_ready = true;
    }
    const uint64_t lo = uint64_t{offset} * 8, hi = (uint64_t{offset} + nbytes) * 8;
    for (uint32_t bit : ps.cache_positions) {
      if (bit >= lo && bit < hi) out[bit / 8 - offset] ^= static_cast<uint8_t>(1u << (bit % 8));
    }
  }
}

void NandDie::SetOutBytes(uint32_t nbytes) {
  out_nbytes_ = nbytes;
  out_cycles_ = CeilDiv(nbytes, cfg_.die_io_bytes_per_cycle);
}

std::vector<uint8_t> NandDie::DataOutBytes(uint32_t plane, uint32_t offset, uint32_t nbytes,
                                           uint64_t now) {
  std::vector<uint8_t> bytes(nbytes);
  DataOut(plane, offset, nbytes, now, bytes.data());
  return bytes;
}

// --- Program and erase ---------------------------------------------------------------------

NandDie::BlockState& NandDie::CheckProgram(const PageAddr& a, uint64_t now) {
  const NandCmd cmd = NandCmd::kProgram;
  CheckTime(cmd, now);
  CheckPage(cmd, a.plane, a.block, a.page, now);
  BlockState& b = Block(a.plane, a.block);
  if (b.bad != BadBlock::kGood) {
    Throw(NandErrorCode::kBadBlock, cmd, a.plane, a.block, a.page, now,
          std::string("program of a bad block (") + std::string(ToString(b.bad)) + ")");
  }
  const PlaneState& ps = planes_[a.plane];
  if (now < ps.array_busy_until) {
    Throw(NandErrorCode::kPlaneBusy, cmd, a.plane, a.block, a.page, now,
          "plane busy until cycle " + Str(ps.array_busy_until));
  }
  if (options_.program_data_in_on_io && now < io_busy_until_) {
    Throw(NandErrorCode::kIoBusy, cmd, a.plane, a.block, a.page, now,
          "die I/O busy until cycle " + Str(io_busy_until_) + " (program data-in needs it)");
  }
  if (CacheReadingOut(a.plane, now)) {
    Throw(NandErrorCode::kCacheBusy, cmd, a.plane, a.block, a.page, now,
          "cache buffer is being read out until cycle " + Str(io_busy_until_));
  }
  const uint32_t wp = b.content.programmed();
  if (a.page < wp) {
    Throw(NandErrorCode::kNotErased, cmd, a.plane, a.block, a.page, now,
          "page already programmed since the last erase");
  }
  if (a.page > wp) {
    Throw(NandErrorCode::kOutOfOrder, cmd, a.plane, a.block, a.page, now,
          "pages of a block are programmed in order: next is page " + Str(wp));
  }
  return b;
}

bool NandDie::ConsumeFailure(BlockState& b, Fault fault) const {
  const uint8_t bit = static_cast<uint8_t>(1u << static_cast<unsigned>(fault));
  if (b.faults & bit) {
    b.faults = static_cast<uint8_t>(b.faults & ~bit);
    return true;
  }
  // Erase: the count already includes this erase. Program: the block is past its budget.
  return b.pe > cfg_.pe_limit;
}

OpResult NandDie::FinishProgram(const PageAddr& a, BlockState& b, uint32_t pages, bool failed,
                                uint64_t now) {
  last_cmd_cycle_ = now;
  PlaneState& ps = planes_[a.plane];
  // Program data goes through the cache and page registers: neither holds a sensed page after.
  ps.page_valid = false;
  ps.cache_valid = false;
  const uint64_t first_done = now + data_in_cycles_ + cfg_.t_prog_cycles;
  const uint64_t done = now + pages * (data_in_cycles_ + cfg_.t_prog_cycles);
  if (data_in_cycles_ > 0) {
    io_busy_until_ = now + data_in_cycles_;
    io_plane_ = kNoPlane;
  }
  if (a.page == 0) b.program_cycle = first_done;  // retention is counted from here
  if (failed) {
    PageImage junk;
    junk.kind = ContentKind::kGarbage;
    junk.garbage_seed = Mix64(PageKey(a.plane, a.block, a.page) ^ kGarbageSalt ^ b.pe);
    b.content.ProgramImage(a.page, std::move(junk));
    if (b.bad == BadBlock::kGood) {
      b.bad = b.pe > cfg_.pe_limit ? BadBlock::kWornOut : BadBlock::kProgramFail;
    }
    ++counters_.program_fails;
  }
  ps.array_busy_until = failed ? first_done : done;
  ps.op_done_at = ps.array_busy_until;
  ps.op_failed = failed;
  const uint32_t counted = failed ? 1 : pages;
  counters_.program_cmds += counted;
  counters_.programmed_bytes += uint64_t{counted} * image_bytes_;
  return OpResult{!failed, ps.array_busy_until};
}

OpResult NandDie::ProgramTagged(const PageAddr& addr, const PageTag& tag, uint64_t now) {
  BlockState& b = CheckProgram(addr, now);
  const bool failed = ConsumeFailure(b, Fault::kProgramFail);
  if (!failed) b.content.ProgramTag(addr.page, tag);
  return FinishProgram(addr, b, 1, failed, now);
}

OpResult NandDie::ProgramBytes(const PageAddr& addr, const std::vector<uint8_t>& data,
                               uint64_t now) {
  if (data.size() != cfg_.page_bytes && data.size() != image_bytes_) {
    CheckTime(NandCmd::kProgram, now);
    Throw(NandErrorCode::kBadArgument, NandCmd::kProgram, addr.plane, addr.block, addr.page, now,
          "data of " + Str(data.size()) + " bytes: need " + Str(cfg_.page_bytes) + " (data) or " +
              Str(image_bytes_) + " (interleaved image)");
  }
  BlockState& b = CheckProgram(addr, now);
  const bool failed = ConsumeFailure(b, Fault::kProgramFail);
  if (!failed) {
    // Exactly one page image of storage.
    auto bytes = std::make_shared<std::vector<uint8_t>>(image_bytes_);
    if (data.size() == image_bytes_) {
      std::copy(data.begin(), data.end(), bytes->begin());
    } else {
      InterleaveImage(data.data(), data.size(), spare_fn_, bytes->data());
    }
    PageImage img;
    img.kind = ContentKind::kBytes;
    img.bytes = std::move(bytes);
    b.content.ProgramImage(addr.page, std::move(img));
  }
  return FinishProgram(addr, b, 1, failed, now);
}

OpResult NandDie::ProgramBlockTagged(uint32_t plane, uint32_t block, const PageTag& base,
                                     uint32_t pages, uint64_t now) {
  const NandCmd cmd = NandCmd::kProgram;
  CheckTime(cmd, now);
  CheckBlock(cmd, plane, block, now);
  const uint32_t first = Block(plane, block).content.programmed();
  if (pages == 0) Throw(NandErrorCode::kBadArgument, cmd, plane, block, first, now, "zero pages");
  if (uint64_t{first} + pages > cfg_.pages) {
    Throw(NandErrorCode::kOutOfRange, cmd, plane, block, first, now,
          Str(pages) + " pages from page " + Str(first) + " pass the end of the block");
  }
  const PageAddr addr{plane, block, first};
  BlockState& b = CheckProgram(addr, now);
  const bool failed = ConsumeFailure(b, Fault::kProgramFail);
  if (!failed) b.content.ProgramRun(base, pages);
  return FinishProgram(addr, b, pages, failed, now);
}

OpResult NandDie::Erase(uint32_t plane, uint32_t block, uint64_t now) {
  const NandCmd cmd = NandCmd::kErase;
  CheckTime(cmd, now);
  CheckBlock(cmd, plane, block, now);
  BlockState& b = Block(plane, block);
  if (b.bad != BadBlock::kGood) {
    Throw(NandErrorCode::kBadBlock, cmd, plane, block, -1, now,
          std::string("erase of a bad block (") + std::string(ToString(b.bad)) + ")");
  }
  PlaneState& ps = planes_[plane];
  if (now < ps.array_busy_until) {
    Throw(NandErrorCode::kPlaneBusy, cmd, plane, block, -1, now,
          "plane busy until cycle " + Str(ps.array_busy_until));
  }
  last_cmd_cycle_ = now;
  ++b.pe;  // the erase pulse stresses the cells whether or not verify passes
  const bool failed = ConsumeFailure(b, Fault::kEraseFail);
  b.content.Erase();
  b.disturb = 0;
  b.program_cycle = 0;
  b.wear = error_model_.WearFactor(b.pe);
  if (failed) {
    b.bad = b.pe > cfg_.pe_limit ? BadBlock::kWornOut : BadBlock::kEraseFail;
    ++counters_.erase_fails;
  }
  ps.array_busy_until = now + cfg_.t_erase_cycles;
  ps.op_done_at = ps.array_busy_until;
  ps.op_failed = failed;
  ++counters_.erase_cmds;
  return OpResult{!failed, ps.array_busy_until};
}

void NandDie::Preload(uint32_t plane, uint32_t block, bool erase,
                      const std::vector<PageImage>& pages, uint64_t now) {
  // Reported as the program it stands for.
  const NandCmd cmd = NandCmd::kProgram;
  CheckBlock(cmd, plane, block, now);
  BlockState& b = Block(plane, block);
  if (b.bad != BadBlock::kGood) {
    Throw(NandErrorCode::kBadBlock, cmd, plane, block, -1, now,
          std::string("preload of a bad block (") + std::string(ToString(b.bad)) + ")");
  }
  if (pages.size() > cfg_.pages) {
    Throw(NandErrorCode::kBadArgument, cmd, plane, block, -1, now,
          "preload of " + Str(pages.size()) + " pages into a block of " + Str(cfg_.pages));
  }
  if (!erase && b.content.programmed() != 0) {
    Throw(NandErrorCode::kBadArgument, cmd, plane, block, -1, now,
          "preload without erase of a block with " + Str(b.content.programmed()) +
              " pages programmed");
  }
  if (PlaneBusy(plane, now)) {
    Throw(NandErrorCode::kPlaneBusy, cmd, plane, block, -1, now,
          "plane busy until cycle " + Str(PlaneReadyAt(plane)));
  }
  if (erase) {
    ++b.pe;
    b.wear = error_model_.WearFactor(b.pe);
  }
  b.content.Erase();
  b.disturb = 0;
  b.program_cycle = pages.empty() ? 0 : now;
  for (uint32_t p = 0; p < pages.size(); ++p) {
    if (pages[p].kind == ContentKind::kTagged && !pages[p].corrupt) {
      b.content.ProgramTag(p, pages[p].tag);
    } else {
      b.content.ProgramImage(p, pages[p]);
    }
  }
}

NandResponse NandDie::Apply(const NandCommand& c, uint64_t now) {
  NandResponse r;
  auto single = [&]() -> const PlaneBlock& {
    if (c.targets.size() != 1) {
      CheckTime(c.op, now);
      Throw(NandErrorCode::kBadArgument, c.op, -1, -1, -1, now,
            "needs exactly one target, got " + Str(c.targets.size()));
    }
    return c.targets[0];
  };
  switch (c.op) {
    case NandCmd::kRead: r.done_at = Read(c.targets, c.page, now); break;
    case NandCmd::kCacheRead: r.done_at = CacheRead(c.targets, c.page, now).cache_ready_at; break;
    case NandCmd::kCacheEnd: {
      std::vector<uint32_t> planes;
      planes.reserve(c.targets.size());
      for (const PlaneBlock& t : c.targets) planes.push_back(t.plane);
      r.done_at = CacheEnd(planes, now).cache_ready_at;
      break;
    }
    case NandCmd::kDataOut: {
      const PlaneBlock& t = single();
      r.data.resize(c.nbytes);
      r.done_at = DataOut(t.plane, c.offset, c.nbytes, now, r.data.data());
      break;
    }
    case NandCmd::kProgram: {
      const PlaneBlock& t = single();
      const OpResult op = ProgramBytes(PageAddr{t.plane, t.block, c.page}, c.data, now);
      r.done_at = op.done_at;
      r.pass = op.pass;
      break;
    }
    case NandCmd::kErase: {
      const PlaneBlock& t = single();
      const OpResult op = Erase(t.plane, t.block, now);
      r.done_at = op.done_at;
      r.pass = op.pass;
      break;
    }
    default: Throw(NandErrorCode::kBadArgument, c.op, -1, -1, -1, now, "unknown opcode");
  }
  return r;
}

// --- Queries -------------------------------------------------------------------------------

void NandDie::ThrowPlaneQuery(uint32_t plane) const {
  throw std::out_of_range("nand die " + Str(die_index_) + ": plane " + Str(plane) +
                          " outside 0.." + Str(cfg_.phys_planes - 1));
}

const NandDie::BlockState& NandDie::QueryBlock(uint32_t plane, uint32_t block) const {
  QueryPlane(plane);
  if (block >= cfg_.blocks) {
    throw std::out_of_range("nand die " + Str(die_index_) + ": block " + Str(block) +
                            " outside 0.." + Str(cfg_.blocks - 1));
  }
  return Block(plane, block);
}


uint64_t NandDie::DisturbCount(uint32_t plane, uint32_t block) const {
  return QueryBlock(plane, block).disturb;
}

uint64_t NandDie::PeCycles(uint32_t plane, uint32_t block) const {
  return QueryBlock(plane, block).pe;
}

uint64_t NandDie::RetentionAge(uint32_t plane, uint32_t block, uint64_t now) const {
  const BlockState& b = QueryBlock(plane, block);
  return (b.content.programmed() > 0 && now > b.program_cycle) ? now - b.program_cycle : 0;
}

uint32_t NandDie::WritePointer(uint32_t plane, uint32_t block) const {
  return QueryBlock(plane, block).content.programmed();
}

BadBlock NandDie::BadState(uint32_t plane, uint32_t block) const {
  return QueryBlock(plane, block).bad;
}

uint64_t NandDie::BadBlockCount() const {
  return static_cast<uint64_t>(std::count_if(
      blocks_.begin(), blocks_.end(), [](const auto& b) { return b.bad != BadBlock::kGood; }));
}

PageImage NandDie::StoredImage(const PageAddr& a) const {
  const BlockState& b = QueryBlock(a.plane, a.block);
  if (a.page >= cfg_.pages) throw std::out_of_range("nand die: page " + Str(a.page));
  if (b.bad == BadBlock::kFactory) {
    PageImage img;
    img.kind = ContentKind::kBadMarker;
    return img;
  }
  return b.content.Image(a.page);
}

double NandDie::Rber(uint32_t plane, uint32_t block, uint64_t now) const {
  const BlockState& b = QueryBlock(plane, block);
  return error_model_.Rber(b.disturb, RetentionAge(plane, block, now), b.wear);
}

// --- Hooks ---------------------------------------------------------------------------------

void NandDie::MarkBad(uint32_t plane, uint32_t block) {
  QueryBlock(plane, block);
  BlockState& b = Block(plane, block);
  if (b.bad == BadBlock::kGood) b.bad = BadBlock::kMarked;
}

void NandDie::SetPeCycles(uint32_t plane, uint32_t block, uint64_t pe_cycles) {
  QueryBlock(plane, block);
  BlockState& b = Block(plane, block);
  b.pe = pe_cycles;
  b.wear = error_model_.WearFactor(pe_cycles);
}

void NandDie::InjectFault(uint32_t plane, uint32_t block, Fault fault) {
  QueryBlock(plane, block);
  BlockState& b = Block(plane, block);
  b.faults = static_cast<uint8_t>(b.faults | (1u << static_cast<unsigned>(fault)));
}

void NandDie::CorruptPage(const PageAddr& a, const std::vector<uint32_t>& bits) {
  QueryBlock(a.plane, a.block);
  BlockState& b = Block(a.plane, a.block);
  if (a.page >= b.content.programmed()) {
    throw std::invalid_argument("nand die " + Str(die_index_) + ": CorruptPage of plane " +
                                Str(a.plane) + " block " + Str(a.block) + " page " + Str(a.page) +
                                ": page is not programmed");
  }
  for (uint32_t bit : bits) {
    if (bit >= page_bits_) {
      throw std::invalid_argument("nand die: CorruptPage bit " + Str(bit) +
                                  " outside the page image's bits 0.." + Str(page_bits_ - 1));
    }
  }
  b.content.Corrupt(a.page, bits);
}

// --- Accounting ----------------------------------------------------------------------------

NandEnergy NandDie::Energy() const {
  NandEnergy e;
  e.read_pj = static_cast<double>(counters_.sensed_bytes) * 8.0 * cfg_.read_pj_per_bit;
  e.program_pj = static_cast<double>(counters_.programmed_bytes) * 8.0 * cfg_.prog_pj_per_bit;
  e.erase_pj = static_cast<double>(counters_.erase_cmds) * cfg_.erase_nj_per_block * 1000.0;
  return e;
}

uint64_t NandDie::FootprintBytes() const {
  uint64_t bytes = sizeof(*this) + blocks_.capacity() * sizeof(BlockState) +
                   planes_.capacity() * sizeof(PlaneState) +
                   seen_epoch_.capacity() * sizeof(uint32_t);
  for (const BlockState& b : blocks_) bytes += b.content.HeapBytes();
  for (const PlaneState& ps : planes_) {
    bytes += ps.cache_positions.capacity() * sizeof(uint32_t);
  }
  return bytes;
}

}  // namespace flint::model
